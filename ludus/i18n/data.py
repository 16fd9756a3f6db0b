"""Texts of the games' data files that a person reads, as gettext messages.

A tutorial script (``ludus/games/<game>/data/tutorial.toml``, :mod:`ludus.core.tutorial`) is
written in English, once, with its moves; its texts are translated through the ``ludus``
catalogs like every other string, one paragraph a message (and each seat's name, which the
terminal shows through :func:`ludus.cli.play.display_name`). :func:`extract_tutorial` is the
Babel extractor that :mod:`ludus.i18n.catalogs` (and ``pybabel extract -F babel.cfg``) runs over
those files, so a new or changed paragraph enters the catalogs on ``update`` and ``catalogs
check`` fails until it is translated. :func:`paragraphs` splits a text as both the extractor and
the terminal do; :func:`translate_text` gives a text in the language in use.

A data table's notes on the values a rulebook does not print (the ``[note]`` table of Gorus
Maximus's ``crowd_favour.toml``, shown by ``ludus games NAME``) are messages the same way:
:func:`extract_notes`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from typing import IO, Any

from . import gettext

__all__ = ["TUTORIAL_TEXTS", "extract_notes", "extract_tutorial", "paragraphs", "translate_text"]

TUTORIAL_TEXTS = ("title", "intro", "outro")
"""The texts of a tutorial script as a whole; each step's are :data:`STEP_TEXTS`."""
STEP_TEXTS = ("say", "other", "wrong_say", "after")


def paragraphs(text: str) -> list[str]:
    """A text's paragraphs (blank lines between them), each stripped; none for an empty text."""
    return [p.strip() for p in text.strip().split("\n\n") if p.strip()]


def translate_text(text: str) -> str:
    """A text of a data file in the language in use: each paragraph through the catalog (as
    written when the catalog lacks it), joined by blank lines."""
    return "\n\n".join(gettext(p) for p in paragraphs(text))


def _line_of(source: str, paragraph: str) -> int:
    first = paragraph.split()[0] if paragraph.split() else paragraph
    at = source.find(first)
    return source.count("\n", 0, at) + 1 if at >= 0 else 1


def extract_tutorial(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
                     ) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extractor interface: every paragraph of a tutorial script's texts, a message each."""
    source = fileobj.read().decode("utf-8")
    data = tomllib.loads(source)
    texts = [data.get(name, "") for name in TUTORIAL_TEXTS]
    texts += [name for name in data.get("names", []) if name != "You"]  # the seats' names ("You" is the learner)
    for step in data.get("steps", []):
        texts += [step.get(name, "") for name in STEP_TEXTS]
    for text in texts:
        if isinstance(text, str):
            for paragraph in paragraphs(text):
                yield _line_of(source, paragraph), None, paragraph, []


def extract_notes(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
                  ) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extractor interface: every text of a data file's ``[note]`` table, a message each."""
    source = fileobj.read().decode("utf-8")
    notes = tomllib.loads(source).get("note", {})
    for text in notes.values():
        if isinstance(text, str) and text.strip():
            yield _line_of(source, text), None, text, []
