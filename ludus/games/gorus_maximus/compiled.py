"""Gorus Maximus playouts compiled with numba: the rules of :mod:`.rules` and :mod:`.fast` for
random playouts, and whole tournament games of the random and heuristic agents
(:meth:`GorusMaximusPlayouts.run_agents`), over integer arrays.

The Python engine stays the reference; this module plays exactly its games, faster (see
:mod:`ludus.core.compiled` for the contract). What it reproduces, and from where:

* legal moves in the engine's order (ascending card index: schools are kept sorted, and a hand's
  lane lists its ranks from the lowest), so ``legal[below(len(legal))]`` picks the same card;
* a played card as :func:`.fast.fast_apply` plays it (the whole bout inlined for 3+ players, the
  2-player draw and the solo contenders through the general rules of :mod:`.rules`);
* chance without a state generator as ``sample_chance`` draws it (card by card from the stock,
  the schools by ``Rng.weighted``), and with one as :func:`.fast.fast_settle_chance` does (a
  whole troupe set dealt from one shuffle of the stock, draws and reveals card by card);
* the end of a round (Crowd Favour, Crowd Support, the tiebreaks and ``final-tie``), ``scores``
  and ``returns``;
* the agents' choices: ``RandomAgent`` as ``rng.choice(legal)`` (a draw even for one legal card),
  and :class:`.heuristic.GorusMaximusHeuristic` from its seat's view, every float operation of its
  score in the same order (its ``**`` from a table evaluated in Python, its ``sum`` as this
  Python sums), its noise from its own generator, the first best card kept.

A state is packed as three arrays: the position (one int64 array, layout below), and the
options' constants (ints, and floats: the schools' weighted draw, the heuristic's worth of the
preferred 0), built once per options.
Card sets are 80-bit masks in the engine; here each is two int64 words (schools 0-2 in the low
48 bits, schools 3-4 in the high word) in the packed array, and one 16-bit lane per school while
a playout runs. Fields the engine leaves stale and never reads again (the top card of a finished
bout, the turn between deals, ``dealt`` after the deal) are packed as fixed values, so two
positions that play the same pack equal.

Only the random rollout policy is compiled (the Gorus Maximus bots roll out at random); the
heuristic plays in whole games of agents, and in the vector environment's stepping
(:mod:`.vector`), whose longer position arrays also keep what the observation remembers
(the previous bout, the last round's summary: ``PREV_LEN`` on).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.compiled import (
    CHANCE_RNG,
    POLICY_RNGS,
    ROLLOUT,
    CompiledPlayouts,
    CompiledSteps,
    njit,
    rng_next,
    rng_random,
)
from ...core.playout import MAX_PLAYOUT_DECISIONS
from .cards import (
    HAND_SIZE,
    NUM_SCHOOLS,
    PHASE_DEAL,
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_REVEAL,
    PHASE_SCHOOLS,
    setup_for,
)
from .rules import GorusMaximusState

if TYPE_CHECKING:
    from .options import GorusMaximusOptions

__all__ = ["PLAYOUTS", "GorusMaximusPlayouts"]

# --------------------------------------------------------------------------- the packed layout
# phases
P_SCHOOLS, P_DEAL, P_PLAY, P_DRAW, P_REVEAL, P_OVER = 0, 1, 2, 3, 4, 5
_PHASE_CODE = {
    PHASE_SCHOOLS: P_SCHOOLS,
    PHASE_DEAL: P_DEAL,
    PHASE_PLAY: P_PLAY,
    PHASE_DRAW: P_DRAW,
    PHASE_REVEAL: P_REVEAL,
    PHASE_OVER: P_OVER,
}
CONTENDER_ID = -2  # cards.CONTENDER, the actor of a contender card
SEATS = 8  # room for the most seats (and sides) a game has

# the position: int64 array
PHASE, ROUND, DEALER, DEALT, TURN, INITIATING, PREFERRED, TOP, TOP_ACTOR, DRAWER = range(10)
SCHOOLS_MASK, WINNERS_MASK, BOUT_LEN = 10, 11, 12
SUPPORT = 13  # per side
COUNT = SUPPORT + SEATS  # cards collected this round, per side
BOUT_ACTOR = COUNT + SEATS
BOUT_CARD = BOUT_ACTOR + SEATS
HANDS = BOUT_CARD + SEATS  # two words per seat
STOCK = HANDS + 2 * SEATS  # two words
COLLECTED = STOCK + 2  # two words per side
STATE_SIZE = COLLECTED + 2 * SEATS

# the observation's memory, kept only where the position array is longer than STATE_SIZE (the
# vector environment's slots, :mod:`.vector`): the previous bout and its holder, and the summary
# of the round that ended last. Playouts never read them, so they pay one length test a bout.
PREV_LEN = STATE_SIZE
PREV_WINNER = PREV_LEN + 1  # NO_ACTOR: none (a new round)
PREV_ACTOR = PREV_WINNER + 1  # SEATS
PREV_CARD = PREV_ACTOR + SEATS  # SEATS
LAST = PREV_CARD + SEATS  # 1 once a round has ended
LAST_PREFERRED, LAST_ZERO_SIDE, LAST_NO_EIGHT = LAST + 1, LAST + 2, LAST + 3  # zero side -1: none
LAST_CF = LAST + 4  # per side
LAST_COUNT = LAST_CF + SEATS  # per side
LAST_GAINED = LAST_COUNT + SEATS  # per side
TRACED_SIZE = LAST_GAINED + SEATS
NO_ACTOR = -9

# the options: int64 array
C_N, C_SOLO, C_TWO, C_SIDES, C_BOUT, C_TOTAL, C_RANKS, C_PZ_DELTA, C_SHARED, C_COMBOS, C_NEUMAIER = range(11)
C_CF = 11  # Crowd Favour per rank, 16
C_SIDE_OF = C_CF + 16  # each seat's side, SEATS
C_TARGET = C_SIDE_OF + SEATS  # each side's target, SEATS
C_COMBO = C_TARGET + SEATS  # the schools a ChooseSchools outcome picks, as masks, at most 10
CONFIG_SIZE = C_COMBO + 10

# the options' floats: float64 array
F_SUMS = 0  # Rng.weighted's total, then its running sums over the ChooseSchools outcomes, at most 10
F_ZERO_WORTH = F_SUMS + 11  # what the heuristic counts the preferred school's 0 worth
FLOATS_SIZE = F_ZERO_WORTH + 1

_AGENT_RANDOM, _AGENT_HEURISTIC = 0, 1  # codes of GorusMaximusPlayouts.agent_kinds

# card sets while a playout runs: one 16-bit lane per school, rows of a (ROWS, 5) array
STOCK_ROW = SEATS
COLLECTED_ROW = SEATS + 1
LEGAL_ROW = COLLECTED_ROW + SEATS  # scratch: the legal cards of the seat deciding
ROWS = LEGAL_ROW + 1

_LOW = (1 << 48) - 1
_MAX_DECISIONS = MAX_PLAYOUT_DECISIONS


# --------------------------------------------------------------------------- the deal's shuffle
def _factorials() -> tuple[Any, Any, Any]:
    """For n <= 80: n! as 32-bit limbs (lowest first), and how ``Rng.below_big(n!)`` draws it
    (64-bit words, bits dropped)."""
    cards = NUM_SCHOOLS * 16
    table = np.zeros((cards + 1, 2 * ((cards * 7 + 63) // 64) + 2), dtype=np.uint64)
    draw = np.zeros((cards + 1, 2), dtype=np.int64)
    f = 1
    for n in range(cards + 1):
        f = f * n if n > 1 else 1
        bits = (f - 1).bit_length()
        words = (bits + 63) // 64 or 1
        draw[n] = words, words * 64 - bits
        for k in range(table.shape[1]):
            table[n, k] = (f >> (32 * k)) & 0xFFFFFFFF
    return table, draw[:, 0].copy(), draw[:, 1].copy()


_FACT, _FACT_WORDS, _FACT_EXTRA = _factorials()
_FACT_LIMBS = _FACT.shape[1]
_U32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_LIMB_BOUND = 1 << 32
_REST = np.array([(1 << 64) % n if n else 0 for n in range(NUM_SCHOOLS * 16 + 1)], dtype=np.uint64)
"""2**64 mod n for every count of cards, so that a draw below n needs one division, not two."""
_NONE = np.uint64(0)


@njit
def _below(rngs: Any, i: int, n: int) -> Any:
    """``Rng.below(n)`` for 1 <= n <= 80 (``ludus.core.compiled.rng_below`` with its bound's
    remainder from a table): the same draws, the same result."""
    bound = np.uint64(n)
    rest = _REST[n]
    while True:
        x = rng_next(rngs, i)
        if rest == _NONE or x < _NONE - rest:
            return np.int64(x % bound)


@njit
def _shuffle(rngs: Any, seq: Any, n: int) -> None:
    """``Rng.shuffle`` of ``seq[:n]`` from the state's generator: one draw below n!, then its
    mixed-radix digits. The same as ``ludus.core.compiled.rng_shuffle``, faster for a deal: one
    long division by the product of several radices gives several digits at once."""
    if n < 2:
        return
    words = _FACT_WORDS[n]
    extra = np.uint64(_FACT_EXTRA[n])
    x = np.zeros(_FACT_LIMBS, dtype=np.uint64)
    size = 2 * words
    while True:  # below_big(n!): whole words, the extra bits dropped, rejected until below n!
        for w in range(words):
            z = rng_next(rngs, CHANCE_RNG)
            k = 2 * (words - 1 - w)
            x[k] = z & _LOW32
            x[k + 1] = z >> _U32
        shift = extra
        if shift >= _U32:  # a whole limb first
            for k in range(size - 1):
                x[k] = x[k + 1]
            x[size - 1] = 0
            shift -= _U32
        if shift:
            carry = np.uint64(0)
            for k in range(size - 1, -1, -1):
                cur = x[k]
                x[k] = (cur >> shift) | carry
                carry = (cur << (_U32 - shift)) & _LOW32
        below = False
        for k in range(size - 1, -1, -1):
            f = _FACT[n, k]
            if x[k] != f:
                below = x[k] < f
                break
        if below:
            break
    top = size  # limbs above top are zero
    j = n - 1
    while j >= 1:
        # radices j+1, j, ... while their product fits a limb
        d = 1
        last = j
        while last >= 1 and d * (last + 1) < _LIMB_BOUND:
            d *= last + 1
            last -= 1
        big = np.uint64(d)
        rem = np.uint64(0)
        for k in range(top - 1, -1, -1):
            cur = (rem << _U32) | x[k]
            x[k] = cur // big
            rem = cur % big
        while top > 0 and x[top - 1] == 0:
            top -= 1
        r = np.int64(rem)  # below 2**32
        while j > last:
            radix = j + 1
            i = r % radix
            r //= radix
            seq[j], seq[i] = seq[i], seq[j]
            j -= 1


# --------------------------------------------------------------------------- numba rules
@njit
def _pop16(x: int) -> int:
    """Cards in a 16-bit lane."""
    x = x - ((x >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


@njit
def _nth_card(lanes: Any, row: int, k: int) -> int:
    """The ``k``-th card (from 0, in ascending card order) of the set in row ``row`` of ``lanes``."""
    for s in range(NUM_SCHOOLS):
        lane = lanes[row, s]
        c = _pop16(lane)
        if k < c:
            for _ in range(k):  # drop the k lowest cards of the lane
                lane &= lane - 1
            return s * 16 + _pop16((lane & -lane) - 1)
        k -= c
    return -1


@njit
def _unpack_lanes(st: Any, lanes: Any) -> None:
    for row in range(LEGAL_ROW):
        if row < SEATS:
            at = HANDS + 2 * row
        elif row == STOCK_ROW:
            at = STOCK
        else:
            at = COLLECTED + 2 * (row - COLLECTED_ROW)
        lo = st[at]
        hi = st[at + 1]
        lanes[row, 0] = lo & 0xFFFF
        lanes[row, 1] = (lo >> 16) & 0xFFFF
        lanes[row, 2] = (lo >> 32) & 0xFFFF
        lanes[row, 3] = hi & 0xFFFF
        lanes[row, 4] = (hi >> 16) & 0xFFFF


@njit
def _pack_lanes(st: Any, lanes: Any) -> None:
    for row in range(LEGAL_ROW):
        if row < SEATS:
            at = HANDS + 2 * row
        elif row == STOCK_ROW:
            at = STOCK
        else:
            at = COLLECTED + 2 * (row - COLLECTED_ROW)
        st[at] = lanes[row, 0] | (lanes[row, 1] << 16) | (lanes[row, 2] << 32)
        st[at + 1] = lanes[row, 3] | (lanes[row, 4] << 16)


@njit
def _normalize(st: Any) -> None:
    """Fixed values for the fields the engine leaves stale (as :meth:`GorusMaximusPlayouts.pack` writes them)."""
    phase = st[PHASE]
    blen = st[BOUT_LEN]
    if blen == 0:
        st[TOP] = -1
        st[TOP_ACTOR] = -3
    for i in range(blen, SEATS):
        st[BOUT_ACTOR + i] = 0
        st[BOUT_CARD + i] = 0
    if phase != P_PLAY and phase != P_DRAW:
        st[TURN] = -1
    if phase != P_DRAW:
        st[DRAWER] = -1
    if phase != P_DEAL:
        st[DEALT] = 0


@njit
def _bout_winner(st: Any) -> None:
    """Top card of the bout: the highest of the preferred school, else of the initiating one."""
    blen = st[BOUT_LEN]
    for pass_ in range(2):
        school = st[PREFERRED] if pass_ == 0 else st[INITIATING]
        best_actor = -3
        best = -1
        for i in range(blen):
            c = st[BOUT_CARD + i]
            if c >> 4 == school and c > best:
                best_actor = st[BOUT_ACTOR + i]
                best = c
        if best >= 0:
            st[TOP_ACTOR] = best_actor
            st[TOP] = best
            return


@njit
def _add_card(st: Any, actor: int, c: int) -> None:
    """``_add_card``: the card joins the bout; a Challenge changes the preferred school."""
    blen = st[BOUT_LEN]
    school = c >> 4
    st[BOUT_ACTOR + blen] = actor
    st[BOUT_CARD + blen] = c
    st[BOUT_LEN] = blen + 1
    if blen == 0:
        st[INITIATING] = school
        if st[PREFERRED] < 0:
            st[PREFERRED] = school
        st[TOP] = c
        st[TOP_ACTOR] = actor
        return
    if (st[BOUT_CARD + blen - 1] & 15) == (c & 15) and school != st[PREFERRED]:
        st[PREFERRED] = school
        _bout_winner(st)
        return
    top = st[TOP]
    if school == top >> 4:
        if c > top:
            st[TOP] = c
            st[TOP_ACTOR] = actor
    elif school == st[PREFERRED]:
        st[TOP] = c
        st[TOP_ACTOR] = actor


@njit
def _start_round(st: Any, lanes: Any, cfg: Any) -> None:
    ranks = cfg[C_RANKS]
    schools = st[SCHOOLS_MASK]
    for s in range(NUM_SCHOOLS):
        lanes[STOCK_ROW, s] = ranks if schools >> s & 1 else 0
        for row in range(SEATS):
            lanes[row, s] = 0
            lanes[COLLECTED_ROW + row, s] = 0
    for side in range(SEATS):
        st[COUNT + side] = 0
    st[DEALT] = 0
    st[BOUT_LEN] = 0
    st[INITIATING] = -1
    st[PREFERRED] = -1
    st[PHASE] = P_DEAL
    if st.shape[0] > STATE_SIZE:  # traced: a new round has no previous bout
        st[PREV_LEN] = 0
        st[PREV_WINNER] = NO_ACTOR


@njit
def _end_round(st: Any, lanes: Any, cfg: Any) -> None:
    """Crowd Favour, Crowd Support and, if a side reached its target, the winners."""
    n = cfg[C_N]
    sides = cfg[C_SIDES]
    cf = np.zeros(SEATS, dtype=np.int64)
    for side in range(sides):
        total = 0
        for s in range(NUM_SCHOOLS):
            lane = lanes[COLLECTED_ROW + side, s]
            while lane:
                low = lane & -lane
                r = _pop16(low - 1)
                total += cfg[C_CF + r]
                lane ^= low
        cf[side] = total
    preferred = st[PREFERRED]
    pz_side = -1
    if preferred >= 0:
        for side in range(sides):
            if lanes[COLLECTED_ROW + side, preferred] & 1:
                pz_side = side
                cf[side] += cfg[C_PZ_DELTA]
                break
    no_eight = False
    if cfg[C_SOLO]:
        no_eight = True
        for s in range(NUM_SCHOOLS):
            if lanes[COLLECTED_ROW, s] >> 8 & 1:
                no_eight = False
    best = cf[0]
    for side in range(1, sides):
        if cf[side] > best:
            best = cf[side]
    reached = 0
    traced = st.shape[0] > STATE_SIZE
    if traced:  # the round's summary (views.RoundSummary)
        st[LAST] = 1
        st[LAST_PREFERRED] = preferred
        st[LAST_ZERO_SIDE] = pz_side
        st[LAST_NO_EIGHT] = 1 if no_eight else 0
    for side in range(sides):
        gained = (1 if side == 1 else 0) if no_eight else (1 if cf[side] == best else 0)
        if traced:
            st[LAST_CF + side] = cf[side]
            st[LAST_COUNT + side] = st[COUNT + side]
            st[LAST_GAINED + side] = gained
        st[SUPPORT + side] += gained
        if gained and st[SUPPORT + side] >= cfg[C_TARGET + side]:
            reached |= 1 << side
    winners = reached
    if _pop16(reached & 0xFFFF) > 1:  # _break_tie
        if pz_side >= 0 and reached >> pz_side & 1:
            winners = 1 << pz_side
        else:
            fewest = 1 << 40
            for side in range(sides):
                if reached >> side & 1 and st[COUNT + side] < fewest:
                    fewest = st[COUNT + side]
            tied = 0
            for side in range(sides):
                if reached >> side & 1 and st[COUNT + side] == fewest:
                    tied |= 1 << side
            winners = tied if _pop16(tied) == 1 or cfg[C_SHARED] else 0
    if winners:
        st[WINNERS_MASK] = winners
        st[PHASE] = P_OVER
        st[TURN] = -1
        return
    st[ROUND] += 1
    st[DEALER] = (st[DEALER] + 1) % n
    _start_round(st, lanes, cfg)


@njit
def _resolve_bout(st: Any, lanes: Any, cfg: Any) -> None:
    """The holder's side collects the bout and leads the next; the last bout ends the round."""
    winner = st[TOP_ACTOR]
    side = 1 if winner == CONTENDER_ID else cfg[C_SIDE_OF + winner]
    blen = st[BOUT_LEN]
    last = st[BOUT_ACTOR + blen - 1]
    for i in range(blen):
        c = st[BOUT_CARD + i]
        lanes[COLLECTED_ROW + side, c >> 4] |= 1 << (c & 15)
    st[COUNT + side] += blen
    if st.shape[0] > STATE_SIZE:  # traced: the bout becomes the previous one
        st[PREV_LEN] = blen
        st[PREV_WINNER] = winner
        for i in range(blen):
            st[PREV_ACTOR + i] = st[BOUT_ACTOR + i]
            st[PREV_CARD + i] = st[BOUT_CARD + i]
    st[BOUT_LEN] = 0
    st[INITIATING] = -1
    n = cfg[C_N]
    solo = cfg[C_SOLO]
    if n > 2:  # fast_apply: every hand is the same size, the stock is empty
        over = True
        for s in range(NUM_SCHOOLS):
            if lanes[last, s]:
                over = False
        st[TURN] = winner
    else:
        over = True
        for row in range(n):
            for s in range(NUM_SCHOOLS):
                if lanes[row, s]:
                    over = False
        if not solo:
            for s in range(NUM_SCHOOLS):
                if lanes[STOCK_ROW, s]:
                    over = False
    if over:
        _end_round(st, lanes, cfg)
    elif solo:
        st[PHASE] = P_REVEAL
    else:
        st[PHASE] = P_PLAY
        st[TURN] = winner


