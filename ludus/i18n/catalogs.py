"""Extracting the strings to translate and keeping the catalogs up to date with the code.

Two gettext domains: ``ludus`` (the terminal and everything in Python: ``_()``, ``ngettext()``
and ``N_()`` strings of the ``ludus`` package) and ``web`` (the browser: ``t()``, ``tn()``,
``tf()`` and ``N_()`` strings of the page scripts, ``ludus/web/static/**.js`` and each game's
``page.js``, and the texts of the HTML pages, :mod:`ludus.i18n.html`).

``python -m ludus.i18n.catalogs update`` extracts each domain's strings (as ``pybabel extract``
does) and merges them into each language's ``.po``: new strings come in untranslated, strings
gone from the code leave. ``python -m ludus.i18n.catalogs check`` says what is missing (exit
status 1), as the catalog tests do (``tests/i18n``). See docs/i18n.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from . import DEFAULT_LANGUAGE, DOMAIN, LANGUAGES

__all__ = ["COMMENT_TAGS", "DOMAINS", "PACKAGE", "WEB_DOMAIN", "WEB_KEYWORDS", "extract", "load", "po_path",
           "problems", "save", "update"]

PACKAGE = Path(__file__).resolve().parent.parent
"""The ``ludus`` package directory, whose Python files are scanned."""
COMMENT_TAGS = ("TRANSLATORS:",)
"""A comment starting so, just above a wrapped string, goes to the translators with it."""
PROJECT = "Ludus"
KEYWORDS = {**DEFAULT_KEYWORDS, "option": (2,)}
"""Babel's keywords (``_``, ``N_``, ``ngettext``...) and a game option's declaration, whose second
argument is its help text (``ludus.core.options.option``): every option's help is a message."""
WEB_DOMAIN = "web"
WEB_KEYWORDS: dict[str, tuple[int, ...] | None] = {"t": None, "tf": None, "tn": (1, 2), "tnf": (1, 2), "N_": None}
"""The page scripts' functions (``ludus/web/static/i18n.js``): ``t(msgid, params)``,
``tf(msgid, params)`` (a message with DOM nodes in it), ``tn(singular, plural, n, params)`` and
the marker ``N_(msgid)``."""
DOMAINS = (DOMAIN, WEB_DOMAIN)
"""Every domain, in the order ``update`` and ``check`` treat them."""
_METHODS = {
    DOMAIN: [("**.py", "python"), ("games/*/data/tutorial.toml", "ludus.i18n.data:extract_tutorial"),
             ("games/*/data/crowd_favour.toml", "ludus.i18n.data:extract_notes")],
    WEB_DOMAIN: [("web/static/**.js", "javascript"), ("web/static/**.html", "ludus.i18n.html:extract_html"),
                 ("games/*/page.js", "javascript")],
}


def po_path(lang: str, domain: str = DOMAIN) -> Path:
    return PACKAGE / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"


def extract(domain: str = DOMAIN) -> Catalog:
    """A template of every string to translate in the package (in ``domain``), as extracted now."""
    template = Catalog(project=PROJECT, domain=domain, charset="utf-8")
    found = extract_from_dir(
        str(PACKAGE), method_map=_METHODS[domain], keywords=KEYWORDS if domain == DOMAIN else WEB_KEYWORDS,
        comment_tags=COMMENT_TAGS, strip_comment_tags=True,
        options_map={"**.js": {"jsx": False}},  # "a < b" is no JSX tag
        directory_filter=lambda path: "__pycache__" not in Path(path).parts)
    for filename, _lineno, message, comments, context in found:
        # the file without a line number, so that a catalog changes only when its strings do
        template.add(message, locations=[(f"ludus/{Path(filename).as_posix()}", 0)],
                     auto_comments=comments, context=context)
    return template


def load(lang: str, domain: str = DOMAIN) -> Catalog:
    with po_path(lang, domain).open("rb") as fp:
        return read_po(fp, locale=lang, domain=domain)


def save(catalog: Catalog, lang: str, domain: str = DOMAIN) -> None:
    path = po_path(lang, domain)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fp:
        write_po(fp, catalog, sort_output=True, ignore_obsolete=True, include_lineno=False)


def update(template: Catalog | None = None, domain: str | None = None) -> None:
    """Merge the extracted strings into every catalog (new ones empty, old ones dropped): those of
    ``domain``, or of every domain (``template``, when given, is the ``ludus`` one's, or ``domain``'s)."""
    for name in [domain] if domain else ([DOMAIN] if template is not None else list(DOMAINS)):
        wanted = template if template is not None else extract(name)
        for lang in LANGUAGES:
            if lang == DEFAULT_LANGUAGE:
                continue
            if po_path(lang, name).exists():
                catalog = load(lang, name)
                catalog.update(wanted, no_fuzzy_matching=True, update_creation_date=False)
            else:
                catalog = Catalog(locale=lang, project=PROJECT, domain=name, charset="utf-8")
                catalog.update(wanted, no_fuzzy_matching=True)
            save(catalog, lang, name)


def _key(message_id: str | tuple[str, ...] | list[str]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def problems(template: Catalog | None = None, domain: str | None = None) -> list[str]:
    """Every way the catalogs fall short of the code: a string missing from a catalog, one left
    there that the code no longer has, an empty or fuzzy translation, a missing plural form.
    Those of ``domain``, or of every domain when neither it nor ``template`` (the ``ludus``
    domain's, or ``domain``'s) is given; a ``web`` problem is marked ``(web)``."""
    names = [domain] if domain else ([DOMAIN] if template is not None else list(DOMAINS))
    out = []
    for name in names:
        wanted_catalog = template if template is not None else extract(name)
        wanted = {(_key(m.id), m.context) for m in wanted_catalog if m.id}
        for lang in LANGUAGES:
            if lang == DEFAULT_LANGUAGE:
                continue
            where = lang if name == DOMAIN else f"{lang} ({name})"
            if not po_path(lang, name).exists():
                out.append(f"{where}: no catalog at {po_path(lang, name)}")
                continue
            catalog = load(lang, name)
            have = {(_key(m.id), m.context): m for m in catalog if m.id}
            out += [f"{where}: not in the catalog: {k!r}" for k, _c in sorted(wanted - have.keys(), key=str)]
            out += [f"{where}: no longer in the code: {k!r}" for k, _c in sorted(have.keys() - wanted, key=str)]
            for (key, _context), message in sorted(have.items(), key=str):
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                if message.fuzzy:
                    out.append(f"{where}: fuzzy: {key!r}")
                if not all(strings):
                    out.append(f"{where}: untranslated: {key!r}")
                if message.pluralizable and len(strings) != catalog.num_plurals:
                    out.append(f"{where}: {len(strings)} plural forms, not {catalog.num_plurals}: {key!r}")
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["update"]:
        update()
        return 0
    if args == ["check"]:
        found = problems()
        print("\n".join(found) or "every catalog is complete")
        return 1 if found else 0
    print("usage: python -m ludus.i18n.catalogs update|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
