"""Tournament results as tables: rows for CSV (stdlib) and Parquet (pyarrow, optional).

Seats are numbered from 1 in every exported table, as players number them; the column
meanings are documented in ``docs/tournaments.md``.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.errors import LudusError
from ..core.records import parse_record
from .stats import Summary
from .tournament import GameResult, TournamentSpec

__all__ = [
    "ANY_AGENT", "ExportError", "Row", "export_tournament", "game_rows", "rating_rows", "result_rows", "seat_rows",
    "summary_rows", "write_csv", "write_parquet",
]

Row = dict[str, Any]


class ExportError(LudusError):
    """Results that cannot be written (missing optional dependency, unwritable folder)."""


def _metric_names(results: Sequence[GameResult]) -> list[str]:
    return sorted({name for r in results for name in r.metrics})


def result_rows(spec: TournamentSpec, results: Sequence[GameResult]) -> list[Row]:
    """One row per game and seat (long format): the easiest shape to group and plot."""
    labels = spec.labels
    metrics = _metric_names(results)
    rows = []
    for r in results:
        for seat, entry in enumerate(r.seating):
            row: Row = {"game": r.index, "seed": r.seed, "seat": seat + 1, "agent": labels[entry],
                        "kind": spec.agents[entry], "score": r.scores[seat], "won": int(seat in r.winners),
                        "share": r.shares[seat], "decisions": r.decisions}
            for m in metrics:
                row[m] = r.metrics.get(m)
            rows.append(row)
    return rows


def game_rows(spec: TournamentSpec, results: Sequence[GameResult]) -> list[Row]:
    """One row per game (wide format): who sat where, the scores, the winners."""
    labels = spec.labels
    metrics = _metric_names(results)
    rows = []
    for r in results:
        row: Row = {"game": r.index, "seed": r.seed, "decisions": r.decisions}
        for m in metrics:
            row[m] = r.metrics.get(m)
        row["winners"] = " ".join(str(s + 1) for s in r.winners)
        row["winning_agents"] = " ".join(labels[r.seating[s]] for s in r.winners)
        for seat, entry in enumerate(r.seating):
            row[f"agent_{seat + 1}"] = labels[entry]
        for seat, score in enumerate(r.scores):
            row[f"score_{seat + 1}"] = score
        rows.append(row)
    return rows


def summary_rows(summary: Summary) -> list[Row]:
    rows = []
    for label, kind in zip(summary.labels, summary.kinds):
        t = summary.agents[label]
        lo, hi = t.share_ci
        row: Row = {"agent": label, "kind": kind, "games": t.games, "wins": t.wins, "win_rate": t.win_rate,
                    "win_share": t.win_share, "share_ci_low": lo, "share_ci_high": hi,
                    "mean_score": t.mean_score, "score_sd": t.score_sd}
        rating = summary.ratings.final.get(label) if summary.ratings else None
        row["rating_mu"] = rating.mu if rating else None
        row["rating_sigma"] = rating.sigma if rating else None
        row["rating_ordinal"] = rating.ordinal if rating else None
        rows.append(row)
    return rows


ANY_AGENT = "(any)"


def seat_rows(summary: Summary) -> list[Row]:
    """Per agent and seat, then per seat whoever sat there (agent ``(any)``): seat advantage."""
    rows = []
    keyed = [((label, seat), t) for (label, seat), t in summary.agent_seats.items()]
    keyed.sort(key=lambda item: (summary.labels.index(item[0][0]), item[0][1]))
    keyed += [((ANY_AGENT, seat), t) for seat, t in sorted(summary.seats.items())]
    for (label, seat), t in keyed:
        lo, hi = t.share_ci
        rows.append({"agent": label, "seat": seat + 1, "games": t.games, "wins": t.wins, "win_rate": t.win_rate,
                     "win_share": t.win_share, "share_ci_low": lo, "share_ci_high": hi,
                     "mean_score": t.mean_score})
    return rows


def rating_rows(summary: Summary) -> list[Row]:
    if summary.ratings is None:
        return []
    return [{"game": index, "agent": label, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal}
            for index, label, r in summary.ratings.history]


def write_csv(path: Path, rows: Sequence[Row], columns: Sequence[str] | None = None) -> Path:
    """Write rows with a header; columns default to every key, in order of first appearance."""
    cols = list(columns) if columns else list(dict.fromkeys(k for row in rows for k in row))
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=cols, restval="", extrasaction="raise")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return path


def write_parquet(path: Path, rows: Sequence[Row]) -> Path:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise ExportError("Parquet export needs pyarrow: pip install 'ludus[parquet]'") from exc
    pq.write_table(pa.Table.from_pylist(list(rows)), path)
    return path


def export_tournament(out: Path, spec: TournamentSpec, results: Sequence[GameResult], summary: Summary,
                      parquet: bool = False, run_info: dict[str, Any] | None = None) -> list[Path]:
    """Write every table (and the records, if kept) into ``out``; returns the files written."""
    if parquet:  # fail before writing anything rather than halfway
        try:
            import pyarrow  # noqa: F401
        except ImportError as exc:
            raise ExportError("Parquet export needs pyarrow: pip install 'ludus[parquet]'") from exc
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ExportError(f"cannot create output folder {out}: {exc.strerror}") from exc
    tables = {
        "results": result_rows(spec, results),
        "games": game_rows(spec, results),
        "summary": summary_rows(summary),
        "seats": seat_rows(summary),
        "ratings": rating_rows(summary),
    }
    written = []
    for name, rows in tables.items():
        if rows:
            written.append(write_csv(out / f"{name}.csv", rows))
    if parquet:
        for name in ("results", "games"):
            written.append(write_parquet(out / f"{name}.parquet", tables[name]))
    meta = {"format": "ludus-tournament", "version": 1, "spec": spec.to_json(), "summary": summary.to_json()}
    if run_info:
        meta["run"] = run_info
    path = out / "tournament.json"
    path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    written.append(path)
    kept = [r for r in results if r.record is not None]
    if kept:
        folder = out / "records"
        folder.mkdir(exist_ok=True)
        width = max(4, len(str(spec.games - 1)))
        for r in kept:
            record_path = folder / f"game-{r.index:0{width}d}.json"
            parse_record(r.record).save(record_path)
        written.append(folder)
    return written
