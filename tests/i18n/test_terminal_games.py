"""The terminal in Spanish and Persian for Gladius, Circus Maximus and Gorus Arena: a whole game
of each played through ``ludus play`` by a person who first picks a move the rules refuse and
types the game's own commands, read for English words of the game's view left in it."""

from __future__ import annotations

import re

import pytest

from ludus.cli import play as play_module
from ludus.cli.main import main
from ludus.core.errors import IllegalAction
from ludus.games import get_game
from ludus.i18n import use_language

PERSIAN = re.compile("[\u0600-\u06ff]")
LATIN_DIGIT = re.compile(r"(?<![\w.-])[0-9]+(?![\w.-])")
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")
COMMON_UI = ["Game over", "Not allowed", "choose", "hint", "Seat", "heuristic", "Record saved", "seed"]

GLADIUS_UI = ["Turn ", "Deck ", "Discards", "hit points", "Your hand", "playable", "Attack", "Defend:", "attack",
              "damage", "draws", "blow", "Immobilize", "Evade", "Block", "Armor", "Dagger", "Sword", "Shield",
              "Retiarius", "Thracian", "Lion", "Maneuver", "not answered", "evaded", "blocked", "The deck",
              "unaccounted", "owner", "effect", "Set sizes", "You know", "wins", "falls", "Type a number"]


class Person:
    """A seat's answers: the game's commands once each, once a move the rules refuse (when one is
    offered), then the first legal move."""

    def __init__(self, commands: list[str]) -> None:
        self.game: play_module.TerminalGame | None = None
        self.commands = list(commands)
        self.refused = False

    def ask(self, prompt: str, **kwargs) -> str:
        assert self.game is not None
        state = self.game.state
        view = state.view(state.current_seats()[0])
        choices = self.game.adapter.choices(view)
        if self.commands:
            return self.commands.pop(0)
        if not self.refused:
            for i, (_action, legal) in enumerate(choices, 1):
                if not legal:
                    self.refused = True
                    return str(i)
        return next(str(i) for i, (_action, legal) in enumerate(choices, 1) if legal)


def play(monkeypatch, capsys, argv: list[str], environ: dict[str, str], commands: list[str]) -> tuple[int, str, Person]:
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("COLUMNS", "250")
    person = Person(commands)

    class Watched(play_module.TerminalGame):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            person.game = self

    monkeypatch.setattr(play_module, "TerminalGame", Watched)
    monkeypatch.setattr(play_module.Prompt, "ask", staticmethod(person.ask))
    status = main(argv)
    return status, capsys.readouterr().out, person


TYPED = ("attack = compulsory", "ludus rules gladius")
"""Option values and commands quoted as they are typed, in every language."""


def english_left(text: str, words: list[str]) -> list[str]:
    for typed in TYPED:
        text = text.replace(typed, "")
    return [word for word in COMMON_UI + words if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)]


# ----------------------------------------------------------------------------- Gladius
@pytest.mark.parametrize("options", [[], ["--me", "thracian", "--opponent", "lion"], ["--solo"]])
def test_gladius_in_spanish_from_lang(monkeypatch, capsys, options):
    status, out, person = play(monkeypatch, capsys, ["play", "gladius", "--seed", "4", *options],
                               {"LANG": "es_ES.UTF-8"}, ["c", "?"])
    assert status == 0 and person.game is not None and person.game.state.is_terminal()
    for words in ("Turno 1", "Puntos de vida", "Tu mano", "Mazo ", "Descartes ", "El mazo (", "Fin de la partida",
                  "semilla 4", "No permitido: "):
        assert words in out, words
    assert person.refused
    assert english_left(out, GLADIUS_UI) == []


