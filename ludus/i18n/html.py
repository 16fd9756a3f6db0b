"""The words of an HTML page, for the catalogs and for the page as a reader gets it.

A page's static text is translated on the server, before the page is sent (no flash of English,
nothing for a script to do). One set of rules says what a message is, used both by the extractor
(``python -m ludus.i18n.catalogs update`` reads ``ludus/web/static/*.html`` with it) and by
:func:`translate_html`, so that what is extracted is exactly what is looked up:

- every text between tags that holds a letter is a message, its white space collapsed
  ("Play now", "Loading games…"); the white space around it is kept as written;
- the attributes a person reads (``title``, ``aria-label``, ``placeholder``, ``alt``) are messages;
- an element marked ``data-i18n`` is one message as a whole: its inner HTML, tags included
  (``Log in to play rated games: <a href="/me">log in or create an account</a>.``), so a sentence
  with a link in it is translated as one sentence; the translation keeps the same tags
  (tests/i18n checks it) and is put into the page as HTML: catalogs are ours, never a player's;
- ``translate="no"`` (the standard HTML attribute) keeps an element's text as it is (the name
  "Ludus", the languages' own names in the switcher); ``<script>`` and ``<style>`` are never text.

Only the standard library: this module is part of the lowest layer (``ludus.i18n``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from typing import IO, Any

__all__ = ["ATTRIBUTES", "extract_html", "messages", "translate_html"]

ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
"""Attributes whose values a person reads (or hears, from a screen reader)."""
_RAW = ("script", "style")
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_LETTER = re.compile(r"[^\W\d_]")


def _words(text: str) -> str:
    return " ".join(text.split())


def is_message(text: str) -> bool:
    """Whether a text or attribute value is something to translate: it holds a letter."""
    return bool(_LETTER.search(text))


class _Walker(HTMLParser):
    """Reads a page and writes it out again, each message replaced by ``gettext(message)``;
    ``found`` collects the messages with their line numbers."""

    def __init__(self, gettext: Callable[[str], str], root: dict[str, str] | None = None) -> None:
        super().__init__(convert_charrefs=True)
        self.gettext = gettext
        self.root = root or {}  # attributes to set on <html> (lang, dir)
        self.out: list[str] = []
        self.found: list[tuple[int, str]] = []
        self.raw = 0            # inside <script>/<style>
        self.keep: list[str] = []  # open elements with translate="no"
        self.whole: list[str] | None = None  # the inner HTML of a data-i18n element being read
        self.whole_tag: str | None = None
        self.whole_depth = 0
        self.whole_line = 0

    # -- helpers
    def _message(self, text: str) -> str:
        message = _words(text)
        self.found.append((self.getpos()[0], message))
        return self.gettext(message)

    def _tag(self, tag: str, attrs: list[tuple[str, str | None]], close: bool, translate: bool) -> str:
        changed = False
        values = []
        if tag == "html" and self.root:
            attrs = [(k, v) for k, v in attrs if k not in self.root] + list(self.root.items())
            changed = True
        for key, value in attrs:
            if translate and key in ATTRIBUTES and value and is_message(value):
                value = self._message(value)
                changed = True
            values.append((key, value))
        if not changed:
            return self.get_starttag_text() or ""
        parts = "".join(f" {k}" if v is None else f' {k}="{html.escape(v, quote=True)}"' for k, v in values)
        return f"<{tag}{parts}{' /' if close else ''}>"

    def _emit(self, text: str) -> None:
        if self.whole is not None:
            self.whole.append(text)
        else:
            self.out.append(text)

    # -- the parser's callbacks
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, close=False)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, close=True)

    def _start(self, tag: str, attrs: list[tuple[str, str | None]], close: bool) -> None:
        if self.whole is not None:
            self.whole.append(self.get_starttag_text() or "")
            if tag == self.whole_tag and not close:
                self.whole_depth += 1
            return
        names = dict(attrs)
        translate = not self.keep and names.get("translate") != "no"
        self.out.append(self._tag(tag, attrs, close, translate))
        if close or tag in _VOID:
            return
        if tag in _RAW:
            self.raw += 1
        if names.get("translate") == "no" or self.keep:
            self.keep.append(tag)
        elif "data-i18n" in names:
            self.whole, self.whole_tag, self.whole_depth, self.whole_line = [], tag, 1, self.getpos()[0]

    def handle_endtag(self, tag: str) -> None:
        if self.whole is not None:
            if tag == self.whole_tag:
                self.whole_depth -= 1
                if self.whole_depth == 0:
                    inner = "".join(self.whole)
                    self.whole = None
                    lead, body, trail = re.fullmatch(r"(\s*)(.*?)(\s*)", inner, re.S).groups()  # type: ignore[union-attr]
                    message = _words(body)
                    self.found.append((self.whole_line, message))
                    self.out.append(f"{lead}{self.gettext(message) if message else body}{trail}")
                    self.out.append(f"</{tag}>")
                    return
            self.whole.append(f"</{tag}>")
            return
        if tag in _RAW and self.raw:
            self.raw -= 1
        if self.keep and self.keep[-1] == tag:
            self.keep.pop()
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if self.raw:
            self._emit(data)
            return
        if self.whole is not None:
            self.whole.append(html.escape(data, quote=False))
            return
        if self.keep or not is_message(data):
            self.out.append(html.escape(data, quote=False))
            return
        lead, body, trail = re.fullmatch(r"(\s*)(.*?)(\s*)", data, re.S).groups()  # type: ignore[union-attr]
        self.out.append(f"{lead}{html.escape(self._message(body), quote=False)}{trail}")

    def handle_comment(self, data: str) -> None:
        self._emit(f"<!--{data}-->")

    def handle_decl(self, decl: str) -> None:
        self._emit(f"<!{decl}>")

    def handle_pi(self, data: str) -> None:
        self._emit(f"<?{data}>")


def _walk(page: str, gettext: Callable[[str], str], root: dict[str, str] | None = None) -> _Walker:
    walker = _Walker(gettext, root)
    walker.feed(page)
    walker.close()
    return walker


def messages(page: str) -> list[tuple[int, str]]:
    """Every message of a page, with the line it starts on, in page order."""
    return _walk(page, lambda message: message).found


def translate_html(page: str, gettext: Callable[[str], str], root: dict[str, str] | None = None) -> str:
    """The page with each message replaced by ``gettext(message)`` (an element marked
    ``data-i18n`` gets the translation as HTML) and ``root``'s attributes set on ``<html>``."""
    return "".join(_walk(page, gettext, root).out)


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                 options: dict[str, Any]) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """A Babel extraction method (``ludus.i18n.html:extract_html`` in a method map)."""
    text = fileobj.read().decode(options.get("encoding", "utf-8"))
    for lineno, message in messages(text):
        yield lineno, None, message, []
