"""Balance analysis: the same agent at every seat, across a game's scenarios, in one report.

With identical agents everywhere, any difference between seats is the game's, not the
players': that is the seat advantage. Each scenario (player count, solo, team split,
variant; see :mod:`ludus.sim.scenarios`) is a small tournament run through the normal
harness, so it has the same determinism and backends. The report is written as Markdown
and as HTML from one list of blocks, with PNG plots beside it.
"""

from __future__ import annotations

import hashlib
import html
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents.base import has_heuristic, normalize_kind
from ..core.errors import LudusError
from ..core.game import Game
from ..core.rng import Rng
from ..games import get_game
from .backends import Progress, run_specs
from .export import result_rows, write_csv, write_parquet
from .scenarios import SOLO, Scenario, profile, scenarios_for, sides_of
from .stats import Tally
from .tournament import GameResult, TournamentSpec, make_spec

__all__ = [
    "Analysis", "AnalysisError", "Block", "ScenarioResult", "analyze", "balance_rows", "default_agent", "game_rows",
    "plan", "render_html", "render_markdown", "report_blocks", "scenario_seed", "select_scenarios", "write_report",
]


class AnalysisError(LudusError):
    """An analysis that cannot be set up (unknown scenario, no games)."""


def scenario_seed(seed: int, key: str) -> int:
    """A scenario's tournament seed from the analysis seed and the scenario's key (not its
    position), so adding or skipping scenarios leaves the others' games unchanged."""
    digest = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")
    return Rng(seed ^ digest).next_u64() >> 11


def default_agent(game: Game) -> str:
    return "heuristic" if has_heuristic(game) else "random"


@dataclass
class ScenarioResult:
    """One scenario's games and what the report needs from them."""

    scenario: Scenario
    spec: TournamentSpec
    results: list[GameResult]
    sides: tuple[int, ...]  # side (team) of each seat
    seats: list[Tally] = field(default_factory=list)
    side_tallies: list[Tally] = field(default_factory=list)
    shared: int = 0  # games won by more than one side (ties)
    no_winner: int = 0
    decisions: list[int] = field(default_factory=list)
    metrics: dict[str, list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.sides)
        num_sides = max(self.sides) + 1
        self.seats = [Tally() for _ in range(n)]
        self.side_tallies = [Tally() for _ in range(num_sides)]
        for r in self.results:
            for seat in range(n):
                self.seats[seat].add(seat in r.winners, r.shares[seat], r.scores[seat])
            winning_sides = {self.sides[s] for s in r.winners}
            for side in range(num_sides):
                members = [s for s in range(n) if self.sides[s] == side]
                self.side_tallies[side].add(side in winning_sides, sum(r.shares[s] for s in members),
                                            statistics.fmean(r.scores[s] for s in members))
            self.shared += len(winning_sides) > 1
            self.no_winner += not winning_sides
            self.decisions.append(r.decisions)
            for name, value in r.metrics.items():
                self.metrics.setdefault(name, []).append(value)

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def players(self) -> int:
        return len(self.sides)

    @property
    def teams(self) -> bool:
        return len(self.side_tallies) != len(self.seats)

    @property
    def even(self) -> float | None:
        """The win rate every side would have in a perfectly balanced game (None for solo)."""
        k = len(self.side_tallies)
        return None if k < 2 else 1 / k

    def side_name(self, side: int) -> str:
        if not self.teams:
            return f"Seat {side + 1}"
        seats = ",".join(str(s + 1) for s in range(len(self.sides)) if self.sides[s] == side)
        return f"Team {'ABCDEFGH'[side]} (seats {seats})"


@dataclass
class Analysis:
    game: Game
    agent: str
    games: int
    seed: int
    scenarios: list[ScenarioResult]


def select_scenarios(game: Game, keys: Sequence[str] | None) -> list[Scenario]:
    available = scenarios_for(game)
    if not keys:
        return available
    by_key = {s.key: s for s in available}
    unknown = [k for k in keys if k not in by_key]
    if unknown:
        raise AnalysisError(f"unknown scenario {unknown[0]!r} for {game.title}; known: {', '.join(by_key)}")
    return [by_key[k] for k in keys]


def plan(game_name: str, games: int, seed: int, agent: str | None = None,
         keys: Sequence[str] | None = None) -> tuple[Game, str, list[tuple[Scenario, TournamentSpec]]]:
    """Validate everything and build one tournament spec per scenario, before playing anything."""
    game = get_game(game_name)
    kind = normalize_kind(agent or default_agent(game))
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise AnalysisError(f"the number of games per scenario must be a positive whole number, not {games!r}")
    out = []
    for scenario in select_scenarios(game, keys):
        try:
            options = game.parse_options(scenario.options)
        except LudusError as exc:
            raise AnalysisError(f"scenario {scenario.key!r} of {game.title} has bad options: {exc}") from exc
        n = game.num_seats(options)
        spec = make_spec(game.name, options, [kind] * n, games, scenario_seed(seed, scenario.key))
        out.append((scenario, spec))
    return game, kind, out


