"""Circus Maximus compiled playouts: the rules of :mod:`.rules` over integer arrays, for numba.

A playout here, random or with the heuristic of :mod:`.heuristic` (policy ``"heuristic"``:
the same scores to the last bit, the same noise from each seat's agent's generator), plays
exactly the game :func:`ludus.core.playout.playout` plays with the Python engine from the same
state and generators: the legal moves come out in the order of
``CircusMaximusState.legal_actions`` (the superset of ``_candidates`` filtered by ``_check``,
rebuilt here as direct conditions), every move changes the same card ids (the lowest id of a
kind, as ``_low`` takes them), chance draws walk the card kinds in order as ``sample_chance``
does, and scores and returns come out as the same floats. Whole tournament games of the random
and heuristic agents, any mix of them, run here too (:meth:`CircusMaximusPlayouts.run_agents`):
each seat's agent draws from its own generator as the Python agent does. ``tests/games/
circus_maximus/test_compiled.py`` checks all this over thousands of seeded games in every option.

The packed state (:meth:`CircusMaximusPlayouts.pack`) holds only what the rules read:

* ``scalars``: the phase, turn order, decks, displays and per-seat hands, favours, tickets and
  totals (layout in the ``_S_*`` / ``_H_*`` constants below); a seat's sales today are kept as
  their coins and the favour cards sold beside Caesar (the only parts of a sale that later
  rules read: scoring and the favours leaving the game at the day's end);
* ``lines``: the five lines of traders, each entry ``seat | rank << 4 | effective rank << 8``;
* ``draws``: the chance tasks waiting, each ``code << 3 | argument`` (codes in ``TASKS`` order);
* the card data as tables (fixed per card file, shared between packs, never written).

Event text, history, narration and observation caches are never read, so the Python engine can
change how it builds those without touching this module.
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
from .cards import (
    ALL_TRADERS,
    DOUBLE_SALE,
    DOUBLE_TICKET,
    EXTRA_TRADER,
    EXTRA_VISITOR,
    FAVOUR_KEYS,
    LEGIONNAIRE,
    MOVE_AHEAD,
    RANK_BOOST,
    REPLAY_TRADER,
    TICKET_AND_VISITOR,
    CardData,
)
from .heuristic import EFFECT_VALUE, START_CARD_VALUE
from .rules import TASKS, CircusMaximusState

__all__ = ["PLAYOUTS", "CircusMaximusPlayouts"]

# ------------------------------------------------------------------ packed layout
_S_N = 0
_S_START_EXTRA = 1  # start_card == "extra-pick"
_S_DAY = 2
_S_STAGE = 3
_S_RESOLVING = 4
_S_TURN = 5
_S_PASSED = 6
_S_EXTRA = 7
_S_TURN_DONE = 8
_S_PENDING = 9
_S_RES_LINE = 10
_S_RES_POS = 11
_S_RES_AGAIN = 12
_S_FAV_DECK = 13
_S_FAV_DISPLAY = 14
_S_FAV_GONE = 15
_S_SP_AT_VILLA = 16
_S_STARTING = 17
_S_TKT_DECK = 18
_S_FORUM = 19
_S_SETUP = 20  # 3 venues
_S_BONUS = 23  # 3 venues
_S_VIS_DECK = 26
_S_VIS_BOX = 27
_S_VENUE_VIS = 28  # 3 venues
_S_CAESAR_USED = 31
_S_FAV_SOLD = 32  # favour cards sold beside Caesar today (they leave the game at the day's end)
_S_NDRAWS = 33
_S_LINE_LEN = 34  # 5 lines
_H_HANDS = 40  # per seat, 5 seats from here on
_H_FAVOURS = 45
_H_TICKETS = 50
_H_TOTALS = 55
_H_SALE_COINS = 60  # coins of today's sales
_S_SIZE = 65

_LINE_CAP = 40  # 5 seats x 8 traders
_DRAW_CAP = 64  # the longest queue a day can build is far shorter (about 20)
_MAX_CARDS = 62  # card sets are int64 bitmasks

# card-data tables (misc)
_M_NT = 0
_M_NV = 1
_M_LEG_PAYS = 2
_M_CAESAR_MASK = 3
_M_LEG_KIND = 4
_M_ALL_TICKETS = 5
_M_ALL_VISITORS = 6
_M_VENUE_TKT = 7  # 3 venues
_M_TRADER_COINS = 10  # ranks 1-8
_M_MAX_ACTIONS = 18
_M_CAESAR_KEY = 19  # the visitor kind keyed "caesar" (heuristic.py goes by that key), -1 for none
_M_CAESAR_KEY_MASK = 20
_M_SIZE = 21

# chance task codes: their index in rules.TASKS
_T_FAVOUR, _T_TICKET, _T_SPECIAL, _T_SETUP_VISITORS, _T_VISITOR, _T_VISITOR_CHOICE, _T_TICKET_PLAYER = range(7)
_TASK_CODE = {code: i for i, code in enumerate(TASKS)}

# favour kinds
_F_EXTRA_VISITOR = FAVOUR_KEYS.index(EXTRA_VISITOR)
_F_EXTRA_TRADER = FAVOUR_KEYS.index(EXTRA_TRADER)
_F_LEGIONNAIRE = FAVOUR_KEYS.index(LEGIONNAIRE)
_F_DOUBLE_TICKET = FAVOUR_KEYS.index(DOUBLE_TICKET)
_F_DOUBLE_SALE = FAVOUR_KEYS.index(DOUBLE_SALE)
_F_REPLAY = FAVOUR_KEYS.index(REPLAY_TRADER)
_F_TICKET_VISITOR = FAVOUR_KEYS.index(TICKET_AND_VISITOR)
_F_RANK_BOOST = FAVOUR_KEYS.index(RANK_BOOST)
_F_MOVE_AHEAD = FAVOUR_KEYS.index(MOVE_AHEAD)
_NF = len(FAVOUR_KEYS)

# action rows: [kind, a, b, c, d, e]
_A_PLACE = 0  # rank, line, extra, boost
_A_PASS = 1
_A_DONE = 2
_A_EXTRA_VISITOR = 3
_A_PLACE_VISITOR = 4  # venue
_A_REPLAY = 5  # rank, line
_A_TICKET_VISITOR = 6
_A_MOVE_AHEAD = 7  # rank
_A_TAKE_FAVOUR = 8  # favour kind
_A_TAKE_START = 9
_A_TAKE_TICKET = 10  # ticket kind, double
_A_SELL = 11  # visitor kind, ticket kind or -1, favour kind or -1, legion, double
_A_SKIP = 12


# ------------------------------------------------------------------ small helpers
@njit
def _pop(x: int) -> int:
    """Set bits of a non-negative int64 (SWAR popcount; card sets stay below 2**62)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit
def _held(S: Any, FAV: Any, seat: int, k: int) -> int:
    return _pop(S[_H_FAVOURS + seat] & FAV[k, 0])


@njit
def _phase_lo_hi(stage: int) -> tuple[int, int]:
    """First and last line of a placement phase (an empty range outside one)."""
    if stage == 1:
        return 0, 0
    if stage == 2:
        return 1, 1
    if stage == 3:
        return 2, 4
    return 0, -1


@njit
def _find_line(S: Any, lines: Any, seat: int, rank: int) -> int:
    """The line where ``seat``'s trader ``rank`` stands, or -1 (``_find``)."""
    for li in range(5):
        for i in range(S[_S_LINE_LEN + li]):
            e = lines[li, i]
            if (e & 15) == seat and ((e >> 4) & 15) == rank:
                return li
    return -1


@njit
def _spend(S: Any, FAV: Any, seat: int, k: int) -> None:
    """Play favour kind ``k``: its lowest card leaves the game."""
    m = S[_H_FAVOURS + seat] & FAV[k, 0]
    bit = m & -m
    S[_H_FAVOURS + seat] &= ~bit
    S[_S_FAV_GONE] |= bit


@njit
def _insert(S: Any, lines: Any, li: int, seat: int, rank: int, eff: int) -> None:
    """Higher effective rank further forward; equal ranks queue behind earlier ones."""
    n = S[_S_LINE_LEN + li]
    i = 0
    while i < n and (lines[li, i] >> 8) >= eff:
        i += 1
    for j in range(n, i, -1):
        lines[li, j] = lines[li, j - 1]
    lines[li, i] = seat | (rank << 4) | (eff << 8)
    S[_S_LINE_LEN + li] = n + 1


