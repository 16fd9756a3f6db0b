"""The catalogs keep up with the code: every string a player reads is translated in every language,
and no translation loses or gains a placeholder or a piece of markup (docs/i18n.md)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from babel.messages.plurals import get_plural

from ludus.i18n import LANGUAGES, catalogs, translator

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
BRACES = re.compile(r"\{(\w*)[^{}]*\}")  # str.format fields: {name}, {step:>4}
PERCENT = re.compile(r"%(?:\((\w+)\))?[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrs]")
MARKUP = re.compile(r"\[/?[a-z][a-z ]*\]|\[/\]")  # rich markup: [bold red] … [/]


@pytest.fixture(scope="module")
def template():
    return catalogs.extract()


def test_the_catalogs_match_the_code(template):
    """Fails when a new _() string has no translation (python -m ludus.i18n.catalogs update, then
    translate), when a catalog keeps a string the code lost, or an entry is empty or fuzzy."""
    assert catalogs.problems(template) == []


def test_extraction_finds_the_terminal_strings(template):
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    for expected in ("Round {number}", "Your troupe", "[bold red]Not allowed:[/] {reason}",
                     "you hold a {school} gladiator: follow {school}, or Challenge with a {rank}", "Blue Fists"):
        assert expected in ids
    assert len(ids) > 100


def _pairs(lang):
    catalog = catalogs.load(lang)
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            yield ids, text


def fields(text: str) -> tuple[Counter, Counter, Counter]:
    return Counter(BRACES.findall(text)), Counter(PERCENT.findall(text)), Counter(MARKUP.findall(text))


@pytest.mark.parametrize("lang", OTHERS)
def test_translations_keep_every_placeholder_and_markup(lang):
    wrong = []
    for ids, text in _pairs(lang):
        want = fields(ids[-1])  # the plural msgid has every field the forms may use
        got = fields(text)
        if set(got[0]) != set(want[0]) or set(got[1]) != set(want[1]) or got[2] != want[2]:
            wrong.append(f"{ids[0]!r} -> {text!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", OTHERS)
def test_plural_forms_are_the_languages_own(lang):
    catalog = catalogs.load(lang)
    plural = get_plural(lang)
    assert catalog.num_plurals == plural.num_plurals
    assert catalog.plural_expr == plural.plural_expr
    assert not catalog.fuzzy, "a fuzzy header makes gettext tools ignore the plural forms"
    plurals = [m for m in catalog if m.id and m.pluralizable]
    assert plurals and all(len(m.string) == plural.num_plurals and all(m.string) for m in plurals)


@pytest.mark.parametrize("lang", OTHERS)
def test_every_message_reads_in_the_language(lang):
    """What the compiled catalog gives back is the translation (the .po is read, nothing fuzzy lost)."""
    translations = translator(lang)
    for message in catalogs.load(lang):
        if message.id and not message.pluralizable:
            assert translations.gettext(message.id) == message.string


def _words(text: str) -> str:
    """A message's words: without placeholders (ours and argparse's %-style), markup, command-line
    flags and commands."""
    plain = re.sub(r"%(\(\w+\))?[sdr]", "", BRACES.sub("", MARKUP.sub("", text)))
    return re.sub(r"(--?[\w-]+|ludus\S*|pip install \S+|'[^']*'|NAME=VALUE|\b[a-zA-Z]\b)", "", plain)


def test_persian_text_is_in_persian_script():
    """Every Persian translation of a message with English words is written in Persian script;
    numbers reach it as placeholders (Persian digits by format_number), or, where the English
    text itself holds a number (an option's help: "0 means..."), written in Persian digits: a
    Latin digit only inside a value typed as it is (``2v2v1``, ``-1``), copied from the msgid.
    No Persian digit in a msgid."""
    for ids, text in _pairs("fa"):
        assert not re.search("[۰-۹]", " ".join(ids)), ids
        words = _words(text)
        if not re.search("[0-9]", ids[-1]):
            assert not re.search("[۰-۹]", words), (ids[0], text)
        typed = set(re.findall(r"[-\w,]*[0-9][-\w,]*", ids[-1]))
        assert set(re.findall(r"[-\w,]*[0-9][-\w,]*", words)) <= typed, (ids[0], text)
        if re.search("[a-zA-Z]{2,}", _words(ids[0])):
            assert re.search("[\u0600-\u06ff]", text), (ids[0], text)


SAME_IN_SPANISH = {"Gorus Maximus", "[bold red]Error:[/] {message}", "; ", ", ",
                   "Gladius", "Gorus Arena", "Secutor", "Postulati",  # Latin names: titles, Gladius fighter types
                   "Livia",  # a tutorial's seat
                   "%(prog)s: error: %(message)s\n"}  # argparse's, where Spanish says "error" too


def test_spanish_text_is_translated_not_copied():
    copied = [ids[0] for ids, text in _pairs("es") if text == ids[0] and ids[0] not in SAME_IN_SPANISH
              and re.search("[a-zA-Z]{2,}", _words(ids[0]))]
    assert not copied
