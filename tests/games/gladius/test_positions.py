"""Positions are checked completely on load: a Gladius position either loads as one the engine
plays on, or is refused with a RecordError naming the field."""

from __future__ import annotations

import copy
import json
from functools import cache

from ludus.games.gladius.game import GAME
from ludus.games.gladius.views import PHASES
from tests.games.position_fuzz import (
    expect_refused,
    fuzz_positions,
    play_explicit,
    play_to,
)

MODES = (
    {}, {"solo": True}, {"first": "random", "reshuffle": False, "hand_limit": 3, "starting_hand": 3},
    {"fighter1": "murmillo", "fighter2": "murmillo", "turn_limit": 12},
    {"solo": True, "fighter2": "retiarius", "starting_hand": 0},
    {"solo": True, "reshuffle": False, "hand_limit": 3, "fighter1": "secutor", "fighter2": "dimachaeri"},
)


@cache
def positions() -> list[dict]:
    out = []
    for i, opts in enumerate(MODES):
        for depth in (0, 3, 8, 20, 45):
            out.append(play_to(GAME, opts, 100 + i, depth + i).to_json())
        out.append(play_to(GAME, opts, 200 + i, 100_000).to_json())  # finished
        for depth in (2, 15, 60):
            out.append(play_explicit(GAME, opts, 300 + i, depth).to_json())  # chance is explicit
    return json.loads(json.dumps(out))




def cards_conserved(state) -> None:
    places = [*state.hands, state.pile, state.discard, state.table, state.mini]
    seen = 0
    for m in places:
        assert not seen & m, "a card is in two places"
        seen |= m
    assert seen == state.setup.full, "the cards do not add up to the deck"


def test_mutated_positions_load_cleanly_or_are_refused():
    counts = fuzz_positions(GAME, positions(), examples=600, steps=80, invariant=cards_conserved)
    print(f"\ngladius mutated positions: {dict(counts)}")
    assert counts["loaded"] and counts["refused"]  # the mutations reach both outcomes


def test_valid_positions_round_trip():
    for pos in positions():
        assert GAME.state_from_json(copy.deepcopy(pos)).to_json() == pos


# --------------------------------------------------------------------------- problems as RecordError
def _position(phase: str = "attack", **options) -> dict:
    state = GAME.new_initial_state(options, seed=9)
    from ludus.core.rng import Rng

    rng = Rng(5)
    while PHASES[state.phase] != phase:
        state.apply(rng.choice(state.legal_actions()))
    return json.loads(json.dumps(state.to_json()))


def test_unhashable_phase_is_a_record_error():
    pos = _position()
    pos["state"]["phase"] = ["attack"]
    expect_refused(GAME, pos, "phase")
    pos = _position()
    pos["state"]["resume"] = {"x": 1}
    expect_refused(GAME, pos, "resume")


def test_loader_raises_record_errors_itself():
    """Not a ValueError caught by the generic safety net: the loader names the field."""
    pos = _position()
    del pos["state"]["hp"]
    expect_refused(GAME, pos, "position has no field 'hp'")
    pos = _position()
    pos["state"]["hp"] = [10]
    expect_refused(GAME, pos, "hp must be two numbers")


def test_phase_invariants_are_checked():
    pos = _position("attack", solo=True)
    pos["state"]["active"] = 1  # the automated opponent never takes the attack phase itself
    expect_refused(GAME, pos, "active")
    pos = _position()
    pos["state"]["hp"][0] = 0  # a knocked-out fighter and a game still going
    expect_refused(GAME, pos, "knockout")
    pos = _position()
    pos["state"]["turn"] = 10**6  # past the turn limit
    expect_refused(GAME, pos, "turn")
    pos = _position()
    pos["state"]["hp"][1] = 99  # more than the fighter starts with
    expect_refused(GAME, pos, "hp")


# --------------------------------------------------------------------------- the setup the rulebook fixes
def _dealing(dealt: int = 2, **options) -> dict:
    """A position in the middle of the deal (explicit chance), ``dealt`` cards handed out."""
    from ludus.core.game import CHANCE

    state = GAME.new_initial_state(options, seed=None)
    while state.dealt < dealt:
        state.apply(state.chance_outcomes()[0][0], CHANCE)
    assert PHASES[state.phase] == "deal"
    return json.loads(json.dumps(state.to_json()))


def test_the_deal_must_match_the_cards_dealt():
    pos = _dealing(3)  # the first fighter has 2 cards, the other 1
    assert GAME.state_from_json(copy.deepcopy(pos))
    first = pos["state"]["first"]
    pos["state"]["hands"][1 - first].append(pos["state"]["hands"][first].pop())  # 1 and 2: not this deal
    expect_refused(GAME, pos, "hands")
    pos = _dealing(2)
    card = pos["state"]["hands"][0].pop()  # a dealt card in the discards instead of a hand
    pos["state"]["discard"] = {card: 1}
    pos["state"]["unknown"] = [len(pos["state"]["hands"][1]), len(pos["state"]["hands"][0])]
    expect_refused(GAME, pos, "hands")


def test_the_retiarius_moves_first():
    pos = _position()  # Retiarius (fighter 1) against Secutor: the Retiarius moves first
    assert pos["state"]["first"] == 0
    pos["state"]["first"] = 1
    expect_refused(GAME, pos, "first")
    # a Secutor as fighter 1 against a Retiarius: fighter 2 moves first
    pos = _position(fighter1="secutor", fighter2="retiarius")
    assert pos["state"]["first"] == 1
    pos["state"]["first"] = 0
    expect_refused(GAME, pos, "first")
    pos = _position(first="random")  # a coin toss: either is possible
    pos["state"]["first"] = 1 - pos["state"]["first"]
    GAME.state_from_json(pos)


def test_cards_must_belong_to_the_fighter_that_played_them():
    pos = _position("defend")
    attacker = pos["state"]["active"]
    other = "secutor/Sword Stab" if attacker == 0 else "retiarius/Trident Thrust"
    table = pos["state"]["table"]
    pos["state"]["table"] = other  # the attacker's table card swapped for the other type's attack
    pile = pos["state"]["pile"]
    pile[other] -= 1
    pile[table] = pile.get(table, 0) + 1
    if not pile[other]:
        del pile[other]
    expect_refused(GAME, pos, "table")
    pos = _position()
    pos["state"]["last_attack"] = [0, "secutor/Sword Stab"]  # a Retiarius cannot have played it
    expect_refused(GAME, pos, "last_attack")
    pos = _position()
    pos["state"]["last_defence"] = [1, "retiarius/Withdraw"]
    expect_refused(GAME, pos, "last_defence")
    pos = _position()
    pos["state"]["lock"] = ["retiarius/Trident Thrust", None]  # a lock-out comes from an Evade or a Wild Swing
    expect_refused(GAME, pos, "lock")
