"""Gorus Arena's compiled playouts play exactly the Python engine's games, in every mode."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("numba")

from ludus.core.game import CHANCE, State
from ludus.core.playout import playout
from ludus.core.rng import Rng
from ludus.games.gorus_arena.game import GAME
from ludus.games.gorus_arena.options import (
    ATTACK_TARGETS,
    AUCTIONS,
    DEFENCE_TIMINGS,
    REFILLS,
    STARTS,
    TIE_BREAKS,
    TIE_RESOLUTIONS,
    USED_CARDS,
    GorusArenaOptions,
)

from ..compiled_harness import assert_same_playout, assert_same_search, check_game, determinization, random_prefix

CUTS = (None, 0, 1, 7)
CHOICES: dict[str, tuple[Any, ...]] = {
    "auction": AUCTIONS,
    "defence_timing": DEFENCE_TIMINGS,
    "attack_targets": ATTACK_TARGETS,
    "free_plan": (False, True),
    "starting_player": STARTS,
    "tie_resolution": TIE_RESOLUTIONS,
    "tie_break": TIE_BREAKS,
    "armoury": (True, False),
    "used_cards": USED_CARDS,
    "refill": REFILLS,
}
"""Every option with a set of values (players, rounds and the first player are varied apart)."""


@pytest.fixture(scope="module")
def compiled() -> Any:
    playouts = GAME.compiled_playouts()
    assert playouts is not None
    return playouts


def _one_change(players: int) -> list[Any]:
    """The default game of ``players`` seats, and each option's other values one at a time."""
    base = GAME.parse_options({"players": players})
    out = [
        base,
        dataclasses.replace(base, rounds=1),
        dataclasses.replace(base, rounds=9),
        dataclasses.replace(base, first_player=players),
    ]
    for name, values in CHOICES.items():
        out.extend(dataclasses.replace(base, **{name: v}) for v in values if v != getattr(base, name))
    return out


def test_every_option_is_varied() -> None:
    """A new option must join CHOICES (or be varied apart) before these tests pass."""
    names = {f.name for f in dataclasses.fields(GorusArenaOptions)}
    assert names == set(CHOICES) | {"players", "rounds", "first_player"}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_option_plays_as_in_python(compiled: Any, players: int) -> None:
    options = _one_change(players)
    assert len(options) == 4 + sum(len(v) - 1 for v in CHOICES.values())
    decisions = check_game(compiled, GAME, options, 24, prefix=60, cuts=CUTS)
    assert decisions > 24 * len(options) * 5  # whole games compared, not empty ones


def test_mixed_options_play_as_in_python(compiled: Any) -> None:
    """Seeded random combinations of all the options at once (the full product has 18,432
    settings): interactions such as per-round auctions with team attacks and ties."""
    rng = Rng(2024)
    options = []
    for _ in range(200):
        players = 2 + rng.below(4)
        values = {name: vals[rng.below(len(vals))] for name, vals in CHOICES.items()}
        options.append(
            GAME.parse_options(
                {
                    "players": players,
                    "rounds": 1 + rng.below(8),
                    "first_player": 1 + rng.below(players),
                    **{name.replace("_", "-"): v for name, v in values.items()},
                }
            )
        )
    decisions = check_game(compiled, GAME, options, 5, prefix=80, cuts=CUTS)
    assert decisions > 200 * 5 * 5


def test_stored_games_legacy_options_play_as_in_python(compiled: Any) -> None:
    """Options of a stored game without the newer keys take their legacy values."""
    options = GAME.parse_stored_options({"players": 4, "attack-targets": "arena"})
    check_game(compiled, GAME, [options], 20, cuts=CUTS)


def _played(state: State, seed: int) -> Counter[str]:
    """The kinds of move and chance outcome the Python playout from ``state`` plays."""
    st = state.clone()
    before = len(st.history)
    playout(st, Rng(seed))
    return Counter(type(a).__name__ for _, a in st.history[before:])


