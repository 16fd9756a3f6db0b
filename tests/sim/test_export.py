"""Exports: CSV columns and contents, Parquet round trip, a clear error without pyarrow."""

from __future__ import annotations

import csv
import json
import sys

import pytest

from ludus.sim import make_spec, run_tournament, summarize
from ludus.sim.export import ExportError, export_tournament
from ludus.sim.plots import plot_tournament


@pytest.fixture(scope="module")
def played():
    spec = make_spec("gorus-maximus", {"players": 3}, "heuristic,random*2", 6, 77, records=True)
    results = run_tournament(spec, workers=1)
    return spec, results, summarize(results, spec.agents, spec.labels)


def read(path):
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_csv_tables_hold_every_game_and_seat(tmp_path, played):
    spec, results, summary = played
    export_tournament(tmp_path, spec, results, summary)
    rows = read(tmp_path / "results.csv")
    assert len(rows) == 6 * 3
    assert list(rows[0]) == ["game", "seed", "seat", "agent", "kind", "score", "won", "share", "decisions", "rounds"]
    first = results[0]
    mine = [r for r in rows if r["game"] == "0"]
    assert [int(r["seat"]) for r in mine] == [1, 2, 3]
    assert [float(r["score"]) for r in mine] == list(first.scores)
    assert {int(r["seed"]) for r in mine} == {first.seed}
    games = read(tmp_path / "games.csv")
    assert len(games) == 6 and games[1]["agent_1"] == spec.labels[results[1].seating[0]]
    assert games[0]["winners"] == " ".join(str(s + 1) for s in first.winners)
    summary_rows = read(tmp_path / "summary.csv")
    assert [r["agent"] for r in summary_rows] == list(spec.labels)
    assert sum(float(r["win_share"]) for r in summary_rows) == pytest.approx(1)
    seats = read(tmp_path / "seats.csv")
    assert len(seats) == 3 * 3 + 3 and seats[-1]["agent"] == "(any)"
    ratings = read(tmp_path / "ratings.csv")
    assert len(ratings) == 6 * 3
    meta = json.loads((tmp_path / "tournament.json").read_text())
    assert meta["spec"]["seed"] == 77 and meta["summary"]["games"] == 6
    assert len(list((tmp_path / "records").glob("game-*.json"))) == 6


def test_parquet_matches_the_csv(tmp_path, played):
    pq = pytest.importorskip("pyarrow.parquet")
    spec, results, summary = played
    export_tournament(tmp_path, spec, results, summary, parquet=True)
    table = pq.read_table(tmp_path / "results.parquet").to_pylist()
    rows = read(tmp_path / "results.csv")
    assert len(table) == len(rows)
    assert table[4]["seed"] == int(rows[4]["seed"]) and table[4]["agent"] == rows[4]["agent"]
    assert pq.read_table(tmp_path / "games.parquet").num_rows == 6


def test_parquet_without_pyarrow_is_a_clear_error_before_writing(tmp_path, played, monkeypatch):
    spec, results, summary = played
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ExportError, match="pip install 'ludus\\[parquet\\]'"):
        export_tournament(tmp_path / "out", spec, results, summary, parquet=True)
    assert not (tmp_path / "out").exists()


def test_plots_are_png_files(tmp_path, played):
    _, _, summary = played
    paths = plot_tournament(summary, tmp_path)
    assert {p.name for p in paths} == {"win_shares.png", "ratings.png", "scores.png"}
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in paths)
