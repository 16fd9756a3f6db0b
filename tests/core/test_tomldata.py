"""TOML data checked against pydantic models: every error names the file and the line to fix."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, Field

from ludus.core.errors import DataError
from ludus.core.tomldata import line_map, line_of, load_toml


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    count: int = Field(ge=1, le=9)


class Deck(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str
    card: list[Card]


GOOD = """\
title = "Test deck"

[[card]]
name = "Net"
count = 2

[[card]]  # second
name = "Trident"
count = 3
"""


def test_a_good_file_loads_into_the_model():
    deck = load_toml(GOOD, "deck.toml", Deck)
    assert deck.title == "Test deck"
    assert [(c.name, c.count) for c in deck.card] == [("Net", 2), ("Trident", 3)]


def test_a_bad_value_names_its_line_and_card():
    text = GOOD.replace("count = 3", "count = 0")
    with pytest.raises(DataError) as err:
        load_toml(text, "deck.toml", Deck)
    assert str(err.value).startswith("deck.toml, line 9: card 2: count: ")
    assert "greater than or equal to 1" in str(err.value)


def test_an_unknown_key_names_its_line():
    text = GOOD.replace('name = "Net"', 'name = "Net"\ncolour = "red"')
    with pytest.raises(DataError, match=r"^deck\.toml, line 5: card 1: colour: Extra inputs are not permitted"):
        load_toml(text, "deck.toml", Deck)


def test_a_missing_key_points_at_its_table():
    text = GOOD.replace('name = "Trident"\n', "")
    with pytest.raises(DataError, match=r"^deck\.toml, line 7: card 2: name: Field required"):
        load_toml(text, "deck.toml", Deck)


def test_a_syntax_error_names_its_line():
    with pytest.raises(DataError, match=r"^deck\.toml, line 4, column \d+: not valid TOML: "):
        load_toml(GOOD.replace('name = "Net"', "name = "), "deck.toml", Deck)


def test_the_line_map_follows_tables_dotted_keys_and_skips_multiline_strings():
    text = '[set]\nid = "x"\nnote = """\nfake = 1\n"""\n[set.extra]\na.b = 2\n[[card]]\nname = "n"\n'
    lines = line_map(text)
    assert lines[("set",)] == 1
    assert lines[("set", "id")] == 2
    assert ("set", "fake") not in lines
    assert lines[("set", "extra", "a", "b")] == 7
    assert lines[("card", 0, "name")] == 9
    assert line_of(lines, ("card", 0, "name", 3)) == 9  # deeper than indexed: the key that holds it
    assert line_of(lines, ("nowhere",)) == 1


def test_a_misspelt_key_is_named_rather_than_the_missing_one():
    text = GOOD.replace("count = 2", "cuont = 2")
    with pytest.raises(DataError, match=r"^deck\.toml, line 5: card 1: cuont: Extra inputs are not permitted"):
        load_toml(text, "deck.toml", Deck)


def test_an_unknown_array_of_tables_points_at_its_first_header():
    text = GOOD + '\n[[joker]]\nname = "x"\n'
    with pytest.raises(DataError, match=r"^deck\.toml, line 11: joker: Extra inputs are not permitted"):
        load_toml(text, "deck.toml", Deck)