@njit
def _draws_push_front(S: Any, draws: Any, code: int, arg: int, count: int) -> None:
    """Put ``count`` tasks (code, arg) at the front of the queue."""
    if count <= 0:
        return
    n = S[_S_NDRAWS]
    if n + count > _DRAW_CAP:
        raise ValueError("Circus Maximus compiled playout: chance queue overflow")
    for j in range(n - 1, -1, -1):
        draws[j + count] = draws[j]
    for j in range(count):
        draws[j] = (code << 3) | arg
    S[_S_NDRAWS] = n + count


@njit
def _draws_append(S: Any, draws: Any, code: int, arg: int) -> None:
    n = S[_S_NDRAWS]
    if n >= _DRAW_CAP:
        raise ValueError("Circus Maximus compiled playout: chance queue overflow")
    draws[n] = (code << 3) | arg
    S[_S_NDRAWS] = n + 1


@njit
def _draws_pop(S: Any, draws: Any) -> int:
    n = S[_S_NDRAWS]
    task = draws[0]
    for j in range(n - 1):
        draws[j] = draws[j + 1]
    draws[n - 1] = 0
    S[_S_NDRAWS] = n - 1
    return task


@njit
def _deck_of(S: Any, code: int) -> int:
    if code == _T_FAVOUR:
        return S[_S_FAV_DECK]
    if _T_TICKET <= code <= _T_SPECIAL or code == _T_TICKET_PLAYER:
        return S[_S_TKT_DECK]
    return S[_S_VIS_DECK]


@njit
def _visitor_to(S: Any, draws: Any, M: Any, v: int, bit: int) -> None:
    S[_S_VENUE_VIS + v] |= bit
    if bit & M[_M_CAESAR_MASK]:  # Caesar brings two more visitors to his venue at once
        _draws_push_front(S, draws, _T_VISITOR, v, 2)


# ------------------------------------------------------------------ legality
@njit
def _current_seat(S: Any, lines: Any) -> int:
    """The deciding seat at a decision (no draws waiting, game not over)."""
    if S[_S_PENDING] >= 0:
        return S[_S_TURN]
    if S[_S_RESOLVING]:
        return lines[S[_S_RES_LINE], S[_S_RES_POS]] & 15
    return S[_S_TURN]


@njit
def _can_do_more_than_pass(S: Any, lines: Any, FAV: Any, s: int) -> bool:
    """Whether seat ``s`` has a legal move other than Pass at the start of its turn (``_seek_turn``)."""
    if S[_H_HANDS + s]:
        return True
    stage = S[_S_STAGE]
    lo, hi = _phase_lo_hi(stage)
    if _held(S, FAV, s, _F_EXTRA_VISITOR) and S[_S_VIS_DECK]:
        return True
    if _held(S, FAV, s, _F_REPLAY) and stage >= 2 and hi >= lo:
        for rank in range(1, 9):
            loc = _find_line(S, lines, s, rank)
            if loc >= 0 and not (lo <= loc <= hi):
                return True
    if _held(S, FAV, s, _F_TICKET_VISITOR) and stage == 2 and S[_S_TKT_DECK]:
        return True
    if _held(S, FAV, s, _F_MOVE_AHEAD):
        for li in range(lo, hi + 1):
            for i in range(1, S[_S_LINE_LEN + li]):
                if (lines[li, i] & 15) == s:
                    return True
    return False


@njit
def _add(buf: Any, k: int, kind: int, a: int, b: int, c: int, d: int, e: int) -> int:
    buf[k, 0] = kind
    buf[k, 1] = a
    buf[k, 2] = b
    buf[k, 3] = c
    buf[k, 4] = d
    buf[k, 5] = e
    return k + 1


@njit
def _legal(S: Any, lines: Any, TKT: Any, VIS: Any, FAV: Any, M: Any, seat: int, buf: Any) -> int:
    """The legal moves of ``seat`` into ``buf``, in ``legal_actions`` order; returns how many."""
    k = 0
    if S[_S_PENDING] >= 0:  # a drawn visitor waits for its venue
        for v in range(3):
            k = _add(buf, k, _A_PLACE_VISITOR, v, 0, 0, 0, 0)
        return k
    fav = S[_H_FAVOURS + seat]
    if not S[_S_RESOLVING]:  # placing traders
        stage = S[_S_STAGE]
        lo, hi = _phase_lo_hi(stage)
        hand = S[_H_HANDS + seat]
        n_extra = 1 if _pop(fav & FAV[_F_EXTRA_TRADER, 0]) else 0
        n_boost = 1 if _pop(fav & FAV[_F_RANK_BOOST, 0]) else 0
        two = _pop(hand) >= 2
        for rank in range(1, 9):
            if (hand >> (rank - 1)) & 1:
                for li in range(lo, hi + 1):
                    for e in range(n_extra + 1):
                        if e and not two:
                            continue
                        for b in range((n_boost if rank == 1 else 0) + 1):
                            k = _add(buf, k, _A_PLACE, rank, li, e, b, 0)
        if S[_S_EXTRA]:
            return _add(buf, k, _A_DONE, 0, 0, 0, 0, 0)
        k = _add(buf, k, _A_PASS, 0, 0, 0, 0, 0)
        if fav & FAV[_F_EXTRA_VISITOR, 0] and S[_S_VIS_DECK]:
            k = _add(buf, k, _A_EXTRA_VISITOR, 0, 0, 0, 0, 0)
        if fav & FAV[_F_REPLAY, 0] and stage >= 2:
            for rank in range(1, 9):
                loc = _find_line(S, lines, seat, rank)
                if loc >= 0 and not (lo <= loc <= hi):
                    for li in range(lo, hi + 1):
                        k = _add(buf, k, _A_REPLAY, rank, li, 0, 0, 0)
        if fav & FAV[_F_TICKET_VISITOR, 0] and stage == 2 and S[_S_TKT_DECK]:
            k = _add(buf, k, _A_TICKET_VISITOR, 0, 0, 0, 0, 0)
        if fav & FAV[_F_MOVE_AHEAD, 0]:
            for li in range(lo, hi + 1):
                for i in range(1, S[_S_LINE_LEN + li]):
                    e = lines[li, i]
                    if (e & 15) == seat:
                        k = _add(buf, k, _A_MOVE_AHEAD, (e >> 4) & 15, 0, 0, 0, 0)
        return k
    li = S[_S_RES_LINE]
    if li == 0:  # Caesar's Villa
        display = S[_S_FAV_DISPLAY]
        for f in range(_NF):
            if display & FAV[f, 0]:
                k = _add(buf, k, _A_TAKE_FAVOUR, f, 0, 0, 0, 0)
        if S[_S_SP_AT_VILLA]:
            k = _add(buf, k, _A_TAKE_START, 0, 0, 0, 0, 0)
        return k
    if li == 1:  # the forum
        forum = S[_S_FORUM]
        n_double = 1 if (fav & FAV[_F_DOUBLE_TICKET, 0] and _pop(forum) >= 2) else 0
        for t in range(M[_M_NT]):
            if forum & TKT[t, 0]:
                for dbl in range(n_double + 1):
                    k = _add(buf, k, _A_TAKE_TICKET, t, dbl, 0, 0, 0)
        return k
    # a venue: sell tickets (or, beside Caesar, favours) to its visitors
    v = li - 2
    caesar = M[_M_CAESAR_MASK]
    here = S[_S_VENUE_VIS + v]
    sellable = here & ~caesar
    caesar_here = (not S[_S_CAESAR_USED]) and (here & caesar) != 0
    tickets = S[_H_TICKETS + seat]
    venue_tickets = tickets & M[_M_VENUE_TKT + v]
    if sellable:
        n_tk = M[_M_NT]
        sell_t = np.empty(n_tk + _NF, dtype=np.int64)
        sell_f = np.empty(n_tk + _NF, dtype=np.int64)
        ns = 0
        for t in range(n_tk):
            if TKT[t, 1] == v and tickets & TKT[t, 0]:
                sell_t[ns] = t
                sell_f[ns] = -1
                ns += 1
        if caesar_here:
            for f in range(_NF):
                if fav & FAV[f, 0]:
                    sell_t[ns] = -1
                    sell_f[ns] = f
                    ns += 1
        held_leg = _pop(fav & FAV[_F_LEGIONNAIRE, 0])
        held_ds = _pop(fav & FAV[_F_DOUBLE_SALE, 0])
        n_leg = 1 if held_leg else 0
        n_ds = 1 if held_ds else 0
        many = _pop(sellable) >= 2
        n_venue_tickets = _pop(venue_tickets)
        n_fav = _pop(fav)
        leg_kind = M[_M_LEG_KIND]
        for vk in range(M[_M_NV]):
            if not sellable & VIS[vk, 0]:
                continue
            for j in range(ns):
                t = sell_t[j]
                f = sell_f[j]
                for lg in range((n_leg if vk == leg_kind else 0) + 1):
                    for dbl in range(n_ds + 1):
                        if f >= 0:
                            need = 1
                            if f == _F_LEGIONNAIRE:
                                need += lg
                            if f == _F_DOUBLE_SALE:
                                need += dbl
                            if _pop(fav & FAV[f, 0]) < need:
                                continue
                        if lg and held_leg < 1 + (1 if f == _F_LEGIONNAIRE else 0):
                            continue
                        if dbl:
                            if held_ds < 1 + (1 if f == _F_DOUBLE_SALE else 0):
                                continue
                            if not many:
                                continue
                            tickets_left = n_venue_tickets - (1 if t >= 0 else 0)
                            used = (1 if f >= 0 else 0) + lg + dbl
                            caesar_left = t >= 0 and caesar_here and n_fav - used > 0
                            if tickets_left <= 0 and not caesar_left:
                                continue
                        k = _add(buf, k, _A_SELL, vk, t, f, lg, dbl)
    if not venue_tickets:
        k = _add(buf, k, _A_SKIP, 0, 0, 0, 0, 0)
    return k


