"""Gorus Arena playouts compiled with numba: the rules of :mod:`.rules`, over integer arrays.

The Python engine stays the reference; this module only plays a state on to the end (or to
a cut) with the random policy or with :class:`~.heuristic.GorusArenaHeuristic`, exactly as
:func:`ludus.core.playout.playout` does: the same legal moves in the same order, the same
moves chosen, the same draws from the same generators, the same scores.
It also plays whole tournament games of the random and heuristic agents
(:meth:`GorusArenaPlayouts.run_agents`), every move chosen by the seat's own agent, and the
vector environment's games (:mod:`.vector`), for which it traces the log (``TR_*`` below).
``tests/games/gorus_arena/test_compiled.py`` checks that over thousands of seeded games in
every mode.

Gorus Arena has 68 card ids, more than one 64-bit word, so a card set here is two int64
words of 63 bits each (card ``c`` is bit ``c % 63`` of word ``c // 63``): the sign bit is
never used, so every shift and the popcount stay in plain int64 arithmetic, and the lowest
set bit of the first word, then of the second, is the lowest card id, as in the engine.

The whole state is one flat int64 array with a fixed layout (``OFF_*`` below) and the card
values one table: every compiled function takes those two (and a work array), because each
array passed between compiled functions costs reference counting on every call. The table is
an argument, not frozen into the machine code, so numba's on-disk cache never outlives a change
of ``data/cards.toml``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ...core.compiled import (
    CHANCE_RNG,
    POLICY_RNGS,
    ROLLOUT,
    CompiledPlayouts,
    CompiledSteps,
    njit,
    rng_below,
    rng_random,
)
from ...core.game import State
from ...core.playout import MAX_PLAYOUT_DECISIONS
from .actions import INCOME
from .cards import ACTIONS, CARD, GLADIATOR_MASK, KIND_MASK, KINDS, MAX_SEATS, NUM_CARDS, POINTS, STRENGTH
from .cards import DEFENCE as CARD_DEFENCE
from .heuristic import NOISE, Weights
from .options import (
    ATTACK_TARGETS,
    AUCTIONS,
    DEFENCE_TIMINGS,
    REFILLS,
    STARTS,
    TIE_BREAKS,
    TIE_RESOLUTIONS,
    USED_CARDS,
    GorusArenaOptions,
)
from .rules import (
    COINS_PER_POINT,
    DRAW,
    DRAW_COUNT,
    EXEC,
    HAND_LIMIT,
    MARKET_DRAW,
    OVER,
    PLAN,
    PLAN_SIZE,
    GorusArenaState,
)

__all__ = ["PLAYOUTS", "GorusArenaPlayouts"]

WORD = 63
"""Bits per word of a card set (the sign bit stays clear)."""
LOW = (1 << WORD) - 1
assert NUM_CARDS <= 2 * WORD, "a card set is two words"

# ------------------------------------------------------------------ layout of the packed state
# One flat int64 array, laid out for the largest table whatever the player count, so every
# offset is a constant; the seats a game does not have stay 0 / -1. The two sizes are written
# here, not imported, because numba freezes them into the cached machine code, and that cache
# is renewed only when this file changes.
MS = 5
"""Seats the layout has room for."""
ROW = 5
"""Cards a plan (or an arena row) holds."""
assert (MS, ROW) == (MAX_SEATS, PLAN_SIZE), "the rules changed their sizes: update this layout"
# the scalars of the state, then the options
I_N, I_ROUND, I_PHASE, I_START, I_SLOT, I_RTIED, I_TIED, I_PSEAT, I_PCARD, I_SECRET = range(10)
I_NQUEUE, I_NORDER, I_NDRAWS = 10, 11, 12
O_ROUNDS, O_AUCTION, O_DEFENCE, O_TARGETS, O_FREE, O_START, O_TIERES, O_TIEBREAK, O_USED, O_REFILL = range(13, 23)
O_ARMOURY = 23
N_INTS = 24
OFF_MASKS = N_INTS
"""Each seat's hand, draw pile and discard pile: ``OFF_MASKS + (pile * MS + seat) * 2 + word``."""
OFF_GLOB = OFF_MASKS + 3 * MS * 2
"""The market, the dead and the cards that acted this round: ``OFF_GLOB + set * 2 + word``."""
OFF_SEATS = OFF_GLOB + 3 * 2
"""Coins, shield, ready, plan length, arena length: ``OFF_SEATS + row * MS + seat``."""
OFF_PLAN = OFF_SEATS + 5 * MS
"""Planned cards in order: ``OFF_PLAN + seat * ROW + j`` (-1 past the end)."""
OFF_ARENA = OFF_PLAN + MS * ROW
"""Revealed cards in order, likewise."""
OFF_QUEUE = OFF_ARENA + MS * ROW
"""This auction's queue: ``OFF_QUEUE + 2 * i`` the seat, ``+ 1`` its card."""
OFF_ORDER = OFF_QUEUE + 2 * MS
"""The per-round auction's order of play."""
OFF_DRAWS = OFF_ORDER + MS
"""Draws still to make: ``OFF_DRAWS + 4 * i`` + (seat, source, still to draw, drawn)."""
SIZE = OFF_DRAWS + 4 * (MS + 1)

# The log, traced for the vector steps only (:mod:`.vector`): an array longer than SIZE holds
# the number of log lines so far at TR_COUNT and the last WINDOW lines (what an observation
# shows) in a ring at TR_RING, TR_LINE ints each: code, seat, number of kinds (-1: names this
# card list lacks), then the kind indices. Only the lines that can place a hidden card have a
# code of their own (see :mod:`.knowledge`); the playouts' SIZE-long arrays write nothing.
WINDOW = 40
"""``views.EVENTS_SHOWN`` (checked by the tests)."""
TR_LINE = 3 + ROW
TR_COUNT = SIZE
TR_RING = SIZE + 1
TRACED = TR_RING + WINDOW * TR_LINE
L_OTHER, L_ROUND1, L_REVEAL, L_RECRUIT, L_MARKET, L_KILL = range(6)

PHASES = (PLAN, EXEC, DRAW, OVER)
P_PLAN, P_EXEC, P_DRAW, P_OVER = 0, 1, 2, 3
M_HAND, M_DECK, M_DISCARD = 0, 1, 2
G_MARKET = OFF_GLOB
G_DEAD = OFF_GLOB + 2
G_ACTED = OFF_GLOB + 4
S_COINS, S_SHIELD, S_READY, S_PLAN_LEN, S_ARENA_LEN = (OFF_SEATS + MS * r for r in range(5))
SRC_OWN, SRC_MARKET = 0, 1