@njit
def _after_card(st: Any, lanes: Any, cfg: Any) -> None:
    blen = st[BOUT_LEN]
    if blen == cfg[C_BOUT]:
        _resolve_bout(st, lanes, cfg)
    elif cfg[C_SOLO]:
        if st[BOUT_ACTOR + blen - 1] == CONTENDER_ID:
            st[PHASE] = P_PLAY
            st[TURN] = 0
        else:
            st[PHASE] = P_REVEAL
    else:
        st[PHASE] = P_PLAY
        turn = st[TURN] + 1
        st[TURN] = 0 if turn == cfg[C_N] else turn  # (turn + 1) % n without a division


@njit
def _begin_play(st: Any, cfg: Any) -> None:
    if cfg[C_SOLO]:
        st[PHASE] = P_REVEAL
    else:
        st[PHASE] = P_PLAY
        st[TURN] = (st[DEALER] + 1) % cfg[C_N]


@njit
def _deal(st: Any, lanes: Any, cfg: Any, c: int, seat: int) -> None:
    """A Deal outcome: a card from the stock to a hand (dealt, or drawn in 2-player play)."""
    lanes[STOCK_ROW, c >> 4] ^= 1 << (c & 15)
    lanes[seat, c >> 4] |= 1 << (c & 15)
    if st[PHASE] == P_DRAW:
        st[DRAWER] = -1
        _after_card(st, lanes, cfg)
        return
    st[DEALT] += 1
    if st[DEALT] == cfg[C_TOTAL]:
        _begin_play(st, cfg)


