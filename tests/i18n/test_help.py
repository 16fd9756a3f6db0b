"""``--help`` and argparse's own errors in Spanish and Persian: every help text of every command
(and of each game's own flags), and argparse's words ("usage:", "options:", its errors) through
the Ludus catalogs (``ludus.cli.argparse_words``)."""

from __future__ import annotations

import argparse
import ast
import inspect
import re

import pytest

from ludus.cli.argparse_words import DEVELOPER_WORDS
from ludus.cli.main import build_parser, main
from ludus.i18n import catalogs, use_language

PERSIAN = re.compile("[\u0600-\u06ff]")
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


def commands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], list[str]]:
    """Every command line that has a help page, with the English help texts it shows."""
    texts = [t for t in (parser.description, parser.epilog) if t]
    out: dict[tuple[str, ...], list[str]] = {prefix: texts}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            texts += [c.help for c in action._choices_actions if c.help]
            for name, sub in action.choices.items():
                out.update(commands(sub, (*prefix, name)))
        elif action.help and action.help != argparse.SUPPRESS and action.dest != "help":
            texts.append(action.help)
    return out


def help_page(monkeypatch, capsys, argv: list[str], environ: dict[str, str]) -> str:
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environ.items():
        monkeypatch.setenv(variable, value)
    monkeypatch.setenv("COLUMNS", "1000")  # one line per help text
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--help"])
    assert stopped.value.code == 0
    return " ".join(capsys.readouterr().out.split())


with use_language("en"):
    PAGES = commands(build_parser())


@pytest.mark.parametrize(("lang", "environ"), [("es", {"LANG": "es_ES.UTF-8"}), ("fa", {})])
def test_every_help_page_reads_in_the_language(monkeypatch, capsys, lang, environ):
    assert len(PAGES) > 10
    for argv, english in PAGES.items():
        line = [*argv, "--lang", "fa"] if lang == "fa" else list(argv)
        page = help_page(monkeypatch, capsys, line, environ)
        left = [text for text in english if " ".join(text.split())[:40] in page]
        assert left == [], (argv, left)
        for word in ("usage:", "options:", "show this help message and exit", "positional arguments"):
            assert word not in page, (argv, word)
        if lang == "fa":
            assert page.startswith("کاربرد: ludus") and PERSIAN.search(page)
        else:
            assert page.startswith("uso: ludus") and "muestra este mensaje de ayuda y sale" in page


def test_english_help_is_argparse_as_it_is(monkeypatch, capsys):
    page = help_page(monkeypatch, capsys, ["play", "gladius"], {"LANG": "C"})
    assert page.startswith("usage: ludus play gladius") and "show this help message and exit" in page
    assert "options:" in page and "your fighter type" in page


@pytest.mark.parametrize(("argv", "words"), [
    (["play", "nope", "--lang", "fa"], "خطا: آرگومان GAME: انتخاب نامعتبر: 'nope'"),
    (["learn", "--lang", "es"], "error: se necesitan los siguientes argumentos: GAME"),
    (["games", "--frobnicate", "--lang", "es"], "argumentos no reconocidos: --frobnicate"),
    (["play", "gladius", "--seed", "--lang", "fa"], "یک آرگومان انتظار می‌رفت"),
])
def test_argparse_errors_read_in_the_language(monkeypatch, capsys, argv, words):
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert words in " ".join(capsys.readouterr().err.split())


def argparse_messages() -> set[str]:
    """The messages this Python's argparse passes to gettext (``_()`` and ``ngettext()`` literals)."""
    found = set()
    for node in ast.walk(ast.parse(inspect.getsource(argparse))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "ngettext"):
            found |= {a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    return found


def test_every_message_argparse_shows_a_person_is_in_the_catalogs():
    """A new Python whose argparse says something new fails here: add it to ARGPARSE_WORDS (or, for a
    parser's own mistake, to DEVELOPER_WORDS) and translate it."""
    shown = argparse_messages() - DEVELOPER_WORDS
    assert {"usage: ", "options", "show this help message and exit"} <= shown
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogs.load("fa") if m.id}
    ids |= {m.id[1] for m in catalogs.load("fa") if m.id and not isinstance(m.id, str)}
    assert shown - ids == set()
