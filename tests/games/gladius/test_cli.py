"""`ludus play gladius`: flags, the table a person sees, and whole games typed at the prompt."""

from __future__ import annotations

import argparse
import itertools

import pytest
from rich.console import Console

from ludus.cli import play as play_module
from ludus.cli.adapters import get_adapter
from ludus.cli.main import build_parser, main
from ludus.core import records
from ludus.games import get_game
from ludus.games.gladius.actions import NO_ATTACK, NO_DEFENCE, Attack, Defend, Discard
from ludus.games.gladius.game import GAME
from ludus.games.gladius.terminal import ADAPTER

from .helpers import DUCK, NET, SHIELD_BLOCK, SS, TRIDENT, WILD, position
from .test_cards import HOPLOMACHUS, TYPES


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["play", "gladius", *argv])


def test_adapter_is_registered():
    assert get_adapter("gladius") is ADAPTER


def test_flags_become_options(tmp_path):
    args = parse("--me", "Murmillo", "--opponent", "thracian", "--solo", "--card-set", "a.toml", "--card-set",
                 "b.toml")
    assert ADAPTER.options_from_args(args) == {"fighter1": "murmillo", "fighter2": "thracian", "solo": True,
                                               "card_sets": "a.toml,b.toml"}
    assert ADAPTER.options_from_args(parse()) == {}


def render(state, seat=0) -> str:
    console = Console(record=True, width=110)
    ADAPTER.render(console, state.view(seat), GAME.seat_names(state.options))
    return console.export_text()


def test_table_shows_hit_points_hand_and_reasons():
    state = position(hands=([TRIDENT, SS, DUCK], [KICK := "both/Kick"]), hp=(7, 4),
                     lock=(None, None), barred=DUCK)
    text = render(state)
    assert "7/10" in text and "4/10" in text
    assert "Trident Thrust (Retiarius)" in text and "[3 damage]" in text
    assert "not yours (a Secutor card)" in text
    assert "you may not attack this turn: you evaded with Duck last turn" in text
    assert KICK not in text  # the other hand is never shown


def test_table_shows_the_incoming_attack_and_last_exchange():
    state = position(hands=([SHIELD_BLOCK, DUCK], [NET]), active=1, first=1,
                     options={"fighter1": "secutor", "fighter2": "retiarius"})
    state.apply(Attack(NET), 1)
    text = render(state)
    assert "Incoming attack: Cast Net (Retiarius) [Immobilize]" in text
    assert "only an Evade stops it" in text
    assert "a Block cannot stop Cast Net" in text
    choices = ADAPTER.choices(state.view(0))
    assert (Defend(SHIELD_BLOCK), False) in choices and (Defend(DUCK), True) in choices
    assert choices[-1] == (NO_DEFENCE, True)
    state.apply(Defend(DUCK), 0)
    text = render(state, 1) if state.current_seats() == (1,) else ""
    state2 = position({"fighter1": "murmillo", "fighter2": "secutor"}, hands=([WILD], []))
    state2.apply(Attack(WILD), 0)
    state2.apply(NO_DEFENCE, 1)
    spectator = Console(record=True, width=110)
    ADAPTER.render_spectator(spectator, state2.observation(None), ["Murmillo", "Secutor"])
    out = spectator.export_text()
    assert "Last attack: Murmillo played Wild Swing" in out and "did not defend" in out
    assert "no attack next turn" in out


def test_choices_offer_every_card_and_the_pass():
    state = position(hands=([TRIDENT, TRIDENT, SS], []))
    # attacking is compulsory by default: the pass is listed, as not allowed
    assert ADAPTER.choices(state.view(0)) == [(Attack(TRIDENT), True), (Attack(SS), False), (NO_ATTACK, False)]
    free = position({"attack": "optional"}, hands=([TRIDENT, TRIDENT, SS], []))
    assert ADAPTER.choices(free.view(0)) == [(Attack(TRIDENT), True), (Attack(SS), False), (NO_ATTACK, True)]
    disc = position(phase="discard", hands=([TRIDENT, NET, DUCK, SS, SS, SHIELD_BLOCK], []))
    assert all(legal for _, legal in ADAPTER.choices(disc.view(0)))
    assert {a for a, _ in ADAPTER.choices(disc.view(0))} == {Discard(k) for k in (TRIDENT, NET, DUCK, SS,
                                                                                  SHIELD_BLOCK)}


def test_card_list_command():
    state = position(hands=([TRIDENT], []))
    console = Console(record=True, width=110)
    assert ADAPTER.handle_command(console, "c", state.view(0), ["A", "B"])
    text = console.export_text()
    assert "The deck (56 cards)" in text and "Set sizes: shared 20, Retiarius 18, Secutor 18" in text
    assert not ADAPTER.handle_command(console, "zzz", state.view(0), ["A", "B"])


def typist():
    """A person who tries the first choice, then passing, then each other choice in turn; always gets
    somewhere (with the attack compulsory, passing is refused while an attack card can be played)."""
    answers = itertools.cycle(["1", "no attack", "no defence", "c", "2", "3", "4", "5", "6"])
    return lambda prompt, **kw: next(answers)


PAIRS = [(t, TYPES[(i + 3) % len(TYPES)]) for i, t in enumerate(TYPES)]


@pytest.mark.parametrize("me, opponent", PAIRS)
def test_every_type_plays_against_a_bot_and_solo_from_the_terminal(monkeypatch, capsys, tmp_path, me, opponent):
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setattr(play_module.Prompt, "ask", staticmethod(typist()))
    path = tmp_path / "g.json"
    assert main(["play", "gladius", "--me", me, "--opponent", opponent, "--seed", "4", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Game over" in out and "Your hand" in out and "/10" in out
    final = records.replay(records.load(path), get_game)
    assert final.is_terminal()
    assert main(["play", "gladius", "--me", me, "--opponent", opponent, "--solo", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "Game over" in out and f"the {get_game('gladius').setup({'fighter1': opponent}).sides[0].name}" in out


def test_user_set_from_the_terminal(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("COLUMNS", "400")
    path = tmp_path / "hoplo.toml"
    path.write_text(HOPLOMACHUS, encoding="utf-8")
    monkeypatch.setattr(play_module.Prompt, "ask", staticmethod(typist()))
    assert main(["play", "gladius", "--card-set", str(path), "--me", "hoplomachus", "--opponent", "lion",
                 "--seed", "1"]) == 0
    assert "Hoplomachus" in capsys.readouterr().out
    broken = tmp_path / "broken.toml"
    broken.write_text('[set]\nid = "x"\ncount = 3\n', encoding="utf-8")
    assert main(["play", "gladius", "--card-set", str(broken), "--seat", "none"]) == 2
    out = capsys.readouterr().out
    assert "broken.toml, line 3: set: count: Extra inputs are not permitted" in out


def test_unknown_type_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["play", "gladius", "--me", "gaul", "--seat", "none"]) == 2
    assert "unknown fighter type 'gaul'" in capsys.readouterr().out
