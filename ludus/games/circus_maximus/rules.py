"""Circus Maximus rules: the State, three days of queues at five locations.

Each day opens with dealing (chance), then three placement phases (villa, forum, the three
venues). In a placement phase players take turns putting traders into lines, sorted by
rank, until everyone has passed; then each line is worked off from its front, one pick per
trader. Scoring closes the day. See ``docs/games/circus-maximus.md`` for every rule as
implemented and the decisions taken where the rulebook is silent.

Everything on the table is public (favours are taken face up from a face-up display, so
each hand is known to anyone who watched), and decks are unordered sets: a draw is a chance
outcome "the next card is of kind K" with probability count(K) / deck size. Hence the only
unknown for any seat is the future, and a determinization is the state itself.

This module owns setup, legal actions and the reasons an illegal move is refused, the moves
themselves, chance outcomes and scoring. What a seat sees is built in :mod:`.views`, the
position JSON is written and read in :mod:`.codec`, and determinization is in :mod:`.sampler`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.bits import iter_bits, popcount
from ...core.errors import IllegalAction, Refusal
from ...core.game import CHANCE, Action, Game, State
from ...core.memo import derived
from ...core.rng import Rng
from .actions import (
    FORUM,
    LINE_KEYS,
    LINE_NAMES,
    VILLA,
    Done,
    DrawFavour,
    DrawTicket,
    DrawVisitor,
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
    favour_name,
    visitor_name,
)
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
    VENUE_KEYS,
    CardData,
    ticket_key_name,
)
from .fast import (
    DONE,
    DRAW_FAVOURS,
    MOVES_AHEAD,
    PASS,
    PLACE_VISITORS,
    PLAY_EXTRA_VISITOR,
    PLAY_TICKET_VISITOR,
    REPLAYS,
    SKIP,
    TAKE_FAVOURS,
    TAKE_START,
    CardMoves,
    place_moves,
)
from .fast import phase_lines as _phase_lines
from .options import CircusMaximusOptions
from .views import PHASE_NAMES, observe

__all__ = [
    "DAYS",
    "TASKS",
    "T_FAVOUR",
    "T_SETUP_VISITORS",
    "T_SPECIAL",
    "T_TICKET",
    "T_TICKET_PLAYER",
    "T_VISITOR",
    "T_VISITOR_CHOICE",
    "CircusMaximusState",
]

DAYS = 3

F_EXTRA_VISITOR = FAVOUR_KEYS.index(EXTRA_VISITOR)
F_EXTRA_TRADER = FAVOUR_KEYS.index(EXTRA_TRADER)
F_LEGIONNAIRE = FAVOUR_KEYS.index(LEGIONNAIRE)
F_DOUBLE_TICKET = FAVOUR_KEYS.index(DOUBLE_TICKET)
F_DOUBLE_SALE = FAVOUR_KEYS.index(DOUBLE_SALE)
F_REPLAY = FAVOUR_KEYS.index(REPLAY_TRADER)
F_TICKET_VISITOR = FAVOUR_KEYS.index(TICKET_AND_VISITOR)
F_RANK_BOOST = FAVOUR_KEYS.index(RANK_BOOST)
F_MOVE_AHEAD = FAVOUR_KEYS.index(MOVE_AHEAD)

# Chance tasks waiting in State.draws: (code, argument)
T_FAVOUR = "F"  # favour card to the villa display
T_TICKET = "T"  # ticket to the forum (the day's regular tickets)
T_SPECIAL = "S"  # special-event ticket to the forum (its venue pays a coin more per visitor)
T_SETUP_VISITORS = "SV"  # marker: all tickets are out, queue the visitors for them
T_VISITOR = "V"  # visitor to venue ``arg``
T_VISITOR_CHOICE = "VP"  # visitor for +Visitor; seat ``arg`` then picks its venue
T_TICKET_PLAYER = "TP"  # ticket straight to seat ``arg`` (II +Ticket +Visitor), then a visitor
TASKS = (T_FAVOUR, T_TICKET, T_SPECIAL, T_SETUP_VISITORS, T_VISITOR, T_VISITOR_CHOICE, T_TICKET_PLAYER)


REFUSAL = "circus-maximus."
"""The prefix of this game's refusal codes (a Refusal's code: ``circus-maximus.no-favour``...). Their
params are codes and numbers only: ``line`` a line's key ("villa", "forum", "circus"), ``lines``
a list of them, ``favour`` a favour's key, ``ticket`` a ticket's key ("circus:box"), ``visitor``
a visitor's key, ``stage`` a phase's number, ``rank`` a trader's rank, ``count``/``held`` counts."""


def _refuse(text: str, code: str, **params: Any) -> Refusal:
    """A refused move: the English sentence, with its code (``REFUSAL`` + ``code``) and params."""
    return Refusal(text, REFUSAL + code, params)


