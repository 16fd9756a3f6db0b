"""Gladius vector environments, compiled: :class:`GladiusSteps` steps ``num_envs`` games, each
with one learner seat and a random or heuristic agent in the other (or the solo rules' automated
opponent, which is chance), in one numba call (the contract is
:class:`ludus.core.compiled.CompiledSteps`).

Why here and not in the interop layer: the rules, the agents and the generators are those of
:mod:`.compiled`, the very functions that play the playouts and the tournaments' games, so a
vector step plays exactly the Python environment's games. A slot is one packed position (its
scalars and its zones of counts per kind, as :meth:`.compiled.GladiusPlayouts.pack` makes them)
and its generators: ``[ROLLOUT]`` is the environment's (chance drawn outcome by outcome, for a
state without a generator of its own), ``[CHANCE_RNG]`` the state's, ``[POLICY_RNGS + seat]``
the agent's. The packed position already holds every field an observation shows, so nothing
is traced beside it.

The learner's observation is written as :class:`.encoding.GladiusEncoder` writes
``state.observation(seat)``, bit for bit, and from what that observation holds only: the seat's
own hand, both hands' and the draw pile's sizes (never the opponent's cards nor the pile's), the
discards, the table card, the solo opponent's mini-hand (drawn face up), locks, skips, the last
exchange, what each side knows of the other's hand (card counting) and the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...core.compiled import POLICY_RNGS, ROLLOUT, CompiledSteps, njit
from ...core.game import State
from ...core.rng import Rng
from .actions import Attack, Defend, Discard
from .compiled import (
    _END_OTHER,
    _R_OTHER,
    ATTACK,
    DEFEND,
    DISCARD,
    END_CODES,
    OVER,
    RESULT_CODES,
    S_ACTIVE,
    S_BARRED,
    S_DEALT,
    S_END,
    S_FIRST,
    S_HAND_N,
    S_HP,
    S_LA_KIND,
    S_LA_SEAT,
    S_LD_KIND,
    S_LD_SEAT,
    S_LOCK,
    S_MINI_LEFT,
    S_PENDING,
    S_PHASE,
    S_PILE_N,
    S_RESHUFFLES,
    S_RESULT,
    S_RESUME,
    S_SIZE,
    S_SKIP,
    S_SOLO,
    S_TURN,
    S_UNKNOWN,
    Z_DISCARD,
    Z_HAND,
    Z_KNOWN,
    Z_MINI,
    Z_SIZE,
    GladiusPlayouts,
    _agent_move,
    _chance,
    _is_chance,
    _legal,
    _outcome,
    _play,
    _settle,
)
from .rules import GladiusState

__all__ = ["GladiusSteps", "vector_steps"]

_PIECES = (
    "seat", "hit_points", "phase", "active", "to_act", "first", "turn", "dealt", "hand", "hand_sizes", "draw_pile",
    "discard", "table", "mini_hand", "mini_left", "locked", "barred", "skip", "resume", "reshuffles", "last_attack",
    "last_defence", "last_result", "opponent_known", "opponent_unknown", "known_by_opponent", "unknown_to_opponent",
    "end", "winners",
)
"""The encoder's pieces the compiled encoding writes; their offsets come from the encoder itself."""
(O_SEAT, O_HP, O_PHASE, O_ACTIVE, O_TO_ACT, O_FIRST, O_TURN, O_DEALT, O_HAND, O_HAND_SIZES, O_DRAW_PILE, O_DISCARD,
 O_TABLE, O_MINI_HAND, O_MINI_LEFT, O_LOCKED, O_BARRED, O_SKIP, O_RESUME, O_RESHUFFLES, O_LAST_ATTACK,
 O_LAST_DEFENCE, O_LAST_RESULT, O_OPP_KNOWN, O_OPP_UNKNOWN, O_BY_OPP, O_UNKNOWN_TO_OPP, O_END,
 O_WINNERS) = range(len(_PIECES))
_SOLO_ONLY = ("mini_hand", "mini_left")
_DUEL_ONLY = ("opponent_known", "opponent_unknown", "known_by_opponent", "unknown_to_opponent")
"""Pieces of one layout only (the encoder has the other's not at all): their offsets are -1 there."""



