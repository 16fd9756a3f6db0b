"""Gorus Maximus vector environments, compiled: :class:`GorusMaximusSteps` steps ``num_envs``
games, each with one learner seat and random or heuristic agents in the others, in one numba
call (the contract is :class:`ludus.core.compiled.CompiledSteps`).

Why here and not in the interop layer: the rules, the agents and the generators are those of
:mod:`.compiled`, the very functions that play the playouts and the tournaments' games, so a
vector step plays exactly the Python environment's games. A slot is one *traced* position array
(``TRACED_SIZE`` long, so that the rules also keep the previous bout and the last round's
summary the observation shows), its card-set lanes and its generators: ``[ROLLOUT]`` is the
environment's (chance drawn card by card, for a state without a generator of its own),
``[CHANCE_RNG]`` the state's, ``[POLICY_RNGS + seat]`` each agent's.

The learner's observation is written as :class:`.interop.GorusMaximusEncoder` writes
``state.observation(seat)``, bit for bit, and from what that observation holds only: the
seat's own hand, every hand's and the stock's size (never their cards), the bout, the previous
bout, each side's collected cards (all played face up), the scores and the last round's summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.compiled import POLICY_RNGS, ROLLOUT, CompiledSteps, njit
from ...core.game import State
from ...core.rng import Rng
from .actions import Play
from .cards import NUM_CARDS, NUM_SCHOOLS
from .compiled import (
    _AGENT_RANDOM,
    _PHASE_CODE,
    BOUT_ACTOR,
    BOUT_CARD,
    BOUT_LEN,
    C_N,
    C_SIDE_OF,
    C_SIDES,
    C_TARGET,
    COLLECTED_ROW,
    COUNT,
    DEALER,
    INITIATING,
    LAST,
    LAST_CF,
    LAST_COUNT,
    LAST_GAINED,
    LAST_NO_EIGHT,
    LAST_PREFERRED,
    LAST_ZERO_SIDE,
    LEGAL_ROW,
    NO_ACTOR,
    P_OVER,
    P_PLAY,
    PHASE,
    PREFERRED,
    PREV_ACTOR,
    PREV_CARD,
    PREV_LEN,
    PREV_WINNER,
    ROUND,
    ROWS,
    SCHOOLS_MASK,
    SEATS,
    STATE_SIZE,
    STOCK_ROW,
    SUPPORT,
    TRACED_SIZE,
    TURN,
    WINNERS_MASK,
    GorusMaximusPlayouts,
    _below,
    _chance_step,
    _heuristic_card,
    _legal_cards,
    _nth_card,
    _play,
    _pop16,
    _settle,
    _unpack_lanes,
)
from .rules import GorusMaximusState

__all__ = ["GorusMaximusSteps", "vector_steps"]

_PIECES = (
    "seat", "phase", "round", "dealer", "to_move", "hand", "hand_sizes", "stock_size", "schools_in_play",
    "initiating", "preferred", "bout", "bout_last", "previous_bout", "previous_winner", "collected",
    "collected_counts", "support", "targets", "winners", "last_round", "last_round_preferred",
    "last_round_cf_plus", "last_round_cf_minus", "last_round_collected", "last_round_gained",
    "last_round_zero_side", "last_round_no_eight",
)
"""The encoder's pieces the compiled encoding writes; their offsets come from the encoder itself."""
(O_SEAT, O_PHASE, O_ROUND, O_DEALER, O_TO_MOVE, O_HAND, O_HAND_SIZES, O_STOCK_SIZE, O_SCHOOLS, O_INITIATING,
 O_PREFERRED, O_BOUT, O_BOUT_LAST, O_PREV_BOUT, O_PREV_WINNER, O_COLLECTED, O_COLLECTED_COUNTS, O_SUPPORT,
 O_TARGETS, O_WINNERS, O_LAST, O_LAST_PREFERRED, O_LAST_CF_PLUS, O_LAST_CF_MINUS, O_LAST_COLLECTED, O_LAST_GAINED,
 O_LAST_ZERO_SIDE, O_LAST_NO_EIGHT) = range(len(_PIECES))



