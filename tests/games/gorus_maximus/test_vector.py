"""Gorus Maximus's compiled vector stepping plays exactly the Python vector environment's games.

``LudusVectorEnv(..., compiled=True)`` against ``compiled=False`` from the same seeds and the same
actions (random among the mask's, now and then an illegal number, which moves nothing): the same
observations, masks, rewards, terminations, truncations and infos at every step, over enough
steps that many games end and restart, in every mode (2-8 players, teams, solo, fixed schools,
``play-on``), several learner seats, random, heuristic and mixed opponents. The compiled steps
are also checked directly (:class:`CompiledSteps`) on states without a generator of their own
(chance drawn card by card from the environment's) loaded mid-game (a previous bout and a last
round to carry over), against the Python engine and the exact encoder.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numba")

from ludus.core.rng import Rng
from ludus.games.gorus_maximus.compiled import PLAYOUTS
from ludus.games.gorus_maximus.game import GAME
from ludus.interop.action_space import InteropError, build_action_space
from ludus.interop.vector_env import LudusVectorEnv

from ..vector_harness import check_partial_resets, check_steps_mid_game, env_pair, lockstep

CASES = [  # options, learner seat, opponents, sub-environments, steps
    ({"players": 2}, 0, "random", 8, 300),
    ({"players": 2}, 1, "heuristic", 8, 300),
    ({"players": 3}, 2, ["random", "heuristic"], 8, 250),
    ({"players": 4}, 0, "heuristic", 8, 200),
    ({"players": 4}, 3, ["heuristic", "random", "heuristic"], 8, 200),
    ({"players": 4, "teams": "2v2"}, 1, "heuristic", 8, 200),
    ({"players": 1}, 0, [], 8, 300),
    ({"players": 5, "teams": "3v2", "team_target": 2}, 4, "random", 6, 200),
    ({"players": 6, "final_tie": "play-on", "target": 1}, 2, "heuristic", 6, 150),
    ({"players": 8}, 7, "random", 4, 350),
    ({"players": 3, "schools": "BF,PA,YS", "first_dealer": 0}, 1, "heuristic", 8, 200),
]






@pytest.mark.parametrize(("options", "seat", "opponents", "n", "steps"), CASES)
def test_same_trajectories(options: dict[str, Any], seat: int, opponents: Any, n: int, steps: int) -> None:
    fast, slow = env_pair("gorus-maximus", options, seat, opponents, n)
    ended, illegal, _ = lockstep(fast, slow, steps, 17, action_seed=seat * 101 + n)
    assert ended >= n * 2 and illegal > 0  # games ended and restarted; illegal actions were met


def test_partial_resets_and_reseeding() -> None:
    """``reset`` of some slots (``reset_mask``) and a reseed mid-run load fresh games into those slots only."""
    fast, slow = env_pair("gorus-maximus", {"players": 3}, 1, "heuristic", 6)
    check_partial_resets(fast, slow)


def test_off_without_the_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDUS_COMPILED", "0")
    assert not LudusVectorEnv("gorus-maximus", 2, {"players": 3}, opponents="random").compiled
    with pytest.raises(InteropError):
        LudusVectorEnv("gorus-maximus", 2, {"players": 3}, opponents="random", compiled=True)


def test_refusals_fall_back_to_python() -> None:
    """Kinds it does not compile: the Python engine (``compiled=True`` refuses); and ``vector_steps``
    refuses what it cannot step exactly."""
    assert LudusVectorEnv("gorus-maximus", 2, {"players": 3}, opponents="random").compiled
    assert not LudusVectorEnv("gorus-maximus", 2, {"players": 3}, opponents=["random", "ismcts-easy"]).compiled
    with pytest.raises(InteropError):
        LudusVectorEnv("gorus-maximus", 2, {"players": 3}, opponents="ismcts-easy", compiled=True)
    options = GAME.parse_options({"players": 3})
    player = build_action_space(GAME, options).player
    assert PLAYOUTS.vector_steps(options, 2, 0, [None, "random", "heuristic"], player) is not None
    assert PLAYOUTS.vector_steps({"players": 3}, 2, 0, [None, "random", "random"], player) is None  # not parsed
    assert PLAYOUTS.vector_steps(options, 2, 0, ["random", "random", "random"], player) is None  # the learner's seat
    assert PLAYOUTS.vector_steps(options, 2, 0, [None, "random"], player) is None  # a seat short
    assert PLAYOUTS.vector_steps(options, 2, 0, [None, "random", "ismcts"], player) is None
    assert PLAYOUTS.vector_steps(options, 2, 0, [None, "random", "random"], player[:-1]) is None  # a card unnumbered


def test_load_refuses_other_options() -> None:
    options = GAME.parse_options({"players": 3})
    steps = PLAYOUTS.vector_steps(options, 1, 0, [None, "random", "random"], build_action_space(GAME, options).player)
    assert steps is not None
    other = GAME.new_initial_state(GAME.parse_options({"players": 4}), seed=1)
    with pytest.raises(ValueError, match="other options"):
        steps.load(0, other, Rng(0), [None, Rng(1), Rng(2), Rng(3)])


@pytest.mark.parametrize(("values", "seat", "kinds"), [
    ({"players": 2}, 1, ["heuristic", None]),
    ({"players": 1}, 0, [None]),
    ({"players": 4, "teams": "2v2"}, 2, ["random", "heuristic", None, "heuristic"]),
    ({"players": 5}, 0, [None, "heuristic", "random", "heuristic", "random"]),
])
def test_steps_from_unseeded_states_mid_game(values: dict[str, Any], seat: int, kinds: list[str | None]) -> None:
    """``CompiledSteps`` itself, on states without a generator (every chance outcome drawn from the
    environment's ``rng`` by ``sample_chance``) loaded after a random prefix (a previous bout, a last
    round's summary): the Python engine and the exact encoder give the same rows."""
    ended, carried = check_steps_mid_game(GAME, PLAYOUTS, values, seat, kinds, slots=4, prefix=60, rounds=400,
        watch=lambda state: state.last_round is not None and state.previous_bout != ())
    assert ended >= 4 and carried > 0