def analyze(game_name: str, games: int = 200, seed: int = 0, agent: str | None = None,
            keys: Sequence[str] | None = None, backend: str = "process", workers: int | None = None,
            address: str | None = None, progress: Progress | None = None) -> Analysis:
    """Play every scenario (all in one batch of work, so workers stay busy) and tally them."""
    game, kind, planned = plan(game_name, games, seed, agent, keys)
    specs = [spec for _, spec in planned]
    all_results = run_specs(specs, backend=backend, workers=workers, address=address, progress=progress)
    scenario_results = []
    for (scenario, spec), results in zip(planned, all_results):
        options = game.parse_options(spec.options)
        scenario_results.append(ScenarioResult(scenario, spec, results, sides_of(game, options)))
    return Analysis(game=game, agent=kind, games=games, seed=seed, scenarios=scenario_results)


# --------------------------------------------------------------------------- report blocks
Block = tuple[Any, ...]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(t: Tally) -> str:
    lo, hi = t.rate_ci
    return f"{_pct(lo)}–{_pct(hi)}"


def _flag(t: Tally, even: float | None) -> str:
    if even is None:
        return ""
    lo, hi = t.rate_ci
    return "above even" if lo > even else "below even" if hi < even else ""


def _mean(xs: Sequence[float]) -> float:
    return statistics.fmean(xs) if xs else 0.0


def report_blocks(a: Analysis, images: dict[str, str]) -> list[Block]:
    """The report as a list of blocks: (kind, ...) with kind h1, h2, h3, p, ul, table, img."""
    prof = profile(a.game.name)
    metric_names = sorted({m for s in a.scenarios for m in s.metrics})
    blocks: list[Block] = [
        ("h1", f"{a.game.title}: balance report"),
        ("p", f"Every seat is played by the same agent ({a.agent}), so differences between seats come from "
              f"the game itself. {a.games} games per scenario, analysis seed {a.seed}. Win rates count a seat "
              "as winning when it is among the game's winners; intervals are 95% Wilson score intervals. "
              "A seat or side is marked when its whole interval lies above or below the even rate "
              "(one over the number of sides)."),
    ]
    if prof.notes:
        blocks.append(("ul", list(prof.notes)))
    blocks.append(("h2", "Summary"))
    head = ["scenario", "mode", "players", "games", "win rates by seat or side", "marked", "shared wins",
            "mean decisions"] + [f"mean {m}" for m in metric_names]
    rows = []
    for s in a.scenarios:
        if s.scenario.mode == SOLO or s.even is None:
            rates = f"{_pct(s.side_tallies[0].win_rate)} ({_ci(s.side_tallies[0])})"
        else:
            rates = " / ".join(_pct(t.win_rate) for t in s.side_tallies)
        marked = sum(bool(_flag(t, s.even)) for t in s.side_tallies)
        rows.append([s.scenario.title, s.scenario.mode, str(s.players), str(s.games), rates, str(marked),
                     _pct(s.shared / s.games), f"{_mean(s.decisions):.1f}"]
                    + [f"{_mean(s.metrics.get(m, [])):.2f}" for m in metric_names])
    blocks.append(("table", head, rows))
    solo = [s for s in a.scenarios if s.even is None]
    if solo:
        blocks.append(("h2", "Solo win rate"))
        blocks.append(("table", ["scenario", "games", "win rate", "95% CI", "mean score"],
                       [[s.scenario.title, str(s.games), _pct(s.side_tallies[0].win_rate), _ci(s.side_tallies[0]),
                         f"{s.side_tallies[0].mean_score:.2f}"] for s in solo]))
    if "win_rates" in images:
        blocks.append(("h2", "Win rates by player count and mode"))
        blocks.append(("img", images["win_rates"], "Win rate of each seat or side in every scenario"))
    blocks.append(("h2", "Seat advantage"))
    if "seat_advantage" in images:
        blocks.append(("img", images["seat_advantage"], "Win rate by seat, with 95% intervals"))
    for s in a.scenarios:
        if s.even is None:
            continue
        blocks.append(("h3", s.scenario.title))
        table_rows = []
        for i, t in enumerate(s.side_tallies):
            table_rows.append([s.side_name(i), _pct(t.win_rate), _ci(t), _flag(t, s.even), f"{t.mean_score:.2f}"])
        blocks.append(("table", ["seat" if not s.teams else "team", "win rate", "95% CI",
                                 f"vs even ({_pct(s.even)})", "mean score"], table_rows))
    blocks.append(("h2", "Score distributions"))
    if "scores" in images:
        blocks.append(("img", images["scores"], "Final scores per scenario"))
    score_rows = []
    for s in a.scenarios:
        scores = [x for t in s.seats for x in t.scores]
        score_rows.append([s.scenario.title, f"{min(scores):g}", f"{statistics.median(scores):g}",
                           f"{_mean(scores):.2f}", f"{max(scores):g}"])
    blocks.append(("table", ["scenario", "min", "median", "mean", "max"], score_rows))
    blocks.append(("h2", "Game length"))
    if "length" in images:
        blocks.append(("img", images["length"], "Game length per scenario"))
    length_rows = []
    for s in a.scenarios:
        row = [s.scenario.title, f"{min(s.decisions)}", f"{statistics.median(s.decisions):g}",
               f"{_mean(s.decisions):.1f}", f"{max(s.decisions)}"]
        for m in metric_names:
            values = s.metrics.get(m, [])
            row.append(f"{_mean(values):.2f} (max {max(values):g})" if values else "")
        length_rows.append(row)
    blocks.append(("table", ["scenario", "min decisions", "median", "mean", "max"] + metric_names, length_rows))
    blocks.append(("h2", "Reproduce"))
    keys = ",".join(s.scenario.key for s in a.scenarios)
    blocks.append(("p", f"`ludus analyze --game {a.game.name} --games {a.games} --seed {a.seed} "
                        f"--agent {a.agent} --scenarios {keys}` gives the same games on any backend."))
    return blocks