# ------------------------------------------------------------------ flow
@njit
def _seek_turn(S: Any, lines: Any, FAV: Any, first: int) -> bool:
    n = S[_S_N]
    for k in range(n):
        s = (first + k) % n
        if (S[_S_PASSED] >> s) & 1:
            continue
        S[_S_TURN] = s
        if _can_do_more_than_pass(S, lines, FAV, s):
            return True
        S[_S_PASSED] |= 1 << s
    return False


@njit
def _begin_resolution(S: Any) -> None:
    S[_S_RESOLVING] = 1
    lo, _hi = _phase_lo_hi(S[_S_STAGE])
    S[_S_RES_LINE] = lo
    S[_S_RES_POS] = 0
    S[_S_RES_AGAIN] = 0


@njit
def _begin_phase(S: Any, lines: Any, FAV: Any, stage: int) -> None:
    S[_S_STAGE] = stage
    S[_S_RESOLVING] = 0
    S[_S_PASSED] = 0
    S[_S_EXTRA] = 0
    S[_S_TURN_DONE] = 0
    if not _seek_turn(S, lines, FAV, S[_S_STARTING]):
        _begin_resolution(S)


@njit
def _queue_day(S: Any, draws: Any) -> None:
    n = S[_S_N]
    k = 0
    for _ in range(n):
        draws[k] = _T_FAVOUR << 3
        k += 1
    for _ in range(2 * n):
        draws[k] = _T_TICKET << 3
        k += 1
    for _ in range(S[_S_DAY] - 1):
        draws[k] = _T_SPECIAL << 3
        k += 1
    draws[k] = _T_SETUP_VISITORS << 3
    k += 1
    for j in range(k, S[_S_NDRAWS]):
        draws[j] = 0
    S[_S_NDRAWS] = k


@njit
def _end_day(S: Any, lines: Any, draws: Any, FAV: Any, M: Any) -> None:
    n = S[_S_N]
    for s in range(n):
        coins = S[_H_SALE_COINS + s]
        hand = S[_H_HANDS + s]
        for r in range(8):
            if (hand >> r) & 1:
                coins += M[_M_TRADER_COINS + r]
        S[_H_TOTALS + s] += coins
    S[_S_RESOLVING] = 0
    if S[_S_DAY] == 3:
        for s in range(n):
            fav = S[_H_FAVOURS + s]
            coins = 0
            for f in range(_NF):
                coins += _pop(fav & FAV[f, 0]) * FAV[f, 1]
            S[_H_TOTALS + s] += coins
        S[_S_STAGE] = 4
        return
    for s in range(n):
        S[_H_HANDS + s] = ALL_TRADERS  # traders home
        S[_H_TICKETS + s] = 0
        S[_H_SALE_COINS + s] = 0
    for li in range(5):
        for i in range(S[_S_LINE_LEN + li]):
            lines[li, i] = 0
        S[_S_LINE_LEN + li] = 0
    S[_S_FAV_GONE] |= S[_S_FAV_SOLD]
    S[_S_FAV_SOLD] = 0
    S[_S_TKT_DECK] = M[_M_ALL_TICKETS]
    S[_S_FORUM] = 0
    S[_S_VIS_DECK] = M[_M_ALL_VISITORS] & ~S[_S_VIS_BOX]
    for v in range(3):
        S[_S_VENUE_VIS + v] = 0
        S[_S_BONUS + v] = 0
        S[_S_SETUP + v] = 0
    S[_S_CAESAR_USED] = 0
    S[_S_SP_AT_VILLA] = 1
    S[_S_DAY] += 1
    S[_S_STAGE] = 0
    _queue_day(S, draws)


@njit
def _items_left(S: Any, M: Any, li: int) -> bool:
    if li == 0:
        return S[_S_FAV_DISPLAY] != 0 or (S[_S_SP_AT_VILLA] != 0 and S[_S_START_EXTRA] != 0)
    if li == 1:
        return S[_S_FORUM] != 0
    return (S[_S_VENUE_VIS + li - 2] & ~M[_M_CAESAR_MASK]) != 0


@njit
def _finish_line(S: Any, lines: Any, draws: Any, FAV: Any, M: Any, li: int) -> None:
    S[_S_RES_AGAIN] = 0
    if li == 0:
        S[_S_FAV_GONE] |= S[_S_FAV_DISPLAY]  # favours nobody took leave the game
        S[_S_FAV_DISPLAY] = 0
        if S[_S_SP_AT_VILLA] and S[_S_LINE_LEN]:
            S[_S_STARTING] = lines[0, 0] & 15
        S[_S_SP_AT_VILLA] = 0
        _begin_phase(S, lines, FAV, 2)
    elif li == 1:
        _begin_phase(S, lines, FAV, 3)
    elif li < 4:
        S[_S_RES_LINE] = li + 1
        S[_S_RES_POS] = 0
    else:
        _end_day(S, lines, draws, FAV, M)


@njit
def _resolution_waits(S: Any, lines: Any, draws: Any, FAV: Any, M: Any) -> bool:
    li = S[_S_RES_LINE]
    n = S[_S_LINE_LEN + li]
    while S[_S_RES_POS] < n and _items_left(S, M, li):
        seat = lines[li, S[_S_RES_POS]] & 15
        if li <= 1:
            return True
        v = li - 2
        if S[_H_TICKETS + seat] & M[_M_VENUE_TKT + v]:
            return True
        here = S[_S_VENUE_VIS + v]
        if not S[_S_CAESAR_USED] and (here & M[_M_CAESAR_MASK]) and S[_H_FAVOURS + seat]:
            return True
        S[_S_RES_POS] += 1
        S[_S_RES_AGAIN] = 0
    _finish_line(S, lines, draws, FAV, M, li)
    return False


@njit
def _advance(S: Any, lines: Any, draws: Any, FAV: Any, M: Any) -> None:
    """Every step that needs no decision (``_advance``)."""
    while True:
        if S[_S_NDRAWS]:
            code = draws[0] >> 3
            if code == _T_SETUP_VISITORS:
                _draws_pop(S, draws)
                for v in range(2, -1, -1):  # pushed at the front last venue first: venue 0 ends first
                    count = max(0, S[_S_SETUP + v] - 1) + S[_S_BONUS + v]
                    _draws_push_front(S, draws, _T_VISITOR, v, count)
                continue
            if not _deck_of(S, code):
                _draws_pop(S, draws)  # that deck is used up: the draw simply does not happen
                continue
            return
        if S[_S_STAGE] == 4 or S[_S_PENDING] >= 0:
            return
        if S[_S_STAGE] == 0:
            _begin_phase(S, lines, FAV, 1)
            continue
        if S[_S_RESOLVING]:
            if _resolution_waits(S, lines, draws, FAV, M):
                return
            continue
        if S[_S_TURN_DONE]:
            S[_S_TURN_DONE] = 0
            if not _seek_turn(S, lines, FAV, S[_S_TURN] + 1):
                _begin_resolution(S)
            continue
        return