def _at(line: int) -> str:
    """A line's name as a sentence uses it ("the Forum Romanum", but "Caesar's Villa")."""
    name = LINE_NAMES[line]
    return name if name.startswith("Caesar") else f"the {name}"


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class CircusMaximusState(State[CircusMaximusOptions]):
    """One position. Card zones are bitmasks over card ids (see :mod:`.cards`)."""

    def __init__(self, game: Game, options: CircusMaximusOptions, rng: Rng | None, data: CardData) -> None:
        super().__init__(game, options, rng)
        self.data = data
        self._moves = derived(data, CardMoves)  # the moves naming these cards, made once
        fm = data.favour_masks
        # the favours played instead of a trader: a seat holding none of them can only place or pass
        self._instead_mask = fm[F_EXTRA_VISITOR] | fm[F_REPLAY] | fm[F_TICKET_VISITOR] | fm[F_MOVE_AHEAD]
        self.n = options.players
        n = self.n
        self.day = 1
        self.stage = 0
        self.resolving = False
        self.turn = 0
        self.passed = 0
        self.extra = 0
        self.turn_done = False
        self.pending_visitor = -1
        self.draws: list[tuple[str, int]] = []
        self.res_line = 0
        self.res_pos = 0
        self.res_again = False
        self.lines: list[list[tuple[int, int, int]]] = [[] for _ in LINE_KEYS]
        self.hands = [ALL_TRADERS] * n
        self.favours = [0] * n
        self.tickets = [0] * n
        self.sales: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]  # (is_favour, card, visitor, coins)
        self.fav_deck = data.all_favours
        self.fav_display = 0
        self.fav_gone = 0
        self.sp_at_villa = True
        self.starting = 0
        self.tkt_deck = data.all_tickets
        self.forum = 0
        self.setup_counts = [0, 0, 0]
        self.bonus = [0, 0, 0]
        self.vis_deck = data.all_visitors
        self.vis_box = 0
        self.venue_vis = [0, 0, 0]
        self.vis_aside = 0
        self.caesar_used = False
        self.totals = [0] * n
        self.day_scores: list[list[int]] = []
        self.past_sales: list[tuple[tuple[tuple[str, str, int], ...], ...]] = []  # per day, per seat
        self.favour_coins: list[int] | None = None

    # ================================================================ setup
    def _setup_game(self) -> None:
        """Sort out the cards this game does not use, then queue the first day's dealing."""
        d = self.data
        if not self.options.caesar:
            self.vis_box |= d.caesar_mask
        if self.n == 3:
            for m in d.favour_masks:
                if m:
                    self.fav_gone |= m & -m
            for k, m in enumerate(d.visitor_masks):
                if m and k != d.caesar_kind:
                    self.vis_box |= m & -m
        self.fav_deck &= ~self.fav_gone
        self.vis_deck &= ~self.vis_box
        self._queue_day()
        self._advance()

    def _queue_day(self) -> None:
        n = self.n
        self.draws = ([(T_FAVOUR, 0)] * n + [(T_TICKET, 0)] * (2 * n)
                      + [(T_SPECIAL, 0)] * (self.day - 1) + [(T_SETUP_VISITORS, 0)])

    # ================================================================ queries
    def current_seats(self) -> tuple[int, ...]:
        if self.draws:
            return (CHANCE,)
        if self.stage == 4:
            return ()
        if self.pending_visitor >= 0:
            return (self.turn,)
        if self.resolving:
            return (self.lines[self.res_line][self.res_pos][0],)
        return (self.turn,)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if not self.draws:
            return super().chance_outcomes()
        deck, masks, make = self._draw_source(self.draws[0][0])
        total = popcount(deck)
        out: list[tuple[Action, float]] = []
        for k, m in enumerate(masks):
            c = popcount(deck & m)
            if c:
                out.append((make(k), c / total))
        return out

    def sample_chance(self, rng: Rng) -> Action:
        """Uniform over the cards left, walking kinds in order so card ids never matter."""
        deck, masks, make = self._draw_source(self.draws[0][0])
        r = rng.below(popcount(deck))
        for k, m in enumerate(masks):
            c = popcount(deck & m)
            if r < c:
                return make(k)
            r -= c
        raise AssertionError("empty deck at a chance node")  # pragma: no cover

    def _draw_source(self, code: str) -> tuple[int, tuple[int, ...], Any]:
        """The deck a draw comes from, its masks by kind, and the outcomes by kind (made once)."""
        d = self.data
        if code == T_FAVOUR:
            return self.fav_deck, d.favour_masks, DRAW_FAVOURS.__getitem__
        if code in (T_TICKET, T_SPECIAL, T_TICKET_PLAYER):
            return self.tkt_deck, d.ticket_masks, self._moves.draw_tickets.__getitem__
        return self.vis_deck, d.visitor_masks, self._moves.draw_visitors.__getitem__

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        seat = self._acting_seat(seat)
        if seat is None:
            return []
        if seat == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return self._legal(seat)

    def why_illegal(self, action: Action, seat: int) -> str | None:
        return self._check(action, seat)

    def scores(self) -> list[float]:
        return [float(s) for s in self.totals]

    def winners(self) -> list[int]:
        if self.stage != 4:
            return []
        best = max(self.totals)
        return [s for s in range(self.n) if self.totals[s] == best]

    # ------------------------------------------------------------ helpers
    def _held(self, seat: int, favour: int) -> int:
        return popcount(self.favours[seat] & self.data.favour_masks[favour])

    def _find(self, seat: int, rank: int) -> tuple[int, int] | None:
        """(line, index) of ``seat``'s trader ``rank`` if it stands in a line."""
        for li, line in enumerate(self.lines):
            for i, (s, r, _e) in enumerate(line):
                if s == seat and r == rank:
                    return li, i
        return None

    def _sellable(self, venue: int) -> int:
        return self.venue_vis[venue] & ~self.data.caesar_mask

    def _caesar_here(self, venue: int) -> bool:
        return not self.caesar_used and bool(self.venue_vis[venue] & self.data.caesar_mask)

    def _decision(self) -> str:
        """Which kind of decision the state waits for: place, visitor, villa, forum, venue, chance, over."""
        if self.draws:
            return "chance"
        if self.stage == 4:
            return "over"
        if self.pending_visitor >= 0:
            return "visitor"
        if self.resolving:
            return "villa" if self.res_line == VILLA else "forum" if self.res_line == FORUM else "venue"
        return "place"

    # ================================================================ legality
    # Legal moves are generated directly from the position, in the order players and records
    # have always seen them; the refusal checks below (``_check``) say why any other move is
    # refused and are not run for generation. ``tests/games/circus_maximus/test_fast_legal.py``
    # keeps the old generator (a superset of candidates, each checked by ``_check``) and tests
    # that both give the same list over thousands of positions.
    def _legal(self, seat: int) -> list[Action]:
        """The legal moves of ``seat``, which must be the seat to act (not chance, game not over)."""
        if self.pending_visitor >= 0:
            return list(PLACE_VISITORS)
        if not self.resolving:
            return self._legal_place(seat)
        li = self.res_line
        if li == VILLA:
            fm = self.data.favour_masks
            display = self.fav_display
            out: list[Action] = [TAKE_FAVOURS[k] for k in range(len(fm)) if display & fm[k]]
            if self.sp_at_villa:
                out.append(TAKE_START)
            return out
        if li == FORUM:
            return self._legal_forum(seat)
        return self._legal_venue(seat, li - 2)

    def _legal_place(self, seat: int) -> list[Action]:
        """Placement: traders (by rank, line, +Trader, Rank 1→8), then Done or Pass, then the
        favours played instead of a trader."""
        fm = self.data.favour_masks
        fav = self.favours[seat]
        hand = self.hands[seat]
        stage = self.stage
        extra = bool(fav & fm[F_EXTRA_TRADER]) and bool(hand & (hand - 1))  # held, and two traders
        out: list[Action] = list(place_moves(hand, stage, extra, bool(fav & fm[F_RANK_BOOST])))
        if self.extra:
            out.append(DONE)
            return out
        out.append(PASS)
        if fav & self._instead_mask:
            self._instead_moves(seat, fav, out)
        return out

    def _instead_moves(self, seat: int, fav: int, out: list[Action]) -> None:
        """Append the favours ``seat`` (holding favour cards ``fav``) may play instead of a trader."""
        fm = self.data.favour_masks
        stage = self.stage
        lines = _phase_lines(stage)
        if fav & fm[F_EXTRA_VISITOR] and self.vis_deck:
            out.append(PLAY_EXTRA_VISITOR)
        if fav & fm[F_REPLAY] and stage >= 2:
            for rank in range(1, 9):
                found = self._find(seat, rank)
                if found is not None and found[0] not in lines:
                    out += [REPLAYS[rank][li] for li in lines]
        if fav & fm[F_TICKET_VISITOR] and stage == 2 and self.tkt_deck:
            out.append(PLAY_TICKET_VISITOR)
        if fav & fm[F_MOVE_AHEAD]:
            for li in lines:
                for s, r, _e in self.lines[li][1:]:
                    if s == seat:
                        out.append(MOVES_AHEAD[r])

    def _can_do_more(self, seat: int) -> bool:
        """Whether ``seat``, given the turn in a placement phase, has a legal move other than
        Pass: exactly ``any(not isinstance(a, Pass) for a in self.legal_actions(seat))``, without
        building the moves."""
        if self.hands[seat] or self.extra:
            return True  # a trader to place (or, mid +Trader, Done)
        fav = self.favours[seat]
        if not fav & self._instead_mask:
            return False
        out: list[Action] = []
        self._instead_moves(seat, fav, out)
        return bool(out)

    def _legal_forum(self, seat: int) -> list[Action]:
        """Forum: each ticket kind on display, alone and (II +Ticket, two left) with a second."""
        d = self.data
        forum = self.forum
        tm = d.ticket_masks
        double = bool(self.favours[seat] & d.favour_masks[F_DOUBLE_TICKET]) and popcount(forum) >= 2
        takes = self._moves.take_tickets
        out: list[Action] = []
        for k in range(len(tm)):
            if forum & tm[k]:
                if double:
                    out += takes[k]
                else:
                    out.append(takes[k][0])
        return out

    def _legal_venue(self, seat: int, v: int) -> list[Action]:
        """A venue: each waiting visitor kind, bought with each ticket for this venue held (then,
        beside Caesar, each favour kind held), without and with Ticket→Legionnaire (Legionnaires
        only) and III +Ticket; then Skip when holding no ticket for the venue."""
        d = self.data
        moves = self._moves
        fm = d.favour_masks
        fav = self.favours[seat]
        tickets = self.tickets[seat]
        tm = d.ticket_masks
        sellers: list[tuple[str | None, str | None, int]] = []  # (ticket, favour, favour kind or -1)
        for k, t in enumerate(d.tickets):
            if t.venue == v and tickets & tm[k]:
                sellers.append((t.key, None, -1))
        caesar = self._caesar_here(v)
        if caesar:
            for k in range(len(fm)):
                if fav & fm[k]:
                    sellers.append((None, FAVOUR_KEYS[k], k))
        out: list[Action] = []
        sellable = self._sellable(v)
        if sellers and sellable:
            legion = popcount(fav & fm[F_LEGIONNAIRE])
            double = popcount(fav & fm[F_DOUBLE_SALE])
            legions = (False, True) if legion else (False,)
            doubles = (False, True) if double else (False,)
            # III +Ticket: a second visitor, and a second ticket or (beside Caesar) a favour left
            two_visitors = popcount(sellable) >= 2
            venue_tickets = popcount(tickets & d.venue_ticket_masks[v])
            favours_held = popcount(fav)
            vm = d.visitor_masks
            legion_kind = d.legionnaire_kind
            sell = moves.sell
            for k, vk in enumerate(d.visitors):
                if not sellable & vm[k]:
                    continue
                for ticket, favour, fk in sellers:
                    for lg in legions if k == legion_kind else (False,):
                        if lg and fk == F_LEGIONNAIRE and legion < 2:
                            continue
                        for dbl in doubles:
                            if dbl:
                                if (fk == F_DOUBLE_SALE and double < 2) or not two_visitors:
                                    continue
                                if ticket is not None:
                                    left = venue_tickets > 1 or (caesar and favours_held - lg - 1 > 0)
                                else:
                                    left = venue_tickets > 0
                                if not left:
                                    continue
                            out.append(sell(vk.key, ticket, favour, lg, dbl))
        if not tickets & d.venue_ticket_masks[v]:
            out.append(SKIP)
        return out

    def _check(self, action: Action, seat: int) -> str | None:
        """Why ``seat`` may not play ``action`` now (a sentence for the player), or None."""
        seats = self.current_seats()
        if not seats:
            return Refusal("the game is over", "game-over")
        if seat not in seats:
            return _refuse("it is not your turn", "not-your-turn")
        if seat == CHANCE:
            if any(a == action for a, _ in self.chance_outcomes()):
                return None
            return _refuse("not a possible draw now", "not-a-draw")
        return self._check_move(action, seat)

    def _check_move(self, action: Action, seat: int) -> str | None:
        """``_check`` for ``seat``, known to be the one player to act."""
        checker = _CHECKS.get(type(action))
        if checker is None:
            return _refuse(f"{action} is not a Circus Maximus move", "not-a-move", action=str(action))
        return checker(self, action, seat, self._decision())

    def _wrong_time(self, kind: str) -> str:
        if kind == "place":
            if self.extra:
                return _refuse("first finish your +Trader turn: place a second trader or end the turn",
                               "finish-extra-trader")
            return _refuse(f"phase {PHASE_NAMES[self.stage]} is open: place a trader, play a favour or pass", "placing",
                           stage=self.stage)
        if kind == "visitor":
            return _refuse("first choose a venue for the visitor you drew", "place-visitor-first")
        if kind == "villa":
            return _refuse("now you choose a favour (or the starting-player card) at Caesar's Villa", "choose-at-villa")
        if kind == "forum":
            return _refuse("now you choose a ticket at the Forum Romanum", "choose-at-forum")
        if kind == "venue":
            return _refuse(f"now you sell at the {LINE_NAMES[self.res_line]}", "selling", line=LINE_KEYS[self.res_line])
        return _refuse("that is not possible now", "not-now")

    def _need_favour(self, seat: int, favour: int) -> str | None:
        if not self._held(seat, favour):
            return _refuse(f"you hold no {favour_name(FAVOUR_KEYS[favour])} favour", "no-favour",
                           favour=FAVOUR_KEYS[favour])
        return None

    def _check_place(self, a: Place, seat: int, kind: str) -> str | None:
        if kind != "place":
            return self._wrong_time(kind)
        if a.line not in LINE_KEYS:
            return _refuse(f"there is no line {a.line!r}", "no-such-line", line=a.line)
        li = LINE_KEYS.index(a.line)
        if li not in _phase_lines(self.stage):
            where = " or ".join(_at(x) for x in _phase_lines(self.stage))
            number, _, title = PHASE_NAMES[self.stage].partition(": ")
            return _refuse(f"in phase {number} ({title}) traders go to {where}, not {_at(li)}", "wrong-line",
                           stage=self.stage, line=a.line, lines=[LINE_KEYS[x] for x in _phase_lines(self.stage)])
        if not 1 <= a.rank <= 8:
            return _refuse("traders have ranks 1 to 8", "rank-range", low=1, high=8)
        if not self.hands[seat] >> (a.rank - 1) & 1:
            found = self._find(seat, a.rank)
            where = _at(found[0]) if found else "the game"
            return _refuse(f"your trader {a.rank} is not in your hand (it stands at {where} today)",
                           "trader-not-in-hand",
                           rank=a.rank, line=LINE_KEYS[found[0]] if found else "")
        if a.boost:
            if a.rank != 1:
                return _refuse("Rank 1→8 only works with your rank-1 trader", "boost-rank-one", rank=1)
            if (r := self._need_favour(seat, F_RANK_BOOST)) is not None:
                return r
        if a.extra:
            if (r := self._need_favour(seat, F_EXTRA_TRADER)) is not None:
                return r
            if popcount(self.hands[seat]) < 2:
                return _refuse("+Trader needs a second trader in your hand", "extra-trader-needs-second")
        return None

    def _check_pass(self, a: Action, seat: int, kind: str) -> str | None:
        if kind != "place" or self.extra:
            return self._wrong_time(kind)
        return None

    def _check_done(self, a: Action, seat: int, kind: str) -> str | None:
        if kind != "place":
            return self._wrong_time(kind)
        if not self.extra:
            return _refuse("there is no second trader from +Trader to decline; pass to stop placing",
                           "nothing-to-decline")
        return None

    def _instead(self, seat: int, kind: str, favour: int) -> str | None:
        """Common checks of a favour played instead of a trader."""
        if kind != "place" or self.extra:
            if kind == "place":
                return _refuse("the second trader of +Trader must be a trader from your hand",
                               "second-trader-from-hand")
            return self._wrong_time(kind)
        return self._need_favour(seat, favour)

    def _check_extra_visitor(self, a: Action, seat: int, kind: str) -> str | None:
        if (r := self._instead(seat, kind, F_EXTRA_VISITOR)) is not None:
            return r
        if not self.vis_deck:
            return _refuse("the visitor deck is empty", "visitor-deck-empty")
        return None

    def _check_place_visitor(self, a: PlaceVisitor, seat: int, kind: str) -> str | None:
        if kind != "visitor":
            return _refuse("there is no drawn visitor to place", "no-drawn-visitor")
        if a.venue not in VENUE_KEYS:
            return _refuse(f"visitors go to {', '.join(LINE_NAMES[2:])}",
                           "visitors-go-to-venues", lines=list(VENUE_KEYS))
        return None

    def _check_replay(self, a: PlayReplay, seat: int, kind: str) -> str | None:
        if (r := self._instead(seat, kind, F_REPLAY)) is not None:
            return r
        if self.stage < 2:
            return _refuse("↓ Trader needs an earlier phase today; in phase I there is none", "replay-in-phase-one")
        if a.line not in LINE_KEYS or LINE_KEYS.index(a.line) not in _phase_lines(self.stage):
            where = " or ".join(LINE_NAMES[x] for x in _phase_lines(self.stage))
            return _refuse(f"the trader must be played again now, at {where}", "replay-where",
                           lines=[LINE_KEYS[x] for x in _phase_lines(self.stage)])
        found = self._find(seat, a.rank)
        if found is None or found[0] in _phase_lines(self.stage):
            return _refuse(f"your trader {a.rank} is not in a line of an earlier phase today",
                           "replay-not-earlier", rank=a.rank)
        return None

    def _check_ticket_visitor(self, a: Action, seat: int, kind: str) -> str | None:
        if (r := self._instead(seat, kind, F_TICKET_VISITOR)) is not None:
            return r
        if self.stage != 2:
            return _refuse("II +Ticket +Visitor can only be played in phase II (tickets)", "ticket-visitor-phase")
        if not self.tkt_deck:
            return _refuse("the ticket deck is empty", "ticket-deck-empty")
        return None

    def _check_move_ahead(self, a: PlayMoveAhead, seat: int, kind: str) -> str | None:
        if (r := self._instead(seat, kind, F_MOVE_AHEAD)) is not None:
            return r
        found = self._find(seat, a.rank)
        if found is None or found[0] not in _phase_lines(self.stage):
            return _refuse(f"your trader {a.rank} is not in a line of this phase", "not-in-this-phase", rank=a.rank)
        if found[1] == 0:
            return _refuse(f"your trader {a.rank} is already first in line", "already-first", rank=a.rank)
        return None

    def _check_take_favour(self, a: TakeFavour, seat: int, kind: str) -> str | None:
        if kind != "villa":
            return self._wrong_time(kind)
        k = FAVOUR_KEYS.index(a.favour) if a.favour in FAVOUR_KEYS else -1
        if k < 0 or not self.fav_display & self.data.favour_masks[k]:
            return _refuse(f"there is no {favour_name(a.favour)} favour left at the villa", "no-favour-at-villa",
                           favour=a.favour)
        return None

    def _check_take_start(self, a: Action, seat: int, kind: str) -> str | None:
        if kind != "villa":
            return self._wrong_time(kind)
        if not self.sp_at_villa:
            return _refuse("the starting-player card has already been taken", "start-card-taken")
        return None

    def _check_take_ticket(self, a: TakeTicket, seat: int, kind: str) -> str | None:
        if kind != "forum":
            return self._wrong_time(kind)
        k = self._moves.ticket_index.get(a.ticket)
        if k is None or not self.forum & self.data.ticket_masks[k]:
            return _refuse(f"there is no {ticket_key_name(a.ticket)} ticket left at the forum", "no-ticket-at-forum",
                           ticket=a.ticket)
        if a.double:
            if (r := self._need_favour(seat, F_DOUBLE_TICKET)) is not None:
                return r
            if popcount(self.forum) < 2:
                return _refuse("II +Ticket needs two tickets left at the forum", "double-ticket-needs-two", count=2)
        return None

    def _check_sell(self, a: Sell, seat: int, kind: str) -> str | None:
        if kind != "venue":
            return self._wrong_time(kind)
        d = self.data
        v = self.res_line - 2
        here = LINE_NAMES[self.res_line]
        vk = self._moves.visitor_index.get(a.visitor)
        if vk == d.caesar_kind:
            return _refuse("Caesar buys no ticket; he only offers the seat beside him", "caesar-buys-nothing")
        if vk is None or not self._sellable(v) & d.visitor_masks[vk]:
            return _refuse(f"no {visitor_name(a.visitor)} is waiting at the {here}", "no-visitor-waiting",
                           visitor=a.visitor, line=LINE_KEYS[self.res_line])
        if (a.ticket is None) == (a.favour is None):
            return _refuse("sell either a ticket or (beside Caesar) a favour card", "sell-one-thing")
        need = [0] * len(d.favours)
        if a.ticket is not None:
            tk = self._moves.ticket_index.get(a.ticket)
            if tk is None:
                return _refuse(f"there is no ticket kind {a.ticket!r}", "no-such-ticket", ticket=a.ticket)
            if d.tickets[tk].venue != v:
                return _refuse(f"that ticket is for the {LINE_NAMES[2 + d.tickets[tk].venue]}, not the {here}",
                               "wrong-venue", venue=LINE_KEYS[2 + d.tickets[tk].venue], line=LINE_KEYS[self.res_line])
            if not self.tickets[seat] & d.ticket_masks[tk]:
                return _refuse(f"you hold no unsold {ticket_key_name(a.ticket)} ticket",
                               "no-unsold-ticket", ticket=a.ticket)
        else:
            if not self._caesar_here(v):
                return _refuse("a favour card can be sold as a seat only beside Caesar, once a day",
                               "favour-seat-caesar")
            fk = FAVOUR_KEYS.index(a.favour) if a.favour in FAVOUR_KEYS else -1
            if fk < 0:
                return _refuse(f"there is no favour {a.favour!r}", "no-such-favour", favour=a.favour)
            need[fk] += 1
        if a.legion:
            if vk != d.legionnaire_kind:
                return _refuse("Ticket→Legionnaire works only when selling to a Legionnaire", "legion-only")
            need[F_LEGIONNAIRE] += 1
        if a.double:
            need[F_DOUBLE_SALE] += 1
        for k, c in enumerate(need):
            held = self._held(seat, k)
            if c and held < c:
                if not held:
                    return _refuse(f"you hold no {favour_name(FAVOUR_KEYS[k])} favour",
                                   "no-favour", favour=FAVOUR_KEYS[k])
                return _refuse(f"this needs {c} {favour_name(FAVOUR_KEYS[k])} favour cards and you hold {held}",
                               "not-enough-favours", favour=FAVOUR_KEYS[k], count=c, held=held)
        if a.double:
            if popcount(self._sellable(v)) < 2:
                return _refuse(f"III +Ticket needs two visitors left at the {here}", "double-sale-visitors",
                               line=LINE_KEYS[self.res_line], count=2)
            tickets_left = popcount(self.tickets[seat] & d.venue_ticket_masks[v]) - (a.ticket is not None)
            caesar_left = (a.ticket is not None and self._caesar_here(v)
                           and popcount(self.favours[seat]) - sum(need) > 0)
            if tickets_left <= 0 and not caesar_left:
                return _refuse(f"III +Ticket needs a second ticket for the {here}", "double-sale-ticket",
                               line=LINE_KEYS[self.res_line])
        return None

    def _check_skip(self, a: Action, seat: int, kind: str) -> str | None:
        if kind != "venue":
            return self._wrong_time(kind)
        v = self.res_line - 2
        if self.tickets[seat] & self.data.venue_ticket_masks[v]:
            return _refuse(f"you hold a ticket for the {LINE_NAMES[self.res_line]}, so your trader must sell it",
                           "must-sell", line=LINE_KEYS[self.res_line])
        return None

    # ================================================================ moves
    def apply(self, action: Action, seat: int | None = None) -> None:
        """:meth:`State.apply`, finding the seat to act once when a player is to act (as it is at
        every move but a chance outcome or a move after the end)."""
        if not self.draws and self.stage != 4:
            turn = self.current_seats()[0]
            if seat is None or seat == turn:
                reason = self._check_move(action, turn)
                if reason is not None:
                    raise IllegalAction(reason)
                self._apply(turn, action)
                self.history.append((turn, action))
                if self.draws and self.rng is not None:
                    self._settle_chance()
                return
        State.apply(self, action, seat)

    def _settle_chance(self) -> None:
        """:meth:`State._settle_chance`: a chance node is exactly a state with draws waiting."""
        rng = self.rng
        assert rng is not None
        history = self.history
        while self.draws:
            outcome = self.sample_chance(rng)
            self._apply(CHANCE, outcome)
            history.append((CHANCE, outcome))

    def _apply(self, seat: int, action: Action) -> None:
        if seat == CHANCE:
            self._apply_draw(action)
        else:
            _APPLY[type(action)](self, seat, action)
        self._advance()

    def _take_favour_card(self, seat: int, k: int) -> int:
        card = _low(self.favours[seat] & self.data.favour_masks[k])
        self.favours[seat] &= ~(1 << card)
        return card

    def _spend(self, seat: int, k: int) -> None:
        """Play favour kind ``k``: it leaves the game."""
        self.fav_gone |= 1 << self._take_favour_card(seat, k)

    def _insert(self, li: int, seat: int, rank: int, eff: int) -> None:
        """Higher effective rank further forward; equal ranks queue behind earlier ones."""
        line = self.lines[li]
        i = 0
        while i < len(line) and line[i][2] >= eff:
            i += 1
        line.insert(i, (seat, rank, eff))

    def _do_place(self, seat: int, a: Place) -> None:
        self.hands[seat] &= ~(1 << (a.rank - 1))
        if a.boost:
            self._spend(seat, F_RANK_BOOST)
        if a.extra:
            self._spend(seat, F_EXTRA_TRADER)
        self._insert(LINE_KEYS.index(a.line), seat, a.rank, 8 if a.boost else a.rank)
        if self.extra:
            self.extra -= 1  # this was the second trader +Trader allowed
        if a.extra:
            self.extra += 1
        if self.extra and not self.hands[seat]:
            self.extra = 0
        if not self.extra:
            self.turn_done = True

    def _do_pass(self, seat: int, a: Action) -> None:
        self.passed |= 1 << seat
        self.turn_done = True

    def _do_done(self, seat: int, a: Action) -> None:
        self.extra = 0
        self.turn_done = True

    def _do_extra_visitor(self, seat: int, a: Action) -> None:
        self._spend(seat, F_EXTRA_VISITOR)
        self.draws.append((T_VISITOR_CHOICE, seat))
        self.turn_done = True

    def _do_place_visitor(self, seat: int, a: PlaceVisitor) -> None:
        v = VENUE_KEYS.index(a.venue)
        card = self.pending_visitor
        self.pending_visitor = -1
        self._visitor_to(v, card)

    def _visitor_to(self, v: int, card: int) -> None:
        self.venue_vis[v] |= 1 << card
        if self.data.visitor_kind_of[card] == self.data.caesar_kind:
            # Caesar brings two more visitors to his venue at once
            self.draws[0:0] = [(T_VISITOR, v), (T_VISITOR, v)]

    def _do_replay(self, seat: int, a: PlayReplay) -> None:
        self._spend(seat, F_REPLAY)
        found = self._find(seat, a.rank)
        assert found is not None
        del self.lines[found[0]][found[1]]
        self._insert(LINE_KEYS.index(a.line), seat, a.rank, a.rank)
        self.turn_done = True

    def _do_ticket_visitor(self, seat: int, a: Action) -> None:
        self._spend(seat, F_TICKET_VISITOR)
        self.draws.append((T_TICKET_PLAYER, seat))
        self.turn_done = True

    def _do_move_ahead(self, seat: int, a: PlayMoveAhead) -> None:
        self._spend(seat, F_MOVE_AHEAD)
        found = self._find(seat, a.rank)
        assert found is not None
        li, i = found
        line = self.lines[li]
        ahead = line[i - 1]
        line[i - 1] = (seat, a.rank, ahead[2])  # takes the rank of the trader it overtook
        line[i] = ahead
        self.turn_done = True

    def _next_pick(self, again: bool = False) -> None:
        if again:
            self.res_again = True
        else:
            self.res_again = False
            self.res_pos += 1

    def _do_take_favour(self, seat: int, a: TakeFavour) -> None:
        k = FAVOUR_KEYS.index(a.favour)
        card = _low(self.fav_display & self.data.favour_masks[k])
        self.fav_display &= ~(1 << card)
        self.favours[seat] |= 1 << card
        self._next_pick()

    def _do_take_start(self, seat: int, a: Action) -> None:
        self.sp_at_villa = False
        self.starting = seat
        self._next_pick()

    def _do_take_ticket(self, seat: int, a: TakeTicket) -> None:
        k = self._moves.ticket_index.get(a.ticket)
        assert k is not None
        card = _low(self.forum & self.data.ticket_masks[k])
        self.forum &= ~(1 << card)
        self.tickets[seat] |= 1 << card
        if a.double:
            self._spend(seat, F_DOUBLE_TICKET)
        self._next_pick(a.double)

    def _do_sell(self, seat: int, a: Sell) -> None:
        d = self.data
        v = self.res_line - 2
        if a.ticket is not None:
            tk = self._moves.ticket_index.get(a.ticket)
            assert tk is not None
            card = _low(self.tickets[seat] & d.ticket_masks[tk])
            self.tickets[seat] &= ~(1 << card)
            is_favour, base = 0, d.tickets[tk].coins
        else:
            fk = FAVOUR_KEYS.index(a.favour or "")
            card = self._take_favour_card(seat, fk)
            is_favour, base = 1, d.favours[fk].coins
            caesar = self.venue_vis[v] & d.caesar_mask
            self.venue_vis[v] &= ~caesar
            self.vis_aside |= caesar
            self.caesar_used = True
        vk = self._moves.visitor_index.get(a.visitor)
        assert vk is not None
        visitor = _low(self.venue_vis[v] & d.visitor_masks[vk])
        self.venue_vis[v] &= ~(1 << visitor)
        paid = d.legionnaire_pays if a.legion else d.visitors[vk].coins
        if a.legion:
            self._spend(seat, F_LEGIONNAIRE)
        if a.double:
            self._spend(seat, F_DOUBLE_SALE)
        self.sales[seat].append((is_favour, card, visitor, base + paid + self.bonus[v]))
        self._next_pick(a.double)

    def _do_skip(self, seat: int, a: Action) -> None:
        self._next_pick()

    def _apply_draw(self, action: Action) -> None:
        d = self.data
        code, arg = self.draws.pop(0)
        if isinstance(action, DrawFavour):
            card = _low(self.fav_deck & d.favour_masks[FAVOUR_KEYS.index(action.favour)])
            self.fav_deck &= ~(1 << card)
            self.fav_display |= 1 << card
        elif isinstance(action, DrawTicket):
            k = self._moves.ticket_index.get(action.ticket)
            assert k is not None
            card = _low(self.tkt_deck & d.ticket_masks[k])
            self.tkt_deck &= ~(1 << card)
            venue = d.tickets[k].venue
            if code == T_TICKET_PLAYER:
                self.tickets[arg] |= 1 << card
                self.draws.insert(0, (T_VISITOR, venue))
            else:
                self.forum |= 1 << card
                if code == T_SPECIAL:
                    self.bonus[venue] += 1
                else:
                    self.setup_counts[venue] += 1
        else:
            assert isinstance(action, DrawVisitor)
            k = self._moves.visitor_index.get(action.visitor)
            assert k is not None
            card = _low(self.vis_deck & d.visitor_masks[k])
            self.vis_deck &= ~(1 << card)
            if code == T_VISITOR_CHOICE:
                self.pending_visitor = card
            else:
                self._visitor_to(arg, card)

    # ================================================================ flow
    def _advance(self) -> None:
        """Run every step that needs no decision: markers, empty decks, turn order, picks, scoring."""
        while True:
            if self.draws:
                code, _arg = self.draws[0]
                if code == T_SETUP_VISITORS:
                    self.draws.pop(0)
                    todo: list[tuple[str, int]] = []
                    for v in range(3):
                        todo += [(T_VISITOR, v)] * (max(0, self.setup_counts[v] - 1) + self.bonus[v])
                    self.draws[0:0] = todo
                    continue
                if not self._draw_source(code)[0]:
                    self.draws.pop(0)  # that deck is used up: the draw simply does not happen
                    continue
                return
            if self.stage == 4 or self.pending_visitor >= 0:
                return
            if self.stage == 0:
                self._begin_phase(1)
                continue
            if self.resolving:
                if self._resolution_waits():
                    return
                continue
            if self.turn_done:
                self.turn_done = False
                if not self._seek_turn(self.turn + 1):
                    self._begin_resolution()
                continue
            return

    def _begin_phase(self, stage: int) -> None:
        self.stage = stage
        self.resolving = False
        self.passed = 0
        self.extra = 0
        self.turn_done = False
        if not self._seek_turn(self.starting):
            self._begin_resolution()

    def _seek_turn(self, first: int) -> bool:
        """Give the turn to the next seat still in the phase; a seat that can only pass passes."""
        for k in range(self.n):
            s = (first + k) % self.n
            if self.passed >> s & 1:
                continue
            self.turn = s
            if self._can_do_more(s):
                return True
            self.passed |= 1 << s
        return False

    def _begin_resolution(self) -> None:
        self.resolving = True
        self.res_line = _phase_lines(self.stage)[0]
        self.res_pos = 0
        self.res_again = False

    def _items_left(self, li: int) -> bool:
        if li == VILLA:
            # by the rulebook the card is chosen instead of a favour: once the favours are gone
            # the villa is done (the card, if nobody chose it, goes to the front trader in
            # _finish_line); the "extra-pick" reading keeps it as one more item to pick
            return bool(self.fav_display) or (self.sp_at_villa and self.options.start_card == "extra-pick")
        if li == FORUM:
            return bool(self.forum)
        return bool(self._sellable(li - 2))

    def _resolution_waits(self) -> bool:
        """Skip traders with nothing to do; finish lines; True when a trader's owner must choose."""
        li = self.res_line
        line = self.lines[li]
        while self.res_pos < len(line) and self._items_left(li):
            seat = line[self.res_pos][0]
            if li <= FORUM:
                return True
            v = li - 2
            if self.tickets[seat] & self.data.venue_ticket_masks[v] or (self._caesar_here(v) and self.favours[seat]):
                return True
            self.res_pos += 1
            self.res_again = False
        self._finish_line(li)
        return False

    def _resolving_waits(self) -> bool:
        """Whether the trader at ``res_pos`` has a pick to make now (what ``_resolution_waits``
        stops for), without moving on; for checking loaded positions."""
        li = self.res_line
        line = self.lines[li]
        if self.res_pos >= len(line) or not self._items_left(li):
            return False
        seat = line[self.res_pos][0]
        if li <= FORUM:
            return True
        v = li - 2
        return bool(self.tickets[seat] & self.data.venue_ticket_masks[v]
                    or (self._caesar_here(v) and self.favours[seat]))

    def _finish_line(self, li: int) -> None:
        self.res_again = False
        if li == VILLA:
            self.fav_gone |= self.fav_display  # favours nobody took leave the game
            self.fav_display = 0
            if self.sp_at_villa and self.lines[VILLA]:
                self.starting = self.lines[VILLA][0][0]
            self.sp_at_villa = False
            self._begin_phase(2)
        elif li == FORUM:
            self._begin_phase(3)
        elif li < 4:
            self.res_line = li + 1
            self.res_pos = 0
        else:
            self._end_day()

    def day_coins(self, seat: int) -> int:
        """Coins ``seat`` earns today: sales plus unplayed traders."""
        coins = sum(c for *_x, c in self.sales[seat])
        coins += sum(self.data.trader_coins[r] for r in iter_bits(self.hands[seat]))
        return coins

    def _sales_keys(self) -> tuple[tuple[tuple[str, str, int], ...], ...]:
        """Today's sales by card kind: (ticket key or "favour:key", visitor key, coins)."""
        d = self.data

        def sale(entry: tuple[int, int, int, int]) -> tuple[str, str, int]:
            is_favour, card, visitor, coins = entry
            what = ("favour:" + FAVOUR_KEYS[d.favour_kind_of[card]]) if is_favour else \
                d.tickets[d.ticket_kind_of[card]].key
            return what, d.visitors[d.visitor_kind_of[visitor]].key, coins

        return tuple(tuple(sale(e) for e in s) for s in self.sales)

    def _end_day(self) -> None:
        today = [self.day_coins(s) for s in range(self.n)]
        self.day_scores.append(today)
        self.past_sales.append(self._sales_keys())
        for s in range(self.n):
            self.totals[s] += today[s]
        self.resolving = False
        if self.day == DAYS:
            self.favour_coins = [
                sum(self.data.favours[self.data.favour_kind_of[c]].coins for c in iter_bits(self.favours[s]))
                for s in range(self.n)
            ]
            for s in range(self.n):
                self.totals[s] += self.favour_coins[s]
            self.stage = 4
            return
        d = self.data
        # traders home, tickets and visitors back into their decks; favours stay in hand
        self.hands = [ALL_TRADERS] * self.n
        self.lines = [[] for _ in LINE_KEYS]
        for s in range(self.n):
            for is_favour, card, _visitor, _coins in self.sales[s]:
                if is_favour:
                    self.fav_gone |= 1 << card  # a favour sold as a seat beside Caesar is used up
            self.sales[s] = []
            self.tickets[s] = 0
        self.tkt_deck = d.all_tickets
        self.forum = 0
        self.vis_deck = d.all_visitors & ~self.vis_box
        self.venue_vis = [0, 0, 0]
        self.vis_aside = 0
        self.caesar_used = False
        self.bonus = [0, 0, 0]
        self.setup_counts = [0, 0, 0]
        self.sp_at_villa = True
        self.day += 1
        self.stage = 0
        self._queue_day()

    # ================================================================ views
    observation = observe  # the function itself is the method: no extra call per observation

    # ================================================================ copies
    def clone(self) -> CircusMaximusState:
        c = CircusMaximusState.__new__(CircusMaximusState)
        c.__dict__.update(self.__dict__)
        c.rng = None if self.rng is None else self.rng.clone()
        c.history = list(self.history)
        c.draws = list(self.draws)
        c.lines = [list(line) for line in self.lines]
        c.hands = list(self.hands)
        c.favours = list(self.favours)
        c.tickets = list(self.tickets)
        c.sales = [list(s) for s in self.sales]
        c.setup_counts = list(self.setup_counts)
        c.bonus = list(self.bonus)
        c.venue_vis = list(self.venue_vis)
        c.totals = list(self.totals)
        c.day_scores = [list(x) for x in self.day_scores]
        c.past_sales = list(self.past_sales)
        c.favour_coins = None if self.favour_coins is None else list(self.favour_coins)
        return c

    def _position(self) -> dict[str, Any]:
        from .codec import position_of  # the codec builds on the rules, so it is imported late

        return position_of(self)

    def check_cards(self) -> str | None:
        """Every card in exactly one place (used by tests and by position loading)."""
        d = self.data
        zones = {
            "favour": [self.fav_deck, self.fav_display, self.fav_gone, *self.favours,
                       *(1 << c for s in self.sales for f, c, _v, _x in s if f)],
            "ticket": [self.tkt_deck, self.forum, *self.tickets,
                       *(1 << c for s in self.sales for f, c, _v, _x in s if not f)],
            "visitor": [self.vis_deck, self.vis_box, self.vis_aside, *self.venue_vis,
                        *(1 << v for s in self.sales for _f, _c, v, _x in s),
                        (1 << self.pending_visitor) if self.pending_visitor >= 0 else 0],
        }
        full = {"favour": d.all_favours, "ticket": d.all_tickets, "visitor": d.all_visitors}
        for name, masks in zones.items():
            seen = 0
            for m in masks:
                if m < 0 or seen & m:
                    return f"a {name} card is in two places"
                seen |= m
            if seen != full[name]:
                return f"the {name} cards do not add up"
        for s in range(self.n):
            placed = 0
            for line in self.lines:
                for seat, rank, _e in line:
                    if seat == s:
                        placed |= 1 << (rank - 1)
            if placed & self.hands[s] or (placed | self.hands[s]) != ALL_TRADERS:
                return f"seat {s}'s traders do not add up"
        return None


