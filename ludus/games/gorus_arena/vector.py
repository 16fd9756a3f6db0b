"""Gorus Arena vector environments, compiled: :class:`GorusArenaSteps` steps ``num_envs`` games,
each with one learner seat and random or heuristic agents in the others, in one numba call (the
contract is :class:`ludus.core.compiled.CompiledSteps`).

Why here and not in the interop layer: the rules, the agents and the generators are those of
:mod:`.compiled`, the very functions that play the playouts and the tournaments' games, so a
vector step plays exactly the Python environment's games. A slot is one packed position
(:meth:`.compiled.GorusArenaPlayouts.pack`) followed by a trace of the log (``TR_*`` in
:mod:`.compiled`): the number of lines so far and the last ``EVENTS_SHOWN`` of them, each
reduced to what :func:`.knowledge.placed` reads (a recruit, a refill, a reveal, a kill, the
first round's line, or "another line"). The compiled rules write that trace as they play, line
for line with the engine's log, so the window holds the same lines as the observation's.

The learner's observation is written as :class:`.encoding.GorusArenaEncoder` writes
``state.observation(seat)``, bit for bit, and from what that observation holds only: every
public field, each seat's hidden cards as one set with the counts of hand, plan and draw pile,
the counts :func:`.knowledge.placed` finds in the log window (ported here line for line), and
the learner's own hand, plan and draw pile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.compiled import CHANCE_RNG, POLICY_RNGS, ROLLOUT, CompiledSteps, njit, rng_below
from ...core.game import State
from ...core.rng import Rng
from .actions import Attack, Done, Income, Pass, Pick, Place, Recruit
from .cards import KINDS, MAX_SEATS, NUM_CARDS, basics_of, cards_of
from .compiled import (
    A_ATTACK,
    A_DONE,
    A_INCOME,
    A_PASS,
    A_PICK,
    A_PLACE,
    A_RECRUIT,
    A_SCALE,
    G_ACTED,
    G_DEAD,
    G_MARKET,
    I_N,
    I_NDRAWS,
    I_NORDER,
    I_NQUEUE,
    I_PCARD,
    I_PHASE,
    I_PSEAT,
    I_ROUND,
    I_RTIED,
    I_SLOT,
    I_START,
    I_TIED,
    L_KILL,
    L_MARKET,
    L_OTHER,
    L_RECRUIT,
    L_REVEAL,
    L_ROUND1,
    M_DECK,
    M_DISCARD,
    M_HAND,
    MS,
    OFF_ARENA,
    OFF_DRAWS,
    OFF_ORDER,
    OFF_PLAN,
    OFF_QUEUE,
    P_OVER,
    PHASES,
    ROW,
    S_ARENA_LEN,
    S_COINS,
    S_PLAN_LEN,
    S_READY,
    S_SHIELD,
    SEAT_CHANCE,
    SEAT_NONE,
    SIZE,
    T_KIND,
    TABLE,
    TR_COUNT,
    TR_LINE,
    TR_RING,
    TRACED,
    W_BIDS,
    WEIGHTS,
    WINDOW,
    WORD,
    GorusArenaPlayouts,
    _apply,
    _chance,
    _current,
    _h_choose,
    _legal,
    _mask,
    _outcome,
    _pop,
    _score,
)
from .events import ATTACK_EV, MARKET, RECRUITS, REVEAL, ROUND
from .knowledge import _BY_KEY, KIND_INDEX, _read
from .rules import GorusArenaState

__all__ = ["GorusArenaSteps", "vector_steps"]

_PIECES = (
    "seat", "phase", "start", "ready", "round", "coins", "held", "planned", "deck_count", "shield", "scores",
    "reserve", "discard", "known_hand", "known_pile", "arena", "acted", "market", "dead", "slot", "order",
    "round_tied", "tied", "queue_seat", "queue_card", "pending_seat", "pending_card", "draws_seat", "draws_source",
    "draws_left", "draws_drawn", "hand", "plan", "deck",
)
"""The encoder's pieces, in its order; their offsets come from the encoder itself."""
(O_SEAT, O_PHASE, O_START, O_READY, O_ROUND, O_COINS, O_HELD, O_PLANNED, O_DECK_COUNT, O_SHIELD, O_SCORES,
 O_RESERVE, O_DISCARD, O_KNOWN_HAND, O_KNOWN_PILE, O_ARENA, O_ACTED, O_MARKET, O_DEAD, O_SLOT, O_ORDER,
 O_ROUND_TIED, O_TIED, O_QUEUE_SEAT, O_QUEUE_CARD, O_PENDING_SEAT, O_PENDING_CARD, O_DRAWS_SEAT, O_DRAWS_SOURCE,
 O_DRAWS_LEFT, O_DRAWS_DRAWN, O_HAND, O_PLAN, O_DECK) = range(len(_PIECES))