def render_markdown(blocks: Sequence[Block]) -> str:
    out: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind in ("h1", "h2", "h3"):
            out.append("#" * int(kind[1]) + " " + block[1])
        elif kind == "p":
            out.append(block[1])
        elif kind == "ul":
            out.append("\n".join(f"- {item}" for item in block[1]))
        elif kind == "img":
            out.append(f"![{block[2]}]({block[1]})")
        elif kind == "table":
            head, rows = block[1], block[2]
            lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
            out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


_CSS = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}th,td{border:1px solid #ccc;padding:.25rem .5rem}
th{background:#f3f3f3}td{text-align:right}td:first-child{text-align:left}img{max-width:100%}
code{background:#f3f3f3;padding:0 .2rem}"""


def _inline(text: str) -> str:
    """Escape text and turn `code` spans into <code>."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def render_html(blocks: Sequence[Block]) -> str:
    title = next((b[1] for b in blocks if b[0] == "h1"), "Balance report")
    body: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind in ("h1", "h2", "h3"):
            body.append(f"<{kind}>{_inline(block[1])}</{kind}>")
        elif kind == "p":
            body.append(f"<p>{_inline(block[1])}</p>")
        elif kind == "ul":
            body.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in block[1]) + "</ul>")
        elif kind == "img":
            body.append(f'<p><img src="{html.escape(block[1])}" alt="{html.escape(block[2])}"></p>')
        elif kind == "table":
            head, rows = block[1], block[2]
            cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
            trs = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
            body.append(f"<table><thead><tr>{cells}</tr></thead><tbody>{trs}</tbody></table>")
    return (f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head>\n<body>\n" + "\n".join(body) + "\n</body></html>\n")


# --------------------------------------------------------------------------- tables and files
def balance_rows(a: Analysis) -> list[dict[str, Any]]:
    """One row per scenario and seat or side: the numbers behind the seat-advantage tables."""
    rows = []
    for s in a.scenarios:
        for i, t in enumerate(s.side_tallies):
            lo, hi = t.rate_ci
            rows.append({"scenario": s.scenario.key, "mode": s.scenario.mode, "players": s.players,
                         "side": s.side_name(i), "games": t.games, "wins": t.wins, "win_rate": t.win_rate,
                         "ci_low": lo, "ci_high": hi, "even": s.even, "mean_score": t.mean_score})
    return rows


def game_rows(a: Analysis) -> list[dict[str, Any]]:
    """Every game of every scenario, one row per seat, with the scenario's key in front."""
    metric_names = sorted({m for s in a.scenarios for m in s.metrics})
    rows = []
    for s in a.scenarios:
        for row in result_rows(s.spec, s.results):
            rows.append({"scenario": s.scenario.key, **row} | {m: row.get(m) for m in metric_names})
    return rows


def write_report(a: Analysis, out: Path, plots: bool = True, parquet: bool = False) -> list[Path]:
    """Write report.md, report.html, the plots and the CSV tables into ``out``."""
    from .plots import plot_analysis

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise AnalysisError(f"cannot create output folder {out}: {exc.strerror}") from exc
    written: list[Path] = []
    images: dict[str, str] = {}
    if plots:
        for name, path in plot_analysis(a, out).items():
            images[name] = path.name
            written.append(path)
    blocks = report_blocks(a, images)
    md = out / "report.md"
    md.write_text(render_markdown(blocks), encoding="utf-8")
    page = out / "report.html"
    page.write_text(render_html(blocks), encoding="utf-8")
    written += [md, page]
    written.append(write_csv(out / "balance.csv", balance_rows(a)))
    rows = game_rows(a)
    written.append(write_csv(out / "games.csv", rows))
    if parquet:
        written.append(write_parquet(out / "games.parquet", rows))
    return written
