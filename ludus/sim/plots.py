"""PNG plots of tournaments and balance runs, drawn with matplotlib's Agg renderer.

Figures are built with :class:`matplotlib.figure.Figure` and an Agg canvas directly, not
through ``pyplot``: nothing global changes (no backend switch, no open-figure list), so
the plots work without a display and in worker threads, and never leak memory in loops.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .stats import Summary, Tally

__all__ = [
    "DPI", "interval_bars", "new_figure", "plot_analysis", "plot_length", "plot_ratings", "plot_score_boxes",
    "plot_scores", "plot_seat_advantage", "plot_tournament", "plot_win_rates", "plot_win_shares", "save",
    "score_histogram",
]

if TYPE_CHECKING:
    from .analyze import Analysis

DPI = 110


def new_figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def save(fig: Figure, path: Path) -> Path:
    fig.savefig(path, format="png")
    return path


def interval_bars(ax: Any, names: Sequence[str], tallies: Sequence[Tally], fair: float | None,
                  rate: bool = False, color: str = "tab:blue") -> None:
    """Horizontal bars of win share (or win rate) with their 95% intervals as error bars."""
    values = [t.win_rate if rate else t.win_share for t in tallies]
    cis = [t.rate_ci if rate else t.share_ci for t in tallies]
    low = [max(0.0, v - lo) for v, (lo, _) in zip(values, cis)]
    high = [max(0.0, hi - v) for v, (_, hi) in zip(values, cis)]
    ys = list(range(len(names)))
    ax.barh(ys, values, xerr=[low, high], color=color, alpha=0.8, capsize=4)
    ax.set_yticks(ys, labels=list(names))
    ax.invert_yaxis()
    if fair is not None:
        ax.axvline(fair, color="grey", linestyle="--", linewidth=1, label=f"even ({fair:.3g})")
        ax.legend(loc="lower right", fontsize="small")
    ax.set_xlim(0, max([1e-9] + [hi for _, hi in cis]) * 1.05)


def plot_win_shares(summary: Summary, path: Path) -> Path:
    names = summary.ranked()
    fig = new_figure(7, 1.2 + 0.5 * len(names))
    ax = fig.add_subplot()
    interval_bars(ax, names, [summary.agents[n] for n in names], 1 / len(summary.labels))
    ax.set_xlabel("win share (95% Wilson interval)")
    ax.set_title(f"Win share over {summary.games} games")
    return save(fig, path)


def plot_ratings(summary: Summary, path: Path) -> Path | None:
    if summary.ratings is None or not summary.ratings.history:
        return None
    series: dict[str, tuple[list[int], list[float], list[float]]] = {}
    for index, label, rating in summary.ratings.history:
        xs, mus, sigmas = series.setdefault(label, ([], [], []))
        xs.append(index + 1)
        mus.append(rating.mu)
        sigmas.append(rating.sigma)
    fig = new_figure(8, 4.5)
    ax = fig.add_subplot()
    for label in summary.labels:
        if label not in series:
            continue
        xs, mus, sigmas = series[label]
        line = ax.plot(xs, mus, label=label, linewidth=1.2)[0]
        ax.fill_between(xs, [m - s for m, s in zip(mus, sigmas)], [m + s for m, s in zip(mus, sigmas)],
                        color=line.get_color(), alpha=0.15, linewidth=0)
    ax.set_xlabel("games played")
    ax.set_ylabel("OpenSkill mu (band: ±1 sigma)")
    ax.set_title("Ratings over the tournament")
    ax.legend(fontsize="small")
    return save(fig, path)


def score_histogram(ax: Any, groups: Mapping[str, Sequence[float]]) -> None:
    """Score distribution per group: bars per distinct value when few, else step histograms."""
    values = sorted({v for scores in groups.values() for v in scores})
    if not values:
        return
    if len(values) <= 20:
        width = 0.8 / max(1, len(groups))
        for i, (name, scores) in enumerate(groups.items()):
            total = len(scores) or 1
            xs = [j + (i - (len(groups) - 1) / 2) * width for j in range(len(values))]
            ax.bar(xs, [scores.count(v) / total for v in values], width=width, label=name)
        ax.set_xticks(range(len(values)), labels=[f"{v:g}" for v in values])
    else:
        bins = min(40, len(values))
        for name, scores in groups.items():
            ax.hist(scores, bins=bins, range=(values[0], values[-1]), histtype="step", density=True,
                    label=name, linewidth=1.4)
    ax.set_ylabel("fraction of games")
    ax.legend(fontsize="small")


def plot_scores(summary: Summary, path: Path) -> Path:
    fig = new_figure(8, 4.5)
    ax = fig.add_subplot()
    score_histogram(ax, {label: summary.agents[label].scores for label in summary.labels})
    ax.set_xlabel("final score")
    ax.set_title("Score distribution per agent")
    return save(fig, path)


def plot_tournament(summary: Summary, out: Path) -> list[Path]:
    paths = [plot_win_shares(summary, out / "win_shares.png"), plot_ratings(summary, out / "ratings.png"),
             plot_scores(summary, out / "scores.png")]
    return [p for p in paths if p is not None]


# --------------------------------------------------------------------------- balance analysis
def plot_seat_advantage(a: Analysis, path: Path) -> Path | None:
    """One small panel per multi-side scenario: win rate by seat (or team) against the even rate."""
    shown = [s for s in a.scenarios if s.even is not None]
    if not shown:
        return None
    cols = min(4, len(shown))
    rows = -(-len(shown) // cols)
    fig = new_figure(3.2 * cols, 0.6 + 2.4 * rows)
    for i, s in enumerate(shown):
        ax = fig.add_subplot(rows, cols, i + 1)
        names = [s.side_name(k).split(" (")[0].replace("Seat ", "") for k in range(len(s.side_tallies))]
        values = [t.win_rate for t in s.side_tallies]
        cis = [t.rate_ci for t in s.side_tallies]
        ax.bar(range(len(values)), values, color="tab:blue", alpha=0.8,
               yerr=[[v - lo for v, (lo, _) in zip(values, cis)], [hi - v for v, (_, hi) in zip(values, cis)]],
               capsize=3)
        even = s.even
        if even is not None:  # always: shown holds only scenarios with an even rate
            ax.axhline(even, color="grey", linestyle="--", linewidth=1)
        ax.set_xticks(range(len(values)), labels=names, fontsize="small")
        ax.set_ylim(0, max(hi for _, hi in cis) * 1.1 or 1)
        ax.set_title(s.scenario.title, fontsize="small")
    fig.suptitle(f"Seat advantage: win rate by seat or team (dashed: even), {a.agent} at every seat")
    return save(fig, path)


def plot_win_rates(a: Analysis, path: Path) -> Path:
    """Every scenario on one axis: each side's win rate as a point with its interval."""
    fig = new_figure(max(6.0, 0.7 * len(a.scenarios) + 2), 4.8)
    ax = fig.add_subplot()
    for x, s in enumerate(a.scenarios):
        k = len(s.side_tallies)
        offsets = [x + (j - (k - 1) / 2) * min(0.1, 0.7 / k) for j in range(k)]
        values = [t.win_rate for t in s.side_tallies]
        cis = [t.rate_ci for t in s.side_tallies]
        ax.errorbar(offsets, values, yerr=[[v - lo for v, (lo, _) in zip(values, cis)],
                                           [hi - v for v, (_, hi) in zip(values, cis)]],
                    fmt="o", markersize=3, capsize=2, color="tab:orange" if s.even is None else "tab:blue")
        if s.even is not None:
            ax.hlines(s.even, x - 0.4, x + 0.4, colors="grey", linestyles="--", linewidth=1)
    ax.set_xticks(range(len(a.scenarios)), labels=[s.scenario.key for s in a.scenarios], rotation=45,
                  ha="right", fontsize="small")
    ax.set_ylabel("win rate (95% interval)")
    ax.set_ylim(0, 1)
    ax.set_title("Win rate of each seat or side (dashed: even; orange: solo)")
    return save(fig, path)