@njit
def _draw(S: Any, lines: Any, draws: Any, TKT: Any, VIS: Any, FAV: Any, M: Any, rngs: Any, which: int) -> None:
    """One chance outcome from generator ``which`` (``sample_chance``), applied (``_apply_draw``)."""
    task = _draws_pop(S, draws)
    code = task >> 3
    arg = task & 7
    deck = _deck_of(S, code)
    r = np.int64(rng_below(rngs, which, _pop(deck)))
    if code == _T_FAVOUR:
        for f in range(_NF):
            m = deck & FAV[f, 0]
            c = _pop(m)
            if r < c:
                bit = m & -m
                S[_S_FAV_DECK] &= ~bit
                S[_S_FAV_DISPLAY] |= bit
                break
            r -= c
    elif _T_TICKET <= code <= _T_SPECIAL or code == _T_TICKET_PLAYER:
        for t in range(M[_M_NT]):
            m = deck & TKT[t, 0]
            c = _pop(m)
            if r < c:
                bit = m & -m
                S[_S_TKT_DECK] &= ~bit
                venue = TKT[t, 1]
                if code == _T_TICKET_PLAYER:
                    S[_H_TICKETS + arg] |= bit
                    _draws_push_front(S, draws, _T_VISITOR, venue, 1)
                else:
                    S[_S_FORUM] |= bit
                    if code == _T_SPECIAL:
                        S[_S_BONUS + venue] += 1
                    else:
                        S[_S_SETUP + venue] += 1
                break
            r -= c
    else:
        for vk in range(M[_M_NV]):
            m = deck & VIS[vk, 0]
            c = _pop(m)
            if r < c:
                bit = m & -m
                S[_S_VIS_DECK] &= ~bit
                if code == _T_VISITOR_CHOICE:
                    S[_S_PENDING] = _pop(bit - 1)
                else:
                    _visitor_to(S, draws, M, arg, bit)
                break
            r -= c
    _advance(S, lines, draws, FAV, M)


@njit
def _play(S: Any, lines: Any, draws: Any, TKT: Any, VIS: Any, FAV: Any, M: Any, seat: int, a: Any) -> None:
    """Apply the action row ``a`` for ``seat`` (``_APPLY``), then ``_advance``."""
    kind = a[0]
    if kind == _A_PLACE:
        rank, li, extra, boost = a[1], a[2], a[3], a[4]
        S[_H_HANDS + seat] &= ~(1 << (rank - 1))
        if boost:
            _spend(S, FAV, seat, _F_RANK_BOOST)
        if extra:
            _spend(S, FAV, seat, _F_EXTRA_TRADER)
        _insert(S, lines, li, seat, rank, 8 if boost else rank)
        if S[_S_EXTRA]:
            S[_S_EXTRA] -= 1
        if extra:
            S[_S_EXTRA] += 1
        if S[_S_EXTRA] and not S[_H_HANDS + seat]:
            S[_S_EXTRA] = 0
        if not S[_S_EXTRA]:
            S[_S_TURN_DONE] = 1
    elif kind == _A_PASS:
        S[_S_PASSED] |= 1 << seat
        S[_S_TURN_DONE] = 1
    elif kind == _A_DONE:
        S[_S_EXTRA] = 0
        S[_S_TURN_DONE] = 1
    elif kind == _A_EXTRA_VISITOR:
        _spend(S, FAV, seat, _F_EXTRA_VISITOR)
        _draws_append(S, draws, _T_VISITOR_CHOICE, seat)
        S[_S_TURN_DONE] = 1
    elif kind == _A_PLACE_VISITOR:
        card = S[_S_PENDING]
        S[_S_PENDING] = -1
        _visitor_to(S, draws, M, a[1], 1 << card)
    elif kind == _A_REPLAY:
        rank, to = a[1], a[2]
        _spend(S, FAV, seat, _F_REPLAY)
        li = _find_line(S, lines, seat, rank)
        n = S[_S_LINE_LEN + li]
        i = 0
        while (lines[li, i] & 15) != seat or ((lines[li, i] >> 4) & 15) != rank:
            i += 1
        for j in range(i, n - 1):
            lines[li, j] = lines[li, j + 1]
        lines[li, n - 1] = 0
        S[_S_LINE_LEN + li] = n - 1
        _insert(S, lines, to, seat, rank, rank)
        S[_S_TURN_DONE] = 1
    elif kind == _A_TICKET_VISITOR:
        _spend(S, FAV, seat, _F_TICKET_VISITOR)
        _draws_append(S, draws, _T_TICKET_PLAYER, seat)
        S[_S_TURN_DONE] = 1
    elif kind == _A_MOVE_AHEAD:
        rank = a[1]
        _spend(S, FAV, seat, _F_MOVE_AHEAD)
        li = _find_line(S, lines, seat, rank)
        i = 0
        while (lines[li, i] & 15) != seat or ((lines[li, i] >> 4) & 15) != rank:
            i += 1
        ahead = lines[li, i - 1]
        lines[li, i - 1] = seat | (rank << 4) | ((ahead >> 8) << 8)  # takes the overtaken rank
        lines[li, i] = ahead
        S[_S_TURN_DONE] = 1
    elif kind == _A_TAKE_FAVOUR:
        m = S[_S_FAV_DISPLAY] & FAV[a[1], 0]
        bit = m & -m
        S[_S_FAV_DISPLAY] &= ~bit
        S[_H_FAVOURS + seat] |= bit
        S[_S_RES_AGAIN] = 0
        S[_S_RES_POS] += 1
    elif kind == _A_TAKE_START:
        S[_S_SP_AT_VILLA] = 0
        S[_S_STARTING] = seat
        S[_S_RES_AGAIN] = 0
        S[_S_RES_POS] += 1
    elif kind == _A_TAKE_TICKET:
        m = S[_S_FORUM] & TKT[a[1], 0]
        bit = m & -m
        S[_S_FORUM] &= ~bit
        S[_H_TICKETS + seat] |= bit
        if a[2]:
            _spend(S, FAV, seat, _F_DOUBLE_TICKET)
            S[_S_RES_AGAIN] = 1
        else:
            S[_S_RES_AGAIN] = 0
            S[_S_RES_POS] += 1
    elif kind == _A_SELL:
        vk, t, f, lg, dbl = a[1], a[2], a[3], a[4], a[5]
        v = S[_S_RES_LINE] - 2
        if t >= 0:
            m = S[_H_TICKETS + seat] & TKT[t, 0]
            S[_H_TICKETS + seat] &= ~(m & -m)
            base = TKT[t, 2]
        else:
            m = S[_H_FAVOURS + seat] & FAV[f, 0]
            bit = m & -m
            S[_H_FAVOURS + seat] &= ~bit
            S[_S_FAV_SOLD] |= bit
            base = FAV[f, 1]
            S[_S_VENUE_VIS + v] &= ~M[_M_CAESAR_MASK]  # Caesar is set aside
            S[_S_CAESAR_USED] = 1
        m = S[_S_VENUE_VIS + v] & VIS[vk, 0]
        S[_S_VENUE_VIS + v] &= ~(m & -m)
        paid = M[_M_LEG_PAYS] if lg else VIS[vk, 1]
        if lg:
            _spend(S, FAV, seat, _F_LEGIONNAIRE)
        if dbl:
            _spend(S, FAV, seat, _F_DOUBLE_SALE)
        S[_H_SALE_COINS + seat] += base + paid + S[_S_BONUS + v]
        if dbl:
            S[_S_RES_AGAIN] = 1
        else:
            S[_S_RES_AGAIN] = 0
            S[_S_RES_POS] += 1
    else:  # skip
        S[_S_RES_AGAIN] = 0
        S[_S_RES_POS] += 1
    _advance(S, lines, draws, FAV, M)


# ------------------------------------------------------------------ the heuristic
# heuristic.py's CircusMaximusHeuristic, seat by seat from what the seat sees (everything on the
# table is public). Every score is the same float expression in the same order as there; the
# per-decision working (tickets per venue, buyers, odds, prizes of each line, rivals' best
# traders) is worked out once per decision into the workspace arrays below, as heuristic.py
# caches it once per ``act`` (all of it is pure, so working it out eagerly changes nothing).
_POLICY_RANDOM, _POLICY_HEURISTIC = 0, 1
_AGENT_RANDOM, _AGENT_HEURISTIC = 0, 1  # codes of CircusMaximusPlayouts.agent_kinds