# --------------------------------------------------------------------------- numba
@njit
def _encode(st: Any, z: Any, seat: int, off: Any, row: Any) -> None:
    """``GladiusEncoder.encode_into`` of ``seat``'s observation into ``row``, from the fields that
    observation holds (``views.build_observation``); the packed codes are the encoder's orders
    (phases, results and end reasons, which :func:`vector_steps` checks)."""
    nk = z.shape[1]
    row[:] = 0.0
    row[off[O_SEAT] + seat] = 1.0
    row[off[O_HP]] = st[S_HP]
    row[off[O_HP] + 1] = st[S_HP + 1]
    p = st[S_PHASE]
    row[off[O_PHASE] + p] = 1.0
    active = st[S_ACTIVE]
    row[off[O_ACTIVE] + active] = 1.0
    if p in (ATTACK, DISCARD):  # to_act: chance and the end show none
        row[off[O_TO_ACT] + active] = 1.0
    elif p == DEFEND:
        row[off[O_TO_ACT] + 1 - active] = 1.0
    if st[S_FIRST] >= 0:
        row[off[O_FIRST] + st[S_FIRST]] = 1.0
    row[off[O_TURN]] = st[S_TURN]
    row[off[O_DEALT]] = st[S_DEALT]
    for k in range(nk):
        row[off[O_HAND] + k] = z[Z_HAND + seat, k]
        row[off[O_DISCARD] + k] = z[Z_DISCARD, k]
    row[off[O_HAND_SIZES]] = st[S_HAND_N]
    row[off[O_HAND_SIZES] + 1] = st[S_HAND_N + 1]
    row[off[O_DRAW_PILE]] = st[S_PILE_N]
    if st[S_PENDING] >= 0:
        row[off[O_TABLE] + st[S_PENDING]] = 1.0
    solo = st[S_SOLO] != 0
    if solo:
        for k in range(nk):
            row[off[O_MINI_HAND] + k] = z[Z_MINI, k]
        row[off[O_MINI_LEFT]] = st[S_MINI_LEFT]
    for side in range(2):
        if st[S_LOCK + side] >= 0:
            row[off[O_LOCKED] + side * nk + st[S_LOCK + side]] = 1.0
        if st[S_SKIP + side]:
            row[off[O_SKIP] + side] = 1.0
    if st[S_BARRED] >= 0:
        row[off[O_BARRED] + st[S_BARRED]] = 1.0
    if st[S_RESUME] >= 0:
        row[off[O_RESUME] + st[S_RESUME]] = 1.0
    row[off[O_RESHUFFLES]] = st[S_RESHUFFLES]
    if st[S_LA_SEAT] >= 0:  # (side, card or "no card" after the side's nk kinds)
        kind = st[S_LA_KIND]
        row[off[O_LAST_ATTACK] + st[S_LA_SEAT] * (nk + 1) + (nk if kind < 0 else kind)] = 1.0
    if st[S_LD_SEAT] >= 0:
        kind = st[S_LD_KIND]
        row[off[O_LAST_DEFENCE] + st[S_LD_SEAT] * (nk + 1) + (nk if kind < 0 else kind)] = 1.0
    if st[S_RESULT] > 0:  # "" has no slot
        row[off[O_LAST_RESULT] + st[S_RESULT] - 1] = 1.0
    if not solo:  # card counting: what this seat knows of the other's hand, and the other of its
        for k in range(nk):
            row[off[O_OPP_KNOWN] + k] = z[Z_KNOWN + seat, k]
            row[off[O_BY_OPP] + k] = z[Z_KNOWN + 1 - seat, k]
        row[off[O_OPP_UNKNOWN]] = st[S_UNKNOWN + seat]
        row[off[O_UNKNOWN_TO_OPP]] = st[S_UNKNOWN + 1 - seat]
    if st[S_END] > 0:
        row[off[O_END] + st[S_END] - 1] = 1.0
    if p == OVER:  # winners: more hit points, both on a tie
        a, b = st[S_HP], st[S_HP + 1]
        if a >= b:
            row[off[O_WINNERS]] = 1.0
        if b >= a:
            row[off[O_WINNERS] + 1] = 1.0


