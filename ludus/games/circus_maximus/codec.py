"""Circus Maximus position codec: a state as position JSON, and the checking reader of it.

A position is every field the rules keep, written as plain JSON (card sets as bitmasks over
card ids, see :mod:`.cards`). Position JSON comes from outside (saved games, the server), so
the reader trusts nothing: it checks every field's type and bounds, that every card is in
exactly one place, and that the position is one the rules stop at, before any state is built.
"""

from __future__ import annotations

from typing import Any

from ...core.bits import popcount
from ...core.errors import RecordError
from ...core.fields import required, show, whole_number
from ...core.game import Game
from ...core.rng import Rng
from .actions import LINE_KEYS, Pass
from .cards import ALL_TRADERS, CardData
from .options import CircusMaximusOptions
from .rules import (
    DAYS,
    T_FAVOUR,
    T_SETUP_VISITORS,
    T_SPECIAL,
    T_TICKET,
    T_TICKET_PLAYER,
    T_VISITOR,
    T_VISITOR_CHOICE,
    TASKS,
    CircusMaximusState,
    _phase_lines,
)
from .views import _jsonable

__all__ = ["position_of", "position_to_state"]

# The state's fields written as they are (ints, bools, lists of ints), in this order.
_INT_FIELDS = ("day", "stage", "turn", "passed", "extra", "pending_visitor", "res_line", "res_pos",
               "fav_deck", "fav_display", "fav_gone", "starting", "tkt_deck", "forum", "vis_deck",
               "vis_box", "vis_aside")
_BOOL_FIELDS = ("resolving", "turn_done", "res_again", "sp_at_villa", "caesar_used")
_INT_LISTS = ("hands", "favours", "tickets", "setup_counts", "bonus", "venue_vis", "totals")


def position_of(st: CircusMaximusState) -> dict[str, Any]:
    """The position JSON of a state (``State._position``): every field the rules keep, as written."""
    out: dict[str, Any] = {}
    for name in _INT_FIELDS + _BOOL_FIELDS + _INT_LISTS:
        value = getattr(st, name)
        out[name] = list(value) if isinstance(value, list) else value
    out["draws"] = [list(t) for t in st.draws]
    out["lines"] = [[list(e) for e in line] for line in st.lines]
    out["sales"] = [[list(e) for e in s] for s in st.sales]
    out["day_scores"] = [list(x) for x in st.day_scores]
    out["past_sales"] = _jsonable(tuple(st.past_sales))
    out["favour_coins"] = None if st.favour_coins is None else list(st.favour_coins)
    return out


_MAX_DRAWS = 64
_MAX_COINS = 10**6
"""Bounds for numbers the rules keep small; a position with more is refused, never built."""


def _pos_int(v: Any, what: str, lo: int, hi: int) -> int:
    return whole_number(v, f"position field {what!r}", lo, hi)


def _pos_mask(v: Any, what: str, full: int) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v & ~full:
        raise RecordError(f"position field {what!r} must be a set of card ids of this deck "
                          f"(a bitmask within {full:#x}), not {show(v, 40)}")
    return v


def _pos_list(v: Any, what: str, size: int | None = None) -> list[Any]:
    if not isinstance(v, list) or (size is not None and len(v) != size):
        raise RecordError(f"position field {what!r} must be a list" + ("" if size is None else f" of {size}"))
    return v


