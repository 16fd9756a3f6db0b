"""``ludus analyze-game RECORD --seat N``: every decision of one seat, judged from its own view.

The review (:mod:`ludus.agents.review`) runs in a worker process so that the terminal stays
responsive and Ctrl-C stops it at once; the worker reports its progress through a queue.
"""

from __future__ import annotations

import argparse
import json
import math
import queue as queue_module
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..core.errors import LudusError
from ..i18n import N_, _, format_number, ngettext

__all__ = ["add_command", "cmd_analyze_game", "percent", "run_in_worker", "sparkline"]

MARK_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
MARK_WORDS = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}
"""A mark's name as the table shows it, in the language in use (the JSON keeps the English key)."""


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a number: {value}", value=repr(text[:40]))) from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(_("must be a positive number of seconds"))
    return value


def _samples(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("not a whole number: {value}", value=repr(text[:40]))) from None
    if not 2 <= value <= 100_000:
        raise argparse.ArgumentTypeError(_("must be from {low} to {high}", low=2, high=100_000))
    return value


def add_command(sub: argparse._SubParsersAction) -> None:
    from .main import _seed_arg

    p = sub.add_parser("analyze-game", help=_("mark one seat's mistakes in a finished game, from its own view"),
                       description=_("Evaluate every decision of one seat with paired rollouts from what that seat "
                                   "could see at the time, and mark the moves whose estimated win chance fell clearly "
                                   "below the best move's (docs/agents.md, 'Post-game analysis')."))
    p.add_argument("record", metavar="RECORD", help=_("a record (JSON) saved by 'ludus play --save' or the server"))
    p.add_argument("--seat", type=int, required=True, help=_("the seat to analyse, 1-based"))
    p.add_argument("--samples", type=_samples, help=_("deals per decision, each played after every candidate "
                   "move (default 24); the result is reproducible for a given seed and samples"))
    p.add_argument("--seconds-per-move", type=_positive, metavar="S",
                   help=_("also stop each decision's search after S seconds (then the result depends on speed)"))
    p.add_argument("--max-seconds", type=_positive, default=600.0, metavar="T",
                   help=_("stop the whole analysis after T seconds (default 600); the rest is listed as not analysed"))
    p.add_argument("--seed", type=_seed_arg, default=0, help=_("search seed (default 0)"))
    p.add_argument("--json", metavar="OUT", help=_("write the whole review as JSON to OUT"))
    p.set_defaults(run=cmd_analyze_game)


def percent(x: float | None) -> str:
    return "?" if x is None else _("{percent}%", percent=round(100 * x))


def sparkline(values: list[float]) -> str:
    """The win-chance curve in one line of block characters (0 to 1)."""
    blocks = "▁▂▃▄▅▆▇█"
    return "".join(blocks[min(len(blocks) - 1, max(0, int(v * len(blocks))))] for v in values)


def run_in_worker(record_data: dict[str, Any], seat: int, settings: dict[str, Any], console: Console,
                  ) -> dict[str, Any]:
    """Run the review in a spawned process, with a progress bar fed from its queue; its JSON."""
    import multiprocessing

    from ..agents.review import review_worker

    ctx = multiprocessing.get_context("spawn")
    messages = ctx.Queue()
    worker = ctx.Process(target=review_worker, args=(record_data, seat, settings, messages), daemon=True)
    worker.start()
    try:
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=console, transient=True) as bar:
            task = bar.add_task(_("decisions"), total=None)
            while True:
                try:
                    message = messages.get(timeout=0.2)
                except queue_module.Empty:
                    if not worker.is_alive():
                        raise LudusError(_("the analysis stopped unexpectedly (its worker process ended)")) from None
                    continue
                if message[0] == "progress":
                    bar.update(task, completed=message[1], total=message[2])
                elif message[0] == "done":
                    return dict(message[1])
                else:
                    raise LudusError(str(message[1]))
    finally:
        if worker.is_alive():
            worker.terminate()
        worker.join(timeout=5)