_BASICS = np.array([[KIND_INDEX[c] for c in cards_of(basics_of(s))] for s in range(MAX_SEATS)], dtype=np.int64)
"""Seat -> the kind indices of its starting hand (the basics), as :mod:`.knowledge` counts them; an
argument of the compiled code, not a constant frozen into it, so that numba's disk cache never
outlives a change of ``data/cards.toml`` (as :data:`.compiled.TABLE`)."""


# --------------------------------------------------------------------------- numba
@njit
def _set_slots(row: Any, base: int, w0: int, w1: int, cslot: Any) -> None:
    """1 at ``base + cslot[card]`` for every card of a two-word set."""
    while w0:
        low = w0 & -w0
        row[base + cslot[_pop(low - 1)]] = 1.0
        w0 ^= low
    while w1:
        low = w1 & -w1
        row[base + cslot[WORD + _pop(low - 1)]] = 1.0
        w1 ^= low


@njit
def _placed(st: Any, basics: Any, free_plan: bool, team: bool, up: Any, gone: Any, seen: Any) -> None:
    """:func:`.knowledge.placed`'s reading of the log window, from its newest line back: ``up[s, k]``
    cards of kind ``k`` known to be in seat ``s``'s hand or plan (``gone`` and ``seen`` are work)."""
    n = st[I_N]
    up[:, :] = 0
    gone[:, :] = 0
    seen[:] = 1
    left = n
    count = st[TR_COUNT]
    lines = count if count < WINDOW else WINDOW
    for j in range(lines):
        at = TR_RING + (count - 1 - j) % WINDOW * TR_LINE
        code = st[at]
        if code == L_OTHER or (code == L_KILL and not team):
            continue
        if code == L_ROUND1:  # the game's first line: every hand was its seat's basics
            for s in range(n):
                if seen[s]:
                    for b in range(basics.shape[1]):
                        k = basics[s, b]
                        if gone[s, k]:
                            gone[s, k] -= 1
                        else:
                            up[s, k] += 1
            break
        s = st[at + 1]
        if not seen[s]:
            continue
        nk = st[at + 2]
        if code in (L_RECRUIT, L_MARKET):
            for i in range(nk):  # (none when a name was unknown)
                k = st[at + 3 + i]
                if gone[s, k]:
                    gone[s, k] -= 1
                else:
                    up[s, k] += 1
            continue
        if code == L_REVEAL and not free_plan:  # the whole hand was planned and turned over
            stop = True
        else:  # a reveal with free_plan, or a kill with team: each card may have been one of those up
            stop = nk < 0
            for i in range(nk):
                gone[s, st[at + 3 + i]] += 1
        if stop:
            seen[s] = 0
            left -= 1
            if not left:
                break


@njit
def _known_work(kinds: int) -> tuple[Any, Any, Any, Any]:
    """Work space of :func:`_encode`'s placements, for ``kinds`` card kinds: per seat and kind the
    cards known up and the lines that may have taken one away, the seats still read, one seat's
    hidden cards per kind."""
    return (np.zeros((MS, kinds), np.int64), np.zeros((MS, kinds), np.int64), np.ones(MS, np.int64),
            np.zeros(kinds, np.int64))