# the table: one row per card value, then one per kind value, then the rule constants
T_STRENGTH, T_DEFENCE, T_POINTS, T_GLAD, T_INCOME, T_RECRUIT, T_ATTACK, T_GUARD = range(8)
K_COST, K_GLAD, K_MASK0, K_MASK1 = range(8, 12)
T_RULES = 12
T_KIND = 13
"""Card id -> the index of its kind in ``KINDS`` (the heuristic's plan names a kind)."""
R_HAND, R_PLAN, R_DRAW, R_MARKET, R_CPP, R_INCOME, R_GLAD0, R_GLAD1, R_NKINDS, R_NCARDS = range(10)

# action codes: type * A_SCALE + argument (a kind index or a card id)
A_SCALE = 1024
A_PLACE, A_DONE, A_INCOME, A_RECRUIT, A_ATTACK, A_PASS, A_PICK = range(7)

# what the flow does next (the engine's chain of round-flow calls, as one loop)
F_STOP, F_BEGIN, F_REVEAL, F_NEXT_SLOT, F_END_ROUND, F_PREPARE = range(6)

SEAT_NONE = -2
SEAT_CHANCE = -1

# scratch (the work array's end): bids, a seat order, the card each seat has at this position
W_BIDS, W_SEQ, W_AT = 3 * MS, 2 * MS, MS


def _words(mask: int) -> tuple[int, int]:
    return mask & LOW, mask >> WORD


def _table() -> Any:
    """The card, kind and rule values the compiled rules read (from :mod:`.cards`, :mod:`.rules`)."""
    tab = np.zeros((T_KIND + 1, max(NUM_CARDS, len(KINDS), 10)), dtype=np.int64)
    for c in range(NUM_CARDS):
        acts = ACTIONS[c]
        tab[:K_COST, c] = (
            STRENGTH[c],
            CARD_DEFENCE[c],
            POINTS[c],
            int(CARD[c].gladiator),
            int("income" in acts),
            int("recruit" in acts),
            int("attack" in acts),
            int("defence" in acts),
        )
    index = {kind.key: k for k, kind in enumerate(KINDS)}
    for c in range(NUM_CARDS):
        tab[T_KIND, c] = index[CARD[c].key]
    for k, kind in enumerate(KINDS):
        tab[K_COST:T_RULES, k] = (kind.cost, int(kind.gladiator), *_words(KIND_MASK[kind.key]))
    tab[T_RULES, :10] = (
        HAND_LIMIT,
        ROW,
        DRAW_COUNT,
        MARKET_DRAW,
        COINS_PER_POINT,
        INCOME,
        *_words(GLADIATOR_MASK),
        len(KINDS),
        NUM_CARDS,
    )
    return tab


TABLE = _table()


