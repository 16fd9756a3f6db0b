"""Entry point of the ``ludus`` command."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..core.errors import LudusError

__all__ = [
    "COMMAND_EXTRAS", "EXTRA_COMMAND_MODULES", "EXTRA_MODULES", "MODULE_EXTRAS", "build_parser", "cmd_games",
    "cmd_replay", "main", "missing_extra_message",
]


def _seed_arg(text: str) -> int:
    """A --seed value: a whole number that a record can hold (see ludus.core.records)."""
    from ..core.records import SEED_MAX, SEED_MIN

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None
    if not SEED_MIN <= value <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"a seed must be from {SEED_MIN} to {SEED_MAX}")
    return value


def _add_play(sub: argparse._SubParsersAction) -> None:
    from ..games import game_names
    from .adapters import get_adapter

    play = sub.add_parser("play", help="play a game in the terminal against bots")
    game_parsers = play.add_subparsers(dest="game", metavar="GAME", required=True)
    for name in game_names():
        p = game_parsers.add_parser(name, help=f"play {name}")
        p.add_argument("--players", type=int, help="number of players (if the game has that option)")
        p.add_argument("--seat", help="your seat number(s), 1-based, comma-separated; 'none' to watch bots")
        p.add_argument("--bots", help="bot kinds for the other seats, e.g. heuristic or random,heuristic")
        p.add_argument("--seed", type=_seed_arg, help="seed for a reproducible game")
        p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="set a game option")
        p.add_argument("--save", metavar="FILE", help="save the game record to FILE at the end")
        get_adapter(name).add_arguments(p)


def cmd_games(args: argparse.Namespace, console: Console) -> int:
    from ..games import game_names, get_game

    names = [args.name] if args.name else game_names()
    for name in names:
        game = get_game(name)
        console.rule(f"[bold]{game.title}[/] ({game.name}, {game.min_seats}-{game.max_seats} players)")
        if game.summary:
            console.print(game.summary)
        table = Table("option", "default", "allowed", "meaning")
        for info in game.describe_options():
            allowed = ", ".join(map(str, info.choices)) if info.choices else (
                f"{info.min}..{info.max}" if info.min is not None else info.kind)
            table.add_row(info.name.replace("_", "-"), repr(info.default), allowed, info.help)
        console.print(table)
    return 0


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    from ..core import records
    from ..core.game import CHANCE, HIDDEN
    from ..games import get_game
    from .adapters import get_adapter

    record = records.load(args.file)
    state = records.initial_state(record, get_game)  # checks the game, options, players and result
    adapter = get_adapter(record.game)
    game = state.game
    n = state.num_seats()
    if args.seat is not None and not 1 <= args.seat <= n:
        raise LudusError(f"--seat must be a seat of this game, 1 to {n}; not {args.seat}")
    plain_names = record.players or game.seat_names(state.options)
    # names and card keys come from the file: brackets in them must not be read as rich markup
    names = [escape(name) for name in plain_names]
    viewer = None if args.seat is None else args.seat - 1
    console.print(f"[bold]{game.title}[/] record: {len(record.actions)} actions")
    final = state
    pending: tuple[Any, int, Any] | None = None  # the step printed last: (observation before it, actor, action)

    def narrate(after_state: Any) -> None:
        if pending is None:
            return
        before, actor, action = pending
        shown = action if viewer is None or actor == viewer or action.visible_to(viewer, actor) else HIDDEN
        for line in adapter.narrate(before, after_state.observation(viewer), [(actor, shown)], names):
            console.print("      " + line)

    for step, (final, actor, action) in enumerate(records.iter_replay(record, get_game), start=1):
        narrate(final)  # final is now the state after the previous step
        pending = (final.observation(viewer), actor, action)
        who = "Chance" if actor == CHANCE else plain_names[actor]
        hidden = viewer is not None and actor != viewer and not action.visible_to(viewer, actor)
        if not hidden and (actor != CHANCE or adapter.show_chance(action)):
            console.print(f"{step:>4}. " + escape(adapter.describe_action(who, action)))
        if args.step and actor != CHANCE:
            view_seat = viewer if viewer is not None else (actor if actor >= 0 else None)
            if view_seat is not None:
                adapter.render(console, final.view(view_seat), names)
            if console.input("[dim]Enter for next, q to stop[/] ").strip().lower() == "q":
                return 0
    # iter_replay changes its state in place: after the loop, final is the state after the last action
    narrate(final)
    records.verify_result(record, final)
    if final.is_terminal():
        adapter.render_final(console, final.observation(viewer), final.scores(), final.winners(), names)
    else:
        console.print("The record ends before the game does.")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ludus", description="Card games of the Roman arena.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    g = sub.add_parser("games", help="list the games and their options")
    g.add_argument("name", nargs="?", help="show one game only")
    _add_play(sub)
    r = sub.add_parser("replay", help="step through a game record")
    r.add_argument("file", help="a record (JSON) saved by 'ludus play --save' or the server")
    r.add_argument("--step", action="store_true", help="pause after every move and show the table")
    r.add_argument("--seat", type=int, help="show the table as this seat (1-based) sees it")
    for module_name in EXTRA_COMMAND_MODULES:
        # these modules import only the standard library and rich, so every command is always listed
        importlib.import_module(module_name).add_command(sub)
    return parser


# More sub-commands, each a module with add_command(subparsers) that sets args.run.
EXTRA_COMMAND_MODULES = ("ludus.cli.rules", "ludus.cli.learn", "ludus.cli.tournament", "ludus.cli.analyze",
                         "ludus.cli.serve", "ludus.cli.analyze_game")

# The optional parts (pyproject.toml [project.optional-dependencies]) a command needs, and the
# modules that show whether each is installed. Checked before the command starts, so that a
# missing part is named up front, not met as a traceback after a long run.
COMMAND_EXTRAS = {"serve": "server", "tournament": "sim", "analyze": "sim"}
EXTRA_MODULES = {
    "server": ("fastapi", "uvicorn", "sqlalchemy", "alembic", "platformdirs"),
    "sim": ("openskill", "matplotlib"),
}
# Top-level module -> extra, to name the extra when an optional module is missing anyway.
MODULE_EXTRAS = {module: extra for extra, modules in EXTRA_MODULES.items() for module in modules} | {
    "starlette": "server", "ray": "ray", "pyarrow": "parquet", "psycopg": "postgres",
    "numpy": "interop", "pyspiel": "interop", "pettingzoo": "interop", "gymnasium": "interop",
}


def missing_extra_message(command: str) -> str | None:
    """Why ``ludus COMMAND`` cannot run here, naming what to install; None if it can."""
    extra = COMMAND_EXTRAS.get(command)
    if extra is None:
        return None
    missing = [name for name in EXTRA_MODULES[extra] if importlib.util.find_spec(name) is None]
    if not missing:
        return None
    return (f"ludus {command} needs the '{extra}' extra ({', '.join(missing)} not installed): "
            f"pip install 'ludus[{extra}]'")


def main(argv: list[str] | None = None) -> int:
    console = Console()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "games":
            return cmd_games(args, console)
        if args.command == "play":
            from .play import run_play

            return run_play(args, console)
        if args.command == "replay":
            return cmd_replay(args, console)
        message = missing_extra_message(args.command)
        if message is not None:
            console.print(f"[bold red]Error:[/] {escape(message)}")
            return 2
        return args.run(args, console)
    except LudusError as exc:
        console.print(f"[bold red]Error:[/] {escape(str(exc))}")
        return 2
    except ModuleNotFoundError as exc:
        extra = MODULE_EXTRAS.get((exc.name or "").partition(".")[0])
        if extra is None:
            raise
        message = f"{exc.name} is not installed: pip install 'ludus[{extra}]'"
        console.print(f"[bold red]Error:[/] {escape(message)}")
        return 2


if __name__ == "__main__":
    sys.exit(main())