def _inline(fn: Any) -> Any:
    """``njit`` inlined into its callers by numba: a call passing a dozen arrays costs more than
    a move's whole score (each array is reference-counted on the way in and out)."""
    import numba

    return numba.njit(cache=True, nogil=True, inline="always")(fn)


_START_CARD_VALUE = float(START_CARD_VALUE)
_HW = 80  # room for one line's prizes (a display, the forum or a venue's buyers)

# float table of the heuristic (``_HF_*``), made per card file
_HF_TICKET_VISITOR_BASE = 0
_HF_EFFECT = 1  # 9 favour kinds: EFFECT_VALUE by kind
_HF_SIZE = 1 + _NF


@njit
def _sort_desc(a: Any, n: int) -> None:
    """Sort ``a[:n]`` from the largest down (numba compiles one copy for int and one for float arrays)."""
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] < x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit
def _top_rank(hand: int) -> int:
    """The highest rank in a hand of traders (bit rank - 1), 0 for none."""
    for r in range(8, 0, -1):
        if (hand >> (r - 1)) & 1:
            return r
    return 0


@njit
def _h_prepare(
    S: Any,
    lines: Any,
    TKT: Any,
    VIS: Any,
    FAV: Any,
    M: Any,
    HF: Any,
    me: int,
    wi: Any,
    wf: Any,
    tbv: Any,
    buyers: Any,
    prizes: Any,
    bests: Any,
) -> None:
    """What ``act`` works out at most once per decision, for seat ``me``.

    wi (int64): [0:3] tickets per venue still in play, [3:6] buyers per venue, [6:11] my
    traders queued per line, [11] spare traders, [12:17] prizes per line (-1: no reason to
    queue there), [17:22] my cap per line, [22:27] sellers per line (seat mask), [27:32]
    rivals per line in ``bests``, [32:35] whether a venue has buyers.
    wf (float64): [0:3] chance a ticket finds a buyer, [3:6] buyers' average coins,
    [6:15] each favour kind's worth, [16 + 9 * line + rank] the gains worked out (NaN: not yet).
    The lines' prizes, rivals and gains are made only where traders are being placed (the
    only moves scored with them).
    """
    n = S[_S_N]
    nt = M[_M_NT]
    stage = S[_S_STAGE]
    late = S[_S_DAY] == 3 and stage >= 2
    mult = 0.3 if late else 1.0
    for f in range(_NF):
        wf[6 + f] = FAV[f, 1] + mult * HF[_HF_EFFECT + f]
    # tickets per seat and venue (by key prefix, which is the kind's venue)
    for s in range(n):
        for v in range(4):
            tbv[s, v] = 0
        hand_t = S[_H_TICKETS + s]
        if hand_t:
            for t in range(nt):
                c = _pop(hand_t & TKT[t, 0])
                if c:
                    tbv[s, TKT[t, 1]] += c
    forum = S[_S_FORUM]
    for v in range(3):
        wi[v] = 0
    for t in range(nt):
        c = _pop(forum & TKT[t, 0])
        if c:
            wi[TKT[t, 1]] += c
    for s in range(n):
        for v in range(3):
            wi[v] += tbv[s, v]
    # buyers per venue, best first, and the odds of a ticket there
    ckey = M[_M_CAESAR_KEY]
    for v in range(3):
        here = S[_S_VENUE_VIS + v]
        nb = 0
        for vk in range(M[_M_NV]):
            if vk == ckey:
                continue
            c = _pop(here & VIS[vk, 0])
            for _ in range(c):
                buyers[v, nb] = VIS[vk, 1]
                nb += 1
        _sort_desc(buyers[v], nb)
        wi[3 + v] = nb
        if nb == 0:
            wi[32 + v] = 0
            wf[v] = 0.0
            wf[3 + v] = 0.0
        else:
            wi[32 + v] = 1
            demand = max(1, wi[v])
            chance = nb / demand
            wf[v] = 1.0 if chance >= 1.0 else chance
            tot = 0
            for j in range(nb):
                tot += buyers[v, j]
            wf[3 + v] = tot / nb
    # my traders queued per line
    for li in range(5):
        q = 0
        for i in range(S[_S_LINE_LEN + li]):
            if (lines[li, i] & 15) == me:
                q += 1
        wi[6 + li] = q
    hand = _pop(S[_H_HANDS + me])
    if stage == 3:
        unsold = 0
        for v in range(3):
            unsold += max(0, tbv[me, v] - wi[6 + 2 + v])
        wi[11] = hand - unsold
    else:
        wi[11] = hand - (_pop(S[_H_TICKETS + me]) + (wi[6 + 1] if stage == 2 else 0))
    # the forum's prizes: its tickets' values, best first
    k = 0
    for t in range(nt):
        c = _pop(forum & TKT[t, 0])
        if c:
            val = _h_ticket_value(S, TKT, wi, wf, t)
            for _ in range(c):
                prizes[1, k] = val
                k += 1
    _sort_desc(prizes[1], k)
    wi[13] = k
    if S[_S_RESOLVING] or S[_S_PENDING] >= 0:
        return  # what follows only scores placing traders (Place and Replay)
    for k in range(16, wf.shape[0]):
        wf[k] = np.nan  # no gain of a line worked out yet
    # the villa's prizes
    display = S[_S_FAV_DISPLAY]
    k = 0
    for f in range(_NF):
        c = _pop(display & FAV[f, 0])
        for _ in range(c):
            prizes[0, k] = wf[6 + f]
            k += 1
    card_there = S[_S_SP_AT_VILLA] != 0
    if S[_S_START_EXTRA]:
        if card_there:
            prizes[0, k] = _START_CARD_VALUE
            k += 1
        _sort_desc(prizes[0], k)
    else:
        _sort_desc(prizes[0], k)
        if k == 0 and card_there:
            prizes[0, 0] = 0.0
            k = 1
        if card_there:
            prizes[0, 0] += _START_CARD_VALUE
    wi[12] = k
    # the venues' prizes
    my_tickets = S[_H_TICKETS + me]
    for v in range(3):
        li = 2 + v
        mine = tbv[me, v]
        caesar = (
            (S[_S_VENUE_VIS + v] & M[_M_CAESAR_KEY_MASK]) != 0 and not S[_S_CAESAR_USED] and S[_H_FAVOURS + me] != 0
        )
        if mine - wi[6 + li] <= 0 and not caesar:
            wi[12 + li] = -1
            continue
        bonus = S[_S_BONUS + v]
        best_ticket = 0
        first = True
        for t in range(nt):
            if TKT[t, 1] == v and my_tickets & TKT[t, 0] and (first or TKT[t, 2] > best_ticket):
                best_ticket = TKT[t, 2]
                first = False
        add = float(best_ticket) if mine else -1.0
        nb = wi[3 + v]
        for j in range(nb):
            prizes[li, j] = float(buyers[v, j] + bonus) + add
        wi[12 + li] = nb
        sellers = 0
        for s in range(n):
            if s != me and tbv[s, v] > 0:
                sellers |= 1 << s
        wi[22 + li] = sellers
        wi[17 + li] = max(mine, 1 if caesar else 0)
    # rivals still placing, and their best traders, per line
    passed = S[_S_PASSED]
    for li in range(5):
        r = 0
        for s in range(n):
            if s == me or (passed >> s) & 1:
                continue
            if li >= 2:
                held = tbv[s, li - 2]
                for i in range(S[_S_LINE_LEN + li]):
                    if (lines[li, i] & 15) == s:
                        held -= 1
                if held <= 0:
                    continue
            bests[li, r] = _top_rank(S[_H_HANDS + s])
            r += 1
        wi[27 + li] = r


@_inline
def _h_ticket_value(S: Any, TKT: Any, wi: Any, wf: Any, t: int) -> float:
    """``_ticket_value``: expected coins of holding a ticket of kind ``t``."""
    v = TKT[t, 1]
    if not wi[32 + v]:
        return 0.0
    return wf[v] * (TKT[t, 2] + wf[3 + v] + S[_S_BONUS + v])


@_inline
def _h_served_capped(
    lines: Any, li: int, length: int, ins: int, me: int, prizes: Any, limit: float, cap: int, sellers: int
) -> float:
    """``_served_capped`` over line ``li`` (with ``me`` inserted at ``ins`` when ``ins >= 0``)."""
    total = 0.0
    place = 0
    used = 0
    count = length + (1 if ins >= 0 else 0)
    for k in range(count):
        if ins >= 0 and k == ins:
            s = me
        elif ins >= 0 and k > ins:
            s = lines[li, k - 1] & 15
        else:
            s = lines[li, k] & 15
        if s == me:
            if used >= cap:
                continue
        elif not (sellers >> s) & 1:
            continue
        if place >= limit:
            break
        if s == me:
            total += prizes[li, place]
            used += 1
        place += 1
    return total


