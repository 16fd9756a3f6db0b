"""Circus Maximus vector environments, compiled: :class:`CircusMaximusSteps` steps ``num_envs``
games, each with one learner seat and random or heuristic agents in the others, in one numba
call (the contract is :class:`ludus.core.compiled.CompiledSteps`).

Why here and not in the interop layer: the rules, the agents and the generators are those of
:mod:`.compiled`, the very functions that play the playouts and the tournaments' games, so a
vector step plays exactly the Python environment's games. A slot is one packed position (its
scalars, lines and chance queue, as :meth:`.compiled.CircusMaximusPlayouts.pack` makes them) and
its generators: ``[ROLLOUT]`` is the environment's (chance drawn outcome by outcome, for a state
without a generator of its own), ``[CHANCE_RNG]`` the state's, ``[POLICY_RNGS + seat]`` each
agent's.

The packed position keeps of a sale only what later rules read (its coins), but the observation
shows every sale of the day and of past days, each day's scores and the favours' coins at the
end; so each slot traces them beside its position (:func:`_note_sale`, :func:`_note_days`),
from the moves the step plays itself: the rules functions are not touched.

The learner's observation is written as :class:`.encoding.CircusMaximusEncoder` writes
``state.observation(seat)``, bit for bit, from what that observation holds only: the whole table
is public in this game (:mod:`.views`), and card sets are shown as counts per kind, never which
card ids they hold; the generators (what chance will draw next) are never read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.compiled import POLICY_RNGS, CompiledSteps, njit
from ...core.game import State
from ...core.rng import Rng
from .actions import (
    LINE_KEYS,
    Done,
    Pass,
    Place,
    PlaceVisitor,
    PlayExtraVisitor,
    PlayMoveAhead,
    PlayReplay,
    PlayTicketVisitor,
    Sell,
    Skip,
    TakeFavour,
    TakeStart,
    TakeTicket,
)
from .cards import FAVOUR_KEYS, VENUE_KEYS
from .compiled import (
    _A_DONE,
    _A_EXTRA_VISITOR,
    _A_MOVE_AHEAD,
    _A_PASS,
    _A_PLACE,
    _A_PLACE_VISITOR,
    _A_REPLAY,
    _A_SELL,
    _A_SKIP,
    _A_TAKE_FAVOUR,
    _A_TAKE_START,
    _A_TAKE_TICKET,
    _A_TICKET_VISITOR,
    _DRAW_CAP,
    _H_FAVOURS,
    _H_HANDS,
    _H_TICKETS,
    _H_TOTALS,
    _LINE_CAP,
    _M_LEG_KIND,
    _M_LEG_PAYS,
    _M_NT,
    _M_NV,
    _NF,
    _S_BONUS,
    _S_CAESAR_USED,
    _S_DAY,
    _S_EXTRA,
    _S_FAV_DECK,
    _S_FAV_DISPLAY,
    _S_FAV_GONE,
    _S_FORUM,
    _S_LINE_LEN,
    _S_N,
    _S_NDRAWS,
    _S_PASSED,
    _S_PENDING,
    _S_RES_AGAIN,
    _S_RES_LINE,
    _S_RES_POS,
    _S_RESOLVING,
    _S_SETUP,
    _S_SIZE,
    _S_SP_AT_VILLA,
    _S_STAGE,
    _S_START_EXTRA,
    _S_STARTING,
    _S_TKT_DECK,
    _S_TURN,
    _S_VENUE_VIS,
    _S_VIS_BOX,
    _S_VIS_DECK,
    _TASK_CODE,
    CircusMaximusPlayouts,
    _agent_pick,
    _current_seat,
    _inline,
    _legal,
    _outcome,
    _own_chance,
    _pending_chance,
    _play,
    _pop,
    _scratch,
)
from .rules import DAYS, CircusMaximusState

__all__ = ["CircusMaximusSteps", "vector_steps"]

_PIECES = (
    "seat", "caesar_variant", "start_card_extra_pick", "day", "phase", "resolving", "to_act", "starting",
    "start_card_at_villa", "turn", "passed", "extra_traders", "pending_visitor", "resolving_line", "resolving_index",
    "second_pick", "trader_line", "trader_place", "trader_effective", "hands", "favours", "tickets", "sales_what",
    "sales_visitor", "sales_coins", "past_sales_day", "past_sales_what", "past_sales_visitor", "past_sales_coins",
    "favour_display", "forum", "venues", "bonus", "caesar_used", "favour_deck", "ticket_deck", "visitor_deck",
    "favours_out", "visitors_out", "draws_task", "draws_arg", "setup_tickets", "scores", "day_scored", "day_scores",
    "favour_coins_known", "favour_coins",
)
"""The encoder's pieces, every one of which the compiled encoding writes; offsets from the encoder."""
(O_SEAT, O_CAESAR, O_START_EXTRA, O_DAY, O_PHASE, O_RESOLVING, O_TO_ACT, O_STARTING, O_AT_VILLA, O_TURN, O_PASSED,
 O_EXTRA, O_PENDING, O_RES_LINE, O_RES_INDEX, O_SECOND, O_T_LINE, O_T_PLACE, O_T_EFF, O_HANDS, O_FAVOURS, O_TICKETS,
 O_SALES_WHAT, O_SALES_VIS, O_SALES_COINS, O_PAST_DAY, O_PAST_WHAT, O_PAST_VIS, O_PAST_COINS, O_DISPLAY, O_FORUM,
 O_VENUES, O_BONUS, O_CAESAR_USED, O_FAV_DECK, O_TKT_DECK, O_VIS_DECK, O_FAV_OUT, O_VIS_OUT, O_DRAWS_TASK,
 O_DRAWS_ARG, O_SETUP, O_SCORES, O_DAY_SCORED, O_DAY_SCORES, O_FC_KNOWN, O_FC) = range(len(_PIECES))

