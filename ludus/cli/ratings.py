"""``ludus ratings``: recompute every rating from the stored games and compare (or repair)."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.markup import escape

from ..i18n import _

__all__ = ["add_command", "run_ratings"]


def add_command(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ratings", help=_("rebuild the server's ratings from its stored games and check them"))
    p.add_argument("--database", metavar="URL",
                   help=_("the server's database: a SQLite file or URL, or postgresql://… (default: the one "
                        "'ludus serve' uses)"))
    p.add_argument("--write", action="store_true",
                   help=_("store the recomputed ratings where they differ (stop the servers on this database first)"))
    p.set_defaults(run=run_ratings)


def run_ratings(args: argparse.Namespace, console: Console) -> int:
    from ..server.config import default_database_url
    from ..server.db import DatabaseError, lock_database, make_engine, migrate
    from ..server.ratings import rebuild

    url = args.database or default_database_url()
    held = None
    try:
        if args.write:  # a SQLite file: only while no server holds it
            held = lock_database(url)
        engine = make_engine(url)
        try:
            migrate(engine)
            report = rebuild(engine, write=args.write)
        finally:
            engine.dispose()
    except DatabaseError as exc:
        console.print(f"[red]{escape(str(exc))}[/]")
        return 2
    finally:
        if held is not None:
            held.release()
    console.print(f"{report.games} rated game(s), {report.seats} rated seat(s), {report.ratings} rating(s) "
                  "recomputed from the records.", highlight=False)
    for problem in report.problems[:50]:
        console.print(f"  [yellow]differs:[/] {escape(problem)}", highlight=False)
    if len(report.problems) > 50:
        console.print(f"  … and {len(report.problems) - 50} more", highlight=False)
    if report.ok:
        console.print("[green]Every stored rating matches.[/]")
        return 0
    if report.written:
        console.print(f"[green]Stored the recomputed values[/] ({len(report.problems)} difference(s) mended).")
        return 0
    console.print(f"{len(report.problems)} difference(s); run again with --write to store the recomputed values.")
    return 1