@_inline
def _h_gain(S: Any, lines: Any, wi: Any, wf: Any, prizes: Any, bests: Any, me: int, li: int, eff: int) -> float:
    """``_gain``: what one more trader of rank ``eff`` in line ``li`` wins me (kept per decision)."""
    key = 16 + li * 9 + eff
    gain = wf[key]
    if gain != gain:  # not worked out yet (NaN)
        gain = wf[key] = _h_line_gain(S, lines, wi, prizes, bests, me, li, eff)
    return gain


@_inline
def _h_line_gain(S: Any, lines: Any, wi: Any, prizes: Any, bests: Any, me: int, li: int, eff: int) -> float:
    """``_gain``'s working and ``_line_gain``."""
    n = 0
    for j in range(wi[27 + li]):
        if bests[li, j] > eff:
            n += 1
    threat = 0.0
    for _ in range(n):
        threat += 0.6
    size = wi[12 + li]
    slots = size - threat
    limit = slots if slots < size else float(size)
    if limit <= 0:
        return 0.0
    length = S[_S_LINE_LEN + li]
    pos = 0
    for i in range(length):
        if (lines[li, i] >> 8) >= eff:
            pos += 1
    if li < 2:
        served = np.int64(np.ceil(limit))
        before = 0.0
        for i in range(length):
            if (lines[li, i] & 15) == me:
                if i >= served:
                    break
                before += prizes[li, i]
        after = 0.0
        for i in range(length):
            if (lines[li, i] & 15) == me:
                if i >= pos or i >= served:
                    break
                after += prizes[li, i]
        if pos < served:
            after += prizes[li, pos]
            for i in range(length):
                if (lines[li, i] & 15) == me and i >= pos:
                    if i + 1 >= served:
                        break
                    after += prizes[li, i + 1]
        return after - before
    cap = wi[17 + li]
    sellers = wi[22 + li]
    before = _h_served_capped(lines, li, length, -1, me, prizes, limit, cap, sellers)
    return _h_served_capped(lines, li, length, pos, me, prizes, limit, cap, sellers) - before


@_inline
def _h_place(
    S: Any,
    lines: Any,
    M: Any,
    wi: Any,
    wf: Any,
    prizes: Any,
    bests: Any,
    me: int,
    rank: int,
    li: int,
    extra: int,
    boost: int,
) -> float:
    """``_score_place``."""
    eff = 8 if boost else rank
    cost = float(M[_M_TRADER_COINS + rank - 1])
    if boost:
        cost += wf[6 + _F_RANK_BOOST]
    if extra:
        cost += wf[6 + _F_EXTRA_TRADER] - 0.5
    if li == 0:
        if wi[11] <= 4:
            return -1.0
        gain = _h_gain(S, lines, wi, wf, prizes, bests, me, 0, eff)
        reserve = 1.5 if rank >= 6 else 0.0
        return gain - cost - reserve if gain > 0 else -1.0
    if li == 1:
        if wi[11] < 2:
            return -1.0
        gain = _h_gain(S, lines, wi, wf, prizes, bests, me, 1, eff)
        if gain <= 0:
            return -1.0
        hand = S[_H_HANDS + me]
        sell_cost = 0
        first = True
        for r in range(1, 9):
            if r != rank and (hand >> (r - 1)) & 1:
                c = M[_M_TRADER_COINS + r - 1]
                if first or c < sell_cost:
                    sell_cost = c
                    first = False
        reserve = 0.8 if rank >= 7 else 0.0
        return gain - cost - sell_cost - reserve
    if wi[12 + li] < 0:
        return -1.0
    gain = _h_gain(S, lines, wi, wf, prizes, bests, me, li, eff)
    if gain <= 0:
        return -1.0
    return gain - cost - 0.05 * rank


@_inline
def _h_score(
    S: Any,
    lines: Any,
    TKT: Any,
    VIS: Any,
    FAV: Any,
    M: Any,
    HF: Any,
    me: int,
    a: Any,
    wi: Any,
    wf: Any,
    tbv: Any,
    buyers: Any,
    prizes: Any,
    bests: Any,
) -> float:
    """The heuristic's score of the action row ``a`` (``_HANDLERS``)."""
    kind = a[0]
    if _A_PASS <= kind <= _A_DONE:  # Pass or Done
        return 0.0
    if kind == _A_PLACE:
        return _h_place(S, lines, M, wi, wf, prizes, bests, me, a[1], a[2], a[3], a[4])
    if kind == _A_EXTRA_VISITOR:
        if S[_S_STAGE] != 3:
            return -1.0
        best = -1.0
        for v in range(3):
            if tbv[me, v] > 0 and wi[v] > wi[3 + v]:
                best = max(best, 5.0 - wf[6 + _F_EXTRA_VISITOR])
        return best
    if kind == _A_PLACE_VISITOR:
        v = a[1]
        return tbv[me, v] * 2 - wi[3 + v] * 0.5 + wi[v] * 0.1
    if kind == _A_TICKET_VISITOR:
        if wi[11] < 1:
            return -1.0
        return HF[_HF_TICKET_VISITOR_BASE] - wf[6 + _F_TICKET_VISITOR]
    if kind == _A_REPLAY:
        rank = a[1]
        value = _h_place(S, lines, M, wi, wf, prizes, bests, me, rank, a[2], 0, 0)
        return value + M[_M_TRADER_COINS + rank - 1] - wf[6 + _F_REPLAY]
    if kind == _A_MOVE_AHEAD:
        rank = a[1]
        for li in range(5):
            for i in range(S[_S_LINE_LEN + li]):
                e = lines[li, i]
                if (e & 15) == me and ((e >> 4) & 15) == rank:
                    if li == 0:
                        slots = _pop(S[_S_FAV_DISPLAY]) + (1 if S[_S_SP_AT_VILLA] and S[_S_START_EXTRA] else 0)
                    elif li == 1:
                        slots = _pop(S[_S_FORUM])
                    else:
                        slots = wi[3 + li - 2]
                    if i == slots:
                        return 3.0 - wf[6 + _F_MOVE_AHEAD]
                    return -1.0
        return -1.0
    if kind == _A_TAKE_FAVOUR:
        return wf[6 + a[1]] + 10
    if kind == _A_TAKE_START:
        if not S[_S_START_EXTRA] and S[_S_RES_POS] == 0:
            return 10.0
        return _START_CARD_VALUE + 10
    if kind == _A_TAKE_TICKET:
        value = _h_ticket_value(S, TKT, wi, wf, a[1]) + 10
        if a[2]:
            second = prizes[1, 1] if wi[13] > 1 else 0.0
            if wi[11] < 2:
                second = 0.0
            value += second - wf[6 + _F_DOUBLE_TICKET]
        return value
    if kind == _A_SELL:
        vk, t, f, lg, dbl = a[1], a[2], a[3], a[4], a[5]
        paid = M[_M_LEG_PAYS] if lg else VIS[vk, 1]
        v = S[_S_RES_LINE] - 2
        value = 10.0 + paid + S[_S_BONUS + v]
        if t >= 0:
            value += TKT[t, 2]
        else:
            value -= HF[_HF_EFFECT + f]
        if lg:
            value -= wf[6 + _F_LEGIONNAIRE]
        if dbl:
            nb = wi[3 + v]
            rest1 = buyers[v, 1] if nb > 1 else 0
            # my tickets for this venue, best first, less the best one when a ticket is sold
            mine = S[_H_TICKETS + me]
            top = 0
            second_top = 0
            count = 0
            for tk in range(M[_M_NT]):
                if TKT[tk, 1] == v:
                    c = _pop(mine & TKT[tk, 0])
                    for _ in range(c):
                        x = TKT[tk, 2]
                        if count == 0 or x > top:
                            second_top = top
                            top = x
                        elif count == 1 or x > second_top:
                            second_top = x
                        count += 1
            # heuristic.py drops the first (best) of them when a ticket is sold, whichever it is
            first_left = 0
            if count:
                first_left = top if t < 0 else (second_top if count > 1 else 0)
            second = rest1 + first_left
            later = 0
            li = 2 + v
            for i in range(S[_S_RES_POS] + 1, S[_S_LINE_LEN + li]):
                if (lines[li, i] & 15) == me:
                    later += 1
            value += (0.3 if later else 1.0) * second - wf[6 + _F_DOUBLE_SALE]
        return value
    return 10.0  # skip


