"""Positions are checked completely on load: a Gorus Maximus position either loads as one the
engine plays on, or is refused with a RecordError naming the field."""

from __future__ import annotations

import copy
import json
from functools import cache

from ludus.core.rng import Rng
from ludus.games.gorus_maximus.cards import _deck
from ludus.games.gorus_maximus.game import GAME
from tests.games.position_fuzz import (
    expect_refused,
    fuzz_positions,
    play_explicit,
    play_to,
)

MODES = (
    {"players": 1}, {"players": 2}, {"players": 3}, {"players": 4}, {"players": 5},
    {"players": 4, "teams": "2v2"}, {"players": 4, "target": 1, "final_tie": "play-on"},
    {"players": 3, "schools": "BF,GA,PA"},
)


@cache
def positions() -> list[dict]:
    out = []
    for i, opts in enumerate(MODES):
        for depth in (0, 4, 13, 27):
            out.append(play_to(GAME, opts, 100 + i, depth + 2 * i).to_json())
        out.append(play_to(GAME, opts, 200 + i, 100_000).to_json())  # finished
        out.append(play_explicit(GAME, opts, 300 + i, 3 + 7 * i).to_json())  # chance is explicit
    return json.loads(json.dumps(out))




def cards_conserved(state) -> None:
    """Every card of the deck in exactly one place: stock, a hand, a collected pile or the bout."""
    deck = _deck(state.schools, state.ranks) if state.schools else 0
    seen = state.stock
    for m in [*state.hands, *state.collected, sum(1 << c for _, c in state.bout)]:
        assert not seen & m, "a card is in two places"
        seen |= m
    assert seen == deck, "the cards do not add up to the deck"
    assert state.collected_count == [m.bit_count() for m in state.collected]
    assert len(state.support) == len(state.collected) == state.num_sides


def test_mutated_positions_load_cleanly_or_are_refused():
    counts = fuzz_positions(GAME, positions(), examples=700, steps=300, invariant=cards_conserved)
    print(f"\ngorus-maximus mutated positions: {dict(counts)}")
    assert counts["loaded"] and counts["refused"]  # the mutations reach both outcomes


def test_valid_positions_round_trip():
    for pos in positions():
        assert GAME.state_from_json(copy.deepcopy(pos)).to_json() == pos


# --------------------------------------------------------------------------- reported cases
def _playing(players: int = 4) -> dict:
    """A position in the play phase with a bout under way."""
    state = GAME.new_initial_state({"players": players, "schools": "BF,GA,PA" if players < 4 else "random"},
                                   seed=3)
    rng = Rng(1)
    while not state.bout:
        state.apply(rng.choice(state.legal_actions()))
    return json.loads(json.dumps(state.to_json()))


def test_collected_count_of_wrong_length_is_refused():
    pos = _playing()
    pos["state"]["collected_count"] = [0, 0]
    expect_refused(GAME, pos, "collected_count")


def test_collected_count_that_disagrees_with_the_piles_is_refused():
    pos = _playing()
    pos["state"]["collected_count"][0] += 3
    expect_refused(GAME, pos, "collected_count")


def test_out_of_range_schools_are_refused():
    for field, value in (("preferred", 7), ("initiating", 9), ("preferred", -5)):
        pos = _playing()
        pos["state"][field] = value
        expect_refused(GAME, pos, field)
    pos = _playing()
    pos["state"]["schools"] = ["BF", "GA", "XX", "PA"]
    expect_refused(GAME, pos, "schools")
    pos = _playing(3)
    pos["state"]["preferred"] = 4  # a real school, but not one in play
    expect_refused(GAME, pos, "preferred")


def test_empty_bout_in_the_solo_play_phase_is_refused():
    state = GAME.new_initial_state({"players": 1}, seed=5)
    assert state.phase == "play" and len(state.bout) == 1  # the contender has led
    pos = json.loads(json.dumps(state.to_json()))
    (_, card), = pos["state"]["bout"]
    pos["state"]["bout"] = []
    pos["state"]["initiating"] = pos["state"]["preferred"] = -1
    pos["state"]["stock"].append(card)  # the card goes back: the deck still adds up
    expect_refused(GAME, pos, "bout")


def test_wrong_seat_to_move_is_refused():
    pos = _playing()
    pos["state"]["turn"] = (pos["state"]["turn"] + 1) % 4
    expect_refused(GAME, pos, "turn")


def test_card_in_two_places_and_missing_cards_are_refused():
    pos = _playing()
    pos["state"]["hands"][0].append(pos["state"]["hands"][1][0])
    expect_refused(GAME, pos, "two places|twice")
    pos = _playing()
    pos["state"]["hands"][2].pop()
    expect_refused(GAME, pos, "add up")


def test_bool_and_huge_numbers_are_refused():
    for field, value in (("round", True), ("dealer", 2**63), ("turn", -2), ("dealt", 2**64)):
        pos = _playing()
        pos["state"][field] = value
        expect_refused(GAME, pos, field)
    pos = _playing()
    pos["rng"] = 2**64
    expect_refused(GAME, pos, "rng")
