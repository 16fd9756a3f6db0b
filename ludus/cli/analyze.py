"""``ludus analyze``: a balance report for one game (seat advantage, modes, scores, length)."""

from __future__ import annotations

import argparse
import secrets
import time
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..core.errors import LudusError
from ..i18n import _, ngettext
from .tournament import progress_bar

__all__ = ["add_command", "list_scenarios", "run_analyze_command"]


def add_command(sub: argparse._SubParsersAction) -> None:
    from ..sim.backends import BACKENDS

    p = sub.add_parser("analyze", help=_("write a balance report for a game"),
                       description=_("Play the same agent at every seat across the game's scenarios (player "
                                   "counts, solo, teams, variants) and write a Markdown/HTML report with plots."))
    p.add_argument("--game", required=True, help=_("the game to analyse, e.g. gorus-maximus"))
    p.add_argument("--games", type=int, default=200, help=_("games per scenario (default 200)"))
    p.add_argument("--agent", help=_("agent kind at every seat (default: the game's heuristic, else random)"))
    p.add_argument("--scenarios", help=_("comma-separated scenario keys to run (default: all; see --list)"))
    p.add_argument("--list", action="store_true", help=_("list the game's scenarios and stop"))
    p.add_argument("--seed", type=int, help=_("analysis seed (default: a random one, printed and saved)"))
    p.add_argument("--backend", choices=BACKENDS, default="process", help=_("where games run (default process)"))
    p.add_argument("--address", help=_("Ray cluster address (with --backend ray); default: start a local Ray"))
    p.add_argument("--workers", type=int, help=_("worker processes, or CPUs for a local Ray (default: all cores)"))
    p.add_argument("--out", help=_("output folder (default ./analysis-GAME-TIMESTAMP)"))
    p.add_argument("--parquet", action="store_true", help=_("also write the games as Parquet"))
    p.add_argument("--no-plots", action="store_true", help=_("skip the PNG plots"))
    p.set_defaults(run=run_analyze_command)


def list_scenarios(game_name: str, console: Console) -> int:
    from ..games import get_game
    from ..sim.scenarios import scenarios_for

    game = get_game(game_name)
    table = Table(_("key"), _("mode"), _("title"), _("options"), title=_("{game} scenarios", game=_(game.title)))
    for s in scenarios_for(game):
        table.add_row(s.key, s.mode, s.title, ", ".join(f"{k}={v}" for k, v in s.options.items()) or _("defaults"))
    console.print(table)
    return 0


def run_analyze_command(args: argparse.Namespace, console: Console) -> int:
    from ..sim.analyze import analyze, plan, write_report
    from ..sim.backends import default_workers
    from .tournament import check_backend

    if args.list:
        return list_scenarios(args.game, console)
    keys = [k.strip() for k in args.scenarios.split(",") if k.strip()] if args.scenarios else None
    seed = args.seed if args.seed is not None else secrets.randbelow(1 << 32)
    game, kind, planned = plan(args.game, args.games, seed, args.agent, keys)  # validate before any work
    check_backend(args)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    out = Path(args.out) if args.out else Path(f"analysis-{game.name}-{stamp}")
    if out.exists() and not out.is_dir():
        raise LudusError(_("--out {path} exists and is not a folder", path=str(out)))
    workers = args.workers or default_workers()
    total = sum(spec.games for _key, spec in planned)
    title = escape(_(game.title))  # not inside ngettext's call: Babel's extractor would lose the plural
    console.print(ngettext("[bold]{title}[/] balance analysis: {count} scenario × {games} games, {agent} at every "
                           "seat, seed {seed}", "[bold]{title}[/] balance analysis: {count} scenarios × {games} games, "
                           "{agent} at every seat, seed {seed}", len(planned), title=title,
                           count=len(planned), games=args.games, agent=kind, seed=seed))
    started = time.perf_counter()
    try:
        with progress_bar(console) as bar:
            task = bar.add_task(_("games"), total=total)
            analysis = analyze(game.name, args.games, seed, kind, keys, backend=args.backend, workers=workers,
                               address=args.address, progress=lambda k: bar.advance(task, k))
    except KeyboardInterrupt:
        console.print(_("[yellow]Interrupted;[/] nothing was written."))
        return 130
    elapsed = time.perf_counter() - started
    written = write_report(analysis, out, plots=not args.no_plots, parquet=args.parquet)
    table = Table(_("scenario"), _("games"), _("win rates by seat or side"), _("shared wins"), _("mean decisions"),
                  title=_("Balance summary"))
    for s in analysis.scenarios:
        rates = " / ".join(f"{t.win_rate:.2f}" for t in s.side_tallies)
        table.add_row(s.scenario.key, str(s.games), rates, f"{s.shared / s.games:.2f}",
                      f"{sum(s.decisions) / s.games:.0f}")
    console.print(table)
    console.print(_("Played {games} games in {seconds} s. Report: [bold]{report}[/] (and report.html); files: "
                    "{files}", games=total, seconds=round(elapsed, 1), report=escape(str(out / "report.md")),
                    files=_(", ").join(p.name for p in written)))
    return 0
