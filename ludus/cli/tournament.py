"""``ludus tournament``: play agents against each other many times and report who is stronger."""

from __future__ import annotations

import argparse
import secrets
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..core.errors import LudusError
from ..i18n import _, ngettext
from .play import parse_option_pairs

__all__ = [
    "add_command", "build_spec", "check_backend", "fmt_ci", "progress_bar", "results_table",
    "run_tournament_command", "seats_table",
]

if TYPE_CHECKING:
    from ..sim.stats import Summary
    from ..sim.tournament import TournamentSpec


def add_command(sub: argparse._SubParsersAction) -> None:
    from ..sim.backends import BACKENDS

    p = sub.add_parser("tournament", help=_("play agents against each other and rate them"),
                       description=_("Play many seeded games between agent kinds, seats rotated, and write "
                                   "a results table, CSV (or Parquet) files and plots."))
    p.add_argument("--game", required=True, help=_("the game to play, e.g. gorus-maximus"))
    p.add_argument("--players", type=int, help=_("number of players (if the game has that option)"))
    p.add_argument("--agents", help=_("one agent kind per seat, comma-separated; KIND*N repeats one "
                                    "(default: heuristic then random for the other seats)"))
    p.add_argument("--games", type=int, default=100, help=_("number of games (default 100)"))
    p.add_argument("--seed", type=int, help=_("tournament seed (default: a random one, printed and saved)"))
    p.add_argument("--backend", choices=BACKENDS, default="process", help=_("where games run (default process)"))
    p.add_argument("--address", help=_("Ray cluster address (with --backend ray); default: start a local Ray"))
    p.add_argument("--workers", type=int, help=_("worker processes, or CPUs for a local Ray (default: all cores)"))
    p.add_argument("--out", help=_("output folder (default ./tournament-GAME-TIMESTAMP)"))
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help=_("set a game option"))
    p.add_argument("--parquet", action="store_true", help=_("also write results and games as Parquet"))
    p.add_argument("--records", action="store_true", help=_("save every game's record under OUT/records/"))
    p.add_argument("--no-plots", action="store_true", help=_("skip the PNG plots"))
    p.set_defaults(run=run_tournament_command)


def build_spec(args: argparse.Namespace) -> TournamentSpec:
    """Validate game, options, agents and counts into a spec (LudusError on anything wrong)."""
    from ..agents.base import has_heuristic
    from ..games import get_game
    from ..sim.tournament import make_spec

    game = get_game(args.game)
    values = parse_option_pairs(args.option)
    if args.players is not None:
        if "players" not in {o.name for o in game.describe_options()}:
            raise LudusError(_("{game} has no player-count option; drop --players", game=_(game.title)))
        values["players"] = args.players
    options = game.parse_options(values)
    agents = args.agents
    if agents is None:
        n = game.num_seats(options)
        first = "heuristic" if has_heuristic(game) else "random"
        agents = ",".join([first] + ["random"] * (n - 1))
    seed = args.seed if args.seed is not None else secrets.randbelow(1 << 32)
    return make_spec(game.name, options, agents, args.games, seed, records=args.records)


def check_backend(args: argparse.Namespace) -> None:
    if args.workers is not None and args.workers < 1:
        raise LudusError(_("--workers must be at least 1, not {value}", value=args.workers))
    if args.address and args.backend != "ray":
        raise LudusError(_("--address needs --backend ray"))
    if args.backend == "ray":
        from ..sim.backends import import_ray

        import_ray()
    if args.parquet:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise LudusError(_("--parquet needs pyarrow: pip install 'ludus[parquet]'")) from None


def progress_bar(console: Console) -> Progress:
    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TextColumn(_("eta")), TimeRemainingColumn(), console=console)


def fmt_ci(lo: float, hi: float) -> str:
    return f"{lo:.3f}-{hi:.3f}"


