"""The compiled Gladius playouts play exactly the Python engine's games: random and heuristic
rollouts, every fighter pairing, solo, and every option that changes the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numba")

from ludus.core.game import CHANCE
from ludus.core.rng import Rng
from ludus.games.gladius import views
from ludus.games.gladius.cards import builtin_catalogue
from ludus.games.gladius.compiled import GladiusPlayouts
from ludus.games.gladius.game import GAME
from tests.games.compiled_harness import (
    assert_same_playout,
    assert_same_search,
    assert_same_tournament_games,
    check_agents,
    check_game,
)

FIGHTERS = tuple(builtin_catalogue().fighters)
CUTS = (None, 0, 1, 7)

# options that change the rules, each on its own and with solo play
VARIANTS = (
    {},
    {"attack": "optional"},
    {"reshuffle": False},
    {"first": "random"},
    {"first": "fighter2"},
    {"hit_points": 3},
    {"hit_points": 40, "turn_limit": 30},
    {"starting_hand": 0},
    {"starting_hand": 5, "hand_limit": 5},
    {"starting_hand": 1, "hand_limit": 1},
    {"hand_limit": 10, "attack": "optional"},
    {"turn_limit": 4},
    {"turn_limit": 0, "reshuffle": False},
)
SOLO_VARIANTS = (
    {"solo_defence_hand": 1, "solo_attack_hand": 1},
    {"solo_defence_hand": 3, "solo_attack_hand": 3},
    {"solo_defence_hand": 3, "solo_attack_hand": 1, "attack": "optional"},
)

# a user-made fighter with what the built-in sets lack: a two-way card list, heavy blows, a
# penalty card, and enough cards that, mirrored, the deck has more than 64
BIG_SET = """\
[set]
id = "hoplomachus"
name = "Hoplomachus"
kind = "fighter"
hit_points = 14
solo_defence_hand = 2
solo_attack_hand = 3

[[card]]
name = "Spear Thrust"
count = 14
type = "attack"
damage = 2

[[card]]
name = "Lunge"
count = 6
type = "attack"
damage = 5
no_attack_next_turn = true

[[card]]
name = "Shield Rush"
count = 4
type = "attack"
damage = 1
immobilize = true

[[card]]
name = "Round Shield"
count = 8
type = "defence"
defence = "block"