# --------------------------------------------------------------------------- numba
@njit
def _set_cards(lanes: Any, r: int, row: Any, at: int) -> None:
    """``set_bits``: 1 at ``at + card`` for every card of the set in lane row ``r``."""
    for s in range(NUM_SCHOOLS):
        lane = lanes[r, s]
        while lane:
            low = lane & -lane
            row[at + s * 16 + _pop16(low - 1)] = 1.0
            lane ^= low


@njit
def _count(lanes: Any, r: int) -> int:
    total = 0
    for s in range(NUM_SCHOOLS):
        total += _pop16(lanes[r, s])
    return total


@njit
def _encode(st: Any, lanes: Any, cfg: Any, seat: int, off: Any, row: Any) -> None:
    """``GorusMaximusEncoder.write`` of ``seat``'s observation into ``row``, from the fields that
    observation holds (``views.observation_of``); the contenders are the actor row after the seats."""
    n = cfg[C_N]
    sides = cfg[C_SIDES]
    row[:] = 0.0
    row[off[O_SEAT] + seat] = 1.0
    phase = st[PHASE]
    row[off[O_PHASE] + phase] = 1.0  # the packed phase codes are _PHASES' order
    row[off[O_ROUND]] = st[ROUND]
    row[off[O_DEALER] + st[DEALER]] = 1.0
    if phase == P_PLAY:  # current_seats(): chance (negative) and the end show no seat
        row[off[O_TO_MOVE] + st[TURN]] = 1.0
    _set_cards(lanes, seat, row, off[O_HAND])
    for s in range(n):
        row[off[O_HAND_SIZES] + s] = _count(lanes, s)
    row[off[O_STOCK_SIZE]] = _count(lanes, STOCK_ROW)
    for s in range(NUM_SCHOOLS):
        if st[SCHOOLS_MASK] >> s & 1:
            row[off[O_SCHOOLS] + s] = 1.0
    if st[INITIATING] >= 0:
        row[off[O_INITIATING] + st[INITIATING]] = 1.0
    if st[PREFERRED] >= 0:
        row[off[O_PREFERRED] + st[PREFERRED]] = 1.0
    blen = st[BOUT_LEN]
    for i in range(blen):
        actor = st[BOUT_ACTOR + i]
        row[off[O_BOUT] + (n if actor < 0 else actor) * NUM_CARDS + st[BOUT_CARD + i]] = 1.0
    if blen:
        row[off[O_BOUT_LAST] + st[BOUT_CARD + blen - 1]] = 1.0
    for i in range(st[PREV_LEN]):
        actor = st[PREV_ACTOR + i]
        row[off[O_PREV_BOUT] + (n if actor < 0 else actor) * NUM_CARDS + st[PREV_CARD + i]] = 1.0
    winner = st[PREV_WINNER]
    if winner != NO_ACTOR:
        row[off[O_PREV_WINNER] + (n if winner < 0 else winner)] = 1.0
    for side in range(sides):
        _set_cards(lanes, COLLECTED_ROW + side, row, off[O_COLLECTED] + side * NUM_CARDS)
        row[off[O_COLLECTED_COUNTS] + side] = st[COUNT + side]
        row[off[O_SUPPORT] + side] = st[SUPPORT + side]
        row[off[O_TARGETS] + side] = cfg[C_TARGET + side]
    for s in range(n):
        if st[WINNERS_MASK] >> cfg[C_SIDE_OF + s] & 1:
            row[off[O_WINNERS] + s] = 1.0
    if st[LAST]:
        row[off[O_LAST]] = 1.0
        row[off[O_LAST_PREFERRED] + st[LAST_PREFERRED]] = 1.0
        for side in range(sides):
            cf = st[LAST_CF + side]
            if cf >= 0:
                row[off[O_LAST_CF_PLUS] + side] = cf
            else:
                row[off[O_LAST_CF_MINUS] + side] = -cf
            row[off[O_LAST_COLLECTED] + side] = st[LAST_COUNT + side]
            row[off[O_LAST_GAINED] + side] = st[LAST_GAINED + side]
        if st[LAST_ZERO_SIDE] >= 0:
            row[off[O_LAST_ZERO_SIDE] + st[LAST_ZERO_SIDE]] = 1.0
        row[off[O_LAST_NO_EIGHT]] = 1.0 if st[LAST_NO_EIGHT] else 0.0