@njit
def _encode(st: Any, tab: Any, seat: int, off: Any, cslot: Any, kslot: Any, basics: Any, free_plan: bool,
            team: bool, row: Any, known: Any) -> None:
    """``GorusArenaEncoder.encode_into`` of ``seat``'s observation into ``row``, from the fields that
    observation holds (``views.observe``) and the traced log window. ``known`` is work space
    (:func:`_known_work`), made once by the caller rather than at every step."""
    n = st[I_N]
    c = off[O_DISCARD] - off[O_RESERVE]
    c //= n  # the card slots of a card piece
    row[:] = 0.0
    row[off[O_SEAT] + seat] = 1.0
    row[off[O_PHASE] + st[I_PHASE]] = 1.0
    row[off[O_START] + st[I_START]] = 1.0
    row[off[O_ROUND]] = st[I_ROUND]
    for s in range(n):
        if st[S_READY + s]:
            row[off[O_READY] + s] = 1.0
        h = _mask(M_HAND, s)
        d = _mask(M_DECK, s)
        x = _mask(M_DISCARD, s)
        row[off[O_COINS] + s] = st[S_COINS + s]
        row[off[O_HELD] + s] = _pop(st[h]) + _pop(st[h + 1])
        row[off[O_PLANNED] + s] = st[S_PLAN_LEN + s]
        row[off[O_DECK_COUNT] + s] = _pop(st[d]) + _pop(st[d + 1])
        row[off[O_SHIELD] + s] = st[S_SHIELD + s]
        row[off[O_SCORES] + s] = _score(st, tab, s)
        base = off[O_RESERVE] + s * c
        _set_slots(row, base, st[h] | st[d], st[h + 1] | st[d + 1], cslot)
        for j in range(st[S_PLAN_LEN + s]):
            row[base + cslot[st[OFF_PLAN + s * ROW + j]]] = 1.0
        _set_slots(row, off[O_DISCARD] + s * c, st[x], st[x + 1], cslot)
        for j in range(st[S_ARENA_LEN + s]):
            row[off[O_ARENA] + (s * ROW + j) * c + cslot[st[OFF_ARENA + s * ROW + j]]] = 1.0
    _set_slots(row, off[O_ACTED], st[G_ACTED], st[G_ACTED + 1], cslot)
    _set_slots(row, off[O_MARKET], st[G_MARKET], st[G_MARKET + 1], cslot)
    _set_slots(row, off[O_DEAD], st[G_DEAD], st[G_DEAD + 1], cslot)
    if st[I_SLOT] >= 0:
        row[off[O_SLOT] + st[I_SLOT]] = 1.0
    for i in range(st[I_NORDER]):
        row[off[O_ORDER] + i * n + st[OFF_ORDER + i]] = 1.0
    if st[I_RTIED]:
        row[off[O_ROUND_TIED]] = 1.0
    if st[I_TIED]:
        row[off[O_TIED]] = 1.0
    for i in range(st[I_NQUEUE]):
        row[off[O_QUEUE_SEAT] + i * n + st[OFF_QUEUE + 2 * i]] = 1.0
        row[off[O_QUEUE_CARD] + i * c + cslot[st[OFF_QUEUE + 2 * i + 1]]] = 1.0
    if st[I_PSEAT] >= 0:
        row[off[O_PENDING_SEAT] + st[I_PSEAT]] = 1.0
        row[off[O_PENDING_CARD] + cslot[st[I_PCARD]]] = 1.0
    for i in range(st[I_NDRAWS]):
        at = OFF_DRAWS + 4 * i
        row[off[O_DRAWS_SEAT] + i * n + st[at]] = 1.0
        row[off[O_DRAWS_SOURCE] + i * 2 + st[at + 1]] = 1.0
        row[off[O_DRAWS_LEFT] + i] = st[at + 2]
        row[off[O_DRAWS_DRAWN] + i] = st[at + 3]
    h = _mask(M_HAND, seat)
    _set_slots(row, off[O_HAND], st[h], st[h + 1], cslot)
    for j in range(st[S_PLAN_LEN + seat]):
        row[off[O_PLAN] + j * c + cslot[st[OFF_PLAN + seat * ROW + j]]] = 1.0
    d = _mask(M_DECK, seat)
    _set_slots(row, off[O_DECK], st[d], st[d + 1], cslot)
    # what the log places of the hidden cards (knowledge.placed): certain counts per seat and kind
    up, gone, seen, hidden = known
    kinds = hidden.shape[0]
    _placed(st, basics, free_plan, team, up, gone, seen)
    width = off[O_KNOWN_PILE] - off[O_KNOWN_HAND]
    width //= n  # the kind slots of a placement piece
    for s in range(n):
        hidden[:] = 0
        h = _mask(M_HAND, s)
        d = _mask(M_DECK, s)
        for w in range(2):
            m = st[h + w] | st[d + w]
            while m:
                low = m & -m
                hidden[tab[T_KIND, w * WORD + _pop(low - 1)]] += 1
                m ^= low
        for j in range(st[S_PLAN_LEN + s]):
            hidden[tab[T_KIND, st[OFF_PLAN + s * ROW + j]]] += 1
        ups = _pop(st[h]) + _pop(st[h + 1]) + st[S_PLAN_LEN + s]
        deck = _pop(st[d]) + _pop(st[d + 1])
        total = 0
        for k in range(kinds):
            total += min(up[s, k], hidden[k])
        trust = total <= ups  # else a hand-made position: only the counts
        if not trust:
            total = 0
        g = ups - total
        for k in range(kinds):
            if hidden[k] == 0:
                continue
            x = min(up[s, k], hidden[k]) if trust else 0
            rest = hidden[k] - x
            a = x + (rest - deck if rest > deck else 0)
            b = rest - g if rest > g else 0
            at = off[O_KNOWN_HAND] + s * width + kslot[k]
            if a:
                row[at] = a
            if b:
                row[at + off[O_KNOWN_PILE] - off[O_KNOWN_HAND]] = b


