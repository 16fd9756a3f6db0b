"""The pages in the reader's language: each HTML page translated on the server before it is sent.

A page comes out with ``<html lang dir>`` set, its static texts translated (:mod:`ludus.i18n.html`
decides what a text is, for the extractor and for this), the language switcher in its header, and,
for a language other than English, the page scripts' catalog as a JSON data block
(``<script type="application/json" id="ludus-i18n">``: data, never run, so the strict CSP allows
it); ``ludus/web/static/i18n.js`` reads it. Each (page, language) is rendered once per process.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from starlette.requests import HTTPConnection

from ..i18n import DEFAULT_LANGUAGE, LANGUAGES, text_direction
from ..i18n.html import translate_html
from ..i18n.web import COOKIE, choose_language, web_catalog, web_translator

__all__ = ["SWITCHER", "catalog_json", "page_html", "request_language"]

STATIC = resources.files("ludus.web.static")
SWITCHER = "lang-switch.html"
"""The language switcher's markup (a fragment, translated like a page), put at the end of each
page's header: a link per language to ``/lang/<code>``, which sets the cookie and comes back."""


def request_language(request: HTTPConnection) -> str:
    """The language of an HTTP request or a WebSocket's handshake (cookie, Accept-Language, English)."""
    return choose_language(request.cookies.get(COOKIE), request.headers.get("accept-language"))


@cache
def catalog_json(lang: str) -> str:
    """The scripts' catalog of ``lang`` as JSON text, safe inside a ``<script>`` data block."""
    text = json.dumps(web_catalog(lang), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("<", "\\u003c")  # no "</script>" can end the block early


@cache
def _switcher(lang: str) -> str:
    text = translate_html(STATIC.joinpath(SWITCHER).read_text(encoding="utf-8"), web_translator(lang).gettext)
    return text.strip().replace(f'href="/lang/{lang}"', f'href="/lang/{lang}" aria-current="true"')


@cache
def page_html(name: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The page ``name`` (a file of ``ludus/web/static``) in ``lang``."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    source = STATIC.joinpath(name).read_text(encoding="utf-8")
    gettext = web_translator(lang).gettext
    text = translate_html(source, gettext, root={"lang": lang, "dir": text_direction(lang)})
    text = text.replace("</header>", f"{_switcher(lang)}</header>", 1)
    if lang != DEFAULT_LANGUAGE:  # English needs no catalog: the msgids are the English text
        block = f'<script type="application/json" id="ludus-i18n">{catalog_json(lang)}</script>\n'
        text = text.replace("</head>", f"{block}</head>", 1)
    return text
