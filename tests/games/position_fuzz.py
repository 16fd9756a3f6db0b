"""Shared machinery of the per-game position fuzz tests (``tests/games/*/test_positions.py``).

A fuzz test starts from valid positions (seeded games played to random depths through the
public API, and finished games), changes one or two fields of the position JSON, and loads
the result. Loading must either give a position every method handles, or refuse it with
:class:`~ludus.core.errors.RecordError`; any other exception fails the test.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ludus.core.errors import RecordError
from ludus.core.game import CHANCE, Game, State
from ludus.core.rng import Rng

HUGE = (2**63, -1, -(2**63), 2**64, 2**1000, -(2**70))

FUZZ_SETTINGS = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.sampled_from(HUGE)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def _random_moves(state: State, rng: Rng, depth: int) -> State:
    """Up to ``depth`` random steps (chance sampled from ``rng`` too); stops early at the end."""
    for _ in range(depth):
        seats = state.current_seats()
        if not seats:
            break
        seat = seats[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


def play_to(game: Game, options: Any, seed: int, depth: int) -> State:
    """A seeded game after ``depth`` random moves (or finished, if it ends first)."""
    return _random_moves(game.new_initial_state(options, seed=seed), Rng(seed * 7919 + depth), depth)


def play_explicit(game: Game, options: Any, seed: int, depth: int) -> State:
    """A game with explicit chance (no seed), ``depth`` steps in: may stop at a chance node."""
    return _random_moves(game.new_initial_state(options, seed=None), Rng(seed), depth)


def key_paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path into a JSON value (the root excluded)."""
    out: list[tuple] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append(prefix + (k,))
            out += key_paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.append(prefix + (i,))
            out += key_paths(v, prefix + (i,))
    return out


def _parent(obj: Any, path: tuple) -> Any:
    for k in path[:-1]:
        obj = obj[k]
    return obj


def _get(obj: Any, path: tuple) -> Any:
    for k in path:
        obj = obj[k]
    return obj


MUTATIONS = ("delete", "replace", "plus", "minus", "huge", "swap", "duplicate", "second-place", "move", "bool")


@st.composite
def mutated(draw: Callable, positions: list[dict[str, Any]], rounds: int = 2) -> dict[str, Any]:
    """One of ``positions`` with one to ``rounds`` fields mutated."""
    pos = copy.deepcopy(positions[draw(st.integers(0, len(positions) - 1))])
    for _ in range(draw(st.integers(1, rounds))):
        paths = key_paths(pos)
        if not paths:
            break
        # most of the interesting fields sit under "state": weight them
        inner = [p for p in paths if p[0] == "state"]
        path = draw(st.sampled_from(inner if inner and draw(st.integers(0, 4)) else paths))
        kind = draw(st.sampled_from(MUTATIONS))
        parent = _parent(pos, path)
        key = path[-1]
        value = parent[key]
        if kind == "delete":
            del parent[key]
        elif kind == "replace":
            parent[key] = draw(JSON_VALUES)
        elif kind in ("plus", "minus"):
            if isinstance(value, int) and not isinstance(value, bool):
                parent[key] = value + (1 if kind == "plus" else -1)
            else:
                parent[key] = draw(st.sampled_from([0, 1, -1, 2]))
        elif kind == "huge":
            parent[key] = draw(st.sampled_from(HUGE))
        elif kind == "bool":
            parent[key] = draw(st.sampled_from([True, False, 0, 1]))
        elif kind == "swap":
            if isinstance(value, list) and len(value) >= 2:
                i = draw(st.integers(0, len(value) - 1))
                j = draw(st.integers(0, len(value) - 1))
                value[i], value[j] = value[j], value[i]
            elif isinstance(parent, list) and len(parent) >= 2:
                j = draw(st.integers(0, len(parent) - 1))
                parent[key], parent[j] = parent[j], parent[key]
        elif kind == "duplicate":
            if isinstance(value, list) and value:
                value.insert(draw(st.integers(0, len(value))), copy.deepcopy(draw(st.sampled_from(value))))
            elif isinstance(parent, list):
                parent.insert(draw(st.integers(0, len(parent))), copy.deepcopy(value))
        elif kind == "move":
            # take a scalar out of its list and put it into another list (a card moved elsewhere)
            lists = [p for p in paths if isinstance(_get(pos, p), list) and p != path[:-1]]
            if isinstance(parent, list) and not isinstance(value, (list, dict)) and lists:
                target = _get(pos, draw(st.sampled_from(lists)))
                del parent[key]
                target.insert(draw(st.integers(0, len(target))), value)
        elif kind == "second-place":
            # copy a scalar found in some list into another list (a card in two places)
            lists = [p for p in paths if isinstance(_get(pos, p), list)]
            if isinstance(parent, list) and not isinstance(value, (list, dict)) and lists:
                target = _get(pos, draw(st.sampled_from(lists)))
                target.insert(draw(st.integers(0, len(target))), value)
            elif isinstance(value, dict) and value:
                # a count map: one more copy of some kind
                k = draw(st.sampled_from(sorted(value, key=str)))
                if isinstance(value[k], int) and not isinstance(value[k], bool):
                    value[k] += 1
    return pos


