"""The compiled Gorus Maximus playouts play exactly the Python engine's games, in every mode.

Each check plays a state out both ways from the same generators and compares everything
(``tests/games/compiled_harness.py``): seeded states after a random prefix and determinizations
sampled from a seat's view (chance settled by the state's own generator, deals from one
shuffle), and states without a generator (chance drawn card by card from the playout's), with
cuts after 0, 1 and 7 decisions as well as whole games. Whole tournament games of the random and
heuristic agents (``check_agents``) are compared the same way, metrics and agents' generators
included, and ``play_game`` against the Python engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from ludus.core.game import CHANCE, State
from ludus.core.rng import Rng
from ludus.games.gorus_maximus.cards import PHASE_DEAL, PHASE_PLAY, PHASE_SCHOOLS
from ludus.games.gorus_maximus.game import GAME
from tests.games.compiled_harness import (
    assert_same_playout,
    assert_same_search,
    assert_same_tournament_games,
    check_agents,
    check_game,
)

CUTS = (None, 0, None, 1, None, 7)  # half the playouts to the end


@pytest.fixture(scope="module")
def compiled() -> Any:
    playouts = GAME.compiled_playouts()
    assert playouts is not None
    return playouts


def options(**values: Any) -> Any:
    return GAME.parse_options(values)


def _cf_file(tmp_path: Any, name: str, by_rank: list[int], preferred_zero: int) -> str:
    path = tmp_path / name
    rows = "\n".join(f"{r} = {v}" for r, v in enumerate(by_rank))
    path.write_text(f"preferred_zero = {preferred_zero}\n\n[cf]\n{rows}\n", encoding="utf-8")
    return str(path)


def unseeded_prefix(opts: Any, seed: int, max_steps: int) -> State:
    """A game without a generator of its own (chance is explicit), played on at random for up to
    ``max_steps`` steps, chance outcomes included."""
    rng = Rng(seed)
    state = GAME.new_initial_state(opts)
    assert state.rng is None
    for _ in range(rng.below(max_steps + 1)):
        seats = state.current_seats()
        if not seats:
            break
        if seats[0] == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            legal = state.legal_actions(seats[0])
            state.apply(legal[rng.below(len(legal))], seats[0])
    return state


def test_draws_and_shuffles_match_the_generator() -> None:
    """The module's own draw below n and deal shuffle are ``Rng.below`` and ``Rng.shuffle``
    exactly, for every length a deal can have, the generator left in the same state."""
    import numpy as np

    from ludus.games.gorus_maximus.compiled import _below, _shuffle

    for n in range(81):
        for seed in range(12):
            rng = Rng(seed * 7919 + n)
            rngs = np.array([rng.state, rng.state], dtype=np.uint64)
            seq = list(range(n))
            cards = np.arange(80, dtype=np.int64)
            _shuffle(rngs, cards, n)
            rng.shuffle(seq)
            assert list(cards[:n]) == seq and int(rngs[1]) == rng.state
            if n:
                assert _below(rngs, 0, n) == Rng(seed * 7919 + n).below(n)


def test_off_without_the_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDUS_COMPILED", "0")
    assert GAME.compiled_playouts() is None


@pytest.mark.parametrize("players", range(1, 9))
def test_every_player_count(compiled: Any, players: int) -> None:
    """Random schools where the player count draws them (1-4), all five from 5 on."""
    decisions = check_game(compiled, GAME, [options(players=players)], 150, prefix=70, cuts=CUTS)
    assert decisions > 150 * 10


@pytest.mark.parametrize(
    ("players", "schools"), [(1, "GA,PA,YS"), (2, "BF,BS,GA"), (3, "BF,PA,YS"), (4, "BF,BS,GA,YS")]
)
def test_fixed_schools(compiled: Any, players: int, schools: str) -> None:
    check_game(compiled, GAME, [options(players=players, schools=schools)], 60, prefix=40, cuts=CUTS)


@pytest.mark.parametrize(
    ("players", "teams", "team_target"),
    [
        (4, "2v2", 0),
        (5, "2v2v1", 0),
        (5, "3v2", 2),
        (6, "2v2v2", 0),
        (6, "ABCABC", 1),
        (7, "3v2v2", 0),
        (7, "2v2v2v1", 2),
        (8, "4v4", 0),
        (8, "2v2v2v2", 3),
    ],
)
def test_teams(compiled: Any, players: int, teams: str, team_target: int) -> None:
    opts = options(players=players, teams=teams, team_target=team_target)
    check_game(compiled, GAME, [opts], 60, prefix=50, cuts=CUTS)


@pytest.mark.parametrize("final_tie", ["shared", "play-on"])
def test_targets_dealers_and_final_ties(compiled: Any, final_tie: str) -> None:
    opts = [
        options(players=p, target=t, first_dealer=d, final_tie=final_tie, memory_aids=bool(d % 2))
        for p, t, d in [
            (1, 1, 0),
            (1, 5, -1),
            (2, 1, 1),
            (2, 4, 0),
            (3, 1, 2),
            (4, 2, 0),
            (5, 1, 3),
            (6, 6, 5),
            (8, 1, 7),
        ]
    ]
    check_game(compiled, GAME, opts, 40, prefix=60, cuts=CUTS)


def test_tiebreaks_with_own_crowd_favour_tables(compiled: Any, tmp_path: Any) -> None:
    """Tables that make ties common: everyone equal (the preferred 0 breaks the tie), and the
    preferred 0 a heavy loss (the rest tie, and the fewest cards or the final-tie rule decide)."""
    flat = _cf_file(tmp_path, "flat.toml", [0] * 16, 0)
    spoiler = _cf_file(tmp_path, "spoiler.toml", [0] * 16, -50)
    odd = _cf_file(tmp_path, "odd.toml", [3, -2, 0, 1, -1, 2, 0, 0, -7, 4, 1, 0, 2, -3, 5, 1], 9)
    opts = [
        options(players=p, cf_table=table, final_tie=tie, target=t, teams=teams)
        for table in (flat, spoiler, odd)
        for p, tie, t, teams in [
            (1, "shared", 2, ""),
            (2, "play-on", 2, ""),
            (3, "shared", 1, ""),
            (4, "play-on", 2, ""),
            (5, "play-on", 3, ""),
            (6, "shared", 3, "2v2v2"),
            (8, "play-on", 3, ""),
        ]
    ]
    check_game(compiled, GAME, opts, 25, prefix=60, cuts=CUTS)


@pytest.mark.parametrize("players", range(1, 9))
def test_states_without_a_generator(compiled: Any, players: int) -> None:
    """Chance drawn from the playout's generator card by card (and the schools by a weighted
    draw), from the very start of a game as well as from a random point of one."""
    decisions = 0
    for i in range(60):
        state = unseeded_prefix(options(players=players), 100 + i, 0 if i % 5 == 0 else 150)
        decisions += assert_same_playout(compiled, state, 9 * i + 2, CUTS[i % len(CUTS)])
    assert decisions > 60 * 5


def test_state_generator_after_an_unsettled_chance_node(compiled: Any) -> None:
    """A state with its own generator that still waits for chance: the playout draws the first
    outcome, then the state's generator settles the rest (deals from one shuffle)."""
    phases = set()
    for players in range(1, 9):
        for i in range(20):
            state = GAME._new_state(options(players=players), Rng(40 + i))
            if i % 2:  # a deal half done
                rng = Rng(i)
                while state.current_seats() == (CHANCE,) and (state.phase != PHASE_DEAL or state.dealt < 5):
                    state._apply(CHANCE, state.sample_chance(rng))  # apply would settle the rest
            phases.add(state.phase)
            assert_same_playout(compiled, state, i + 1)
    assert {PHASE_SCHOOLS, PHASE_DEAL} <= phases