@njit
def _h_pick(
    S: Any,
    lines: Any,
    TKT: Any,
    VIS: Any,
    FAV: Any,
    M: Any,
    HF: Any,
    rngs: Any,
    me: int,
    buf: Any,
    count: int,
    wi: Any,
    wf: Any,
    tbv: Any,
    buyers: Any,
    prizes: Any,
    bests: Any,
) -> int:
    """``CircusMaximusHeuristic.act`` with at least two legal moves: the best score plus
    ``rand() * 1e-6`` from the seat's agent's generator, one draw per move in order."""
    _h_prepare(S, lines, TKT, VIS, FAV, M, HF, me, wi, wf, tbv, buyers, prizes, bests)
    best = 0
    best_score = -np.inf
    for j in range(count):
        score = _h_score(S, lines, TKT, VIS, FAV, M, HF, me, buf[j], wi, wf, tbv, buyers, prizes, bests)
        score = score + rng_random(rngs, POLICY_RNGS + me) * 1e-6
        if score > best_score:
            best = j
            best_score = score
    return best


@njit
def _outcome(S: Any, out: Any, decisions: int) -> None:
    """``[decisions, finished, scores..., returns...]`` into ``out`` (zeros): the totals as
    scores, and the game's returns (shared equally among the highest totals) once it is over."""
    n = S[_S_N]
    over = S[_S_STAGE] == 4
    out[0] = decisions
    out[1] = 1.0 if over else 0.0
    best = S[_H_TOTALS]
    for s in range(n):
        out[2 + s] = float(S[_H_TOTALS + s])
        if S[_H_TOTALS + s] > best:
            best = S[_H_TOTALS + s]
    if over:
        winners = 0
        for s in range(n):
            if S[_H_TOTALS + s] == best:
                winners += 1
        for s in range(n):
            if S[_H_TOTALS + s] == best:
                out[2 + n + s] = 1.0 / winners


@njit
def _scratch(M: Any) -> tuple[Any, Any, Any, Any, Any, Any, Any]:
    """The work arrays a game loop reuses for every move: the legal moves and the heuristic's."""
    return (np.empty((M[_M_MAX_ACTIONS], 6), dtype=np.int64), np.zeros(35, dtype=np.int64),
            np.zeros(16 + 5 * 9, dtype=np.float64), np.zeros((5, 4), dtype=np.int64),
            np.zeros((3, _HW), dtype=np.int64), np.zeros((5, _HW), dtype=np.float64),
            np.zeros((5, 5), dtype=np.int64))


@njit
def _own_chance(S: Any, lines: Any, draws: Any, TKT: Any, VIS: Any, FAV: Any, M: Any, rngs: Any) -> None:
    """Every pending draw, from the state's own generator (as the engine settles it)."""
    while S[_S_NDRAWS]:
        _draw(S, lines, draws, TKT, VIS, FAV, M, rngs, CHANCE_RNG)


@njit
def _pending_chance(S: Any, lines: Any, draws: Any, TKT: Any, VIS: Any, FAV: Any, M: Any, rngs: Any,
                    has_state_rng: bool) -> None:
    """Chance the playout's generator decides (a state without its own), each draw followed by
    whatever the state's own generator then settles."""
    while S[_S_NDRAWS]:
        _draw(S, lines, draws, TKT, VIS, FAV, M, rngs, ROLLOUT)
        if has_state_rng:
            _own_chance(S, lines, draws, TKT, VIS, FAV, M, rngs)


@njit
def _run(
    S: Any,
    lines: Any,
    draws: Any,
    TKT: Any,
    VIS: Any,
    FAV: Any,
    M: Any,
    HF: Any,
    rngs: Any,
    has_state_rng: bool,
    policy: int,
    max_decisions: int,
) -> Any:
    n = S[_S_N]
    out = np.zeros(2 + 2 * n, dtype=np.float64)
    buf, wi, wf, tbv, buyers, prizes, bests = _scratch(M)
    limit = MAX_PLAYOUT_DECISIONS if max_decisions < 0 else max_decisions
    decisions = 0
    while True:
        _pending_chance(S, lines, draws, TKT, VIS, FAV, M, rngs, has_state_rng)
        if decisions >= MAX_PLAYOUT_DECISIONS:  # the Python playout raises here
            out[0] = -1.0
            return out
        if S[_S_STAGE] == 4 or decisions >= limit:
            break
        seat = _current_seat(S, lines)
        count = _legal(S, lines, TKT, VIS, FAV, M, seat, buf)
        if count == 1 or policy == _POLICY_RANDOM:
            pick = 0 if count == 1 else np.int64(rng_below(rngs, ROLLOUT, count))  # int64: no float mix
        else:  # the heuristic (which draws nothing for a single legal move either)
            pick = _h_pick(S, lines, TKT, VIS, FAV, M, HF, rngs, seat, buf, count, wi, wf, tbv, buyers, prizes, bests)
        _play(S, lines, draws, TKT, VIS, FAV, M, seat, buf[pick])
        if has_state_rng:
            _own_chance(S, lines, draws, TKT, VIS, FAV, M, rngs)
        decisions += 1
    _outcome(S, out, decisions)
    return out


@_inline
def _agent_pick(S: Any, lines: Any, TKT: Any, VIS: Any, FAV: Any, M: Any, HF: Any, rngs: Any, kind: int, seat: int,
                buf: Any, count: int, wi: Any, wf: Any, tbv: Any, buyers: Any, prizes: Any, bests: Any) -> Any:
    """The move (index into ``buf``) the agent of code ``kind`` at ``seat`` picks among ``count``
    legal ones, as the Python agent does: the random agent draws ``below(count)`` from its own
    generator even when one move is legal (``Rng.choice``); the heuristic draws nothing and plays
    a forced move as it is (``heuristic.py``). Shared by whole games and the vector steps."""
    if kind == _AGENT_RANDOM:
        return np.int64(rng_below(rngs, POLICY_RNGS + seat, count))  # int64: no float mix
    if count == 1:
        return np.int64(0)
    return _h_pick(S, lines, TKT, VIS, FAV, M, HF, rngs, seat, buf, count, wi, wf, tbv, buyers, prizes, bests)


@njit
def _run_agents(
    S: Any,
    lines: Any,
    draws: Any,
    TKT: Any,
    VIS: Any,
    FAV: Any,
    M: Any,
    HF: Any,
    rngs: Any,
    has_state_rng: bool,
    kinds: Any,
) -> Any:
    """A whole game of agents (:meth:`CircusMaximusPlayouts.run_agents`): the loop of :func:`_run`
    with the seat's agent choosing every move. The random agent (``kinds[seat]`` 0) draws
    ``below(len(legal))`` from its own generator even when one move is legal (``Rng.choice``);
    the heuristic draws nothing and plays a forced move as it is, as ``heuristic.py`` does."""
    n = S[_S_N]
    out = np.zeros(2 + 2 * n, dtype=np.float64)
    buf, wi, wf, tbv, buyers, prizes, bests = _scratch(M)
    decisions = 0
    while True:
        _pending_chance(S, lines, draws, TKT, VIS, FAV, M, rngs, has_state_rng)  # a seeded state has none
        if S[_S_STAGE] == 4:
            break
        if decisions >= MAX_PLAYOUT_DECISIONS:
            out[0] = -1.0
            return out
        seat = _current_seat(S, lines)
        count = _legal(S, lines, TKT, VIS, FAV, M, seat, buf)
        pick = _agent_pick(S, lines, TKT, VIS, FAV, M, HF, rngs, kinds[seat], seat, buf, count, wi, wf, tbv, buyers,
                           prizes, bests)
        _play(S, lines, draws, TKT, VIS, FAV, M, seat, buf[pick])
        if has_state_rng:
            _own_chance(S, lines, draws, TKT, VIS, FAV, M, rngs)
        decisions += 1
    _outcome(S, out, decisions)
    return out


