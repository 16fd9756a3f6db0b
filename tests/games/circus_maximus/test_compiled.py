"""Circus Maximus compiled playouts play exactly the Python engine's games.

Every option (player count, Caesar variant, both readings of the starting-player card, a card
file of one's own) is played out both ways from seeded states after a random prefix and from
determinizations of them (what ISMCTS plays out), with cuts, with the random policy and with
the heuristic; the harness compares decisions, scores, returns, every generator (the heuristic
agents' too) and the whole final position. Whole tournament games of the random and heuristic
agents, alone and mixed (``check_agents``), are compared the same way, metrics included, and
``play_game`` against the Python engine.
"""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba")

from ludus.agents.ismcts import level_budget
from ludus.core import records
from ludus.core.game import CHANCE
from ludus.core.rng import Rng
from ludus.games import get_game
from ludus.games.circus_maximus.game import GAME
from ludus.games.circus_maximus.options import START_CARD_READINGS
from tests.games.compiled_harness import (
    assert_same_agents_game,
    assert_same_playout,
    assert_same_search,
    assert_same_tournament_games,
    check_agents,
    check_game,
    determinization,
)

CUTS = (None, 0, 1, 7)
OPTIONS = [
    {"players": p, "caesar": c, "start_card": s}
    for p, c, s in itertools.product((3, 4, 5), (False, True), START_CARD_READINGS)
]


@pytest.fixture(scope="module")
def compiled():
    playouts = GAME.compiled_playouts()
    assert playouts is not None
    return playouts


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: f"{o['players']}p-caesar{int(o['caesar'])}-{o['start_card']}"
)
def test_random_playouts_match_the_engine_in_every_option(compiled, options):
    early = check_game(compiled, GAME, [GAME.parse_options(options)], 90, prefix=60, cuts=CUTS)
    late = check_game(compiled, GAME, [GAME.parse_options(options)], 60, prefix=180, cuts=CUTS)
    assert early > 2000 and late > 300  # real games were compared, not empty ends


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: f"{o['players']}p-caesar{int(o['caesar'])}-{o['start_card']}"
)
def test_heuristic_playouts_match_the_engine_in_every_option(compiled, options):
    """The compiled heuristic picks every move the Python heuristic picks, with the same draws."""
    parsed = [GAME.parse_options(options)]
    early = check_game(compiled, GAME, parsed, 80, prefix=60, cuts=CUTS, policy="heuristic")
    late = check_game(compiled, GAME, parsed, 60, prefix=180, cuts=CUTS, policy="heuristic")
    assert early > 2000 and late > 300  # real games were compared, not empty ends


def _no_generator_state(options: dict, seed: int, prefix: int):
    """A state without a generator of its own (chance is explicit), after a random prefix that
    plays chance too, then saved and loaded: the playout draws chance from its own generator."""
    rng = Rng(seed)
    state = GAME.new_initial_state(options, seed=None)
    for _ in range(rng.below(prefix + 1)):
        seats = state.current_seats()
        if not seats:
            break
        legal = state.legal_actions(seats[0])
        state.apply(legal[rng.below(len(legal))], seats[0])
    return GAME.state_from_json(state.to_json())


