"""``ludus analyze-game``: a worker-process review with a summary, JSON output, and plain refusals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ludus.core.agent import RandomAgent
from ludus.core.records import record_of
from ludus.games import get_game


def run_cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="200", NO_COLOR="1", TERM="dumb")
    return subprocess.run([sys.executable, "-m", "ludus.cli.main", "analyze-game", *args], capture_output=True,
                          text=True, timeout=300, env=env)


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = get_game("gladius")
    state = game.new_initial_state(None, seed=8)
    agents = [RandomAgent(1), RandomAgent(2)]
    while not state.is_terminal():
        seat = state.current_seats()[0]
        state.apply(agents[seat].act(state.view(seat)), seat)
    path = tmp_path_factory.mktemp("records") / "game.json"
    record_of(state, 8, players=["Ann", "Bo [x]"]).save(path)
    return path


def test_it_reviews_a_seat_and_writes_the_json(record_file: Path, tmp_path: Path):
    out = tmp_path / "review.json"
    result = run_cli(str(record_file), "--seat", "2", "--samples", "2", "--json", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "analysing Bo [x] (seat 2)" in result.stdout
    assert "Analysed" in result.stdout and "forced" in result.stdout
    review = json.loads(out.read_text(encoding="utf-8"))
    assert review["seat"] == 1 and review["game"] == "gladius"
    assert review["totals"]["analysed"] == len(review["decisions"]) > 0
    assert all(d["samples"] == 2 for d in review["decisions"])
    assert {"ply", "played", "best", "played_value", "best_value", "drop", "std_error", "mark"} <= set(
        review["decisions"][0])


def test_a_tiny_time_limit_lists_the_rest_as_not_analysed(record_file: Path, tmp_path: Path):
    out = tmp_path / "review.json"
    result = run_cli(str(record_file), "--seat", "1", "--samples", "500", "--max-seconds", "0.001",
                     "--json", str(out))
    assert result.returncode == 0, result.stdout + result.stderr
    review = json.loads(out.read_text(encoding="utf-8"))
    assert review["stopped_at_deadline"] and review["not_analysed"]
    assert "time limit ran out" in result.stdout


@pytest.mark.parametrize("seat", ["0", "3"])
def test_a_bad_seat_is_a_clear_error(record_file: Path, seat: str):
    result = run_cli(str(record_file), "--seat", seat)
    assert result.returncode == 2
    assert "--seat must be a seat of this game, 1 to 2" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_an_unreadable_record_is_a_clear_error(tmp_path: Path):
    missing = run_cli(str(tmp_path / "none.json"), "--seat", "1")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "ludus-record", "version": 1, "game": "gladius", "actions": [[0, 5]]}',
                   encoding="utf-8")
    broken = run_cli(str(bad), "--seat", "1", "--samples", "2")
    for result in (missing, broken):
        assert result.returncode == 2, result.stdout
        assert "Error:" in result.stdout
        assert "Traceback" not in result.stdout + result.stderr
    assert "action 1" in broken.stdout


def test_bad_budgets_are_refused_by_the_parser(record_file: Path):
    for flags in (["--samples", "1"], ["--seconds-per-move", "-1"], ["--max-seconds", "nan"]):
        result = run_cli(str(record_file), "--seat", "1", *flags)
        assert result.returncode == 2 and "Traceback" not in result.stderr