def test_positions_read_from_json(compiled: Any) -> None:
    """A position written and read back (no generator) plays the same game as the original."""
    for players in (1, 2, 4, 7):
        state = unseeded_prefix(options(players=players), players, 60)
        again = GAME.state_from_json(state.to_json())
        assert compiled.pack(again) is not None
        for got, want in zip(compiled.pack(again), compiled.pack(state)):
            assert (got == want).all()
        assert_same_playout(compiled, again, 5)


def test_other_states_are_refused(compiled: Any) -> None:
    from ludus.games.gladius.game import GAME as GLADIUS

    assert compiled.pack(GLADIUS.new_initial_state(seed=1)) is None
    assert compiled.playout(GAME.new_initial_state(seed=1), Rng(1), "heuristic") is None


def test_playout_plays_from_a_play_phase(compiled: Any) -> None:
    state = GAME.new_initial_state({"players": 4}, seed=3)
    assert state.phase == PHASE_PLAY
    before = compiled.pack(state)
    result = compiled.playout(state, Rng(2))
    assert result is not None and result.finished and sum(result.returns) == pytest.approx(1.0)
    for got, want in zip(compiled.pack(state), before):  # the state itself is left as it was
        assert (got == want).all()


@pytest.mark.parametrize(("level", "iterations"), [("easy", 300), ("medium", 400), ("hard", 500)])
def test_same_search_as_python(level: str, iterations: int) -> None:
    """Each Gorus Maximus level (random rollouts) finds identical statistics either way.

    At ``iterations`` (the budgets the levels had before the compiled playouts) rather than the
    levels' own, whose Python side would take most of the suite's time; the settings are the
    level's."""
    from ludus.agents.ismcts import level_budget

    budget = level_budget(level, GAME)
    assert budget.rollout == "random" and budget.iterations > iterations
    settings = {"iterations": iterations, "score_weight": budget.score_weight}
    assert_same_search(GAME, options(players=4), views=2, **settings)
    assert_same_search(GAME, options(players=2), views=2, **settings)
    assert_same_search(GAME, options(players=1), views=4, **settings, horizon=9)


