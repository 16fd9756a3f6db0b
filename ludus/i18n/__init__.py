"""Translations of what a person reads: English (the source), Spanish and Persian.

The lowest layer of Ludus (below ``core``): it imports only the standard library and Babel,
so every layer may use it. Strings a player reads are written in English in the code and
wrapped in :func:`_` (or :func:`ngettext` for counts, :func:`N_` for a constant translated
later); ``python -m ludus.i18n.catalogs update`` extracts them into the gettext catalogs
``ludus/locale/<lang>/LC_MESSAGES/ludus.po`` (docs/i18n.md).

The catalogs are read at run time from the ``.po`` files (Babel's ``read_po``), compiled in
memory once per language and cached: no ``.mo`` file is kept in the tree, so a catalog cannot
drift from a compiled copy of it. English needs no catalog: the msgids are the English text,
so English output is exactly the source strings.

The language in use is a context variable (:func:`set_language`, :func:`use_language`): the
terminal sets it once from ``--lang`` or the environment (:func:`pick_language`); a server can
set it per request. Nothing language-dependent goes into records, logs or the protocol: they
hold codes and parameters, and each reader's client renders them (see
:class:`ludus.core.errors.Refusal`).
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources
from io import BytesIO
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

__all__ = [
    "DEFAULT_LANGUAGE", "DOMAIN", "LANGUAGES", "N_", "_", "format_number", "get_language", "gettext", "join_and",
    "language_name", "ngettext", "normalize_language", "pick_language", "reset_language", "set_language",
    "text_direction", "translator", "use_language",
]

DOMAIN = "ludus"
DEFAULT_LANGUAGE = "en"
LANGUAGES = ("en", "es", "fa")
"""Every language Ludus speaks; English is the source language (no catalog)."""

ENV_ORDER = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The environment variables a terminal's language comes from, strongest first (POSIX)."""

_DIGITS = {"arabext": "۰۱۲۳۴۵۶۷۸۹", "arab": "٠١٢٣٤٥٦٧٨٩"}
"""The digits of the numbering systems our languages use by default (CLDR); Latin digits otherwise."""

_current: contextvars.ContextVar[str] = contextvars.ContextVar("ludus_language", default=DEFAULT_LANGUAGE)


def normalize_language(value: str | None) -> str | None:
    """The Ludus language a locale name names (``es_ES.UTF-8`` → ``es``, ``fa-IR`` → ``fa``,
    ``C``/``POSIX`` → ``en``), or None when it names none Ludus speaks."""
    if value is None:
        return None
    text = value.strip()
    if text in ("C", "POSIX") or text.startswith("C."):
        return DEFAULT_LANGUAGE
    code = re.split(r"[_.@-]", text, maxsplit=1)[0].lower()
    return code if code in LANGUAGES else None


def pick_language(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``--lang`` when given, else the first of LC_ALL, LC_MESSAGES and
    LANG that is set (not empty), else English. A value naming a language Ludus does not speak
    gives English: the variable that is set decides, as POSIX has it, even if it says nothing
    we can use."""
    if explicit:
        return normalize_language(explicit) or DEFAULT_LANGUAGE
    env = environ if environ is not None else {}
    for name in ENV_ORDER:
        value = env.get(name)
        if value:
            return normalize_language(value) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def _check(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; Ludus speaks {', '.join(LANGUAGES)}")
    return lang


@cache
def translator(lang: str) -> NullTranslations:
    """The compiled catalog of ``lang`` (read from its ``.po`` once, then cached); English: the
    identity (a :class:`~babel.support.NullTranslations`, with English plural rules)."""
    if _check(lang) == DEFAULT_LANGUAGE:
        return NullTranslations()
    source = resources.files("ludus").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")
    with source.open("rb") as fp:
        catalog = read_po(fp, locale=lang, domain=DOMAIN)
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)  # a fuzzy entry is a guess, not a translation
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def set_language(lang: str) -> contextvars.Token[str]:
    """Speak ``lang`` from now on (in this context); returns the token to undo it."""
    return _current.set(_check(lang))


def reset_language(token: contextvars.Token[str]) -> None:
    """Undo the :func:`set_language` that gave ``token``."""
    _current.reset(token)


def get_language() -> str:
    return _current.get()


@contextlib.contextmanager
def use_language(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the ``with`` block only."""
    token = set_language(lang)
    try:
        yield lang
    finally:
        _current.reset(token)


def format_number(value: int | float, lang: str | None = None) -> str:
    """A number as ``lang`` writes it: Persian digits (۱۲۳) and separators in Persian; as Python
    writes it in English (no grouping: seeds and counts stay as typed). Never grouped."""
    lang = lang or get_language()
    if lang == DEFAULT_LANGUAGE or isinstance(value, bool):
        return str(value)
    text = format_decimal(value, locale=lang, group_separator=False, numbering_system="default")
    digits = _DIGITS.get(Locale.parse(lang).default_numbering_system or "latn")
    return text.translate(str.maketrans("0123456789", digits)) if digits else text


def _format(text: str, params: dict[str, Any]) -> str:
    if not params:
        return text
    lang = get_language()
    return text.format(**{k: _param(v, lang) for k, v in params.items()})


def _param(value: Any, lang: str) -> Any:
    """A parameter as the language writes it: a number in its digits; a message inside a message
    (a :class:`ludus.core.errors.Message`, known here by its ``template`` and ``params``, such as a
    game's title) translated in turn."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return format_number(value, lang)
    template, params = getattr(value, "template", None), getattr(value, "params", None)
    if isinstance(value, str) and isinstance(template, str) and isinstance(params, dict):
        return gettext(template, **params)
    return value


def gettext(message: str, /, **params: Any) -> str:
    """``message`` in the language in use; with keyword parameters, ``{name}`` placeholders are
    then filled in (numbers written as the language writes them)."""
    return _format(translator(get_language()).gettext(message), params)


_ = gettext


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form of a message for the count ``n``, by the language's plural rules (Babel's):
    Spanish has one/many/other, Persian one/other. ``n`` is not filled in by itself: pass it
    as a parameter (``count=n``) to show it."""
    return _format(translator(get_language()).ngettext(singular, plural, n), params)


def N_(message: str) -> str:
    """Marks a constant for extraction without translating it (translate it where it is shown)."""
    return message


def join_and(items: list[str], lang: str | None = None) -> str:
    """Names joined as one list ("A and B"): in English with " and " between each (as Ludus has
    always written them), in other languages by the language's own list pattern (Babel's)."""
    lang = lang or get_language()
    if lang == DEFAULT_LANGUAGE or len(items) < 2:
        return " and ".join(items)
    return format_list(items, locale=lang)


def text_direction(lang: str | None = None) -> str:
    """``"rtl"`` for a language written right to left (Persian), else ``"ltr"``."""
    return Locale.parse(lang or get_language()).text_direction


def language_name(lang: str) -> str:
    """The language's own name for itself (English, español, فارسی)."""
    return Locale.parse(_check(lang)).get_display_name(lang) or lang