@njit
def _step(st: Any, lanes: Any, rngs: Any, has_rng: Any, cfg: Any, cfgf: Any, kinds: Any, seat: int, card_of: Any,
          number_of: Any, off: Any, actions: Any, live: Any, obs: Any, mask: Any, rewards: Any,
          terminated: Any) -> None:
    """:meth:`GorusMaximusSteps.step` for every live slot: the learner's card, then chance and the
    agents as ``LudusVectorEnv._advance`` plays them (the loop of ``_run_agents``), to the
    learner's next turn or the end; then its observation, mask, reward and termination."""
    n = cfg[C_N]
    for i in range(st.shape[0]):
        if not live[i]:
            continue
        s_i = st[i]
        l_i = lanes[i]
        r_i = rngs[i]
        own = has_rng[i]
        a = actions[i]
        c = card_of[a] if 0 <= a < card_of.shape[0] else -1
        # the caller checked the action against the mask; a wrong one would corrupt the slot
        if c < 0 or s_i[PHASE] != P_PLAY or s_i[TURN] != seat:
            raise ValueError("vector step: not the learner's move")
        _legal_cards(s_i, l_i, seat)
        if not l_i[LEGAL_ROW, c >> 4] >> (c & 15) & 1:
            raise ValueError("vector step: an illegal card")
        _play(s_i, l_i, cfg, cfgf, r_i, own, seat, c)
        while True:
            phase = s_i[PHASE]
            while phase != P_PLAY and phase != P_OVER:  # explicit chance from the environment's generator
                _chance_step(s_i, l_i, cfg, cfgf, r_i, ROLLOUT)
                if own:
                    _settle(s_i, l_i, cfg, cfgf, r_i)
                phase = s_i[PHASE]
            if phase == P_OVER:
                break
            turn = s_i[TURN]
            if turn == seat:
                break
            if kinds[turn] == _AGENT_RANDOM:  # rng.choice(legal), a draw even for one card
                count = _legal_cards(s_i, l_i, turn)
                card = _nth_card(l_i, LEGAL_ROW, _below(r_i, POLICY_RNGS + turn, count))
            else:
                card = _heuristic_card(s_i, l_i, cfg, cfgf, r_i, turn)
            _play(s_i, l_i, cfg, cfgf, r_i, own, turn, card)
        _encode(s_i, l_i, cfg, seat, off, obs[i])
        m = mask[i]
        m[:] = 0
        over = s_i[PHASE] == P_OVER
        terminated[i] = over
        rewards[i] = 0.0
        if over:  # returns(): 1 shared among the seats of the winning sides
            winners = s_i[WINNERS_MASK]
            count = 0
            for s in range(n):
                if winners >> cfg[C_SIDE_OF + s] & 1:
                    count += 1
            if winners >> cfg[C_SIDE_OF + seat] & 1:
                rewards[i] = 1.0 / count
        else:
            _legal_cards(s_i, l_i, seat)
            for s in range(NUM_SCHOOLS):
                lane = l_i[LEGAL_ROW, s]
                while lane:
                    low = lane & -lane
                    m[number_of[s * 16 + _pop16(low - 1)]] = 1
                    lane ^= low


