"""The Gorus Arena card list: a malformed cards.toml is refused naming the file, the line and the problem."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from ludus.core.errors import DataError
from ludus.games.gorus_arena.cards import KINDS, CardKind, parse_catalogue

SMALL = """\
# a small card list; line numbers matter to the tests below
[[gladiator]]
key = "slave"
name = "Slave"
basic = 1
cost = 0
defence = 1
points = 0
strength = 1
actions = ["recruit"]

[[gladiator]]
key = "murmillo"
copies = 4
cost = 4
defence = 4
points = 3
strength = 3
actions = ["defence"]

[[action]]
key = "sword"
copies = 4
cost = 1
strength = 4
actions = ["attack"]
"""


def refused(text: str) -> str:
    with pytest.raises(DataError) as err:
        parse_catalogue(text, "my-cards.toml")
    return str(err.value)


def test_the_shipped_list_is_the_catalogue():
    text = resources.files("ludus.games.gorus_arena").joinpath("data", "cards.toml").read_text(encoding="utf-8")
    assert parse_catalogue(text) == KINDS
    assert sum(k.copies for k in KINDS if not k.gladiator) == 16


def test_a_small_list_loads_with_its_defaults():
    slave, murmillo, sword = parse_catalogue(SMALL)
    assert slave == CardKind(key="slave", name="Slave", gladiator=True, cost=0, defence=1, points=0, strength=1,
                             actions=("recruit",), basic=1, copies=0, note="")
    assert murmillo.name == "murmillo"  # no name: the key
    assert murmillo.basic == 0 and murmillo.copies == 4
    assert sword == CardKind(key="sword", name="sword", gladiator=False, cost=1, defence=0, points=0, strength=4,
                             actions=("attack",), basic=0, copies=4, note="")


# (what to change, into what, the line named, what the message must say)
CASES = [
    # TOML syntax
    ('cost = 4\n', 'cost = \n', 15, r"^my-cards\.toml, line 15, column \d+: not valid TOML: Invalid value"),
    # the key
    ('key = "murmillo"\n', '', 12, r"gladiator 2: key: Field required"),
    ('key = "murmillo"', 'key = ""', 13, r"gladiator 2: key: String should have at least 1 character"),
    ('key = "murmillo"', 'key = 7', 13, r"gladiator 2: key: Input should be a valid string"),
    ('key = "sword"', 'key = "slave"', 22, r"action 1 \('slave'\): key: used twice"),
    ('key = "murmillo"', 'key = "slave"', 13, r"gladiator 2 \('slave'\): key: used twice"),
    # the actions
    ('actions = ["attack"]', 'actions = []', 26, r"action 1: actions: List should have at least 1 item"),
    ('actions = ["attack"]', 'actions = "attack"', 26, r"action 1: actions: Input should be a valid list"),
    ('actions = ["attack"]', 'actions = ["attack", "income", "recruit"]', 26,
     r"action 1: actions: List should have at most 2 items"),
    ('actions = ["attack"]', 'actions = ["attack", "bribe"]', 26,
     r"action 1: actions 2: Input should be 'attack', 'defence', 'recruit' or 'income'"),
    ('actions = ["attack"]', 'actions = ["attack", "attack"]', 26,
     r"action 1 \('sword'\): actions: an action is listed twice"),
    ('actions = ["defence"]', 'actions = ["defence", "income"]', 19,
     r"gladiator 2 \('murmillo'\): actions: a defence card carries no other action"),
    ('actions = ["recruit"]\n', '', 2, r"gladiator 1: actions: Field required"),
    # whole numbers: type and range, field by field
    ('strength = 1\n', '', 2, r"gladiator 1: strength: Field required"),
    ('defence = 4\n', '', 12, r"gladiator 2: defence: Field required"),
    ('strength = 4\nactions = ["attack"]', 'actions = ["attack"]', 21, r"action 1: strength: Field required"),
    ('strength = 1', 'strength = 6', 9, r"gladiator 1: strength: Input should be less than or equal to 5"),
    ('strength = 4', 'strength = 0', 25, r"action 1: strength: Input should be greater than or equal to 1"),
    ('defence = 4', 'defence = 0', 16, r"gladiator 2: defence: Input should be greater than or equal to 1"),
    ('points = 3', 'points = 11', 17, r"gladiator 2: points: Input should be less than or equal to 10"),
    ('cost = 4', 'cost = -1', 15, r"gladiator 2: cost: Input should be greater than or equal to 0"),
    ('cost = 1', 'cost = 21', 24, r"action 1: cost: Input should be less than or equal to 20"),
    ('copies = 4\ncost = 1', 'copies = 21\ncost = 1', 23,
     r"action 1: copies: Input should be less than or equal to 20"),
    ('basic = 1', 'basic = 6', 5, r"gladiator 1: basic: Input should be less than or equal to 5"),
    ('cost = 4', 'cost = true', 15, r"gladiator 2: cost: Input should be a valid integer"),
    ('cost = 4', 'cost = 4.0', 15, r"gladiator 2: cost: Input should be a valid integer"),
    ('cost = 4', 'cost = "4"', 15, r"gladiator 2: cost: Input should be a valid integer"),
    ('points = 3', 'points = false', 17, r"gladiator 2: points: Input should be a valid integer"),
    ('strength = 4', 'strength = "4"', 25, r"action 1: strength: Input should be a valid integer"),
    # across fields and cards
    ('copies = 4\ncost = 4', 'copies = 4\nbasic = 1\ncost = 4', 14,
     r"gladiator 2 \('murmillo'\): copies: a basic card is not also sold in the market"),
    ('basic = 1\n', '', 2, r"no basic gladiators to start with"),
]

# refused only since the loader checks the file against a model
NEW_CASES = [
    ('name = "Slave"', 'name = "Slave"\ncolour = "red"', 5, r"gladiator 1: colour: Extra inputs are not permitted"),
    ('cost = 1', 'cost = 1\ndefence = 3', 25, r"action 1: defence: Extra inputs are not permitted"),
    ('cost = 1', 'cost = 1\nbasic = 1', 25, r"action 1: basic: Extra inputs are not permitted"),
    ('cost = 1', 'cost = 1\npoints = 2', 25, r"action 1: points: Extra inputs are not permitted"),
    ('# a small', 'title = "mine"\n# a small', 1, r"title: Extra inputs are not permitted"),
    # an unknown array of tables: the line of its first header
    ('[[action]]', '[[armour]]', 21, r"armour: Extra inputs are not permitted"),
    ('name = "Slave"', 'name = 3', 4, r"gladiator 1: name: Input should be a valid string"),
    ('name = "Slave"', 'note = ["a", "b"]', 4, r"gladiator 1: note: Input should be a valid string"),
    ('[[action]]', '[action]', 21, r"action: Input should be a valid list"),
    # which values the source text gives (the page marks every other one as ours)
    ('name = "Slave"', 'name = "Slave"\nprinted = ["colour"]', 5,
     r"gladiator 1: printed 1: Input should be 'name', 'cost', 'defence', 'points', 'strength' or 'actions'"),
    ('name = "Slave"', 'name = "Slave"\nprinted = ["name", "name"]', 5,
     r"gladiator 1 \('slave'\): printed: a field is listed twice"),
    ('cost = 1', 'cost = 1\nprinted = ["defence"]', 25,
     r"action 1 \('sword'\): printed: an action card has no defence or points"),
]


@pytest.mark.parametrize(("old", "new", "line", "problem"), CASES + NEW_CASES)
def test_a_malformed_list_names_the_file_the_line_and_the_problem(old, new, line, problem):
    assert old in SMALL
    message = refused(SMALL.replace(old, new, 1))
    assert message.startswith((f"my-cards.toml, line {line}: ", f"my-cards.toml, line {line}, column ")), message
    assert re.search(problem, message), message


def test_only_the_values_the_source_text_gives_are_marked_printed():
    """The text names three cards and gives two numbers: the Tired Fighter's defence of 2 and
    the Professional Gladiator's cost of 3; every other value is the project's (shown as ours)."""
    printed = {k.key: k.printed for k in KINDS if k.printed}
    assert printed == {"tired-fighter": ("name", "defence"), "slave": ("name",), "professional": ("name", "cost")}
    by_key = {k.key: k for k in KINDS}
    assert by_key["tired-fighter"].defence == 2 and by_key["professional"].cost == 3
    assert parse_catalogue(SMALL)[0].printed == ()  # left out: nothing comes from the text


def test_a_list_without_any_gladiator_names_the_first_line():
    message = refused(SMALL[SMALL.index("[[action]]"):])
    assert message == "my-cards.toml, line 1: no basic gladiators to start with (give one a 'basic' count)"