# action codes: one per action row of .compiled (the number tables are indexed by them)
_C_PLACE = 0  # ((rank - 1) * 5 + line) * 4 + extra * 2 + boost
_SIMPLE = (_A_PASS, _A_DONE, _A_EXTRA_VISITOR, _A_TICKET_VISITOR, _A_TAKE_START, _A_SKIP)
_C_SIMPLE = 160  # + position in _SIMPLE (as _code spells it out)
_C_PLACE_VISITOR = _C_SIMPLE + len(_SIMPLE)  # + venue
_C_REPLAY = _C_PLACE_VISITOR + 3  # + (rank - 1) * 5 + line
_C_MOVE_AHEAD = _C_REPLAY + 40  # + rank - 1
_C_TAKE_FAVOUR = _C_MOVE_AHEAD + 8  # + favour kind
_C_TAKE_TICKET = _C_TAKE_FAVOUR + _NF  # + ticket kind * 2 + double; then the sales:
# + ((visitor kind * (T + 9) + what) * 2 + legion) * 2 + double, what = ticket kind or T + favour kind

# the trace of a slot's sales and scores: tr[slot, day, seat, j] = (what, visitor kind, coins), day 0
# being today's and 1 + d day d's (finished); tn[slot, day, seat] how many; ds[slot, 0] the favours'
# coins, ds[slot, 1 + d] day d's scores; meta[slot] = (days scored, favours' coins known)
_TODAY = 0


# --------------------------------------------------------------------------- numba
@_inline
def _code(a: Any, nt: int) -> int:
    """The action code of the action row ``a`` (see ``_C_*``)."""
    kind = a[0]
    if kind == _A_PLACE:
        return _C_PLACE + ((a[1] - 1) * 5 + a[2]) * 4 + a[3] * 2 + a[4]
    if kind == _A_PLACE_VISITOR:
        return _C_PLACE_VISITOR + a[1]
    if kind == _A_REPLAY:
        return _C_REPLAY + (a[1] - 1) * 5 + a[2]
    if kind == _A_MOVE_AHEAD:
        return _C_MOVE_AHEAD + a[1] - 1
    if kind == _A_TAKE_FAVOUR:
        return _C_TAKE_FAVOUR + a[1]
    if kind == _A_TAKE_TICKET:
        return _C_TAKE_TICKET + a[1] * 2 + a[2]
    if kind == _A_SELL:
        what = a[2] if a[2] >= 0 else nt + a[3]
        return _C_TAKE_TICKET + 2 * nt + ((a[1] * (nt + _NF) + what) * 2 + a[4]) * 2 + a[5]
    if kind == _A_PASS:
        return _C_SIMPLE
    if kind == _A_DONE:
        return _C_SIMPLE + 1
    if kind == _A_EXTRA_VISITOR:
        return _C_SIMPLE + 2
    if kind == _A_TICKET_VISITOR:
        return _C_SIMPLE + 3
    if kind == _A_TAKE_START:
        return _C_SIMPLE + 4
    return _C_SIMPLE + 5  # skip