@njit
def _step(st: Any, z: Any, rngs: Any, has_rng: Any, kt: Any, stops: Any, kinds: Any, seat: int, phase_of: Any,
          kind_of: Any, number_of: Any, off: Any, actions: Any, live: Any, obs: Any, mask: Any, rewards: Any,
          terminated: Any) -> None:
    """:meth:`GladiusSteps.step` for every live slot: the learner's move, then chance and the agent
    as ``LudusVectorEnv._advance`` plays them (the loop of ``_run_agents``), to the learner's next
    decision or the end; then its observation, mask, reward and termination."""
    nk = kt.shape[0]
    legal = np.empty(nk + 1, dtype=np.int64)
    gains = np.empty(nk + 1, dtype=np.float64)
    pool = np.empty(nk, dtype=np.int64)
    out = np.zeros(6, dtype=np.float64)
    for i in range(st.shape[0]):
        if not live[i]:
            continue
        s_i = st[i]
        z_i = z[i]
        r_i = rngs[i]
        own = has_rng[i]
        a = actions[i]
        p = s_i[S_PHASE]
        actor = 1 - s_i[S_ACTIVE] if p == DEFEND else s_i[S_ACTIVE]
        # the caller checked the action against the mask; a wrong one would corrupt the slot
        if not 0 <= a < phase_of.shape[0] or phase_of[a] != p or actor != seat:
            raise ValueError("vector step: not the learner's move")
        k = kind_of[a]
        n = _legal(s_i, z_i, kt, seat, legal, nk)
        j = 0
        while j < n and legal[j] != k:
            j += 1
        if j == n:
            raise ValueError("vector step: an illegal move")
        _play(s_i, z_i, kt, seat, k)
        if own:
            _settle(s_i, z_i, kt, r_i, nk)
        while True:
            while _is_chance(s_i[S_PHASE]):  # explicit chance from the environment's generator
                _chance(s_i, z_i, kt, r_i, ROLLOUT, nk)
                if own:
                    _settle(s_i, z_i, kt, r_i, nk)
            p = s_i[S_PHASE]
            if p == OVER:
                break
            actor = 1 - s_i[S_ACTIVE] if p == DEFEND else s_i[S_ACTIVE]
            if actor == seat:
                break
            n = _legal(s_i, z_i, kt, actor, legal, nk)
            k = _agent_move(s_i, z_i, kt, stops, r_i, kinds[actor], actor, legal, n, gains, pool, nk)
            _play(s_i, z_i, kt, actor, k)
            if own:
                _settle(s_i, z_i, kt, r_i, nk)
        _encode(s_i, z_i, seat, off, obs[i])
        m = mask[i]
        m[:] = 0
        over = p == OVER
        terminated[i] = over
        rewards[i] = 0.0
        if over:  # returns(), as the playouts report them: [decisions, finished, scores..., returns...]
            out[:] = 0.0
            _outcome(s_i, out, 0)
            rewards[i] = out[2 + (1 if s_i[S_SOLO] != 0 else 2) + seat]
        else:
            n = _legal(s_i, z_i, kt, seat, legal, nk)
            for j in range(n):
                m[number_of[p, legal[j] + 1]] = 1


