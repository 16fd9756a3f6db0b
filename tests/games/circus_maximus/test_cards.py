"""Card data: the shipped file, where each value comes from, user files and every kind of malformed file."""

from __future__ import annotations

import dataclasses
import re
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


def test_every_value_says_where_it_comes_from():
    """Per value, as decided from the rulebook (docs/games/circus-maximus.md, "Card data"):
    printed, from its scoring example, or ours."""
    raw = tomllib.loads(SHIPPED)
    assert not any("provisional" in e for table in raw.values() for e in table)
    for e in raw["trader"]:  # the scoring example keeps traders 6, 3 and 2
        assert (e.get("example", []), e.get("ours", [])) == ((["coins"], []) if e["rank"] in {2, 3, 6}
                                                              else ([], ["coins"])), e
    for e in raw["ticket"]:  # balcony and arena are priced by the scoring example; box and the counts are ours
        if e["seat"] == "box":
            assert (e.get("example", []), e["ours"]) == ([], ["coins", "count"]), e
        else:
            assert (e["example"], e["ours"]) == (["coins"], ["count"]), e
    expected = {"senator": (["coins"], ["count"]), "student": (["coins"], ["count"]),
                "legionnaire": ([], ["count"]), "merchant": ([], ["name", "coins", "count"]),
                "pleb": ([], ["name", "coins", "count"]), "caesar": ([], [])}
    for e in raw["visitor"]:
        assert (e.get("example", []), e.get("ours", [])) == expected[e["key"]], e
    for e in raw["favour"]:  # "pays" (6 with Ticket→Legionnaire) is printed
        assert (e.get("example", []), e["ours"]) == ([], ["coins", "count"]), e


def test_sources_are_carried_into_the_data_classes_and_listed_by_the_game():
    from ludus.core.provenance import EXAMPLE, OURS, PRINTED
    from ludus.games.circus_maximus.cards import source_of

    d = load_cards()
    assert [source_of(s, "coins") for s in d.trader_sources] == [OURS, EXAMPLE, EXAMPLE, OURS, OURS, EXAMPLE,
                                                                  OURS, OURS]
    senator = next(v for v in d.visitors if v.key == "senator")
    assert (source_of(senator.sources, "coins"), source_of(senator.sources, "name")) == (EXAMPLE, PRINTED)
    legion = d.favours[FAVOUR_KEYS.index("legionnaire")]
    assert source_of(legion.sources, "pays") == PRINTED and source_of(legion.sources, "coins") == OURS
    values = GAME.data_values({})
    assert values == d.data_values() and all(v.provisional and v.note for v in values)
    subjects = {v.subject: v for v in values}
    assert subjects["Trader 4: coins if kept in hand"].source == OURS
    assert subjects["Trader 6: coins if kept in hand"].source == EXAMPLE
    assert subjects["Colosseum box ticket: coins when sold"].value == "3"
    assert "Senator: coins paid" in subjects and "Legionnaire: coins paid" not in subjects
    assert not any(v.subject.startswith("Caesar") for v in values)


