"""Hostile records found by attacking ``ludus replay``: each must fail with a clear RecordError
(exit status 2 and an ``Error:`` line from the command), never a traceback."""

from __future__ import annotations

import copy
import json
import os

import pytest

from ludus.cli.main import main
from ludus.core import records
from ludus.core.errors import LudusError, RecordError
from ludus.games import get_game

from .hostile_records import play_random


def _record(game: str, options: dict, seed: int | None = 5) -> dict:
    state = play_random(game, options, seed=seed, rng_seed=2)
    names = [f"P{i + 1}" for i in range(state.num_seats())]
    return records.record_of(state, seed, players=names).to_json()


GM = _record("gorus-maximus", {"players": 4})
GM_EXPLICIT = _record("gorus-maximus", {"players": 4}, seed=None)
ARENA = _record("gorus-arena", {"players": 3})


def changed(data: dict, change) -> dict:
    out = copy.deepcopy(data)
    change(out)
    return out


def replay_text(text: str):
    return records.replay(records.loads(text), get_game)


def test_deep_nesting_is_refused_as_bad_json():
    with pytest.raises(RecordError, match="nested too deeply"):
        records.loads("[" * 100_000 + "]" * 100_000)
    text = json.dumps(GM).replace('"seed": 5', '"seed": ' + "[" * 50_000 + "]" * 50_000)
    with pytest.raises(RecordError, match="nested too deeply"):
        records.loads(text)


def test_seed_must_fit_the_generator():
    with pytest.raises(RecordError, match="not valid JSON"):  # past Python's integer conversion limit
        replay_text(json.dumps(GM).replace('"seed": 5', '"seed": ' + "9" * 5000))
    for seed in (2**64, -(2**63) - 1, 10**3000):
        with pytest.raises(RecordError, match="'seed' must be from"):
            records.replay(records.parse_record({**GM, "seed": seed}), get_game)
    for seed in (0, -1, 2**64 - 1, -(2**63)):  # what the tools may have written: refused only by the moves
        data = {**GM, "seed": seed}
        with pytest.raises(RecordError, match=r"action|differ"):
            records.replay(records.parse_record(data), get_game)
        records.replay(records.parse_record({**data, "actions": [], "result": None}), get_game)


@pytest.mark.parametrize("players", [["A"], ["A", "B", "C"], ["A", "B", "C", "D", "E"]])
def test_player_names_must_match_the_seats(players):
    with pytest.raises(RecordError, match=f"names {len(players)} players for a game of 4 seats"):
        records.replay(records.parse_record({**GM, "players": players}), get_game)


def test_player_names_may_not_hold_control_characters():
    with pytest.raises(RecordError, match="control characters"):
        records.parse_record({**GM, "players": ["A", "B", "C", "\x1b[2J"]})


def test_player_names_have_a_sensible_length():
    """Before: four names of 100,000 characters kept ``ludus replay`` busy for minutes."""
    with pytest.raises(RecordError, match="at most 200 characters"):
        records.parse_record({**GM, "players": ["A", "B", "C", "x" * 201]})
    records.parse_record({**GM, "players": ["A", "B", "C", "x" * 200]})


@pytest.mark.parametrize("seat", [99, 4, -5, -2, 2**70])
@pytest.mark.parametrize("data", [GM, GM_EXPLICIT], ids=["seeded", "explicit"])
def test_an_action_by_a_seat_that_is_not_the_games(seat, data):
    bad = changed(data, lambda d: d["actions"][3].__setitem__(0, seat))
    with pytest.raises(RecordError, match=r"action 4: seat .* is not a seat of this game \(0 to 3"):
        records.replay(records.parse_record(bad), get_game)


def test_chance_in_a_seeded_record_is_refused():
    bad = changed(GM, lambda d: d["actions"][0].__setitem__(0, -1))
    with pytest.raises(RecordError, match="action 1: a chance outcome"):
        records.replay(records.parse_record(bad), get_game)


@pytest.mark.parametrize("result, message", [
    ({"scores": [0, 0, 0, 0], "winners": 0}, "'winners' must be a list of seat numbers"),
    ({"scores": [0, 0, 0, 0], "winners": [True]}, "'winners' must be a list of seat numbers"),
    ({"scores": [0, 0, 0, 0], "winners": [99]}, "'winners' must be seat numbers from 0 to 3"),
    ({"scores": [0, 0, 0, 0], "winners": [-1]}, "'winners' must be seat numbers from 0 to 3"),
    ({"scores": [0, 0, 0, 0], "winners": [1, 1]}, "names a seat twice"),
    ({"scores": [0, 0, 0], "winners": [1]}, "one number per seat"),
    ({"scores": "high", "winners": [1]}, "'scores' must be a list of numbers"),
    ({"scores": [0, "1", 0, 0], "winners": [1]}, "'scores' must be a list of numbers"),
    ({"scores": [0, float("nan"), 0, 0], "winners": [1]}, "'scores' must be a list of numbers"),
    ({"winners": [1]}, "exactly the fields"),
    ({"scores": [0, 0, 0, 0], "winners": [1], "by": "me"}, "exactly the fields"),
    ([1], "must be an object"),
])
def test_result_shape(result, message):
    with pytest.raises(RecordError, match=message):
        records.replay(records.parse_record({**GM, "result": result}), get_game)


def test_gorus_arena_action_with_a_list_for_a_name():
    bad = changed(ARENA, lambda d: d["actions"][0][1].__setitem__("card", ["slave"]))
    with pytest.raises(RecordError, match="action 1: unknown card kind"):
        records.replay(records.parse_record(bad), get_game)


