"""``ludus rules GAME``: the game's rules for players, as the browser's Rules panel shows them."""

from __future__ import annotations

import argparse

from rich.console import Console

from ..i18n import _

__all__ = ["add_command", "cmd_rules"]


def add_command(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules", help=_("how to play a game: its rules in plain words, and Ludus's own choices"))
    p.add_argument("game", metavar="GAME", help=_("the game, as 'ludus games' lists it"))
    p.add_argument("--plain", action="store_true", help=_("print the Markdown text as it is (for a file or a pager)"))
    p.set_defaults(run=cmd_rules)


def cmd_rules(args: argparse.Namespace, console: Console) -> int:
    from rich.markdown import Markdown

    from ..games import get_game, how_to_play, translated_how_to_play
    from ..i18n import get_language
    from .values import data_values_markdown

    text = how_to_play(args.game)  # an unknown game or a game without a text: a LudusError, said plainly
    translated = translated_how_to_play(args.game, get_language())
    if translated is not None:
        text = translated  # it ends with its own list of the values the rulebook does not print
    else:
        # then the values the rulebook leaves out, and where ours come from (default options)
        text = text.rstrip("\n") + "\n\n" + data_values_markdown(get_game(args.game))
    if args.plain or not console.is_terminal:
        console.file.write(text if text.endswith("\n") else text + "\n")
    else:
        console.print(Markdown(text))
    return 0