@njit
def _settle(st: Any, tab: Any, work: Any, rngs: Any) -> None:
    """The state's own chance (``CHANCE_RNG``), as ``State.apply`` settles it after each move."""
    while _current(st) == SEAT_CHANCE:
        _chance(st, tab, work, rngs, CHANCE_RNG)


@njit
def _step(st: Any, tab: Any, wt: Any, rngs: Any, has_rng: Any, kinds: Any, seat: int, code_of: Any,
          number_of: Any, off: Any, cslot: Any, kslot: Any, basics: Any, free_plan: bool, team: bool, actions: Any,
          live: Any, obs: Any, mask: Any, rewards: Any, terminated: Any) -> None:
    """:meth:`GorusArenaSteps.step` for every live slot: the learner's move, then chance and the
    agents as ``LudusVectorEnv._advance`` plays them (the loop of ``_run_agents``), to the learner's
    next decision or the end; then its observation, mask, reward and termination."""
    work = np.empty(2 * tab.shape[1] + 8 + W_BIDS, dtype=np.int64)
    out = np.zeros(2 + 2 * MS, dtype=np.float64)
    known = _known_work(kslot.shape[0])  # one count per kind of KINDS
    for i in range(st.shape[0]):
        if not live[i]:
            continue
        s_i = st[i]
        r_i = rngs[i]
        own = has_rng[i]
        a = actions[i]
        # the caller checked the action against the mask; a wrong one would corrupt the slot
        if not 0 <= a < code_of.shape[0] or code_of[a] < 0 or _current(s_i) != seat:
            raise ValueError("vector step: not the learner's move")
        code = code_of[a]
        count = _legal(s_i, tab, work, seat)
        j = 0
        while j < count and work[j] != code:
            j += 1
        if j == count:
            raise ValueError("vector step: an illegal move")
        _apply(s_i, tab, work, seat, code)
        if own:
            _settle(s_i, tab, work, r_i)
        while True:
            actor = _current(s_i)
            while actor == SEAT_CHANCE:  # explicit chance from the environment's generator
                _chance(s_i, tab, work, r_i, ROLLOUT)
                if own:
                    _settle(s_i, tab, work, r_i)
                actor = _current(s_i)
            if actor in (SEAT_NONE, seat):
                break
            count = _legal(s_i, tab, work, actor)
            if kinds[actor] == 0:  # the random agent draws even for a forced move
                action = work[rng_below(r_i, POLICY_RNGS + actor, count)]
            elif count == 1:
                action = work[0]
            else:
                action = _h_choose(s_i, tab, wt, work, r_i, actor, count)
            _apply(s_i, tab, work, actor, action)
            if own:
                _settle(s_i, tab, work, r_i)
        _encode(s_i, tab, seat, off, cslot, kslot, basics, free_plan, team, obs[i], known)
        m = mask[i]
        m[:] = 0
        over = s_i[I_PHASE] == P_OVER
        terminated[i] = over
        rewards[i] = 0.0
        if over:  # returns(), as the playouts report them: [decisions, finished, scores..., returns...]
            out[:] = 0.0
            _outcome(s_i, tab, out, 0, True)
            rewards[i] = out[2 + s_i[I_N] + seat]
        elif actor == seat:
            count = _legal(s_i, tab, work, seat)
            for j in range(count):
                m[number_of[work[j]]] = 1


