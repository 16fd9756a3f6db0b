"""Circus Maximus rules engine: three days of queues at five locations.

Each day opens with dealing (chance), then three placement phases (villa, forum, the three
venues). In a placement phase players take turns putting traders into lines, sorted by
rank, until everyone has passed; then each line is worked off from its front, one pick per
trader. Scoring closes the day. See ``docs/games/circus-maximus.md`` for every rule as
implemented and the decisions taken where the rulebook is silent.

Everything on the table is public (favours are taken face up from a face-up display, so
each hand is known to anyone who watched), and decks are unordered sets: a draw is a chance
outcome "the next card is of kind K" with probability count(K) / deck size. Hence the only
unknown for any seat is the future, and a determinization is the state itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...core.bits import iter_bits, popcount
from ...core.errors import DataError, InvalidOptions, RecordError
from ...core.fields import required, show, whole_number
from ...core.game import CHANCE, Action, Game, Observation, SeatView, State
from ...core.memo import derived
from ...core.options import option
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
    action_from_json,
    favour_name,
    visitor_name,
)
from .data import (
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
    load_cards,
    ticket_key_name,
)

COLOURS = ("Yellow", "Red", "Blue", "Green", "Purple")
PHASE_NAMES = ("Dealing", "I: Caesar's favour", "II: Tickets", "III: Events", "Game over")
DAYS = 3
ALL_TRADERS = 0xFF  # bit r-1 = trader of rank r

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


def _phase_lines(stage: int) -> tuple[int, ...]:
    return (VILLA,) if stage == 1 else (FORUM,) if stage == 2 else (2, 3, 4) if stage == 3 else ()


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


@dataclass(frozen=True)
class CircusMaximusOptions:
    players: int = option(4, "number of players", min=3, max=5)
    caesar: bool = option(False, "experienced variant: Caesar is shuffled in with the visitors")
    cards: str = option("", "card-data TOML file to use instead of the shipped, partly provisional one",
                        host_path=True)

    def __post_init__(self) -> None:
        if not 3 <= self.players <= 5:
            raise InvalidOptions(f"Circus Maximus is for 3 to 5 players, not {self.players}")


@dataclass(frozen=True)
class CircusMaximusObservation(Observation):
    """The table as everyone sees it (nothing in this game is secret, see the module doc)."""

    seat: int | None
    players: int
    caesar_variant: bool
    cards: str  # the card-data option ("" = shipped file), so a viewer can look up card values
    day: int
    phase: int  # 0 dealing, 1-3 placement/resolution phases, 4 over
    phase_name: str
    resolving: bool
    to_act: tuple[int, ...]
    starting: int
    start_card_at_villa: bool
    turn: int
    passed: tuple[bool, ...]
    extra_traders: int
    pending_visitor: str | None
    resolving_line: str | None
    resolving_index: int
    second_pick: bool
    lines: tuple[tuple[tuple[int, int, int], ...], ...]  # per line: (seat, rank, effective rank)
    hands: tuple[tuple[int, ...], ...]
    favours: tuple[tuple[str, ...], ...]
    tickets: tuple[tuple[str, ...], ...]
    sales: tuple[tuple[tuple[str, str, int], ...], ...]  # (ticket key or "favour:key", visitor, coins)
    past_sales: tuple[tuple[tuple[tuple[str, str, int], ...], ...], ...]  # each finished day's sales
    favour_display: tuple[str, ...]
    forum: tuple[str, ...]
    venues: tuple[tuple[str, ...], ...]
    bonus: tuple[int, ...]
    caesar_used: bool
    favour_deck: tuple[str, ...]
    ticket_deck: tuple[str, ...]
    visitor_deck: tuple[str, ...]
    favours_out: tuple[str, ...]
    visitors_out: tuple[str, ...]
    draws: tuple[tuple[str, int], ...]
    setup_tickets: tuple[int, ...]
    scores: tuple[int, ...]
    day_scores: tuple[tuple[int, ...], ...]
    favour_coins: tuple[int, ...] | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            out[name] = _jsonable(getattr(self, name))
        return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


# ---------------------------------------------------------------- observation helpers
# Observations are built for every decision of every rollout, so the card keys of a card
# set (a bitmask) are looked up in tables made once per card-data object, and whole sets
# are remembered (the same few masks recur all the time); the keys come out exactly as a
# walk over the set bits, lowest card id first, would give them.
_KEY_MEMO_LIMIT = 4096


class _KeysOf(dict[int, tuple[str, ...]]):
    """Card set (bitmask) -> tuple of the keys of its cards, lowest card id first (remembered)."""

    def __init__(self, names: tuple[str, ...]) -> None:
        super().__init__()
        self.names = names

    def __missing__(self, mask: int) -> tuple[str, ...]:
        names = self.names
        keys = tuple(names[c] for c in iter_bits(mask))
        if len(self) >= _KEY_MEMO_LIMIT:
            self.clear()
        self[mask] = keys
        return keys


class _ObsKeys:
    """The key tables of one card-data object."""

    __slots__ = ("fav", "favours", "tickets", "tkt", "vis", "visitor_of", "visitors")

    def __init__(self, d: CardData) -> None:
        self.favours = _KeysOf(tuple(FAVOUR_KEYS[k] for k in d.favour_kind_of))
        self.tickets = _KeysOf(tuple(d.tickets[k].key for k in d.ticket_kind_of))
        self.visitor_of = tuple(d.visitors[k].key for k in d.visitor_kind_of)
        self.visitors = _KeysOf(self.visitor_of)
        # bound lookups: ``fav(mask)`` etc. are plain dict look-ups once a set has been seen
        self.fav = self.favours.__getitem__
        self.tkt = self.tickets.__getitem__
        self.vis = self.visitors.__getitem__


def _new_observation(fields: dict[str, Any]) -> CircusMaximusObservation:
    """The observation with exactly these field values.

    Same object as ``CircusMaximusObservation(**fields)`` (the class has no defaults and no
    ``__post_init__``), without the frozen ``__init__``'s forty guarded attribute writes;
    ``fields`` must name every field, in declaration order (the tests check both).
    """
    obs = object.__new__(CircusMaximusObservation)
    obs.__dict__.update(fields)
    return obs


_HAND_RANKS = tuple(tuple(r + 1 for r in iter_bits(h)) for h in range(ALL_TRADERS + 1))


def _hand_ranks(hand: int) -> tuple[int, ...]:
    """The ranks in a hand of traders (bit r-1 = rank r), lowest first."""
    if 0 <= hand <= ALL_TRADERS:
        return _HAND_RANKS[hand]
    return tuple(r + 1 for r in iter_bits(hand))


_PASSED: dict[tuple[int, int], tuple[bool, ...]] = {}


def _passed_flags(passed: int, n: int) -> tuple[bool, ...]:
    flags = _PASSED.get((passed, n))
    if flags is None:
        flags = tuple(bool(passed >> s & 1) for s in range(n))
        if len(_PASSED) < 1024:
            _PASSED[(passed, n)] = flags
    return flags


class CircusMaximusState(State[CircusMaximusOptions]):
    """One position. Card zones are bitmasks over card ids (see :mod:`.data`)."""

    def __init__(self, game: Game, options: CircusMaximusOptions, rng: Rng | None, data: CardData) -> None:
        super().__init__(game, options, rng)
        self.data = data
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
        d = self.data
        if code == T_FAVOUR:
            return self.fav_deck, d.favour_masks, lambda k: DrawFavour(FAVOUR_KEYS[k])
        if code in (T_TICKET, T_SPECIAL, T_TICKET_PLAYER):
            return self.tkt_deck, d.ticket_masks, lambda k: DrawTicket(d.tickets[k].key)
        return self.vis_deck, d.visitor_masks, lambda k: DrawVisitor(d.visitors[k].key)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        seat = self._acting_seat(seat)
        if seat is None:
            return []
        if seat == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        return [a for a in self._candidates(seat) if self._check(a, seat) is None]

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
    def _candidates(self, seat: int) -> list[Action]:
        """A superset of the legal actions (each is then checked), built only from what applies."""
        d = self.data
        kind = self._decision()
        out: list[Action] = []
        if kind == "place":
            hand = self.hands[seat]
            lines = [LINE_KEYS[li] for li in _phase_lines(self.stage)]
            extras = (False, True) if self._held(seat, F_EXTRA_TRADER) else (False,)
            boosts = (False, True) if self._held(seat, F_RANK_BOOST) else (False,)
            for rank in range(1, 9):
                if hand >> (rank - 1) & 1:
                    for line in lines:
                        for e in extras:
                            for b in boosts if rank == 1 else (False,):
                                out.append(Place(rank, line, e, b))
            if self.extra:
                out.append(Done())
                return out
            out.append(Pass())
            if self._held(seat, F_EXTRA_VISITOR):
                out.append(PlayExtraVisitor())
            if self._held(seat, F_REPLAY):
                for rank in range(1, 9):
                    for line in lines:
                        out.append(PlayReplay(rank, line))
            if self._held(seat, F_TICKET_VISITOR):
                out.append(PlayTicketVisitor())
            if self._held(seat, F_MOVE_AHEAD):
                for li in _phase_lines(self.stage):
                    for s, r, _e in self.lines[li][1:]:
                        if s == seat:
                            out.append(PlayMoveAhead(r))
        elif kind == "visitor":
            out.extend(PlaceVisitor(v) for v in VENUE_KEYS)
        elif kind == "villa":
            for k in range(len(d.favours)):
                if self.fav_display & d.favour_masks[k]:
                    out.append(TakeFavour(FAVOUR_KEYS[k]))
            out.append(TakeStart())
        elif kind == "forum":
            doubles = (False, True) if self._held(seat, F_DOUBLE_TICKET) else (False,)
            for k, t in enumerate(d.tickets):
                if self.forum & d.ticket_masks[k]:
                    for dbl in doubles:
                        out.append(TakeTicket(t.key, dbl))
        elif kind == "venue":
            v = self.res_line - 2
            sellers: list[tuple[str | None, str | None]] = []
            for k, t in enumerate(d.tickets):
                if t.venue == v and self.tickets[seat] & d.ticket_masks[k]:
                    sellers.append((t.key, None))
            if self._caesar_here(v):
                for k in range(len(d.favours)):
                    if self.favours[seat] & d.favour_masks[k]:
                        sellers.append((None, FAVOUR_KEYS[k]))
            legions = (False, True) if self._held(seat, F_LEGIONNAIRE) else (False,)
            doubles = (False, True) if self._held(seat, F_DOUBLE_SALE) else (False,)
            for k, vk in enumerate(d.visitors):
                if self._sellable(v) & d.visitor_masks[k]:
                    for ticket, favour in sellers:
                        for lg in legions if k == d.legionnaire_kind else (False,):
                            for dbl in doubles:
                                out.append(Sell(vk.key, ticket, favour, lg, dbl))
            out.append(Skip())
        return out

    def _check(self, action: Action, seat: int) -> str | None:
        """Why ``seat`` may not play ``action`` now (a sentence for the player), or None."""
        seats = self.current_seats()
        if not seats:
            return "the game is over"
        if seat not in seats:
            return "it is not your turn"
        if seat == CHANCE:
            return None if any(a == action for a, _ in self.chance_outcomes()) else "not a possible draw now"
        kind = self._decision()
        checker = _CHECKS.get(type(action))
        if checker is None:
            return f"{action} is not a Circus Maximus move"
        return checker(self, action, seat, kind)

    def _wrong_time(self, kind: str) -> str:
        if kind == "place":
            if self.extra:
                return "first finish your +Trader turn: place a second trader or end the turn"
            return f"phase {PHASE_NAMES[self.stage]} is open: place a trader, play a favour or pass"
        if kind == "visitor":
            return "first choose a venue for the visitor you drew"
        if kind == "villa":
            return "now you choose a favour (or the starting-player card) at Caesar's Villa"
        if kind == "forum":
            return "now you choose a ticket at the Forum Romanum"
        if kind == "venue":
            return f"now you sell at the {LINE_NAMES[self.res_line]}"
        return "that is not possible now"

    def _need_favour(self, seat: int, favour: int) -> str | None:
        if not self._held(seat, favour):
            return f"you hold no {favour_name(FAVOUR_KEYS[favour])} favour"
        return None

    def _check_place(self, a: Place, seat: int, kind: str) -> str | None:
        if kind != "place":
            return self._wrong_time(kind)
        if a.line not in LINE_KEYS:
            return f"there is no line {a.line!r}"
        li = LINE_KEYS.index(a.line)
        if li not in _phase_lines(self.stage):
            where = " or ".join(LINE_NAMES[x] for x in _phase_lines(self.stage))
            return f"in phase {PHASE_NAMES[self.stage]} traders go to {where}, not {LINE_NAMES[li]}"
        if not 1 <= a.rank <= 8:
            return "traders have ranks 1 to 8"
        if not self.hands[seat] >> (a.rank - 1) & 1:
            found = self._find(seat, a.rank)
            where = LINE_NAMES[found[0]] if found else "the game"
            return f"your trader {a.rank} is not in your hand (it stands at {where} today)"
        if a.boost:
            if a.rank != 1:
                return "Rank 1→8 only works with your rank-1 trader"
            if (r := self._need_favour(seat, F_RANK_BOOST)) is not None:
                return r
        if a.extra:
            if (r := self._need_favour(seat, F_EXTRA_TRADER)) is not None:
                return r
            if popcount(self.hands[seat]) < 2:
                return "+Trader needs a second trader in your hand"
        return None

    def _check_pass(self, a: Action, seat: int, kind: str) -> str | None:
        if kind != "place" or self.extra:
            return self._wrong_time(kind)
        return None

    def _check_done(self, a: Action, seat: int, kind: str) -> str | None:
        if kind != "place":
            return self._wrong_time(kind)
        if not self.extra:
            return "there is no second trader from +Trader to decline; pass to stop placing"
        return None

    def _instead(self, seat: int, kind: str, favour: int) -> str | None:
        """Common checks of a favour played instead of a trader."""
        if kind != "place" or self.extra:
            if kind == "place":
                return "the second trader of +Trader must be a trader from your hand"
            return self._wrong_time(kind)
        return self._need_favour(seat, favour)

    def _check_extra_visitor(self, a: Action, seat: int, kind: str) -> str | None:
        if (r := self._instead(seat, kind, F_EXTRA_VISITOR)) is not None:
            return r
        if not self.vis_deck:
            return "the visitor deck is empty"
        return None

    def _check_place_visitor(self, a: PlaceVisitor, seat: int, kind: str) -> str | None:
        if kind != "visitor":
            return "there is no drawn visitor to place"
        if a.venue not in VENUE_KEYS:
            return f"visitors go to {', '.join(LINE_NAMES[2:])}"
        return None

    def _check_replay(self, a: PlayReplay, seat: int, kind: str) -> str | None:
        if (r := self._instead(seat, kind, F_REPLAY)) is not None:
            return r
        if self.stage < 2:
            return "↓ Trader needs an earlier phase today; in phase I there is none"
        if a.line not in LINE_KEYS or LINE_KEYS.index(a.line) not in _phase_lines(self.stage):
            where = " or ".join(LINE_NAMES[x] for x in _phase_lines(self.stage))
            return f"the trader must be played again now, at {where}"
        found = self._find(seat, a.rank)
        if found is None or found[0] in _phase_lines(self.stage):
            return f"your trader {a.rank} is not in a line of an earlier phase today"
        return None

    def _check_ticket_visitor(self, a: Action, seat: int, kind: str) -> str | None:
        if (r := self._instead(seat, kind, F_TICKET_VISITOR)) is not None:
            return r
        if self.stage != 2:
            return "II +Ticket +Visitor can only be played in phase II (tickets)"
        if not self.tkt_deck:
            return "the ticket deck is empty"
        return None

    def _check_move_ahead(self, a: PlayMoveAhead, seat: int, kind: str) -> str | None:
        if (r := self._instead(seat, kind, F_MOVE_AHEAD)) is not None:
            return r
        found = self._find(seat, a.rank)
        if found is None or found[0] not in _phase_lines(self.stage):
            return f"your trader {a.rank} is not in a line of this phase"
        if found[1] == 0:
            return f"your trader {a.rank} is already first in line"
        return None

    def _check_take_favour(self, a: TakeFavour, seat: int, kind: str) -> str | None:
        if kind != "villa":
            return self._wrong_time(kind)
        k = FAVOUR_KEYS.index(a.favour) if a.favour in FAVOUR_KEYS else -1
        if k < 0 or not self.fav_display & self.data.favour_masks[k]:
            return f"there is no {favour_name(a.favour)} favour left at the villa"
        return None

    def _check_take_start(self, a: Action, seat: int, kind: str) -> str | None:
        if kind != "villa":
            return self._wrong_time(kind)
        if not self.sp_at_villa:
            return "the starting-player card has already been taken"
        return None

    def _check_take_ticket(self, a: TakeTicket, seat: int, kind: str) -> str | None:
        if kind != "forum":
            return self._wrong_time(kind)
        k = self.data.ticket_index(a.ticket)
        if k is None or not self.forum & self.data.ticket_masks[k]:
            return f"there is no {ticket_key_name(a.ticket)} ticket left at the forum"
        if a.double:
            if (r := self._need_favour(seat, F_DOUBLE_TICKET)) is not None:
                return r
            if popcount(self.forum) < 2:
                return "II +Ticket needs two tickets left at the forum"
        return None

    def _check_sell(self, a: Sell, seat: int, kind: str) -> str | None:
        if kind != "venue":
            return self._wrong_time(kind)
        d = self.data
        v = self.res_line - 2
        here = LINE_NAMES[self.res_line]
        vk = d.visitor_index(a.visitor)
        if vk == d.caesar_kind:
            return "Caesar buys no ticket; he only offers the seat beside him"
        if vk is None or not self._sellable(v) & d.visitor_masks[vk]:
            return f"no {visitor_name(a.visitor)} is waiting at the {here}"
        if (a.ticket is None) == (a.favour is None):
            return "sell either a ticket or (beside Caesar) a favour card"
        need = [0] * len(d.favours)
        if a.ticket is not None:
            tk = d.ticket_index(a.ticket)
            if tk is None:
                return f"there is no ticket kind {a.ticket!r}"
            if d.tickets[tk].venue != v:
                return f"that ticket is for the {LINE_NAMES[2 + d.tickets[tk].venue]}, not the {here}"
            if not self.tickets[seat] & d.ticket_masks[tk]:
                return f"you hold no unsold {ticket_key_name(a.ticket)} ticket"
        else:
            if not self._caesar_here(v):
                return "a favour card can be sold as a seat only beside Caesar, once a day"
            fk = FAVOUR_KEYS.index(a.favour) if a.favour in FAVOUR_KEYS else -1
            if fk < 0:
                return f"there is no favour {a.favour!r}"
            need[fk] += 1
        if a.legion:
            if vk != d.legionnaire_kind:
                return "Ticket→Legionnaire works only when selling to a Legionnaire"
            need[F_LEGIONNAIRE] += 1
        if a.double:
            need[F_DOUBLE_SALE] += 1
        for k, c in enumerate(need):
            held = self._held(seat, k)
            if c and held < c:
                if not held:
                    return f"you hold no {favour_name(FAVOUR_KEYS[k])} favour"
                return f"this needs {c} {favour_name(FAVOUR_KEYS[k])} favour cards and you hold {held}"
        if a.double:
            if popcount(self._sellable(v)) < 2:
                return f"III +Ticket needs two visitors left at the {here}"
            tickets_left = popcount(self.tickets[seat] & d.venue_ticket_masks[v]) - (a.ticket is not None)
            caesar_left = (a.ticket is not None and self._caesar_here(v)
                           and popcount(self.favours[seat]) - sum(need) > 0)
            if tickets_left <= 0 and not caesar_left:
                return f"III +Ticket needs a second ticket for the {here}"
        return None

    def _check_skip(self, a: Action, seat: int, kind: str) -> str | None:
        if kind != "venue":
            return self._wrong_time(kind)
        v = self.res_line - 2
        if self.tickets[seat] & self.data.venue_ticket_masks[v]:
            return f"you hold a ticket for the {LINE_NAMES[self.res_line]}, so your trader must sell it"
        return None

    # ================================================================ moves
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
        k = self.data.ticket_index(a.ticket)
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
            tk = d.ticket_index(a.ticket)
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
        vk = d.visitor_index(a.visitor)
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
            k = d.ticket_index(action.ticket)
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
            k = d.visitor_index(action.visitor)
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
            if any(not isinstance(a, Pass) for a in self.legal_actions(s)):
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
            return bool(self.fav_display) or self.sp_at_villa
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
    def observation(self, seat: int | None) -> CircusMaximusObservation:
        keys = derived(self.data, _ObsKeys)
        fav_keys, tkt_keys, vis_keys = keys.fav, keys.tkt, keys.vis
        n = self.n
        return _new_observation({
            "seat": seat,
            "players": n,
            "caesar_variant": self.options.caesar,
            "cards": self.options.cards,
            "day": self.day,
            "phase": self.stage,
            "phase_name": PHASE_NAMES[self.stage],
            "resolving": self.resolving,
            "to_act": self.current_seats(),
            "starting": self.starting,
            "start_card_at_villa": self.sp_at_villa,
            "turn": self.turn,
            "passed": _passed_flags(self.passed, n),
            "extra_traders": self.extra,
            "pending_visitor": None if self.pending_visitor < 0 else keys.visitor_of[self.pending_visitor],
            "resolving_line": LINE_KEYS[self.res_line] if self.resolving else None,
            "resolving_index": self.res_pos if self.resolving else -1,
            "second_pick": self.res_again,
            "lines": tuple(map(tuple, self.lines)),
            "hands": tuple(map(_hand_ranks, self.hands)),
            "favours": tuple(map(fav_keys, self.favours)),
            "tickets": tuple(map(tkt_keys, self.tickets)),
            "sales": self._sales_keys() if any(self.sales) else ((),) * len(self.sales),
            "past_sales": tuple(self.past_sales),
            "favour_display": fav_keys(self.fav_display),
            "forum": tkt_keys(self.forum),
            "venues": tuple(map(vis_keys, self.venue_vis)),
            "bonus": tuple(self.bonus),
            "caesar_used": self.caesar_used,
            "favour_deck": fav_keys(self.fav_deck),
            "ticket_deck": tkt_keys(self.tkt_deck),
            "visitor_deck": vis_keys(self.vis_deck),
            "favours_out": fav_keys(self.fav_gone),
            "visitors_out": vis_keys(self.vis_box),
            "draws": tuple(self.draws),
            "setup_tickets": tuple(self.setup_counts),
            "scores": tuple(self.totals),
            "day_scores": tuple(map(tuple, self.day_scores)),
            "favour_coins": None if self.favour_coins is None else tuple(self.favour_coins),
        })

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

    _INT_FIELDS = ("day", "stage", "turn", "passed", "extra", "pending_visitor", "res_line", "res_pos",
                   "fav_deck", "fav_display", "fav_gone", "starting", "tkt_deck", "forum", "vis_deck",
                   "vis_box", "vis_aside")
    _BOOL_FIELDS = ("resolving", "turn_done", "res_again", "sp_at_villa", "caesar_used")
    _INT_LISTS = ("hands", "favours", "tickets", "setup_counts", "bonus", "venue_vis", "totals")

    def _position(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self._INT_FIELDS + self._BOOL_FIELDS + self._INT_LISTS:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, list) else value
        out["draws"] = [list(t) for t in self.draws]
        out["lines"] = [[list(e) for e in line] for line in self.lines]
        out["sales"] = [[list(e) for e in s] for s in self.sales]
        out["day_scores"] = [list(x) for x in self.day_scores]
        out["past_sales"] = _jsonable(tuple(self.past_sales))
        out["favour_coins"] = None if self.favour_coins is None else list(self.favour_coins)
        return out

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


def _state_from_position(game: Game, options: CircusMaximusOptions, rng: Rng | None, data: Any,
                         cards: CardData) -> CircusMaximusState:
    """Inverse of ``CircusMaximusState._position``. Every field is checked (bounds, card ids within
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
    for name in CircusMaximusState._BOOL_FIELDS:
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


class CircusMaximusGame(Game):
    """Circus Maximus for 3-5 players, with the Caesar variant as an option."""

    name = "circus-maximus"
    title = "Circus Maximus"
    summary = ("Queue your traders for Caesar's favours, tickets and the visitors of three venues, "
               "over three days of games")
    Options = CircusMaximusOptions
    min_seats = 3
    max_seats = 5

    def num_seats(self, options: Any) -> int:
        return self.parse_options(options).players

    def seat_names(self, options: Any) -> list[str]:
        return list(COLOURS[: self.num_seats(options)])

    def cards(self, options: CircusMaximusOptions) -> CardData:
        """The card data these options name (shipped file unless ``cards`` is set)."""
        return load_cards(options.cards or None)

    def _new_state(self, options: CircusMaximusOptions, rng: Rng | None) -> CircusMaximusState:
        state = CircusMaximusState(self, options, rng, self.cards(options))
        state._setup_game()
        return state

    def _state_from_position(self, options: Any, rng: Rng | None, data: Any) -> CircusMaximusState:
        try:
            cards = self.cards(options)
        except DataError as exc:
            raise RecordError(f"position option 'cards': {exc}") from exc
        return _state_from_position(self, options, rng, data, cards)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)

    def sample_state(self, view: SeatView, rng: Rng) -> CircusMaximusState:
        """Rebuild the state from the (complete, public) observation; future draws use ``rng``.

        Decks are unordered, so nothing is hidden and no card needs to be guessed: the copy
        differs from the real state at most in which card ids of one kind sit where, which
        no rule can tell apart.
        """
        return state_from_observation(self, view.options, view.observation, rng.spawn())


