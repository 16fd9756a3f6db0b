"""Gladius's compiled vector stepping plays exactly the Python vector environment's games.

``LudusVectorEnv(..., compiled=True)`` against ``compiled=False`` from the same seeds and the same
actions (random among the mask's, now and then an illegal number, which moves nothing): the same
observations, masks, rewards, terminations, truncations and infos at every step, over enough
steps that many games end and restart, for both seats, random and heuristic opponents and every
option (each fighter pairing, mirrors, solo with its mini-hands, optional attacks, no reshuffle,
the first player, hit points, hands, turn limits, a user card set making a deck over 64 cards).
The compiled steps are also checked directly (:class:`CompiledSteps`) on states without a
generator of their own (chance drawn outcome by outcome from the environment's) loaded mid-game,
against the Python engine and the exact encoder; and the compiled observation is shown to read
nothing the learner's observation does not hold.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from ludus.core.rng import Rng
from ludus.games.gladius.cards import builtin_catalogue
from ludus.games.gladius.compiled import OVER, PLAYOUTS, RESHUFFLE, S_PHASE, Z_HAND, Z_KNOWN, Z_PILE
from ludus.games.gladius.game import GAME
from ludus.games.gladius.vector import _encode
from ludus.interop.action_space import acting_seat, build_action_space
from ludus.interop.specs import encoder_for
from ludus.interop.vector_env import LudusVectorEnv

from ..vector_harness import (
    check_illegal_raises,
    check_partial_resets,
    check_steps_mid_game,
    check_switches,
    env_pair,
    lockstep,
    play_prefix,
)
from .test_compiled import BIG_SET

FIGHTERS = tuple(builtin_catalogue().fighters)

CASES = [  # options, learner seat, opponents, sub-environments, steps
    ({}, 0, "random", 8, 300),
    ({}, 1, "heuristic", 8, 300),
    ({"attack": "optional", "first": "random"}, 0, "heuristic", 6, 250),
    ({"attack": "optional", "first": "random"}, 1, "random", 6, 250),
    ({"reshuffle": False, "fighter1": "murmillo", "fighter2": "thracian"}, 1, "heuristic", 6, 250),
    ({"hit_points": 3, "first": "fighter2"}, 0, "heuristic", 8, 200),
    ({"hit_points": 40, "turn_limit": 30, "starting_hand": 5, "hand_limit": 5}, 1, "heuristic", 4, 250),
    ({"starting_hand": 0, "hand_limit": 1, "first": "fighter1"}, 0, "random", 6, 250),
    ({"fighter1": "lion", "fighter2": "lion", "mirror": "once", "hand_limit": 10, "attack": "optional"}, 1,
     "heuristic", 6, 250),
    ({"fighter1": "samnite", "fighter2": "samnite"}, 0, "heuristic", 6, 250),
    ({"turn_limit": 0, "reshuffle": False, "fighter2": "dimachaeri"}, 0, "heuristic", 6, 250),
    ({"turn_limit": 4}, 1, "random", 6, 150),
    ({"solo": True}, 0, [], 8, 300),
    ({"solo": True, "solo_defence_hand": 3, "solo_attack_hand": 1, "attack": "optional", "fighter2": "lion"}, 0,
     "heuristic", 6, 250),
    ({"solo": True, "solo_defence_hand": 1, "solo_attack_hand": 3, "reshuffle": False, "first": "random",
      "hit_points": 4}, 0, [], 6, 250),
    ({"solo": True, "fighter1": "postulati", "fighter2": "retiarius", "starting_hand": 0, "turn_limit": 12}, 0,
     [], 6, 200),
]








@pytest.mark.parametrize(("options", "seat", "opponents", "n", "steps"), CASES)
def test_same_trajectories(options: dict[str, Any], seat: int, opponents: Any, n: int, steps: int) -> None:
    fast, slow = env_pair("gladius", options, seat, opponents, n)
    ended, illegal, _ = lockstep(fast, slow, steps, 17 + seat)
    assert ended >= n and illegal > 0  # games ended and restarted; illegal actions were met


def test_every_pairing() -> None:
    """Every ordered pair of the built-in types (and each mirror with its set once), both seats."""
    ended = 0
    for i, a in enumerate(FIGHTERS):
        for j, b in enumerate(FIGHTERS):
            options: dict[str, Any] = {"fighter1": a, "fighter2": b, "hit_points": 5}
            if a == b:
                options["mirror"] = "once"
            fast, slow = env_pair("gladius", options, (i + j) % 2, "heuristic" if i % 2 else "random", 2)
            ended += lockstep(fast, slow, 40, i * 8 + j)[0]
    assert ended > 50


def test_rewards_of_wins_losses_and_ties() -> None:
    """Games cut by a short turn limit end in ties (0.5 each) as well as wins and losses."""
    fast, slow = env_pair("gladius", {"turn_limit": 6, "hit_points": 4}, 1, "heuristic", 8)
    _, _, rewards = lockstep(fast, slow, 200, 3)
    assert rewards == {0.0, 0.5, 1.0}


def test_a_user_card_set_and_a_deck_over_64_cards(tmp_path: Path) -> None:
    path = tmp_path / "hoplomachus.toml"
    path.write_text(BIG_SET, encoding="utf-8")
    cases: list[tuple[dict[str, Any], int, Any]] = [
        ({"fighter1": "hoplomachus", "fighter2": "hoplomachus", "card_sets": str(path)}, 1, "heuristic"),
        ({"fighter1": "lion", "fighter2": "hoplomachus", "card_sets": str(path), "attack": "optional"}, 0, "random"),
        ({"solo": True, "fighter1": "hoplomachus", "fighter2": "hoplomachus", "card_sets": str(path)}, 0, []),
    ]
    for options, seat, opponents in cases:
        assert GAME.setup(options).n_cards > 64
        fast, slow = env_pair("gladius", options, seat, opponents, 4)
        ended, _, _ = lockstep(fast, slow, 300, seat)
        assert ended >= 4


def test_illegal_actions_penalized_or_raised() -> None:
    """The environment checks the learner's action before the compiled step sees it: a penalty
    (any amount) or the same error, either way."""
    fast, slow = env_pair("gladius", {}, 0, "random", 4, illegal_penalty=-0.25)
    ended, illegal, _ = lockstep(fast, slow, 150, 8)
    assert ended > 0 and illegal > 0
    fast, slow = env_pair("gladius", {}, 1, "heuristic", 3, illegal_action="raise")
    check_illegal_raises(fast, slow)


def test_partial_resets_and_reseeding() -> None:
    """``reset`` of some slots (``reset_mask``) and a reseed mid-run load fresh games into those slots only."""
    fast, slow = env_pair("gladius", {"attack": "optional"}, 1, "heuristic", 6)
    check_partial_resets(fast, slow)


def test_compiled_by_default_off_without_the_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    assert LudusVectorEnv("gladius", 2, {"solo": True}, opponents=[]).compiled
    check_switches("gladius", monkeypatch)


def test_refusals_fall_back_to_python() -> None:
    """``vector_steps`` refuses what it cannot step exactly (the environment then steps in Python)."""
    options = GAME.parse_options({})
    player = build_action_space(GAME, options).player
    assert PLAYOUTS.vector_steps(options, 2, 0, [None, "heuristic"], player) is not None
    assert PLAYOUTS.vector_steps(options, 2, 1, ["random", None], player) is not None
    assert PLAYOUTS.vector_steps({}, 2, 0, [None, "random"], player) is None  # not parsed
    assert PLAYOUTS.vector_steps(options, 2, 0, ["random", "random"], player) is None  # the learner's seat
    assert PLAYOUTS.vector_steps(options, 2, 0, [None], player) is None  # a seat short
    assert PLAYOUTS.vector_steps(options, 2, 2, [None, "random"], player) is None  # no such seat
    assert PLAYOUTS.vector_steps(options, 2, 0, [None, "ismcts"], player) is None
    for drop in (0, len(player) // 2, len(player) - 1):  # an attack, a defence, a discard unnumbered
        assert PLAYOUTS.vector_steps(options, 2, 0, [None, "random"], player[:drop] + player[drop + 1:]) is None
    solo = GAME.parse_options({"solo": True})
    assert PLAYOUTS.vector_steps(solo, 2, 0, [None], build_action_space(GAME, solo).player) is not None


def test_load_refuses_other_options() -> None:
    options = GAME.parse_options({})
    steps = PLAYOUTS.vector_steps(options, 1, 0, [None, "random"], build_action_space(GAME, options).player)
    assert steps is not None
    for other in ({"hand_limit": 4}, {"solo": True}):
        state = GAME.new_initial_state(GAME.parse_options(other), seed=1)
        with pytest.raises(ValueError, match="other options"):
            steps.load(0, state, Rng(0), [None, Rng(1)])




@pytest.mark.parametrize(("values", "seat", "kinds"), [
    ({}, 0, [None, "heuristic"]),
    ({"first": "random", "attack": "optional"}, 1, ["random", None]),
    ({"reshuffle": False, "hand_limit": 3, "starting_hand": 3}, 1, ["heuristic", None]),
    ({"solo": True}, 0, [None]),
    ({"solo": True, "first": "random", "solo_defence_hand": 3}, 0, [None]),
])
def test_steps_from_unseeded_states_mid_game(values: dict[str, Any], seat: int, kinds: list[str | None]) -> None:
    """``CompiledSteps`` itself, on states without a generator (every chance outcome drawn from the
    environment's ``rng`` by ``sample_chance``) loaded after a random prefix: the Python engine and
    the exact encoder give the same rows, masks, rewards and ends."""
    ended, _ = check_steps_mid_game(GAME, PLAYOUTS, values, seat, kinds, slots=4, prefix=40, rounds=300)
    assert ended >= 4



@pytest.mark.parametrize("values", [{"hand_limit": 6}, {"hit_points": 30, "attack": "optional", "first": "random"},
                                    {"solo": True, "hit_points": 20}])
def test_the_observation_is_the_encoders_and_reads_no_hidden_information(values: dict[str, Any]) -> None:
    """The compiled row of every position of many games (chance nodes, reshuffles and the end
    included) is the exact encoder's; it stays the same when only what the learner cannot see
    changes: which unknown cards the opponent holds and the pile has, kind for kind, with the same
    sizes, or those zones overwritten with anything at all (so it never reads them); a change to
    the learner's own hand changes it."""
    options = GAME.parse_options(values)
    encoder = encoder_for(GAME, options)
    space = build_action_space(GAME, options)
    seats = GAME.num_seats(options)
    steps = PLAYOUTS.vector_steps(options, 1, 0, [None, "random"][:seats], space.player)
    assert steps is not None
    offsets = steps._off  # type: ignore[attr-defined]
    pick = Rng(3)
    phases: set[int] = set()
    positions = swapped = own = 0

    def encode(st: Any, z: Any, seat: int) -> np.ndarray:
        row = np.full(encoder.size, np.nan, np.float32)  # _encode zeroes it first
        _encode(st, z, seat, offsets, row)
        return row

    for game in range(25):
        state = GAME.new_initial_state(options, seed=game if game % 2 else None)
        rng = Rng(game)
        while True:
            packed = PLAYOUTS.pack(state)
            assert packed is not None
            st, z = packed[0], packed[1]
            phases.add(int(st[S_PHASE]))
            for seat in range(seats):
                row = encode(st, z, seat)
                assert np.array_equal(row, encoder.encode(state.observation(seat))), (game, seat)
                positions += 1
                if positions % 7:
                    continue
                other = Z_HAND + 1 - seat
                hidden = z[other] - z[Z_KNOWN + seat]  # the copies this seat does not know of (none in solo)
                for a in np.flatnonzero(hidden).tolist():  # an unknown card of the opponent's and a pile card swap
                    for b in np.flatnonzero(z[Z_PILE]).tolist():
                        if a == b:
                            continue
                        twin = z.copy()
                        twin[other, a] -= 1
                        twin[Z_PILE, a] += 1
                        twin[other, b] += 1
                        twin[Z_PILE, b] -= 1
                        assert np.array_equal(encode(st, twin, seat), row), (game, seat, a, b)
                        swapped += 1
                        mine = z.copy()  # the same swap with the learner's own hand shows
                        mine[Z_HAND + seat] += twin[other] - z[other]
                        if (mine[Z_HAND + seat] >= 0).all():
                            assert not np.array_equal(encode(st, mine, seat), row)
                            own += 1
                scrambled = z.copy()
                scrambled[Z_PILE] = np.asarray([pick.below(9) for _ in range(z.shape[1])])
                scrambled[other] = np.asarray([pick.below(9) for _ in range(z.shape[1])])
                assert np.array_equal(encode(st, scrambled, seat), row), (game, seat)
            if acting_seat(state) is None:
                break
            play_prefix(state, rng, pick, 1)  # one move at random, or a chance step
    assert seats == 1 or (swapped > 200 and own > 50)  # solo: the pile is all that is hidden
    assert RESHUFFLE in phases and OVER in phases