@_inline
def _counts(row: Any, base: int, cards: int, table: Any, kinds: int) -> None:
    """A card set as one count per kind (``table[k, 0]`` is kind k's mask), as ``_zone`` writes it."""
    if cards:
        for k in range(kinds):
            c = _pop(cards & table[k, 0])
            if c:
                row[base + k] = c


@_inline
def _sales(row: Any, what_at: int, vis_at: int, coins_at: int, tr: Any, tn: Any, n: int, nw: int, nv: int) -> None:
    """One day's sales of every seat (``_sales``): sale j of seat s in slot (s, j)."""
    sc = tr.shape[1]
    for s in range(n):
        for j in range(tn[s]):
            k = s * sc + j
            row[what_at + k * nw + tr[s, j, 0]] = 1.0
            row[vis_at + k * nv + tr[s, j, 1]] = 1.0
            row[coins_at + k] = tr[s, j, 2]


@njit
def _encode(S: Any, lines: Any, draws: Any, TKT: Any, VIS: Any, FAV: Any, M: Any, tr: Any, tn: Any, ds: Any,
            meta: Any, caesar: bool, seat: int, off: Any, row: Any) -> None:
    """``CircusMaximusEncoder.encode_into`` of ``seat``'s observation into ``row``, from the fields
    that observation holds (``views.observe``) and the slot's trace of sales and scores."""
    n = S[_S_N]
    nt = M[_M_NT]
    nv = M[_M_NV]
    row[:] = 0.0
    row[off[O_SEAT] + seat] = 1.0
    if caesar:
        row[off[O_CAESAR]] = 1.0
    if S[_S_START_EXTRA]:
        row[off[O_START_EXTRA]] = 1.0
    row[off[O_DAY] + S[_S_DAY] - 1] = 1.0
    row[off[O_PHASE] + S[_S_STAGE]] = 1.0
    resolving = S[_S_RESOLVING] != 0
    if resolving:
        row[off[O_RESOLVING]] = 1.0
        row[off[O_RES_LINE] + S[_S_RES_LINE]] = 1.0
        row[off[O_RES_INDEX] + S[_S_RES_POS]] = 1.0
    if S[_S_NDRAWS]:  # to_act: chance (slot n), or the seat to act, or nobody at the end
        row[off[O_TO_ACT] + n] = 1.0
    elif S[_S_STAGE] != 4:
        row[off[O_TO_ACT] + _current_seat(S, lines)] = 1.0
    row[off[O_STARTING] + S[_S_STARTING]] = 1.0
    if S[_S_SP_AT_VILLA]:
        row[off[O_AT_VILLA]] = 1.0
    row[off[O_TURN] + S[_S_TURN]] = 1.0
    for s in range(n):
        if (S[_S_PASSED] >> s) & 1:
            row[off[O_PASSED] + s] = 1.0
    if S[_S_EXTRA]:
        row[off[O_EXTRA]] = S[_S_EXTRA]
    card = S[_S_PENDING]
    if card >= 0:  # a card id: shown as its kind
        for k in range(nv):
            if (VIS[k, 0] >> card) & 1:
                row[off[O_PENDING] + k] = 1.0
    if S[_S_RES_AGAIN]:
        row[off[O_SECOND]] = 1.0
    if S[_S_CAESAR_USED]:
        row[off[O_CAESAR_USED]] = 1.0
    for li in range(5):
        for i in range(S[_S_LINE_LEN + li]):
            e = lines[li, i]
            t = (e & 15) * 8 + ((e >> 4) & 15) - 1
            row[off[O_T_LINE] + t * 5 + li] = 1.0
            row[off[O_T_PLACE] + t] = i + 1
            row[off[O_T_EFF] + t] = e >> 8
    for s in range(n):
        hand = S[_H_HANDS + s]
        for r in range(8):
            if (hand >> r) & 1:
                row[off[O_HANDS] + s * 8 + r] = 1.0
        _counts(row, off[O_FAVOURS] + s * _NF, S[_H_FAVOURS + s], FAV, _NF)
        _counts(row, off[O_TICKETS] + s * nt, S[_H_TICKETS + s], TKT, nt)
    _counts(row, off[O_DISPLAY], S[_S_FAV_DISPLAY], FAV, _NF)
    _counts(row, off[O_FORUM], S[_S_FORUM], TKT, nt)
    _counts(row, off[O_FAV_DECK], S[_S_FAV_DECK], FAV, _NF)
    _counts(row, off[O_TKT_DECK], S[_S_TKT_DECK], TKT, nt)
    _counts(row, off[O_VIS_DECK], S[_S_VIS_DECK], VIS, nv)
    _counts(row, off[O_FAV_OUT], S[_S_FAV_GONE], FAV, _NF)
    _counts(row, off[O_VIS_OUT], S[_S_VIS_BOX], VIS, nv)
    for v in range(3):
        _counts(row, off[O_VENUES] + v * nv, S[_S_VENUE_VIS + v], VIS, nv)
        row[off[O_BONUS] + v] = S[_S_BONUS + v]
        row[off[O_SETUP] + v] = S[_S_SETUP + v]
    for s in range(n):
        row[off[O_SCORES] + s] = S[_H_TOTALS + s]
    for j in range(S[_S_NDRAWS]):
        task = draws[j]
        row[off[O_DRAWS_TASK] + j * 7 + (task >> 3)] = 1.0
        row[off[O_DRAWS_ARG] + j * n + (task & 7)] = 1.0
    nw = nt + _NF
    sc = tr.shape[2]
    for d in range(meta[0]):
        row[off[O_DAY_SCORED] + d] = 1.0
        row[off[O_PAST_DAY] + d] = 1.0
        for s in range(n):
            row[off[O_DAY_SCORES] + d * n + s] = ds[1 + d, s]
        _sales(row, off[O_PAST_WHAT] + d * n * sc * nw, off[O_PAST_VIS] + d * n * sc * nv, off[O_PAST_COINS]
               + d * n * sc, tr[1 + d], tn[1 + d], n, nw, nv)
    if meta[1]:
        row[off[O_FC_KNOWN]] = 1.0
        for s in range(n):
            row[off[O_FC] + s] = ds[0, s]
    _sales(row, off[O_SALES_WHAT], off[O_SALES_VIS], off[O_SALES_COINS], tr[_TODAY], tn[_TODAY], n, nw, nv)