@njit
def _chance_step(st: Any, lanes: Any, cfg: Any, cfgf: Any, rngs: Any, r: int) -> None:
    """One chance outcome drawn from generator ``r`` as ``sample_chance`` draws it, and applied."""
    phase = st[PHASE]
    if phase == P_SCHOOLS:
        combos = cfg[C_COMBOS]
        pick = 0
        if combos > 1:  # Rng.weighted over equal weights
            x = rng_random(rngs, r) * cfgf[F_SUMS]
            pick = combos - 1
            for i in range(combos):
                if x < cfgf[F_SUMS + 1 + i]:
                    pick = i
                    break
        st[SCHOOLS_MASK] = cfg[C_COMBO + pick]
        _start_round(st, lanes, cfg)
        return
    count = 0
    for s in range(NUM_SCHOOLS):
        count += _pop16(lanes[STOCK_ROW, s])
    c = _nth_card(lanes, STOCK_ROW, _below(rngs, r, count))
    if phase == P_REVEAL:
        lanes[STOCK_ROW, c >> 4] ^= 1 << (c & 15)
        _add_card(st, CONTENDER_ID, c)
        _after_card(st, lanes, cfg)
    elif phase == P_DEAL:
        seat = 0 if cfg[C_SOLO] else (st[DEALER] + 1 + st[DEALT]) % cfg[C_N]
        _deal(st, lanes, cfg, c, seat)
    else:
        _deal(st, lanes, cfg, c, st[DRAWER])


