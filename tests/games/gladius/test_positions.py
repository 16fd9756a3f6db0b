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
