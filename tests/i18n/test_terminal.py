"""The terminal in Spanish and Persian: a whole Gorus Maximus game played through ``ludus play``
(a person at seat 1 who first tries a card the rules refuse), its record replayed, the rules."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from ludus.cli import play as play_module
from ludus.cli.main import main
from ludus.core import records
from ludus.core.errors import IllegalAction
from ludus.games import get_game
from ludus.games.gorus_maximus.actions import Play
from ludus.i18n import get_language, use_language

ENGLISH_UI = ["Round", "Crowd", "Favour", "Support", "Preferred", "Initiating", "Bout", "bout", "troupe",
              "Challenge", " plays ", "won by", "Seat", "Contender", "Game over", "Not allowed", "choose",
              "hint", "Blue", "Green", "Pink", "Yellow", "Brown", "gladiator", "End of round", "seed",
              "heuristic", "Highlighted", "Champion", "Record saved", "dealer"]
PERSIAN = re.compile("[\u0600-\u06ff]")
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


class Person:
    """Seat 1's answers: once a card the rules refuse (when one is offered), then the first legal card."""

    def __init__(self) -> None:
        self.game: play_module.TerminalGame | None = None
        self.refused = False
        self.looked_back = False

    def ask(self, prompt: str, **kwargs) -> str:
        assert self.game is not None
        state = self.game.state
        view = state.view(state.current_seats()[0])
        choices = self.game.adapter.choices(view)
        if not self.refused:
            for i, (_action, legal) in enumerate(choices, 1):
                if not legal:
                    self.refused = True
                    return str(i)
        if not self.looked_back and view.observation.previous_bout:
            self.looked_back = True
            return "b"  # the previous bout, drawn by the game's own command
        return next(str(i) for i, (_action, legal) in enumerate(choices, 1) if legal)


def play(monkeypatch, capsys, argv: list[str], environ: dict[str, str]) -> tuple[int, str, Person]:
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("COLUMNS", "250")
    person = Person()

    class Watched(play_module.TerminalGame):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            person.game = self

    monkeypatch.setattr(play_module, "TerminalGame", Watched)
    monkeypatch.setattr(play_module.Prompt, "ask", staticmethod(person.ask))
    status = main(argv)
    return status, capsys.readouterr().out, person


def english_left(text: str) -> list[str]:
    return [word for word in ENGLISH_UI if word in text]


@pytest.mark.parametrize("options", [["--players", "3"], ["--solo"], ["--players", "4", "--teams", "2v2"]])
def test_a_game_in_spanish_from_lang(monkeypatch, capsys, tmp_path, options):
    path = tmp_path / "game.json"
    status, out, person = play(monkeypatch, capsys, ["play", "gorus-maximus", "--seed", "4", *options,
                                                      "--save", str(path)], {"LANG": "es_ES.UTF-8"})
    assert status == 0 and person.game is not None and person.game.state.is_terminal()
    for words in ("Ronda 1", "Puntos de Victoria", "Puntos de Ovación", "Escuela Favorita", "Escuela Inicial",
                  "Combate", "Tu Compañía", "Fin de la ronda", "Fin de la partida", "semilla 4", "Registro guardado"):
        assert words in out, words
    assert person.refused and "No permitido: tienes un gladiador" in out and "Desafía con un" in out
    assert person.looked_back and "Combate anterior: " in out and "→ lo gana " in out
    assert "Azul" in out or "Verde" in out or "Rosa" in out
    assert english_left(out) == []
    # the record stays language-neutral: the engine's English seat names, moves as codes
    saved = records.load(str(path))
    assert saved.players and not any("Asiento" in name or "Tú" in name or "bot " in name for name in saved.players)
    assert all(name in ("You", "Contenders") or name.startswith(("Seat ", "Team ")) for name in saved.players)


def test_a_game_in_persian_from_the_flag(monkeypatch, capsys):
    status, out, person = play(monkeypatch, capsys, ["play", "gorus-maximus", "--lang", "fa", "--seed", "6",
                                                      "--players", "4"], {"LANG": "es_ES.UTF-8"})
    assert status == 0 and person.game is not None and person.game.state.is_terminal()
    for words in ("دور ۱", "حمایت تماشاگران", "محبوبیت", "مکتب برگزیده", "مکتب آغازگر", "نبرد", "گروه شما",
                  "پایان بازی", "گوروس ماکسیموس", "مجاز نیست", "گلادیاتور"):
        assert words in out, words
    assert PERSIAN.search(out)
    assert english_left(out) == []
    assert not re.search(r"\bRonda\b|Combate", out)  # --lang beats LANG


