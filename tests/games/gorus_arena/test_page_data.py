"""Gorus Arena's page data in the language in use: the card names are the terminal's words (already in
the catalogs), the summaries and notes are marked for the catalogs, and English is the data's own."""

from __future__ import annotations

from ludus.games.gorus_arena.cards import CARD, KINDS
from ludus.games.gorus_arena.page import NOTE_WORDS, page_data
from ludus.games.gorus_arena.terminal import KIND_WORDS
from ludus.i18n import _, use_language


def test_english_is_the_data_itself():
    data = page_data()
    assert len(data["cards"]) == len(CARD)
    for card, kind in zip(data["cards"], CARD, strict=True):
        assert (card["key"], card["name"]) == (kind.key, kind.name)
        assert (card["summary"], card["note"]) == (kind.summary, kind.note)
        assert (card["cost"], card["strength"], card["actions"]) == (kind.cost, kind.strength, list(kind.actions))


def test_every_note_is_marked_for_the_catalogs():
    assert {k.note for k in KINDS if k.note} == set(NOTE_WORDS)
    assert {k.name for k in KINDS} <= set(KIND_WORDS)


def test_names_come_in_the_readers_language():
    for lang in ("es", "fa"):
        with use_language(lang):
            data = page_data()
            for card, kind in zip(data["cards"], CARD, strict=True):
                assert card["name"] == _(kind.name), (lang, kind.name)
                assert card["note"] == (_(kind.note) if kind.note else "")
            assert data["cards"][0]["name"] != "Tired Fighter"  # the terminal's translation
            if lang == "fa":  # numbers in Persian digits
                assert not any(ch.isascii() and ch.isdigit() for c in data["cards"] for ch in c["summary"])