@njit
def _settle(st: Any, lanes: Any, cfg: Any, cfgf: Any, rngs: Any) -> None:
    """``fast_settle_chance``: the state's own generator settles chance; a deal is one shuffle."""
    n = cfg[C_N]
    while True:
        phase = st[PHASE]
        if phase == P_DEAL:
            cards = np.empty(NUM_SCHOOLS * 16, dtype=np.int64)
            m = 0
            for s in range(NUM_SCHOOLS):
                lane = lanes[STOCK_ROW, s]
                for r in range(16):
                    if lane >> r & 1:
                        cards[m] = s * 16 + r
                        m += 1
            _shuffle(rngs, cards, m)
            keep = cfg[C_TOTAL] - st[DEALT]
            if keep > m:
                keep = m
            if keep < 0:  # pragma: no cover - a deal never has more dealt than it deals
                keep = 0
            first = (st[DEALER] + 1 + st[DEALT]) % n
            solo = cfg[C_SOLO]
            for k in range(keep):
                c = cards[k]
                seat = 0 if solo else (first + k) % n
                lanes[seat, c >> 4] |= 1 << (c & 15)
            for seat in range(n):
                for s in range(NUM_SCHOOLS):
                    lanes[STOCK_ROW, s] &= ~lanes[seat, s]
            st[DEALT] += keep
            _begin_play(st, cfg)
        elif phase in (P_DRAW, P_REVEAL, P_SCHOOLS):
            _chance_step(st, lanes, cfg, cfgf, rngs, CHANCE_RNG)
        else:
            return