# --------------------------------------------------------------------------- the protocol
class GorusArenaSteps(CompiledSteps):
    """``num_envs`` slots of packed, traced positions and generators, and the tables that turn the
    action space's numbers into move codes and back; built by :func:`vector_steps`."""

    def __init__(self, playouts: GorusArenaPlayouts, options: Any, num_envs: int, seat: int, kinds: Any,
                 actions: tuple[Any, Any], slots: tuple[Any, Any, Any]) -> None:
        self._playouts = playouts
        self._options = options
        self._seat = seat
        self._kinds = kinds
        self._code_of, self._number_of = actions
        self._off, self._cslot, self._kslot = slots
        self._free_plan = bool(options.free_plan)
        self._team = options.attack_targets == "team"
        self._st = np.zeros((num_envs, TRACED), dtype=np.int64)
        self._rngs = np.zeros((num_envs, POLICY_RNGS + options.players), dtype=np.uint64)
        self._has_rng = np.zeros(num_envs, dtype=np.bool_)

    def load(self, i: int, state: State, rng: Rng, agent_rngs: Sequence[Rng | None]) -> None:
        if not isinstance(state, GorusArenaState) or (state.options is not self._options
                                                      and state.options != self._options):
            raise ValueError("a state of other options than these vector steps'")
        packed = self._playouts.pack(state)
        assert packed is not None
        trace = _trace(state.log, state.n)  # (raises before the slot changes)
        self._st[i, :SIZE] = packed[0]
        self._st[i, SIZE:] = trace
        self._has_rng[i] = self.load_generators(self._rngs[i], state, rng, agent_rngs)

    def step(self, actions: Any, live: Any, obs: Any, mask: Any, rewards: Any, terminated: Any) -> None:
        _step(self._st, TABLE, WEIGHTS, self._rngs, self._has_rng, self._kinds, self._seat, self._code_of,
              self._number_of, self._off, self._cslot, self._kslot, _BASICS, self._free_plan, self._team,
              np.asarray(actions, dtype=np.int64), np.asarray(live, dtype=np.bool_), obs, mask, rewards, terminated)


def _trace(log: Sequence[Any], n: int) -> Any:
    """The trace of a log (``TR_*``): its length and its last ``WINDOW`` lines, reduced as the
    compiled rules write them; a ValueError for a text line the trace cannot hold."""
    trace = np.zeros(TRACED - SIZE, dtype=np.int64)
    trace[TR_COUNT - SIZE] = len(log)
    window = log[-WINDOW:]
    first = len(log) - len(window)
    for j, event in enumerate(window):
        code, seat, kinds = _reduce(event, n)
        at = TR_RING - SIZE + (first + j) % WINDOW * TR_LINE
        trace[at] = code
        trace[at + 1] = seat
        if kinds is None:
            trace[at + 2] = -1
        else:
            trace[at + 2] = len(kinds)
            trace[at + 3:at + 3 + len(kinds)] = kinds
    return trace


def _reduce(event: Any, n: int) -> tuple[int, int, tuple[int, ...] | None]:
    """One log line as (trace code, seat, kind indices or None), as :func:`.knowledge.placed` reads it."""
    if type(event) is not str:
        code = event[0]
        if code == ROUND:
            return (L_ROUND1 if event[1] == 1 else L_OTHER), -1, ()
        if code == REVEAL:
            return L_REVEAL, event[1], tuple(KIND_INDEX[c] for c in event[2])
        if code == RECRUITS:
            return L_RECRUIT, event[1], (_BY_KEY[event[3]],)
        if code == MARKET:
            return L_MARKET, event[1], (KIND_INDEX[event[2]],)
        if code == ATTACK_EV and event[6]:
            return L_KILL, event[3], (KIND_INDEX[event[4]],)
        return L_OTHER, -1, ()
    got = _read(event)
    if got is None:
        return L_OTHER, -1, ()
    code, seat, kinds = got
    if code == ROUND:
        return L_ROUND1, -1, ()
    if seat >= n:  # (placed skips a seat the game does not have)
        return L_OTHER, -1, ()
    if seat < 0 or (kinds is not None and len(kinds) > ROW):
        raise ValueError(f"a log line the compiled steps cannot read: {event!r}")
    return {REVEAL: L_REVEAL, RECRUITS: L_RECRUIT, MARKET: L_MARKET, ATTACK_EV: L_KILL}[code], seat, kinds


