"""Game terms: each language's catalog says a game's terms with the words of its glossary
(ludus/games/<game>/i18n/glossary.<lang>.toml), as the rulebook of that language does."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from ludus.i18n import catalogs

GLOSSARIES = {"es": "glossary.es.toml", "fa": "glossary.fa.toml"}
ES_TERMS = Path("/work/shared/rules/gorus-maximus.es-terms.md")  # the Spanish edition's term list, where present
PLACEHOLDER = re.compile(r"\{\w*[^{}]*\}|\[/?[a-z][a-z ]*\]")  # {placeholders} and [rich markup]


GAMES = ("gorus_maximus", "gorus_arena", "gladius", "circus_maximus")
"""The games with glossaries so far (package names)."""
ARENA_TEXT = Path("/work/shared/rules/gorus-maximus-arena-tutorial.fa.txt")  # the Persian Gorus Arena text


def glossary(lang: str, game: str = "gorus_maximus") -> dict:
    text = resources.files(f"ludus.games.{game}").joinpath("i18n", GLOSSARIES[lang]).read_text("utf-8")
    data = tomllib.loads(text)
    assert data["language"] == lang
    return data


def forms(term: dict, lang: str) -> list[str]:
    return [term[lang], *term.get("also", [])]


def english_term(term: str) -> re.Pattern[str]:
    """The English term as a word (its plural included); placeholders and markup are taken out first."""
    return re.compile(rf"(?<![\w{{]){re.escape(term)}(?:s|es)?(?!\w)", re.IGNORECASE)


def misses(lang: str, messages: list[tuple[str, str]], game: str = "gorus_maximus") -> list[str]:
    """Translations that do not say a term of ``game``'s glossary with its word. A term inside a
    longer term of any game's glossary is that longer term ("favour" in "Crowd Favour"): the
    longer one is taken out of the msgid before the shorter one is looked for."""
    every = {t["en"].lower() for g in GAMES for t in glossary(lang, g)["term"]}
    out = []
    for term in glossary(lang, game)["term"]:
        if not term.get("check", True):
            continue
        pattern = english_term(term["en"])
        longer = [english_term(t) for t in every if t != term["en"].lower() and pattern.search(t)]
        words = [w.lower() for w in forms(term, lang)]
        for msgid, msgstr in messages:
            plain = PLACEHOLDER.sub("", msgid)
            for other in longer:
                plain = other.sub(" ", plain)
            if pattern.search(plain) and not any(w in msgstr.lower() for w in words):
                out.append(f"{term['en']!r} should read {term[lang]!r} in {msgstr!r} (for {msgid!r})")
    return out


def catalog_messages(lang: str) -> list[tuple[str, str]]:
    pairs = []
    for m in catalogs.load(lang):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        pairs += [(ids[-1], s) for s in strings]
    return pairs


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", sorted(GLOSSARIES))
def test_catalog_uses_the_glossary_terms(lang, game):
    """Every game's glossary, over the whole catalog: the games share one catalog, and a term of
    one game said in another's message (a round, an attack) reads the same."""
    assert misses(lang, catalog_messages(lang), game) == []


def test_the_check_catches_a_wrong_term():
    """The check fails on a translation that says a term otherwise than the rulebook."""
    wrong = [("Preferred: ", "Escuela Preferida: "), ("Previous bout: ", "Ronda anterior: ")]
    found = misses("es", wrong)
    assert any("Favorita" in line for line in found) and any("Combate" in line for line in found)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", sorted(GLOSSARIES))
def test_glossary_entries_are_complete(lang, game):
    data = glossary(lang, game)
    sources = {"es": {"rulebook", "ours"}, "fa": {"source", "ours"}}[lang]
    seen = set()
    for term in data["term"]:
        assert term["en"] and term[lang] and term["from"] in sources, term
        assert term["en"].lower() not in seen, f"{term['en']} twice"
        seen.add(term["en"].lower())


def test_persian_glossary_marks_every_game_term_as_ours():
    """Gorus Maximus has no Persian rulebook: only words shared with the Persian Gorus Arena
    text come from a source, and each of those occurs in it."""
    source_text = Path("/work/shared/rules/gorus-maximus-arena-tutorial.fa.txt")
    for term in glossary("fa")["term"]:
        if term["from"] == "source" and source_text.exists():
            assert term["fa"] in source_text.read_text("utf-8"), term
    ours = {t["en"] for t in glossary("fa")["term"] if t["from"] == "ours"}
    assert {"school", "bout", "Challenge", "Crowd Favour", "Crowd Support", "preferred school"} <= ours


@pytest.mark.skipif(not ES_TERMS.exists(), reason="the Spanish edition's term list is not on this machine")
def test_spanish_rulebook_terms_are_the_editions():
    listed = ES_TERMS.read_text("utf-8")
    for term in glossary("es")["term"]:
        if term["from"] == "rulebook":
            assert term["es"].lower() in listed.lower(), term


@pytest.mark.skipif(not ARENA_TEXT.exists(), reason="the Persian Gorus Arena text is not on this machine")
def test_persian_arena_terms_come_from_its_text():
    """Gorus Arena is known from a Persian text: every term marked as from it occurs in it, and the
    text's own names for the phases and actions are among them."""
    text = ARENA_TEXT.read_text("utf-8")
    terms = glossary("fa", "gorus_arena")["term"]
    for term in terms:
        if term["from"] == "source":
            assert term["fa"] in text, term
    named = {t["en"] for t in terms if t["from"] == "source"}
    assert {"auction", "action", "recruit", "income", "attack", "defence", "plan", "execution", "market"} <= named


def test_spanish_arena_terms_are_ours():
    assert {t["from"] for t in glossary("es", "gorus_arena")["term"]} == {"ours"}


def test_a_term_inside_a_longer_term_is_the_longer_one():
    """Circus Maximus's "favour" is looked for outside Gorus Maximus's "Crowd Favour" only."""
    assert misses("es", [("Crowd Favour: ", "Puntos de Ovación: ")], "circus_maximus") == []
    assert misses("es", [("Caesar's favours", "los regalos del César")], "circus_maximus")
    assert misses("fa", [("the most Crowd Favour and a favour", "بیشترین محبوبیت و یک هدیه")], "circus_maximus")