@_inline
def _note_sale(S: Any, TKT: Any, VIS: Any, FAV: Any, M: Any, tr: Any, tn: Any, seat: int, a: Any) -> None:
    """Before ``seat`` plays the action row ``a``: a sale joins its list of today's sales, with the
    coins ``_play`` credits it (ticket or favour, visitor or Ticket→Legionnaire, the venue's bonus)."""
    if a[0] != _A_SELL:
        return
    vk, t, f, lg = a[1], a[2], a[3], a[4]
    base = TKT[t, 2] if t >= 0 else FAV[f, 1]
    paid = M[_M_LEG_PAYS] if lg else VIS[vk, 1]
    j = tn[_TODAY, seat]
    if j >= tr.shape[2]:
        raise ValueError("Circus Maximus vector step: more sales than the encoder has slots for")
    tr[_TODAY, seat, j, 0] = t if t >= 0 else M[_M_NT] + f
    tr[_TODAY, seat, j, 1] = vk
    tr[_TODAY, seat, j, 2] = base + paid + S[_S_BONUS + S[_S_RES_LINE] - 2]
    tn[_TODAY, seat] = j + 1


@njit
def _note_days(S: Any, FAV: Any, tr: Any, tn: Any, ds: Any, meta: Any) -> None:
    """The days the position has finished since the trace last looked (``_end_day``): today's sales
    become that day's (and, the last day, stay today's too), its scores are what the totals
    gained (less the favours' coins after the last day, which the trace then knows too). Only
    chance moves between a day's end and this."""
    n = S[_S_N]
    done = DAYS if S[_S_STAGE] == 4 else S[_S_DAY] - 1
    while meta[0] < done:
        d = meta[0]
        last = d == DAYS - 1
        for s in range(n):
            gained = S[_H_TOTALS + s]
            for k in range(d):
                gained -= ds[1 + k, s]
            if last:
                fav = S[_H_FAVOURS + s]
                coins = 0
                for f in range(_NF):
                    coins += _pop(fav & FAV[f, 0]) * FAV[f, 1]
                ds[0, s] = coins
                gained -= coins
            ds[1 + d, s] = gained
            tr[1 + d, s] = tr[_TODAY, s]
            tn[1 + d, s] = tn[_TODAY, s]
            if not last:  # the last day's sales stay on the table (as today's) at the end
                tn[_TODAY, s] = 0
        if last:
            meta[1] = 1
        meta[0] = d + 1