def test_gladius_in_persian_from_the_flag(monkeypatch, capsys):
    status, out, person = play(monkeypatch, capsys, ["play", "gladius", "--lang", "fa", "--seed", "6",
                                                      "--me", "murmillo", "--opponent", "retiarius"],
                               {"LANG": "es_ES.UTF-8"}, ["c"])
    assert status == 0 and person.game is not None and person.game.state.is_terminal()
    for words in ("نوبت ۱", "امتیاز جان", "دست شما", "دسته (", "پایان بازی", "مجاز نیست", "مورمیلو", "رتیاریوس"):
        assert words in out, words
    assert english_left(out, GLADIUS_UI) == []
    assert not LATIN_DIGIT.search(out)
    assert "Turno" not in out  # --lang beats LANG


def test_gladius_refusals_carry_codes_and_stay_english():
    from ludus.cli.adapters import get_adapter
    from ludus.games.gladius.actions import Attack, Defend

    game = get_game("gladius")
    state = game.new_initial_state({}, seed=2)
    seat = state.current_seats()[0]
    with pytest.raises(IllegalAction) as caught:
        state.apply(Defend(None), seat)
    assert caught.value.code in ("gladius.attack-phase", "gladius.must-discard")
    assert str(caught.value).startswith(("this is your attack phase", "you hold "))  # English, as before
    held = set(state.observation(seat).hand)
    foreign = next(k for k in state.setup.keys if k not in held)
    reason = state.why_illegal(Attack(foreign), seat)
    assert reason is not None and getattr(reason, "code", "").startswith("gladius.")
    with use_language("es"):
        spanish = get_adapter("gladius").describe_refusal(IllegalAction(reason))
    assert spanish != reason and re.search("carta|ataque|tienes|mano|descarta", spanish), spanish
    with use_language("fa"):
        persian = get_adapter("gladius").describe_refusal(IllegalAction(reason))
    assert PERSIAN.search(persian) and not re.search("[a-zA-Z]{3,}", persian.replace("attack = compulsory", ""))


def test_every_shipped_gladius_name_is_marked_for_translation():
    from ludus.games.gladius.cards import SHARED_ID, load_catalogue
    from ludus.games.gladius.terminal import CARD_WORDS, FIGHTER_WORDS

    catalogue = load_catalogue()
    sets = [catalogue.shared, *catalogue.fighters.values()]
    assert {c.name for s in sets for c in s.cards} <= set(CARD_WORDS)
    assert {s.name for s in sets if s.id != SHARED_ID} <= set(FIGHTER_WORDS)


# ----------------------------------------------------------------------------- Circus Maximus
CIRCUS_UI = ["Day ", "Phase", "phase", "Trader", "trader", "Ticket", "ticket", "Favour", "favour", "Visitor",
             "visitor", "Coins", "coin", "Location", "Line (", "Player", "Sold today", "starting", "Caesar",
             "Forum", "Colosseum", "Theatre", "Senator", "Merchant", "Student", "Legionnaire", "Pleb",
             "Yellow", "Red", "Blue", "Green", "Purple", "Sell", "Take", "Pass", "winner", "box", "balcony",
             "nobody", "sold for", "worked off", "Total"]


def circus_text(out: str) -> str:
    """The output without the one command it names as it is typed."""
    return out.replace("ludus games circus-maximus", "")


@pytest.mark.parametrize("options", [["--players", "3"], ["--players", "5", "--caesar"]])
def test_circus_maximus_in_spanish_from_lang(monkeypatch, capsys, options):
    status, out, person = play(monkeypatch, capsys, ["play", "circus-maximus", "--seed", "4", *options],
                               {"LANG": "es_ES.UTF-8"}, [])
    assert status == 0 and person.game is not None and person.game.state.is_terminal()
    for words in ("Día 1 de 3", "Fase I: El favor del César", "Villa del César", "Foro Romano", "Comerciante ",
                  "Monedas", "Entradas", "Favores", "Fin de la partida", "No permitido: ", "ganador", "Amarillo (tú)"):
        assert words in out, words
    assert person.refused
    assert english_left(circus_text(out), CIRCUS_UI) == []