def results_table(summary: Summary, title: str) -> Table:
    shared = any(abs(t.wins - t.share) > 1e-9 for t in summary.agents.values())  # ties or team wins
    table = Table(title=title)
    table.add_column("#", justify="right")
    table.add_column(_("agent"), no_wrap=True)
    for col in (_("games"), _("share"), _("95% CI")) + ((_("win rate"),) if shared else ()) + (_("score"),):
        table.add_column(col, justify="right", no_wrap=True)
    if summary.ratings:
        table.add_column(_("rating"), justify="right", no_wrap=True)
    for rank, label in enumerate(summary.ranked(), 1):
        t = summary.agents[label]
        row = [str(rank), label, str(t.games), f"{t.win_share:.3f}", fmt_ci(*t.share_ci)]
        if shared:
            row.append(f"{t.win_rate:.3f}")
        row.append(f"{t.mean_score:.2f}")
        if summary.ratings:
            r = summary.ratings.final[label]
            row.append(f"{r.mu:.1f}±{r.sigma:.1f}")
        table.add_row(*row)
    return table


def seats_table(summary: Summary) -> Table:
    table = Table(title=_("By seat (any agent)"))
    for col in (_("seat"), _("games"), _("share"), _("95% CI"), _("score")):
        table.add_column(col, justify="right")
    for seat, t in sorted(summary.seats.items()):
        table.add_row(str(seat + 1), str(t.games), f"{t.win_share:.3f}", fmt_ci(*t.share_ci), f"{t.mean_score:.2f}")
    return table


def run_tournament_command(args: argparse.Namespace, console: Console) -> int:
    from ..games import get_game
    from ..sim.backends import default_workers, run_tournament
    from ..sim.export import export_tournament
    from ..sim.plots import plot_tournament
    from ..sim.stats import summarize

    spec = build_spec(args)
    check_backend(args)
    game = get_game(spec.game)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out) if args.out else Path(f"tournament-{spec.game}-{stamp}")
    if out.exists() and not out.is_dir():
        raise LudusError(_("--out {path} exists and is not a folder", path=str(out)))
    workers = args.workers or default_workers()
    n = len(spec.agents)
    title = escape(_(game.title))
    if args.address:
        console.print(_("[bold]{title}[/] tournament: {games} games, seed {seed}, {backend} backend at {address}",
                        title=title, games=spec.games, seed=spec.seed, backend=args.backend,
                        address=escape(args.address)))
    else:
        console.print(ngettext("[bold]{title}[/] tournament: {games} games, seed {seed}, {backend} backend, "
                               "{count} worker", "[bold]{title}[/] tournament: {games} games, seed {seed}, "
                               "{backend} backend, {count} workers", workers, title=title, games=spec.games,
                               seed=spec.seed, backend=args.backend, count=workers))
    console.print(_("Lineup (rotated one seat per game): {agents}", agents=_(", ").join(spec.labels)))
    if spec.games % n:
        console.print(_("[yellow]Note:[/] {games} is not a multiple of {seats}, so the seats are not exactly "
                        "balanced between agents.", games=spec.games, seats=n))
    started = time.perf_counter()
    try:
        with progress_bar(console) as bar:
            task = bar.add_task(_("games"), total=spec.games)
            results = run_tournament(spec, backend=args.backend, workers=workers, address=args.address,
                                     progress=lambda k: bar.advance(task, k))
    except KeyboardInterrupt:
        console.print(_("[yellow]Interrupted;[/] nothing was written."))
        return 130
    elapsed = time.perf_counter() - started
    summary = summarize(results, spec.agents, spec.labels)
    title = _(game.title)  # not inside ngettext's call: Babel's extractor would lose the plural
    console.print(results_table(summary, ngettext("{title}: {count} game, seed {seed}",
                                                  "{title}: {count} games, seed {seed}", spec.games,
                                                  title=title, count=spec.games, seed=spec.seed)))
    if n > 1:
        console.print(seats_table(summary))
    run_info = {"backend": args.backend, "workers": workers, "address": args.address, "seconds": round(elapsed, 3),
                "finished": datetime.now().isoformat(timespec="seconds")}
    written = export_tournament(out, spec, results, summary, parquet=args.parquet, run_info=run_info)
    if not args.no_plots:
        written += plot_tournament(summary, out)
    console.print(_("Played in {seconds} s. Wrote to [bold]{path}[/]: {files}", seconds=round(elapsed, 1),
                    path=escape(str(out)), files=_(", ").join(p.name for p in written)))
    return 0
