"""Which Gladius values the rulebook prints: every gladiator set is printed card for card; the
Lion (the project's own example animal) is not, and is listed and marked as ours."""

from __future__ import annotations

from rich.console import Console

from ludus.core.provenance import OURS
from ludus.games.gladius.cards import BUILTIN_SETS, OURS_SETS
from ludus.games.gladius.game import GAME
from ludus.games.gladius.page import page_data
from ludus.games.gladius.terminal import ADAPTER, OURS_MARK

from .helpers import position


def test_the_rulebook_sets_are_all_printed():
    assert GAME.data_values() == []
    for fighter in BUILTIN_SETS:
        if fighter in OURS_SETS:
            continue
        assert GAME.data_values({"fighter1": fighter, "fighter2": "secutor", "solo": True}) == []


def test_the_lion_is_ours_value_by_value():
    values = GAME.data_values({"fighter1": "secutor", "fighter2": "lion", "solo": True})
    assert values and all(v.source == OURS and v.provisional for v in values)
    by_subject = {v.subject: v.value for v in values}
    assert by_subject["Lion: hit points"] == "12"
    assert by_subject["Lion: solo defence mini-hand"] == "1"
    assert by_subject["Lion: Claw"] == "6 × 2 damage"
    assert "Knockdown" in by_subject["Lion: shared cards it may use"]
    # an option that replaces a number replaces our value with the player's
    fixed = GAME.data_values({"fighter2": "lion", "hit_points": 10, "solo_attack_hand": 2})
    subjects = {v.subject for v in fixed}
    assert "Lion: hit points" not in subjects and "Lion: solo attack mini-hand" not in subjects
    # both fighters lions: listed once
    twice = GAME.data_values({"fighter1": "lion", "fighter2": "lion"})
    assert len(twice) == len({v.subject for v in twice})


def _text(state, seat=0) -> str:
    console = Console(record=True, width=140)
    ADAPTER.render(console, state.view(seat), ["Ann", "Bob"])
    return console.export_text()


def test_the_terminal_marks_the_lion():
    lion = position({"fighter1": "lion", "fighter2": "secutor"}, hands=(["lion/Claw"], []))
    text = _text(lion)
    assert f"Ann{OURS_MARK}" in text and f"Claw (Lion){OURS_MARK}" in text
    assert "not in the rulebook" in text
    plain = position(hands=(["retiarius/Trident Thrust"], []))
    assert OURS_MARK not in _text(plain) and "not in the rulebook" not in _text(plain)


def test_the_page_data_marks_the_lion_only():
    data = page_data()
    assert data["fighters"]["lion"]["ours"] and data["cards"]["lion/Claw"]["ours"]
    assert not data["fighters"]["secutor"]["ours"] and not data["cards"]["secutor/Sword Stab"]["ours"]
    assert not data["cards"]["both/Duck"]["ours"]
