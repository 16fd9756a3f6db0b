"""Issue 16: the rules-fidelity fixes for Gorus Maximus, one test (or a few) each."""

from __future__ import annotations

import copy

import pytest

from ludus.core.errors import InvalidOptions, RecordError
from ludus.games.gorus_maximus.actions import PLAY
from ludus.games.gorus_maximus.cards import parse_card
from ludus.games.gorus_maximus.game import GAME


# ----------------------------------------------------------------- target with teams
def test_target_with_teams_is_refused_naming_team_target():
    with pytest.raises(InvalidOptions, match="team-target"):
        GAME.parse_options({"players": 4, "teams": "2v2", "target": 5})


def test_target_at_its_default_with_teams_and_team_target_still_work():
    state = GAME.new_initial_state({"players": 4, "teams": "2v2", "target": 3, "team_target": 5}, seed=1)
    assert state.targets == (5, 5)


def test_terminal_target_with_teams_is_refused(capsys):
    from ludus.cli.main import main

    assert main(["play", "gorus-maximus", "--players", "4", "--teams", "2v2", "--target", "5",
                 "--seat", "none", "--seed", "1"]) != 0
    assert "team-target" in capsys.readouterr().out


# ----------------------------------------------------------------- final-tie=play-on
def _play_on_position() -> dict:
    """Round 7 of a 3-player play-on game after a shared tie at 3/3: seat 0 is about to win the
    last bout; it then has the most Crowd Favour (seat 1 the fewest gladiators)."""
    side0 = "BF9 GA9 PA9 BF10 GA10 PA10 BF11 GA11 PA11"
    side1 = "GA12 PA12 BF6"
    side2 = "BF0 BF7 BF8 GA0 GA4 GA5 GA6 GA7 GA8 PA0 PA4 PA5 PA6 PA7 PA8"
    return {
        "game": "gorus-maximus",
        "options": {"players": 3, "schools": "BF,GA,PA", "final_tie": "play-on"},
        "rng": None,
        "state": {
            "phase": "play", "round": 7, "dealer": 2, "schools": ["BF", "GA", "PA"],
            "support": [3, 3, 0], "hands": [["BF12"], [], []], "stock": [], "dealt": 30,
            "collected": [side0.split(), side1.split(), side2.split()],
            "collected_count": [9, 3, 15],
            "bout": [[1, "BF4"], [2, "BF5"]], "turn": 0, "initiating": 0, "preferred": 2,
            "previous_bout": [], "previous_winner": None, "drawer": -1,
            "last_round": {"round": 6, "preferred": "PA", "crowd_favour": [4, 4, 0],
                           "collected_counts": [12, 6, 12], "support_gained": [1, 1, 0],
                           "preferred_zero_side": None, "no_eight": False},
            "winning_sides": [],
        },
    }


def test_play_on_compares_only_sides_that_reach_their_target_at_that_round_end():
    state = GAME.state_from_json(_play_on_position())
    state.apply(PLAY[parse_card("BF12")])
    assert state.last_round.support_gained == (1, 0, 0)  # seat 0 alone gains
    assert state.is_terminal()
    assert state.winners() == [0]  # not seat 1, which gained nothing though it has fewer gladiators


def test_play_on_compares_all_sides_that_reach_their_target_at_the_same_round_end():
    pos = _play_on_position()
    st = pos["state"]
    st["collected"] = [["BF9", "BF10", "BF7"], ["PA9", "GA10", "PA10"],
                       ["BF0", "BF6", "BF8", "BF11", "GA0", "GA4", "GA5", "GA6", "GA7", "GA8", "GA9",
                        "GA11", "GA12", "PA0", "PA4", "PA5", "PA6", "PA7", "PA8", "PA11", "PA12"]]
    st["collected_count"] = [3, 3, 21]
    state = GAME.state_from_json(pos)
    state.apply(PLAY[parse_card("BF12")])
    assert state.last_round.support_gained == (1, 1, 0)  # 4 Crowd Favour each
    assert state.winners() == [1]  # both reached 4: the fewer gladiators (3 against 6) wins


# ----------------------------------------------------------------- positions and the setup table
def _fresh(players: int) -> dict:
    """A position right after the deal (the first lead not yet played)."""
    opts = {"players": players, **({"schools": "BF,GA,PA"} if players < 4 else {})}
    return copy.deepcopy(GAME.new_initial_state(opts, seed=players).to_json())


@pytest.mark.parametrize("players", [1, 2, 3])
def test_a_small_game_position_listing_a_fourth_school_is_refused(players):
    pos = _fresh(players)
    st = pos["state"]
    st["schools"] = ["BF", "BS", "GA", "PA"]
    st["stock"] += [f"BS{r}" for r in (0, 4, 5, 6, 7, 8, 9, 10, 11, 12)]  # the fourth school's cards
    with pytest.raises(RecordError, match=r"'schools'.*3 schools"):
        GAME.state_from_json(pos)


@pytest.mark.parametrize("players, extra", [(3, "BF13"), (5, "GA3"), (6, "PA2"), (7, "YS1")])
def test_a_rank_the_setup_table_leaves_out_is_refused(players, extra):
    pos = _fresh(players)
    pos["state"]["stock"].append(extra)
    with pytest.raises(RecordError, match=r"'stock'.*not in this game's deck"):
        GAME.state_from_json(pos)


@pytest.mark.parametrize("players", [2, 3, 4, 8])
def test_hand_sizes_off_the_setup_table_are_refused(players):
    pos = _fresh(players)
    st = pos["state"]
    st["hands"][1].append(st["hands"][0].pop())
    with pytest.raises(RecordError, match="'hands'"):
        GAME.state_from_json(pos)


@pytest.mark.parametrize("players", [1, 2])
def test_a_stock_short_of_the_setup_table_is_refused_naming_the_stock(players):
    pos = _fresh(players)
    st = pos["state"]
    gone = st["stock"].pop()
    with pytest.raises(RecordError, match=rf"'stock'.*{gone}"):
        GAME.state_from_json(pos)


def test_positions_of_every_player_count_still_load():
    for players in range(1, 9):
        pos = _fresh(players)
        assert GAME.state_from_json(copy.deepcopy(pos)).to_json() == pos


def test_a_stored_game_that_gave_target_with_teams_still_replays():
    """Records written before the refusal (tests/regression holds one) were played with the
    target ignored, and load and replay so."""
    from ludus.core import records
    from ludus.games import get_game

    state = GAME.new_initial_state({"players": 4, "teams": "2v2", "team_target": 1}, seed=5)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    record = records.record_of(state, 5).to_json()
    record["options"]["target"] = 7  # as an old record could hold it: ignored, the teams played to 1
    loaded = GAME.parse_stored_options(record["options"])
    assert loaded.target == 7 and loaded.teams == "2v2"
    with pytest.raises(InvalidOptions, match="team-target"):
        GAME.parse_options(record["options"])
    assert records.replay(records.parse_record(record), get_game) is not None