@pytest.mark.parametrize("refill", REFILLS)
def test_market_refills_play_as_in_python(compiled: Any, refill: str) -> None:
    """Hands left empty take gladiators from the market (picked, or drawn at random): with
    used cards put away for good that happens every few rounds. The states are checked from
    every point of seeded games, picks included, and must have played such refills."""
    kinds: Counter[str] = Counter()
    checked = 0
    for players in (2, 3, 5):
        options = GAME.parse_options({"players": players, "used-cards": "leave", "refill": refill})
        for g in range(6):
            state = GAME.new_initial_state(options, seed=900 + g)
            rng = Rng(g)
            step = 0
            while state.current_seats():
                if step % 5 == 0 or state.picker() is not None:  # type: ignore[attr-defined]
                    seed = 7 * step + g
                    kinds += _played(state, seed)
                    assert_same_playout(compiled, state, seed, CUTS[step % len(CUTS)])
                    sample = determinization(state, seed)
                    if sample is not None:
                        assert_same_playout(compiled, sample, seed + 1)
                    checked += 1
                seat = state.current_seats()[0]
                legal = state.legal_actions(seat)
                state.apply(legal[rng.below(len(legal))], seat)
                step += 1
    assert checked > 150
    assert kinds["Pick" if refill == "choose" else "MarketDraw"] > 20
    assert kinds["Attack"] > 0 and kinds["Recruit"] > 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_explicit_chance_plays_as_in_python(compiled: Any, players: int) -> None:
    """A state without a generator of its own (chance explicit) takes its draws from the
    playout's generator, as ``sample_chance`` does in the Python playout."""
    for i, refill in enumerate(REFILLS * 12):
        options = GAME.parse_options({"players": players, "refill": refill, "used-cards": USED_CARDS[i % 2]})
        state = GAME.new_initial_state(options)
        rng = Rng(i + 100 * players)
        for _ in range(rng.below(70)):
            seats = state.current_seats()
            if not seats:
                break
            if seats[0] == CHANCE:
                state.apply(state.sample_chance(rng), CHANCE)
                continue
            legal = state.legal_actions(seats[0])
            state.apply(legal[rng.below(len(legal))], seats[0])
        assert state.rng is None
        assert_same_playout(compiled, state, 5 * i + 1, CUTS[i % len(CUTS)])


def test_pack_reads_the_state_and_leaves_it(compiled: Any) -> None:
    """Packing is canonical (equal states pack equal) and a compiled playout changes neither
    the state nor its generator."""
    state = GAME.new_initial_state(GAME.parse_options({"players": 4}), seed=3)
    packed = compiled.pack(state)
    for same in (state.clone(), GAME.state_from_json(state.to_json())):  # a copy, a stored position
        again = compiled.pack(same)
        assert len(again) == len(packed) and all((a == b).all() for a, b in zip(packed, again))
    before = (state.to_json(), len(state.history))
    rng = Rng(9)
    result = compiled.playout(state, rng)
    assert result is not None and result.finished and result.decisions > 0
    assert (state.to_json(), len(state.history)) == before
    assert rng.state != Rng(9).state
    for i in range(40):  # positions in every phase, stored and read back, pack the same
        options = GAME.parse_options({"players": 2 + i % 4, "used-cards": USED_CARDS[i % 2], "refill": "choose"})
        state = random_prefix(GAME, options, i, 90)
        stored = GAME.state_from_json(state.to_json())
        assert all((a == b).all() for a, b in zip(compiled.pack(state), compiled.pack(stored)))


@pytest.mark.parametrize("players", [2, 4])
def test_search_is_the_same_with_compiled_playouts(players: int) -> None:
    options = GAME.parse_options({"players": players})
    assert_same_search(GAME, options, views=3, iterations=40, rollout="random")
    assert_same_search(GAME, options, views=2, iterations=20, rollout="random", horizon=6)


def test_no_compiled_playouts_when_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDUS_COMPILED", "0")
    assert GAME.compiled_playouts() is None
