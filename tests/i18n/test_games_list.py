"""``ludus games`` in Spanish and Persian: the headings, every game's summary and every option's
help in the reader's language (option names, defaults and choices stay as they are typed), the
numbers in the language's digits."""

from __future__ import annotations

import re

import pytest

from ludus.cli.main import main
from ludus.games import game_names, get_game
from ludus.i18n import _, use_language

PERSIAN = re.compile("[\u0600-\u06ff]")
ENGLISH_UI = ["┃ option", "default", "allowed", "meaning", " players)", "whole number", "true or false",
              "not printed in the rulebook", "lists them", "number of"]
"""English that must not be left (option names such as ``players`` are typed as they are, so the
words are those of the headings, the kinds and the help)."""


@pytest.mark.parametrize("lang", ["es", "fa"])
def test_every_summary_and_option_help_is_translated(lang: str) -> None:
    with use_language(lang):
        for name in game_names():
            game = get_game(name)
            assert _(game.summary) != game.summary, name
            for info in game.describe_options():
                assert info.help and _(info.help) != info.help, (name, info.name)


@pytest.mark.parametrize("lang", ["es", "fa"])
def test_the_list_of_games_reads_in_the_language(monkeypatch, capsys, lang: str) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["--lang", lang, "games"]) == 0
    out = capsys.readouterr().out
    for name in game_names():
        game = get_game(name)
        assert f"({name}, " in out
        for info in game.describe_options():
            assert info.name.replace("_", "-") in out  # typed as they are
    left = [word for word in ENGLISH_UI if word in out]
    assert not left, left
    if lang == "fa":
        assert "۱ تا ۸ بازیکن" in out and "1" not in out.split("\n")[0]  # Persian digits in the heading
    else:
        assert "1-8 jugadores" in out and "valores no impresos en el reglamento" in out


def test_one_game_in_persian_names_its_unprinted_values(monkeypatch, capsys) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["--lang", "fa", "games", "gorus-arena"]) == 0
    out = capsys.readouterr().out
    assert "مقدارهایی که در دفترچهٔ قوانین چاپ نشده‌اند" in out  # the table's title
    assert "از ما (Ludus)" in out and "چاپ نشده؛ انتخاب Ludus" in out  # a source and its legend
    assert PERSIAN.search(out.split("\n")[1])  # the summary


def test_english_is_the_source_text(monkeypatch, capsys) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    assert main(["games", "gladius"]) == 0
    out = capsys.readouterr().out
    assert "Gladius (gladius, 1-2 players)" in out
    assert "fighter type of seat 1 (what --me picks)" in out and "whole number" not in out  # ranges shown instead
    assert "0 to 99" in out


@pytest.mark.parametrize("lang", ["es", "fa"])
@pytest.mark.parametrize("name", ["gorus-maximus", "circus-maximus", "gorus-arena"])
def test_the_unprinted_values_read_in_the_language(name: str, lang: str) -> None:
    """Each value's subject, value and note as ``ludus games NAME`` lists them: none left in English
    (a name or a number may read the same), Persian ones in Persian script and digits."""
    from ludus.cli.adapters import get_adapter
    from ludus.cli.values import shown_values

    game = get_game(name)
    adapter = get_adapter(name)
    values = shown_values(game)
    assert values
    with use_language(lang):
        for value in values:
            subject, shown, note = adapter.describe_data_value(value)
            assert subject != value.subject and (note != value.note or not note), value
            if re.search("[a-z]{3,}", value.value):
                assert shown != value.value or (lang == "es" and shown in ("Secutor",)), value
            if lang == "fa":
                for text in (subject, shown, note):
                    words = re.sub(r"\b[IVX]+\b", "", text)  # a phase's number as the cards print it (II, III)
                    assert not re.search("[0-9]", words) and not re.search("[a-zA-Z]{2,}", words), (value, text)
                assert PERSIAN.search(subject)


def test_the_unprinted_values_table_is_translated(monkeypatch, capsys) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    assert main(["--lang", "es", "games", "gorus-maximus"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Puntos de Ovación del rango 9 │ +2 │" in out
    assert "Crowd Favour of rank" not in out and "the rulebook" not in out
