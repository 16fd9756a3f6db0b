"""Gorus Maximus data files: the shipped cards and CF table, and every refusal naming file and line."""

from __future__ import annotations

import re

import pytest

from ludus.core.datafile import MiB
from ludus.core.errors import DataError, InvalidOptions
from ludus.games.gorus_maximus import cards
from ludus.games.gorus_maximus.cards import SCHOOLS, SETUP_ROWS, CrowdFavourTable, School, SetupRow, load_cf_table
from ludus.games.gorus_maximus.game import GAME

CARDS = cards._shipped("cards.toml")
CF = cards._shipped("crowd_favour.toml")


def _line(text: str, needle: str, occurrence: int = 1) -> int:
    """The line of the ``occurrence``-th line of ``text`` that starts with ``needle``; "" is line 1."""
    if not needle:
        return 1
    found = [n for n, line in enumerate(text.splitlines(), 1) if line.startswith(needle)]
    return found[occurrence - 1]


def _cards_error(text: str) -> str:
    with pytest.raises(DataError) as err:
        cards._parse_cards(text, "cards.toml")
    return str(err.value)


def _cf_error(tmp_path, text: str, name: str = "cf.toml") -> tuple[str, str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_cf_table(str(path))
    return str(err.value), str(path)


# ----------------------------------------------------------------- the shipped files
def test_the_shipped_cards_are_what_the_engine_always_had():
    ranks = (0, 4, 5, 6, 7, 8, 9, 10, 11, 12)
    assert (
        School(0, "BF", "Blue Fists", "blue", "✊"), School(1, "BS", "Brown Swords", "brown", "⚔"),
        School(2, "GA", "Green Arrows", "green", "➶"), School(3, "PA", "Pink Axes", "pink", "⚒"),
        School(4, "YS", "Yellow Shields", "yellow", "⛨"),
    ) == SCHOOLS
    assert (
        SetupRow((1, 2, 3), 3, ranks), SetupRow((4,), 4, ranks), SetupRow((5,), 5, ranks),
        SetupRow((6,), 5, (0, 3, *ranks[1:], 13)), SetupRow((7,), 5, (0, 2, 3, *ranks[1:], 13, 14)),
        SetupRow((8,), 5, tuple(range(16))),
    ) == SETUP_ROWS
    assert all(type(x) is int for row in SETUP_ROWS for x in (*row.players, row.schools, *row.ranks))
    assert cards._parse_cards(CARDS, "x.toml") == (SCHOOLS, SETUP_ROWS)


def test_the_shipped_cf_table_is_what_the_engine_always_had():
    table = load_cf_table("")
    assert (table.by_rank, table.preferred_zero, table.source, table.own) == (
        (0, -1, -1, -1, 0, 0, 0, 0, -4, 2, 1, 1, 1, 1, 1, 1), 5, "crowd_favour.toml", False)


def test_the_shipped_cf_table_says_where_each_value_comes_from():
    """The English rulebook's text states the 0s (5 for the preferred one), the 8 (-4) and the 10
    (+1); its example bout (Blue 4, Blue 10, Green 10 worth 2) gives the 4 as 0; the rest is ours."""
    table = load_cf_table("")
    printed = {r for r, o in enumerate(table.origins) if o == "printed"}
    example = {r for r, o in enumerate(table.origins) if o == "example"}
    assert printed == {0, 8, 10} and example == {4}
    assert table.provisional == frozenset(range(16)) - printed
    assert all(table.notes[r] for r in range(16))  # every value says why it is what it is
    assert (table.by_rank[0], table.preferred_zero, table.by_rank[8], table.by_rank[10]) == (0, 5, -4, 1)
    assert table.by_rank[4] + 2 * table.by_rank[10] == 2  # the example bout's 2 Crowd Favour
    # the rulebook's tally (1+1+2+1+2+1, less 4) needs +1, +2 and -4 cards in a 3-5 player deck
    assert {1, 2, -4} <= {table.by_rank[r] for r in (0, 4, 5, 6, 7, 8, 9, 10, 11, 12)}


def test_a_user_cf_table_loads_with_defaults(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("[cf]\n" + "\n".join(f"{r} = {r - 8}" for r in range(16)) + "\n", encoding="utf-8")
    table = load_cf_table(str(path))
    assert table == CrowdFavourTable(tuple(range(-8, 8)), 5, ("printed",) * 16, str(path), ("",) * 16, True)
    assert all(type(v) is int for v in table.by_rank)
    assert table.data_values(tuple(range(16))) == []  # a player's own values are theirs, not ours


def test_a_cf_table_may_say_where_each_value_comes_from(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("[cf]\n" + "\n".join(f"{r} = 0" for r in range(16))
                    + '\n[source]\n3 = "example"\n9 = "ours"\n[note]\n9 = "why"\n'
                    + "[provisional]\nranks = [11]\n", encoding="utf-8")
    table = load_cf_table(str(path))
    assert table.origins[3] == "example" and table.origins[9] == table.origins[11] == "ours"
    assert table.notes[9] == "why" and table.provisional == {3, 9, 11}
    for bad, problem in (('[source]\n3 = "guess"', "source"), ('[source]\n16 = "ours"', "source"),
                         ("[note]\n3 = 4", "note")):
        path.write_text("[cf]\n" + "\n".join(f"{r} = 0" for r in range(16)) + "\n" + bad + "\n",
                        encoding="utf-8")
        with pytest.raises(DataError, match=problem):
            cards._parse_cf(path.read_text(encoding="utf-8"), "mine.toml", "mine.toml", own=True)


# ----------------------------------------------------------------- CF table refusals
# (text to change, its replacement, the start of the line the message names, the problem)
CF_MALFORMED = [
    ("1 = -1", "1 = 'x'", "1 = 'x'", "cf: 1: Input should be a valid integer"),
    ("1 = -1", "1 = true", "1 = true", "cf: 1: Input should be a valid integer"),
    ("1 = -1", "1 = 1.5", "1 = 1.5", "cf: 1: Input should be a valid integer"),
    ("1 = -1", '1 = "-1"', '1 = "-1"', "cf: 1: Input should be a valid integer"),
    ("3 = -1\n", "", "[cf]", "cf: 3: Field required"),
    ("15 = 1", "15 = 1\n16 = 2", "16 = 2", "cf: 16: Extra inputs are not permitted"),
    ("15 = 1", "15 = 1\nx = 2", "x = 2", "cf: x: Extra inputs are not permitted"),
    ("[cf]", "[crowd]", "[crowd]", "crowd: Extra inputs are not permitted"),  # a misnamed table: named itself
    ("preferred_zero = 5", "preferred_zero = true", "preferred_zero",
     "preferred_zero: Input should be a valid integer"),
    ("preferred_zero = 5", "preferred_zero = '5'", "preferred_zero", "preferred_zero: Input should be a valid integer"),
    ('1 = "ours"', '1 = "guess"', '1 = "guess"', "source: 1: Input should be 'printed', 'example' or 'ours'"),
    ('1 = "ours"', "1 = 3", "1 = 3", "source: 1: Input should be 'printed', 'example' or 'ours'"),
    ('15 = "ours"', '15 = "ours"\n16 = "ours"', '16 = "ours"', "source: 16: Extra inputs are not permitted"),
    ('4 = "the', "4 = 5\n#", "4 = 5", "note: 4: Input should be a valid string"),
    ("[source]\n", "[source]\nx = 'ours'\n", "x = 'ours'", "source: x: Extra inputs are not permitted"),
    ("[source]\n", "[extra]\na = 1\n[source]\n", "[extra]", "extra: Extra inputs are not permitted"),
    ("[source]\n", "[provisional]\nranks = [1, 16]\n[source]\n", "ranks",
     "provisional: ranks 2: Input should be less than or equal to 15"),
    ("[source]\n", "[provisional]\nranks = [1]\nnote = 'x'\n[source]\n", "note = 'x'",
     "provisional: note: Extra inputs are not permitted"),
    ("preferred_zero = 5", "preferred_zero = 5\ncf = 3", "cf = 3", "Cannot overwrite a value"),
]


@pytest.mark.parametrize("old,new,at,problem", CF_MALFORMED)
def test_a_bad_cf_table_names_file_line_and_problem(tmp_path, old, new, at, problem):
    assert old in CF, old
    bad = CF.replace(old, new, 1)
    message, path = _cf_error(tmp_path, bad)
    if problem == "Cannot overwrite a value":  # a TOML syntax error: with its column
        where = rf"{re.escape(str(path))}, line {_line(bad, '[cf]')}, column \d+"
        assert re.fullmatch(rf"{where}: not valid TOML: {problem}", message), message
        return
    line = 1 if not at else _line(bad, at)
    assert message == f"{path}, line {line}: {problem}"


def test_a_cf_syntax_error_names_its_line(tmp_path):
    message, path = _cf_error(tmp_path, "preferred_zero = 5\n[cf\n")
    assert message.startswith(f"{path}, line 2, column ") and "not valid TOML: Expected ']'" in message


def test_a_bad_cf_file_is_refused_as_an_option_with_file_and_line(tmp_path):
    path = tmp_path / "opt.toml"
    path.write_text("[cf]\n0 = 0\n1 = 'x'\n", encoding="utf-8")
    with pytest.raises(InvalidOptions) as err:
        GAME.parse_options({"players": 4, "cf_table": str(path)})
    assert str(err.value) == f"cf-table: {path}, line 3: cf: 1: Input should be a valid integer"


def test_the_cf_file_is_still_read_within_its_limits(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text(CF + "#" * MiB, encoding="utf-8")
    with pytest.raises(DataError, match=r"^CF table .*big\.toml is too large \(over 1 MiB\)$"):
        load_cf_table(str(big))
    with pytest.raises(DataError, match=r"^cannot read CF table .*: it is a directory$"):
        load_cf_table(str(tmp_path))
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b"# caf\xe9\n[cf]\n")
    with pytest.raises(DataError, match=r"^CF table .*latin\.toml, line 1: not UTF-8 text$"):
        load_cf_table(str(latin))


# ----------------------------------------------------------------- cards.toml refusals
CARDS_MALFORMED = [
    # checked by the model
    ('code = "GA"', 'code = "ga"', ('code = "ga"', 1), "school 3: code: String should match pattern '^[A-Z]{2}$'"),
    ('code = "GA"', 'code = "GAX"', ('code = "GAX"', 1), "school 3: code: String should match pattern '^[A-Z]{2}$'"),
    ('code = "GA"', "code = 7", ("code = 7", 1), "school 3: code: Input should be a valid string"),
    ('name = "Pink Axes"', 'name = " Pink"', ('name = " Pink"', 1),
     "school 4: name: String should match pattern '^\\S'"),
    ('name = "Pink Axes"', 'name = ""', ('name = ""', 1), "school 4: name: String should have at least 1 character"),
    ('colour = "pink"', 'colour = "red"', ('colour = "red"', 1),
     "school 4: colour: Input should be 'blue', 'brown', 'green', 'pink' or 'yellow'"),
    ('icon = "⚒"', 'icon = ""', ('icon = ""', 1), "school 4: icon: String should have at least 1 character"),
    ('icon = "⚒"', 'icon = "⚒"\nshape = "axe"', ('shape', 1), "school 4: shape: Extra inputs are not permitted"),
    ('colour = "pink"\n', "", ("[[school]]", 4), "school 4: colour: Field required"),
    ("players = [4]", "players = [9]", ("players = [9]", 1),
     "setup 2: players 1: Input should be less than or equal to 8"),
    ("players = [4]", "players = [0]", ("players = [0]", 1),
     "setup 2: players 1: Input should be greater than or equal to 1"),
    ("players = [4]", "players = [true]", ("players = [true]", 1),
     "setup 2: players 1: Input should be a valid integer"),
    ("players = [4]", "players = []", ("players = []", 1),
     "setup 2: players: List should have at least 1 item after validation, not 0"),
    ("players = [4]\nschools = 4", "players = [4]\nschools = 6", ("schools = 6", 1),
     "setup 2: schools: Input should be less than or equal to 5"),
    ("players = [4]\nschools = 4", 'players = [4]\nschools = "4"', ('schools = "4"', 1),
     "setup 2: schools: Input should be a valid integer"),
    ("players = [8]\nschools = 5\nranks = [0, 1,", "players = [8]\nschools = 5\nranks = [0, 16,", ("ranks = [0, 16", 1),
     "setup 6: ranks 2: Input should be less than or equal to 15"),
    ("players = [4]", "players = [4]\nrounds = 3", ("rounds", 1), "setup 2: rounds: Extra inputs are not permitted"),
    # an unknown array of tables: the line of its first header
    ("[[setup]]\nplayers = [4]", "[[stage]]\nplayers = [4]", ("[[stage]]", 1), "stage: Extra inputs are not permitted"),
    # checked by code after the model
    ('code = "GA"', 'code = "BF"', ('code = "BF"', 2), "school 3: code: 'BF' is already school 1's"),
    ("players = [4]", "players = [3, 4]", ("players = [3, 4]", 1), "setup 2: 3 players already have setup 1"),
    ("players = [5]", "players = [4]", ("players = [4]", 2), "setup 3: 4 players already have setup 2"),
    ("players = [8]\nschools = 5\nranks = [0, 1,", "players = [8]\nschools = 5\nranks = [0, 0,", ("ranks = [0, 0", 1),
     "setup 6: ranks: a rank is listed twice"),
    ("players = [8]\nschools = 5\nranks = [0, 1, 2,", "players = [8]\nschools = 5\nranks = [0, 1,",
     ("ranks = [0, 1, 3", 1), "setup 6: 5 schools of 15 ranks make 75 cards, too few to deal 80"),
    ("players = [1, 2, 3]\nschools = 3", "players = [1, 2, 3]\nschools = 2", ("ranks", 1),
     "setup 1: 2 schools of 10 ranks make 20 cards, too few to deal 30"),
    ("[[setup]]\nplayers = [7]\nschools = 5\nranks = [0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]\n", "",
     ("[[setup]]", 1), "no [[setup]] for 7 player(s)"),
]


@pytest.mark.parametrize("old,new,at,problem", CARDS_MALFORMED)
def test_bad_cards_toml_names_line_and_problem(old, new, at, problem):
    assert old in CARDS, old
    bad = CARDS.replace(old, new, 1)
    message = _cards_error(bad)
    assert message == f"cards.toml, line {_line(bad, *at)}: {problem}"


def test_the_number_of_schools_is_checked_with_a_line():
    sixth = '[[school]]\ncode = "RN"\nname = "Red Nets"\ncolour = "blue"\nicon = "x"\n\n'
    bad = CARDS.replace("# Deck by player count", sixth + "# Deck by player count")
    assert _cards_error(bad) == f"cards.toml, line {_line(bad, '[[school]]', 6)}: must list 5 schools, not 6"
    fifth = CARDS.index("[[school]]\ncode = \"YS\"")
    bad = CARDS[:fifth] + CARDS[CARDS.index("# Deck by player count"):]
    assert _cards_error(bad) == f"cards.toml, line {_line(bad, '[[school]]', 4)}: must list 5 schools, not 4"


def test_missing_tables_and_syntax_errors_are_refused_with_a_line():
    assert _cards_error(CARDS.split("# Deck by player count")[0]) == "cards.toml, line 1: setup: Field required"
    bad = CARDS.replace('code = "PA"', 'code = "PA')
    message = _cards_error(bad)
    line = _line(bad, 'code = "PA')
    where = rf"cards\.toml, line {line}, column \d+"
    assert re.fullmatch(rf"{where}: not valid TOML: Illegal character '\\n'", message), message