@njit
def _step(S: Any, lines: Any, draws: Any, TKT: Any, VIS: Any, FAV: Any, M: Any, HF: Any, rngs: Any, has_rng: Any,
          tr: Any, tn: Any, ds: Any, meta: Any, kinds: Any, seat: int, caesar: bool, number_of: Any, off: Any,
          actions: Any, live: Any, obs: Any, mask: Any, rewards: Any, terminated: Any) -> None:
    """:meth:`CircusMaximusSteps.step` for every live slot: the learner's move, then chance and the
    agents as ``LudusVectorEnv._advance`` plays them (the loop of ``_run_agents``), to the learner's
    next decision or the end; then its observation, mask, reward and termination."""
    nt = M[_M_NT]
    buf, wi, wf, tbv, buyers, prizes, bests = _scratch(M)
    out = np.zeros(2 + 2 * 5, dtype=np.float64)
    for i in range(S.shape[0]):
        if not live[i]:
            continue
        s_i, l_i, d_i, r_i, own = S[i], lines[i], draws[i], rngs[i], has_rng[i]
        tr_i, tn_i, ds_i, m_i = tr[i], tn[i], ds[i], meta[i]
        a = actions[i]
        # the caller checked the action against the mask; a wrong one would corrupt the slot
        if s_i[_S_NDRAWS] or s_i[_S_STAGE] == 4 or _current_seat(s_i, l_i) != seat:
            raise ValueError("vector step: not the learner's move")
        count = _legal(s_i, l_i, TKT, VIS, FAV, M, seat, buf)
        j = 0
        while j < count and number_of[_code(buf[j], nt)] != a:
            j += 1
        if j == count:
            raise ValueError("vector step: an illegal move")
        actor = seat
        while True:
            _note_sale(s_i, TKT, VIS, FAV, M, tr_i, tn_i, actor, buf[j])
            _play(s_i, l_i, d_i, TKT, VIS, FAV, M, actor, buf[j])
            if own:
                _own_chance(s_i, l_i, d_i, TKT, VIS, FAV, M, r_i)
            _pending_chance(s_i, l_i, d_i, TKT, VIS, FAV, M, r_i, own)  # explicit chance: the environment's
            _note_days(s_i, FAV, tr_i, tn_i, ds_i, m_i)
            if s_i[_S_STAGE] == 4:
                break
            actor = _current_seat(s_i, l_i)
            if actor == seat:
                break
            count = _legal(s_i, l_i, TKT, VIS, FAV, M, actor, buf)
            j = _agent_pick(s_i, l_i, TKT, VIS, FAV, M, HF, r_i, kinds[actor], actor, buf, count, wi, wf, tbv,
                            buyers, prizes, bests)
        _encode(s_i, l_i, d_i, TKT, VIS, FAV, M, tr_i, tn_i, ds_i, m_i, caesar, seat, off, obs[i])
        m = mask[i]
        m[:] = 0
        over = s_i[_S_STAGE] == 4
        terminated[i] = over
        rewards[i] = 0.0
        if over:  # returns(), as the playouts report them: [decisions, finished, scores..., returns...]
            out[:] = 0.0
            _outcome(s_i, out, 0)
            rewards[i] = out[2 + s_i[_S_N] + seat]
        else:
            count = _legal(s_i, l_i, TKT, VIS, FAV, M, seat, buf)
            for j in range(count):
                m[number_of[_code(buf[j], nt)]] = 1


