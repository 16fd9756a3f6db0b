"""Gladius playouts compiled with numba: the rules of ``rules.py`` and the heuristic of
``heuristic.py``, over per-kind card counts, for search bots' rollouts and for whole
tournament games of the random and heuristic agents (:meth:`GladiusPlayouts.run_agents`).

The Python engine stays the reference; this module plays exactly the games it plays (the same
legal moves in the same order, the same draws from the same generators, the same heuristic
choices, the same final position), which ``tests/games/gladius/test_compiled.py`` checks.

Zones are counts per card kind, not the engine's bitmasks of physical copies: copies of a kind
are consecutive in the deck, so the ``r``-th card of the pile (what a draw picks) lies in the
kind whose running count passes ``r``, and which copy moves never matters to the rules (nor to
a position, which stores counts too). That also leaves no limit on the size of the deck.

A packed state (see :meth:`GladiusPlayouts.pack`) is the scalars (the options the rules read
first, then the position's fields, ``S_*``), the zones (rows ``Z_*``, one count per kind), the
card table (``K_*`` by kind, shared and read-only) and the stop sets the heuristic counts
(read-only). Packing hands the engine's masks over as they are and counts them in compiled
code: counting them in Python cost more than the whole playout.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from math import comb
from typing import Any

import numba
import numpy as np

from ...core.compiled import CHANCE_RNG, POLICY_RNGS, ROLLOUT, CompiledPlayouts, CompiledSteps, njit, rng_below
from ...core.game import State
from ...core.memo import derived
from ...core.playout import MAX_PLAYOUT_DECISIONS
from .rules import GladiusState, Setup

__all__ = ["PLAYOUTS", "GladiusPlayouts"]

# ----------------------------------------------------------------------------- layout
# phases: the numbers of views.py (checked by the tests)
FIRST, DEAL, DRAW, DISCARD, ATTACK, DEFEND, SKIP, RESHUFFLE, MINI_DEF, ADV_DEF, MINI_ATK, ADV_ATK, OVER = range(13)

# scalars: options first (never change), then the position
(
    S_SOLO,
    S_COMPULSORY,
    S_HAND_LIMIT,
    S_RESHUFFLE,
    S_TURN_LIMIT,
    S_MINI_DEF,
    S_MINI_ATK,
    S_DEAL_TOTAL,
    S_PHASE,
    S_ACTIVE,
    S_FIRST,
    S_TURN,
    S_DEALT,
    S_HP,
    S_HP1,
    S_PENDING,
    S_MINI_LEFT,
    S_LOCK,
    S_LOCK1,
    S_BARRED,
    S_SKIP,
    S_SKIP1,
    S_RESUME,
    S_RESHUFFLES,
    S_UNKNOWN,
    S_UNKNOWN1,
    S_END,
    S_LA_SEAT,
    S_LA_KIND,
    S_LD_SEAT,
    S_LD_KIND,
    S_RESULT,
    S_PILE_N,
    S_DISCARD_N,
    S_HAND_N,
    S_HAND_N1,
    S_SIZE,
) = range(37)

# zones, one row of counts per kind each
Z_PILE, Z_HAND, Z_HAND1, Z_DISCARD, Z_MINI, Z_KNOWN, Z_KNOWN1, Z_SIZE = range(8)

# the card table: one row per kind
(K_COUNT, K_ATTACK, K_DEFENCE, K_EVADE, K_BLOCK, K_DAMAGE, K_IMMOBILIZE, K_NO_NEXT, K_USE, K_USE1, K_RANK, K_SIZE) = (
    range(12)
)

END_CODES = {"": 0, "knockout": 1, "deck": 2, "turn-limit": 3}
_END_KNOCKOUT, _END_DECK, _END_TURN_LIMIT, _END_OTHER = 1, 2, 3, 4
RESULT_CODES = {"": 0, "hit": 1, "evaded": 2, "blocked": 3, "no attack": 4, "skipped": 5}
_R_NONE, _R_HIT, _R_EVADED, _R_BLOCKED, _R_NO_ATTACK, _R_SKIPPED = range(6)
_R_OTHER = 6
"""A result text the engine never writes itself (a hand-made position): kept as it is."""

_OP_WANT, _OP_DRAWN, _OP_BEGIN = range(3)
_EXACT = 2**53
"""Integers below this convert to float exactly, so a ratio of two of them rounds as Python's does."""

_POLICY_RANDOM, _POLICY_HEURISTIC = 0, 1
_AGENT_RANDOM, _AGENT_HEURISTIC = 0, 1  # codes of GladiusPlayouts.agent_kinds
_WORD = (1 << 64) - 1
_SURE = 1e-6  # heuristic.py's margin