# --------------------------------------------------------------------------- the protocol
class GladiusSteps(CompiledSteps):
    """``num_envs`` slots of packed positions and generators, and the tables that turn the action
    space's numbers into (phase, kind) and back; built by :func:`vector_steps`."""

    def __init__(self, playouts: GladiusPlayouts, options: Any, tables: tuple[Any, Any], num_envs: int, seat: int,
                 kinds: Any, actions: tuple[Any, Any, Any], offsets: Any) -> None:
        self._playouts = playouts
        self._options = options
        self._kt, self._stops = tables
        self._seat = seat
        self._kinds = kinds
        self._phase_of, self._kind_of, self._number_of = actions
        self._off = offsets
        nk = self._kt.shape[0]
        self._st = np.zeros((num_envs, S_SIZE), dtype=np.int64)
        self._z = np.zeros((num_envs, Z_SIZE, nk), dtype=np.int64)
        self._rngs = np.zeros((num_envs, POLICY_RNGS + 2), dtype=np.uint64)
        self._has_rng = np.zeros(num_envs, dtype=np.bool_)

    def load(self, i: int, state: State, rng: Rng, agent_rngs: Sequence[Rng | None]) -> None:
        packed = self._playouts.pack(state)
        if packed is None or (state.options is not self._options and state.options != self._options):
            raise ValueError("a state of other options than these vector steps'")
        st = packed[0]
        if st[S_RESULT] == _R_OTHER or st[S_END] == _END_OTHER:  # hand-made texts the encoder has no slot for
            raise ValueError("a position with a result or an end the rules never write")
        self._st[i] = st
        self._z[i] = packed[1]
        self._has_rng[i] = self.load_generators(self._rngs[i], state, rng, agent_rngs)

    def step(self, actions: Any, live: Any, obs: Any, mask: Any, rewards: Any, terminated: Any) -> None:
        _step(self._st, self._z, self._rngs, self._has_rng, self._kt, self._stops, self._kinds, self._seat,
              self._phase_of, self._kind_of, self._number_of, self._off, np.asarray(actions, dtype=np.int64),
              np.asarray(live, dtype=np.bool_), obs, mask, rewards, terminated)


def _action_tables(player_actions: Sequence[Any], index: Mapping[str, int], nk: int) -> tuple[Any, Any, Any] | None:
    """``phase_of[number]`` and ``kind_of[number]`` (-1 for no card; phase -1 for a number that is
    no Gladius move), and ``number_of[phase, kind + 1]``; None when a legal move has no number
    (the mask could not show it)."""
    phases = {Attack: ATTACK, Defend: DEFEND, Discard: DISCARD}
    phase_of = np.full(len(player_actions), -1, dtype=np.int64)
    kind_of = np.full(len(player_actions), -1, dtype=np.int64)
    number_of = np.full((max(phases.values()) + 1, nk + 1), -1, dtype=np.int64)
    for number, action in enumerate(player_actions):
        phase = phases.get(type(action))
        if phase is None:
            continue
        k = -1 if action.card is None else index.get(action.card)
        if k is None or number_of[phase, k + 1] >= 0:
            continue
        phase_of[number], kind_of[number] = phase, k
        number_of[phase, k + 1] = number
    if (number_of[ATTACK] < 0).any() or (number_of[DEFEND] < 0).any() or (number_of[DISCARD, 1:] < 0).any():
        return None
    return phase_of, kind_of, number_of


def vector_steps(playouts: GladiusPlayouts, options: Any, num_envs: int, seat: int, kinds: Sequence[str | None],
                 player_actions: Sequence[Any]) -> GladiusSteps | None:
    """:meth:`GladiusPlayouts.vector_steps`: None for options it does not pack, an agent kind it
    does not compile, an encoder other than the game's exact one, or an action space that does
    not number every move."""
    from .. import observation_encoder
    from .encoding import RESULTS, GladiusEncoder
    from .game import GAME
    from .options import GladiusOptions
    from .views import END_REASONS

    if not isinstance(options, GladiusOptions):
        return None
    state = GAME.new_initial_state(options)
    assert isinstance(state, GladiusState)
    packed = playouts.pack(state)
    if packed is None:
        return None
    n = GAME.num_seats(options)
    agents = playouts.learner_agent_codes(kinds, seat, n)
    if agents is None:
        return None
    codes = np.array(agents, dtype=np.int64)
    encoder = observation_encoder(GAME, options)
    if (type(encoder) is not GladiusEncoder or tuple(RESULT_CODES[r] for r in RESULTS) != (1, 2, 3, 4, 5)
            or tuple(END_CODES[e] for e in END_REASONS[1:]) != (1, 2, 3)):
        return None  # (_encode writes the packed codes as the encoder's slots)
    at = encoder.offsets()
    absent = _DUEL_ONLY if options.solo else _SOLO_ONLY
    if any(name not in at for name in _PIECES if name not in absent):
        return None
    offsets = np.array([at.get(name, -1) for name in _PIECES], dtype=np.int64)
    kt, stops = packed[2], packed[3]
    tables = _action_tables(player_actions, state.setup.index, kt.shape[0])
    if tables is None:
        return None
    return GladiusSteps(playouts, options, (kt, stops), num_envs, seat, codes, tables, offsets)