def cmd_analyze_game(args: argparse.Namespace, console: Console) -> int:
    from ..agents.review import DEFAULT_SAMPLES
    from ..core import records
    from ..games import get_game

    record = records.load(args.record)  # an unreadable or malformed file: a clear LudusError
    state = records.initial_state(record, get_game)
    n = state.num_seats()
    if not 1 <= args.seat <= n:
        raise LudusError(_("--seat must be a seat of this game, {first} to {last}; not {seat}", first=1, last=n,
                           seat=args.seat))
    out = Path(args.json) if args.json else None
    if out is not None and out.is_dir():
        raise LudusError(_("--json {file} is a folder; give a file name", file=str(out)))
    names = record.players or state.game.seat_names(state.options)
    settings = {"samples": args.samples or DEFAULT_SAMPLES, "seconds_per_decision": args.seconds_per_move,
                "max_seconds": args.max_seconds, "seed": args.seed}
    from .play import display_name

    console.print(_("[bold]{title}[/]: analysing {name} (seat {seat}), {samples} deals per decision, seed {seed}",
                    title=escape(_(state.game.title)), name=escape(display_name(names[args.seat - 1])),
                    seat=args.seat, samples=settings["samples"], seed=args.seed))
    try:
        review = run_in_worker(record.to_json(), args.seat - 1, settings, console)
    except KeyboardInterrupt:
        console.print(_("[yellow]Interrupted;[/] nothing was written."))
        return 130
    show_review(review, console)
    if out is not None:
        try:
            out.write_text(json.dumps(review, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise LudusError(_("cannot write {file}: {reason}", file=str(out), reason=exc.strerror or exc)) from None
        console.print(_("Review written to [bold]{file}[/]", file=escape(str(out))))
    return 0


def show_review(review: dict[str, Any], console: Console) -> None:
    """The marked decisions as a table, then the curve and the totals."""
    marked = [d for d in review["decisions"] if d["mark"] in MARK_STYLES]
    if marked:
        table = Table(_("move"), _("played"), _("best"), _("win chance played"), _("best"), _("drop ± s.e."),
                      _("mark"), title=_("Marked decisions"))
        for d in marked:
            style = MARK_STYLES[d["mark"]]
            table.add_row(format_number(d["ply"]), escape(d["played"]), escape(d["best"]), percent(d["played_value"]),
                          percent(d["best_value"]),
                          _("{drop} ± {error}", drop=percent(d["drop"]), error=percent(d["std_error"])),
                          f"[{style}]{escape(_(MARK_WORDS[d['mark']]))}[/]")
        console.print(table)
    else:
        console.print(_("No decision is marked: every move was the best one or within the noise of the estimate."))
    curve = [v for _ply, v in review["curve"] if v is not None]
    if curve:
        console.print(_("Win chance of the moves played: {curve}  (first {first}, last {last})", curve=sparkline(curve),
                        first=percent(curve[0]), last=percent(curve[-1])))
    t = review["totals"]
    analysed = ngettext("Analysed {count} decision in {seconds} s", "Analysed {count} decisions in {seconds} s",
                        t["analysed"], count=t["analysed"], seconds=round(review["seconds"], 1))
    forced = ngettext("{count} forced move skipped", "{count} forced moves skipped", t["forced"], count=t["forced"])
    console.print(_("{analysed}, {forced}; best {best}, fine {fine}, inaccuracies {inaccuracies}, mistakes "
                    "{mistakes}, blunders {blunders}.", analysed=analysed, forced=forced, best=t["best"],
                    fine=t["fine"], inaccuracies=t["inaccuracy"], mistakes=t["mistake"], blunders=t["blunder"]))
    if review["not_analysed"]:
        skipped = review["not_analysed"]
        moves = _(", ").join(format_number(m) for m in skipped[:20]) + ("…" if len(skipped) > 20 else "")
        console.print(ngettext("[yellow]The time limit ran out:[/] {count} decision not analysed (moves {moves}).",
                               "[yellow]The time limit ran out:[/] {count} decisions not analysed (moves {moves}).",
                               len(skipped), count=len(skipped), moves=moves))
    console.print(_("[dim]Win chance: share of rollouts won after the move, every seat then playing the game's "
                    "heuristic. A move is marked only when its drop exceeds the threshold and {low} to {high} "
                    "standard errors (more when more moves were compared), with at least {deals} deals.[/]",
                    low=2, high=2.7, deals=8))
