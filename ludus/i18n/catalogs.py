"""Extracting the strings to translate and keeping the catalogs up to date with the code.

``python -m ludus.i18n.catalogs update`` extracts every ``_()``, ``ngettext()`` and ``N_()``
string of the ``ludus`` package (as ``pybabel extract -F babel.cfg`` does) and merges it into
each language's ``.po``: new strings come in untranslated, strings gone from the code leave.
``python -m ludus.i18n.catalogs check`` says what is missing (exit status 1), as the catalog
tests do (``tests/i18n``). See docs/i18n.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from . import DEFAULT_LANGUAGE, DOMAIN, LANGUAGES

__all__ = ["COMMENT_TAGS", "PACKAGE", "extract", "load", "po_path", "problems", "save", "update"]

PACKAGE = Path(__file__).resolve().parent.parent
"""The ``ludus`` package directory, whose Python files are scanned."""
COMMENT_TAGS = ("TRANSLATORS:",)
"""A comment starting so, just above a wrapped string, goes to the translators with it."""
PROJECT = "Ludus"
KEYWORDS = {**DEFAULT_KEYWORDS, "option": (2,)}
"""Babel's keywords (``_``, ``N_``, ``ngettext``...) and a game option's declaration, whose second
argument is its help text (``ludus.core.options.option``): every option's help is a message."""


def po_path(lang: str) -> Path:
    return PACKAGE / "locale" / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract() -> Catalog:
    """A template of every string to translate in the package, as extracted now."""
    template = Catalog(project=PROJECT, domain=DOMAIN, charset="utf-8")
    found = extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=COMMENT_TAGS,
        strip_comment_tags=True, directory_filter=lambda path: "__pycache__" not in Path(path).parts)
    for filename, _lineno, message, comments, context in found:
        # the file without a line number, so that a catalog changes only when its strings do
        template.add(message, locations=[(f"ludus/{Path(filename).as_posix()}", 0)],
                     auto_comments=comments, context=context)
    return template


def load(lang: str) -> Catalog:
    with po_path(lang).open("rb") as fp:
        return read_po(fp, locale=lang, domain=DOMAIN)


def save(catalog: Catalog, lang: str) -> None:
    path = po_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fp:
        write_po(fp, catalog, sort_output=True, ignore_obsolete=True, include_lineno=False)


def update(template: Catalog | None = None) -> None:
    """Merge the extracted strings into every catalog (new ones empty, old ones dropped)."""
    template = template or extract()
    for lang in LANGUAGES:
        if lang == DEFAULT_LANGUAGE:
            continue
        if po_path(lang).exists():
            catalog = load(lang)
            catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        else:
            catalog = Catalog(locale=lang, project=PROJECT, domain=DOMAIN, charset="utf-8")
            catalog.update(template, no_fuzzy_matching=True)
        save(catalog, lang)


def _key(message_id: str | tuple[str, ...] | list[str]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def problems(template: Catalog | None = None) -> list[str]:
    """Every way the catalogs fall short of the code: a string missing from a catalog, one left
    there that the code no longer has, an empty or fuzzy translation, a missing plural form."""
    template = template or extract()
    wanted = {(_key(m.id), m.context) for m in template if m.id}
    out = []
    for lang in LANGUAGES:
        if lang == DEFAULT_LANGUAGE:
            continue
        catalog = load(lang)
        have = {(_key(m.id), m.context): m for m in catalog if m.id}
        out += [f"{lang}: not in the catalog: {k!r}" for k, _c in sorted(wanted - have.keys(), key=str)]
        out += [f"{lang}: no longer in the code: {k!r}" for k, _c in sorted(have.keys() - wanted, key=str)]
        for (key, _context), message in sorted(have.items(), key=str):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy:
                out.append(f"{lang}: fuzzy: {key!r}")
            if not all(strings):
                out.append(f"{lang}: untranslated: {key!r}")
            if message.pluralizable and len(strings) != catalog.num_plurals:
                out.append(f"{lang}: {len(strings)} plural forms, not {catalog.num_plurals}: {key!r}")
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