def state_from_observation(game: CircusMaximusGame, options: Any, obs: CircusMaximusObservation,
                           rng: Rng | None) -> CircusMaximusState:
    """A state matching ``obs`` exactly (card ids of one kind assigned lowest first)."""
    options = game.parse_options(options)
    d = game.cards(options)
    st = CircusMaximusState(game, options, rng, d)
    free = {"f": d.all_favours, "t": d.all_tickets, "v": d.all_visitors}
    masks = {"f": d.favour_masks, "t": d.ticket_masks, "v": d.visitor_masks}

    def take(kind: str, k: int) -> int:
        card = _low(free[kind] & masks[kind][k])
        if card < 0:
            raise RecordError("the observation holds more cards of a kind than exist")
        free[kind] &= ~(1 << card)
        return card

    def fav(keys: tuple[str, ...]) -> int:
        return sum(1 << take("f", FAVOUR_KEYS.index(k)) for k in keys)

    def tkt_index(key: str) -> int:
        k = d.ticket_index(key)
        if k is None:
            raise RecordError(f"unknown ticket {key!r}")
        return k

    def vis_index(key: str) -> int:
        k = d.visitor_index(key)
        if k is None:
            raise RecordError(f"unknown visitor {key!r}")
        return k

    def tkt(keys: tuple[str, ...]) -> int:
        return sum(1 << take("t", tkt_index(k)) for k in keys)

    def vis(keys: tuple[str, ...]) -> int:
        return sum(1 << take("v", vis_index(k)) for k in keys)

    st.day, st.stage, st.resolving = obs.day, obs.phase, obs.resolving
    st.starting, st.sp_at_villa, st.turn = obs.starting, obs.start_card_at_villa, obs.turn
    st.passed = sum(1 << s for s, p in enumerate(obs.passed) if p)
    st.extra = obs.extra_traders
    st.turn_done = False
    st.res_line = LINE_KEYS.index(obs.resolving_line) if obs.resolving_line else 0
    st.res_pos = max(0, obs.resolving_index)
    st.res_again = obs.second_pick
    st.lines = [list(line) for line in obs.lines]
    st.hands = [sum(1 << (r - 1) for r in h) for h in obs.hands]
    st.favours = [fav(f) for f in obs.favours]
    st.tickets = [tkt(t) for t in obs.tickets]
    st.sales = []
    for seat_sales in obs.sales:
        rows = []
        for what, visitor, coins in seat_sales:
            if what.startswith("favour:"):
                rows.append((1, take("f", FAVOUR_KEYS.index(what[7:])), take("v", vis_index(visitor)), coins))
            else:
                rows.append((0, take("t", tkt_index(what)), take("v", vis_index(visitor)), coins))
        st.sales.append(rows)
    st.fav_display = fav(obs.favour_display)
    st.forum = tkt(obs.forum)
    st.venue_vis = [vis(v) for v in obs.venues]
    st.bonus = list(obs.bonus)
    st.caesar_used = obs.caesar_used
    st.fav_deck = fav(obs.favour_deck)
    st.tkt_deck = tkt(obs.ticket_deck)
    st.vis_deck = vis(obs.visitor_deck)
    st.fav_gone = fav(obs.favours_out)
    st.vis_box = vis(obs.visitors_out)
    st.pending_visitor = take("v", vis_index(obs.pending_visitor)) if obs.pending_visitor else -1
    st.vis_aside = free["v"] & d.caesar_mask if obs.caesar_used else 0
    st.draws = [tuple(t) for t in obs.draws]  # type: ignore[misc]
    st.setup_counts = list(obs.setup_tickets)
    st.totals = list(obs.scores)
    st.day_scores = [list(x) for x in obs.day_scores]
    st.past_sales = list(obs.past_sales)
    st.favour_coins = None if obs.favour_coins is None else list(obs.favour_coins)
    return st


GAME = CircusMaximusGame()