# ----------------------------------------------------------------------------- rules
_inline = numba.njit(cache=True, nogil=True, inline="always")
"""``njit`` for the small helpers of the hot loop: inlined where they are called, they cost no
call and no reference counting of the arrays passed (15-20% off a decision, measured side by
side). The larger steps stay calls: inlining everything made the first compile take minutes."""


@_inline
def _finish(st: Any, reason: int) -> None:
    st[S_PHASE] = OVER
    st[S_END] = reason


@_inline
def _after_maneuver(st: Any) -> None:
    st[S_PHASE] = DISCARD if st[S_HAND_N + st[S_ACTIVE]] > st[S_HAND_LIMIT] else ATTACK


@njit
def _flow(st: Any, op: int, arg: int) -> None:
    """``_want_draw``, ``_drawn`` and ``_begin_turn`` of rules.py, which call one another,
    as one loop: ``op`` is the call to make next with its argument."""
    while True:
        if op == _OP_WANT:  # _want_draw(phase)
            if st[S_PILE_N] > 0:
                st[S_PHASE] = arg
                return
            if st[S_DISCARD_N] > 0 and st[S_RESHUFFLE] != 0:
                st[S_PHASE] = RESHUFFLE
                st[S_RESUME] = arg
                return
            if st[S_RESHUFFLE] == 0:
                _finish(st, _END_DECK)
                return
            if arg in (MINI_DEF, MINI_ATK):
                st[S_MINI_LEFT] = 1
            op = _OP_DRAWN
        elif op == _OP_DRAWN:  # _drawn(phase)
            if arg == DEAL:
                st[S_DEALT] += 1
                if st[S_DEALT] < st[S_DEAL_TOTAL]:
                    op = _OP_WANT
                else:
                    op, arg = _OP_BEGIN, st[S_FIRST]
            elif arg == DRAW:
                _after_maneuver(st)
                return
            else:
                st[S_MINI_LEFT] -= 1
                if st[S_MINI_LEFT] > 0:
                    op = _OP_WANT
                else:
                    st[S_PHASE] = ADV_DEF if arg == MINI_DEF else ADV_ATK
                    return
        else:  # _begin_turn(side)
            side = arg
            st[S_TURN] += 1
            limit = st[S_TURN_LIMIT]
            if limit != 0 and st[S_TURN] > limit:
                st[S_TURN] = limit
                _finish(st, _END_TURN_LIMIT)
                return
            st[S_ACTIVE] = side
            if st[S_SKIP + side] != 0:
                st[S_PHASE] = SKIP
                return
            st[S_BARRED] = st[S_LOCK + side]
            st[S_LOCK + side] = -1
            if st[S_SOLO] != 0 and side == 1:
                if st[S_BARRED] >= 0:
                    st[S_PHASE] = ADV_ATK
                    return
                st[S_MINI_LEFT] = st[S_MINI_ATK]
                op, arg = _OP_WANT, MINI_ATK
            elif st[S_PILE_N] > 0:
                st[S_PHASE] = DRAW
                return
            else:
                op, arg = _OP_WANT, DRAW


@_inline
def _end_turn(st: Any) -> None:
    _flow(st, _OP_BEGIN, 1 - st[S_ACTIVE])


@_inline
def _saw_play(st: Any, z: Any, side: int, k: int) -> None:
    if st[S_SOLO] != 0:
        return
    v = 1 - side
    if z[Z_KNOWN + v, k] > 0:
        z[Z_KNOWN + v, k] -= 1
    else:
        st[S_UNKNOWN + v] -= 1


@njit
def _resolve(st: Any, z: Any, kt: Any, defender: int, defence: int) -> None:
    pending = st[S_PENDING]
    if defence < 0:
        hp = st[S_HP + defender] - kt[pending, K_DAMAGE]
        st[S_HP + defender] = hp if hp > 0 else 0
        if kt[pending, K_IMMOBILIZE] != 0:
            st[S_SKIP + defender] = 1
        st[S_RESULT] = _R_HIT
    elif kt[defence, K_EVADE] != 0:
        st[S_LOCK + defender] = defence
        st[S_RESULT] = _R_EVADED
    else:
        st[S_RESULT] = _R_BLOCKED
    st[S_LD_SEAT] = defender
    st[S_LD_KIND] = defence
    z[Z_DISCARD, pending] += 1  # the table goes to the discards
    st[S_DISCARD_N] += 1
    st[S_PENDING] = -1
    if st[S_HP + defender] == 0:
        _finish(st, _END_KNOCKOUT)
    else:
        _end_turn(st)