# --------------------------------------------------------------------------- the protocol
class CircusMaximusSteps(CompiledSteps):
    """``num_envs`` slots of packed positions, traces of sales and scores, and generators, with the
    table that turns action codes into the action space's numbers; built by :func:`vector_steps`."""

    def __init__(self, playouts: CircusMaximusPlayouts, options: Any, tables: tuple[Any, ...], num_envs: int,
                 seat: int, kinds: Any, number_of: Any, offsets: Any, index: tuple[dict[str, int], ...],
                 sales: int) -> None:
        self._playouts = playouts
        self._options = options
        self._tables = tables  # tkt, vis, fav, misc, hf
        self._seat = seat
        self._kinds = kinds
        self._number_of = number_of
        self._off = offsets
        self._what_ix, self._visitor_ix = index
        n = kinds.shape[0]
        self._S = np.zeros((num_envs, _S_SIZE), dtype=np.int64)
        self._lines = np.zeros((num_envs, 5, _LINE_CAP), dtype=np.int64)
        self._draws = np.zeros((num_envs, _DRAW_CAP), dtype=np.int64)
        self._tr = np.zeros((num_envs, 1 + DAYS, n, sales, 3), dtype=np.int64)
        self._tn = np.zeros((num_envs, 1 + DAYS, n), dtype=np.int64)
        self._ds = np.zeros((num_envs, 1 + DAYS, n), dtype=np.int64)
        self._meta = np.zeros((num_envs, 2), dtype=np.int64)
        self._rngs = np.zeros((num_envs, POLICY_RNGS + n), dtype=np.uint64)
        self._has_rng = np.zeros(num_envs, dtype=np.bool_)

    def load(self, i: int, state: State, rng: Rng, agent_rngs: Sequence[Rng | None]) -> None:
        packed = self._playouts.pack(state)
        if packed is None or (state.options is not self._options and state.options != self._options):
            raise ValueError("a state of other options than these vector steps'")
        assert isinstance(state, CircusMaximusState)
        d = state.data
        sales = [[(d.ticket_kind_of[card] if not is_favour else len(d.tickets) + d.favour_kind_of[card],
                   d.visitor_kind_of[visitor], coins) for is_favour, card, visitor, coins in seat_sales]
                 for seat_sales in state.sales]
        days = [[[(self._what_ix[w], self._visitor_ix[v], c) for w, v, c in seat_sales] for seat_sales in day]
                for day in state.past_sales]
        scores = state.day_scores
        favour_coins = state.favour_coins
        cap = self._tr.shape[3]
        if (len(days) != len(scores) or len(scores) != (DAYS if state.stage == 4 else state.day - 1)
                or (favour_coins is None) != (state.stage != 4)
                or any(len(s) > cap for day in [sales, *days] for s in day)):
            raise ValueError("a position whose sales or scores are not those of the days it has played")
        for s in range(state.n):  # the trace works out each day's scores from the totals
            if state.totals[s] != sum(x[s] for x in scores) + (favour_coins[s] if favour_coins else 0):
                raise ValueError("a position whose totals are not its days' scores")
        self._S[i] = packed[0]
        self._lines[i] = packed[1]
        self._draws[i] = packed[2]
        tr, tn, ds = self._tr[i], self._tn[i], self._ds[i]
        tr[:] = 0
        tn[:] = 0
        ds[:] = 0
        for day, rows in enumerate([sales, *days]):
            for s, seat_sales in enumerate(rows):
                tn[day, s] = len(seat_sales)
                for j, sale in enumerate(seat_sales):
                    tr[day, s, j] = sale
        for day, row in enumerate(scores):
            ds[1 + day] = row
        if favour_coins is not None:
            ds[0] = favour_coins
        self._meta[i] = (len(scores), favour_coins is not None)
        self._has_rng[i] = self.load_generators(self._rngs[i], state, rng, agent_rngs)

    def step(self, actions: Any, live: Any, obs: Any, mask: Any, rewards: Any, terminated: Any) -> None:
        tkt, vis, fav, misc, hf = self._tables
        _step(self._S, self._lines, self._draws, tkt, vis, fav, misc, hf, self._rngs, self._has_rng, self._tr,
              self._tn, self._ds, self._meta, self._kinds, self._seat, bool(self._options.caesar), self._number_of,
              self._off, np.asarray(actions, dtype=np.int64), np.asarray(live, dtype=np.bool_), obs, mask, rewards,
              terminated)