def test_a_players_own_file_lists_no_values_and_old_provisional_marks_still_load(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(SHIPPED.replace('ours = ["coins"]\n', "provisional = true\n", 1), encoding="utf-8")
    assert GAME.data_values({"cards": str(path)}) == []
    d = load_cards(path)
    from ludus.core.provenance import OURS
    from ludus.games.circus_maximus.cards import source_of
    assert source_of(d.trader_sources[0], "coins") == OURS  # provisional = true: every value ours


def test_a_listed_field_must_be_a_value_of_its_table():
    bad = SHIPPED.replace('rank = 1\ncoins = 0\nours = ["coins"]', 'rank = 1\ncoins = 0\nours = ["rank"]')
    line = _line_of(bad, 'ours = ["rank"]')
    assert _error(bad) == f"cards.toml, line {line}: trader 1: ours: 'rank' is not a value of a trader (one of coins)"
    bad = SHIPPED.replace('seat = "box"\ncoins = 3\ncount = 2\nours = ["coins", "count"]',
                          'seat = "box"\ncoins = 3\ncount = 2\nexample = ["coins"]\nours = ["coins", "count"]', 1)
    assert "ticket 1: ours: coins cannot also be listed under example" in _error(bad)


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


def _nth_line(text: str, whole_line: str, occurrence: int) -> int:
    """The line number of the ``occurrence``-th line that is exactly ``whole_line`` (comments do not count)."""
    found = [no for no, line in enumerate(text.splitlines(), 1) if line.strip() == whole_line]
    return found[occurrence - 1]


def test_toml_syntax_error_names_file_and_line():
    bad = SHIPPED.replace("rank = 4\n", "rank = = 4\n")
    msg = _error(bad)
    line = _line_of(bad, "rank = = 4")
    assert re.fullmatch(rf"cards\.toml, line {line}, column \d+: not valid TOML: Invalid value", msg), msg


def test_wrong_type_names_the_line_of_the_field():
    bad = SHIPPED.replace('coins = 6\ncount = 3', 'coins = "six"\ncount = 3')
    msg = _error(bad)
    line = _line_of(bad, 'coins = "six"')
    assert msg == f"cards.toml, line {line}: visitor 1: coins: Input should be a valid integer"


# (text to change, its replacement, the line the message must name: text in it or (the whole line, which
# one of those), the problem it must name)
MALFORMED = [
    ("rank = 5\ncoins = 2", "rank = 5\ncoins = -2", "coins = -2",
     "trader 5: coins: Input should be greater than or equal to 0"),
    ("rank = 5\ncoins = 2", "rank = 4\ncoins = 2", ("rank = 4", 2), "trader 5: rank: rank 4 is listed twice"),
    ("rank = 5\ncoins = 2", "rank = 9\ncoins = 2", "rank = 9",
     "trader 5: rank: Input should be less than or equal to 8"),
    ('venue = "theatre"\nseat = "box"', 'venue = "arena"\nseat = "box"', 'venue = "arena"',
     "ticket 7: venue: Input should be 'circus', 'colosseum' or 'theatre'"),
    ('venue = "theatre"\nseat = "box"', 'venue = "circus"\nseat = "box"', ("[[ticket]]", 7),
     "ticket 7: 'circus:box' is listed twice"),
    ('key = "move_ahead"', 'key = "teleport"', 'key = "teleport"',
     "favour 9: key: Input should be 'extra_visitor', 'extra_trader', 'legionnaire', 'double_ticket', "
     "'double_sale', 'replay_trader', 'ticket_and_visitor', 'rank_boost' or 'move_ahead'"),
    ('key = "move_ahead"', 'key = "rank_boost"', ('key = "rank_boost"', 2),
     "favour 9: key: favour 'rank_boost' is listed twice"),
    ("pays = 6\n", "", ("[[favour]]", 3),
     "favour 3: the 'legionnaire' favour needs 'pays' (what a legionnaire pays with it)"),
    ('key = "pleb"', 'key = "caesar"', ('key = "caesar"', 2), "visitor 6: key: 'caesar' is listed twice"),
    ("count = 1\ncaesar = true", "count = 1\ncaesar = false", ("[[visitor]]", 1),
     "visitor: exactly one entry must have caesar = true, found 0"),
    ('key = "legionnaire"\nname = "Legionnaire"', 'key = "soldier"\nname = "Legionnaire"', ("[[visitor]]", 1),
     "visitor: a 'legionnaire' visitor is needed by the Ticket→Legionnaire favour"),
    # a misspelt key in place of a required one: the misspelling is named, at its line
    ("coins = 3\ncount = 2\nours", "coins = 3\ncolour = 2\nours", "colour = 2",
     "ticket 1: colour: Extra inputs are not permitted"),
    ("coins = 3\ncount = 2\nours", "coins = 3\ncount = 2\ncolour = 2\nours", "colour = 2",
     "ticket 1: colour: Extra inputs are not permitted"),
    ("[[favour]]\nkey = \"extra_trader\"\ncoins = 2\ncount = 2\n", "[[favour]]\nkey = \"extra_trader\"\ncoins = 2\n",
     ("[[favour]]", 2), "favour 2: count: Field required"),
    # each kind of value the old loader refused is still refused: no bool, float or text for a number, ...
    ("rank = 5\ncoins = 2", "rank = 5\ncoins = true", "coins = true",
     "trader 5: coins: Input should be a valid integer"),
    ("rank = 5\ncoins = 2", "rank = 5\ncoins = 2.0", "coins = 2.0", "trader 5: coins: Input should be a valid integer"),
    ("rank = 5\ncoins = 2", 'rank = "5"\ncoins = 2', 'rank = "5"', "trader 5: rank: Input should be a valid integer"),
    ("rank = 5\ncoins = 2", "rank = 0\ncoins = 2", "rank = 0",
     "trader 5: rank: Input should be greater than or equal to 1"),
    ("rank = 1\ncoins = 0\nours = [\"coins\"]", "rank = 1\ncoins = 0\nprovisional = 1", "provisional = 1",
     "trader 1: provisional: Input should be a valid boolean"),
    ("rank = 1\ncoins = 0\nours = [\"coins\"]", "rank = 1\ncoins = 0\nours = \"coins\"", "ours = \"coins\"",
     "trader 1: ours: Input should be a valid list"),
    ('seat = "box"', 'seat = "9box"', 'seat = "9box"',
     "ticket 1: seat: String should match pattern '^[A-Za-z][A-Za-z0-9 _-]*$'"),
    ('seat = "box"', "seat = 3", "seat = 3", "ticket 1: seat: Input should be a valid string"),
    ("coins = 3\ncount = 2\nours", "coins = 3\ncount = -1\nours", "count = -1",
     "ticket 1: count: Input should be greater than or equal to 0"),
    ('key = "pleb"', 'key = "Pleb"', 'key = "Pleb"', "visitor 5: key: String should match pattern '^[a-z][a-z0-9_]*$'"),
    ('name = "Pleb"', "name = 4", "name = 4", "visitor 5: name: Input should be a valid string"),
    ("count = 1\ncaesar = true", 'count = 1\ncaesar = "yes"', 'caesar = "yes"',
     "visitor 6: caesar: Input should be a valid boolean"),
    ("count = 1\ncaesar = true", "count = 4\ncaesar = true", "count = 4",
     "visitor 6: count: there is exactly one Caesar card (count = 1)"),
    ('key = "pleb"\nname = "Pleb"\ncoins = 1\ncount = 3',
     'key = "pleb"\nname = "Pleb"\ncoins = 1\ncount = 3\ncaesar = true',
     ("caesar = true", 2), "visitor: exactly one entry must have caesar = true, found 2"),
    ('key = "legionnaire"\nname = "Legionnaire"\ncoins = 2\ncount = 3',
     'key = "legionnaire"\nname = "Legionnaire"\ncoins = 2\ncount = 1\ncaesar = true', ("caesar = true", 2),
     "visitor: exactly one entry must have caesar = true, found 2"),
    ('key = "extra_trader"\ncoins = 2', 'key = "extra_trader"\ncoins = 2\npays = 1', "pays = 1",
     "favour 2: pays: only the 'legionnaire' favour has 'pays'"),
    ("pays = 6", "pays = -6", "pays = -6", "favour 3: pays: Input should be greater than or equal to 0"),
    ("[[trader]]\nrank = 1\n", "[[trader]]\nrank = 1\nrank = 2\n", ("rank = 2", 1), "Cannot overwrite a value"),
]
SYNTAX = "Cannot overwrite a value"  # a TOML syntax error: its column and "not valid TOML" come with it


@pytest.mark.parametrize("old,new,at,problem", MALFORMED)
def test_malformed_entries_are_reported_with_their_line(old, new, at, problem):
    assert old in SHIPPED, old
    bad = SHIPPED.replace(old, new, 1)
    line = _nth_line(bad, *at) if isinstance(at, tuple) else _line_of(bad, at)
    if problem == SYNTAX:
        assert re.fullmatch(rf"cards\.toml, line {line}, column \d+: not valid TOML: {problem}", _error(bad))
    else:
        assert _error(bad) == f"cards.toml, line {line}: {problem}"


def test_cross_entry_checks_name_the_line_of_the_entry_at_fault():
    # Caesar as the legionnaire: one Caesar, a legionnaire kind, but the same card
    bad = SHIPPED.replace('key = "caesar"', 'key = "legionnaire2"').replace(
        'key = "legionnaire"\nname = "Legionnaire"\ncoins = 2\ncount = 3',
        'key = "legionnaire3"\nname = "Legionnaire"\ncoins = 2\ncount = 3').replace(
        'key = "legionnaire2"', 'key = "legionnaire"')
    assert _error(bad) == (f"cards.toml, line {_nth_line(bad, 'caesar = true', 1)}: "
                           "visitor 6: the legionnaire cannot be the Caesar card")
    # a rank never given
    bad = SHIPPED.replace("rank = 5\ncoins = 2", "rank = 4\ncoins = 2").replace(
        "rank = 4\ncoins = 1\nours", "rank = 5\ncoins = 1\nours")
    assert parse_cards(bad).trader_coins == (0, 0, 1, 2, 1, 2, 3, 3)  # any order of entries will do
    bad = SHIPPED.replace("[[trader]]\nrank = 8\ncoins = 3\nours = [\"coins\"]\n", "")
    assert _error(bad) == f"cards.toml, line {_nth_line(bad, '[[trader]]', 1)}: trader: no entry for rank 8"
    # no ticket at all
    bad = SHIPPED.replace("count = 2\nexample = [\"coins\"]\nours = [\"count\"]\n\n[[ticket]]",
                          "count = 0\nexample = [\"coins\"]\nours = [\"count\"]\n\n[[ticket]]")
    bad = bad.replace("count = 2\nours = [\"coins\", \"count\"]\n\n[[ticket]]",
                      "count = 0\nours = [\"coins\", \"count\"]\n\n[[ticket]]")
    bad = bad.replace("count = 2\nexample = [\"coins\"]\nours = [\"count\"]\n\n# ----",
                      "count = 0\nexample = [\"coins\"]\nours = [\"count\"]\n\n# ----")
    assert _error(bad) == (f"cards.toml, line {_nth_line(bad, '[[ticket]]', 1)}: "
                           "ticket: there must be at least one ticket")
    # a favour left out
    bad = SHIPPED.replace('key = "move_ahead"', 'key = "rank_boost"').replace(
        'key = "rank_boost"', 'key = "double_sale"', 1)
    assert "listed twice" in _error(bad)


def test_missing_table_unknown_table_and_a_table_of_the_wrong_shape():
    without_favours = SHIPPED.split("# ---------------------------------------------------------------- favours")[0]
    assert _error(without_favours) == "cards.toml, line 1: favour: Field required"
    extra = SHIPPED + "\n[[gladiator]]\nname = 'x'\n"
    line = _nth_line(extra, "[[gladiator]]", 1)  # an unknown array of tables: its first header
    assert _error(extra) == f"cards.toml, line {line}: gladiator: Extra inputs are not permitted"
    not_a_list = "trader = 3\n" + SHIPPED.replace("[[trader]]", "[[old_trader]]")
    line = _nth_line(not_a_list, "[[old_trader]]", 1)  # the renamed tables are now unknown: named first
    assert _error(not_a_list) == f"cards.toml, line {line}: old_trader: Extra inputs are not permitted"
    rule = "# ---------------------------------------------------------------- "
    head, rest = SHIPPED.split(rule + "traders")
    no_traders = head + rule + rest.split(rule + "tickets")[1]
    not_a_list = "trader = 3\n" + no_traders
    assert _error(not_a_list) == "cards.toml, line 1: trader: Input should be a valid list"
    not_tables = "trader = [1, 2]\n" + no_traders
    assert _error(not_tables) == ("cards.toml, line 1: trader 1: "
                                  "Input should be a valid dictionary or instance of TraderEntry")


def test_a_loaded_file_is_the_same_card_data_as_before():
    """The models change how the file is checked, not what it means: values and masks as ever."""
    d = parse_cards(SHIPPED, "x.toml")
    assert d.source == "x.toml"
    assert d.trader_coins == (0, 0, 1, 1, 2, 2, 3, 3)
    assert [(t.key, t.venue, t.coins, t.count) for t in d.tickets][:2] == [("circus:box", 0, 3, 2),
                                                                         ("circus:arena", 0, 2, 2)]
    assert d.visitors[d.caesar_kind].key == "caesar" and d.visitors[d.legionnaire_kind].key == "legionnaire"
    assert d.ticket_masks[0] == 0b11 and d.venue_ticket_masks[0] == (1 << 6) - 1
    assert all(isinstance(v.caesar, bool) for v in d.visitors)
    assert dataclasses.replace(d, source=str(DEFAULT_PATH)) == load_cards()
