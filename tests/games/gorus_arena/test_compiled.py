"""Gorus Arena's compiled playouts play exactly the Python engine's games, in every mode."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("numba")

from ludus.agents.ismcts import level_budget
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

from ..compiled_harness import (
    assert_same_playout,
    assert_same_search,
    assert_same_tournament_games,
    check_agents,
    check_game,
    determinization,
    random_prefix,
)

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


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_heuristic_each_option_plays_as_in_python(compiled: Any, players: int) -> None:
    """The compiled heuristic chooses the Python heuristic's move at every decision (its plan
    order, its values to the last bit, its noise from the seat agent's own generator)."""
    options = _one_change(players)
    decisions = check_game(compiled, GAME, options, 30, prefix=60, cuts=CUTS, policy="heuristic")
    assert decisions > 30 * len(options) * 5


def test_heuristic_mixed_options_play_as_in_python(compiled: Any) -> None:
    """The heuristic over seeded random combinations of all the options at once."""
    rng = Rng(77)
    options = []
    for _ in range(160):
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
    decisions = check_game(compiled, GAME, options, 4, prefix=40, cuts=CUTS, policy="heuristic")
    assert decisions > 160 * 4 * 5


def test_heuristic_from_the_first_move_and_the_last(compiled: Any) -> None:
    """Whole heuristic games from the deal (every plan chosen by the bot), and a finished game
    that plays nothing."""
    for players in (2, 3, 4, 5):
        for seed in range(10):
            options = GAME.parse_options({"players": players, "rounds": 1 + seed % 9})
            state = GAME.new_initial_state(options, seed=seed)
            assert assert_same_playout(compiled, state, seed, None, "heuristic") > 0
    state = GAME.new_initial_state(GAME.parse_options({"players": 3}), seed=4)
    while state.current_seats():
        seat = state.current_seats()[0]
        state.apply(state.legal_actions(seat)[-1], seat)
    assert assert_same_playout(compiled, state, 1, None, "heuristic") == 0


def test_heuristic_values_are_the_pythons_to_the_bit(compiled: Any) -> None:
    """Every legal move's value, compiled, is the Python heuristic's float exactly (not only
    the same choice, which the noise would hide), and the plan places the same card, from
    positions of seeded games under mixed options."""
    import numpy as np

    from ludus.games.gorus_arena import compiled as module
    from ludus.games.gorus_arena.heuristic import GorusArenaHeuristic

    bot = GorusArenaHeuristic()
    rng = Rng(31)
    valued = planned = 0
    work = np.empty(2 * module.TABLE.shape[1] + 8 + module.W_BIDS, dtype=np.int64)
    for i in range(300):
        players = 2 + i % 4
        values = {name: vals[rng.below(len(vals))] for name, vals in CHOICES.items()}
        options = GAME.parse_options(
            {"players": players, "rounds": 1 + rng.below(8), **{k.replace("_", "-"): v for k, v in values.items()}}
        )
        state = random_prefix(GAME, options, i, 120)
        seats = state.current_seats()
        if not seats or seats[0] == CHANCE:
            continue
        seat = seats[0]
        view = state.view(seat)
        (st,) = compiled.pack(state)
        count = module._legal(st, module.TABLE, work, seat)
        assert count == len(view.legal_actions)
        codes = work[:count].copy()
        if state.phase == "plan":  # type: ignore[attr-defined]
            if count > 1:
                want = view.legal_actions.index(bot.plan(view))
                assert module._h_plan(st, module.TABLE, seat) == codes[want]
                planned += 1
            continue
        for code, action in zip(codes, view.legal_actions):
            assert module._h_value(st, module.TABLE, module.WEIGHTS, seat, code) == bot.value(view, action)
            valued += 1
    assert valued > 300 and planned > 30


def test_heuristic_without_agent_generators_is_refused_and_warm_up_brings_them(compiled: Any) -> None:
    """The heuristic draws from each seat's agent generator: a caller that brings none is refused
    (compiled code checks no bounds), and ``warm_up`` brings one per seat."""
    from ludus.core.compiled import warm_up

    assert warm_up(GAME) > 0
    state = random_prefix(GAME, GAME.parse_options({"players": 3}), 1, 30)
    with pytest.raises(ValueError, match="one agent generator per seat"):
        compiled.playout(state, Rng(1), "heuristic")