@njit
def _play(st: Any, lanes: Any, cfg: Any, cfgf: Any, rngs: Any, has_state_rng: bool, seat: int, c: int) -> None:
    """A card played (``fast_apply``), then chance settled by the state's generator if it has one."""
    lanes[seat, c >> 4] ^= 1 << (c & 15)
    _add_card(st, seat, c)
    stock = 0
    if cfg[C_TWO]:
        for s in range(NUM_SCHOOLS):
            stock |= lanes[STOCK_ROW, s]
    if stock:  # 2 players: draw from the stock before the bout goes on
        st[PHASE] = P_DRAW
        st[DRAWER] = seat
    else:
        _after_card(st, lanes, cfg)
    phase = st[PHASE]
    if has_state_rng and phase != P_PLAY and phase != P_OVER:
        _settle(st, lanes, cfg, cfgf, rngs)


@njit
def _legal_cards(st: Any, lanes: Any, seat: int) -> int:
    """The cards ``seat`` may play into the scratch row ``LEGAL_ROW``; returns how many. Read in
    ascending card order they are the engine's legal moves in its order."""
    blen = st[BOUT_LEN]
    init = st[INITIATING] if blen else 0
    follow = blen and lanes[seat, init]
    rank_bit = 1 << (st[BOUT_CARD + blen - 1] & 15) if follow else 0
    count = 0
    for s in range(NUM_SCHOOLS):
        lane = lanes[seat, s]
        if follow and s != init:  # follow the initiating school, or Challenge with the last card's rank
            lane &= rank_bit
        lanes[LEGAL_ROW, s] = lane
        count += _pop16(lane)
    return count


@njit
def _random_card(st: Any, lanes: Any, rngs: Any, seat: int) -> int:
    """``legal[rng.below(len(legal))]`` over the legal cards in the engine's order (one: no draw)."""
    count = _legal_cards(st, lanes, seat)
    k = 0 if count == 1 else _below(rngs, ROLLOUT, count)
    return _nth_card(lanes, LEGAL_ROW, k)


