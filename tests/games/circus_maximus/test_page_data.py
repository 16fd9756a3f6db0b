"""The browser page's data: names, coins and effects from the card file, and which values are ours."""

from __future__ import annotations

import json
import tomllib

import pytest

from ludus.core.errors import DataError
from ludus.games.circus_maximus.cards import DEFAULT_PATH, FAVOUR_KEYS, load_cards, parse_cards
from ludus.games.circus_maximus.page import page_data

SHIPPED = DEFAULT_PATH.read_text(encoding="utf-8")


def test_every_favour_has_its_effect_in_words_with_the_legionnaire_price_filled_in():
    data = page_data()
    assert list(data["favours"]) == list(FAVOUR_KEYS)
    for key, favour in data["favours"].items():
        assert len(favour["effect"].split()) >= 8, (key, favour["effect"])
        assert "{" not in favour["effect"] and key not in favour["effect"]
    pays = load_cards().legionnaire_pays
    assert f"pays {pays} coins" in data["favours"]["legionnaire"]["effect"]


def test_values_the_rulebook_does_not_print_are_marked_per_value_as_in_the_file():
    raw = tomllib.loads(SHIPPED)
    data = page_data()

    def listed(e):
        return {**dict.fromkeys(e.get("example", []), "example"), **dict.fromkeys(e.get("ours", []), "ours")}

    def shown(item):
        return {f: m["source"] for f, m in item["marks"].items()}

    assert [shown(t) for t in data["traders"]] == [listed(e) for e in sorted(raw["trader"], key=lambda e: e["rank"])]
    assert {k: shown(t) for k, t in data["tickets"].items()} == {
        f"{e['venue']}:{e['seat']}": listed(e) for e in raw["ticket"]}
    assert {k: shown(v) for k, v in data["visitors"].items()} == {e["key"]: listed(e) for e in raw["visitor"]}
    assert {k: shown(f) for k, f in data["favours"].items()} == {e["key"]: listed(e) for e in raw["favour"]}
    # a printed value is not marked; a value from the scoring example is, with its own mark and reason
    assert "coins" not in data["visitors"]["legionnaire"]["marks"]
    senator = data["visitors"]["senator"]["marks"]["coins"]
    assert senator["source"] == "example" and "scoring example" in senator["text"]
    merchant = data["visitors"]["merchant"]["marks"]
    assert merchant["name"]["source"] == "ours" and "chosen by Ludus" in merchant["coins"]["text"]
    assert data["marks"] == {"example": "*", "ours": "°"}


def test_seat_kinds_are_named_for_people_and_the_data_is_plain_json():
    data = page_data()
    assert {t["seat_name"] for t in data["tickets"].values()} == {"Box", "Arena", "Balcony"}
    assert [line["name"] for line in data["lines"]][:2] == ["Caesar's Villa", "Forum Romanum"]
    assert all(line["role"] for line in data["lines"])
    assert json.loads(json.dumps(data)) == data


def test_an_effect_must_be_text():
    shipped = 'effect = "With your rank-1 trader'
    bad = SHIPPED.replace(shipped, "effect = 3\n# " + shipped, 1)
    assert bad != SHIPPED
    with pytest.raises(DataError, match=r"favour 8: effect: Input should be a valid string"):
        parse_cards(bad, "cards.toml")