@_inline
def _play_attack(st: Any, kt: Any, side: int, k: int) -> None:
    st[S_PENDING] = k
    if kt[k, K_NO_NEXT] != 0:
        st[S_LOCK + side] = k
    st[S_LA_SEAT] = side
    st[S_LA_KIND] = k
    st[S_LD_SEAT] = -1
    st[S_LD_KIND] = -1
    st[S_RESULT] = _R_NONE


@_inline
def _no_attack(st: Any, side: int) -> None:
    st[S_LA_SEAT] = side
    st[S_LA_KIND] = -1
    st[S_LD_SEAT] = -1
    st[S_LD_KIND] = -1
    st[S_RESULT] = _R_NO_ATTACK
    _end_turn(st)


@_inline
def _mini_to_discard(st: Any, z: Any, nk: int) -> None:
    for k in range(nk):
        n = z[Z_MINI, k]
        if n:
            z[Z_DISCARD, k] += n
            st[S_DISCARD_N] += n
            z[Z_MINI, k] = 0


@njit
def _play(st: Any, z: Any, kt: Any, seat: int, k: int) -> None:
    """The decision ``k`` (a kind, or -1 for no attack / no defence / ...) of ``seat``."""
    p = st[S_PHASE]
    if p == ATTACK:
        st[S_BARRED] = -1
        if k < 0:
            _no_attack(st, seat)
            return
        z[Z_HAND + seat, k] -= 1
        st[S_HAND_N + seat] -= 1
        _saw_play(st, z, seat, k)
        _play_attack(st, kt, seat, k)
        if st[S_SOLO] != 0:
            st[S_MINI_LEFT] = st[S_MINI_DEF]
            _flow(st, _OP_WANT, MINI_DEF)
        else:
            st[S_PHASE] = DEFEND
    elif p == DEFEND:
        if k >= 0:
            z[Z_HAND + seat, k] -= 1
            st[S_HAND_N + seat] -= 1
            z[Z_DISCARD, k] += 1
            st[S_DISCARD_N] += 1
            _saw_play(st, z, seat, k)
        _resolve(st, z, kt, seat, k)
    else:  # DISCARD
        z[Z_HAND + seat, k] -= 1
        st[S_HAND_N + seat] -= 1
        z[Z_DISCARD, k] += 1
        st[S_DISCARD_N] += 1
        _saw_play(st, z, seat, k)
        _after_maneuver(st)


@_inline
def _draw_kind(st: Any, z: Any, rngs: Any, gen: int, nk: int) -> int:
    """The kind of the card a draw picks (``nth_card`` of ``below(pile size)``), taken off the pile."""
    r = rng_below(rngs, gen, st[S_PILE_N])
    k = 0
    while r >= z[Z_PILE, k]:
        r -= z[Z_PILE, k]
        k += 1
    z[Z_PILE, k] -= 1
    st[S_PILE_N] -= 1
    return k


@njit
def _adversary_defence(st: Any, z: Any, kt: Any, nk: int) -> int:
    immobilizes = kt[st[S_PENDING], K_IMMOBILIZE] != 0
    first = -1
    for k in range(nk):
        if z[Z_MINI, k] and kt[k, K_DEFENCE] and kt[k, K_USE1] and (not immobilizes or kt[k, K_EVADE]):
            if kt[k, K_BLOCK]:
                return k
            if first < 0:
                first = k
    return first


@njit
def _adversary_attack(z: Any, kt: Any, nk: int) -> int:
    best = -1
    for k in range(nk):
        if z[Z_MINI, k] and kt[k, K_ATTACK] and kt[k, K_USE1]:
            if best < 0:
                best = k
                continue
            # (damage, immobilizes, without a next-turn penalty) greater than the best's
            d, b = kt[k, K_DAMAGE], kt[best, K_DAMAGE]
            if d != b:
                if d > b:
                    best = k
                continue
            i, j = kt[k, K_IMMOBILIZE] != 0, kt[best, K_IMMOBILIZE] != 0
            if i != j:
                if i:
                    best = k
                continue
            if kt[k, K_NO_NEXT] == 0 and kt[best, K_NO_NEXT] != 0:
                best = k
    return best