# --------------------------------------------------------------------------- whole games of agents
# check_agents plays each lineup in turn: all random, all heuristic and both alternations of the
# two, comparing decisions, scores, returns, metrics, every generator and the final position.
@pytest.mark.parametrize("players", range(1, 9))
def test_agents_every_player_count(compiled: Any, players: int) -> None:
    """Tournament games from the opening, with random schools where the count draws them."""
    assert check_agents(compiled, GAME, [options(players=players)], 24) > 24 * 20


def test_agents_teams_schools_targets_and_dealers(compiled: Any) -> None:
    opts = [options(players=p, teams=t, team_target=tt) for p, t, tt in
            [(4, "2v2", 0), (5, "2v2v1", 0), (5, "3v2", 2), (6, "ABCABC", 1), (7, "2v2v2v1", 2), (8, "4v4", 0)]]
    opts += [options(players=p, schools=s) for p, s in [(1, "GA,PA,YS"), (2, "BF,BS,GA"), (4, "BF,BS,GA,YS")]]
    opts += [options(players=p, target=t, first_dealer=d, final_tie=tie, memory_aids=bool(d % 2))
             for p, t, d, tie in [(1, 1, 0, "shared"), (2, 1, 1, "play-on"), (3, 2, 2, "shared"),
                                  (4, 1, 0, "play-on"), (6, 2, 5, "shared"), (8, 1, 7, "play-on")]]
    assert check_agents(compiled, GAME, opts, 8) > len(opts) * 8 * 20


def test_agents_with_own_crowd_favour_tables(compiled: Any, tmp_path: Any) -> None:
    """Tables whose preferred 0 the heuristic counts at a value that is no integer (9 * 0.6),
    a heavy loss, or nothing; and ties everywhere (every card worth 0)."""
    flat = _cf_file(tmp_path, "flat.toml", [0] * 16, 0)
    spoiler = _cf_file(tmp_path, "spoiler.toml", [0] * 16, -50)
    odd = _cf_file(tmp_path, "odd.toml", [3, -2, 0, 1, -1, 2, 0, 0, -7, 4, 1, 0, 2, -3, 5, 1], 9)
    sevenths = _cf_file(tmp_path, "sevenths.toml", [1, 7, -3, 11, 0, 2, -5, 6, -9, 13, 4, -1, 3, 8, -2, 5], 7)
    opts = [options(players=p, cf_table=table, final_tie=tie, **goal)
            for table in (flat, spoiler, odd, sevenths)
            for p, tie, goal in [(1, "shared", {"target": 2}), (2, "play-on", {"target": 2}),
                                 (4, "play-on", {"target": 2}), (6, "shared", {"teams": "2v2v2", "team_target": 2}),
                                 (8, "play-on", {"target": 2})]]
    assert check_agents(compiled, GAME, opts, 4) > len(opts) * 4 * 20


