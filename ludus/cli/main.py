"""Entry point of the ``ludus`` command."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Iterator
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..core.errors import LudusError
from ..i18n import (
    LANGUAGES,
    N_,
    _,
    format_number,
    ngettext,
    normalize_language,
    pick_language,
    reset_language,
    set_language,
)

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


PLAY_EPILOG = N_("At your turn type a move's number or name; h asks the bot for a hint, q leaves the game. "
               "Exit status 0: the game ended, or you typed q (with --save the unfinished game is saved "
               "and can be replayed). Exit status 1: the game was abandoned by Ctrl-C or the end of input "
               "(saved the same way). Exit status 2: bad arguments or options.")


def _add_play(sub: argparse._SubParsersAction) -> None:
    from ..games import game_names
    from .adapters import get_adapter

    play = sub.add_parser("play", help=_("play a game in the terminal against bots"))
    game_parsers = play.add_subparsers(dest="game", metavar="GAME", required=True)
    for name in game_names():
        p = game_parsers.add_parser(name, help=_("play {game}", game=name), epilog=_(PLAY_EPILOG))
        p.add_argument("--players", type=int, help=_("number of players (if the game has that option)"))
        p.add_argument("--seat", help=_("your seat number(s), 1-based, comma-separated; 'none' to watch bots"))
        p.add_argument("--bots", help=_("bot kinds for the other seats, e.g. heuristic or random,heuristic"))
        p.add_argument("--seed", type=_seed_arg, help=_("seed for a reproducible game"))
        p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help=_("set a game option"))
        p.add_argument("--save", metavar="FILE", help=_("save the game record to FILE at the end"))
        get_adapter(name).add_arguments(p)


OPTION_KINDS = {"str": N_("text"), "int": N_("whole number"), "bool": N_("true or false"), "float": N_("number")}
"""How ``ludus games`` names the kind of an option's value when no range or choices say more."""


def cmd_games(args: argparse.Namespace, console: Console) -> int:
    from ..games import game_names, get_game
    from .values import print_data_values, print_data_values_count

    names = [args.name] if args.name else game_names()
    for name in names:
        game = get_game(name)
        seats = _("{low}-{high} players", low=format_number(game.min_seats), high=format_number(game.max_seats))
        console.rule(f"[bold]{escape(_(game.title))}[/] ({game.name}, {seats})")
        if game.summary:
            console.print(_(game.summary))
        # option names, defaults and choices stay as typed after -o NAME=VALUE
        table = Table(_("option"), _("default"), _("allowed"), _("meaning"))
        for info in game.describe_options():
            allowed = ", ".join(map(str, info.choices)) if info.choices else (
                _("{low} to {high}", low=format_number(info.min), high=format_number(info.max))
                if info.min is not None else _(OPTION_KINDS.get(info.kind, info.kind)))
            table.add_row(info.name.replace("_", "-"), repr(info.default), allowed, _(info.help))
        console.print(table)
        if args.name:
            print_data_values(console, game)  # with the default options
        else:
            print_data_values_count(console, game)  # the whole list would drown the options
    return 0


def _replay_steps(record: Any, viewer: int | None) -> Iterator[tuple[int, Any, Any, Any]]:
    """Yield (actor, action, the reader's observation before it, the state after it) for each step.

    :func:`ludus.core.records.iter_replay` yields the state *before* each action and applies it
    afterwards, to one state object: so a step is handed on when the next one arrives (or the
    replay ends), and the state it carries is then the position after that step.
    """
    from ..core import records
    from ..games import get_game

    previous: tuple[int, Any, Any] | None = None
    state: Any = None
    for state, actor, action in records.iter_replay(record, get_game):
        if previous is not None:
            yield (*previous, state)
        previous = (actor, action, state.observation(viewer))
    if previous is not None:
        yield (*previous, state)  # iter_replay applied the last action to this same state


def step_keys() -> str:
    return _("[dim]Enter: next move · q: stop[/]") + " "


STEP_KEYS = step_keys()
"""The prompt at each pause of ``replay --step`` (in English; :func:`step_keys` in the language in use)."""