def _row(action: Any, tickets: dict[str, int], visitors: dict[str, int]) -> list[int] | None:
    """The action row of .compiled for a player action, or None for one it has no row for."""
    favours = {k: f for f, k in enumerate(FAVOUR_KEYS)}
    lines = {k: li for li, k in enumerate(LINE_KEYS)}
    simple = {Pass: _A_PASS, Done: _A_DONE, PlayExtraVisitor: _A_EXTRA_VISITOR, PlayTicketVisitor: _A_TICKET_VISITOR,
              TakeStart: _A_TAKE_START, Skip: _A_SKIP}
    kind = simple.get(type(action))
    if kind is not None:
        return [kind, 0, 0, 0, 0, 0]
    if isinstance(action, Place) and action.line in lines and 1 <= action.rank <= 8:
        return [_A_PLACE, action.rank, lines[action.line], int(action.extra), int(action.boost), 0]
    if isinstance(action, PlaceVisitor) and action.venue in VENUE_KEYS:
        return [_A_PLACE_VISITOR, VENUE_KEYS.index(action.venue), 0, 0, 0, 0]
    if isinstance(action, PlayReplay) and action.line in lines and 1 <= action.rank <= 8:
        return [_A_REPLAY, action.rank, lines[action.line], 0, 0, 0]
    if isinstance(action, PlayMoveAhead) and 1 <= action.rank <= 8:
        return [_A_MOVE_AHEAD, action.rank, 0, 0, 0, 0]
    if isinstance(action, TakeFavour) and action.favour in favours:
        return [_A_TAKE_FAVOUR, favours[action.favour], 0, 0, 0, 0]
    if isinstance(action, TakeTicket) and action.ticket in tickets:
        return [_A_TAKE_TICKET, tickets[action.ticket], int(action.double), 0, 0, 0]
    if isinstance(action, Sell) and action.visitor in visitors and (action.ticket is None) != (action.favour is None):
        t = -1 if action.ticket is None else tickets.get(action.ticket)
        f = -1 if action.favour is None else favours.get(action.favour)
        if t is None or f is None:
            return None
        return [_A_SELL, visitors[action.visitor], t, f, int(action.legion), int(action.double)]
    return None


def _possible_rows(nt: int, nv: int, legion: int) -> list[list[int]]:
    """Every action row ``_legal`` can give (a Rank 1→8 boost only for rank 1, Ticket→Legionnaire
    only for the legionnaire kind)."""
    rows = [[_A_PLACE, r, li, e, b, 0] for r in range(1, 9) for li in range(5) for e in (0, 1)
            for b in ((0, 1) if r == 1 else (0,))]
    rows += [[kind, 0, 0, 0, 0, 0] for kind in _SIMPLE]
    rows += [[_A_PLACE_VISITOR, v, 0, 0, 0, 0] for v in range(3)]
    rows += [[_A_REPLAY, r, li, 0, 0, 0] for r in range(1, 9) for li in range(5)]
    rows += [[_A_MOVE_AHEAD, r, 0, 0, 0, 0] for r in range(1, 9)]
    rows += [[_A_TAKE_FAVOUR, f, 0, 0, 0, 0] for f in range(_NF)]
    rows += [[_A_TAKE_TICKET, t, dbl, 0, 0, 0] for t in range(nt) for dbl in (0, 1)]
    sellers = [(t, -1) for t in range(nt)] + [(-1, f) for f in range(_NF)]
    rows += [[_A_SELL, vk, t, f, lg, dbl] for vk in range(nv) for t, f in sellers
             for lg in ((0, 1) if vk == legion else (0,)) for dbl in (0, 1)]
    return rows


