"""What each game gives the terminal client: its flags and how to draw a seat's view.

The generic loop in :mod:`ludus.cli.play` knows no game. A game's adapter (``terminal.py``
in its package, named by its plugin) adds its own command-line flags, turns them into
options, and renders a :class:`~ludus.core.game.SeatView` with rich. It only ever receives
views, so the terminal cannot show what the seat may not see. It lives in ``core`` because
drawing belongs beside the rules (as in python-chess), and rich is a core dependency.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from typing import Any

from rich.console import Console

from ..i18n import N_, _, format_number
from .errors import IllegalAction
from .game import Action, Game, SeatView
from .provenance import DataValue

__all__ = ["GENERIC_REFUSALS", "TerminalAdapter", "data_text"]

GENERIC_REFUSALS = {
    "game-over": N_("the game is over"),
    "which-seat": N_("several seats decide now; say which seat is acting"),
    "not-your-turn": N_("it is not seat {seat}'s turn"),
    "not-legal": N_("{action} is not a legal move now"),
}
"""The English of the refusals the core ``State.apply`` gives (their codes), for every game."""


_NUMBER = re.compile(r"([+-]?)([0-9]+)")


def data_text(text: str) -> str:
    """A word, name or sentence of a game's data in the language in use: a number (``3``, ``+2``,
    ``-4``) in the language's digits, any other text through the catalog (as written when it has
    none: a name from a player's own file); an empty text stays empty."""
    if not text:
        return ""
    number = _NUMBER.fullmatch(text)
    if number:
        return number[1] + format_number(int(number[2]))
    return _(text)


class TerminalAdapter:
    """Defaults that work for any game; adapters override what they need."""

    game_name: str = ""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Game-specific flags for ``ludus play GAME``."""

    def options_from_args(self, args: argparse.Namespace) -> dict[str, Any]:
        """Options (before validation) implied by the game-specific flags."""
        return {}

    def default_human_seats(self, args: argparse.Namespace, game: Game, options: Any) -> list[int]:
        """Which seats a person plays when ``--seat`` is not given."""
        return [0]

    def choices(self, view: SeatView) -> list[tuple[Action, bool]]:
        """What to offer the player, each with whether it is legal now.

        Offering illegal choices too (e.g. every card in hand) lets the player pick one and
        read the engine's explanation of why it cannot be played.
        """
        return [(a, True) for a in view.legal_actions]

    def render(self, console: Console, view: SeatView, seat_names: list[str], *, you: bool = True) -> None:
        """Draw the table as ``view.seat`` sees it.

        ``you`` is False when the person reading is not that seat (``ludus replay --step``
        showing each mover's view in turn): the seat is then named, not called "you".
        """
        console.print(view.observation.to_json())

    def render_spectator(self, console: Console, observation: Any, seat_names: list[str]) -> None:
        """Draw public information only (used between bot moves and at the end)."""
        console.print(observation.to_json())

    def handle_command(self, console: Console, text: str, view: SeatView, seat_names: list[str]) -> bool:
        """Handle an extra typed command (e.g. "b" for the previous bout); True if it was one."""
        return False

    def show_chance(self, action: Action) -> bool:
        """Whether a visible chance outcome (a deal, a draw) is worth a line in the move log."""
        return True

    def label(self, action: Action) -> str:
        """A move's name in the move list, in the language in use (the player may type it)."""
        return action.label

    def describe_refusal(self, error: IllegalAction) -> str:
        """Why a move was refused, in the language in use, from the error's code and params
        (:class:`~ludus.core.errors.Refusal`); the English reason for a code this does not know."""
        if error.code in GENERIC_REFUSALS:
            return _(GENERIC_REFUSALS[error.code], **error.params)
        return str(error)

    def describe_action(self, seat_name: str, action: Action) -> str:
        """One line for the move log."""
        return f"{seat_name}: {action.label}"

    def describe_data_value(self, value: DataValue) -> tuple[str, str, str]:
        """A value of the game's data that its rulebook does not print, as ``ludus games NAME``
        lists it: its subject, value and note in the language in use. By default a subject
        "Name: field" is worded from its two parts, and each part, the value and the note go
        through the catalog (:func:`data_text`); a game whose data words are built otherwise
        words them itself. Records and the server keep the English (:class:`DataValue`)."""
        name, sep, field = value.subject.partition(": ")
        subject = _("{name}: {field}", name=data_text(name), field=data_text(field)) if sep else data_text(name)
        return subject, data_text(value.value), data_text(value.note)

    def describe_secret(self, seat_name: str) -> str:
        """The log line for another seat's move the reader may not see (rich markup)."""
        return _("[dim]{name} chose in secret[/]", name=seat_name)

    def narrate(self, before: Any, after: Any, entries: Sequence[tuple[int, Action | str]],
                seat_names: list[str]) -> list[str]:
        """What the moves in ``entries`` set off, in rich markup lines for the move log.

        ``before`` and ``after`` are the reader's observations (a seat's, or the spectator's)
        just before the first and just after the last of ``entries``; ``entries`` are the
        history items in between as the reader may see them (an action, or ``HIDDEN``). The
        move lines themselves come from :meth:`describe_action`; this adds what follows from
        them: a bout or exchange won, a round's summary, a preferred school changing, a
        reveal. Built from observations only, so it can tell nothing the reader may not see.
        """
        return []

    def render_final(self, console: Console, observation: Any, scores: list[float],
                     winners: list[int], seat_names: list[str]) -> None:
        """The final position as everyone may now see it (e.g. a showdown), then the scores."""
        console.rule(_("Game over"))
        console.print(observation.to_json())
        for i, name in enumerate(seat_names):
            mark = "  " + _("[bold green]winner[/]") if i in winners else ""
            console.print(f"{name}: {scores[i]:g}{mark}")