def _action_tables(player_actions: Sequence[Any], options: Any) -> tuple[Any, Any] | None:
    """``code_of[number]`` (-1 for a number that is no Gorus Arena move) and ``number_of[code]``;
    None when a move that can be legal with ``options`` has no number (the mask could not show it)."""
    from .encoding import card_ids, kind_keys

    index = {kind.key: k for k, kind in enumerate(KINDS)}
    code_of = np.full(len(player_actions), -1, dtype=np.int64)
    number_of = np.full(7 * A_SCALE, -1, dtype=np.int64)
    simple = {Done: A_DONE, Income: A_INCOME, Pass: A_PASS}
    for number, action in enumerate(player_actions):
        kind = type(action)
        code = -1
        if kind in simple:
            code = simple[kind] * A_SCALE
        elif kind in (Place, Recruit, Pick) and action.card in index:
            code = {Place: A_PLACE, Recruit: A_RECRUIT, Pick: A_PICK}[kind] * A_SCALE + index[action.card]
        elif kind is Attack and type(action.target) is int and 0 <= action.target < NUM_CARDS:
            code = A_ATTACK * A_SCALE + action.target
        if code >= 0 and number_of[code] < 0:
            code_of[number], number_of[code] = code, number
    keys = kind_keys(options)
    needed = [A_DONE * A_SCALE, A_INCOME * A_SCALE, A_PASS * A_SCALE]
    needed += [A_PLACE * A_SCALE + index[key] for key in keys]
    needed += [A_RECRUIT * A_SCALE + index[key] for key in keys]
    needed += [A_PICK * A_SCALE + index[kind.key] for kind in KINDS if kind.gladiator]
    needed += [A_ATTACK * A_SCALE + c for c in card_ids(options) if KINDS[KIND_INDEX[c]].gladiator]
    if (number_of[needed] < 0).any():
        return None
    return code_of, number_of


def vector_steps(playouts: GorusArenaPlayouts, options: Any, num_envs: int, seat: int,
                 kinds: Sequence[str | None], player_actions: Sequence[Any]) -> GorusArenaSteps | None:
    """:meth:`GorusArenaPlayouts.vector_steps`: None for options other than the game's, an agent kind
    it does not compile, an encoder other than the game's exact one, or an action space that does
    not number every move."""
    from .. import observation_encoder
    from .encoding import PHASES as ENCODED_PHASES
    from .encoding import GorusArenaEncoder, card_ids, kind_keys
    from .game import GAME
    from .options import GorusArenaOptions

    if not isinstance(options, GorusArenaOptions) or tuple(PHASES) != tuple(ENCODED_PHASES):
        return None
    agents = playouts.learner_agent_codes(kinds, seat, GAME.num_seats(options))
    if agents is None:
        return None
    encoder = observation_encoder(GAME, options)
    if type(encoder) is not GorusArenaEncoder:
        return None
    at = encoder.offsets()
    if tuple(at) != _PIECES:
        return None
    offsets = np.array([at[name] for name in _PIECES], dtype=np.int64)
    cslot = np.full(NUM_CARDS, -1, dtype=np.int64)
    for i, c in enumerate(card_ids(options)):
        cslot[c] = i
    kslot = np.full(len(KINDS), -1, dtype=np.int64)
    for i, key in enumerate(kind_keys(options)):
        kslot[_BY_KEY[key]] = i
    tables = _action_tables(player_actions, options)
    if tables is None:
        return None
    return GorusArenaSteps(playouts, options, num_envs, seat, np.array(agents, dtype=np.int64), tables,
                           (offsets, cslot, kslot))