@njit
def _chance(st: Any, z: Any, kt: Any, rngs: Any, gen: int, nk: int) -> None:
    """One chance outcome, drawn (where it is random) from generator ``gen``."""
    p = st[S_PHASE]
    if p in (DRAW, DEAL):
        k = _draw_kind(st, z, rngs, gen, nk)
        to = st[S_ACTIVE]
        if p == DEAL:
            to = 0 if st[S_SOLO] != 0 else (st[S_FIRST] + st[S_DEALT]) % 2
        z[Z_HAND + to, k] += 1
        st[S_HAND_N + to] += 1
        if st[S_SOLO] == 0:
            st[S_UNKNOWN + 1 - to] += 1
        _flow(st, _OP_DRAWN, p)
    elif p in (MINI_DEF, MINI_ATK):
        k = _draw_kind(st, z, rngs, gen, nk)
        z[Z_MINI, k] += 1
        _flow(st, _OP_DRAWN, p)
    elif p == FIRST:
        st[S_FIRST] = rng_below(rngs, gen, 2)
        if st[S_DEAL_TOTAL] == 0:
            _flow(st, _OP_BEGIN, st[S_FIRST])
        else:
            _flow(st, _OP_WANT, DEAL)
    elif p == RESHUFFLE:
        for k in range(nk):
            z[Z_PILE, k] = z[Z_DISCARD, k]
            z[Z_DISCARD, k] = 0
        st[S_PILE_N] = st[S_DISCARD_N]
        st[S_DISCARD_N] = 0
        st[S_RESHUFFLES] += 1
        if st[S_SOLO] == 0:
            for v in range(2):
                for k in range(nk):
                    z[Z_KNOWN + v, k] = z[Z_HAND + 1 - v, k]
                st[S_UNKNOWN + v] = 0
        resume = st[S_RESUME]
        st[S_RESUME] = -1
        _flow(st, _OP_WANT, resume)
    elif p == SKIP:
        side = st[S_ACTIVE]
        st[S_SKIP + side] = 0
        st[S_LOCK + side] = -1
        st[S_BARRED] = -1
        st[S_LA_SEAT] = -1
        st[S_LA_KIND] = -1
        st[S_LD_SEAT] = -1
        st[S_LD_KIND] = -1
        st[S_RESULT] = _R_SKIPPED
        _end_turn(st)
    elif p == ADV_DEF:
        k = _adversary_defence(st, z, kt, nk)
        _mini_to_discard(st, z, nk)
        _resolve(st, z, kt, 1, k)
    elif p == ADV_ATK:
        k = _adversary_attack(z, kt, nk)
        st[S_BARRED] = -1
        if k < 0:
            _mini_to_discard(st, z, nk)
            _no_attack(st, 1)
            return
        z[Z_MINI, k] -= 1
        _mini_to_discard(st, z, nk)
        _play_attack(st, kt, 1, k)
        st[S_PHASE] = DEFEND


@_inline
def _is_chance(p: int) -> bool:
    return p != ATTACK and p != DISCARD and p != DEFEND and p != OVER


@_inline
def _settle(st: Any, z: Any, kt: Any, rngs: Any, nk: int) -> None:
    """``_settle_chance``: chance from the state's own generator up to the next decision."""
    while _is_chance(st[S_PHASE]):
        _chance(st, z, kt, rngs, CHANCE_RNG, nk)


@_inline
def _legal(st: Any, z: Any, kt: Any, seat: int, out: Any, nk: int) -> int:
    """``legal_actions(seat)`` into ``out`` (kinds in deck order, -1 for no attack / no
    defence, last); returns how many."""
    p = st[S_PHASE]
    n = 0
    hand = Z_HAND + seat
    use = K_USE + seat
    if p == ATTACK:
        if st[S_BARRED] >= 0:
            out[0] = -1
            return 1
        for k in range(nk):
            if z[hand, k] and kt[k, K_ATTACK] and kt[k, use]:
                out[n] = k
                n += 1
        if n == 0 or st[S_COMPULSORY] == 0:
            out[n] = -1
            n += 1
        return n
    if p == DEFEND:
        evade_only = kt[st[S_PENDING], K_IMMOBILIZE] != 0
        for k in range(nk):
            if z[hand, k] and kt[k, K_DEFENCE] and kt[k, use] and (not evade_only or kt[k, K_EVADE]):
                out[n] = k
                n += 1
        out[n] = -1
        return n + 1
    for k in range(nk):
        if z[hand, k]:
            out[n] = k
            n += 1
    return n


# ----------------------------------------------------------------------------- the heuristic
@_inline
def _comb(n: int, k: int) -> int:
    if k < 0 or k > n:
        return 0
    if k > n - k:
        k = n - k
    c = 1
    for i in range(k):
        c = c * (n - i) // (i + 1)
    return c


