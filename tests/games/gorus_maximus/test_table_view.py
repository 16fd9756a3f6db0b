"""What the table page is sent for Crowd Favour: the table's own CF table on every observation,
the running Favour only with the ``memory-aids`` option (and then the same for everyone, by the
table's CF table), the options the lobby lists, and that none of it reveals a hidden card."""

from __future__ import annotations

import json

import pytest

from ludus.core.errors import InvalidOptions
from ludus.core.game import CHANCE
from ludus.core.rng import Rng
from ludus.games.gorus_maximus.cards import card_code, load_cf_table, parse_card
from ludus.games.gorus_maximus.game import GAME
from ludus.games.gorus_maximus.options import MAX_PLAYERS, MIN_PLAYERS, TEAM_PRESETS, parse_teams

from .helpers import dealt, play

FOUR = {"players": 4, "schools": "BF,BS,GA,YS"}
HANDS4 = {
    0: "BF4 BF9 BF12 BS0 BS9 GA5 GA10 YS5 YS9 YS12",
    1: "BF5 BF10 BS4 BS10 GA0 GA6 GA11 YS0 YS6 YS10",
    2: "BF6 BF11 BS5 BS11 GA4 GA7 GA12 YS4 YS7 YS11",
    3: "BF0 BF7 BF8 BS6 BS7 BS8 BS12 GA8 GA9 YS8",
}