# --------------------------------------------------------------------------- the heuristic agent
def _hold_table() -> Any:
    """``heuristic.py``'s chance that a top card holds, by its rank, whether it is of the preferred
    school and how many players are still to come: its very expression, evaluated here in Python
    (so ``**`` rounds as Python's does), once for every value it can take."""
    table = np.ones((16, 2, SEATS + 1), dtype=np.float64)
    for top_rank in range(16):
        for preferred in (0, 1):
            base = 0.35 + 0.05 * top_rank + (0.15 if preferred else 0.0)
            for remaining in range(1, SEATS + 1):
                table[top_rank, preferred, remaining] = max(0.05, min(0.97, base)) ** remaining
    return table


_HOLD = _hold_table()
_NEUMAIER = sys.version_info >= (3, 12)
"""Python 3.12 on sums floats with Neumaier's compensation (``sum``); 3.11 adds them in turn."""


@njit
def _sum_step(total: float, comp: float, x: float, first: bool, neumaier: bool) -> tuple[float, float]:
    """One float of ``sum(...)`` (started at the int 0) added as this Python adds it: the first
    as ``0 + x``, the rest in turn (3.11) or with Neumaier's compensation ``comp`` (3.12+)."""
    if first:
        return 0.0 + x, 0.0
    if not neumaier:
        return total + x, comp
    t = total + x
    if abs(total) >= abs(x):
        comp += (total - t) + x
    else:
        comp += (x - t) + total
    return t, comp


@njit
def _sum_end(total: float, comp: float, neumaier: bool) -> float:
    """The sum's result: 3.12+ adds its compensation, when finite and not zero."""
    if neumaier and comp != 0.0 and np.isfinite(comp):
        return total + comp
    return total


@njit
def _side_of(cfg: Any, actor: int) -> int:
    """``GorusMaximusHeuristic._side``: the contenders are side 1."""
    return 1 if actor == CONTENDER_ID else cfg[C_SIDE_OF + actor]


@njit
def _h_score(st: Any, lanes: Any, cfg: Any, cfgf: Any, me: int, c: int) -> float:
    """``GorusMaximusHeuristic._score`` of card ``c`` for seat ``me``, every float operation in its
    order. It reads only what ``me``'s observation shows: the bout, the schools, each side's
    collected cards (played face up) and ``me``'s own hand."""
    my_side = cfg[C_SIDE_OF + me]
    blen = st[BOUT_LEN]  # the bout as observed, before c
    size = blen + 1  # with c
    obs_preferred = st[PREFERRED]
    preferred = obs_preferred
    initiating = st[INITIATING]
    school_c = c >> 4
    if blen == 0:
        initiating = school_c
        if preferred < 0:
            preferred = school_c
    elif (st[BOUT_CARD + blen - 1] & 15) == (c & 15):
        preferred = school_c
    # who holds the bout once this card is in
    winner = -3
    top = -1
    for pass_ in range(2):
        school = preferred if pass_ == 0 else initiating
        for i in range(size):
            card = c if i == blen else st[BOUT_CARD + i]
            if card >> 4 == school and card > top:
                winner = me if i == blen else st[BOUT_ACTOR + i]
                top = card
        if top >= 0:
            break
    remaining = cfg[C_BOUT] - size
    neumaier = cfg[C_NEUMAIER] != 0
    value = 0.0
    comp = 0.0
    for i in range(size):
        card = c if i == blen else st[BOUT_CARD + i]
        rank = card & 15
        w = float(cfg[C_CF + rank])  # worth(card)
        if rank == 0:
            w = cfgf[F_ZERO_WORTH] if card >> 4 == preferred else 0.0
        value, comp = _sum_step(value, comp, w, i == 0, neumaier)
    value = _sum_end(value, comp, neumaier)
    hold = 1.0
    if remaining:
        hold = _HOLD[top & 15, 1 if top >> 4 == preferred else 0, remaining]
    ours = _side_of(cfg, winner) == my_side
    expected = (hold if ours else (1 - hold) * 0.3) * value
    score = expected
    if not ours and value < 0:
        score += -value * 0.4  # an opponent takes the loss
    rank = c & 15
    score -= 0.04 * rank * (1.5 if school_c == preferred else 1.0)
    if rank == 8 and not ours:
        score += 2.0
    if rank == 0 and not ours:
        score -= 1.0 if school_c == preferred else 0.0
    if size > 1 and ours and winner == me:  # _prior_winner: the bout's holder before c, kept by _add_card
        prev = st[TOP_ACTOR]
        if prev != -3 and prev != me and _side_of(cfg, prev) == my_side:
            score -= 1.5
    if preferred != obs_preferred and preferred >= 0 and (  # the preferred 0, collected or in hand
            lanes[COLLECTED_ROW + my_side, preferred] & 1 or lanes[me, preferred] & 1):
        score += 2.0
    return score


@njit
def _heuristic_card(st: Any, lanes: Any, cfg: Any, cfgf: Any, rngs: Any, seat: int) -> int:
    """``GorusMaximusHeuristic.act``: a forced card as it is (no draw); else each legal card in
    the engine's order scored plus ``random() * 1e-3`` from the seat's generator, the first best
    kept."""
    count = _legal_cards(st, lanes, seat)
    if count == 1:
        return _nth_card(lanes, LEGAL_ROW, 0)
    r = POLICY_RNGS + seat
    best = -1
    best_score = -np.inf
    for s in range(NUM_SCHOOLS):
        lane = lanes[LEGAL_ROW, s]
        while lane:
            low = lane & -lane
            lane ^= low
            c = s * 16 + _pop16(low - 1)
            score = _h_score(st, lanes, cfg, cfgf, seat, c) + rng_random(rngs, r) * 1e-3
            if score > best_score:
                best = c
                best_score = score
    return best