@_inline
def _p_holds_any(hits_known: int, pool_hits: int, pool_size: int, draws: int) -> float:
    """heuristic.p_holds_any (the pack checks that the binomials stay below 2**53)."""
    if hits_known:
        return 1.0
    if draws <= 0 or pool_hits <= 0:
        return 0.0
    if draws > pool_size:
        return 1.0
    return 1.0 - float(_comb(pool_size - pool_hits, draws)) / float(_comb(pool_size, draws))


@njit
def _p_stop(st: Any, z: Any, stops: Any, seat: int, immobilizes: int, pool: Any, pool_size: int, nk: int) -> float:
    opp = 1 - seat
    row = stops[opp, immobilizes]
    hits = 0
    for k in range(nk):
        if row[k]:
            hits += pool[k]
    if st[S_SOLO] != 0:
        return _p_holds_any(0, hits, pool_size, st[S_MINI_DEF])
    known = 0
    for k in range(nk):
        if row[k]:
            known += z[Z_KNOWN + seat, k]
    return _p_holds_any(known, hits, pool_size, st[S_UNKNOWN + seat])


@njit
def _h_attack(
    st: Any, z: Any, kt: Any, stops: Any, seat: int, legal: Any, n: int, gains: Any, pool: Any, nk: int
) -> int:
    may_pass = legal[n - 1] < 0
    cards = n - 1 if may_pass else n
    best = legal[n - 1]
    if cards == 0:
        return best
    best_value = 0.1 if may_pass else -np.inf
    opp_hp = st[S_HP + 1 - seat]
    for i in range(cards):
        k = legal[i]
        damage = kt[k, K_DAMAGE]
        gain = float(damage)
        if damage >= opp_hp:
            gain += 20.0
        if kt[k, K_IMMOBILIZE]:
            follow = 0
            found = False
            for j in range(cards):
                d = kt[legal[j], K_DAMAGE]
                if j != i and d != 0 and (not found or d > follow):
                    follow = d
                    found = True
            gain += 1.0 + 0.5 * follow
        if kt[k, K_NO_NEXT]:
            gain -= 1.5
        gains[i] = gain
    if cards == 1 and may_pass:
        gain = gains[0]
        foiled = 0.6 - 0.15 * kt[legal[0], K_DAMAGE]
        bar = best_value + 1e-9
        if gain > bar + _SURE and foiled > bar + _SURE:
            return legal[0]
        if gain < bar - _SURE and foiled < bar - _SURE:
            return best
    solo = st[S_SOLO] != 0
    pool_size = 0
    for k in range(nk):
        c = (
            kt[k, K_COUNT]
            - z[Z_HAND + seat, k]
            - z[Z_MINI, k]
            - z[Z_DISCARD, k]
            - (1 if k == st[S_PENDING] else 0)
            - (0 if solo else z[Z_KNOWN + seat, k])
        )
        pool[k] = c
        pool_size += c
    stopped0 = -1.0
    stopped1 = -1.0
    for i in range(cards):
        k = legal[i]
        if kt[k, K_IMMOBILIZE]:
            if stopped1 < 0.0:
                stopped1 = _p_stop(st, z, stops, seat, 1, pool, pool_size, nk)
            p = stopped1
        else:
            if stopped0 < 0.0:
                stopped0 = _p_stop(st, z, stops, seat, 0, pool, pool_size, nk)
            p = stopped0
        foiled = 0.6 - 0.15 * kt[k, K_DAMAGE]
        value = (1.0 - p) * gains[i] + p * foiled
        if value > best_value + 1e-9:
            best = k
            best_value = value
    return best


@njit
def _h_defend(st: Any, z: Any, kt: Any, seat: int, legal: Any, n: int, nk: int) -> int:
    cards = n - 1  # the last is "no defence"
    if cards == 0:
        return -1
    choice = legal[0]
    for i in range(1, cards):  # Blocks first, then the first key in sorted order
        k = legal[i]
        e, f = kt[k, K_EVADE] != 0, kt[choice, K_EVADE] != 0
        if (not e and f) or (e == f and kt[k, K_RANK] < kt[choice, K_RANK]):
            choice = k
    attack = st[S_PENDING]
    damage = kt[attack, K_DAMAGE]
    hp = st[S_HP + seat]
    if damage >= hp or (damage != 0 and hp - damage <= 3):
        return choice
    held_defences = 0
    holds_attack = False
    use = K_USE + seat
    for k in range(nk):
        c = z[Z_HAND + seat, k]
        if c and kt[k, use]:
            if kt[k, K_DEFENCE]:
                held_defences += c
            if kt[k, K_ATTACK]:
                holds_attack = True
    threat = damage + (2.5 if kt[attack, K_IMMOBILIZE] else 0.0)
    keep = 2.5 if held_defences <= 1 else 1.5 if held_defences == 2 else 0.8
    if st[S_HAND_N + seat] >= st[S_HAND_LIMIT]:
        keep = min(keep, 0.8)
    cost = keep + (1.5 if kt[choice, K_EVADE] and holds_attack else 0.0)
    return choice if threat >= cost else -1


