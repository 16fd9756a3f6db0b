"""``ludus learn GAME`` in Spanish and Persian: every tutorial followed to its end, with the wrong
move tried, read for English left in it (the script's texts, one paragraph a message, come from
the English tutorial files through the catalogs: ``ludus.i18n.data``)."""

from __future__ import annotations

import re

import pytest

from ludus import games
from ludus.cli import learn as learn_module
from ludus.cli.learn import play_command
from ludus.cli.main import main
from ludus.i18n import catalogs, translator, use_language
from ludus.i18n.data import extract_tutorial, paragraphs

PERSIAN = re.compile("[\u0600-\u06ff]")
LATIN_DIGIT = re.compile(r"(?<![\w.-])[0-9]+(?![\w.-])")
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")
GAMES = ("gorus-maximus", "gladius", "circus-maximus", "gorus-arena")
PROMPTS = ["Press Enter", "Step ", "Your move", "q to quit", "Well done", "Not allowed", "not allowed now", "Try:",
           "Play a real game", "To play a real game", "the wrong move", "Chance"]


def script_texts(lesson) -> list[str]:
    """Every paragraph a learner reads in the script, as written in English."""
    s = lesson.script
    texts = [s.title, s.intro, s.outro]
    for step in s.steps:
        texts += [step.say, step.other, step.wrong_say, step.after]
    return [p for text in texts for p in paragraphs(text)]


def answers(name: str) -> list[str]:
    """Enter to begin, each step's wrong move first (t) where it has one, then its move; no real game."""
    lesson = games.tutorial(name)
    lines = [""]
    for i, step in enumerate(lesson.steps):
        if step.expect is None:
            lines.append("")
            continue
        if step.wrong is not None:
            lines.append("t")
        expected = lesson.expected(i)
        assert expected is not None
        lines.append(expected.label)  # the English label is understood in every language
    return [*lines, "n"]


def learn(monkeypatch, capsys, argv: list[str], environ: dict[str, str]) -> tuple[int, str]:
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environ.items():
        monkeypatch.setenv(variable, value)
    monkeypatch.setenv("COLUMNS", "250")
    typed = iter(answers(argv[1]))
    monkeypatch.setattr(learn_module.Prompt, "ask", staticmethod(lambda *args, **kwargs: next(typed)))
    status = main(argv)
    out = capsys.readouterr().out
    assert next(typed, None) is None, "the lesson stopped before its last answer"
    return status, " ".join(out.replace("│", " ").split())  # rich wraps long lines inside panels


def english_left(text: str, lesson) -> list[str]:
    text = text.replace(play_command(lesson), "")
    left = [w for w in PROMPTS if w in text]
    for paragraph in script_texts(lesson):
        words = paragraph.split()
        if len(words) >= 3 and " ".join(words[:5]) in text:
            left.append(paragraph)
    return left


def translated_start(paragraph: str, lang: str) -> str:
    return " ".join(translator(lang).gettext(paragraph).split()[:5])


@pytest.mark.parametrize("name", GAMES)
def test_a_lesson_in_spanish_from_lang(monkeypatch, capsys, name):
    lesson = games.tutorial(name)
    status, out = learn(monkeypatch, capsys, ["learn", name], {"LANG": "es_ES.UTF-8"})
    assert status == 0
    assert f"Paso {len(lesson)} de {len(lesson)}" in out and "Bien hecho" in out
    assert "Para jugar una partida de verdad más tarde: " + play_command(lesson) in out
    for paragraph in (lesson.script.intro, lesson.script.outro, lesson.steps[-1].say):
        assert translated_start(paragraphs(paragraph)[0], "es") in out
    assert english_left(out, lesson) == []


@pytest.mark.parametrize("name", GAMES)
def test_a_lesson_in_persian_from_the_flag(monkeypatch, capsys, name):
    lesson = games.tutorial(name)
    status, out = learn(monkeypatch, capsys, ["learn", name, "--lang", "fa"], {"LANG": "es_ES.UTF-8"})
    assert status == 0
    with use_language("fa"):
        assert f"گام {_digits(len(lesson))} از {_digits(len(lesson))}" in out and "آفرین" in out
    for paragraph in (lesson.script.intro, lesson.script.outro, lesson.steps[-1].say):
        assert translated_start(paragraphs(paragraph)[0], "fa") in out
    assert english_left(out, lesson) == []
    assert "Paso" not in out  # --lang beats LANG
    assert [n for n in lesson.script.names if n != "You" and n in out] == []  # the seats' names in Persian too
    assert not LATIN_DIGIT.search(out.replace(play_command(lesson), "")), LATIN_DIGIT.findall(out)


def _digits(n: int) -> str:
    from ludus.i18n import format_number
    return format_number(n, "fa")


def test_every_tutorial_paragraph_is_a_message():
    """The extractor finds each paragraph a learner reads, and each is in the catalogs (so a new
    or changed paragraph fails ``catalogs check`` until it is translated)."""
    ids = {m.id for m in catalogs.extract() if isinstance(m.id, str)}
    for name in GAMES:
        lesson = games.tutorial(name)
        found = set(script_texts(lesson))
        assert found <= ids
    for lang in ("es", "fa"):
        catalog = catalogs.load(lang)
        for name in GAMES:
            for paragraph in script_texts(games.tutorial(name)):
                message = catalog.get(paragraph)
                assert message is not None and message.string, (lang, paragraph)


def test_the_extractor_reads_a_script_by_paragraphs():
    from io import BytesIO

    text = b'title = "T"\nintro = """\nOne \\\nline.\n\nTwo."""\noutro = "End"\n[[steps]]\nsay = "Say"\nother = ""\n'
    found = [message for _line, _func, message, _comments in extract_tutorial(BytesIO(text), None, None, None)]
    assert found == ["T", "One line.", "Two.", "End", "Say"]