# --------------------------------------------------------------------------- the protocol
class GorusMaximusSteps(CompiledSteps):
    """``num_envs`` slots of traced positions, lanes and generators, and the tables that turn the
    action space's numbers into cards and back; built by :func:`vector_steps`."""

    def __init__(self, playouts: GorusMaximusPlayouts, config: tuple[Any, Any], num_envs: int, seat: int,
                 kinds: Any, card_of: Any, number_of: Any, offsets: Any) -> None:
        self._playouts = playouts
        self._cfg, self._cfgf = config
        self._seat = seat
        self._kinds = kinds
        self._card_of = card_of
        self._number_of = number_of
        self._off = offsets
        n = int(self._cfg[C_N])
        self._st = np.zeros((num_envs, TRACED_SIZE), dtype=np.int64)
        self._lanes = np.zeros((num_envs, ROWS, NUM_SCHOOLS), dtype=np.int64)
        self._rngs = np.zeros((num_envs, POLICY_RNGS + n), dtype=np.uint64)
        self._has_rng = np.zeros(num_envs, dtype=np.bool_)

    def load(self, i: int, state: State, rng: Rng, agent_rngs: Sequence[Rng | None]) -> None:
        packed = self._playouts.pack(state)
        if packed is None or packed[1] is not self._cfg:  # the options' arrays are shared per options
            raise ValueError("a state of other options than these vector steps'")
        assert isinstance(state, GorusMaximusState)  # pack took it
        st = self._st[i]
        st[:STATE_SIZE] = packed[0]
        st[STATE_SIZE:] = _traced(state)
        _unpack_lanes(st, self._lanes[i])
        self._has_rng[i] = self.load_generators(self._rngs[i], state, rng, agent_rngs)

    def step(self, actions: Any, live: Any, obs: Any, mask: Any, rewards: Any, terminated: Any) -> None:
        _step(self._st, self._lanes, self._rngs, self._has_rng, self._cfg, self._cfgf, self._kinds, self._seat,
              self._card_of, self._number_of, self._off, np.asarray(actions, dtype=np.int64),
              np.asarray(live, dtype=np.bool_), obs, mask, rewards, terminated)


def _traced(state: GorusMaximusState) -> list[int]:
    """The traced fields (``PREV_LEN`` on) of a Python state: its previous bout and the last round."""
    out = [0] * (TRACED_SIZE - STATE_SIZE)

    def put(field: int, value: int) -> None:
        out[field - STATE_SIZE] = value

    bout = state.previous_bout
    put(PREV_LEN, len(bout))
    put(PREV_WINNER, NO_ACTOR if state.previous_winner is None else state.previous_winner)
    for k, (actor, c) in enumerate(bout):
        put(PREV_ACTOR + k, actor)
        put(PREV_CARD + k, c)
    lr = state.last_round
    if lr is not None:
        put(LAST, 1)
        put(LAST_PREFERRED, lr.preferred)
        put(LAST_ZERO_SIDE, -1 if lr.preferred_zero_side is None else lr.preferred_zero_side)
        put(LAST_NO_EIGHT, int(lr.no_eight))
        for side in range(state.num_sides):
            put(LAST_CF + side, lr.crowd_favour[side])
            put(LAST_COUNT + side, lr.collected_counts[side])
            put(LAST_GAINED + side, lr.support_gained[side])
    return out


def vector_steps(playouts: GorusMaximusPlayouts, options: Any, num_envs: int, seat: int,
                 kinds: Sequence[str | None], player_actions: Sequence[Any]) -> GorusMaximusSteps | None:
    """:meth:`GorusMaximusPlayouts.vector_steps`: None for options it does not pack, an agent kind
    it does not compile, an encoder other than the game's exact one, or an action space that does
    not number every card."""
    from .. import observation_encoder
    from .game import GAME
    from .interop import _PHASES, GorusMaximusEncoder
    from .options import GorusMaximusOptions

    if not isinstance(options, GorusMaximusOptions):
        return None
    state = GAME.new_initial_state(options)
    assert isinstance(state, GorusMaximusState)
    packed = playouts.pack(state)
    if packed is None or state.n > SEATS:
        return None
    n = state.n
    agents = playouts.learner_agent_codes(kinds, seat, n)
    if agents is None:
        return None
    codes = np.array(agents, dtype=np.int64)
    encoder = observation_encoder(GAME, options)
    if type(encoder) is not GorusMaximusEncoder or tuple(_PHASE_CODE[p] for p in _PHASES) != tuple(range(6)):
        return None  # (_encode writes the packed phase code as the encoder's phase slot)
    at = encoder.offsets()
    if any(name not in at for name in _PIECES):
        return None
    offsets = np.array([at[name] for name in _PIECES], dtype=np.int64)
    card_of = np.full(len(player_actions), -1, dtype=np.int64)
    number_of = np.full(NUM_CARDS, -1, dtype=np.int64)
    for number, action in enumerate(player_actions):
        if type(action) is Play and number_of[action.card] < 0:
            card_of[number] = action.card
            number_of[action.card] = number
    if (number_of < 0).any():  # a legal card without a number: the mask could not show it
        return None
    return GorusMaximusSteps(playouts, (packed[1], packed[2]), num_envs, seat, codes, card_of, number_of, offsets)