def position_to_state(game: Game, options: CircusMaximusOptions, rng: Rng | None, data: Any,
                      cards: CardData) -> CircusMaximusState:
    """Inverse of :func:`position_of`. Every field is checked (bounds, card ids within
    their deck, one entry per seat), every card must be in exactly one place, and the position as
    a whole must be one the rules stop at (a chance node with a card to draw, or a decision for a
    seat that has one); anything else raises RecordError naming the field."""
    if not isinstance(data, dict):
        raise RecordError("a Circus Maximus position must be an object")
    st = CircusMaximusState(game, options, rng, cards)
    n = st.n
    d = cards

    def f(name: str) -> Any:
        return required(data, name)

    st.day = _pos_int(f("day"), "day", 1, DAYS)
    st.stage = _pos_int(f("stage"), "stage", 0, 4)
    st.turn = _pos_int(f("turn"), "turn", 0, n - 1)
    st.starting = _pos_int(f("starting"), "starting", 0, n - 1)
    st.passed = _pos_int(f("passed"), "passed", 0, (1 << n) - 1)
    st.extra = _pos_int(f("extra"), "extra", 0, 1)
    st.pending_visitor = _pos_int(f("pending_visitor"), "pending_visitor", -1, len(d.visitor_kind_of) - 1)
    st.res_line = _pos_int(f("res_line"), "res_line", 0, len(LINE_KEYS) - 1)
    st.res_pos = _pos_int(f("res_pos"), "res_pos", 0, 8 * n)
    for name in ("fav_deck", "fav_display", "fav_gone"):
        setattr(st, name, _pos_mask(f(name), name, d.all_favours))
    for name in ("tkt_deck", "forum"):
        setattr(st, name, _pos_mask(f(name), name, d.all_tickets))
    for name in ("vis_deck", "vis_box", "vis_aside"):
        setattr(st, name, _pos_mask(f(name), name, d.all_visitors))
    for name in _BOOL_FIELDS:
        if not isinstance(f(name), bool):
            raise RecordError(f"position field {name!r} must be true or false")
        setattr(st, name, data[name])
    st.hands = [_pos_mask(x, "hands", ALL_TRADERS) for x in _pos_list(f("hands"), "hands", n)]
    st.favours = [_pos_mask(x, "favours", d.all_favours) for x in _pos_list(f("favours"), "favours", n)]
    st.tickets = [_pos_mask(x, "tickets", d.all_tickets) for x in _pos_list(f("tickets"), "tickets", n)]
    st.setup_counts = [_pos_int(x, "setup_counts", 0, 2 * n) for x in _pos_list(f("setup_counts"), "setup_counts", 3)]
    st.bonus = [_pos_int(x, "bonus", 0, DAYS - 1) for x in _pos_list(f("bonus"), "bonus", 3)]
    st.venue_vis = [_pos_mask(x, "venue_vis", d.all_visitors) for x in _pos_list(f("venue_vis"), "venue_vis", 3)]
    st.totals = [_pos_int(x, "totals", 0, _MAX_COINS) for x in _pos_list(f("totals"), "totals", n)]
    st.draws = []
    for t in _pos_list(f("draws"), "draws"):
        if not (isinstance(t, list) and len(t) == 2 and isinstance(t[0], str) and t[0] in TASKS):
            raise RecordError(f"position field 'draws': bad pending draw {show(t, 40)}")
        code = t[0]
        top = 2 if code == T_VISITOR else n - 1 if code in (T_VISITOR_CHOICE, T_TICKET_PLAYER) else 0
        st.draws.append((code, _pos_int(t[1], f"draws ({code})", 0, top)))
    if len(st.draws) > _MAX_DRAWS:
        raise RecordError(f"position field 'draws' holds more than {_MAX_DRAWS} pending draws")
    st.lines = []
    for line in _pos_list(f("lines"), "lines", len(LINE_KEYS)):
        entries: list[tuple[int, int, int]] = []
        for e in _pos_list(line, "lines"):
            if not (isinstance(e, list) and len(e) == 3):
                raise RecordError("position field 'lines': a trader is [seat, rank, effective rank], "
                                  f"not {show(e, 40)}")
            s, r, eff = (_pos_int(x, "lines", 0, 8) for x in e)
            if not (s < n and 1 <= r <= eff <= 8):
                raise RecordError(f"position field 'lines': bad trader {e!r}")
            if entries and entries[-1][2] < eff:
                raise RecordError("position field 'lines': a line is ordered by effective rank, highest first")
            entries.append((s, r, eff))
        st.lines.append(entries)
    st.sales = []
    for seat_sales in _pos_list(f("sales"), "sales", n):
        rows = []
        for e in _pos_list(seat_sales, "sales"):
            if not (isinstance(e, list) and len(e) == 4):
                raise RecordError("position field 'sales': a sale is [is_favour, card, visitor, coins]")
            is_favour = _pos_int(e[0], "sales", 0, 1)
            top = len(d.favour_kind_of if is_favour else d.ticket_kind_of) - 1
            rows.append((is_favour, _pos_int(e[1], "sales", 0, top),
                         _pos_int(e[2], "sales", 0, len(d.visitor_kind_of) - 1),
                         _pos_int(e[3], "sales", 0, _MAX_COINS)))
        st.sales.append(rows)
    done_days = DAYS if st.stage == 4 else st.day - 1
    st.day_scores = [[_pos_int(x, "day_scores", 0, _MAX_COINS) for x in _pos_list(row, "day_scores", n)]
                     for row in _pos_list(f("day_scores"), "day_scores", done_days)]
    st.past_sales = []
    for day in _pos_list(f("past_sales"), "past_sales", done_days):
        seats = []
        for seat in _pos_list(day, "past_sales", n):
            sales = []
            for e in _pos_list(seat, "past_sales"):
                if not (isinstance(e, list) and len(e) == 3 and isinstance(e[0], str) and isinstance(e[1], str)):
                    raise RecordError("position field 'past_sales': a sale is [what, visitor, coins]")
                sales.append((e[0], e[1], _pos_int(e[2], "past_sales", 0, _MAX_COINS)))
            seats.append(tuple(sales))
        st.past_sales.append(tuple(seats))
    fc = f("favour_coins")
    if (fc is None) != (st.stage != 4):
        raise RecordError("position field 'favour_coins' is given exactly when the game is over")
    st.favour_coins = None if fc is None else [_pos_int(x, "favour_coins", 0, _MAX_COINS)
                                               for x in _pos_list(fc, "favour_coins", n)]
    problem = st.check_cards()
    if problem is not None:
        raise RecordError(f"position is inconsistent: {problem}")
    _check_flow(st)
    _check_setup(st)
    return st