def test_gorus_maximus_deal_to_a_boolean_seat():
    deal = next(i for i, (s, a) in enumerate(GM_EXPLICIT["actions"]) if "deal" in a)
    bad = changed(GM_EXPLICIT, lambda d: d["actions"][deal][1].__setitem__("to", True))
    with pytest.raises(RecordError, match=f"action {deal + 1}: bad Gorus Maximus action"):
        records.replay(records.parse_record(bad), get_game)


def test_wrong_scores_with_the_right_winners():
    bad = changed(GM, lambda d: d["result"]["scores"].__setitem__(0, d["result"]["scores"][0] + 1))
    with pytest.raises(RecordError, match="stated scores differ"):
        records.replay(records.parse_record(bad), get_game)


def test_a_record_cut_in_half_that_claims_a_result():
    bad = changed(GM, lambda d: d.__setitem__("actions", d["actions"][: len(d["actions"]) // 2]))
    with pytest.raises(RecordError, match="states a result, but its 120 actions end before the game does"):
        records.replay(records.parse_record(bad), get_game)
    # without a result it is an unfinished game, which replays
    unfinished = records.replay(records.parse_record({**bad, "result": None}), get_game)
    assert not unfinished.is_terminal()


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return str(path)


@pytest.mark.parametrize("game, option", [
    ("gorus-maximus", "cf_table"), ("gladius", "card_sets"), ("circus-maximus", "cards"),
])
@pytest.mark.parametrize("target", ["/dev/zero", "/", "fifo", "big"])
def test_option_files_are_read_safely(game, option, target, fifo, tmp_path):
    """Before: /dev/zero was read until memory ran out, and a pipe blocked forever."""
    if target == "fifo":
        target = fifo
    elif target == "big":
        target = str(tmp_path / "big.toml")
        with open(target, "w") as f:
            f.write("# padding\n" * 200_000)  # 2 MB of comments
    with pytest.raises(LudusError, match=r"cannot read|too large") as info:
        get_game(game).new_initial_state({option: target}, seed=1)
    assert target in str(info.value)
    record = records.Record(game=game, options={option: target}, actions=[], seed=1)
    with pytest.raises(RecordError, match="options are invalid"):
        records.replay(record, get_game)


def test_record_files_are_read_safely(fifo):
    for target in ("/dev/zero", "/", fifo):
        with pytest.raises(RecordError, match="cannot read record"):
            records.load(target)


# ------------------------------------------------------------------ the command
def run_replay(capsys, tmp_path, data, *extra: str) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    rc = main(["replay", str(path), *extra])
    return rc, capsys.readouterr().out


HOSTILE_FILES = {
    "deep nesting": "[" * 100_000 + "]" * 100_000,
    "5000-digit seed": json.dumps(GM).replace('"seed": 5', '"seed": ' + "9" * 5000),
    "players short": {**GM, "players": ["A", "B"]},
    "seat 99": changed(GM, lambda d: d["actions"][3].__setitem__(0, 99)),
    "seat -5": changed(GM, lambda d: d["actions"][3].__setitem__(0, -5)),
    "winners 0": {**GM, "result": {"scores": GM["result"]["scores"], "winners": 0}},
    "arena list for a name": changed(ARENA, lambda d: d["actions"][0][1].__setitem__("card", ["slave"])),
    "wrong scores": changed(GM, lambda d: d["result"]["scores"].__setitem__(0, 99)),
    "cut in half": changed(GM, lambda d: d.__setitem__("actions", d["actions"][:100])),
    "markup in a name": {**GM, "players": ["[/]", "[bold]", "B", "C"]},
    "markup in a card": changed(_record("gladius", {}), lambda d: d["actions"][0][1].__setitem__("attack", "x/[/]")),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_FILES))
def test_replay_command_refuses_hostile_files_cleanly(name, capsys, tmp_path):
    rc, out = run_replay(capsys, tmp_path, HOSTILE_FILES[name])
    if name == "markup in a name":
        assert rc == 0 and "[/]" in out
        return
    assert rc == 2 and "Error:" in out, out[-500:]


@pytest.mark.parametrize("seat, ok", [("1", True), ("4", True), ("99", False), ("5", False), ("0", False),
                                      ("-3", False)])
def test_replay_seat_must_be_a_seat_of_the_game(seat, ok, capsys, tmp_path):
    rc, out = run_replay(capsys, tmp_path, GM, "--seat", seat)
    if ok:
        assert rc == 0 and "Game over" in out
    else:
        assert rc == 2 and "Error: --seat must be a seat of this game, 1 to 4" in out


@pytest.mark.parametrize("change", [
    lambda d: d.__setitem__("version", 10**5000),
    lambda d: d.__setitem__("seed", 10**5000),
    lambda d: d["actions"][2].__setitem__(0, 10**5000),
    lambda d: d["actions"][2].__setitem__(1, {"play": 10**5000}),
    lambda d: d["result"].__setitem__("scores", [10**5000, 0, 0, 0]),
    lambda d: d["result"].__setitem__("winners", [10**5000]),
], ids=["version", "seed", "seat", "action", "scores", "winners"])
def test_numbers_too_long_to_print_are_refused_cleanly(change):
    """A record built in Python (not read from text) may hold integers past str()'s limit."""
    bad = changed(GM, change)
    with pytest.raises(RecordError):
        records.replay(records.parse_record(bad), get_game)


def test_a_start_record_with_other_options_is_refused():
    """Before: the options of a record with 'start' were not looked at."""
    state = play_random("gorus-maximus", {"players": 4}, seed=3, rng_seed=1, max_steps=5)
    record = records.Record(game="gorus-maximus", options={"players": 4}, actions=[], start=state.to_json())
    records.replay(record, get_game)
    for options in ({"players": 5}, {"colour": "red"}):
        record.options = options
        with pytest.raises(RecordError, match=r"differ from those of its start|options are invalid"):
            records.replay(record, get_game)