@njit
def _h_discard(st: Any, z: Any, kt: Any, seat: int, legal: Any, n: int, nk: int) -> int:
    use = K_USE + seat
    defences = 0
    for k in range(nk):
        if kt[k, use] and kt[k, K_DEFENCE]:
            defences += z[Z_HAND + seat, k]
    kept = 2.6 if defences <= 2 else 1.4
    best = -1
    best_value = 0.0
    for i in range(n):
        k = legal[i]
        if not kt[k, use]:
            v = -1.0
        elif kt[k, K_DEFENCE]:
            v = kept
        else:
            v = (kt[k, K_DAMAGE] + (2.0 if kt[k, K_IMMOBILIZE] else 0.0)) - (1.0 if kt[k, K_NO_NEXT] else 0.0)
        if best < 0 or v < best_value or (v == best_value and kt[k, K_RANK] < kt[best, K_RANK]):
            best, best_value = k, v
    return best


# ----------------------------------------------------------------------------- the playout
@_inline
def _outcome(st: Any, out: Any, decisions: int) -> None:
    """``[decisions, finished, scores..., returns...]`` into ``out`` (zeros, one or two seats)."""
    finished = st[S_PHASE] == OVER
    out[0] = decisions
    out[1] = 1.0 if finished else 0.0
    a, b = st[S_HP], st[S_HP1]
    out[2] = a
    if st[S_SOLO] != 0:
        if finished and a > b:
            out[3] = 1.0
    else:
        out[3] = b
        if finished:
            if a > b:
                out[4] = 1.0
            elif b > a:
                out[5] = 1.0
            else:
                out[4] = 0.5
                out[5] = 0.5


@njit
def _run(st: Any, z: Any, kt: Any, stops: Any, rngs: Any, has_state_rng: bool, policy: int, max_decisions: int) -> Any:
    nk = kt.shape[0]
    legal = np.empty(nk + 1, dtype=np.int64)
    gains = np.empty(nk + 1, dtype=np.float64)
    pool = np.empty(nk, dtype=np.int64)
    out = np.zeros(2 + 2 * (1 if st[S_SOLO] != 0 else 2), dtype=np.float64)
    limit = MAX_PLAYOUT_DECISIONS if max_decisions < 0 else max_decisions
    decisions = 0
    while True:
        while _is_chance(st[S_PHASE]):  # the playout's own chance step, then the state's
            _chance(st, z, kt, rngs, ROLLOUT, nk)
            if has_state_rng:
                _settle(st, z, kt, rngs, nk)
        p = st[S_PHASE]
        if p == OVER:
            break
        if decisions >= MAX_PLAYOUT_DECISIONS:  # the Python playout raises here
            out[0] = -1.0
            return out
        if decisions >= limit:
            break
        seat = 1 - st[S_ACTIVE] if p == DEFEND else st[S_ACTIVE]
        n = _legal(st, z, kt, seat, legal, nk)
        if n == 1:
            k = legal[0]
        elif policy == _POLICY_RANDOM:
            k = legal[rng_below(rngs, ROLLOUT, n)]
        elif p == ATTACK:
            k = _h_attack(st, z, kt, stops, seat, legal, n, gains, pool, nk)
        elif p == DEFEND:
            k = _h_defend(st, z, kt, seat, legal, n, nk)
        else:
            k = _h_discard(st, z, kt, seat, legal, n, nk)
        _play(st, z, kt, seat, k)
        if has_state_rng:
            _settle(st, z, kt, rngs, nk)
        decisions += 1
    _outcome(st, out, decisions)
    return out