def _check_flow(st: CircusMaximusState) -> None:
    """What the day, phase and resolution require; the fields are already in range."""
    d, n, stage = st.data, st.n, st.stage
    expected = [sum(row[s] for row in st.day_scores) + (st.favour_coins[s] if st.favour_coins else 0)
                for s in range(n)]
    if st.totals != expected:
        raise RecordError("position field 'totals' must add up the day scores (and favours at the end)")
    box = 0 if st.options.caesar else d.caesar_mask
    gone = 0
    if n == 3:
        for m in d.favour_masks:
            if m:
                gone |= m & -m
        for k, m in enumerate(d.visitor_masks):
            if m and k != d.caesar_kind:
                box |= m & -m
    if st.vis_box != box or st.fav_gone & gone != gone:
        raise RecordError("position fields 'vis_box' and 'fav_gone' must hold the cards this game sorts out")
    if st.caesar_used != bool(st.vis_aside) or st.vis_aside & ~d.caesar_mask:
        raise RecordError("position field 'vis_aside' holds Caesar exactly when he has been used today")
    used_lines = {li for s in range(1, min(stage, 3) + 1) for li in _phase_lines(s)}
    if any(st.lines[li] for li in range(len(LINE_KEYS)) if li not in used_lines):
        raise RecordError("position field 'lines': a line of a later phase already has traders")
    seen = set()
    for line in st.lines:
        for s, r, _e in line:
            if (s, r) in seen:
                raise RecordError(f"position field 'lines': seat {s}'s trader {r} stands in two places")
            seen.add((s, r))
    if any(st.sales) and stage < 3:
        raise RecordError("position field 'sales': sales happen only in phase III")
    if stage == 4:
        if st.day != DAYS or st.draws or st.pending_visitor >= 0 or st.resolving or st.turn_done or st.res_again:
            raise RecordError("position stage 4 (game over) comes after the last day, with nothing pending")
        return
    if not st.resolving and st.res_again:
        raise RecordError("position field 'res_again' is set only while a line is worked off")
    if st.turn_done and not st.draws and st.pending_visitor < 0:
        raise RecordError("position field 'turn_done' is set only while a draw or a visitor is pending")
    if st.draws:
        code = st.draws[0][0]
        if code == T_SETUP_VISITORS or not st._draw_source(code)[0]:
            raise RecordError("position field 'draws': the first pending draw has no card to draw")
    if stage == 0:
        if not st.draws or st.resolving or st.pending_visitor >= 0 or any(st.lines) or st.res_again:
            raise RecordError("position stage 0 is the dealing before phase I: only draws are pending")
        return
    if st.pending_visitor >= 0 and (st.resolving or not st.turn_done):
        raise RecordError("position field 'pending_visitor': a +Visitor card waits only during placement")
    if st.resolving:
        if st.res_line not in _phase_lines(stage) or st.res_pos > len(st.lines[st.res_line]):
            raise RecordError("position fields 'res_line' and 'res_pos' must point into a line of this phase")
        if st.extra or st.turn_done:
            raise RecordError("position fields 'extra' and 'turn_done' are clear while lines are worked off")
        if not st.draws and not st._resolving_waits():
            raise RecordError("position: the trader whose pick it is has nothing to pick")
        return
    if st.passed >> st.turn & 1 and not st.turn_done:
        raise RecordError("position field 'turn': the seat to move has passed")
    if not st.draws and st.pending_visitor < 0 and not any(
            not isinstance(a, Pass) for a in st.legal_actions(st.turn)):
        raise RecordError("position field 'turn': the seat to move can only pass (it would have passed)")