def test_positions_of_an_old_record_under_the_legacy_reading(compiled):
    """A bot game saved before ``start-card`` existed loads with the legacy ``extra-pick``
    reading; the positions heuristic bots reached play out the same both ways."""
    record = records.load(Path(__file__).with_name("record_before_start_card_option.json"))
    checked = 0
    for i, (state, _seat, _action) in enumerate(records.iter_replay(record, get_game)):
        if i % 5 == 0:
            assert state.options.start_card == "extra-pick"
            assert_same_playout(compiled, state, i, CUTS[i // 5 % len(CUTS)])
            assert_same_playout(compiled, state, i, CUTS[i // 5 % len(CUTS)], policy="heuristic")
            sample = determinization(state, i)
            if sample is not None:
                assert_same_playout(compiled, sample, i + 1, None)
                assert_same_playout(compiled, sample, i + 1, None, policy="heuristic")
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("players", (3, 4, 5))
def test_states_without_a_generator_draw_chance_from_the_playout(compiled, players):
    decisions = 0
    at_chance = 0
    for i in range(40):
        state = _no_generator_state(
            {"players": players, "caesar": i % 2 == 1, "start_card": START_CARD_READINGS[i // 2 % 2]}, 100 + i, 150
        )
        assert state.rng is None
        at_chance += state.current_seats() == (CHANCE,)
        decisions += assert_same_playout(compiled, state, 3 * i + 2, CUTS[i % len(CUTS)])
        decisions += assert_same_playout(compiled, state, 3 * i + 2, CUTS[i % len(CUTS)], policy="heuristic")
    assert decisions > 1000 and at_chance > 0


# A card file of one's own: more favours (so the rare favour moves and their combinations come
# up often), kinds with no cards, other prices and a venue with fewer ticket kinds.
RICH_CARDS = """
[[trader]]
rank = 1
coins = 1
[[trader]]
rank = 2
coins = 0
[[trader]]
rank = 3
coins = 2
[[trader]]
rank = 4
coins = 1
[[trader]]
rank = 5
coins = 3
[[trader]]
rank = 6
coins = 2
[[trader]]
rank = 7
coins = 4
[[trader]]
rank = 8
coins = 3

[[ticket]]
venue = "circus"
seat = "box"
coins = 3
count = 3
[[ticket]]
venue = "circus"
seat = "arena"
coins = 2
count = 3
[[ticket]]
venue = "colosseum"
seat = "arena"
coins = 2
count = 4
[[ticket]]
venue = "theatre"
seat = "box"
coins = 4
count = 0
[[ticket]]
venue = "theatre"
seat = "balcony"
coins = 1
count = 4

[[visitor]]
key = "senator"
name = "Senator"
coins = 6
count = 2
[[visitor]]
key = "merchant"
name = "Merchant"
coins = 4
count = 0
[[visitor]]
key = "legionnaire"
name = "Legionnaire"
coins = 2
count = 6
[[visitor]]
key = "caesar"
name = "Caesar"
coins = 0
count = 1
caesar = true
[[visitor]]
key = "pleb"
name = "Pleb"
coins = 1
count = 5

[[favour]]
key = "extra_visitor"
coins = 2
count = 3
[[favour]]
key = "extra_trader"
coins = 1
count = 3
[[favour]]
key = "legionnaire"
coins = 1
count = 6
pays = 5
[[favour]]
key = "double_ticket"
coins = 2
count = 4
[[favour]]
key = "double_sale"
coins = 1
count = 6
[[favour]]
key = "replay_trader"
coins = 2
count = 3
[[favour]]
key = "ticket_and_visitor"
coins = 3
count = 3
[[favour]]
key = "rank_boost"
coins = 2
count = 3
[[favour]]
key = "move_ahead"
coins = 1
count = 3
"""


@pytest.mark.parametrize("players", (3, 4, 5))
def test_a_card_file_of_ones_own(compiled, tmp_path, players):
    path = tmp_path / "rich.toml"
    path.write_text(RICH_CARDS, encoding="utf-8")
    options = [GAME.parse_options({"players": players, "caesar": c, "cards": str(path)}) for c in (True, False)]
    assert check_game(compiled, GAME, options, 50, prefix=90, cuts=CUTS) > 1000
    assert check_game(compiled, GAME, options, 40, prefix=90, cuts=CUTS, policy="heuristic") > 1000


def test_a_card_file_too_large_for_bitmasks_is_left_to_python(compiled, tmp_path):
    path = tmp_path / "huge.toml"
    path.write_text(RICH_CARDS.replace("coins = 1\ncount = 5", "coins = 1\ncount = 60"), encoding="utf-8")
    state = GAME.new_initial_state({"players": 4, "cards": str(path)}, seed=5)
    assert compiled.pack(state) is None
    assert compiled.playout(state, Rng(1)) is None


@pytest.mark.parametrize("options", [{"players": 4}, {"players": 3, "caesar": True, "start_card": "extra-pick"}])
def test_search_finds_the_same_with_and_without_the_compiler(options):
    # the levels' own settings (paired, flat, scored) with random rollouts, which are compiled
    assert_same_search(GAME, GAME.parse_options(options), views=3, rollout="random", iterations=24)
    # a tree below the root and cut playouts
    assert_same_search(
        GAME,
        GAME.parse_options(options),
        views=2,
        rollout="random",
        iterations=40,
        paired=False,
        expand_after=1,
        horizon=12,
        score_weight=0.3,
    )


def test_the_heuristic_needs_a_generator_for_every_seat(compiled):
    """numba checks no bounds: a generators array too short for the seats' agents is refused."""
    state = GAME.new_initial_state({"players": 4}, seed=3)
    rngs = np.array([Rng(1).state, state.rng.state, 5, 6, 7], dtype=np.uint64)
    with pytest.raises(ValueError):
        compiled.run(compiled.pack(state), rngs, True, compiled.policies.index("heuristic"), -1)


@pytest.mark.parametrize(("level", "iterations"), [("easy", 15), ("hard", 26)])
@pytest.mark.parametrize(
    "options",
    [{"players": 4}, {"players": 3, "caesar": True, "start_card": "extra-pick"}, {"players": 5, "caesar": True}],
)
def test_the_levels_search_the_same_with_and_without_the_compiler(level, iterations, options):
    """The game's easy and hard levels (paired flat root, heuristic rollouts, compiled) find the
    same statistics as with Python rollouts.

    At ``iterations`` rollouts (the budgets these levels had before the compiled playouts) rather
    than the levels' own: the Python side of a search at 1300 takes about half a minute a view,
    and nothing in a paired search changes with the budget but the number of deals."""
    budget = level_budget(level, GAME)
    assert budget.rollout == "heuristic" and budget.iterations > iterations
    settings = dataclasses.asdict(dataclasses.replace(budget, iterations=iterations))
    assert_same_search(GAME, GAME.parse_options(options), views=3, **settings)


def test_no_compiled_playouts_when_switched_off(monkeypatch):
    monkeypatch.setenv("LUDUS_COMPILED", "0")
    assert GAME.compiled_playouts() is None


# --------------------------------------------------------------------------- whole games of agents
# check_agents plays each lineup in turn: all random, all heuristic and both alternations of the
# two, comparing decisions, scores, returns, metrics, every generator and the final position.
@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: f"{o['players']}p-caesar{int(o['caesar'])}-{o['start_card']}"
)
def test_agents_match_the_engine_in_every_option(compiled, options):
    """Tournament games from the opening, and agents taking over seeded games after a random
    prefix (a finished game included)."""
    parsed = [GAME.parse_options(options)]
    n = options["players"]
    assert check_agents(compiled, GAME, parsed, 40) > 40 * 30 * n
    assert check_agents(compiled, GAME, parsed, 20, prefix=200) > 20 * 5 * n


def test_agents_mixed_lineups(compiled):
    lineups = {
        3: [["random", "random", "heuristic"], ["heuristic", "heuristic", "random"]],
        4: [["heuristic", "heuristic", "random", "heuristic"], ["random", "random", "heuristic", "random"]],
        5: [["random", "heuristic", "heuristic", "random", "random"],
            ["heuristic", "random", "random", "random", "heuristic"]],
    }
    decisions = 0
    for players, sets in lineups.items():
        options = [GAME.parse_options({"players": players, "caesar": bool(c), "start_card": START_CARD_READINGS[c]})
                   for c in (0, 1)]
        decisions += check_agents(compiled, GAME, options, 8, lineups=sets)
        decisions += check_agents(compiled, GAME, options, 4, lineups=sets, prefix=120)
    assert decisions > 3 * 2 * 12 * 100


@pytest.mark.parametrize("players", (3, 4, 5))
def test_agents_with_a_card_file_of_ones_own(compiled, tmp_path, players):
    path = tmp_path / "rich.toml"
    path.write_text(RICH_CARDS, encoding="utf-8")
    options = [GAME.parse_options({"players": players, "caesar": c, "cards": str(path)}) for c in (True, False)]
    assert check_agents(compiled, GAME, options, 12) > 2 * 12 * 30 * players
    assert check_agents(compiled, GAME, options, 4, prefix=120) > 2 * 4 * 5 * players


def test_agents_from_the_positions_of_an_old_record(compiled):
    """Agents take over a bot game saved before ``start-card`` existed (the legacy reading)."""
    record = records.load(Path(__file__).with_name("record_before_start_card_option.json"))
    checked = 0
    for i, (state, _seat, _action) in enumerate(records.iter_replay(record, get_game)):
        if i % 9 == 0 and state.rng is not None:
            n = state.num_seats()
            kinds = [("random", "heuristic")[(i // 9 + s) % 2] for s in range(n)]
            if i % 2:
                kinds = ["heuristic"] * n
            assert_same_agents_game(compiled, state, kinds, [Rng(i + s).next_u64() for s in range(n)])
            checked += 1
    assert checked > 10


def test_agents_refuse_what_they_do_not_play(compiled, tmp_path):
    state = GAME.new_initial_state({"players": 3}, seed=1)
    rngs3 = [Rng(1), Rng(2), Rng(3)]
    assert compiled.play_agents(state, ["random", "ismcts", "heuristic"], rngs3) is None
    assert compiled.play_agents(state, [], []) is None
    assert all(r.state == Rng(i + 1).state for i, r in enumerate(rngs3))  # none was drawn from
    packed = compiled.pack(state)
    short = np.array([0, state.rng.state, 5, 6], dtype=np.uint64)  # numba checks no bounds
    with pytest.raises(ValueError):
        compiled.run_agents(packed, short, True, np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError):
        compiled.run_agents(packed, np.array([0, state.rng.state, 5, 6, 7], dtype=np.uint64), True,
                            np.zeros(2, dtype=np.int64))
    path = tmp_path / "huge.toml"
    path.write_text(RICH_CARDS.replace("coins = 1\ncount = 5", "coins = 1\ncount = 60"), encoding="utf-8")
    huge = GAME.new_initial_state({"players": 3, "cards": str(path)}, seed=5)
    assert compiled.play_agents(huge, ["random"] * 3, rngs3) is None  # left to Python


@pytest.mark.parametrize(
    ("opts", "agents"),
    [({"players": 4}, "random*4"), ({"players": 4}, "heuristic*4"),
     ({"players": 4, "caesar": True}, "heuristic,random,random,heuristic"),
     ({"players": 3, "start_card": "extra-pick"}, "random,heuristic,heuristic"),
     ({"players": 5, "caesar": True, "start_card": "extra-pick"}, "heuristic,random,heuristic,random,heuristic")],
)
def test_tournament_games_are_the_same_compiled(monkeypatch, opts, agents):
    """``play_game`` gives the same results with the compiled agents as through the Python
    engine; with them it makes no Python agent at all."""
    fast = assert_same_tournament_games(monkeypatch, "circus-maximus", opts, agents, games=10, seed=8)
    assert sum(r.decisions for r in fast) > 10 * 100
