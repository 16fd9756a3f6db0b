"""``ludus tournament`` and ``ludus analyze`` driven through the real argument parser."""

from __future__ import annotations

import csv
import json

import pytest

from ludus.cli.main import main


def run(capsys, *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_tournament_writes_tables_and_plots(tmp_path, capsys):
    out = tmp_path / "t"
    code, text = run(capsys, "tournament", "--game", "gorus-maximus", "--players", "4", "--agents",
                     "heuristic,random,random,random", "--games", "8", "--seed", "5", "--workers", "1",
                     "--out", str(out), "--parquet")
    assert code == 0, text
    assert "heuristic" in text and "random#3" in text and "95% CI" in text
    names = {p.name for p in out.iterdir()}
    assert {"results.csv", "games.csv", "summary.csv", "seats.csv", "ratings.csv", "tournament.json",
            "results.parquet", "games.parquet", "win_shares.png", "ratings.png", "scores.png"} <= names
    meta = json.loads((out / "tournament.json").read_text())
    assert meta["spec"]["agents"] == ["heuristic", "random", "random", "random"]
    assert meta["run"]["backend"] == "process"


def test_same_seed_same_tables_whatever_the_worker_count(tmp_path, capsys):
    common = ["tournament", "--game", "gorus-maximus", "--players", "2", "--agents", "heuristic,random",
              "--games", "6", "--seed", "99", "--no-plots"]
    assert run(capsys, *common, "--workers", "1", "--out", str(tmp_path / "a"))[0] == 0
    assert run(capsys, *common, "--workers", "2", "--out", str(tmp_path / "b"))[0] == 0
    for name in ("results.csv", "games.csv", "summary.csv", "seats.csv", "ratings.csv"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()


def test_default_agents_and_an_unbalanced_count_note(tmp_path, capsys):
    code, text = run(capsys, "tournament", "--game", "gorus-maximus", "--option", "players=3", "--games", "4",
                     "--workers", "1", "--no-plots", "--out", str(tmp_path / "d"))
    assert code == 0, text
    assert "not a multiple of 3" in text
    with (tmp_path / "d" / "summary.csv").open() as fh:
        assert [r["agent"] for r in csv.DictReader(fh)] == ["heuristic", "random#1", "random#2"]


@pytest.mark.parametrize("argv, message", [
    (["--agents", "heuristic,random"], "4 seat"),
    (["--agents", "heuristic,wizard,random,random"], "unknown agent 'wizard'"),
    (["--agents", "random*4", "--games", "0"], "positive"),
    (["--agents", "random*4", "--option", "colour=red"], "unknown option 'colour'"),
    (["--agents", "random*4", "--option", "target"], "NAME=VALUE"),
    (["--agents", "random*4", "--address", "localhost:6379"], "--backend ray"),
    (["--agents", "random*4", "--workers", "0"], "--workers"),
])
def test_tournament_bad_arguments_exit_2_with_a_reason(tmp_path, capsys, argv, message):
    code, text = run(capsys, "tournament", "--game", "gorus-maximus", "--players", "4", "--out",
                     str(tmp_path / "x"), *argv)
    assert code == 2 and message in text
    assert not (tmp_path / "x").exists()


def test_tournament_unknown_game_and_bad_backend(capsys):
    assert run(capsys, "tournament", "--game", "chess")[0] == 2
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "--game", "gorus-maximus", "--backend", "threads"])
    assert exc.value.code == 2


def test_analyze_writes_a_report(tmp_path, capsys):
    out = tmp_path / "r"
    code, text = run(capsys, "analyze", "--game", "gorus-maximus", "--games", "3", "--seed", "4",
                     "--scenarios", "solo,players-3,teams-2v2", "--workers", "1", "--out", str(out))
    assert code == 0, text
    md = (out / "report.md").read_text()
    for heading in ("## Summary", "## Solo win rate", "## Seat advantage", "## Score distributions",
                    "## Game length", "### 4 players, teams 2v2"):
        assert heading in md
    assert "Team A (seats 1,3)" in md and "![" in md
    page = (out / "report.html").read_text()
    assert page.startswith("<!doctype html>") and '<img src="seat_advantage.png"' in page
    for name in ("seat_advantage.png", "win_rates.png", "scores.png", "length.png", "balance.csv", "games.csv"):
        assert (out / name).stat().st_size > 0
    with (out / "balance.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert [r["scenario"] for r in rows] == ["solo", "players-3", "players-3", "players-3", "teams-2v2", "teams-2v2"]


def test_analyze_lists_scenarios_and_refuses_unknown_ones(capsys):
    code, text = run(capsys, "analyze", "--game", "gorus-maximus", "--list")
    assert code == 0 and "teams-2v2v1" in text and "solo" in text
    code, text = run(capsys, "analyze", "--game", "gorus-maximus", "--scenarios", "players-9")
    assert code == 2 and "unknown scenario 'players-9'" in text