[[card]]
name = "Sidestep"
count = 6
type = "defence"
defence = "evade"
"""


def options(**kw: object) -> object:
    return GAME.parse_options(kw)


def compiled() -> GladiusPlayouts:
    playouts = GAME.compiled_playouts()
    assert playouts is not None
    return playouts


def test_phase_numbers_match_the_engine():
    from ludus.games.gladius import compiled as c

    for name in (
        "FIRST",
        "DEAL",
        "DRAW",
        "DISCARD",
        "ATTACK",
        "DEFEND",
        "SKIP",
        "RESHUFFLE",
        "MINI_DEF",
        "ADV_DEF",
        "MINI_ATK",
        "ADV_ATK",
        "OVER",
    ):
        assert getattr(c, name) == getattr(views, name)
    assert set(c.END_CODES) == set(views.END_REASONS)


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_every_pairing(policy):
    """Every ordered pair of the built-in types (mirrors with their set twice and once)."""
    opts = [options(fighter1=a, fighter2=b) for a in FIGHTERS for b in FIGHTERS]
    opts += [options(fighter1=a, fighter2=a, mirror="once") for a in FIGHTERS]
    assert check_game(compiled(), GAME, opts, 12, cuts=CUTS, policy=policy) > 25_000


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_every_option(policy):
    opts = [options(**v) for v in VARIANTS]
    opts += [options(fighter1="murmillo", fighter2="lion", **v) for v in VARIANTS[1:]]
    assert check_game(compiled(), GAME, opts, 40, cuts=CUTS, policy=policy) > 15_000


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_solo(policy):
    """Solo against every type, with every option and the mini-hand sizes (solo fights are
    short: a prefix of a few decisions leaves most of them to play)."""
    opts = [options(solo=True, fighter1="secutor", fighter2=b) for b in FIGHTERS]
    opts += [options(solo=True, **v) for v in VARIANTS[1:] + SOLO_VARIANTS]
    assert check_game(compiled(), GAME, opts, 40, prefix=8, cuts=CUTS, policy=policy) > 8_000


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_user_card_set_and_a_deck_over_64_cards(tmp_path: Path, policy):
    path = tmp_path / "hoplomachus.toml"
    path.write_text(BIG_SET, encoding="utf-8")
    opts = [
        options(fighter1="hoplomachus", fighter2="hoplomachus", card_sets=str(path)),
        options(fighter1="lion", fighter2="hoplomachus", card_sets=str(path), attack="optional"),
        options(solo=True, fighter1="hoplomachus", fighter2="hoplomachus", card_sets=str(path)),
    ]
    assert GAME.setup(opts[0]).n_cards > 64
    assert check_game(compiled(), GAME, opts, 80, prefix=20, cuts=CUTS, policy=policy) > 6_000


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_explicit_chance_from_the_playouts_generator(policy):
    """States without a generator of their own (chance outcomes are explicit, as in a record):
    the playout draws every chance outcome, from the coin toss and the deal on."""
    playouts = compiled()
    total = 0
    for i, opts in enumerate(
        [
            options(),
            options(first="random"),
            options(solo=True),
            options(fighter1="lion", fighter2="lion", attack="optional"),
        ]
        * 25
    ):
        state = GAME.new_initial_state(opts)
        rng = Rng(i)
        for _ in range(rng.below(40)):  # a random prefix, chance included
            seats = state.current_seats()
            if not seats:
                break
            if seats[0] == CHANCE:
                state.apply(state.sample_chance(rng), CHANCE)
            else:
                legal = state.legal_actions(seats[0])
                state.apply(legal[rng.below(len(legal))], seats[0])
        total += assert_same_playout(playouts, state, 100 + i, CUTS[i % len(CUTS)], policy)
    assert total > 1_000


def test_card_odds_are_the_heuristics_to_the_last_bit():
    """The compiled chance that a hand holds a stop equals heuristic.p_holds_any exactly, up
    to the largest deck the built-in sets make."""
    from ludus.games.gladius.compiled import _p_holds_any
    from ludus.games.gladius.heuristic import p_holds_any

    for size in range(0, 57):
        for hits in range(0, size + 1):
            for draws in range(0, 12):
                for known in (0, 1):
                    assert _p_holds_any(known, hits, size, draws) == p_holds_any(known, hits, size, draws)


def test_a_finished_game_plays_nothing():
    state = GAME.new_initial_state(options(hit_points=1, attack="compulsory"), seed=3)
    while state.current_seats():
        seat = state.current_seats()[0]
        state.apply(state.legal_actions(seat)[0], seat)
    assert assert_same_playout(compiled(), state, 1) == 0
    assert assert_same_playout(compiled(), state, 1, policy="heuristic") == 0


@pytest.mark.parametrize("iterations", [60, 170])  # the easy and hard budgets before the compiled playouts
def test_search_is_unchanged(iterations):
    """The Gladius levels (paired root, heuristic rollouts) find the same statistics compiled."""
    assert_same_search(GAME, options(), views=8, iterations=iterations)
    assert_same_search(GAME, options(solo=True, fighter2="lion"), views=6, iterations=iterations)


def test_random_rollout_search_is_unchanged():
    assert_same_search(
        GAME, options(fighter1="murmillo", fighter2="thracian"), views=8, iterations=80, rollout="random", paired=False
    )


def test_off_with_the_environment_switch(monkeypatch):
    monkeypatch.setenv("LUDUS_COMPILED", "0")
    assert GAME.compiled_playouts() is None
    monkeypatch.setenv("LUDUS_COMPILED", "1")
    assert GAME.compiled_playouts() is not None


def test_other_states_are_refused():
    from ludus.games.gorus_maximus.game import GAME as GORUS

    assert compiled().pack(GORUS.new_initial_state(None, seed=1)) is None


# --------------------------------------------------------------------------- whole games of agents
def test_agents_every_pairing():
    """Tournament games (from the opening) of random and heuristic agents, every lineup, every
    ordered pair of the built-in types and every mirror played once."""
    opts = [options(fighter1=a, fighter2=b) for a in FIGHTERS for b in FIGHTERS]
    opts += [options(fighter1=a, fighter2=a, mirror="once") for a in FIGHTERS]
    assert check_agents(compiled(), GAME, opts, 4) > 20_000


def test_agents_every_option():
    opts = [options(**v) for v in VARIANTS]
    opts += [options(fighter1="murmillo", fighter2="lion", **v) for v in VARIANTS[1:]]
    assert check_agents(compiled(), GAME, opts, 8) > 12_000


def test_agents_from_the_middle_of_a_game():
    """Agents take over seeded games after a random prefix (a finished game included)."""
    opts = [options(**v) for v in VARIANTS]
    assert check_agents(compiled(), GAME, opts, 8, prefix=40) > 5_000


def test_agents_solo():
    opts = [options(solo=True, fighter1="secutor", fighter2=b) for b in FIGHTERS]
    opts += [options(solo=True, **v) for v in VARIANTS[1:] + SOLO_VARIANTS]
    assert check_agents(compiled(), GAME, opts, 8) > 2_000
    assert check_agents(compiled(), GAME, opts[:6], 4, prefix=6) > 200


def test_agents_user_card_set_and_a_deck_over_64_cards(tmp_path: Path):
    path = tmp_path / "hoplomachus.toml"
    path.write_text(BIG_SET, encoding="utf-8")
    opts = [
        options(fighter1="hoplomachus", fighter2="hoplomachus", card_sets=str(path)),
        options(fighter1="lion", fighter2="hoplomachus", card_sets=str(path), attack="optional"),
        options(solo=True, fighter1="hoplomachus", fighter2="hoplomachus", card_sets=str(path)),
    ]
    assert check_agents(compiled(), GAME, opts, 12) > 1_500


def test_agents_refuse_what_they_do_not_play():
    state = GAME.new_initial_state(options(), seed=1)
    assert compiled().play_agents(state, ["random", "ismcts"], [Rng(1), Rng(2)]) is None
    assert compiled().play_agents(state, [], []) is None


@pytest.mark.parametrize(
    ("opts", "agents"),
    [({}, "random,heuristic"), ({}, "heuristic*2"), ({"fighter2": "lion", "attack": "optional"}, "random*2"),
     ({"solo": True}, "heuristic"), ({"solo": True, "fighter2": "murmillo"}, "random")],
)
def test_tournament_games_are_the_same_compiled(monkeypatch, opts, agents):
    """``play_game`` gives the same results with the compiled agents as through the Python
    engine; with them it makes no Python agent at all."""
    fast = assert_same_tournament_games(monkeypatch, "gladius", opts, agents, games=12, seed=5)
    assert sum(r.decisions for r in fast) > 100
