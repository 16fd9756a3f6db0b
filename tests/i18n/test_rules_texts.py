"""``ludus rules GAME`` in Spanish and Persian: the translated rules use the glossary's words,
list the same unprinted values as the data, and a game without a translation falls back to English."""

from __future__ import annotations

import re

import pytest

from ludus.cli.main import main
from ludus.cli.values import shown_values
from ludus.games import get_game, how_to_play, translated_how_to_play
from ludus.i18n import format_number

from .test_glossary import english_term, forms, glossary

LANGS = ("es", "fa")
TRANSLATED = ("gorus-maximus", "gladius", "circus-maximus", "gorus-arena")
"""The games whose rules text is translated (into every language of LANGS)."""


def sections(markdown: str) -> int:
    return len(re.findall(r"^## ", markdown, flags=re.M))


def values_rows(markdown: str) -> list[list[str]]:
    """The cells of the rows of the last section's table (the unprinted values), header left out."""
    last = markdown[markdown.rindex("\n## "):]
    rows = [line for line in last.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows[2:]]


@pytest.mark.parametrize("game", TRANSLATED)
@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_text_uses_the_glossary(lang, game):
    english = how_to_play(game)
    text = translated_how_to_play(game, lang)
    assert text is not None
    missing = []
    for term in glossary(lang, game.replace("-", "_"))["term"]:
        if term.get("kind") == "ui" or not term.get("check", True):
            continue
        if english_term(term["en"]).search(english) and not any(f.lower() in text.lower() for f in forms(term, lang)):
            missing.append(term["en"])
    assert missing == []


@pytest.mark.parametrize("game", [g for g in TRANSLATED if g != "gorus-maximus"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_text_lists_the_unprinted_values_of_the_data(lang, game):
    """The translation's last section has the same sections as the English text plus its own list
    of the values the rulebook does not print: one row per value, in the data's order, with the
    value itself (its numbers in the language's digits); or no table when there is none."""
    english = how_to_play(game)
    text = translated_how_to_play(game, lang)
    assert text is not None
    assert sections(text) == sections(english) + 1
    values = shown_values(get_game(game))
    rows = values_rows(text)
    assert len(rows) == len(values)
    for row, value in zip(rows, values, strict=True):
        if re.fullmatch(r"[+-]?\d+", value.value):
            assert row[1] == format_number(int(value.value), lang), (row, value)
        else:
            assert row[1] and (lang == "es" or not re.search("[a-zA-Z]", row[1])), (row, value)
        assert all(row), row


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_text_has_the_same_sections_and_unprinted_values(lang):
    english = how_to_play("gorus-maximus")
    text = translated_how_to_play("gorus-maximus", lang)
    assert text is not None
    assert sections(text) == sections(english) + 1  # + the values the rulebook does not print
    assert text.count("\n|") >= english.count("\n|")
    rows = [line for line in text.splitlines() if line.startswith("|")]
    for value in shown_values(get_game("gorus-maximus")):
        rank = int(value.subject.rsplit(" ", 1)[1])
        number = format_number(abs(int(value.value)), lang)
        sign = value.value[0] if value.value[0] in "+-" else ""
        shown = f"{sign}{number}"
        assert any(re.search(rf"(?<![\d۰-۹]){format_number(rank, lang)} \| {re.escape(shown)} \|", row)
                   for row in rows), (value, lang)


def test_ludus_rules_in_each_language(monkeypatch, capsys):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert main(["rules", "gorus-maximus", "--plain"]) == 0
    spanish = capsys.readouterr().out
    assert spanish.startswith("# Gorus Maximus: cómo se juega") and "Escuela Favorita" in spanish
    assert "Values not printed" not in spanish and "Valores que el reglamento no imprime" in spanish
    assert main(["rules", "gorus-maximus", "--lang", "fa"]) == 0
    persian = capsys.readouterr().out
    assert "مکتب برگزیده" in persian and "how to play" not in persian
    # a game with no translation in the language in use: its English rules, with the English list of values
    from ludus.core.plugin import GamePlugin

    monkeypatch.setattr(GamePlugin, "translated_how_to_play_text", lambda self, lang: None)
    assert main(["rules", "gladius", "--plain"]) == 0
    fallback = capsys.readouterr().out
    assert "Values not printed in the rulebook" in fallback and "Gladius: how to play" in fallback
