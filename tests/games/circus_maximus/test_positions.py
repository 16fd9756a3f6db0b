"""Positions are checked completely on load: a Circus Maximus position either loads as one the
engine plays on, or is refused with a RecordError naming the field."""

from __future__ import annotations

import copy
import json
from functools import cache

from ludus.core.game import CHANCE
from ludus.core.rng import Rng
from ludus.games.circus_maximus.game import GAME
from tests.games.position_fuzz import (
    expect_refused,
    fuzz_positions,
    play_explicit,
    play_to,
)

MODES = ({"players": 3}, {"players": 4, "caesar": True}, {"players": 5})


@cache
def positions() -> list[dict]:
    out = []
    for i, opts in enumerate(MODES):
        for depth in (0, 9, 25, 60, 140):
            out.append(play_to(GAME, opts, 100 + i, depth + i).to_json())
        out.append(play_to(GAME, opts, 200 + i, 100_000).to_json())  # finished
        for depth in (5, 40, 90):
            out.append(play_explicit(GAME, opts, 300 + i, depth).to_json())  # chance is explicit
    return json.loads(json.dumps(out))




def cards_conserved(state) -> None:
    assert state.check_cards() is None
    traders = [(s, r) for line in state.lines for s, r, _e in line]
    assert len(traders) == len(set(traders)), "a trader stands in two lines"


def test_mutated_positions_load_cleanly_or_are_refused():
    counts = fuzz_positions(GAME, positions(), examples=600, steps=60, invariant=cards_conserved)
    print(f"\ncircus-maximus mutated positions: {dict(counts)}")
    assert counts["loaded"] and counts["refused"]  # the mutations reach both outcomes


def test_valid_positions_round_trip():
    for pos in positions():
        assert GAME.state_from_json(copy.deepcopy(pos)).to_json() == pos


# --------------------------------------------------------------------------- reported cases
def _position(**want) -> dict:
    """A seeded 4-player position where every attribute in ``want`` has its value."""
    state = GAME.new_initial_state({"players": 4}, seed=11)
    rng = Rng(3)
    while any(getattr(state, k) != v for k, v in want.items()):
        seat = state.current_seats()[0]
        assert seat != CHANCE
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return json.loads(json.dumps(state.to_json()))


def test_huge_pending_visitor_is_refused_without_building_it():
    # 1 << 2**63 would need an exabyte: the bound must be checked before any card set is built
    for value in (2**63, 2**64, -2, 10**6):
        pos = _position()
        pos["state"]["pending_visitor"] = value
        expect_refused(GAME, pos, "pending_visitor")


def test_card_ids_out_of_range_are_refused():
    pos = _position()
    pos["state"]["forum"] = 1 << 200
    expect_refused(GAME, pos, "forum")
    pos = _position()
    pos["state"]["fav_deck"] = -1
    expect_refused(GAME, pos, "fav_deck")
    pos = _position(stage=3, resolving=True)
    pos["state"]["sales"][0].append([0, -1, 0, 3])
    expect_refused(GAME, pos, "sales")


def test_trader_in_two_lines_is_refused():
    pos = _position(stage=2)
    villa = pos["state"]["lines"][0]
    assert villa
    pos["state"]["lines"][1].append(list(villa[0]))
    expect_refused(GAME, pos, "two places|lines")


def test_bools_are_not_numbers_and_numbers_not_bools():
    pos = _position()
    pos["state"]["resolving"] = 0
    expect_refused(GAME, pos, "resolving")
    pos = _position()
    pos["state"]["turn"] = True
    expect_refused(GAME, pos, "turn")


def test_per_seat_lists_and_scores_must_fit():
    pos = _position()
    pos["state"]["hands"].append(255)
    expect_refused(GAME, pos, "hands")
    pos = _position()
    pos["state"]["totals"][0] += 1
    expect_refused(GAME, pos, "totals")


def test_chance_node_without_a_card_to_draw_is_refused():
    state = GAME.new_initial_state({"players": 4}, seed=None)
    assert state.current_seats() == (CHANCE,)
    pos = json.loads(json.dumps(state.to_json()))
    pos["state"]["draws"] = [["SV", 0]]
    expect_refused(GAME, pos, "draws")


def test_unreadable_card_data_option_is_a_record_error():
    pos = _position()
    for path in ("no-such-cards.toml", "/", "x" * 5000):
        pos["options"]["cards"] = path
        expect_refused(GAME, pos, "cards")


# --------------------------------------------------------------------------- the setup table (issue 16)
def _at_phase_one(players: int = 4, day: int = 1) -> dict:
    """A seeded position in phase I placement (not worked off) of ``day``."""
    state = GAME.new_initial_state({"players": players}, seed=17)
    rng = Rng(5)
    while not (state.day == day and state.stage == 1 and not state.resolving):
        seat = state.current_seats()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return json.loads(json.dumps(state.to_json()))


def _low_bit(mask: int) -> int:
    return mask & -mask


def test_more_favours_on_display_than_players_is_refused():
    pos = _at_phase_one(4)
    s = pos["state"]
    assert bin(s["fav_display"]).count("1") == 4
    card = _low_bit(s["fav_deck"])
    s["fav_deck"] -= card
    s["fav_display"] += card
    expect_refused(GAME, pos, "fav_deck")


def test_favour_deck_must_match_the_days_dealt_for_the_player_count():
    # a 4-player game on day 2 has dealt 8 of the 18 favours; one put back into the deck from
    # the cards out of the game is refused
    pos = _at_phase_one(4, day=2)
    s = pos["state"]
    card = _low_bit(s["fav_gone"])
    assert card
    s["fav_gone"] -= card
    s["fav_deck"] += card
    expect_refused(GAME, pos, "fav_deck")


def test_ticket_count_must_match_the_player_count():
    pos = _at_phase_one(4)
    s = pos["state"]
    assert sum(s["setup_counts"]) == 8
    v = s["setup_counts"].index(max(s["setup_counts"]))
    s["setup_counts"][v] -= 1  # as if 7 tickets had been dealt
    expect_refused(GAME, pos, "setup_counts")


def test_special_events_must_match_the_day():
    pos = _at_phase_one(4, day=2)
    s = pos["state"]
    assert sum(s["bonus"]) == 1
    s["bonus"] = [0, 0, 0]
    expect_refused(GAME, pos, "bonus")


def test_starting_player_card_lies_at_the_villa_in_phase_one():
    pos = _at_phase_one(4)
    pos["state"]["sp_at_villa"] = False
    expect_refused(GAME, pos, "sp_at_villa")


def test_dealing_queue_must_fit_the_player_count():
    state = GAME.new_initial_state({"players": 4}, seed=None)
    pos = json.loads(json.dumps(state.to_json()))
    pos["state"]["draws"] = [["F", 0]] + pos["state"]["draws"]  # five favour cards for four players
    expect_refused(GAME, pos, "draws")
