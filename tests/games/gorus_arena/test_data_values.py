"""Gorus Arena's provisional data: every card value the source text does not give is listed by
``GAME.data_values`` (from an example, or ours) and marked ✱ in the terminal and on the page,
from the one ``printed`` list of the card file."""

from __future__ import annotations

import io

from rich.console import Console

from ludus.cli.adapters import get_adapter
from ludus.core.provenance import EXAMPLE, OURS
from ludus.games.gorus_arena.cards import CARD_FIELDS, KINDS, ours_fields
from ludus.games.gorus_arena.game import GAME
from ludus.games.gorus_arena.page import page_data
from ludus.games.gorus_arena.terminal import OURS_LEGEND, OURS_MARK


def by_subject(options=None) -> dict[str, object]:
    return {v.subject: v for v in GAME.data_values(options)}


def test_the_two_numbers_the_text_gives_in_its_examples_are_listed_as_example():
    values = by_subject()
    assert values["Tired Fighter: defence"].source == EXAMPLE and values["Tired Fighter: defence"].value == "2"
    assert values["Professional Gladiator: cost"].source == EXAMPLE
    assert values["Professional Gladiator: cost"].value == "3"
    assert [v for v in values.values() if v.source == EXAMPLE] == [
        values["Tired Fighter: defence"], values["Professional Gladiator: cost"]]


def test_every_other_card_value_and_every_market_count_is_ours():
    values = by_subject()
    for kind in KINDS:
        for field in CARD_FIELDS[kind.gladiator]:
            subject = f"{kind.name}: {field}"
            if field == "name" and kind.key in ("tired-fighter", "slave", "professional"):
                assert subject not in values  # the text names these three
            elif field in ours_fields(kind):
                assert values[subject].source == OURS and values[subject].note
        if not kind.basic:
            assert values[f"{kind.name}: copies in the {'market' if kind.gladiator else 'armoury'}"].source == OURS
    assert all(v.provisional for v in values.values())


def test_without_the_armoury_action_cards_are_not_listed():
    plain = by_subject(GAME.parse_options({"armoury": False}))
    assert not any(s.startswith("Testudo") for s in plain) and any(s.startswith("Testudo") for s in by_subject())


def test_the_page_marks_exactly_the_values_listed_as_ours():
    """page.js marks each field missing from a card's ``printed`` list; that is the data_values' ours."""
    ours = {v.subject for v in GAME.data_values() if v.source == OURS and ": copies" not in v.subject}
    marked = set()
    for card in {c["key"]: c for c in page_data()["cards"]}.values():
        for field in CARD_FIELDS[card["gladiator"]]:
            if field not in card["printed"]:
                marked.add(f"{card['name']}: {field}")
    assert marked == ours


def test_the_terminal_marks_our_values_and_explains_the_mark():
    adapter = get_adapter("gorus-arena")
    state = GAME.new_initial_state({"players": 3}, seed=1)
    out = Console(file=io.StringIO(), width=200, record=True, color_system=None)
    adapter.render(out, state.view(0), GAME.seat_names(state.options))
    text = out.export_text()
    assert OURS_LEGEND.split(":")[0] in text
    secutor = next(line for line in text.splitlines() if line.lstrip().startswith(f"Secutor{OURS_MARK}"))
    assert secutor.count(OURS_MARK) == 6  # name, cost, action, strength, defence, points
    professional = next(line for line in text.splitlines() if "Professional Gladiator" in line)
    assert professional.count(OURS_MARK) == 4  # name and cost are the text's
    tired = next(line for line in text.splitlines() if "Tired Fighter [income 2]" in line)
    assert tired.rstrip().endswith(f"1 pts {OURS_MARK}")  # in the hand: a card with values of ours
