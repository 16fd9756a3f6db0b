"""The tutorial framework (ludus.core.tutorial): scripts are checked when they load, and judged moves change nothing.

A small Gladius script serves as the example: two cards each and a first draw, then a reading
step, an attack and a defence (with attacks optional, so that "no attack" is a move to judge).
Each broken variant of it must be refused with a DataError that names where it broke, never
half-loaded.
"""

from __future__ import annotations

import pytest

from ludus.core.errors import DataError, LudusError, RecordError
from ludus.core.tutorial import Tutorial, load_tutorial, tutorial_json
from ludus.games import get_game

HEAD = '''
title = "A tiny lesson"
intro = "Two fighters, three steps."
outro = "That is all."
names = ["Aulus", "Marcus"]
options = {attack = "optional"}
'''
DEAL = '''
[[steps]]
before = [
  [-1, {draw = "both/Pommel", seat = 0}], [-1, {draw = "secutor/Shield Block", seat = 1}],
  [-1, {draw = "both/Dodge", seat = 0}], [-1, {draw = "both/Kick", seat = 1}],
  [-1, {draw = "both/Disarm", seat = 0}],
]
say = "Read this, then go on."
'''
ATTACK = '''
[[steps]]
say = "Attack with the Pommel."
expect = {attack = "both/Pommel"}
other = "This lesson wants the Pommel."
wrong = {attack = "both/Knockdown"}
wrong_say = "Try a card you do not hold."
after = "You attacked."
'''
DEFEND = '''
[[steps]]
before = [[1, {defend = "secutor/Shield Block"}], [-1, {draw = "both/Duck", seat = 1}], [1, {attack = "both/Kick"}]]
say = "Dodge the Kick."
expect = {defend = "both/Dodge"}
after = "You dodged."
'''
GOOD = HEAD + DEAL + ATTACK + DEFEND


def load(text: str) -> Tutorial:
    return load_tutorial(get_game("gladius"), text, "lesson.toml")


def refusal(text: str) -> str:
    with pytest.raises(DataError) as info:
        load(text)
    return str(info.value)


def test_a_good_script_loads_with_a_state_per_step():
    t = load(GOOD)
    assert len(t) == 3 and t.seat == 0
    assert t.names() == ["You", "Marcus"]
    assert t.state_at(0).current_seats() == (0,)  # the learner's first decision waits at the reading step
    assert len(t.state_at(2).history) == len(t.state_at(1).history) + 1 + 3
    assert t.expected(0) is None and t.expected(1) is not None
    data = tutorial_json(t)
    assert data["steps"] == 3 and data["names"] == ["You", "Marcus"] and data["seat"] == 0
    assert data["title"] == "A tiny lesson" and data["options"] == {"attack": "optional"}


def test_attempts_are_judged_done_refused_or_other():
    t = load(GOOD)
    done = t.attempt(1, {"attack": "both/Pommel"})
    assert (done.kind, done.message) == ("done", "You attacked.")
    refused = t.attempt(1, {"attack": "both/Knockdown"})
    assert refused.kind == "refused" and "do not hold" in refused.message
    other = t.attempt(1, {"attack": None})
    assert (other.kind, other.message) == ("other", "This lesson wants the Pommel.")
    without_text = t.attempt(2, {"defend": None})
    assert without_text.kind == "other" and without_text.message  # a default answer when the step has no 'other'
    reading = t.attempt(0, {"attack": "both/Pommel"})
    assert reading.kind == "other" and "read" in reading.message.lower()


def test_a_malformed_move_from_a_client_is_a_record_error():
    t = load(GOOD)
    for raw in ({"attack": 7}, {"fly": "away"}, "attack", None, {"attack": "Pommel"}):
        with pytest.raises(RecordError):
            t.attempt(1, raw)


def test_states_are_copies():
    t = load(GOOD)
    first = t.state_at(1)
    first.apply(t.expected(1), 0)  # the caller's copy moves on ...
    again = t.state_at(1)
    assert len(again.history) == len(first.history) - 1  # ... the tutorial's does not
    assert again.current_seats() == (0,)
    assert t.attempt(1, {"attack": "both/Pommel"}).kind == "done"
    final = t.final_state()
    assert len(final.history) == len(t.state_at(2).history) + 1  # the last step's move, played
    final.apply(final.chance_outcomes()[0][0], -1)  # the next draw
    assert len(t.final_state().history) == len(final.history) - 1


def test_a_step_outside_the_script_is_refused():
    t = load(GOOD)
    for step in (-1, 3, 99):
        with pytest.raises(LudusError):
            t.state_at(step)


@pytest.mark.parametrize(("text", "words"), [
    ("title = [", ["lesson.toml", "not valid TOML"]),
    ('title = "x"\nintro = "y" z', ["lesson.toml", "line 2", "not valid TOML"]),
    (GOOD.replace('say = "Dodge the Kick."', 'sya = "Dodge the Kick."'), ["lesson.toml", "steps 3", "sya"]),
    (GOOD.replace('outro = "That is all."', 'outro = "That is all."\ncolour = "red"'), ["colour"]),
    (GOOD.replace('expect = {defend = "both/Dodge"}', 'expect = {defend = "both/Leap"}'),
     ["step 3", "expected move"]),
    (GOOD.replace('wrong = {attack = "both/Knockdown"}', 'wrong = {attack = "both/Pommel"}'),
     ["step 2", "'wrong'", "legal"]),
    (GOOD.replace('wrong = {attack = "both/Knockdown"}', 'wrong = {attack = 5}'), ["step 2", "'wrong'"]),
    (HEAD + DEAL.replace('say = "Read this, then go on."', 'say = "Read."\nwrong = {attack = "both/Kick"}'),
     ["step 1", "'wrong' needs an 'expect'"]),
    (GOOD.replace('[-1, {draw = "both/Duck", seat = 1}]', '[-1, {draw = "both/Duck", seat = 0}]'),
     ["step 3", "scripted move 2"]),
    (GOOD.replace('[1, {attack = "both/Kick"}]', '[1, {attack = "both/Kick"}], [1, {attack = "both/Kick"}]'),
     ["step 3", "scripted move 4"]),
    (HEAD + DEAL + ATTACK + '[[steps]]\nsay = "Defend."\nexpect = {defend = "both/Dodge"}\n',
     ["step 3", "not the learner's turn"]),
    (GOOD.replace('names = ["Aulus", "Marcus"]', 'names = ["Aulus", "Marcus"]\nseat = 5'), ["seat 5"]),
    (GOOD.replace('names = ["Aulus", "Marcus"]', 'names = ["Aulus"]'), ["names", "2 seats"]),
    (GOOD.replace('intro = "Two fighters, three steps."', 'intro = ""'), ["intro"]),
    (HEAD, ["steps"]),
    (GOOD.replace('options = {attack = "optional"}', 'options = {attack = "optional", hand_limit = 0}'),
     ["hand"]),
])
def test_a_broken_script_is_refused_naming_where(text: str, words: list[str]):
    message = refusal(text)
    for word in words:
        assert word in message, (word, message)
    assert "Traceback" not in message
def test_a_script_writes_null_as_the_string_null():
    """TOML has no null: inside a move, "null" stands for it (Gladius's no attack)."""
    t = load(HEAD + DEAL + '[[steps]]\nsay = "Pass."\nexpect = {attack = "null"}\nafter = "You passed."\n')
    assert t.steps[1].expect == {"attack": None}
    assert t.attempt(1, {"attack": None}).kind == "done"
    with pytest.raises(RecordError):
        t.attempt(1, {"attack": "null"})
