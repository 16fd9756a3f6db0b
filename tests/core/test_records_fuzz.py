"""Property: however a record of a real game is spoiled, replaying it either works or raises
RecordError/LudusError, and ``ludus replay`` exits 0 or 2 without a traceback.

Records of short seeded games between random players (every game, seeded, explicit chance
and from a start position) are changed in one to three places: a field deleted or replaced
by any JSON value (deep nesting and huge integers included), options, names, the result, an
action's seat, an action or one of its fields, the list of actions cut or reordered.
Set ``LUDUS_FUZZ_SCALE`` (e.g. 20) to try that many times more examples.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludus.cli.main import main
from ludus.core import records
from ludus.core.errors import LudusError
from ludus.core.game import State
from ludus.games import game_names, get_game

from .hostile_records import BIG, DEEP, HUGE, INF, NAN, base_records, nested, to_text

SCALE = int(os.environ.get("LUDUS_FUZZ_SCALE", "1"))
DELETE = object()
SPECIAL = [DEEP, HUGE, BIG, NAN, INF, 2**64, -(2**63) - 1, 10**40, nested(80), "/dev/zero", "/", "[/]"]
FIELDS = ("format", "version", "game", "options", "seed", "start", "players", "result", "actions")

leaves = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10), st.integers(), st.floats(), st.text(max_size=8),
    st.sampled_from(SPECIAL),
)
json_values = st.recursive(
    leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
values_or_delete = st.one_of(json_values, st.just(DELETE))


@cache
def bases() -> list[tuple[str, dict[str, Any]]]:
    return base_records()


def _put(container: Any, key: Any, value: Any) -> None:
    if value is DELETE:
        if isinstance(container, dict):
            container.pop(key, None)
        elif isinstance(container, list) and container:
            del container[key % len(container)]
    elif isinstance(container, dict):
        container[key] = value
    elif isinstance(container, list) and container:
        container[key % len(container)] = value


def mutate(data: st.DataObject, record: dict[str, Any]) -> None:
    """One change, drawn by hypothesis, made in place."""
    kind = data.draw(st.sampled_from(
        ["field", "option", "players", "result", "seat", "action", "action field", "actions", "swap"]))
    actions = record.get("actions") if isinstance(record.get("actions"), list) else []
    entries = [e for e in actions if isinstance(e, list) and len(e) == 2]
    if kind == "field":
        _put(record, data.draw(st.sampled_from(FIELDS)), data.draw(values_or_delete))
    elif kind == "option" and isinstance(record.get("options"), dict):
        game = record.get("game")
        names = [info.name for info in get_game(game).describe_options()] if game in game_names() else []
        name = data.draw(st.sampled_from([*names, "colour"]))
        _put(record["options"], name, data.draw(values_or_delete))
    elif kind == "players":
        players = list(record["players"]) if isinstance(record.get("players"), list) else []
        change = data.draw(st.sampled_from(["drop", "add", "replace"]))
        if change == "drop" and players:
            players.pop()
        elif change == "add":
            players.append(data.draw(st.text(max_size=10)))
        elif players:
            players[data.draw(st.integers(0, len(players) - 1))] = data.draw(json_values)
        record["players"] = players
    elif kind == "result":
        result = record.get("result")
        if isinstance(result, dict):
            key = data.draw(st.sampled_from(["scores", "winners", "extra"]))
            if key != "extra" and isinstance(result.get(key), list) and result[key] and data.draw(st.booleans()):
                _put(result[key], data.draw(st.integers(0, 10)), data.draw(st.one_of(st.integers(-2, 9), json_values)))
            else:
                _put(result, key, data.draw(values_or_delete))
    elif kind == "seat" and entries:
        entry = entries[data.draw(st.integers(0, len(entries) - 1))]
        entry[0] = data.draw(st.one_of(st.integers(-6, 9), json_values))
    elif kind == "action" and entries:
        i = data.draw(st.integers(0, len(entries) - 1))
        other = entries[data.draw(st.integers(0, len(entries) - 1))][1]
        entries[i][1] = data.draw(st.one_of(json_values, st.just(copy.deepcopy(other))))
    elif kind == "action field" and entries:
        action = entries[data.draw(st.integers(0, len(entries) - 1))][1]
        if isinstance(action, dict) and action:
            key = data.draw(st.sampled_from([*action, "zz"]))
            _put(action, key, data.draw(values_or_delete))
    elif kind == "actions" and actions:
        cut = data.draw(st.integers(0, len(actions)))
        record["actions"] = actions[:cut] if data.draw(st.booleans()) else actions[cut:]
    elif kind == "swap" and len(actions) > 1:
        i, j = data.draw(st.integers(0, len(actions) - 1)), data.draw(st.integers(0, len(actions) - 1))
        actions[i], actions[j] = actions[j], actions[i]


def spoiled(data: st.DataObject) -> str:
    _label, record = data.draw(st.sampled_from(bases()))
    record = copy.deepcopy(record)
    for _ in range(data.draw(st.integers(1, 3))):
        mutate(data, record)
    return to_text(record)


@settings(max_examples=800 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_replay_of_a_spoiled_record_works_or_refuses_it(data):
    text = spoiled(data)
    try:
        state = records.replay(records.loads(text), get_game)
    except LudusError:
        return
    assert isinstance(state, State)


@settings(max_examples=150 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_replay_command_on_a_spoiled_record_exits_0_or_2(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "record.json"
    path.write_text(spoiled(data), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        rc = main(["replay", str(path)])
    assert rc in (0, 2)
    text = out.getvalue()
    assert "Traceback" not in text
    assert rc == 0 or "Error:" in text


def test_every_base_record_replays():
    """The records spoiled above are valid to begin with."""
    for label, record in bases():
        state = records.replay(records.loads(json.dumps(record)), get_game)
        assert state.is_terminal(), label