@njit
def _run(st: Any, cfg: Any, cfgf: Any, rngs: Any, has_state_rng: bool, max_decisions: int) -> Any:
    n = cfg[C_N]
    lanes = np.zeros((ROWS, NUM_SCHOOLS), dtype=np.int64)
    _unpack_lanes(st, lanes)
    limit = _MAX_DECISIONS if max_decisions < 0 else max_decisions
    out = np.zeros(2 + 2 * n, dtype=np.float64)
    decisions = 0
    ended = False
    while decisions < _MAX_DECISIONS:
        phase = st[PHASE]
        while phase != P_PLAY and phase != P_OVER:  # chance the state does not settle itself
            _chance_step(st, lanes, cfg, cfgf, rngs, ROLLOUT)
            if has_state_rng:
                _settle(st, lanes, cfg, cfgf, rngs)
            phase = st[PHASE]
        if phase == P_OVER or decisions >= limit:
            ended = True
            break
        seat = st[TURN]
        _play(st, lanes, cfg, cfgf, rngs, has_state_rng, seat, _random_card(st, lanes, rngs, seat))
        decisions += 1
    _pack_lanes(st, lanes)
    _normalize(st)
    _outcome(st, cfg, out, decisions if ended else -1)
    return out


@njit
def _outcome(st: Any, cfg: Any, out: Any, decisions: int) -> None:
    """``[decisions, finished, scores..., returns...]`` into ``out`` (zeros): each seat's side's
    Crowd Support, and 1 shared among the seats of the winning sides once the game is over."""
    n = cfg[C_N]
    out[0] = decisions
    over = st[PHASE] == P_OVER
    out[1] = 1.0 if over else 0.0
    winners = 0
    for s in range(n):
        side = cfg[C_SIDE_OF + s]
        out[2 + s] = float(st[SUPPORT + side])
        if over and st[WINNERS_MASK] >> side & 1:
            winners += 1
    if winners:
        for s in range(n):
            if st[WINNERS_MASK] >> cfg[C_SIDE_OF + s] & 1:
                out[2 + n + s] = 1.0 / winners


@njit
def _run_agents(st: Any, cfg: Any, cfgf: Any, rngs: Any, has_state_rng: bool, kinds: Any) -> Any:
    """A whole game of agents (:meth:`GorusMaximusPlayouts.run_agents`): the loop of :func:`_run`
    with each seat's agent choosing every card of the seat. The random agent (``kinds[seat]`` 0,
    ``rng.choice``) draws below the number of legal cards from its own generator even when one is
    legal; the heuristic (1) plays a forced card without drawing and otherwise chooses as
    ``heuristic.py`` does, its noise from its own generator."""
    n = cfg[C_N]
    lanes = np.zeros((ROWS, NUM_SCHOOLS), dtype=np.int64)
    _unpack_lanes(st, lanes)
    out = np.zeros(2 + 2 * n, dtype=np.float64)
    decisions = 0
    ended = False
    while True:
        phase = st[PHASE]
        while phase != P_PLAY and phase != P_OVER:  # as in _run (a seeded state settles its own)
            _chance_step(st, lanes, cfg, cfgf, rngs, ROLLOUT)
            if has_state_rng:
                _settle(st, lanes, cfg, cfgf, rngs)
            phase = st[PHASE]
        if phase == P_OVER:
            ended = True
            break
        if decisions == _MAX_DECISIONS:  # reported as a game that did not end
            break
        seat = st[TURN]
        if kinds[seat] == _AGENT_RANDOM:
            count = _legal_cards(st, lanes, seat)
            c = _nth_card(lanes, LEGAL_ROW, _below(rngs, POLICY_RNGS + seat, count))
        else:
            c = _heuristic_card(st, lanes, cfg, cfgf, rngs, seat)
        _play(st, lanes, cfg, cfgf, rngs, has_state_rng, seat, c)
        decisions += 1
    _pack_lanes(st, lanes)
    _normalize(st)
    _outcome(st, cfg, out, decisions if ended else -1)
    return out


# --------------------------------------------------------------------------- packing
def _config(state: GorusMaximusState) -> tuple[Any, Any]:
    """The options' constants as the compiled rules read them (int64 and float64 arrays)."""
    o: GorusMaximusOptions = state.options
    setup = setup_for(o.players)
    cfg = np.zeros(CONFIG_SIZE, dtype=np.int64)
    cfg[C_N] = state.n
    cfg[C_SOLO] = int(state.solo)
    cfg[C_TWO] = int(state.two_player)
    cfg[C_SIDES] = state.num_sides
    cfg[C_BOUT] = state._bout_size()
    cfg[C_TOTAL] = HAND_SIZE if state.solo else HAND_SIZE * state.n
    cfg[C_RANKS] = sum(1 << r for r in state.ranks)
    cfg[C_PZ_DELTA] = state.cf.preferred_zero - state.cf.by_rank[0]
    cfg[C_SHARED] = int(o.final_tie == "shared")
    cfg[C_CF : C_CF + 16] = state.cf.by_rank
    cfg[C_SIDE_OF : C_SIDE_OF + state.n] = state.side_of_seat
    cfg[C_TARGET : C_TARGET + state.num_sides] = state.targets
    # ChooseSchools outcomes in chance_outcomes' order, and Rng.weighted's sums over their weights
    combos = list(combinations(range(NUM_SCHOOLS), setup.schools))
    cfg[C_COMBOS] = len(combos)
    for i, combo in enumerate(combos):
        cfg[C_COMBO + i] = sum(1 << s for s in combo)
    weights = [1.0 / len(combos)] * len(combos)
    sums = [sum(weights)]
    acc = 0.0
    for w in weights:
        acc += w
        sums.append(acc)
    cfg[C_NEUMAIER] = int(_NEUMAIER)
    cfgf = np.zeros(FLOATS_SIZE, dtype=np.float64)
    cfgf[F_SUMS : F_SUMS + len(sums)] = sums
    cfgf[F_ZERO_WORTH] = state.cf.preferred_zero * 0.6  # heuristic.py's worth() of the preferred 0
    cfg.flags.writeable = False
    cfgf.flags.writeable = False
    return cfg, cfgf