def _ask_step(console: Console) -> bool:
    """Wait at a step of ``replay --step``: True to go on, False to stop (q, or the end of input)."""
    while True:
        try:
            answer = console.input(step_keys()).strip().lower()
        except EOFError:
            return False
        if answer == "":
            return True
        if answer in ("q", "quit"):
            return False
        console.print(_("Press Enter for the next move, or q to stop."))


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    from ..core import records
    from ..core.game import CHANCE, HIDDEN
    from ..games import get_game
    from .adapters import get_adapter
    from .play import display_name, opening_lines

    record = records.load(args.file)
    state = records.initial_state(record, get_game)  # checks the game, options, players and result
    adapter = get_adapter(record.game)
    game = state.game
    n = state.num_seats()
    if args.seat is not None and not 1 <= args.seat <= n:
        raise LudusError(_("--seat must be a seat of this game, {first} to {n}; not {seat}", first=1, n=n,
                           seat=args.seat))
    plain_names = [display_name(name) for name in record.players or game.seat_names(state.options)]
    # names and card keys come from the file: brackets in them must not be read as rich markup
    names = [escape(name) for name in plain_names]
    viewer = None if args.seat is None else args.seat - 1
    total = len(record.actions)
    # TRANSLATORS: English says "actions" for every count (as Ludus always has); use your plural forms
    console.print(ngettext("[bold]{title}[/] record: {count} actions", "[bold]{title}[/] record: {count} actions",
                           total, title=_(game.title), count=total))
    for line in opening_lines(adapter, state, viewer, names):
        console.print("      " + line)  # a seeded record's opening deal, settled before its first action
    final = state
    try:
        for step, (actor, action, before, final) in enumerate(_replay_steps(record, viewer), start=1):
            who = _("Chance") if actor == CHANCE else plain_names[actor]
            hidden = viewer is not None and actor != viewer and not action.visible_to(viewer, actor)
            number = format_number(step)
            if not hidden and (actor != CHANCE or adapter.show_chance(action)):
                console.print(f"{number:>4}. " + escape(adapter.describe_action(who, action)))
            elif hidden and actor != CHANCE:  # as ludus play logs another seat's secret choice
                console.print(f"{number:>4}. " + adapter.describe_secret(names[actor]))
            # what the move set off, told from the reader's observations before and after it
            shown = HIDDEN if hidden else action
            for line in adapter.narrate(before, final.observation(viewer), [(actor, shown)], names):
                console.print("      " + line)
            if args.step and actor != CHANCE:
                view_seat = viewer if viewer is not None else actor
                console.rule(_("[dim]after move {step} of {total}: as {name} sees the table[/]", step=step,
                               total=total, name=names[view_seat]))
                adapter.render(console, final.view(view_seat), names, you=False)
                if not _ask_step(console):
                    console.print(_("Stopped after move {step} of {total}.", step=step, total=total))
                    return 0
    except KeyboardInterrupt:
        console.print("\n" + _("Replay interrupted."))
        return 130
    records.verify_result(record, final)
    if final.is_terminal():
        adapter.render_final(console, final.observation(viewer), final.scores(), final.winners(), names)
    else:
        console.print(_("The record ends before the game does."))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ludus", description=_("Card games of the Roman arena."))
    parser.add_argument("--lang", metavar="LANG",
                        help=_("the language to speak: {languages} (default: from LC_ALL, LC_MESSAGES or LANG, "
                               "else en); may be given anywhere on the line", languages=", ".join(LANGUAGES)))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    g = sub.add_parser("games", help=_("list the games and their options"))
    g.add_argument("name", nargs="?", help=_("show one game only"))
    _add_play(sub)
    r = sub.add_parser(
        "replay", help=_("step through a game record"),
        description=_("Print a finished (or unfinished) game's moves and what they set off, then its result."),
        epilog=_("With --step and no --seat, the table is drawn after each move as the player who made it "
               "sees it (each mover's view in turn, hands included: the game is over, nothing is left to "
               "hide); with --seat N only seat N's view is drawn, and the moves N could not see are left "
               "out. At each pause, Enter shows the next move and q stops (exit status 0, as does the end "
               "of input); Ctrl-C stops with exit status 130."))
    r.add_argument("file", help=_("a record (JSON) saved by 'ludus play --save' or the server"))
    r.add_argument("--step", action="store_true",
                   help=_("pause after every move and draw the table after it (Enter: next move, q: stop)"))
    r.add_argument("--seat", type=int, help=_("follow the game as this seat (1-based) saw it"))
    for module_name in EXTRA_COMMAND_MODULES:
        # these modules import only the standard library and rich, so every command is always listed
        importlib.import_module(module_name).add_command(sub)
    return parser


