"""A Circus Maximus heuristic that budgets its eight traders over the day's three queues.

Each day it plans how many tickets it can actually sell: every ticket needs one trader at
the forum and one more at a venue, so it never queues for a ticket it has no trader left
to sell. In each line it estimates where a trader would stand (behind every trader of equal
or higher rank, counting rivals who still hold stronger traders and a reason to queue) and
plays the cheapest trader that still gets served, only when the prize beats the coins the
trader would have earned unplayed. Favour cards are weighed the same way: a card is played
only when its effect is worth more than the coins it would score at the end of the game.

Speed: this bot drives heuristic rollouts, so everything a decision needs is worked out at
most once per :meth:`CircusMaximusHeuristic.act` (visitors and tickets per venue, ticket
values, the prizes and gains of each line) and shared by all candidate actions, and card
values are looked up in tables built once per card-data object. The scores themselves, and
so the choices, are exactly those of the plain formulas written out in the methods below.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ...core.agent import Agent
from ...core.game import Action, SeatView
from ...core.memo import BoundedMemo, derived
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
from .cards import FAVOUR_KEYS, VENUE_KEYS, CardData
from .views import CircusMaximusObservation

__all__ = ["EFFECT_VALUE", "START_CARD_VALUE", "CircusMaximusHeuristic", "villa_prizes"]

# What a favour's effect is worth to this bot, on top of the coins printed on it.
EFFECT_VALUE = {
    "extra_visitor": 1.5, "extra_trader": 1.0, "legionnaire": 2.0, "double_ticket": 1.5, "double_sale": 1.5,
    "replay_trader": 1.5, "ticket_and_visitor": 2.5, "rank_boost": 1.0, "move_ahead": 1.0,
}
START_CARD_VALUE = 1.0


def villa_prizes(favours: list[float], card_there: bool, reading: str) -> list[float]:
    """What the traders at the villa win, front first, by what this bot thinks each card worth.

    With ``reading == "extra-pick"`` the starting-player card is one more pick. By the rulebook
    (``"instead"``) the picks are the favours only, and the front trader also gets the card
    unless someone chooses it, so it is added to the first prize (with no favours on display
    the front trader wins just the card).
    """
    if reading == "extra-pick":
        return sorted(favours + ([START_CARD_VALUE] if card_there else []), reverse=True)
    prizes = sorted(favours, reverse=True) or ([0.0] if card_there else [])
    if card_there:
        prizes[0] += START_CARD_VALUE
    return prizes

_LINE_INDEX = {key: i for i, key in enumerate(LINE_KEYS)}
_VENUE_INDEX = {key: i for i, key in enumerate(VENUE_KEYS)}
_VENUE_PREFIXES = tuple(key + ":" for key in VENUE_KEYS)

# _THREAT[k]: 0.6 added up k times, in the same order as a running total would
_THREAT = [0.0]
for _ in range(32):
    _THREAT.append(_THREAT[-1] + 0.6)
del _


def _served_capped(seats: list[int], me: int, prizes: list[float], limit: float, cap: int,
                   sellers: set[int] | frozenset[int]) -> float:
    """My prizes when the traders of ``seats`` (owners, in line order) take places in turn and
    places below ``limit`` are served; only my first ``cap`` traders and rivals in ``sellers``
    take a place at all."""
    total, place, used = 0.0, 0, 0
    for s in seats:
        if s == me:
            if used >= cap:
                continue
        elif s not in sellers:
            continue
        if place >= limit:
            break
        if s == me:
            total += prizes[place]
            used += 1
        place += 1
    return total


class _VenueOf(dict[str, int]):
    """Ticket key -> venue index by its ``venue:`` prefix (-1 for none), filled on demand."""

    def __missing__(self, key: str) -> int:
        venue = next((v for v, prefix in enumerate(_VENUE_PREFIXES) if key.startswith(prefix)), -1)
        self[key] = venue
        return venue


def _key_venue(key: str) -> int:
    """The venue a ticket key names before its colon."""
    return _VENUE_INDEX[key.split(":")[0]]


_MEMO_MAX = 4096


class _Tables:
    """Card values by key for one card-data object (first entry wins, as the data's own lookups)."""

    def __init__(self, d: CardData) -> None:
        self.trader_coins = d.trader_coins
        self.ticket_coins: dict[str, int] = {}
        for t in d.tickets:
            self.ticket_coins.setdefault(t.key, t.coins)
        self.visitor_coins: dict[str, int] = {}
        for v in d.visitors:
            self.visitor_coins.setdefault(v.key, v.coins)
        self.favour_coins = {key: d.favours[FAVOUR_KEYS.index(key)].coins for key in FAVOUR_KEYS}
        self.venue_of = _VenueOf()
        for t in d.tickets:
            self.venue_of[t.key]
        # PlayTicketVisitor: the average ticket and the average (non-Caesar) visitor
        avg = sum(self.ticket_coins[t.key] * t.count for t in d.tickets) / max(1, sum(t.count for t in d.tickets))
        visitors = [v for v in d.visitors if not v.caesar]
        avg_v = sum(v.coins * v.count for v in visitors) / max(1, sum(v.count for v in visitors))
        self.ticket_visitor_base = 0.7 * (avg + avg_v)
        # the same hands and venue queues come round again and again: remember what they hold
        # (at most _MEMO_MAX each; when full the oldest entry goes, one at a time)
        self.hand_venues: BoundedMemo[tuple[str, ...], tuple[int, int, int, int]] = BoundedMemo(
            self._hand_venues, _MEMO_MAX)
        self.key_venue: BoundedMemo[str, int] = BoundedMemo(_key_venue, _MEMO_MAX)
        self.buyers: BoundedMemo[tuple[str, ...], list[int]] = BoundedMemo(self._sorted_buyers, _MEMO_MAX)

    def _hand_venues(self, hand: tuple[str, ...]) -> tuple[int, int, int, int]:
        """How many tickets of ``hand`` are for each venue (last: keys of no venue)."""
        row = [0, 0, 0, 0]
        venue_of = self.venue_of
        for t in hand:
            row[venue_of[t]] += 1
        return row[0], row[1], row[2], row[3]

    def _sorted_buyers(self, visitors: tuple[str, ...]) -> list[int]:
        coins = self.visitor_coins
        return sorted((coins[k] for k in visitors if k != "caesar"), reverse=True)


class CircusMaximusHeuristic(Agent):
    name = "heuristic"

    # the card data of the last options seen (the game caches it per options anyway)
    _opts: Any = None
    _game: Any = None
    _cards: CardData = None  # type: ignore[assignment]
    _tab: _Tables = None  # type: ignore[assignment]

    def act(self, view: SeatView) -> Action:
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0]
        obs: CircusMaximusObservation = view.observation
        self.obs = obs
        self.me: int = view.seat
        if view.options is not self._opts or view.game is not self._game:
            self._cards = view.game.cards(view.options)  # type: ignore[attr-defined]
            self._tab = derived(self._cards, _Tables)
            self._opts, self._game = view.options, view.game
        self.cards: CardData = self._cards
        self._begin(obs)
        rand = self.rng.random
        handlers = _HANDLERS
        best, best_score = actions[0], float("-inf")
        for action in actions:
            handler = handlers.get(type(action))
            score = (handler(self, action) if handler is not None else self._score(action)) + rand() * 1e-6
            if score > best_score:
                best, best_score = action, score
        return best

    def _begin(self, obs: CircusMaximusObservation) -> None:
        """Forget what the last decision worked out."""
        self._late = obs.day == 3 and obs.phase >= 2
        self._fw: dict[str, float] = {}
        self._odds: list[tuple[float, float] | tuple[()] | None] = [None, None, None]
        self._seat_venues: list[tuple[int, int, int, int]] | None = None
        self._venue_counts: list[int] | None = None
        self._queued: list[int] | None = None
        self._spare: int | None = None
        self._values: dict[str, float] = {}
        self._forum_values: list[float] | None = None
        self._bests: list[list[int] | None] = [None, None, None, None, None]
        self._my_places: list[list[int] | None] = [None, None, None, None, None]
        self._prizes: dict[int, Any] = {}
        self._gains: dict[int, float] = {}
        self._sell_costs: dict[int, int] = {}
        self._trader_coins = self._tab.trader_coins

    # ----------------------------------------------------------------- values
    def _coins(self, rank: int) -> int:
        return self._tab.trader_coins[rank - 1]

    def _favour_worth(self, key: str) -> float:
        """Keeping a favour: its end-of-game coins plus what its effect may bring later."""
        worth = self._fw.get(key)
        if worth is None:
            coins = self._tab.favour_coins[key]
            worth = self._fw[key] = coins + (0.3 if self._late else 1.0) * EFFECT_VALUE.get(key, 1.0)
        return worth

    def _ticket_coins(self, key: str) -> int:
        return self._tab.ticket_coins[key]

    def _visitor_coins(self, key: str) -> int:
        return self._tab.visitor_coins[key]

    def _buyers(self, venue: int) -> list[int]:
        """Coins of the visitors still waiting at ``venue``, best first (shared: do not change)."""
        return self._tab.buyers[self.obs.venues[venue]]

    def _tickets_by_venue(self) -> list[tuple[int, int, int, int]]:
        """Per seat, how many tickets it holds for each venue (last: keys of no venue)."""
        counts = self._seat_venues
        if counts is None:
            counts = self._seat_venues = [self._tab.hand_venues[hand] for hand in self.obs.tickets]
        return counts

    def _venue_tickets(self, venue: int) -> int:
        """Tickets for ``venue`` still in play (at the forum or unsold in hands)."""
        totals = self._venue_counts
        if totals is None:
            totals = list(self._tab.hand_venues[self.obs.forum])
            for row in self._tickets_by_venue():
                totals[0] += row[0]
                totals[1] += row[1]
                totals[2] += row[2]
            self._venue_counts = totals
        return totals[venue]

    def _venue_odds(self, venue: int) -> tuple[float, float] | tuple[()]:
        """(chance that a ticket for ``venue`` finds a buyer, the buyers' average coins), or ()
        when nobody waits there."""
        odds = self._odds[venue]
        if odds is None:
            buyers = self._buyers(venue)
            if not buyers:
                odds = ()
            else:
                demand = max(1, self._venue_tickets(venue))
                chance = min(1.0, len(buyers) / demand)
                avg = sum(buyers) / len(buyers)
                odds = (chance, avg)
            self._odds[venue] = odds
        return odds

    def _ticket_value(self, key: str) -> float:
        """Expected coins of holding this ticket: its face plus a likely buyer, if any."""
        value = self._values.get(key)
        if value is None:
            venue = self._tab.key_venue[key]
            odds = self._odds[venue]
            if odds is None:
                odds = self._venue_odds(venue)
            if not odds:
                value = 0.0
            else:
                chance, avg = odds
                value = chance * (self._tab.ticket_coins[key] + avg + self.obs.bonus[venue])
            self._values[key] = value
        return value

    def _forum_ticket_values(self) -> list[float]:
        """Values of the tickets at the forum, best first (shared: do not change)."""
        values = self._forum_values
        if values is None:
            cached, value_of = self._values.get, self._ticket_value
            values = []
            for t in self.obs.forum:
                value = cached(t)
                values.append(value_of(t) if value is None else value)
            values.sort(reverse=True)
            self._forum_values = values
        return values

    # ----------------------------------------------------------------- lines
    def _position(self, li: int, eff: int) -> int:
        """Where a trader of effective rank ``eff`` would stand in line ``li`` now."""
        return sum(1 for _s, _r, e in self.obs.lines[li] if e >= eff)

    def _rival_bests(self, li: int) -> list[int]:
        """The best trader (0 for none) of each rival still placing who may queue in line ``li``:
        anyone at the villa and the forum, at a venue only those holding a ticket for it that
        they have not queued for yet."""
        bests = self._bests[li]
        if bests is None:
            obs = self.obs
            me, passed, hands = self.me, obs.passed, obs.hands
            rivals = [s for s in range(obs.players) if s != me and not passed[s]]
            if li >= 2 and rivals:
                venue = li - 2
                by_venue = self._tickets_by_venue()
                held = [by_venue[s][venue] for s in range(len(by_venue))]
                for s, _r, _e in obs.lines[li]:
                    held[s] -= 1
                rivals = [s for s in rivals if held[s] > 0]
            bests = self._bests[li] = [max(hands[s]) if hands[s] else 0 for s in rivals]
        return bests

    def _my_tickets(self, venue: int | None = None) -> int:
        if venue is None:
            return len(self.obs.tickets[self.me])
        return self._tickets_by_venue()[self.me][venue]

    def _my_queued(self, li: int) -> int:
        queued = self._queued
        if queued is None:
            me = self.me
            queued = self._queued = [0, 0, 0, 0, 0]
            for i, line in enumerate(self.obs.lines):
                for s, _r, _e in line:
                    if s == me:
                        queued[i] += 1
        return queued[li]

    def _spare_traders(self) -> int:
        """Traders in hand beyond those needed to sell the tickets already held or queued for."""
        spare = self._spare
        if spare is None:
            obs = self.obs
            hand = len(obs.hands[self.me])
            if obs.phase == 3:
                mine = self._tickets_by_venue()[self.me]
                unsold = sum([max(0, mine[v] - self._my_queued(2 + v)) for v in range(3)])
                spare = hand - unsold
            else:
                pending = self._my_tickets() + (self._my_queued(1) if obs.phase == 2 else 0)
                spare = hand - pending
            self._spare = spare
        return spare

    # ----------------------------------------------------------------- scoring actions
    def _score(self, a: Action) -> float:
        for cls, handler in _HANDLERS.items():
            if isinstance(a, cls):
                return handler(self, a)
        return -1.0

    def _score_zero(self, a: Action) -> float:
        return 0.0

    def _score_ticket_visitor(self, a: PlayTicketVisitor) -> float:
        if self._spare_traders() < 1:
            return -1.0
        return self._tab.ticket_visitor_base - self._favour_worth("ticket_and_visitor")

    def _score_take_favour(self, a: TakeFavour) -> float:
        return self._favour_worth(a.favour) + 10

    def _score_take_start(self, a: TakeStart) -> float:
        obs = self.obs
        if obs.start_card == "instead" and obs.resolving_index == 0:
            return 10.0  # the front trader gets the card anyway unless someone chooses it
        return START_CARD_VALUE + 10

    def _score_take_ticket(self, a: TakeTicket) -> float:
        value = self._ticket_value(a.ticket) + 10
        if a.double:
            others = self._forum_ticket_values()
            second = others[1] if len(others) > 1 else 0.0
            if self._spare_traders() < 2:
                second = 0.0
            value += second - self._favour_worth("double_ticket")
        return value

    def _score_skip(self, a: Skip) -> float:
        return 10.0

    def _line_prizes(self, li: int) -> Any:
        """Line ``li``'s prizes best first; at a venue (prizes, my cap, rivals who count) or None
        when I have no reason to queue there."""
        if li in self._prizes:
            return self._prizes[li]
        obs = self.obs
        out: Any
        if li == 0:
            out = villa_prizes([self._favour_worth(k) for k in obs.favour_display], obs.start_card_at_villa,
                               obs.start_card)
        elif li == 1:
            out = self._forum_ticket_values()
        else:
            venue = li - 2
            me = self.me
            mine = self._my_tickets(venue)
            caesar = "caesar" in obs.venues[venue] and not obs.caesar_used and bool(obs.favours[me])
            if mine - self._my_queued(li) <= 0 and not caesar:
                out = None
            else:
                bonus = obs.bonus[venue]
                venue_of = self._tab.venue_of
                coins = self._tab.ticket_coins
                best_ticket = max((coins[t] for t in obs.tickets[me] if venue_of[t] == venue), default=0)
                add = best_ticket if mine else -1.0
                prizes = [b + bonus + add for b in self._buyers(venue)]
                by_venue = self._tickets_by_venue()
                sellers = {s for s in range(len(obs.tickets)) if s != me and by_venue[s][venue] > 0}
                out = (prizes, max(mine, 1 if caesar else 0), sellers)
        self._prizes[li] = out
        return out

    def _gain(self, li: int, eff: int) -> float:
        """What one more trader of rank ``eff`` in line ``li`` wins me (the line must be open).

        The places likely served are the prizes less 0.6 for each rival still placing who
        holds a stronger trader (and, at a venue, a ticket there not yet queued for).
        """
        key = li * 16 + eff
        gain = self._gains.get(key)
        if gain is not None:
            return gain
        info = self._prizes[li] if li in self._prizes else self._line_prizes(li)
        prizes: list[float]
        cap: int | None
        sellers: set[int] | frozenset[int]
        if li < 2:
            prizes, cap, sellers = info, None, frozenset()
        else:
            prizes, cap, sellers = info
        n = 0
        bests = self._bests[li]
        for best in bests if bests is not None else self._rival_bests(li):
            if best > eff:
                n += 1
        gain = self._gains[key] = self._line_gain(li, eff, prizes, len(prizes) - _THREAT[n], cap, sellers)
        return gain

    def _line_gain(self, li: int, eff: int, prizes: list[float], slots: float,
                   cap: int | None = None, sellers: set[int] | frozenset[int] = frozenset()) -> float:
        """What my traders in line ``li`` win with one more trader of rank ``eff``, minus without it.

        ``prizes`` are the prize values best first, ``slots`` how many places are likely
        served (prizes less the rivals expected to queue ahead). With a ``cap`` (at a venue)
        only traders whose owner can sell there take a place: at most ``cap`` of mine, and
        rivals only when in ``sellers``.
        """
        size = len(prizes)
        limit = slots if slots < size else size  # places served: place < slots and place < size
        if limit <= 0:
            return 0.0  # nobody is served, with or without the new trader
        me = self.me
        line = self.obs.lines[li]
        pos = 0  # where the new trader would stand: behind all of equal or higher rank
        for _s, _r, e in line:
            if e >= eff:
                pos += 1
        if cap is None:
            # every trader takes a place: only my own places matter, each adds its prize
            # in place order (the same running sums as walking the whole line)
            served = math.ceil(limit)
            mine = self._my_places[li]
            if mine is None:
                mine = self._my_places[li] = [i for i, (s, _r, _e) in enumerate(line) if s == me]
            before = 0.0
            for i in mine:
                if i >= served:
                    break
                before += prizes[i]
            after = 0.0
            for i in mine:
                if i >= pos or i >= served:
                    break
                after += prizes[i]
            if pos < served:
                after += prizes[pos]
                for i in mine:
                    if i >= pos:
                        if i + 1 >= served:
                            break
                        after += prizes[i + 1]
            return after - before
        seats = [s for s, _r, _e in line]
        before = _served_capped(seats, me, prizes, limit, cap, sellers)
        seats.insert(pos, me)
        return _served_capped(seats, me, prizes, limit, cap, sellers) - before

    def _score_place(self, a: Place) -> float:
        rank = a.rank
        li = _LINE_INDEX[a.line]
        eff = 8 if a.boost else rank
        cost: float = self._trader_coins[rank - 1]
        if a.boost:
            cost += self._favour_worth("rank_boost")
        if a.extra:
            cost += self._favour_worth("extra_trader") - 0.5
        gain = self._gains.get(li * 16 + eff)
        if li == 0:
            # the villa: favours and the starting-player card; keep four traders for the day
            if (self._spare if self._spare is not None else self._spare_traders()) <= 4:
                return -1.0
            if gain is None:
                gain = self._gain(0, eff)
            reserve = 1.5 if rank >= 6 else 0.0  # strong traders are wanted for tickets
            return gain - cost - reserve if gain > 0 else -1.0
        if li == 1:
            # a ticket needs this trader and one more to sell it
            if (self._spare if self._spare is not None else self._spare_traders()) < 2:
                return -1.0
            if gain is None:
                gain = self._gain(1, eff)
            if gain <= 0:
                return -1.0
            sell_cost = self._sell_costs.get(rank)
            if sell_cost is None:
                coins = self._trader_coins
                others = [coins[r - 1] for r in self.obs.hands[self.me] if r != rank]
                sell_cost = self._sell_costs[rank] = min(others) if others else 0
            reserve = 0.8 if rank >= 7 else 0.0
            return gain - cost - sell_cost - reserve
        if gain is None:
            if (self._prizes[li] if li in self._prizes else self._line_prizes(li)) is None:
                return -1.0  # no reason to queue at this venue
            gain = self._gain(li, eff)
        if gain <= 0:
            return -1.0
        # prefer the weakest trader that still gets served
        return gain - cost - 0.05 * rank

    def _score_extra_visitor(self, a: Action | None = None) -> float:
        obs = self.obs
        if obs.phase != 3:
            return -1.0
        best = -1.0
        for venue in range(3):
            short = self._my_tickets(venue) > 0 and self._venue_tickets(venue) > len(self._buyers(venue))
            if short:
                best = max(best, 5.0 - self._favour_worth("extra_visitor"))
        return best

    def _score_place_visitor(self, a: PlaceVisitor) -> float:
        venue = _VENUE_INDEX[a.venue]
        return self._my_tickets(venue) * 2 - len(self._buyers(venue)) * 0.5 + self._venue_tickets(venue) * 0.1

    def _score_replay(self, a: PlayReplay) -> float:
        value = self._score_place(Place(a.rank, a.line))
        return value + self._coins(a.rank) - self._favour_worth("replay_trader")

    def _score_move_ahead(self, a: PlayMoveAhead) -> float:
        obs = self.obs
        for li, line in enumerate(obs.lines):
            for i, (s, r, _e) in enumerate(line):
                if s == self.me and r == a.rank:
                    if li == 0:
                        slots = len(obs.favour_display) + (obs.start_card_at_villa
                                                           and obs.start_card == "extra-pick")
                    elif li == 1:
                        slots = len(obs.forum)
                    else:
                        slots = len(self._buyers(li - 2))
                    # worth it when it moves the trader from just outside the served places to inside
                    if i == slots:
                        return 3.0 - self._favour_worth("move_ahead")
                    return -1.0
        return -1.0

    def _score_sell(self, a: Sell) -> float:
        obs = self.obs
        paid = self.cards.legionnaire_pays if a.legion else self._visitor_coins(a.visitor)
        venue = _VENUE_INDEX.get(obs.resolving_line, 0)  # type: ignore[arg-type]
        value = 10.0 + paid + obs.bonus[venue]
        if a.ticket is not None:
            value += self._ticket_coins(a.ticket)
        else:
            value -= EFFECT_VALUE.get(a.favour or "", 1.0)  # its coins count either way; its effect is lost
        if a.legion:
            value -= self._favour_worth("legionnaire")
        if a.double:
            rest = self._buyers(venue)  # already best first
            venue_of = self._tab.venue_of
            tickets = sorted((self._ticket_coins(t) for t in obs.tickets[self.me] if venue_of[t] == venue),
                             reverse=True)
            if a.ticket is not None and tickets:
                tickets = tickets[1:]
            second = (rest[1] if len(rest) > 1 else 0) + (tickets[0] if tickets else 0)
            later = sum(1 for s, _r, _e in obs.lines[2 + venue][obs.resolving_index + 1:] if s == self.me)
            value += (0.3 if later else 1.0) * second - self._favour_worth("double_sale")
        return value


# action type -> its scorer, in the order the types were once tested (a subclass of one of
# them, should there ever be one, is scored by the first type it is an instance of)
_HANDLERS: dict[type, Callable[[CircusMaximusHeuristic, Any], float]] = {
    Pass: CircusMaximusHeuristic._score_zero,
    Done: CircusMaximusHeuristic._score_zero,
    Place: CircusMaximusHeuristic._score_place,
    PlayExtraVisitor: CircusMaximusHeuristic._score_extra_visitor,
    PlaceVisitor: CircusMaximusHeuristic._score_place_visitor,
    PlayTicketVisitor: CircusMaximusHeuristic._score_ticket_visitor,
    PlayReplay: CircusMaximusHeuristic._score_replay,
    PlayMoveAhead: CircusMaximusHeuristic._score_move_ahead,
    TakeFavour: CircusMaximusHeuristic._score_take_favour,
    TakeStart: CircusMaximusHeuristic._score_take_start,
    TakeTicket: CircusMaximusHeuristic._score_take_ticket,
    Sell: CircusMaximusHeuristic._score_sell,
    Skip: CircusMaximusHeuristic._score_skip,
}