class GorusMaximusPlayouts(CompiledPlayouts):
    """Random playouts of every Gorus Maximus mode: 1-8 players, teams, solo, every option."""

    game_name = "gorus-maximus"
    policies = ("random",)
    agent_kinds = ("random", "heuristic")

    def __init__(self) -> None:
        self._configs: dict[Any, tuple[Any, Any]] = {}
        self._last: tuple[Any, tuple[Any, Any]] | None = None

    def _config(self, state: GorusMaximusState) -> tuple[Any, Any]:
        """The options' arrays: the last options asked for by identity (a search asks with one
        options object), others by value."""
        options = state.options
        last = self._last
        if last is not None and last[0] is options:
            return last[1]
        arrays = self._configs.get(options)
        if arrays is None:
            arrays = self._configs[options] = _config(state)
        self._last = (options, arrays)
        return arrays

    def pack(self, state: Any) -> tuple[Any, ...] | None:
        if type(state) is not GorusMaximusState:
            return None
        cfg, cfgf = self._config(state)
        phase = _PHASE_CODE[state.phase]
        schools = _school_mask(state.schools)
        if schools < 0:  # pragma: no cover - every constructor sorts them
            return None
        bout = state.bout
        blen = len(bout)
        low = _LOW
        pad_sides = _ZEROS[SEATS - state.num_sides]
        st = [
            phase,
            state.round,
            state.dealer,
            state.dealt if phase == P_DEAL else 0,
            state.turn if phase in (P_PLAY, P_DRAW) else -1,
            state.initiating,
            state.preferred,
            state.top if blen else -1,
            state.top_actor if blen else -3,
            state.drawer if phase == P_DRAW else -1,
            schools,
            sum(1 << s for s in state.winning_sides) if state.winning_sides else 0,
            blen,
            *state.support,
            *pad_sides,
            *state.collected_count,
            *pad_sides,
            *[a for a, _ in bout],
            *_ZEROS[SEATS - blen],
            *[c for _, c in bout],
            *_ZEROS[SEATS - blen],
        ]
        for mask in state.hands:
            st += (mask & low, mask >> 48)
        st += _ZEROS[2 * (SEATS - state.n)]
        stock = state.stock
        st += (stock & low, stock >> 48)
        for mask in state.collected:
            st += (mask & low, mask >> 48)
        st += pad_sides
        st += pad_sides
        return np.array(st, dtype=np.int64), cfg, cfgf

    def run(self, packed: tuple[Any, ...], rngs: Any, has_state_rng: bool, policy: int, max_decisions: int) -> Any:
        st, cfg, cfgf = packed
        return _run(st, cfg, cfgf, rngs, has_state_rng, max_decisions)

    def run_agents(self, packed: tuple[Any, ...], rngs: Any, has_state_rng: bool, kinds: Any) -> Any:
        st, cfg, cfgf = packed
        n = int(cfg[C_N])
        if rngs.shape[0] < POLICY_RNGS + n or kinds.shape[0] < n:
            raise ValueError("a game of agents needs a kind and a generator for every seat")  # no bounds checked
        if kinds[:n].min() < 0 or kinds[:n].max() >= len(self.agent_kinds):
            raise ValueError("unknown agent code")
        return _run_agents(st, cfg, cfgf, rngs, has_state_rng, kinds)

    def vector_steps(
        self, options: Any, num_envs: int, seat: int, kinds: Sequence[str | None], player_actions: Sequence[Any]
    ) -> CompiledSteps | None:
        """The vector environment's stepping, compiled (:mod:`.vector`): every mode, the random
        and heuristic agents."""
        from .vector import vector_steps  # it builds on this module

        return vector_steps(self, options, num_envs, seat, kinds, player_actions)

    def metrics(self, packed: tuple[Any, ...]) -> dict[str, float]:
        """``analysis.py``'s metrics: the round the game ended in."""
        return {"rounds": float(packed[0][ROUND])}


_ZEROS = [[0] * k for k in range(2 * SEATS + 1)]
"""Padding lists, built once."""


@lru_cache(maxsize=64)
def _school_mask(schools: tuple[int, ...]) -> int:
    """The schools in play as a mask; -1 if they are not in ascending order (the order the
    engine lists legal moves in, which the compiled rules assume)."""
    if list(schools) != sorted(schools):
        return -1
    return sum(1 << s for s in schools)


PLAYOUTS = GorusMaximusPlayouts()
"""The one instance: it keeps the arrays of the options it has met."""
