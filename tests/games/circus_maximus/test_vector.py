"""Circus Maximus's compiled vector stepping plays exactly the Python vector environment's games.

``LudusVectorEnv(..., compiled=True)`` against ``compiled=False`` from the same seeds and the same
actions (random among the mask's, now and then an illegal number, which moves nothing): the same
observations, masks, rewards, terminations, truncations and infos at every step, over enough
steps that games end and restart, for several seats, random, heuristic and mixed opponents and
every option (3 to 5 players, the Caesar variant, both readings of the starting-player card, a
card file of one's own). The compiled steps are also checked directly on states without a
generator of their own loaded mid-game, against the Python engine and the exact encoder; and the
compiled row is shown to read only what the learner's observation holds (card kinds, never card
ids; nothing in this game is secret but what chance will draw, which the row never reads).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from ludus.core.rng import Rng
from ludus.games.circus_maximus.compiled import (
    _H_FAVOURS,
    _H_HANDS,
    _H_TICKETS,
    _S_FAV_DECK,
    _S_FAV_DISPLAY,
    _S_FAV_GONE,
    _S_FORUM,
    _S_PENDING,
    _S_TKT_DECK,
    _S_VENUE_VIS,
    _S_VIS_BOX,
    _S_VIS_DECK,
    PLAYOUTS,
)
from ludus.games.circus_maximus.game import GAME
from ludus.games.circus_maximus.vector import _encode
from ludus.interop.action_space import InteropError, acting_seat, build_action_space
from ludus.interop.specs import encoder_for
from ludus.interop.vector_env import LudusVectorEnv

from ..vector_harness import check_illegal_raises, check_steps_mid_game, env_pair, lockstep, play_prefix
from .test_compiled import RICH_CARDS

CASES = [  # options, learner seat, opponents, sub-environments, steps
    ({}, 0, "random", 6, 200),
    ({}, 2, "heuristic", 6, 200),
    ({"players": 3, "caesar": True}, 1, "heuristic", 6, 200),
    ({"players": 3, "start_card": "extra-pick"}, 2, ["random", "heuristic"], 6, 200),
    ({"players": 5, "caesar": True, "start_card": "extra-pick"}, 4, "random", 4, 200),
    ({"players": 5}, 0, ["heuristic", "random", "heuristic", "random"], 4, 200),
    ({"players": 4, "caesar": True}, 3, ["random", "heuristic", "heuristic"], 6, 200),
]








@pytest.mark.parametrize(("options", "seat", "opponents", "n", "steps"), CASES)
def test_same_trajectories(options: dict[str, Any], seat: int, opponents: Any, n: int, steps: int) -> None:
    fast, slow = env_pair("circus-maximus", options, seat, opponents, n)
    ended, illegal, _ = lockstep(fast, slow, steps, 11 + seat)
    assert ended >= n and illegal > 0


def test_a_card_file_of_ones_own(tmp_path: Path) -> None:
    path = tmp_path / "rich.toml"
    path.write_text(RICH_CARDS, encoding="utf-8")
    for players, seat, opponents in ((3, 0, "heuristic"), (5, 3, "random")):
        options = {"players": players, "caesar": True, "cards": str(path)}
        fast, slow = env_pair("circus-maximus", options, seat, opponents, 4)
        assert lockstep(fast, slow, 200, players)[0] >= 4


def test_illegal_actions_penalized_or_raised() -> None:
    fast, slow = env_pair("circus-maximus", {}, 1, "random", 4, illegal_penalty=-0.25)
    ended, illegal, _ = lockstep(fast, slow, 120, 8)
    assert ended > 0 and illegal > 0
    fast, slow = env_pair("circus-maximus", {}, 1, "heuristic", 3, illegal_action="raise")
    check_illegal_raises(fast, slow)


def test_compiled_by_default_and_refusals() -> None:
    assert LudusVectorEnv("circus-maximus", 2, opponents="random").compiled
    assert not LudusVectorEnv("circus-maximus", 2, opponents="ismcts-easy").compiled
    with pytest.raises(InteropError):
        LudusVectorEnv("circus-maximus", 2, opponents="ismcts-easy", compiled=True)
    options = GAME.parse_options({})
    player = build_action_space(GAME, options).player
    kinds = [None, "heuristic", "random", "heuristic"]
    assert PLAYOUTS.vector_steps(options, 2, 0, kinds, player) is not None
    assert PLAYOUTS.vector_steps({}, 2, 0, kinds, player) is None  # not parsed
    assert PLAYOUTS.vector_steps(options, 2, 0, ["random", *kinds[1:]], player) is None
    assert PLAYOUTS.vector_steps(options, 2, 0, kinds[:3], player) is None
    assert PLAYOUTS.vector_steps(options, 2, 0, [None, "ismcts", "random", "random"], player) is None
    for drop in (0, 170, len(player) - 1):  # a placement, a favour move, a sale unnumbered
        assert PLAYOUTS.vector_steps(options, 2, 0, kinds, player[:drop] + player[drop + 1:]) is None
    steps = PLAYOUTS.vector_steps(options, 1, 0, kinds, player)
    assert steps is not None
    with pytest.raises(ValueError, match="other options"):
        steps.load(0, GAME.new_initial_state({"players": 3}, seed=1), Rng(0), [None, Rng(1), Rng(2)])




@pytest.mark.parametrize(("values", "seat", "kinds"), [
    ({}, 1, ["heuristic", None, "random", "heuristic"]),
    ({"players": 3, "caesar": True, "start_card": "extra-pick"}, 0, [None, "random", "heuristic"]),
    ({"players": 5}, 4, ["random", "heuristic", "random", "heuristic", None]),
])
def test_steps_from_unseeded_states_mid_game(values: dict[str, Any], seat: int, kinds: list[str | None]) -> None:
    """``CompiledSteps`` itself, on states without a generator (chance drawn from the environment's
    ``rng``) loaded after a random prefix (sales and finished days included): the Python engine
    and the exact encoder give the same rows, masks, rewards and ends."""
    ended, _ = check_steps_mid_game(GAME, PLAYOUTS, values, seat, kinds, slots=3, prefix=400, rounds=250)
    assert ended >= 3



_CARD_SETS = {  # packed fields holding cards, and the kind table (tkt 3, vis 4, fav 5) they are read by
    _S_FAV_DECK: 5, _S_FAV_DISPLAY: 5, _S_FAV_GONE: 5, _S_TKT_DECK: 3, _S_FORUM: 3, _S_VIS_DECK: 4, _S_VIS_BOX: 4,
    _S_VENUE_VIS: 4, _S_VENUE_VIS + 1: 4, _S_VENUE_VIS + 2: 4,
}


def _relabel(cards: int, table: Any) -> int:
    """The same counts per kind held by the highest ids of each kind instead of the lowest."""
    out = 0
    for mask in table[:, 0].tolist():
        c = bin(cards & mask).count("1")
        ids = [b for b in range(63) if mask >> b & 1]
        for b in ids[len(ids) - c:]:
            out |= 1 << b
    return out


def test_the_observation_is_the_encoders_and_reads_only_the_learners_observation() -> None:
    """At every position of many games (chance nodes and the end included), each seat's compiled
    row is the exact encoder's; it stays the same when the card ids change kind for kind (which
    card of a kind lies where is not in the observation) and when the generators change (what
    chance will draw next: the row is never given them); a change to the learner's own hand or
    favours changes it."""
    options = GAME.parse_options({"players": 4, "caesar": True})
    encoder = encoder_for(GAME, options)
    space = build_action_space(GAME, options)
    steps: Any = PLAYOUTS.vector_steps(options, 1, 0, [None, "random", "random", "random"], space.player)
    assert steps is not None
    pick = Rng(3)
    positions = changed = 0
    for game in range(6):
        state = GAME.new_initial_state(options, seed=game if game % 2 else None)
        rng = Rng(game)
        while True:
            positions += 1
            if positions % 3 == 0:
                steps.load(0, state, rng, [None, Rng(1), Rng(2), Rng(3)])
                packed = PLAYOUTS.pack(state)
                assert packed is not None
                S, lines, draws, tables = steps._S[0], steps._lines[0], steps._draws[0], packed[3:7]
                trace = (steps._tr[0], steps._tn[0], steps._ds[0], steps._meta[0])

                def encode(s_: Any, seat: int, at: tuple[Any, ...] = (lines, draws, *tables, *trace)) -> np.ndarray:
                    row = np.full(encoder.size, np.nan, np.float32)
                    _encode(s_, *at, True, seat, steps._off, row)
                    return row

                for seat in range(4):
                    row = encode(S, seat)
                    assert np.array_equal(row, encoder.encode(state.observation(seat))), (game, seat)
                    twin = S.copy()
                    for field, t in _CARD_SETS.items():
                        twin[field] = _relabel(int(S[field]), tables[t - 3])
                    for s in range(4):
                        twin[_H_FAVOURS + s] = _relabel(int(S[_H_FAVOURS + s]), tables[2])
                        twin[_H_TICKETS + s] = _relabel(int(S[_H_TICKETS + s]), tables[0])
                    if S[_S_PENDING] >= 0:
                        kind = next(m for m in tables[1][:, 0].tolist() if m >> int(S[_S_PENDING]) & 1)
                        twin[_S_PENDING] = kind.bit_length() - 1
                    assert np.array_equal(encode(twin, seat), row), (game, seat)
                    mine = S.copy()
                    mine[_H_HANDS + seat] ^= 1 << pick.below(8)
                    assert not np.array_equal(encode(mine, seat), row)
                    if S[_H_FAVOURS + seat] or S[_S_FAV_DECK]:
                        mine = S.copy()
                        mine[_H_FAVOURS + seat] ^= int(S[_H_FAVOURS + seat] or S[_S_FAV_DECK]) & -int(
                            S[_H_FAVOURS + seat] or S[_S_FAV_DECK])
                        assert not np.array_equal(encode(mine, seat), row)
                        changed += 1
            if acting_seat(state) is None:
                break
            play_prefix(state, rng, pick, 1)  # one move at random, or a chance step
    assert positions > 500 and changed > 100