def _number_table(player_actions: Sequence[Any], tickets: dict[str, int], visitors: dict[str, int],
                  legion: int) -> Any:
    """``number_of[code]``, the action space's number of each action code (-1 for none, the first
    number where two name the same move); None when a move ``_legal`` can give has no number
    (the mask could not show it)."""
    nt, nv = len(tickets), len(visitors)
    number_of = np.full(_C_TAKE_TICKET + 2 * nt + nv * (nt + _NF) * 4, -1, dtype=np.int64)
    for number, action in enumerate(player_actions):
        row = _row(action, tickets, visitors)
        if row is None:
            continue
        code = _code(np.array(row, dtype=np.int64), nt)
        if number_of[code] < 0:
            number_of[code] = number
    for row in _possible_rows(nt, nv, legion):
        if number_of[_code(np.array(row, dtype=np.int64), nt)] < 0:
            return None
    return number_of


def vector_steps(playouts: CircusMaximusPlayouts, options: Any, num_envs: int, seat: int,
                 kinds: Sequence[str | None], player_actions: Sequence[Any]) -> CircusMaximusSteps | None:
    """:meth:`CircusMaximusPlayouts.vector_steps`: None for options it does not pack (a card file
    too large for its bitmasks), an agent kind it does not compile, an encoder other than the
    game's exact one (or laid out otherwise), or an action space that does not number every move."""
    from .. import observation_encoder
    from .encoding import TASKS, CircusMaximusEncoder
    from .game import GAME
    from .options import CircusMaximusOptions

    if not isinstance(options, CircusMaximusOptions):
        return None
    state = GAME.new_initial_state(options)
    assert isinstance(state, CircusMaximusState)
    packed = playouts.pack(state)
    if packed is None:
        return None
    n = GAME.num_seats(options)
    agents = playouts.learner_agent_codes(kinds, seat, n)
    if agents is None:
        return None
    encoder = observation_encoder(GAME, options)
    d = state.data
    tickets = {t.key: k for k, t in enumerate(d.tickets)}
    visitors = {v.key: k for k, v in enumerate(d.visitors)}
    if (type(encoder) is not CircusMaximusEncoder or encoder.n != n or encoder.ticket_ix != tickets
            or encoder.visitor_ix != visitors or len(tickets) != len(d.tickets) or len(visitors) != len(d.visitors)
            or {code: i for i, code in enumerate(TASKS)} != _TASK_CODE
            or encoder.what_ix != {**tickets, **{"favour:" + k: len(tickets) + f for f, k in enumerate(FAVOUR_KEYS)}}):
        return None  # (_encode writes the packed kinds and codes as the encoder's slots)
    at = encoder.offsets()
    if any(name not in at for name in _PIECES):
        return None
    offsets = np.array([at[name] for name in _PIECES], dtype=np.int64)
    tkt, vis, fav, misc, hf = packed[3:8]
    if misc[_M_NT] != len(tickets) or misc[_M_NV] != len(visitors):
        return None
    number_of = _number_table(player_actions, tickets, visitors, int(misc[_M_LEG_KIND]))
    if number_of is None:
        return None
    return CircusMaximusSteps(playouts, options, (tkt, vis, fav, misc, hf), num_envs, seat,
                              np.array(agents, dtype=np.int64), number_of, offsets,
                              (encoder.what_ix, encoder.visitor_ix), encoder.sales)