@_inline
def _agent_move(
    st: Any, z: Any, kt: Any, stops: Any, rngs: Any, kind: int, seat: int, legal: Any, n: int, gains: Any, pool: Any,
    nk: int,
) -> int:
    """The move the agent of code ``kind`` at ``seat`` picks among ``legal[:n]``: one place for
    :func:`_run_agents` and the vector steps (:mod:`.vector`), so both play the same agents."""
    if kind == _AGENT_RANDOM:
        return legal[rng_below(rngs, POLICY_RNGS + seat, n)]
    if n == 1:
        return legal[0]
    p = st[S_PHASE]
    if p == ATTACK:
        return _h_attack(st, z, kt, stops, seat, legal, n, gains, pool, nk)
    if p == DEFEND:
        return _h_defend(st, z, kt, seat, legal, n, nk)
    return _h_discard(st, z, kt, seat, legal, n, nk)


@njit
def _run_agents(st: Any, z: Any, kt: Any, stops: Any, rngs: Any, has_state_rng: bool, kinds: Any) -> Any:
    """A whole game of agents (:meth:`GladiusPlayouts.run_agents`): the loop of :func:`_run` with
    the seat's agent choosing every move. The random agent (``kinds[seat]`` 0) draws
    ``below(len(legal))`` from its own generator even when one move is legal; the heuristic
    draws nothing and plays a forced move as it is, as ``heuristic.py`` does."""
    nk = kt.shape[0]
    legal = np.empty(nk + 1, dtype=np.int64)
    gains = np.empty(nk + 1, dtype=np.float64)
    pool = np.empty(nk, dtype=np.int64)
    out = np.zeros(2 + 2 * (1 if st[S_SOLO] != 0 else 2), dtype=np.float64)
    decisions = 0
    while True:
        while _is_chance(st[S_PHASE]):  # as in _run (a seeded state has settled its chance already)
            _chance(st, z, kt, rngs, ROLLOUT, nk)
            if has_state_rng:
                _settle(st, z, kt, rngs, nk)
        p = st[S_PHASE]
        if p == OVER:
            break
        if decisions >= MAX_PLAYOUT_DECISIONS:
            out[0] = -1.0
            return out
        seat = 1 - st[S_ACTIVE] if p == DEFEND else st[S_ACTIVE]
        n = _legal(st, z, kt, seat, legal, nk)
        k = _agent_move(st, z, kt, stops, rngs, kinds[seat], seat, legal, n, gains, pool, nk)
        _play(st, z, kt, seat, k)
        if has_state_rng:
            _settle(st, z, kt, rngs, nk)
        decisions += 1
    _outcome(st, out, decisions)
    return out