def test_agents_from_the_middle_of_a_game(compiled: Any) -> None:
    """Agents take over seeded games after a random prefix (a finished game included)."""
    opts = [options(players=p) for p in (1, 2, 3, 4, 5, 8)] + [options(players=6, teams="2v2v2")]
    assert check_agents(compiled, GAME, opts, 10, prefix=120) > 7 * 10 * 10


def test_agents_mixed_lineups(compiled: Any) -> None:
    lineups = [["heuristic", "heuristic", "random", "heuristic"], ["random", "random", "heuristic", "random"]]
    assert check_agents(compiled, GAME, [options(players=4)], 10, lineups=lineups) > 10 * 40


def test_heuristic_sums_as_python_does() -> None:
    """The heuristic's ``sum`` of card values: this Python's own (3.11 in turn, 3.12 on with
    Neumaier's compensation), checked against ``sum`` here and against the 3.12 algorithm."""
    from ludus.games.gorus_maximus.compiled import _NEUMAIER, _sum_end, _sum_step

    def neumaier(values: list[float]) -> float:  # CPython 3.12's float sum, started at the int 0
        total, comp = 0 + values[0], 0.0
        for x in values[1:]:
            t = total + x
            comp += (total - t) + x if abs(total) >= abs(x) else (x - t) + total
            total = t
        return total + comp if comp and comp not in (float("inf"), float("-inf")) else total

    def compiled_sum(values: list[float], compensated: bool) -> float:
        total, comp = 0.0, 0.0
        for i, x in enumerate(values):
            total, comp = _sum_step(total, comp, x, i == 0, compensated)
        return float(_sum_end(total, comp, compensated))

    rng = Rng(12)
    differ = 0
    for _ in range(3000):
        values = [float(rng.below(41) - 20) for _ in range(rng.below(8))] + [(rng.below(61) - 30) * 0.6]
        order = list(values)
        rng.shuffle(order)
        assert compiled_sum(order, _NEUMAIER) == sum(order)
        assert compiled_sum(order, True) == neumaier(order)
        assert compiled_sum(order, False) == sum(order, start=0.0) or _NEUMAIER
        differ += neumaier(order) != compiled_sum(order, False)
    assert differ, "no sum where the two algorithms differ: the check shows nothing"


def test_agents_refuse_what_they_do_not_play(compiled: Any) -> None:
    state = GAME.new_initial_state({"players": 2}, seed=1)
    assert compiled.play_agents(state, ["random", "ismcts"], [Rng(1), Rng(2)]) is None
    assert compiled.play_agents(state, [], []) is None
    packed = compiled.pack(state)
    with pytest.raises(ValueError):
        compiled.run_agents(packed, np.zeros(3, dtype=np.uint64), True, np.zeros(2, dtype=np.int64))


@pytest.mark.parametrize(
    ("opts", "agents"),
    [({"players": 4}, "random*4"), ({"players": 4}, "heuristic*4"),
     ({"players": 4}, "heuristic,random,random,heuristic"), ({"players": 4, "teams": "2v2"}, "heuristic*2,random*2"),
     ({"players": 1}, "heuristic"), ({"players": 2}, "random,heuristic")],
)
def test_tournament_games_are_the_same_compiled(monkeypatch: pytest.MonkeyPatch, opts: Any, agents: str) -> None:
    """``play_game`` gives the same results with the compiled agents as through the Python
    engine (``LUDUS_COMPILED=0``); with them it makes no Python agent at all."""
    fast = assert_same_tournament_games(monkeypatch, "gorus-maximus", opts, agents, games=8, seed=5)
    assert sum(r.decisions for r in fast) > 8 * 20
    assert all(r.metrics["rounds"] >= 1 for r in fast)
