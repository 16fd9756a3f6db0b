"""``ludus rules gorus-maximus`` in Spanish and Persian: the translated rules use the glossary's
words, list the same unprinted values as the data, and other games fall back to English."""

from __future__ import annotations

import re

import pytest

from ludus.cli.main import main
from ludus.cli.values import shown_values
from ludus.games import get_game, how_to_play, translated_how_to_play
from ludus.i18n import format_number

from .test_glossary import english_term, forms, glossary

LANGS = ("es", "fa")


def sections(markdown: str) -> int:
    return len(re.findall(r"^## ", markdown, flags=re.M))


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_text_uses_the_glossary(lang):
    english = how_to_play("gorus-maximus")
    text = translated_how_to_play("gorus-maximus", lang)
    assert text is not None
    missing = []
    for term in glossary(lang)["term"]:
        if term.get("kind") == "ui" or not term.get("check", True):
            continue
        if english_term(term["en"]).search(english) and not any(f.lower() in text.lower() for f in forms(term, lang)):
            missing.append(term["en"])
    assert missing == []


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
    # a game with no translation yet: its English rules, with the English list of values
    assert main(["rules", "gladius", "--plain"]) == 0
    assert "Values not printed in the rulebook" in capsys.readouterr().out