def test_circus_maximus_in_persian_from_the_flag(monkeypatch, capsys):
    status, out, person = play(monkeypatch, capsys, ["play", "circus-maximus", "--lang", "fa", "--seed", "6",
                                                      "--players", "4"], {"LANG": "es_ES.UTF-8"}, [])
    assert status == 0 and person.game is not None and person.game.state.is_terminal()
    for words in ("روز ۱ از ۳", "ویلای سزار", "فوروم رومانوم", "بازرگان", "سکه", "بلیت", "لطف", "پایان بازی",
                  "مجاز نیست", "برنده", "زرد (شما)"):
        assert words in out, words
    text = circus_text(out)
    assert english_left(text, CIRCUS_UI) == []
    assert not LATIN_DIGIT.search(text)
    assert "Día" not in out  # --lang beats LANG


def test_circus_maximus_refusals_carry_codes_and_stay_english():
    from ludus.cli.adapters import get_adapter
    from ludus.games.circus_maximus.actions import Place

    game = get_game("circus-maximus")
    state = game.new_initial_state({"players": 3}, seed=2)
    seat = state.current_seats()[0]
    with pytest.raises(IllegalAction) as caught:
        state.apply(Place(1, "forum"), seat)
    assert caught.value.code == "circus-maximus.wrong-line"
    assert caught.value.params == {"stage": 1, "line": "forum", "lines": ["villa"]}
    assert str(caught.value) == "in phase I (Caesar's favour) traders go to Caesar's Villa, not the Forum Romanum"
    adapter = get_adapter("circus-maximus")
    assert adapter.describe_refusal(caught.value) == str(caught.value)  # English: the same sentence
    with use_language("es"):
        assert adapter.describe_refusal(caught.value) == ("en la fase I (El favor del César) los comerciantes se "
                                                          "ponen en Villa del César, no en el Foro Romano")
    with use_language("fa"):
        assert PERSIAN.search(adapter.describe_refusal(caught.value))


# ----------------------------------------------------------------------------- Gorus Arena
ARENA_UI = ["round", "Round", "Auction", "auction", "strength", "defence", "attack", "recruit", "income", "coins",
            "Market", "armoury", "Tired Fighter", "Slave", "Professional", "reveals", "wins", "tie", "draws",
            "Your hand", "Your plan", "draw pile", "discard", "plan in", "Plan in", "position", "lays a card",
            "face down", "killed", "pass", "living gladiators", "pts", "Dead pile", "planning", "execution",
            "Waiting", "seat", "score", "left", "cost", "guard", "nothing", "Champion", "Ambush", "Thumbs Down",
            "Shield Wall", "Lanista", "Patron"]


def arena_text(out: str) -> str:
    return out.replace("ludus games gorus-arena", "").replace("Ludus", "")


@pytest.mark.parametrize("options", [["--players", "3"],
                                     ["--players", "2", "--auction", "per-round", "--free-plan", "--refill", "choose"]])
def test_gorus_arena_in_spanish_from_lang(monkeypatch, capsys, options):
    status, out, person = play(monkeypatch, capsys, ["play", "gorus-arena", "--seed", "4", *options],
                               {"LANG": "es_ES.UTF-8"}, [])
    assert status == 0 and person.game is not None and person.game.state.is_terminal()
    for words in ("ronda 1/6", "Ronda 1 de 6", "Subasta", "Luchador Cansado", "Esclavo", "Mercado (gladiadores)",
                  "Tu mano", "Fin de la partida", "revela: ", "fuerza", "monedas", "gladiadores vivos"):
        assert words in out, words
    assert english_left(arena_text(out), ARENA_UI) == []


def test_gorus_arena_in_persian_from_the_flag(monkeypatch, capsys):
    status, out, person = play(monkeypatch, capsys, ["play", "gorus-arena", "--lang", "fa", "--seed", "6",
                                                      "--players", "3"], {"LANG": "es_ES.UTF-8"}, [])
    assert status == 0 and person.game is not None and person.game.state.is_terminal()
    for words in ("دور ۱ از ۶", "حراج", "مبارز خسته", "برده", "بازار", "زرادخانه", "قدرت", "سکه", "فاش می‌کند",
                  "دست شما", "پایان بازی", "برنده"):
        assert words in out, words
    text = arena_text(out)
    assert english_left(text, ARENA_UI) == []
    assert not LATIN_DIGIT.search(text)
    assert "Subasta" not in out  # --lang beats LANG