def plot_score_boxes(a: Analysis, path: Path) -> Path:
    fig = new_figure(max(6.0, 0.7 * len(a.scenarios) + 2), 4.5)
    ax = fig.add_subplot()
    data = [[x for t in s.seats for x in t.scores] for s in a.scenarios]
    ax.boxplot(data, showmeans=True)
    ax.set_xticks(range(1, len(data) + 1), labels=[s.scenario.key for s in a.scenarios], rotation=45,
                  ha="right", fontsize="small")
    ax.set_ylabel("final score of a seat (triangle: mean)")
    ax.set_title("Score distribution per scenario")
    return save(fig, path)


def plot_length(a: Analysis, path: Path) -> Path:
    metric_names = sorted({m for s in a.scenarios for m in s.metrics})
    panels: list[tuple[str, Sequence[Sequence[float]]]] = [("decisions", [s.decisions for s in a.scenarios])]
    panels += [(m, [s.metrics.get(m, []) for s in a.scenarios]) for m in metric_names]
    fig = new_figure(max(6.0, 0.7 * len(a.scenarios) + 2), 3.2 * len(panels))
    for i, (name, data) in enumerate(panels):
        ax = fig.add_subplot(len(panels), 1, i + 1)
        ax.boxplot([d if d else [0] for d in data], showmeans=True)
        ax.set_xticks(range(1, len(data) + 1), labels=[s.scenario.key for s in a.scenarios], rotation=45,
                      ha="right", fontsize="small")
        ax.set_ylabel(name)
    fig.suptitle("Game length per scenario")
    return save(fig, path)


def plot_analysis(a: Analysis, out: Path) -> dict[str, Path]:
    """Every balance plot; keys name the plots for the report."""
    found = {
        "seat_advantage": plot_seat_advantage(a, out / "seat_advantage.png"),
        "win_rates": plot_win_rates(a, out / "win_rates.png"),
        "scores": plot_score_boxes(a, out / "scores.png"),
        "length": plot_length(a, out / "length.png"),
    }
    return {k: v for k, v in found.items() if v is not None}
