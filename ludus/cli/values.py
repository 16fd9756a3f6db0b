"""The values of a game's data that its rulebook does not print, as ``ludus games`` and
``ludus rules`` show them (the list comes from :meth:`ludus.core.game.Game.data_values`)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..core.game import Game
from ..core.provenance import EXAMPLE, OURS, SOURCE_TEXT, DataValue
from ..i18n import DEFAULT_LANGUAGE, N_, _, format_number, ngettext, use_language

__all__ = ["SOURCE_LABEL", "TITLE", "data_values_markdown", "print_data_values", "print_data_values_count"]

TITLE = N_("Values not printed in the rulebook")
ALL_PRINTED = N_("Every value of this game's data is printed in its rulebook.")
SOURCE_LABEL = {EXAMPLE: N_("from a worked example"), OURS: N_("ours (Ludus)")}
"""A value's source in a few words, for a table column; SOURCE_TEXT has the sentence."""


def _source(value: DataValue) -> str:
    return SOURCE_LABEL.get(value.source, value.source)


def _legend(values: list[DataValue]) -> str:
    """The sources that occur, each explained once (in SOURCE_TEXT's words), in the language in use."""
    seen = [s for s in (EXAMPLE, OURS) if any(v.source == s for v in values)]
    return _("; ").join(_("{label}: {meaning}", label=_(SOURCE_LABEL[s]), meaning=_(SOURCE_TEXT[s])) for s in seen)


def shown_values(game: Game, options: Any = None) -> list[DataValue]:
    """The game's unprinted values for ``options`` (the defaults when None); printed ones are left out."""
    chosen = options if options is not None else game.parse_options({})
    return [v for v in game.data_values(chosen) if v.provisional]


def print_data_values(console: Console, game: Game, options: Any = None) -> None:
    """A short table of the game's values that the rulebook does not print, or one line saying there
    are none; in the reader's language, the data's own words (subject, value, note) too, as the
    game's terminal adapter words them (:meth:`~ludus.core.terminal.TerminalAdapter.describe_data_value`)."""
    from .adapters import get_adapter

    values = shown_values(game, options)
    if not values:
        console.print(f"[dim]{escape(_(ALL_PRINTED))}[/]")
        return
    adapter = get_adapter(game.name)
    table = Table(_("subject"), _("value"), _("source"), _("note"), title=_(TITLE), title_justify="left")
    for v in values:
        subject, value, note = adapter.describe_data_value(v)
        table.add_row(escape(subject), escape(value), _(_source(v)), escape(note))
    console.print(table)
    console.print(f"[dim]{escape(_legend(values))}.[/]")


def print_data_values_count(console: Console, game: Game) -> None:
    """One line for the list of every game: how many values are ours, and where the table is."""
    values = shown_values(game)
    if not values:
        console.print(f"[dim]{escape(_(ALL_PRINTED))}[/]")
        return
    line = ngettext("{count} value not printed in the rulebook (from a worked example or ours): "
                    "ludus games {name} lists it.",
                    "{count} values not printed in the rulebook (from a worked example or ours): "
                    "ludus games {name} lists them.", len(values), count=format_number(len(values)), name=game.name)
    console.print(f"[dim]{escape(line)}[/]")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def data_values_markdown(game: Game, options: Any = None) -> str:
    """The same list as a Markdown section, for the end of ``ludus rules``'s English text (so in
    English whatever the language in use: a translated text carries its own)."""
    values = shown_values(game, options)
    lines = [f"## {TITLE}", ""]
    if not values:
        return "\n".join([*lines, ALL_PRINTED, ""])
    with use_language(DEFAULT_LANGUAGE):
        legend = _legend(values)
    lines += [f"{legend}.", "", "| subject | value | source | note |", "|---|---|---|---|"]
    lines += [f"| {_cell(v.subject)} | {_cell(v.value)} | {_source(v)} | {_cell(v.note)} |" for v in values]
    return "\n".join([*lines, ""])
