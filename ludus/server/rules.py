"""A game's rules for the browser: its how-to-play Markdown as safe HTML, and its options in words.

The text comes from the game's package (``ludus.games.how_to_play``), the one place it lives; the
terminal prints the same text (``ludus rules``). Rendering is the only thing that turns a game's
text into HTML, so it is the one place that decides what HTML may reach a page: raw HTML in the
Markdown is shown as text, and links may only be web (http, https) or this server's own addresses.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..core.game import Game
from ..core.options import OptionInfo, options_to_json, suggestion_label
from ..core.provenance import SOURCE_TEXT
from ..games import UnknownGame, how_to_play
from .tables import is_file_option

__all__ = ["explain_data_values", "explain_options", "render_markdown", "rules_html", "safe_link", "shown_value"]

_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")


def safe_link(url: str) -> bool:
    """Whether a link or image address may appear in a page: http(s), or relative to this server."""
    url = url.strip()
    if url.startswith("//"):  # another host, with this page's scheme: not ours to vouch for
        return False
    match = _SCHEME.match(url)
    return match is None or match.group(1).lower() in ("http", "https")


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    md.validateLink = safe_link  # type: ignore[method-assign]  # the library's documented hook
    return md


_MD = _parser()


def _shift_headings(tokens: list[Token]) -> list[Token]:
    """Drop the text's title (the panel shows the game's name itself) and put each section one level
    below the panel's own heading, so the page keeps one outline."""
    out: list[Token] = []
    skipping = False
    for token in tokens:
        if token.type == "heading_open" and token.tag == "h1" and not out:
            skipping = True
            continue
        if skipping:
            skipping = token.type != "heading_close"
            continue
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(6, int(token.tag[1]) + 1)}"
        out.append(token)
    return out


@lru_cache(maxsize=64)
def render_markdown(text: str, *, panel: bool = False) -> str:
    """Markdown as HTML safe to put in a page. ``panel``: shaped for the Rules panel (see
    :func:`_shift_headings`). Cached by text, so a game's rules are rendered once per process."""
    env: dict[str, Any] = {}
    tokens = _MD.parse(text, env)
    if panel:
        tokens = _shift_headings(tokens)
    for token in tokens:
        for child in token.children or ():
            if child.type == "link_open":  # a link to another site learns nothing about this page
                child.attrSet("rel", "noopener noreferrer")
    return _MD.renderer.render(tokens, _MD.options, env)


def rules_html(name: str) -> str | None:
    """The game's rules as panel HTML, or None when its package ships no rules text."""
    try:
        text = how_to_play(name)
    except UnknownGame:
        return None
    return render_markdown(text, panel=True)


def _suggestion_label(info: OptionInfo, value: Any) -> str | None:
    """The label of the suggestion for ``value``, in the language in use (None: no suggestion)."""
    for entry in info.suggestions or ():
        if entry["value"] == value:
            return suggestion_label(entry)
    return None


def shown_value(info: OptionInfo, value: Any) -> str:
    """An option's value as a player reads it: on/off, none, or a suggestion's own words."""
    if info.kind == "bool":
        return "on" if value else "off"
    if value == "" or value is None:
        return "none"
    return _suggestion_label(info, value) or str(value)


def explain_options(game: Game, options: Any) -> list[dict[str, Any]]:
    """Each option a table can set, with the value chosen (``options``: a parsed options object),
    its default, and its help, as words; ``changed`` marks a value other than the default."""
    chosen = options_to_json(options)
    out = []
    for info in game.describe_options():
        if is_file_option(info):  # set only on the host computer; a server table always has the default
            continue
        value = chosen.get(info.name, info.default)
        out.append({"name": info.name, "label": info.name.replace("_", "-"), "value": value,
                    "shown": shown_value(info, value), "default": info.default,
                    "default_shown": shown_value(info, info.default), "changed": value != info.default,
                    "help": info.help})
    return out


def explain_data_values(game: Game, options: Any) -> list[dict[str, str]]:
    """The values of the game's data that its rulebook does not print, for these options (a parsed
    options object): each with where it comes from (``source``: "example" or "ours") and that
    source in words (``source_text``), so the panel can mark it and say what the mark means."""
    return [{**value.to_json(), "source_text": SOURCE_TEXT[value.source]}
            for value in game.data_values(options) if value.provisional]