def own_cf_table(tmp_path, values: dict[int, int], preferred_zero: int = 7, ours: tuple[int, ...] = ()) -> str:
    path = tmp_path / "house-cf.toml"
    lines = [f"preferred_zero = {preferred_zero}", "[cf]"] + [f"{r} = {values.get(r, 0)}" for r in range(16)]
    if ours:
        lines += ["[provisional]", f"ranks = {list(ours)}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def after_two_bouts(options: dict):
    """Two bouts by hand, both won by seat 2."""
    state = dealt({**FOUR, **options}, HANDS4)
    # seat 0 leads (dealer is seat 3): Blue bout won by seat 2's BF11; seat 3 dumps the BF8 on it
    play(state, "BF4", "BF10", "BF11", "BF8")
    # seat 2 leads Green 12, everyone follows: seat 2 wins again, with GA9 (+2) from seat 3
    play(state, "GA12", "GA9", "GA5", "GA11")
    return state


# ----------------------------------------------------------------- the CF table on the page
def test_every_observation_carries_the_tables_cf_table_and_which_values_are_ours():
    state = dealt(FOUR, HANDS4)
    for seat in (None, 0, 3):
        sent = state.observation(seat).to_json()["cf_table"]
        shipped = load_cf_table("")
        assert sent == {"by_rank": list(shipped.by_rank), "preferred_zero": 5, "origins": list(shipped.origins),
                        "ours": sorted(shipped.provisional), "own_table": False}
    assert sent["ours"] == [1, 2, 3, 4, 5, 6, 7, 9, 11, 12, 13, 14, 15] and sent["by_rank"][8] == -4
    assert sent["origins"][4] == "example" and sent["origins"][10] == "printed"


def test_a_table_with_its_own_cf_table_sends_its_values_never_its_path(tmp_path):
    path = own_cf_table(tmp_path, {8: -2, 9: 3, 10: 2}, preferred_zero=7, ours=(10,))
    state = dealt({**FOUR, "cf_table": path}, HANDS4)
    body = state.observation(0).to_json()
    assert body["cf_table"]["by_rank"][8:11] == [-2, 3, 2]
    assert body["cf_table"]["preferred_zero"] == 7
    assert body["cf_table"]["own_table"] is True and body["cf_table"]["ours"] == [10]
    assert "house-cf" not in json.dumps(body) and str(tmp_path) not in json.dumps(body)


# ----------------------------------------------------------------- memory aids
def test_memory_aids_are_off_by_default_and_then_nothing_of_the_won_cards_is_sent():
    assert GAME.parse_options({}).memory_aids is False
    state = after_two_bouts({})
    for seat in (None, 0, 1, 2, 3):
        body = state.observation(seat).to_json()
        assert body["memory_aids"] is False
        assert "favour_so_far" not in body and "collected" not in body
        assert body["collected_counts"] == [0, 0, 8, 0]  # how many each side won stays: the piles are on the table
    assert state.observation(0).collected[2]  # bots still get what a perfect memory holds


def test_memory_aids_send_everyone_the_same_favour_so_far_computed_by_the_engine():
    opts = GAME.parse_options({**FOUR, "memory-aids": "on"})
    assert opts.memory_aids is True
    state = after_two_bouts({"memory_aids": True})
    # seat 2 won BF4 BF10 BF11 BF8 (0 +1 +1 -4) and GA12 GA9 GA5 GA11 (+1 +2 0 +1)
    expected = [0, 0, 2, 0]
    assert [state.crowd_favour(side) for side in range(4)] == expected
    bodies = [state.observation(seat).to_json() for seat in (None, 0, 1, 2, 3)]
    for body in bodies:
        assert body["memory_aids"] is True and body["favour_so_far"] == expected
        assert body["collected"] == [[], [], sorted(body["collected"][2], key=parse_card), []]
        assert set(body["collected"][2]) == {"BF4", "BF10", "BF11", "BF8", "GA12", "GA9", "GA5", "GA11"}


def test_the_favour_so_far_follows_the_tables_own_cf_table(tmp_path):
    path = own_cf_table(tmp_path, {8: -10, 9: 5, 10: 1, 11: 1, 12: 1}, preferred_zero=9)
    state = after_two_bouts({"memory_aids": True, "cf_table": path})
    # the same cards as above: 0 +1 +1 -10 and +1 +5 0 +1
    assert state.observation(1).to_json()["favour_so_far"] == [0, 0, -1, 0]
    assert state.observation(1).to_json()["favour_so_far"] == [state.crowd_favour(s) for s in range(4)]


def test_the_preferred_zero_counts_with_the_tables_value_in_the_favour_so_far(tmp_path):
    path = own_cf_table(tmp_path, {}, preferred_zero=9)  # every rank 0: only the preferred 0 scores
    state = dealt({**FOUR, "memory_aids": True, "cf_table": path}, HANDS4)
    play(state, "YS5", "YS0", "YS4", "YS8")  # Yellow led: preferred; seat 3's YS8 wins the bout and the 0
    assert state.observation(None).to_json()["favour_so_far"] == [0, 0, 0, 9]
    shipped = dealt({**FOUR, "memory_aids": True}, HANDS4)
    play(shipped, "YS5", "YS0", "YS4", "YS8")
    assert shipped.observation(None).to_json()["favour_so_far"] == [0, 0, 0, 5 - 4]


def test_memory_aids_leave_positions_written_before_the_option_unchanged():
    off = GAME.new_initial_state({"players": 3}, seed=3)
    assert "memory_aids" not in off.to_json()["options"]
    on = GAME.new_initial_state({"players": 3, "memory_aids": True}, seed=3)
    assert on.to_json()["options"]["memory_aids"] is True
    back = GAME.state_from_json(on.to_json())
    assert back.options.memory_aids is True and back.to_json() == on.to_json()


def test_no_new_field_reveals_anything_one_seat_may_not_see():
    """With memory aids on, every seat's JSON equals the spectator's but for its own seat and
    hand, at every step of whole games in each mode; and the won cards are never in a hand."""
    steps = 0
    for options in ({"players": 1}, {"players": 2}, {"players": 4}, {"players": 5, "teams": "2v2v1"}):
        target = {"team_target": 1} if "teams" in options else {"target": 1}
        state = GAME.new_initial_state({**options, "memory_aids": True, **target}, seed=11)
        rng = Rng(11)
        while not state.is_terminal():
            public = state.observation(None).to_json()
            held = {card_code(c) for hand in state.hands for c in range(80) if hand >> c & 1}
            assert not held & {c for pile in public["collected"] for c in pile}
            for seat in range(state.num_seats()):
                mine = state.observation(seat).to_json()
                assert {k: v for k, v in mine.items() if k not in ("seat", "hand")} == \
                    {k: v for k, v in public.items() if k not in ("seat", "hand")}
            if state.is_chance_node():
                state.apply(state.sample_chance(rng), CHANCE)
            else:
                state.apply(rng.choice(state.legal_actions()))
            steps += 1
    assert steps >= 10 + 30 + 40 + 50  # a whole round at least in each mode


# ----------------------------------------------------------------- options the lobby lists
def test_players_has_the_rules_bounds_and_keeps_the_rules_reason():
    players = next(o for o in GAME.describe_options() if o.name == "players")
    assert (players.min, players.max) == (MIN_PLAYERS, MAX_PLAYERS) == (1, 8)
    for bad in (0, 9, "12"):
        with pytest.raises(InvalidOptions, match=f"1 to 8 players, not {int(bad)}"):
            GAME.parse_options({"players": bad})
    with pytest.raises(InvalidOptions, match="unknown option 'colour'"):  # other refusals are untouched
        GAME.parse_options({"colour": "red", "players": 9})


def test_every_team_suggestion_parses_for_its_player_count_and_covers_the_rulebooks_splits():
    teams = next(o for o in GAME.describe_options() if o.name == "teams")
    assert teams.suggestions
    listed: dict[int, list[str]] = {}
    for s in teams.suggestions:
        assert set(s) == {"value", "label", "players", "message", "words"}
        assert s["label"].startswith(s["value"].replace("v", " v "))
        assert s["message"].format(**s["words"]) == s["label"]  # the message to translate says the same
        seating = parse_teams(s["value"], s["players"])
        assert len(seating) == s["players"]
        GAME.parse_options({"players": s["players"], "teams": s["value"]})
        listed.setdefault(s["players"], []).append(s["value"])
    assert listed == {n: list(splits) for n, splits in TEAM_PRESETS.items()}
    assert listed[4] == ["2v2"] and {"3v3", "2v2v2"} <= set(listed[6])