# ------------------------------------------------------------------ packing
class _Tables:
    """One card-data file as the arrays the compiled rules read (made once per file)."""

    __slots__ = ("data", "fav", "hf", "misc", "ok", "tkt", "vis")

    def __init__(self, d: CardData) -> None:
        self.data = d  # keeps the CardData alive while it is cached by id
        nt, nv = len(d.tickets), len(d.visitors)
        self.ok = max(len(d.ticket_kind_of), len(d.visitor_kind_of), len(d.favour_kind_of)) <= _MAX_CARDS
        self.tkt = np.array(
            [[d.ticket_masks[k] if self.ok else 0, t.venue, t.coins] for k, t in enumerate(d.tickets)], dtype=np.int64
        ).reshape(nt, 3)
        self.vis = np.array(
            [[d.visitor_masks[k] if self.ok else 0, v.coins] for k, v in enumerate(d.visitors)], dtype=np.int64
        ).reshape(nv, 2)
        self.fav = np.array(
            [[d.favour_masks[k] if self.ok else 0, f.coins] for k, f in enumerate(d.favours)], dtype=np.int64
        ).reshape(_NF, 2)
        misc = [0] * _M_SIZE
        if self.ok:
            misc[_M_NT], misc[_M_NV] = nt, nv
            misc[_M_LEG_PAYS] = d.legionnaire_pays
            misc[_M_CAESAR_MASK] = d.caesar_mask
            misc[_M_LEG_KIND] = d.legionnaire_kind
            misc[_M_ALL_TICKETS] = d.all_tickets
            misc[_M_ALL_VISITORS] = d.all_visitors
            for v in range(3):
                misc[_M_VENUE_TKT + v] = d.venue_ticket_masks[v]
            for r in range(8):
                misc[_M_TRADER_COINS + r] = d.trader_coins[r]
            # placing: 8 ranks x 3 lines x 2 x 2 plus favours; selling: visitor kinds x sellers x 4
            misc[_M_MAX_ACTIONS] = 8 * 3 * 4 + 8 * 3 + 16 + nv * (nt + _NF) * 4 + 2 * nt + _NF + 4
            keyed = [k for k, v in enumerate(d.visitors) if v.key == "caesar"]
            misc[_M_CAESAR_KEY] = keyed[0] if keyed else -1
            misc[_M_CAESAR_KEY_MASK] = d.visitor_masks[keyed[0]] if keyed else 0
        self.misc = np.array(misc, dtype=np.int64)
        # the heuristic's constants, by heuristic._Tables's own formula (same floats)
        ticket_coins: dict[str, int] = {}
        for t in d.tickets:
            ticket_coins.setdefault(t.key, t.coins)
        avg = sum(ticket_coins[t.key] * t.count for t in d.tickets) / max(1, sum(t.count for t in d.tickets))
        visitors = [v for v in d.visitors if not v.caesar]
        avg_v = sum(v.coins * v.count for v in visitors) / max(1, sum(v.count for v in visitors))
        hf = [0.0] * _HF_SIZE
        hf[_HF_TICKET_VISITOR_BASE] = 0.7 * (avg + avg_v)
        for f, key in enumerate(FAVOUR_KEYS):
            hf[_HF_EFFECT + f] = EFFECT_VALUE.get(key, 1.0)
        self.hf = np.array(hf, dtype=np.float64)
        for a in (self.tkt, self.vis, self.fav, self.misc, self.hf):
            a.setflags(write=False)


class CircusMaximusPlayouts(CompiledPlayouts):
    """Random and heuristic playouts of Circus Maximus, and whole games of the random and heuristic
    agents, every option and player count, compiled."""

    game_name: ClassVar[str] = "circus-maximus"
    policies: ClassVar[tuple[str, ...]] = ("random", "heuristic")
    agent_kinds: ClassVar[tuple[str, ...]] = ("random", "heuristic")

    def __init__(self) -> None:
        self._tables: dict[int, _Tables] = {}

    def _tables_of(self, d: CardData) -> _Tables:
        t = self._tables.get(id(d))
        if t is None or t.data is not d:
            t = self._tables[id(d)] = _Tables(d)
        return t

    def pack(self, state: State) -> tuple[Any, ...] | None:
        """The state's game data as arrays (see the module docstring); None for card files with
        more than 62 cards of one sort or a chance queue longer than any day builds."""
        if not isinstance(state, CircusMaximusState):
            return None
        st = state
        tables = self._tables_of(st.data)
        if not tables.ok or len(st.draws) > _DRAW_CAP:
            return None
        n = st.n
        s = [0] * _S_SIZE
        s[_S_N] = n
        s[_S_START_EXTRA] = 1 if st.options.start_card == "extra-pick" else 0
        s[_S_DAY] = st.day
        s[_S_STAGE] = st.stage
        s[_S_RESOLVING] = int(st.resolving)
        s[_S_TURN] = st.turn
        s[_S_PASSED] = st.passed
        s[_S_EXTRA] = st.extra
        s[_S_TURN_DONE] = int(st.turn_done)
        s[_S_PENDING] = st.pending_visitor
        s[_S_RES_LINE] = st.res_line
        s[_S_RES_POS] = st.res_pos
        s[_S_RES_AGAIN] = int(st.res_again)
        s[_S_FAV_DECK] = st.fav_deck
        s[_S_FAV_DISPLAY] = st.fav_display
        s[_S_FAV_GONE] = st.fav_gone
        s[_S_SP_AT_VILLA] = int(st.sp_at_villa)
        s[_S_STARTING] = st.starting
        s[_S_TKT_DECK] = st.tkt_deck
        s[_S_FORUM] = st.forum
        s[_S_SETUP : _S_SETUP + 3] = st.setup_counts
        s[_S_BONUS : _S_BONUS + 3] = st.bonus
        s[_S_VIS_DECK] = st.vis_deck
        s[_S_VIS_BOX] = st.vis_box
        s[_S_VENUE_VIS : _S_VENUE_VIS + 3] = st.venue_vis
        s[_S_CAESAR_USED] = int(st.caesar_used)
        s[_S_NDRAWS] = len(st.draws)
        s[_H_HANDS : _H_HANDS + n] = st.hands
        s[_H_FAVOURS : _H_FAVOURS + n] = st.favours
        s[_H_TICKETS : _H_TICKETS + n] = st.tickets
        s[_H_TOTALS : _H_TOTALS + n] = st.totals
        sold = 0
        for seat, sales in enumerate(st.sales):
            coins = 0
            for is_favour, card, _visitor, paid in sales:
                coins += paid
                if is_favour:
                    sold |= 1 << card
            s[_H_SALE_COINS + seat] = coins
        s[_S_FAV_SOLD] = sold
        lines = np.zeros((5, _LINE_CAP), dtype=np.int64)
        for li, line in enumerate(st.lines):
            s[_S_LINE_LEN + li] = len(line)
            for i, (seat, rank, eff) in enumerate(line):
                lines[li, i] = seat | rank << 4 | eff << 8
        draws = np.zeros(_DRAW_CAP, dtype=np.int64)
        for i, (code, arg) in enumerate(st.draws):
            draws[i] = _TASK_CODE[code] << 3 | arg
        return (np.array(s, dtype=np.int64), lines, draws, tables.tkt, tables.vis, tables.fav, tables.misc, tables.hf)

    def run(self, packed: tuple[Any, ...], rngs: Any, has_state_rng: bool, policy: int, max_decisions: int) -> Any:
        scalars, lines, draws, tkt, vis, fav, misc, hf = packed
        if policy != _POLICY_RANDOM and rngs.shape[0] < POLICY_RNGS + int(scalars[_S_N]):
            raise ValueError("the heuristic policy needs one agent generator per seat")  # numba checks no bounds
        return _run(scalars, lines, draws, tkt, vis, fav, misc, hf, rngs, has_state_rng, policy, max_decisions)

    def run_agents(self, packed: tuple[Any, ...], rngs: Any, has_state_rng: bool, kinds: Any) -> Any:
        scalars, lines, draws, tkt, vis, fav, misc, hf = packed
        n = int(scalars[_S_N])
        if rngs.shape[0] < POLICY_RNGS + n or kinds.shape[0] < n:
            raise ValueError("a game of agents needs a kind and a generator for every seat")  # no bounds checked
        return _run_agents(scalars, lines, draws, tkt, vis, fav, misc, hf, rngs, has_state_rng, kinds)

    def vector_steps(
        self, options: Any, num_envs: int, seat: int, kinds: Sequence[str | None], player_actions: Sequence[Any]
    ) -> CompiledSteps | None:
        """The vector environment's stepping, compiled (:mod:`.vector`): every option and player
        count, the random and heuristic agents."""
        from .vector import vector_steps  # it builds on this module

        return vector_steps(self, options, num_envs, seat, kinds, player_actions)


PLAYOUTS = CircusMaximusPlayouts()
"""The one instance :meth:`CircusMaximusGame.compiled_playouts` hands out."""
