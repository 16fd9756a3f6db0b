"""Card data: the shipped file, provisional marks, user files and every kind of malformed file."""

from __future__ import annotations

import tomllib

import pytest

from ludus.core.errors import DataError
from ludus.core.memo import derived
from ludus.games.circus_maximus.cards import DEFAULT_PATH, FAVOUR_KEYS, load_cards, parse_cards
from ludus.games.circus_maximus.game import GAME

SHIPPED = DEFAULT_PATH.read_text(encoding="utf-8")


def test_shipped_data_holds_the_rulebook_values():
    d = load_cards()
    assert len(d.trader_coins) == 8
    assert (d.trader_coins[1], d.trader_coins[2], d.trader_coins[5]) == (0, 1, 2)
    assert list(d.trader_coins) == sorted(d.trader_coins) and max(d.trader_coins) <= 3
    assert len(d.ticket_kind_of) == 18 and {t.venue for t in d.tickets} == {0, 1, 2}
    assert {t.seat for t in d.tickets} == {"box", "arena", "balcony"}
    assert all(t.coins == 1 for t in d.tickets if t.seat == "balcony")
    assert all(t.coins == 2 for t in d.tickets if t.seat == "arena")
    coins = {v.key: v.coins for v in d.visitors}
    assert (coins["senator"], coins["student"], coins["legionnaire"]) == (6, 3, 2)
    assert len(d.visitor_kind_of) == 16 and sum(1 for v in d.visitors if v.caesar) == 1
    assert all(v.count == 3 for v in d.visitors if not v.caesar) and len(d.visitors) == 6
    assert len(d.favour_kind_of) == 18 and all(f.count == 2 for f in d.favours)
    assert [f.key for f in d.favours] == list(FAVOUR_KEYS)
    assert d.legionnaire_pays == 6


def test_every_value_the_rulebook_does_not_give_is_marked_provisional():
    raw = tomllib.loads(SHIPPED)
    known_traders = {2, 3, 6}
    for e in raw["trader"]:
        assert e.get("provisional", False) == (e["rank"] not in known_traders), e
    for e in raw["ticket"]:
        # the ticket list itself (two of each seat kind per venue) is a guess
        assert e.get("provisional") is True, e
    for e in raw["visitor"]:
        assert e.get("provisional", False) == (e["key"] not in {"senator", "student", "legionnaire", "caesar"}), e
    for e in raw["favour"]:
        assert e.get("provisional") is True, e


def test_user_file_is_loaded_through_the_cards_option(tmp_path):
    path = tmp_path / "my-cards.toml"
    path.write_text(SHIPPED.replace('key = "senator"\nname = "Senator"\ncoins = 6',
                                    'key = "senator"\nname = "Senator"\ncoins = 10'), encoding="utf-8")
    st = GAME.new_initial_state({"players": 4, "cards": str(path)}, seed=1)
    assert next(v.coins for v in st.data.visitors if v.key == "senator") == 10
    again = GAME.state_from_json(st.to_json())
    assert again.data == st.data


def test_derived_tables_follow_the_card_data_object_not_its_values():
    shipped = load_cards()
    user = parse_cards(SHIPPED.replace('key = "senator"\nname = "Senator"\ncoins = 6',
                                       'key = "senator"\nname = "Senator"\ncoins = 10'))
    built: list[object] = []

    def senator_coins(data):
        built.append(data)
        return next(v.coins for v in data.visitors if v.key == "senator")

    assert derived(shipped, senator_coins) == 6
    assert derived(user, senator_coins) == 10
    assert derived(shipped, senator_coins) == 6  # kept, not rebuilt
    assert built == [shipped, user]
    # an equal but distinct object gets its own entry (identity, not the costly value hash)
    assert derived(parse_cards(SHIPPED), senator_coins) == 6 and len(built) == 3


def test_missing_user_file_names_the_path(tmp_path):
    missing = tmp_path / "nope.toml"
    with pytest.raises(DataError, match=r"nope\.toml"):
        GAME.new_initial_state({"players": 4, "cards": str(missing)}, seed=1)


def _error(text: str) -> str:
    with pytest.raises(DataError) as info:
        parse_cards(text, "cards.toml")
    return str(info.value)


def _line_of(text: str, needle: str, occurrence: int = 1) -> int:
    seen = 0
    for no, line in enumerate(text.splitlines(), 1):
        if needle in line:
            seen += 1
            if seen == occurrence:
                return no
    raise AssertionError(needle)


def test_toml_syntax_error_names_file_and_line():
    bad = SHIPPED.replace("rank = 4\n", "rank = = 4\n")
    msg = _error(bad)
    assert msg.startswith(f"cards.toml:{_line_of(bad, 'rank = = 4')}:") and "not valid TOML" in msg


def test_wrong_type_names_the_line_of_the_field():
    bad = SHIPPED.replace('coins = 6\ncount = 3', 'coins = "six"\ncount = 3')
    msg = _error(bad)
    line = _line_of(bad, 'coins = "six"')
    assert msg.startswith(f"cards.toml:{line}:")
    assert "'coins' must be a whole number" in msg and "[[visitor]] entry 1" in msg


@pytest.mark.parametrize("old,new,problem", [
    ("rank = 5\ncoins = 2", "rank = 5\ncoins = -2", "must not be negative"),
    ("rank = 5\ncoins = 2", "rank = 4\ncoins = 2", "rank 4 is listed twice"),
    ("rank = 5\ncoins = 2", "rank = 9\ncoins = 2", "rank must be 1 to 8"),
    ('venue = "theatre"\nseat = "box"', 'venue = "arena"\nseat = "box"', "venue must be one of"),
    ('venue = "theatre"\nseat = "box"', 'venue = "circus"\nseat = "box"', "'circus:box' is listed twice"),
    ('key = "move_ahead"', 'key = "teleport"', "unknown favour 'teleport'"),
    ('key = "move_ahead"', 'key = "rank_boost"', "listed twice"),
    ("pays = 6\n", "", "needs 'pays'"),
    ('key = "pleb"', 'key = "caesar"', "listed twice"),
    ("count = 1\ncaesar = true", "count = 1\ncaesar = false", "exactly one entry must have caesar = true"),
    ('key = "legionnaire"\nname = "Legionnaire"', 'key = "soldier"\nname = "Legionnaire"', "'legionnaire' visitor"),
    ("coins = 3\ncount = 2\nprovisional", "coins = 3\ncolour = 2\nprovisional", "unknown field 'colour'"),
    ("[[favour]]\nkey = \"extra_trader\"\ncoins = 2\ncount = 2\n", "[[favour]]\nkey = \"extra_trader\"\ncoins = 2\n",
     "missing field 'count'"),
])
def test_malformed_entries_are_reported_with_a_line(old, new, problem):
    assert old in SHIPPED, old
    msg = _error(SHIPPED.replace(old, new, 1))
    assert msg.startswith("cards.toml:") and problem in msg
    assert msg.split(":")[1].isdigit(), msg  # a line number


def test_missing_table_and_unknown_table():
    without_favours = SHIPPED.split("# ---------------------------------------------------------------- favours")[0]
    assert "missing [[favour]]" in _error(without_favours)
    assert "unknown table 'gladiator'" in _error(SHIPPED + "\n[[gladiator]]\nname = 'x'\n")