def test_gorus_arena_refusals_carry_codes_and_stay_english():
    from ludus.cli.adapters import get_adapter
    from ludus.games.gorus_arena.actions import Done

    game = get_game("gorus-arena")
    state = game.new_initial_state({"players": 3}, seed=2)
    seat = state.current_seats()[0]
    with pytest.raises(IllegalAction) as caught:
        state.apply(Done(), seat)
    assert caught.value.code == "gorus-arena.plan-all" and caught.value.params == {"limit": 5}
    assert str(caught.value).startswith("every card in your hand goes into your plan: a hand holds at most 5")
    adapter = get_adapter("gorus-arena")
    assert adapter.describe_refusal(caught.value) == str(caught.value)
    with use_language("es"):
        assert adapter.describe_refusal(caught.value).startswith("todas las cartas de tu mano van a tu plan")
    with use_language("fa"):
        assert "۵" in adapter.describe_refusal(caught.value)


def test_every_gorus_arena_kind_is_marked_for_translation():
    from ludus.games.gorus_arena.cards import KINDS
    from ludus.games.gorus_arena.terminal import KIND_WORDS

    assert {kind.name for kind in KINDS} <= set(KIND_WORDS)


def test_gorus_arena_log_lines_read_as_the_engine_writes_them_in_english():
    """The terminal words the log's events itself (to translate them); in English it says exactly
    what the engine's own wording says."""
    from ludus.games.gorus_arena.events import event_text
    from ludus.games.gorus_arena.terminal import event_line

    game = get_game("gorus-arena")
    for seed in (1, 2, 3):
        state = game.new_initial_state({"players": 3}, seed=seed)
        while not state.is_terminal():
            seat = state.current_seats()[0]
            state.apply(state.legal_actions(seat)[0], seat)
        assert state.log and [event_line(e) for e in state.log] == [event_text(e) for e in state.log]


# ----------------------------------------------------------------------------- English unchanged
@pytest.mark.parametrize("name, options", [
    ("gladius", {}), ("gladius", {"solo": True}), ("gladius", {"fighter1": "murmillo", "fighter2": "lion"}),
    ("circus-maximus", {"players": 3}), ("circus-maximus", {"players": 5, "caesar": True}),
    ("gorus-arena", {"players": 3}), ("gorus-arena", {"players": 2, "free_plan": True}),
])
def test_english_labels_and_refusals_are_the_engines_own_words(name, options):
    """In English the adapters' translated wording says exactly what the engine says: every move's
    label is the action's own, every refusal the English sentence the rules return; and every
    refusal met has a code the adapter says in Persian."""
    import random

    from ludus.cli.adapters import get_adapter

    game = get_game(name)
    adapter = get_adapter(name)
    state = game.new_initial_state(options, seed=7)
    rng = random.Random(7)
    refusals = 0
    while not state.is_terminal():
        seat = state.current_seats()[0]
        if seat < 0:
            action = rng.choice([a for a, _p in state.chance_outcomes()])
            assert adapter.label(action) == action.label
            state.apply(action, seat)
            continue
        view = state.view(seat)
        for action, legal in adapter.choices(view):
            assert adapter.label(action) == action.label
            reason = state.why_illegal(action, seat)
            assert (reason is None) == legal, (action, reason)
            if reason is not None:
                refusals += 1
                assert getattr(reason, "code", None), reason  # every refusal has a code
                assert adapter.describe_refusal(IllegalAction(reason)) == reason
                with use_language("fa"):  # and every one of them said in Persian, not left in English
                    persian = adapter.describe_refusal(IllegalAction(reason))
                assert PERSIAN.search(persian) and persian != reason, reason
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert refusals