# ----------------------------------------------------------------------------- packing
@njit
def _zones(raw: Any, card_kind: Any) -> Any:
    """The zones counted by kind from what :meth:`GladiusPlayouts.pack` wrote after the
    scalars: the known counts of both sides, then the engine's masks (pile, hands, discards,
    mini-hand) in as many 64-bit words each."""
    n = card_kind.shape[0]
    words = (n + 63) // 64
    nk = (raw.shape[0] - S_SIZE - 5 * words) // 2
    z = np.zeros((Z_SIZE, nk), dtype=np.int64)
    for k in range(nk):
        z[Z_KNOWN, k] = raw[S_SIZE + k]
        z[Z_KNOWN1, k] = raw[S_SIZE + nk + k]
    base = S_SIZE + 2 * nk
    for zone in range(5):
        for i in range(n):
            if (raw[base + zone * words + i // 64] >> (i % 64)) & 1:
                z[zone, card_kind[i]] += 1
    return z


class _Tables:
    """The card table, stop sets and binomial bound of one setup, built once per setup."""

    __slots__ = ("card_kind", "kinds", "largest_draw", "layout", "stops", "words")

    def __init__(self, setup: Setup) -> None:
        nk = len(setup.kinds)
        kinds = np.zeros((nk, K_SIZE), dtype=np.int64)
        stops = np.zeros((2, 2, nk), dtype=np.int64)
        rank = sorted(range(nk), key=lambda k: setup.keys[k])
        for k, c in enumerate(setup.kinds):
            kinds[k] = (
                c.count,
                c.is_attack,
                c.is_defence,
                c.is_evade,
                c.is_block,
                c.damage,
                c.immobilize,
                c.no_attack_next_turn,
                k in setup.usable[0],
                k in setup.usable[1],
                rank.index(k),
            )
            for side in (0, 1):
                for imm in (0, 1):
                    # heuristic._Tables.stops: what answers an attack (a Block only a non-immobilizing one)
                    stops[side, imm, k] = k in setup.usable[side] and (c.is_evade or (c.is_block and not imm))
        card_kind = np.array(setup.card_kind, dtype=np.int64)
        for table in (kinds, stops, card_kind):
            table.flags.writeable = False
        self.card_kind = card_kind
        self.words = (setup.n_cards + 63) // 64
        # what pack writes: the scalars and both sides' known counts (signed), then the masks
        self.layout = struct.Struct(f"<{S_SIZE + 2 * nk}q{5 * self.words}Q")
        self.kinds = kinds
        self.stops = stops
        # the most cards a hand may hold unseen for which every binomial of the heuristic stays
        # exact in floats: C(n, d) for d up to it (and to n/2, their largest) is below 2**53
        n = setup.n_cards
        d = 0
        while d < n and comb(n, min(d + 1, n // 2)) < _EXACT:
            d += 1
        self.largest_draw = n if d >= n else d


class GladiusPlayouts(CompiledPlayouts):
    """Gladius playouts compiled: the random policy and the heuristic, every option and mode."""

    game_name = "gladius"
    policies = ("random", "heuristic")
    agent_kinds = ("random", "heuristic")

    def pack(self, state: State) -> tuple[Any, ...] | None:
        if type(state) is not GladiusState:
            return None
        s: GladiusState = state
        setup = s.setup
        tables = derived(setup, _Tables)
        o = s.options
        hands = s.hands
        h0, h1 = hands[0].bit_count(), hands[1].bit_count()
        unknown = s.unknown
        if tables.largest_draw < setup.n_cards and (
            max(o.hand_limit + 1, setup.mini_def, h0, h1, unknown[0], unknown[1]) > tables.largest_draw
        ):
            return None  # a deck so large that the heuristic's odds need Python's big integers
        la, ld = s.last_attack, s.last_defence
        hp, lock, skip = s.hp, s.lock, s.skip
        values = (
            [
                s.solo,
                s.compulsory,
                o.hand_limit,
                o.reshuffle,
                o.turn_limit,
                setup.mini_def,
                setup.mini_atk,
                s._deal_total(),
                s.phase,
                s.active,
                s.first,
                s.turn,
                s.dealt,
                hp[0],
                hp[1],
                s.pending,
                s.mini_left,
                lock[0],
                lock[1],
                s.barred,
                skip[0],
                skip[1],
                s.resume,
                s.reshuffles,
                unknown[0],
                unknown[1],
                END_CODES.get(s.end, _END_OTHER),
                -1 if la is None else la[0],
                -1 if la is None else la[1],
                -1 if ld is None else ld[0],
                -1 if ld is None else ld[1],
                RESULT_CODES.get(s.last_result, _R_OTHER),
                s.pile.bit_count(),
                s.discard.bit_count(),
                h0,
                h1,
            ]
            + s.known[0]
            + s.known[1]
        )
        # the masks go as they are (64 cards a word) and compiled code counts them by kind;
        # struct writes everything in one call, far quicker than numpy converting a list
        zones = (s.pile, hands[0], hands[1], s.discard, s.mini)
        if tables.words == 1:
            values += zones
        else:
            values += [(m >> (64 * w)) & _WORD for m in zones for w in range(tables.words)]
        raw = np.frombuffer(bytearray(tables.layout.pack(*values)), dtype=np.int64)
        return raw[:S_SIZE], _zones(raw, tables.card_kind), tables.kinds, tables.stops

    def run(self, packed: tuple[Any, ...], rngs: Any, has_state_rng: bool, policy: int, max_decisions: int) -> Any:
        st, zones, kinds, stops = packed
        return _run(st, zones, kinds, stops, rngs, has_state_rng, policy, max_decisions)

    def run_agents(self, packed: tuple[Any, ...], rngs: Any, has_state_rng: bool, kinds: Any) -> Any:
        st, zones, table, stops = packed
        if rngs.shape[0] < POLICY_RNGS + (1 if st[S_SOLO] else 2) or kinds.shape[0] < (1 if st[S_SOLO] else 2):
            raise ValueError("a game of agents needs a kind and a generator for every seat")  # no bounds checked
        return _run_agents(st, zones, table, stops, rngs, has_state_rng, kinds)

    def vector_steps(
        self, options: Any, num_envs: int, seat: int, kinds: Sequence[str | None], player_actions: Sequence[Any]
    ) -> CompiledSteps | None:
        """The vector environment's stepping, compiled (:mod:`.vector`): every option, solo, the
        random and heuristic agents."""
        from .vector import vector_steps  # it builds on this module

        return vector_steps(self, options, num_envs, seat, kinds, player_actions)


PLAYOUTS = GladiusPlayouts()
"""The one instance :meth:`GladiusGame.compiled_playouts` returns."""