# ------------------------------------------------------------------ bits
@njit
def _pop(x: int) -> int:
    """Set bits of a word (never negative: the sign bit is unused)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@njit
def _low(x: int) -> int:
    """Index of the lowest set bit of a non-zero word."""
    return _pop((x & -x) - 1)


@njit
def _lowest(w0: int, w1: int) -> int:
    """The lowest card id of a set, or -1 when empty."""
    if w0:
        return _low(w0)
    if w1:
        return WORD + _low(w1)
    return -1


@njit
def _nth(w0: int, w1: int, k: int) -> int:
    """The ``k``-th lowest card id of a set (``nth_bit``)."""
    c0 = _pop(w0)
    if k >= c0:
        k -= c0
        w0 = w1
        base = WORD
    else:
        base = 0
    for _ in range(k):
        w0 &= w0 - 1
    return base + _low(w0)


# ------------------------------------------------------------------ the compiled rules
# Every function takes the state ``st``, the table ``tab`` and, where it needs them, the work
# array: few array arguments keep the calls between them cheap.
@njit
def _bit(c: int) -> Any:
    """The bit of card ``c`` in its word (an int64, so the word's arithmetic stays int64)."""
    return np.int64(1) << (c % WORD)


@njit
def _mask(set_: int, seat: int) -> int:
    """Offset of word 0 of one seat's hand, draw pile or discard pile."""
    return OFF_MASKS + (set_ * MS + seat) * 2


@njit
def _hand_count(st: Any, seat: int) -> int:
    h = _mask(M_HAND, seat)
    return _pop(st[h]) + _pop(st[h + 1])


@njit
def _dead(st: Any, c: int) -> bool:
    return st[G_DEAD + c // WORD] & _bit(c) != 0


@njit
def _line(st: Any, code: int, seat: int, kind: int) -> None:
    """One log line into the trace (a traced array only): ``kind`` -1 names no card."""
    if st.shape[0] > SIZE:
        at = TR_RING + st[TR_COUNT] % WINDOW * TR_LINE
        st[TR_COUNT] += 1
        st[at] = code
        st[at + 1] = seat
        st[at + 2] = 0 if kind < 0 else 1
        st[at + 3] = kind


@njit
def _line_reveal(st: Any, tab: Any, seat: int) -> None:
    """The line of ``seat``'s reveal: the kinds of its arena, in order."""
    if st.shape[0] > SIZE:
        at = TR_RING + st[TR_COUNT] % WINDOW * TR_LINE
        st[TR_COUNT] += 1
        st[at] = L_REVEAL
        st[at + 1] = seat
        st[at + 2] = st[S_ARENA_LEN + seat]
        for j in range(st[S_ARENA_LEN + seat]):
            st[at + 3 + j] = tab[T_KIND, st[OFF_ARENA + seat * ROW + j]]


@njit
def _score(st: Any, tab: Any, seat: int) -> int:
    """``score``: points of the seat's living gladiators, and a point per 3 coins."""
    total = 0
    for w in range(2):
        m = (
            (st[_mask(M_HAND, seat) + w] | st[_mask(M_DECK, seat) + w] | st[_mask(M_DISCARD, seat) + w])
            & tab[T_RULES, R_GLAD0 + w]
            & ~st[G_DEAD + w]
        )
        while m:
            low = m & -m
            total += tab[T_POINTS, w * WORD + _pop(low - 1)]
            m ^= low
    for j in range(st[S_PLAN_LEN + seat]):
        c = st[OFF_PLAN + seat * ROW + j]
        if tab[T_GLAD, c] and not _dead(st, c):
            total += tab[T_POINTS, c]
    for j in range(st[S_ARENA_LEN + seat]):
        c = st[OFF_ARENA + seat * ROW + j]
        if tab[T_GLAD, c] and not _dead(st, c):
            total += tab[T_POINTS, c]
    return total + st[S_COINS + seat] // tab[T_RULES, R_CPP]


@njit
def _auction(st: Any, work: Any) -> tuple[int, bool]:
    """``_auction`` on the bids in the work array (< 0: not bidding): the order of play into
    the work array's seat order; (count, tied)."""
    n = st[I_N]
    start = st[I_START]
    bids = work.shape[0] - W_BIDS
    out = work.shape[0] - W_SEQ
    count = 0
    best = -1
    for i in range(n):
        s = (start + i) % n
        if work[bids + s] >= 0:
            work[out + count] = s
            count += 1
            if work[bids + s] > best:
                best = work[bids + s]
    if count == 0:
        return 0, False
    top = -1
    ntop = 0
    for i in range(count):
        if work[bids + work[out + i]] == best:
            ntop += 1
            if top < 0:
                top = work[out + i]
    if ntop > 1:
        return count, True
    j = count - 1  # the winner first, the others after it in turn order
    while work[out + j] != top:
        j -= 1
    while j > 0:
        work[out + j] = work[out + j - 1]
        j -= 1
    work[out] = top
    return count, False


@njit
def _queue_pop(st: Any) -> None:
    k = st[I_NQUEUE]
    for i in range(OFF_QUEUE, OFF_QUEUE + 2 * (k - 1)):
        st[i] = st[i + 2]
    st[OFF_QUEUE + 2 * (k - 1)] = -1
    st[OFF_QUEUE + 2 * (k - 1) + 1] = -1
    st[I_NQUEUE] = k - 1


@njit
def _draws_pop(st: Any) -> None:
    k = st[I_NDRAWS]
    for i in range(OFF_DRAWS, OFF_DRAWS + 4 * (k - 1)):
        st[i] = st[i + 4]
    for i in range(OFF_DRAWS + 4 * (k - 1), OFF_DRAWS + 4 * k):
        st[i] = -1
    st[I_NDRAWS] = k - 1


@njit
def _autoplan(st: Any, tab: Any, seat: int) -> None:
    """``_autoplan``: a hand of one card left is planned without a choice."""
    if st[S_PLAN_LEN + seat] < tab[T_RULES, R_PLAN] and _hand_count(st, seat) == 1:
        h = _mask(M_HAND, seat)
        c = _lowest(st[h], st[h + 1])
        st[h] = 0
        st[h + 1] = 0
        st[OFF_PLAN + seat * ROW + st[S_PLAN_LEN + seat]] = c
        st[S_PLAN_LEN + seat] += 1
        st[S_READY + seat] = 1


@njit
def _next_start(st: Any, tab: Any) -> int:
    rule = st[O_START]
    n = st[I_N]
    start = st[I_START]
    if rule == 2:  # fixed
        return start
    if rule == 1:  # trailing: the next seat in turn among those with the fewest points
        low = 1 << 62
        for s in range(n):
            v = _score(st, tab, s)
            if v < low:
                low = v
        for i in range(1, n + 1):
            s = (start + i) % n
            if _score(st, tab, s) == low:
                return s
    return (start + 1) % n


@njit
def _flow(step: int, st: Any, tab: Any, work: Any) -> None:
    """The round flow (``_begin_planning``, ``_reveal``, ``_next_slot``, ``_end_round``,
    ``_prepare_draws``), which the engine chains by calls, as one loop over steps."""
    n = st[I_N]
    bids = work.shape[0] - W_BIDS
    seq = work.shape[0] - W_SEQ
    at = work.shape[0] - W_AT
    while step != F_STOP:
        if step == F_BEGIN:
            st[I_PHASE] = P_PLAN
            _line(st, L_ROUND1 if st[I_ROUND] == 1 else L_OTHER, -1, -1)
            all_ready = True
            for s in range(n):
                for j in range(ROW):
                    st[OFF_PLAN + s * ROW + j] = -1
                st[S_PLAN_LEN + s] = 0
                st[S_READY + s] = 0
                if _hand_count(st, s) == 0:
                    st[S_READY + s] = 1
                elif not st[O_FREE]:
                    _autoplan(st, tab, s)
                if not st[S_READY + s]:
                    all_ready = False
            step = F_REVEAL if all_ready else F_STOP
        elif step == F_REVEAL:
            st[I_SECRET] = 0
            start = st[I_START]
            for i in range(MS * ROW):
                st[OFF_ARENA + i] = st[OFF_PLAN + i]
                st[OFF_PLAN + i] = -1
            for s in range(n):
                st[S_ARENA_LEN + s] = st[S_PLAN_LEN + s]
                st[S_PLAN_LEN + s] = 0
            for i in range(n):
                _line_reveal(st, tab, (start + i) % n)
            if st[O_DEFENCE] == 0:  # reveal: defence cards guard at once
                for i in range(n):
                    s = (start + i) % n
                    for j in range(st[S_ARENA_LEN + s]):
                        c = st[OFF_ARENA + s * ROW + j]
                        if tab[T_GUARD, c]:
                            if tab[T_STRENGTH, c] > st[S_SHIELD + s]:
                                st[S_SHIELD + s] = tab[T_STRENGTH, c]
                            st[G_ACTED + c // WORD] |= _bit(c)
                    if st[S_SHIELD + s] > 0:
                        _line(st, L_OTHER, s, -1)
            st[I_PHASE] = P_EXEC
            st[I_SLOT] = -1
            for i in range(OFF_QUEUE, OFF_QUEUE + 2 * MS):
                st[i] = -1
            st[I_NQUEUE] = 0
            st[I_PSEAT] = -1
            st[I_PCARD] = -1
            for i in range(MS):
                st[OFF_ORDER + i] = -1
            st[I_NORDER] = 0
            if st[O_AUCTION] == 1:  # per-round: one auction on each seat's strongest card
                for s in range(n):
                    work[bids + s] = -1
                    for j in range(st[S_ARENA_LEN + s]):
                        v = tab[T_STRENGTH, st[OFF_ARENA + s * ROW + j]]
                        if v > work[bids + s]:
                            work[bids + s] = v
                count, tied = _auction(st, work)
                if count > 1:
                    _line(st, L_OTHER, -1, -1)
                for i in range(count):
                    st[OFF_ORDER + i] = work[seq + i]
                st[I_NORDER] = count
                st[I_RTIED] = 1 if tied else 0
            step = F_NEXT_SLOT
        elif step == F_NEXT_SLOT:
            longest = 0
            for s in range(n):
                if st[S_ARENA_LEN + s] > longest:
                    longest = st[S_ARENA_LEN + s]
            step = F_STOP
            while True:
                st[I_SLOT] += 1
                slot = st[I_SLOT]
                if slot >= longest:
                    step = F_END_ROUND
                    break
                some = False
                for s in range(n):
                    work[at + s] = -1
                    if st[S_ARENA_LEN + s] > slot:
                        c = st[OFF_ARENA + s * ROW + slot]
                        if not _dead(st, c):
                            work[at + s] = c
                            some = True
                if not some:
                    continue
                count = 0
                if st[O_AUCTION] == 1:
                    for i in range(st[I_NORDER]):
                        s = st[OFF_ORDER + i]
                        if work[at + s] >= 0:
                            work[seq + count] = s
                            count += 1
                    tied = st[I_RTIED] != 0
                else:
                    for s in range(n):
                        work[bids + s] = tab[T_STRENGTH, work[at + s]] if work[at + s] >= 0 else -1
                    count, tied = _auction(st, work)
                    if count > 1:
                        _line(st, L_OTHER, -1, -1)
                st[I_TIED] = 1 if tied and st[O_TIERES] == 0 else 0
                for i in range(MS):
                    if i < count:
                        st[OFF_QUEUE + 2 * i] = work[seq + i]
                        st[OFF_QUEUE + 2 * i + 1] = work[at + work[seq + i]]
                    else:
                        st[OFF_QUEUE + 2 * i] = -1
                        st[OFF_QUEUE + 2 * i + 1] = -1
                st[I_NQUEUE] = count
                break
        elif step == F_END_ROUND:
            for s in range(n):
                for j in range(st[S_ARENA_LEN + s]):
                    c = st[OFF_ARENA + s * ROW + j]
                    if not _dead(st, c):
                        st[_mask(M_DISCARD, s) + c // WORD] |= _bit(c)
                    st[OFF_ARENA + s * ROW + j] = -1
                st[S_ARENA_LEN + s] = 0
                st[S_SHIELD + s] = 0
            st[G_ACTED] = 0
            st[G_ACTED + 1] = 0
            for i in range(OFF_QUEUE, OFF_QUEUE + 2 * MS):
                st[i] = -1
            st[I_NQUEUE] = 0
            for i in range(MS):
                st[OFF_ORDER + i] = -1
            st[I_NORDER] = 0
            st[I_RTIED] = 0
            st[I_TIED] = 0
            st[I_PSEAT] = -1
            st[I_PCARD] = -1
            st[I_SLOT] = -1
            if st[I_ROUND] >= st[O_ROUNDS]:
                st[I_PHASE] = P_OVER
                _line(st, L_OTHER, -1, -1)
                step = F_STOP
            else:
                st[I_PHASE] = P_DRAW
                start = st[I_START]
                for i in range(OFF_DRAWS, OFF_DRAWS + 4 * (MS + 1)):
                    st[i] = -1
                for i in range(n):
                    s = (start + i) % n
                    left = min(tab[T_RULES, R_DRAW], tab[T_RULES, R_HAND] - _hand_count(st, s))
                    d = OFF_DRAWS + 4 * i
                    st[d] = s
                    st[d + 1] = SRC_OWN
                    st[d + 2] = left if left > 0 else 0
                    st[d + 3] = 0
                st[I_NDRAWS] = n
                step = F_PREPARE
        else:  # F_PREPARE: settle what needs no draw; stop where a card is drawn
            step = F_BEGIN
            while st[I_NDRAWS] > 0:
                seat = st[OFF_DRAWS]
                left = st[OFF_DRAWS + 2]
                if st[OFF_DRAWS + 1] == SRC_OWN:
                    dk = _mask(M_DECK, seat)
                    dc = _mask(M_DISCARD, seat)
                    if left > 0 and not (st[dk] | st[dk + 1]) and st[O_USED] == 0 and st[dc] | st[dc + 1]:
                        st[dk] = st[dc]
                        st[dk + 1] = st[dc + 1]
                        st[dc] = 0
                        st[dc + 1] = 0
                        _line(st, L_OTHER, seat, -1)
                    if left > 0 and st[dk] | st[dk + 1]:
                        step = F_STOP
                        break
                    if st[OFF_DRAWS + 3] > 0:
                        _line(st, L_OTHER, seat, -1)
                    _draws_pop(st)
                    if _hand_count(st, seat) == 0:
                        k = st[I_NDRAWS]
                        for i in range(OFF_DRAWS + 4 * k + 3, OFF_DRAWS + 3, -1):
                            st[i] = st[i - 4]
                        st[OFF_DRAWS] = seat
                        st[OFF_DRAWS + 1] = SRC_MARKET
                        st[OFF_DRAWS + 2] = tab[T_RULES, R_MARKET]
                        st[OFF_DRAWS + 3] = 0
                        st[I_NDRAWS] = k + 1
                else:
                    if left > 0 and (st[G_MARKET] & tab[T_RULES, R_GLAD0] or st[G_MARKET + 1] & tab[T_RULES, R_GLAD1]):
                        step = F_STOP
                        break
                    _draws_pop(st)
            if step == F_BEGIN:
                st[I_ROUND] += 1
                st[I_START] = _next_start(st, tab)


@njit
def _owner(st: Any, c: int) -> int:
    """``owner`` of a living card during execution (hand, draw pile, discard pile or arena)."""
    w = c // WORD
    b = _bit(c)
    for s in range(st[I_N]):
        if (st[_mask(M_HAND, s) + w] | st[_mask(M_DECK, s) + w] | st[_mask(M_DISCARD, s) + w]) & b:
            return s
        for j in range(st[S_ARENA_LEN + s]):
            if st[OFF_ARENA + s * ROW + j] == c:
                return s
    return -1


@njit
def _choices(st: Any, tab: Any, work: Any, seat: int, card: int) -> int:
    """``choices``: what the acting ``card`` could do, pass excluded, as codes at the start of
    the work array; the count."""
    count = 0
    if tab[T_INCOME, card]:
        work[count] = A_INCOME * A_SCALE
        count += 1
    if tab[T_RECRUIT, card] and _hand_count(st, seat) < tab[T_RULES, R_HAND]:
        coins = st[S_COINS + seat]
        m0 = st[G_MARKET]
        m1 = st[G_MARKET + 1]
        for k in range(tab[T_RULES, R_NKINDS]):
            if tab[K_COST, k] <= coins and (m0 & tab[K_MASK0, k] or m1 & tab[K_MASK1, k]):
                work[count] = A_RECRUIT * A_SCALE + k
                count += 1
    if tab[T_ATTACK, card]:
        mode = st[O_TARGETS]
        slot = st[I_SLOT]
        t0 = 0
        t1 = 0
        for o in range(st[I_N]):
            if o == seat:
                continue
            if mode == 0:  # bout: the rival card at this position
                if 0 <= slot < st[S_ARENA_LEN + o]:
                    c = st[OFF_ARENA + o * ROW + slot]
                    if c < WORD:
                        t0 |= _bit(c)
                    else:
                        t1 |= _bit(c)
            else:  # arena: every rival card revealed; team: every living rival card
                for j in range(st[S_ARENA_LEN + o]):
                    c = st[OFF_ARENA + o * ROW + j]
                    if c < WORD:
                        t0 |= _bit(c)
                    else:
                        t1 |= _bit(c)
                if mode == 2:
                    h = _mask(M_HAND, o)
                    d = _mask(M_DECK, o)
                    x = _mask(M_DISCARD, o)
                    t0 |= st[h] | st[d] | st[x]
                    t1 |= st[h + 1] | st[d + 1] | st[x + 1]
        t0 &= tab[T_RULES, R_GLAD0] & ~st[G_DEAD]
        t1 &= tab[T_RULES, R_GLAD1] & ~st[G_DEAD + 1]
        while t0:
            low = t0 & -t0
            work[count] = A_ATTACK * A_SCALE + _pop(low - 1)
            count += 1
            t0 ^= low
        while t1:
            low = t1 & -t1
            work[count] = A_ATTACK * A_SCALE + WORD + _pop(low - 1)
            count += 1
            t1 ^= low
    return count


@njit
def _advance(st: Any, tab: Any, work: Any) -> None:
    """``_advance``: carry out everything that needs no decision."""
    while st[I_PHASE] == P_EXEC and st[I_PSEAT] < 0:
        if st[I_NQUEUE] == 0:
            _flow(F_NEXT_SLOT, st, tab, work)
            continue
        seat = st[OFF_QUEUE]
        card = st[OFF_QUEUE + 1]
        w = card // WORD
        b = _bit(card)
        if st[G_ACTED + w] & b or (st[G_DEAD + w] & b and not st[I_TIED]):
            _queue_pop(st)
            continue
        if st[G_DEAD + w] & b:
            _line(st, L_OTHER, seat, -1)  # down, but it acts: the auction was tied
        count = _choices(st, tab, work, seat, card)
        if count > tab[T_INCOME, card]:  # something besides income: the seat decides
            st[I_PSEAT] = seat
            st[I_PCARD] = card
            return
        _queue_pop(st)
        st[G_ACTED + w] |= b
        _line(st, L_OTHER, seat, -1)  # income, a guard, or nothing to do
        if count:
            st[S_COINS + seat] += tab[T_RULES, R_INCOME]
        elif tab[T_GUARD, card] and tab[T_STRENGTH, card] > st[S_SHIELD + seat]:
            st[S_SHIELD + seat] = tab[T_STRENGTH, card]


@njit
def _current(st: Any) -> int:
    """The first current seat; SEAT_CHANCE at a chance node, SEAT_NONE when nobody acts."""
    phase = st[I_PHASE]
    if phase == P_PLAN:
        for s in range(st[I_N]):
            if not st[S_READY + s]:
                return s
        return SEAT_NONE
    if phase == P_EXEC:
        return st[I_PSEAT] if st[I_PSEAT] >= 0 else SEAT_NONE
    if phase == P_DRAW:
        if st[O_REFILL] == 1 and st[I_NDRAWS] > 0 and st[OFF_DRAWS + 1] == SRC_MARKET:
            return st[OFF_DRAWS]
        return SEAT_CHANCE
    return SEAT_NONE


@njit
def _legal(st: Any, tab: Any, work: Any, seat: int) -> int:
    """``legal_actions`` of the current ``seat`` as codes at the start of the work array, in
    the engine's order; the count."""
    phase = st[I_PHASE]
    count = 0
    if phase == P_DRAW:
        m0 = st[G_MARKET]
        m1 = st[G_MARKET + 1]
        for k in range(tab[T_RULES, R_NKINDS]):
            if tab[K_GLAD, k] and (m0 & tab[K_MASK0, k] or m1 & tab[K_MASK1, k]):
                work[count] = A_PICK * A_SCALE + k
                count += 1
        return count
    if phase == P_PLAN:
        h = _mask(M_HAND, seat)
        h0 = st[h]
        h1 = st[h + 1]
        for k in range(tab[T_RULES, R_NKINDS]):
            if h0 & tab[K_MASK0, k] or h1 & tab[K_MASK1, k]:
                work[count] = A_PLACE * A_SCALE + k
                count += 1
        if st[O_FREE] and st[S_PLAN_LEN + seat] > 0:
            work[count] = A_DONE * A_SCALE
            count += 1
        return count
    count = _choices(st, tab, work, seat, st[I_PCARD])
    work[count] = A_PASS * A_SCALE
    return count + 1


@njit
def _take(st: Any, tab: Any, work: Any, seat: int, card: int) -> None:
    """The end of ``_apply_chance`` and ``_take_from_market``: ``card`` joins the hand."""
    st[_mask(M_HAND, seat) + card // WORD] |= _bit(card)
    st[OFF_DRAWS + 2] -= 1
    st[OFF_DRAWS + 3] += 1
    _flow(F_PREPARE, st, tab, work)
    _advance(st, tab, work)


@njit
def _chance(st: Any, tab: Any, work: Any, rngs: Any, which: int) -> None:
    """``sample_chance`` from generator ``which``, and its outcome applied."""
    seat = st[OFF_DRAWS]
    own = st[OFF_DRAWS + 1] == SRC_OWN
    if own:
        d = _mask(M_DECK, seat)
        p0 = st[d]
        p1 = st[d + 1]
    else:
        d = G_MARKET
        p0 = st[d] & tab[T_RULES, R_GLAD0]
        p1 = st[d + 1] & tab[T_RULES, R_GLAD1]
    c = _nth(p0, p1, rng_below(rngs, which, _pop(p0) + _pop(p1)))
    st[d + c // WORD] &= ~_bit(c)
    if not own:
        _line(st, L_MARKET, seat, tab[T_KIND, c])
    _take(st, tab, work, seat, c)


@njit
def _apply(st: Any, tab: Any, work: Any, seat: int, action: int) -> None:
    """``_apply`` for a player's move (``action``: a code from :func:`_legal`)."""
    kind = action // A_SCALE
    arg = action % A_SCALE
    phase = st[I_PHASE]
    if phase == P_DRAW:  # a refill picked from the market: its lowest card of that kind
        c = _lowest(st[G_MARKET] & tab[K_MASK0, arg], st[G_MARKET + 1] & tab[K_MASK1, arg])
        st[G_MARKET + c // WORD] &= ~_bit(c)
        _line(st, L_MARKET, seat, arg)
        _take(st, tab, work, seat, c)
        return
    if phase == P_PLAN:
        st[I_SECRET] += 1
        if kind == A_PLACE:
            h = _mask(M_HAND, seat)
            c = _lowest(st[h] & tab[K_MASK0, arg], st[h + 1] & tab[K_MASK1, arg])
            st[h + c // WORD] &= ~_bit(c)
            st[OFF_PLAN + seat * ROW + st[S_PLAN_LEN + seat]] = c
            st[S_PLAN_LEN + seat] += 1
            if not st[O_FREE]:
                _autoplan(st, tab, seat)
            if _hand_count(st, seat) == 0 or st[S_PLAN_LEN + seat] >= tab[T_RULES, R_PLAN]:
                st[S_READY + seat] = 1
        else:  # done
            st[S_READY + seat] = 1
        for s in range(st[I_N]):
            if not st[S_READY + s]:
                return
        _flow(F_REVEAL, st, tab, work)
        _advance(st, tab, work)
        return
    card = st[I_PCARD]
    st[I_PSEAT] = -1
    st[I_PCARD] = -1
    _queue_pop(st)
    st[G_ACTED + card // WORD] |= _bit(card)
    if kind == A_ATTACK:
        victim = _owner(st, arg)
        guard = tab[T_DEFENCE, arg]
        if st[S_SHIELD + victim] > guard:
            guard = st[S_SHIELD + victim]
        if tab[T_STRENGTH, card] > guard:
            w = arg // WORD
            b = _bit(arg)
            st[G_DEAD + w] |= b
            for pile in range(3):
                st[_mask(pile, victim) + w] &= ~b
            _line(st, L_KILL, victim, tab[T_KIND, arg])
        else:
            _line(st, L_OTHER, seat, -1)
    elif kind == A_RECRUIT:
        c = _lowest(st[G_MARKET] & tab[K_MASK0, arg], st[G_MARKET + 1] & tab[K_MASK1, arg])
        st[S_COINS + seat] -= tab[K_COST, arg]
        st[G_MARKET + c // WORD] &= ~_bit(c)
        st[_mask(M_HAND, seat) + c // WORD] |= _bit(c)
        _line(st, L_RECRUIT, seat, arg)
    elif kind == A_INCOME:
        st[S_COINS + seat] += tab[T_RULES, R_INCOME]
        _line(st, L_OTHER, seat, -1)
    else:
        _line(st, L_OTHER, seat, -1)  # pass
    _advance(st, tab, work)


# ------------------------------------------------------------------ the heuristic (policy 1)
# :class:`~.heuristic.GorusArenaHeuristic` from the deciding seat's view: every value is worked
# out with the same float operations in the same order as the Python bot (its weights come in
# ``wt``; the few constants written into its code are written here too), and the noise is one
# draw from the seat's agent generator per legal move, in the order of the legal moves.
W_COIN, W_ENGINE, W_ATTACK, W_RECRUIT, W_DEFENCE, W_RISK, W_KILL, W_NOISE = range(8)


def _weights() -> Any:
    """The heuristic's default weights and its noise, in the order of the ``W_*`` indices."""
    w = Weights()
    return np.array([w.coin, w.engine, w.attack, w.recruit, w.defence, w.risk, w.kill, NOISE], dtype=np.float64)


WEIGHTS = _weights()


@njit
def _h_plan(st: Any, tab: Any, seat: int) -> int:
    """``plan``: the hand card first by (group, -strength), the lowest id on a tie (a stable sort
    of the sorted hand), placed by its kind."""
    defence_first = st[O_DEFENCE] == 1  # execution
    h = _mask(M_HAND, seat)
    best = -1
    best_group = 0
    best_strength = 0
    for w in range(2):
        m = st[h + w]
        while m:
            low = m & -m
            c = w * WORD + _pop(low - 1)
            m ^= low
            if tab[T_GUARD, c]:
                group = -1 if defence_first else 3
            elif tab[T_ATTACK, c]:
                group = 0
            elif tab[T_RECRUIT, c]:
                group = 2
            else:
                group = 1
            strength = -tab[T_STRENGTH, c]
            if best < 0 or group < best_group or (group == best_group and strength < best_strength):
                best = c
                best_group = group
                best_strength = strength
    return A_PLACE * A_SCALE + tab[T_KIND, best]


@njit
def _h_action_worth(tab: Any, wt: Any, c: int, rounds_left: int, players: int) -> float:
    """``action_worth`` of card ``c``'s actions (the max is the same whatever their order)."""
    best = 0.0
    count = 0
    if tab[T_INCOME, c]:
        v = tab[T_RULES, R_INCOME] * wt[W_COIN]
        if count == 0 or v > best:
            best = v
        count += 1
    if tab[T_RECRUIT, c]:
        v = wt[W_RECRUIT] if rounds_left > 1 else wt[W_RECRUIT] / 3
        if count == 0 or v > best:
            best = v
        count += 1
    if tab[T_ATTACK, c]:
        x = wt[W_ATTACK] * (tab[T_STRENGTH, c] - 2)
        v = (x if x > 0.0 else 0.0) * 2 / players
        if count == 0 or v > best:
            best = v
        count += 1
    if tab[T_GUARD, c]:
        v = wt[W_DEFENCE]
        if count == 0 or v > best:
            best = v
        count += 1
    return best + 0.2 * (count - 1)


@njit
def _h_card_worth(st: Any, tab: Any, wt: Any, seat: int, c: int) -> float:
    """``card_worth`` of card ``c``'s kind for ``seat``."""
    rounds_left = st[O_ROUNDS] - st[I_ROUND]
    h = _mask(M_HAND, seat)
    d = _mask(M_DECK, seat)
    x = _mask(M_DISCARD, seat)
    own = _pop(st[h] | st[d]) + _pop(st[h + 1] | st[d + 1]) + st[S_PLAN_LEN + seat]
    own += _pop(st[x]) + _pop(st[x + 1])
    for j in range(st[S_ARENA_LEN + seat]):
        if not _dead(st, st[OFF_ARENA + seat * ROW + j]):
            own += 1
    share = 2.5 / (own + 1)
    plays = 1.0 + (rounds_left - 1) * (share if share < 1.0 else 1.0)
    points = tab[T_POINTS, c] - (wt[W_RISK] * (5 - tab[T_DEFENCE, c]) if tab[T_GLAD, c] else 0.0)
    return points + wt[W_ENGINE] * plays * _h_action_worth(tab, wt, c, rounds_left, st[I_N])


@njit
def _h_value(st: Any, tab: Any, wt: Any, seat: int, action: int) -> float:
    """``value``: the worth of a move in end-of-game points (pass is 0)."""
    kind = action // A_SCALE
    arg = action % A_SCALE
    coins = st[S_COINS + seat]
    cpp = tab[T_RULES, R_CPP]
    last = st[I_ROUND] >= st[O_ROUNDS]
    if kind == A_INCOME:
        if last:
            return float((coins + tab[T_RULES, R_INCOME]) // cpp - coins // cpp)
        return tab[T_RULES, R_INCOME] * wt[W_COIN]
    if kind in (A_RECRUIT, A_PICK):
        c = _lowest(st[G_MARKET] & tab[K_MASK0, arg], st[G_MARKET + 1] & tab[K_MASK1, arg])
        if kind == A_PICK:
            return _h_card_worth(st, tab, wt, seat, c)
        cost = tab[K_COST, arg]
        if last:
            return tab[T_POINTS, c] - (coins // cpp - (coins - cost) // cpp) - 0.01
        return _h_card_worth(st, tab, wt, seat, c) - cost * wt[W_COIN]
    if kind == A_ATTACK:
        target = arg
        victim = _owner(st, target)
        guard = tab[T_DEFENCE, target]
        if victim >= 0 and st[S_SHIELD + victim] > guard:
            guard = st[S_SHIELD + victim]
        if not tab[T_STRENGTH, st[I_PCARD]] > guard:
            return -1.0
        worth = float(tab[T_POINTS, target])
        waiting = True
        if st[I_TIED]:  # a tied auction: a queued card acts even if killed now
            for i in range(st[I_NQUEUE]):
                if st[OFF_QUEUE + 2 * i + 1] == target:
                    waiting = False
        if waiting:
            shown = False
            for s in range(st[I_N]):
                for j in range(st[S_ARENA_LEN + s]):
                    if st[OFF_ARENA + s * ROW + j] == target:
                        shown = True
            waiting = shown and st[G_ACTED + target // WORD] & _bit(target) == 0
        if waiting:
            worth += 0.8
        if not last:
            worth += 0.3 * _h_action_worth(tab, wt, target, 3, 2)
        if victim >= 0:
            top = -(1 << 62)
            for s in range(st[I_N]):
                if s != seat:
                    v = _score(st, tab, s)
                    if v > top:
                        top = v
            if _score(st, tab, victim) == top:
                worth += 0.5
        return worth * wt[W_KILL]
    return 0.0  # pass


@njit
def _h_choose(st: Any, tab: Any, wt: Any, work: Any, rngs: Any, seat: int, count: int) -> int:
    """``act`` among the ``count`` legal moves (two or more) at the start of the work array."""
    if st[I_PHASE] == P_PLAN:
        return _h_plan(st, tab, seat)
    best = 0
    best_value = 0.0
    for i in range(count):
        v = _h_value(st, tab, wt, seat, work[i]) + wt[W_NOISE] * rng_random(rngs, POLICY_RNGS + seat)
        if i == 0 or v > best_value:
            best = i
            best_value = v
    return work[best]


@njit
def _outcome(st: Any, tab: Any, out: Any, decisions: int, finished: bool) -> None:
    """``[decisions, finished, scores..., returns...]`` into ``out`` (zeros): the returns, 1
    shared among the winners, once the game is over."""
    n = st[I_N]
    out[0] = decisions
    out[1] = 1.0 if finished else 0.0
    best = -1
    for s in range(n):
        v = _score(st, tab, s)
        out[2 + s] = float(v)
        if v > best:
            best = v
    if finished and st[I_PHASE] == P_OVER:
        most_coins = -1
        count = 0
        for s in range(n):
            if out[2 + s] == best:
                count += 1
                if st[S_COINS + s] > most_coins:
                    most_coins = st[S_COINS + s]
        by_coins = st[O_TIEBREAK] == 0 and count > 1
        if by_coins:
            count = 0
            for s in range(n):
                if out[2 + s] == best and st[S_COINS + s] == most_coins:
                    count += 1
        for s in range(n):
            if out[2 + s] == best and (not by_coins or st[S_COINS + s] == most_coins):
                out[2 + n + s] = 1.0 / count


@njit
def _run(st: Any, tab: Any, wt: Any, rngs: Any, has_state_rng: bool, policy: int, max_decisions: int, most: int) -> Any:
    """:func:`ludus.core.playout.playout` with the random policy (0) or the heuristic (1), on the
    packed state in place."""
    n = st[I_N]
    if policy != 0 and rngs.shape[0] < POLICY_RNGS + n:
        raise ValueError("the heuristic needs a generator for every seat's agent")
    work = np.empty(2 * tab.shape[1] + 8 + W_BIDS, dtype=np.int64)
    limit = most if max_decisions < 0 else max_decisions
    out = np.zeros(2 + 2 * n, dtype=np.float64)
    for decisions in range(most):
        seat = _current(st)
        while seat == SEAT_CHANCE:
            _chance(st, tab, work, rngs, ROLLOUT)
            if has_state_rng:
                while _current(st) == SEAT_CHANCE:
                    _chance(st, tab, work, rngs, CHANCE_RNG)
            seat = _current(st)
        if seat == SEAT_NONE or decisions >= limit:
            _outcome(st, tab, out, decisions, seat == SEAT_NONE)
            return out
        count = _legal(st, tab, work, seat)
        if count == 1:
            action = work[0]
        elif policy == 0:
            action = work[rng_below(rngs, ROLLOUT, count)]
        else:
            action = _h_choose(st, tab, wt, work, rngs, seat, count)
        _apply(st, tab, work, seat, action)
        if has_state_rng:
            while _current(st) == SEAT_CHANCE:
                _chance(st, tab, work, rngs, CHANCE_RNG)
    out[0] = -1.0
    return out


@njit
def _run_agents(st: Any, tab: Any, wt: Any, rngs: Any, has_state_rng: bool, kinds: Any, most: int) -> Any:
    """A whole game of agents (:meth:`GorusArenaPlayouts.run_agents`): the loop of :func:`_run`
    with each seat's agent choosing every move of the seat. The random agent (``kinds[seat]`` 0)
    draws ``below(len(legal))`` from its own generator even when one move is legal; the
    heuristic plays a forced move without drawing and otherwise chooses as in :func:`_run` (its
    noise already comes from its seat's generator)."""
    n = st[I_N]
    work = np.empty(2 * tab.shape[1] + 8 + W_BIDS, dtype=np.int64)
    out = np.zeros(2 + 2 * n, dtype=np.float64)
    for decisions in range(most):
        seat = _current(st)
        while seat == SEAT_CHANCE:  # as in _run (a seeded state has settled its chance already)
            _chance(st, tab, work, rngs, ROLLOUT)
            if has_state_rng:
                while _current(st) == SEAT_CHANCE:
                    _chance(st, tab, work, rngs, CHANCE_RNG)
            seat = _current(st)
        if seat == SEAT_NONE:
            _outcome(st, tab, out, decisions, True)
            return out
        count = _legal(st, tab, work, seat)
        if kinds[seat] == 0:
            action = work[rng_below(rngs, POLICY_RNGS + seat, count)]
        elif count == 1:
            action = work[0]
        else:
            action = _h_choose(st, tab, wt, work, rngs, seat, count)
        _apply(st, tab, work, seat, action)
        if has_state_rng:
            while _current(st) == SEAT_CHANCE:
                _chance(st, tab, work, rngs, CHANCE_RNG)
    out[0] = -1.0
    return out


# ------------------------------------------------------------------ packing and the protocol
def _option_codes(o: GorusArenaOptions) -> list[int]:
    return [
        o.rounds,
        AUCTIONS.index(o.auction),
        DEFENCE_TIMINGS.index(o.defence_timing),
        ATTACK_TARGETS.index(o.attack_targets),
        int(o.free_plan),
        STARTS.index(o.starting_player),
        TIE_RESOLUTIONS.index(o.tie_resolution),
        TIE_BREAKS.index(o.tie_break),
        USED_CARDS.index(o.used_cards),
        REFILLS.index(o.refill),
        int(o.armoury),
    ]


class GorusArenaPlayouts(CompiledPlayouts):
    """Gorus Arena playouts compiled: the random policy and the heuristic, every option and
    player count."""

    game_name: ClassVar[str] = "gorus-arena"
    policies: ClassVar[tuple[str, ...]] = ("random", "heuristic")
    agent_kinds: ClassVar[tuple[str, ...]] = ("random", "heuristic")

    def __init__(self) -> None:
        self._options: dict[GorusArenaOptions, list[int]] = {}

    def pack(self, state: State) -> tuple[Any, ...] | None:
        """The state's game data as one int64 array (its layout: ``OFF_MASKS``...): scalars and
        options, the card sets, the seats' counters, plans and arenas in order, the auction's
        queue and order, the draws still to make. Reads no log, event or cache."""
        st: GorusArenaState = state  # type: ignore[assignment]
        n = st.n
        opts = self._options.get(st.options)
        if opts is None:
            opts = self._options[st.options] = _option_codes(st.options)
        pending = st.pending
        queue, order, draws = st.queue, st.order, st.draws
        flat = [
            n,
            st.round,
            _PHASE[st.phase],
            st.start,
            st.slot,
            int(st.round_tied),
            int(st.tied),
            -1 if pending is None else pending[0],
            -1 if pending is None else pending[1],
            st.secret,
            len(queue),
            len(order),
            len(draws),
            *opts,
        ]
        absent = _ZERO[: 2 * (MS - n)]
        for sets in (st.hand, st.deck, st.discard):
            for m in sets:
                flat.append(m & LOW)
                flat.append(m >> WORD)
            flat += absent
        for m in (st.market, st.dead, st.acted):
            flat.append(m & LOW)
            flat.append(m >> WORD)
        absent = _ZERO[: MS - n]
        plan, arena = st.plan, st.arena
        for row in (st.coins, st.shield, st.ready, map(len, plan), map(len, arena)):
            flat += row  # ready's bools become 0 and 1 in the array
            flat += absent
        for rows in (plan, arena):
            for cards in rows:
                flat += cards
                flat += _NONE[: ROW - len(cards)]
            flat += _NONE[: ROW * (MS - n)]
        for entry in queue:
            flat += entry
        flat += _NONE[: 2 * (MS - len(queue))]
        flat += order
        flat += _NONE[: MS - len(order)]
        for s, source, left, drawn in draws:
            flat += (s, SRC_OWN if source == "own" else SRC_MARKET, left, drawn)
        flat += _NONE[: 4 * (MS + 1 - len(draws))]
        return (np.fromiter(flat, np.int64, SIZE),)

    def run(self, packed: tuple[Any, ...], rngs: Any, has_state_rng: bool, policy: int, max_decisions: int) -> Any:
        st = packed[0]
        if policy and rngs.shape[0] < POLICY_RNGS + int(st[I_N]):
            raise ValueError("the heuristic policy needs one agent generator per seat")  # numba checks no bounds
        return _run(st, TABLE, WEIGHTS, rngs, has_state_rng, policy, max_decisions, MAX_PLAYOUT_DECISIONS)

    def run_agents(self, packed: tuple[Any, ...], rngs: Any, has_state_rng: bool, kinds: Any) -> Any:
        st = packed[0]
        n = int(st[I_N])
        if rngs.shape[0] < POLICY_RNGS + n or kinds.shape[0] < n:
            raise ValueError("a game of agents needs a kind and a generator for every seat")  # numba checks no bounds
        return _run_agents(st, TABLE, WEIGHTS, rngs, has_state_rng, kinds, MAX_PLAYOUT_DECISIONS)

    def vector_steps(
        self, options: Any, num_envs: int, seat: int, kinds: Sequence[str | None], player_actions: Sequence[Any]
    ) -> CompiledSteps | None:
        """The vector environment's stepping, compiled (:mod:`.vector`): every option and player
        count, the random and heuristic agents."""
        from .vector import vector_steps  # it builds on this module

        return vector_steps(self, options, num_envs, seat, kinds, player_actions)


_NONE = [-1] * (ROW * MS + 4 * (MS + 1))
"""Padding for the rows a state does not fill."""
_ZERO = [0] * (2 * MS)
_PHASE = {phase: i for i, phase in enumerate(PHASES)}

PLAYOUTS = GorusArenaPlayouts()
"""The one instance :meth:`~ludus.games.gorus_arena.game.GorusArena.compiled_playouts` hands out."""