def exercise(game: Game, state: State, seed: int, steps: int,
             invariant: Callable[[State], None] | None = None) -> None:
    """Use every method on a loaded state, then play up to ``steps`` random moves, checking
    each position reached the same way (a position that loads must be one the engine plays)."""
    rng = Rng(seed)
    n = game.num_seats(state.options)
    for step in range(steps + 1):
        if invariant is not None:
            invariant(state)
        text = json.dumps(state.to_json())
        again = game.state_from_json(json.loads(text))
        assert json.dumps(again.to_json()) == text, "to_json round trip changed the position"
        assert json.dumps(state.clone().to_json()) == text, "clone changed the position"
        for seat in [*range(n), None]:
            json.dumps(state.observation(seat).to_json())
        seats = state.current_seats()
        state.legal_actions()
        if not seats:
            assert state.is_terminal()
            state.winners(), state.scores(), state.returns()
            return
        state.scores()
        if step == steps:
            return
        for seat in seats:
            legal = state.legal_actions(seat)
            if seat != CHANCE:
                assert legal, f"seat {seat} is to move but has no legal action"
        seat = seats[rng.below(len(seats))]
        if seat == CHANCE:
            outcomes = state.chance_outcomes()
            assert outcomes, "a chance node without outcomes"
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            state.apply(rng.choice(state.legal_actions(seat)), seat)


def check_mutant(game: Game, pos: dict[str, Any], counts: Counter, seed: int, steps: int,
                 invariant: Callable[[State], None] | None = None) -> None:
    """Load a mutated position: a RecordError, or a state that survives :func:`exercise`."""
    try:
        state = game.state_from_json(json.loads(json.dumps(pos)))
    except RecordError as exc:
        assert str(exc)
        counts["refused"] += 1
        return
    counts["loaded"] += 1
    exercise(game, state, seed, steps, invariant)


def fuzz_positions(game: Game, positions: list[dict[str, Any]], examples: int, steps: int,
                   invariant: Callable[[State], None] | None = None) -> Counter:
    """Load ``examples`` mutants of ``positions`` (seeded, so every run tries the same ones) with
    :func:`check_mutant`; returns how many loaded and how many were refused."""
    counts: Counter = Counter()

    @settings(FUZZ_SETTINGS, max_examples=examples)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        pos = data.draw(mutated(positions))
        check_mutant(game, pos, counts, seed=data.draw(st.integers(0, 2**32)), steps=steps, invariant=invariant)

    run()
    return counts


def expect_refused(game: Game, pos: dict[str, Any], match: str) -> None:
    import pytest

    with pytest.raises(RecordError, match=match):
        game.state_from_json(pos)