# More sub-commands, each a module with add_command(subparsers) that sets args.run.
EXTRA_COMMAND_MODULES = ("ludus.cli.rules", "ludus.cli.learn", "ludus.cli.tournament", "ludus.cli.analyze",
                         "ludus.cli.serve", "ludus.cli.analyze_game", "ludus.cli.ratings")

# The optional parts (pyproject.toml [project.optional-dependencies]) a command needs, and the
# modules that show whether each is installed. Checked before the command starts, so that a
# missing part is named up front, not met as a traceback after a long run.
COMMAND_EXTRAS = {"serve": "server", "ratings": "server", "tournament": "sim", "analyze": "sim"}
EXTRA_MODULES = {
    "server": ("fastapi", "uvicorn", "sqlalchemy", "alembic", "platformdirs", "prometheus_client", "argon2",
               "openskill"),
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
    return _("ludus {command} needs the '{extra}' extra ({modules} not installed): pip install 'ludus[{extra}]'",
             command=command, extra=extra, modules=", ".join(missing))


def error_text(exc: BaseException) -> str:
    """An error's message in the language in use: from its template and params when it was raised
    with a :class:`~ludus.core.errors.Message` (the engine's option checks), else its English text."""
    template = getattr(exc, "message_template", None)
    if template:
        return _(template, **exc.message_params)  # type: ignore[attr-defined]
    return str(exc)


def take_language(argv: list[str]) -> tuple[str | None, list[str]]:
    """``--lang X`` (or ``--lang=X``) taken out of the command line, wherever it is (before a
    sub-command or after it: every command speaks the language), and the rest of the line."""
    rest: list[str] = []
    lang: str | None = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i:]
            break
        if arg == "--lang" and i + 1 < len(argv):
            lang, i = argv[i + 1], i + 2
            continue
        if arg.startswith("--lang="):
            lang, i = arg.partition("=")[2], i + 1
            continue
        rest.append(arg)
        i += 1
    return lang, rest


def main(argv: list[str] | None = None) -> int:
    import os

    console = Console()
    lang, argv = take_language(sys.argv[1:] if argv is None else list(argv))
    if lang is not None and normalize_language(lang) is None:
        console.print(f"[bold red]Error:[/] unknown language {escape(repr(lang))}: Ludus speaks "
                      f"{', '.join(LANGUAGES)}")
        return 2
    token = set_language(pick_language(lang, os.environ))
    try:
        return _run(console, argv)
    finally:
        reset_language(token)  # a caller in the same process (a test) gets its language back


def _run(console: Console, argv: list[str]) -> int:
    from .argparse_words import speak_argparse

    speak_argparse()  # argparse's own words ("usage:", its errors) in the language chosen above
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
            console.print(_("[bold red]Error:[/] {message}", message=escape(message)))
            return 2
        return args.run(args, console)
    except LudusError as exc:
        console.print(_("[bold red]Error:[/] {message}", message=escape(error_text(exc))))
        return 2
    except ModuleNotFoundError as exc:
        extra = MODULE_EXTRAS.get((exc.name or "").partition(".")[0])
        if extra is None:
            raise
        message = _("{module} is not installed: pip install 'ludus[{extra}]'", module=exc.name, extra=extra)
        console.print(_("[bold red]Error:[/] {message}", message=escape(message)))
        return 2


if __name__ == "__main__":
    sys.exit(main())