def _played(state: State, seed: int) -> Counter[str]:
    """The kinds of move and chance outcome the Python playout from ``state`` plays."""
    st = state.clone()
    before = len(st.history)
    playout(st, Rng(seed))
    return Counter(type(a).__name__ for _, a in st.history[before:])


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("refill", REFILLS)
def test_market_refills_play_as_in_python(compiled: Any, refill: str, policy: str) -> None:
    """Hands left empty take gladiators from the market (picked, or drawn at random): with
    used cards put away for good that happens every few rounds. The states are checked from
    every point of seeded games, picks included, and must have played such refills (the
    heuristic values each pick by what the card should bring)."""
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
                    assert_same_playout(compiled, state, seed, CUTS[step % len(CUTS)], policy)
                    sample = determinization(state, seed)
                    if sample is not None:
                        assert_same_playout(compiled, sample, seed + 1, None, policy)
                    checked += 1
                seat = state.current_seats()[0]
                legal = state.legal_actions(seat)
                state.apply(legal[rng.below(len(legal))], seat)
                step += 1
    assert checked > 150
    assert kinds["Pick" if refill == "choose" else "MarketDraw"] > 20
    assert kinds["Attack"] > 0 and kinds["Recruit"] > 0


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_explicit_chance_plays_as_in_python(compiled: Any, players: int, policy: str) -> None:
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
        assert_same_playout(compiled, state, 5 * i + 1, CUTS[i % len(CUTS)], policy)


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


@pytest.mark.parametrize(("level", "iterations"), [("easy", 50), ("hard", 150)])
def test_levels_search_the_same_with_compiled_playouts(level: str, iterations: int) -> None:
    """The game's own levels (heuristic rollouts) find the same statistics compiled.

    At ``iterations`` (the budgets these levels had before the compiled playouts) rather than the
    levels' own, whose Python side takes most of a minute a view; the tree's shape and settings
    are the level's."""
    budget = level_budget(level, GAME)
    assert budget.rollout == "heuristic" and budget.iterations > iterations
    settings = dataclasses.asdict(dataclasses.replace(budget, iterations=iterations))
    for players in (2, 3, 4, 5):
        assert_same_search(GAME, GAME.parse_options({"players": players}), views=2, **settings)


def test_no_compiled_playouts_when_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDUS_COMPILED", "0")
    assert GAME.compiled_playouts() is None


# ------------------------------------------------------------------ whole games of agents
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_agents_each_option(compiled: Any, players: int) -> None:
    """Tournament games (from the deal) of random and heuristic agents, every lineup, the
    default game and each option's other values: every move the agents' own, forced ones too."""
    options = _one_change(players)
    decisions = check_agents(compiled, GAME, options, 8)
    assert decisions > 8 * len(options) * 10 * players  # whole games compared


def test_agents_mixed_options(compiled: Any) -> None:
    """Seeded random combinations of all the options at once."""
    rng = Rng(4242)
    options = []
    for _ in range(120):
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
    assert check_agents(compiled, GAME, options, 4) > 120 * 4 * 20


@pytest.mark.parametrize("refill", REFILLS)
def test_agents_market_refills(compiled: Any, refill: str) -> None:
    """With used cards put away for good, empty hands refill from the market (a pick is the
    seat's agent's move); and agents that take over games after a random prefix."""
    options = [GAME.parse_options({"players": p, "used-cards": "leave", "refill": refill}) for p in (2, 3, 4, 5)]
    assert check_agents(compiled, GAME, options, 12) > 4 * 12 * 40
    assert check_agents(compiled, GAME, options, 8, prefix=80) > 4 * 8 * 10


@pytest.mark.parametrize(
    ("opts", "agents"),
    [({"players": 3}, "random,heuristic,heuristic"), ({"players": 2}, "heuristic*2"), ({"players": 5}, "random*5"),
     ({"players": 4, "auction": "per-round", "refill": "choose", "used-cards": "leave"},
      "heuristic,random,heuristic,random")],
)
def test_tournament_games_are_the_same_compiled(monkeypatch: pytest.MonkeyPatch, opts: dict[str, Any],
                                                agents: str) -> None:
    """``play_game`` gives the same results with the compiled agents as through the Python
    engine; with them it makes no Python agent at all."""
    fast = assert_same_tournament_games(monkeypatch, "gorus-arena", opts, agents, games=10, seed=8)
    assert sum(r.decisions for r in fast) > 100
