"""The engine's option checks and ``ludus analyze-game`` in Spanish and Persian: an option error
keeps its English text for records, logs and the server (``str()``), and the terminal writes it
from its template (``ludus.core.errors.Message``) in the reader's language."""

from __future__ import annotations

import json
import re

import pytest
from rich.console import Console

from ludus.cli.analyze_game import show_review
from ludus.cli.main import error_text, main
from ludus.core import records
from ludus.core.errors import InvalidOptions, Message, RecordError
from ludus.games import get_game
from ludus.i18n import use_language

PERSIAN = re.compile("[\u0600-\u06ff]")
LATIN_DIGIT = re.compile(r"(?<![\w.-])[0-9]+(?![\w.-])")
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")

BAD_OPTIONS = [
    ("gorus-maximus", {"players": 9}, "Gorus Maximus is for 1 to 8 players, not 9"),
    ("gorus-maximus", {"players": 4, "teams": "2v1"}, "teams '2v1' add up to 3 players, but the game has 4"),
    ("gorus-maximus", {"players": 4, "teams": "AABB"}, "teammates must sit in alternating order"),
    ("gorus-maximus", {"players": 4, "teams": "2v2", "target": 5}, "so give team-target=5 instead of target"),
    ("gorus-maximus", {"schools": "BF,XX"}, "unknown school code 'XX'"),
    ("gorus-maximus", {"players": 3, "first_dealer": 5}, "first-dealer must be a seat from 0 to 2"),
    ("circus-maximus", {"players": "many"}, "option 'players' must be a whole number, not 'many'"),
    ("circus-maximus", {"start_card": "later"}, "option 'start-card' must be one of"),
    ("circus-maximus", {"colour": 1}, "unknown option 'colour'; known options:"),
    ("gladius", {"starting_hand": 9}, "starting-hand (9) cannot exceed hand-limit (5)"),
    ("gorus-arena", {"players": 3, "first_player": 5}, "first-player must be a seat from 1 to 3 in a 3-player game"),
    ("gorus-arena", {"players": 9}, "option 'players' must be at most"),
]


@pytest.mark.parametrize(("game", "options", "english"), BAD_OPTIONS)
def test_an_option_error_is_english_text_with_a_template(game, options, english):
    with pytest.raises(InvalidOptions) as caught:
        get_game(game).parse_options(options)
    assert english in str(caught.value)  # what the server, records and logs keep
    assert caught.value.message_template and error_text(caught.value) == str(caught.value)  # English: the same
    with use_language("es"):
        spanish = error_text(caught.value)
    with use_language("fa"):
        persian = error_text(caught.value)
    assert spanish != str(caught.value)
    assert PERSIAN.search(persian) and not LATIN_DIGIT.search(re.sub(r"'[^']*'|team-target=\d+|\w+-\w+", "", persian))


def test_a_message_pickles_with_its_template():
    import pickle

    error = pickle.loads(pickle.dumps(InvalidOptions(Message("a {x} b", x=3))))
    assert str(error) == "a 3 b" and error.message_template == "a {x} b" and error.message_params == {"x": 3}


@pytest.mark.parametrize(("argv", "environ", "words"), [
    (["play", "gorus-maximus", "-o", "players=9", "--lang", "fa"], {}, "گوروس ماکسیموس برای ۱ تا ۸ بازیکن است"),
    (["play", "circus-maximus", "-o", "nope=1"], {"LANG": "es_ES.UTF-8"}, "opción desconocida 'nope'"),
])
def test_the_terminal_says_an_option_error_in_the_language(monkeypatch, capsys, argv, environ, words):
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environ.items():
        monkeypatch.setenv(variable, value)
    monkeypatch.setenv("COLUMNS", "250")
    assert main(argv) == 2
    assert words in capsys.readouterr().out


def test_a_malformed_record_is_refused_in_the_language(monkeypatch, capsys, tmp_path):
    """``ludus replay`` of a broken record: the record's problem in the reader's language, a number in
    it in the language's digits, and an option error inside a record's error said in it too."""
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("COLUMNS", "250")
    good = {"format": "ludus-record", "version": 1, "game": "gorus-maximus", "options": {"players": 2}, "seed": 3,
            "actions": []}
    cases = [({**good, "version": 7}, "es", "versión de registro no admitida 7; este programa lee 1"),
             ({**good, "actions": [[0, "x", 1]]}, "fa", "اقدام ۱ باید [seat, action]"),
             ({**good, "options": {"players": 9}}, "es",
              "las opciones del registro no son válidas: Gorus Maximus es para 1 a 8 jugadores, no 9")]
    for i, (record, lang, words) in enumerate(cases):
        path = tmp_path / f"bad{i}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        assert main(["replay", str(path), "--lang", lang]) != 0
        said = capsys.readouterr().out
        assert words in said, said
    with pytest.raises(RecordError) as caught:  # the English text, for logs and programs, is unchanged
        records.replay(records.loads(json.dumps({**good, "actions": [[0, "x", 1]]})), get_game)
    assert str(caught.value) == "action 1 must be [seat, action]"


REVIEW = {
    "decisions": [{"ply": 3, "played": "Blue 4", "best": "Blue 10", "played_value": 0.25, "best_value": 0.5,
                   "drop": 0.25, "std_error": 0.05, "mark": "blunder"},
                  {"ply": 5, "played": "Green 4", "best": "Green 4", "played_value": 0.5, "best_value": 0.5,
                   "drop": 0.0, "std_error": 0.05, "mark": "best"}],
    "curve": [[3, 0.25], [5, 0.5]], "seconds": 3.25, "not_analysed": [7, 9],
    "totals": {"analysed": 2, "forced": 1, "best": 1, "fine": 0, "inaccuracy": 0, "mistake": 0, "blunder": 1},
}
ENGLISH = ["Marked decisions", "played", "win chance", "drop", "blunder", "Analysed", "decision", "forced",
           "inaccuracies", "mistakes", "time limit", "moves", "Win chance", "rollouts", "standard errors"]


@pytest.mark.parametrize("lang", ["es", "fa"])
def test_a_review_reads_in_the_language(lang):
    console = Console(width=250, record=True, color_system=None)
    with use_language(lang):
        show_review(REVIEW, console)
    out = console.export_text()
    assert [w for w in ENGLISH if re.search(rf"\b{w}\b", out)] == []  # the moves' labels are the engine's
    if lang == "fa":
        assert "۲۵٪" in out and not LATIN_DIGIT.search(out.replace("Blue 4", "").replace("Blue 10", "")
                                                         .replace("Green 4", ""))
    else:
        assert "Decisiones marcadas" in out and "error grave" in out and "25 %" in out
