"""Positions are checked completely on load: a Gorus Arena position either loads as one the
engine plays on, or is refused with a RecordError naming the field."""

from __future__ import annotations

import copy
import json
from functools import cache

from ludus.core.bits import mask_of
from ludus.core.rng import Rng
from ludus.games.gorus_arena.cards import ARMOURY_MASK, MARKET_MASK, basics_of
from ludus.games.gorus_arena.game import GAME
from tests.games.position_fuzz import (
    expect_refused,
    fuzz_positions,
    play_explicit,
    play_to,
)

MODES = (
    {"players": 2}, {"players": 3}, {"players": 5, "rounds": 2},
    {"players": 3, "auction": "per-round", "attack_targets": "team", "tie_resolution": "turn-order"},
    {"players": 4, "free_plan": True, "defence_timing": "execution", "attack_targets": "arena",
     "starting_player": "trailing", "armoury": False},
    {"players": 3, "used_cards": "leave", "refill": "choose"},
)


@cache
def positions() -> list[dict]:
    out = []
    for i, opts in enumerate(MODES):
        for depth in (0, 3, 9, 17, 30):
            out.append(play_to(GAME, opts, 100 + i, depth + i).to_json())
        out.append(play_to(GAME, opts, 200 + i, 100_000).to_json())  # finished
        out.append(play_explicit(GAME, opts, 300 + i, 25 + 3 * i).to_json())  # chance is explicit
    return json.loads(json.dumps(out))




def cards_conserved(state) -> None:
    """Each card of the game once: in a pile, a plan, the arena or the market, or dead (a dead
    card may still lie in the arena it fell in)."""
    in_game = MARKET_MASK | (ARMOURY_MASK if state.options.armoury else 0)
    for s in range(state.n):
        in_game |= basics_of(s)
    count = state.market.bit_count() + (state.dead & ~mask_of(c for a in state.arena for c in a)).bit_count()
    for s in range(state.n):
        count += (state.hand[s] | state.deck[s] | state.discard[s]).bit_count() + len(state.plan[s])
        count += len(state.arena[s])
        h, d, x = state.hand[s], state.deck[s], state.discard[s]
        assert not (h & d or h & x or d & x)
    assert count == in_game.bit_count(), "a card is in two places or missing"


def test_mutated_positions_load_cleanly_or_are_refused():
    counts = fuzz_positions(GAME, positions(), examples=600, steps=400, invariant=cards_conserved)
    print(f"\ngorus-arena mutated positions: {dict(counts)}")
    assert counts["loaded"] and counts["refused"]  # the mutations reach both outcomes


def test_valid_positions_round_trip():
    for pos in positions():
        assert GAME.state_from_json(copy.deepcopy(pos)).to_json() == pos


# --------------------------------------------------------------------------- reported cases
def _position(phase: str = "exec") -> dict:
    state = GAME.new_initial_state({"players": 3}, seed=4)
    rng = Rng(2)
    while state.phase != phase:
        seats = state.current_seats()
        state.apply(rng.choice(state.legal_actions(seats[0])), seats[0])
    return json.loads(json.dumps(state.to_json()))


def test_card_in_two_places_is_refused():
    pos = _position("plan")
    card = pos["state"]["hand"][0][0]
    pos["state"]["discard"][1].append(card)
    expect_refused(GAME, pos, "two places")
    pos = _position("plan")
    pos["state"]["market"].append(pos["state"]["hand"][1][0])
    expect_refused(GAME, pos, "two places")
    pos = _position("exec")
    pos["state"]["hand"][0].append(pos["state"]["arena"][0][0])
    expect_refused(GAME, pos, "two places")


def test_card_twice_in_one_list_or_missing_is_refused():
    pos = _position("plan")
    pos["state"]["market"].append(pos["state"]["market"][0])
    expect_refused(GAME, pos, "twice")
    pos = _position("plan")
    pos["state"]["market"].pop()
    expect_refused(GAME, pos, "add up")


def test_ready_must_be_true_or_false():
    pos = _position("plan")
    pos["state"]["ready"][0] = 1
    expect_refused(GAME, pos, "ready")


def test_execution_without_a_pending_card_is_refused():
    pos = _position("exec")
    pos["state"]["pending"] = None
    expect_refused(GAME, pos, "pending")
    pos = _position("exec")
    pos["state"]["queue"] = []
    expect_refused(GAME, pos, "pending|queue")


def test_malformed_entries_are_refused():
    pos = _position("exec")
    pos["state"]["queue"] = [[0]]
    expect_refused(GAME, pos, "queue")
    pos = _position("exec")
    pos["state"]["pending"] = [0]
    expect_refused(GAME, pos, "pending")
