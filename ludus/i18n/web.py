"""The browser's side of the translations: which language a request asks for, and the catalog of
the page scripts' strings (the ``web`` gettext domain) as the pages read it.

The browser's strings live in their own domain, ``ludus/locale/<lang>/LC_MESSAGES/web.po``,
extracted from the page scripts (``t()``, ``tn()``, ``tf()``, ``N_()`` calls) and the HTML pages
(:mod:`ludus.i18n.html`) by ``python -m ludus.i18n.catalogs update`` (docs/i18n.md). The server
turns a ``.po`` into the JSON the scripts read (:func:`web_catalog`) when it is first asked for, so
there is no hand-kept JSON copy that could drift from the ``.po``.

A request's language (:func:`choose_language`): the ``ludus_lang`` cookie that the language
switcher sets, when it names a language Ludus speaks; else the browser's ``Accept-Language``
(its preferences in order of their q-values, ``es-MX`` counting as Spanish); else English.
Whatever a client sends, the answer is a language: a bad cookie or header means English.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from io import BytesIO
from typing import Any

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from . import DEFAULT_LANGUAGE, LANGUAGES, normalize_language, text_direction

__all__ = ["COOKIE", "WEB_DOMAIN", "accept_language", "choose_language", "plural_categories", "web_catalog",
           "web_translator"]

WEB_DOMAIN = "web"
COOKIE = "ludus_lang"
"""The cookie the language switcher sets: one of :data:`ludus.i18n.LANGUAGES`, nothing else counts."""

_TAG = re.compile(r"^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$|^\*$")
_MAX_HEADER = 1000


def accept_language(header: str | None) -> str | None:
    """The language Ludus speaks that an ``Accept-Language`` header prefers most, or None.

    Entries are taken by their q-value (highest first, the header's order among equals); one with
    ``q=0`` is refused, ``*`` and anything malformed are passed over."""
    if not header or len(header) > _MAX_HEADER:
        return None
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _sep, rest = part.strip().partition(";")
        tag = tag.strip()
        if not _TAG.match(tag) or tag == "*":
            continue
        quality = 1.0
        for param in rest.split(";"):
            name, _eq, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value.strip())
                except ValueError:
                    quality = -1.0
        if 0 < quality <= 1:
            ranked.append((-quality, position, tag))
    for _q, _p, tag in sorted(ranked):
        lang = normalize_language(tag)
        if lang is not None:
            return lang
    return None


def choose_language(cookie: str | None, header: str | None) -> str:
    """The language of one request: the switcher's cookie when valid, else Accept-Language, else English."""
    if cookie in LANGUAGES:
        return str(cookie)
    return accept_language(header) or DEFAULT_LANGUAGE


def _source(lang: str) -> Any:
    return resources.files("ludus").joinpath("locale", lang, "LC_MESSAGES", f"{WEB_DOMAIN}.po")


@cache
def _read(lang: str) -> Any:
    source = _source(lang)
    if not source.is_file():
        return None
    with source.open("rb") as fp:
        return read_po(fp, locale=lang, domain=WEB_DOMAIN)


@cache
def web_translator(lang: str) -> NullTranslations:
    """The ``web`` catalog of ``lang`` compiled in memory (fuzzy entries left out), for the server's
    own use of the pages' strings (the HTML pages' texts); English: the identity."""
    catalog = None if lang == DEFAULT_LANGUAGE else _read(lang)
    if catalog is None:
        return NullTranslations()
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=WEB_DOMAIN)


def plural_categories(lang: str) -> list[str]:
    """The CLDR plural categories of ``lang`` in the order of the catalog's plural forms (Babel
    numbers the forms in this order, "other" last), so that a script can pick a form with
    ``Intl.PluralRules``."""
    order = ("zero", "one", "two", "few", "many", "other")
    tags = Locale.parse(lang).plural_form.tags
    return [tag for tag in order if tag in tags or tag == "other"]


@cache
def web_catalog(lang: str) -> dict[str, Any]:
    """What the page scripts read: the language, its direction, its plural categories and every
    translated message (``msgid`` → text, or → the list of plural forms, keyed by the singular).
    English has no messages: the msgids are the English text."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    out: dict[str, Any] = {"lang": lang, "dir": text_direction(lang), "plurals": plural_categories(lang),
                           "messages": {}}
    catalog = None if lang == DEFAULT_LANGUAGE else _read(lang)
    for message in catalog or ():
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, (tuple, list)):
            forms = list(message.string)
            if all(forms):
                key = message.id[0] if not message.context else f"{message.context}\x04{message.id[0]}"
                out["messages"][key] = forms
        elif message.string:
            key = message.id if not message.context else f"{message.context}\x04{message.id}"
            out["messages"][key] = message.string
    return out