def test_lang_before_the_command_and_a_spanish_refusal_from_the_engine_code(monkeypatch, capsys):
    status, out, _person = play(monkeypatch, capsys, ["--lang=es", "play", "gorus-maximus", "--seed", "2",
                                                       "--players", "2"], {})
    assert status == 0 and "No permitido:" in out and english_left(out) == []
    assert get_language() == "en"  # main() gives the process its language back


def test_refusals_carry_a_code_and_stay_english_for_the_server():
    game = get_game("gorus-maximus")
    state = game.new_initial_state({"players": 3}, seed=1)
    seat = state.current_seats()[0]
    state.apply(state.legal_actions(seat)[0], seat)
    seat = state.current_seats()[0]
    legal = set(state.legal_actions(seat))
    hand = state.observation(seat).hand
    refused = next(Play(c) for c in range(80) if hand >> c & 1 and Play(c) not in legal)
    with use_language("es"):
        reason = state.why_illegal(refused, seat)
        with pytest.raises(IllegalAction) as caught:
            state.apply(refused, seat)
    assert str(caught.value) == reason and reason.startswith("you hold a ")  # English, as before
    assert caught.value.code == "gorus-maximus.must-follow"
    assert set(caught.value.params) == {"school", "rank"}
    from ludus.cli.adapters import get_adapter

    with use_language("es"):
        spanish = get_adapter("gorus-maximus").describe_refusal(caught.value)
    assert spanish.startswith("tienes un gladiador ") and "Desafía con un" in spanish
    with pytest.raises(IllegalAction) as other:
        state.apply(Play(next(c for c in range(80) if not hand >> c & 1)), seat)
    assert other.value.code == "gorus-maximus.not-held" and str(other.value).startswith("you do not hold ")


def test_replay_of_a_record_in_persian(monkeypatch, capsys, tmp_path):
    path = tmp_path / "game.json"
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert main(["play", "gorus-maximus", "--seat", "none", "--seed", "3", "--players", "3", "--save",
                 str(path)]) == 0
    english = capsys.readouterr().out
    assert "Seat 1 (heuristic bot) plays " in english and "Record saved to" in english  # no language set: English
    monkeypatch.setenv("LC_ALL", "fa_IR.UTF-8")
    monkeypatch.setenv("COLUMNS", "250")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ثبت بازی" in out and "جایگاه ۱" in out and "پایان بازی" in out
    assert english_left(out) == []


def test_an_unknown_language_is_an_error(capsys):
    assert main(["--lang", "de", "play", "gorus-maximus", "--seat", "none"]) == 2
    assert "unknown language 'de'" in capsys.readouterr().out


def test_the_real_command_in_persian_with_typed_answers():
    """``ludus play`` as a person runs it: a process with LANG and --lang, answers typed on stdin."""
    answers = "\n".join(str(1 + i % 10) for i in range(400)) + "\n"
    env = {"PATH": "/usr/bin:/bin", "LANG": "es_ES.UTF-8", "COLUMNS": "250"}
    done = subprocess.run([sys.executable, "-m", "ludus.cli.main", "play", "gorus-maximus", "--lang", "fa",
                           "--seed", "5", "--players", "3"], input=answers, capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert "گروه شما" in done.stdout and "یکی از ۱ تا" in done.stdout  # the prompt, in Persian digits
    assert english_left(done.stdout) == [], english_left(done.stdout)


def test_a_hint_in_spanish(monkeypatch):
    from rich.console import Console

    from ludus.cli.adapters import get_adapter

    game = get_game("gorus-maximus")
    options = game.parse_options({"players": 3})
    console = Console(record=True, width=200)
    with use_language("es"):
        tg = play_module.TerminalGame(game, get_adapter(game.name), options, 1, [0], {}, console, hint_seconds=0.05)
        while 0 not in tg.state.current_seats():
            seat = tg.state.current_seats()[0]
            tg.state.apply(tg.state.legal_actions(seat)[0], seat)
        view = tg.state.view(0)
        tg.show_hint(view, tg.adapter.choices(view))
    text = console.export_text()
    assert "El bot está pensando…" in text and "Pista:" in text and "partidas simuladas en " in text
    assert english_left(text) == []