def _check_setup(st: CircusMaximusState) -> None:
    """What the setup table fixes for this player count and day: each day deals as many favour
    cards as players (from a deck that is never rebuilt), and twice as many tickets as players
    plus one special-event ticket per day after the first; the starting-player card lies at the
    villa until phase I is worked off. (The cards a 3-player game sorts out are checked with
    the flow, and every trader of every seat by ``check_cards``.)"""
    d, n, stage, day = st.data, st.n, st.stage, st.day
    gone = 0  # the favours a 3-player game sorts out (one of each kind)
    if n == 3:
        for m in d.favour_masks:
            gone |= m & -m
    codes = [code for code, _arg in st.draws]
    dealing = (T_FAVOUR, T_TICKET, T_SPECIAL, T_SETUP_VISITORS)
    deal = [T_FAVOUR] * n + [T_TICKET] * (2 * n) + [T_SPECIAL] * (day - 1) + [T_SETUP_VISITORS]
    if stage == 0:
        if any(c in dealing for c in codes) and codes != deal[len(deal) - len(codes):]:
            raise RecordError(f"position field 'draws': with {n} players day {day} deals {n} favour cards, "
                              f"{2 * n} tickets and {day - 1} special-event tickets, in this order")
        if any(c in dealing for c in codes) and any(c not in dealing for c in codes):
            raise RecordError("position field 'draws': visitors are drawn only after the day's tickets")
    elif any(c in dealing for c in codes):
        raise RecordError("position field 'draws': the day's dealing is over after stage 0")
    pend_f, pend_t, pend_s = codes.count(T_FAVOUR), codes.count(T_TICKET), codes.count(T_SPECIAL)

    # favour cards: n a day from a deck that is not rebuilt
    start = popcount(d.all_favours & ~gone)
    before = min(start, (day - 1) * n)
    today = n - pend_f if pend_f else min(n, start - before)
    if popcount(st.fav_deck) != start - before - today:
        raise RecordError(f"position field 'fav_deck' must hold {start - before - today} favour cards on day "
                          f"{day} with {n} players (as many are dealt a day as players), "
                          f"not {popcount(st.fav_deck)}")
    shown = popcount(st.fav_display)
    if stage == 0 or (stage == 1 and not st.resolving):
        if shown != today:
            raise RecordError(f"position field 'fav_display' must hold the {today} favour cards dealt today "
                              f"with {n} players, not {shown}")
    elif stage == 1:
        if shown > today:
            raise RecordError(f"position field 'fav_display' holds {shown} favour cards; {today} were dealt today")
    elif shown:
        raise RecordError("position field 'fav_display' is empty once the villa has been worked off")
    if (stage == 0 or (stage == 1 and not st.resolving)) != st.sp_at_villa and not (stage == 1 and st.resolving):
        raise RecordError("position field 'sp_at_villa': the starting-player card lies at the villa from the "
                          "deal until phase I is worked off, and only then")

    # tickets: 2n regular ones and day-1 special-event ones from a full deck each day
    total = popcount(d.all_tickets)
    regular = 2 * n - pend_t if pend_t else min(2 * n, total)
    special = day - 1 - pend_s if pend_t or pend_s else min(day - 1, total - regular)
    if sum(st.setup_counts) != regular:
        raise RecordError(f"position field 'setup_counts' must count the {regular} regular tickets dealt today "
                          f"with {n} players, not {sum(st.setup_counts)}")
    if sum(st.bonus) != special:
        raise RecordError(f"position field 'bonus' must count the {special} special-event tickets of day {day}, "
                          f"not {sum(st.bonus)}")