# Each move's own check and effect, by the move's class (the action argument is that class).
_CHECKS: dict[type[Action], Callable[[CircusMaximusState, Any, int, str], str | None]] = {
    Place: CircusMaximusState._check_place,
    Pass: CircusMaximusState._check_pass,
    Done: CircusMaximusState._check_done,
    PlayExtraVisitor: CircusMaximusState._check_extra_visitor,
    PlaceVisitor: CircusMaximusState._check_place_visitor,
    PlayReplay: CircusMaximusState._check_replay,
    PlayTicketVisitor: CircusMaximusState._check_ticket_visitor,
    PlayMoveAhead: CircusMaximusState._check_move_ahead,
    TakeFavour: CircusMaximusState._check_take_favour,
    TakeStart: CircusMaximusState._check_take_start,
    TakeTicket: CircusMaximusState._check_take_ticket,
    Sell: CircusMaximusState._check_sell,
    Skip: CircusMaximusState._check_skip,
}
_APPLY: dict[type[Action], Callable[[CircusMaximusState, int, Any], None]] = {
    Place: CircusMaximusState._do_place,
    Pass: CircusMaximusState._do_pass,
    Done: CircusMaximusState._do_done,
    PlayExtraVisitor: CircusMaximusState._do_extra_visitor,
    PlaceVisitor: CircusMaximusState._do_place_visitor,
    PlayReplay: CircusMaximusState._do_replay,
    PlayTicketVisitor: CircusMaximusState._do_ticket_visitor,
    PlayMoveAhead: CircusMaximusState._do_move_ahead,
    TakeFavour: CircusMaximusState._do_take_favour,
    TakeStart: CircusMaximusState._do_take_start,
    TakeTicket: CircusMaximusState._do_take_ticket,
    Sell: CircusMaximusState._do_sell,
    Skip: CircusMaximusState._do_skip,
}
