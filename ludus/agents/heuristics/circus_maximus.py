"""A Circus Maximus heuristic that budgets its eight traders over the day's three queues.

Each day it plans how many tickets it can actually sell: every ticket needs one trader at
the forum and one more at a venue, so it never queues for a ticket it has no trader left
to sell. In each line it estimates where a trader would stand (behind every trader of equal
or higher rank, counting rivals who still hold stronger traders and a reason to queue) and
plays the cheapest trader that still gets served, only when the prize beats the coins the
trader would have earned unplayed. Favour cards are weighed the same way: a card is played
only when its effect is worth more than the coins it would score at the end of the game.
"""

from __future__ import annotations

from typing import Any

from ...core.game import Action, SeatView
from ...games.circus_maximus.actions import (
    LINE_KEYS, Done, Pass, Place, PlaceVisitor, PlayExtraVisitor, PlayMoveAhead, PlayReplay, PlayTicketVisitor,
    Sell, Skip, TakeFavour, TakeStart, TakeTicket,
)
from ...games.circus_maximus.data import VENUE_KEYS, CardData
from ...games.circus_maximus.game import CircusMaximusObservation
from ..base import Agent

# What a favour's effect is worth to this bot, on top of the coins printed on it.
EFFECT_VALUE = {
    "extra_visitor": 1.5, "extra_trader": 1.0, "legionnaire": 2.0, "double_ticket": 1.5, "double_sale": 1.5,
    "replay_trader": 1.5, "ticket_and_visitor": 2.5, "rank_boost": 1.0, "move_ahead": 1.0,
}
START_CARD_VALUE = 1.0


class CircusMaximusHeuristic(Agent):
    name = "heuristic"

    def act(self, view: SeatView) -> Action:
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0]
        self.obs: CircusMaximusObservation = view.observation
        self.me: int = view.seat
        self.cards: CardData = view.game.cards(view.options)  # type: ignore[attr-defined]
        best, best_score = actions[0], float("-inf")
        for action in actions:
            score = self._score(action) + self.rng.random() * 1e-6
            if score > best_score:
                best, best_score = action, score
        return best

    # ----------------------------------------------------------------- values
    def _coins(self, rank: int) -> int:
        return self.cards.trader_coins[rank - 1]

    def _favour_worth(self, key: str) -> float:
        """Keeping a favour: its end-of-game coins plus what its effect may bring later."""
        d = self.cards
        coins = d.favours[d.favour_index(key)].coins  # type: ignore[index]
        late = self.obs.day == 3 and self.obs.phase >= 2
        return coins + (0.3 if late else 1.0) * EFFECT_VALUE.get(key, 1.0)

    def _ticket_coins(self, key: str) -> int:
        return self.cards.tickets[self.cards.ticket_index(key)].coins  # type: ignore[index]

    def _visitor_coins(self, key: str) -> int:
        return self.cards.visitors[self.cards.visitor_index(key)].coins  # type: ignore[index]

    def _buyers(self, venue: int) -> list[int]:
        """Coins of the visitors still waiting at ``venue``, best first."""
        return sorted((self._visitor_coins(k) for k in self.obs.venues[venue] if k != "caesar"), reverse=True)

    def _venue_tickets(self, venue: int) -> int:
        """Tickets for ``venue`` still in play (at the forum or unsold in hands)."""
        key = VENUE_KEYS[venue] + ":"
        held = sum(1 for hand in self.obs.tickets for t in hand if t.startswith(key))
        return held + sum(1 for t in self.obs.forum if t.startswith(key))

    def _ticket_value(self, key: str) -> float:
        """Expected coins of holding this ticket: its face plus a likely buyer, if any."""
        venue = VENUE_KEYS.index(key.split(":")[0])
        buyers = self._buyers(venue)
        if not buyers:
            return 0.0
        demand = max(1, self._venue_tickets(venue))
        chance = min(1.0, len(buyers) / demand)
        avg = sum(buyers) / len(buyers)
        return chance * (self._ticket_coins(key) + avg + self.obs.bonus[venue])

    # ----------------------------------------------------------------- lines
    def _position(self, li: int, eff: int) -> int:
        """Where a trader of effective rank ``eff`` would stand in line ``li`` now."""
        return sum(1 for _s, _r, e in self.obs.lines[li] if e >= eff)

    def _threat(self, eff: int, venue: int | None = None) -> float:
        """Rivals still placing who hold a stronger trader (and, at a venue, a reason to queue)."""
        obs = self.obs
        n = 0.0
        for s in range(obs.players):
            if s == self.me or obs.passed[s]:
                continue
            if venue is not None:
                key = VENUE_KEYS[venue] + ":"
                own = sum(1 for t in obs.tickets[s] if t.startswith(key))
                queued = sum(1 for seat, _r, _e in obs.lines[2 + venue] if seat == s)
                if own - queued <= 0:
                    continue
            if any(r > eff for r in obs.hands[s]):
                n += 0.6
        return n

    def _my_tickets(self, venue: int | None = None) -> int:
        tickets = self.obs.tickets[self.me]
        if venue is None:
            return len(tickets)
        return sum(1 for t in tickets if t.startswith(VENUE_KEYS[venue] + ":"))

    def _my_queued(self, li: int) -> int:
        return sum(1 for s, _r, _e in self.obs.lines[li] if s == self.me)

    def _spare_traders(self) -> int:
        """Traders in hand beyond those needed to sell the tickets already held or queued for."""
        obs = self.obs
        hand = len(obs.hands[self.me])
        if obs.phase == 3:
            unsold = sum(max(0, self._my_tickets(v) - self._my_queued(2 + v)) for v in range(3))
            return hand - unsold
        pending = self._my_tickets() + (self._my_queued(1) if obs.phase == 2 else 0)
        return hand - pending

    # ----------------------------------------------------------------- scoring actions
    def _score(self, a: Action) -> float:
        obs = self.obs
        if isinstance(a, Pass):
            return 0.0
        if isinstance(a, Done):
            return 0.0
        if isinstance(a, Place):
            return self._score_place(a)
        if isinstance(a, PlayExtraVisitor):
            return self._score_extra_visitor()
        if isinstance(a, PlaceVisitor):
            return self._score_place_visitor(a)
        if isinstance(a, PlayTicketVisitor):
            if self._spare_traders() < 1:
                return -1.0
            avg = sum(self._ticket_coins(t.key) * t.count for t in self.cards.tickets) / max(
                1, sum(t.count for t in self.cards.tickets))
            visitors = [v for v in self.cards.visitors if not v.caesar]
            avg_v = sum(v.coins * v.count for v in visitors) / max(1, sum(v.count for v in visitors))
            return 0.7 * (avg + avg_v) - self._favour_worth("ticket_and_visitor")
        if isinstance(a, PlayReplay):
            return self._score_replay(a)
        if isinstance(a, PlayMoveAhead):
            return self._score_move_ahead(a)
        if isinstance(a, TakeFavour):
            return self._favour_worth(a.favour) + 10
        if isinstance(a, TakeStart):
            return START_CARD_VALUE + 10
        if isinstance(a, TakeTicket):
            value = self._ticket_value(a.ticket) + 10
            if a.double:
                others = sorted((self._ticket_value(t) for t in obs.forum), reverse=True)
                second = others[1] if len(others) > 1 else 0.0
                if self._spare_traders() < 2:
                    second = 0.0
                value += second - self._favour_worth("double_ticket")
            return value
        if isinstance(a, Sell):
            return self._score_sell(a)
        if isinstance(a, Skip):
            return 10.0
        return -1.0

    def _line_gain(self, li: int, eff: int, prizes: list[float], slots: float,
                   counts: Any = None) -> float:
        """What my traders in line ``li`` win with one more trader of rank ``eff``, minus without it.

        ``prizes`` are the prize values best first, ``slots`` how many places are likely
        served (prizes less the rivals expected to queue ahead). ``counts`` filters which
        traders take a place at all (at a venue only those whose owner can sell there).
        """
        line = [(s, e) for s, _r, e in self.obs.lines[li]]

        def mine(entries: list[tuple[int, int]]) -> float:
            total, place, used = 0.0, 0, 0
            for s, _e in entries:
                if counts is not None and not counts(s, used if s == self.me else 0):
                    continue
                if place >= slots or place >= len(prizes):
                    break
                if s == self.me:
                    total += prizes[place]
                    used += 1
                place += 1
            return total

        before = mine(line)
        pos = sum(1 for _s, e in line if e >= eff)
        return mine(line[:pos] + [(self.me, eff)] + line[pos:]) - before

    def _score_place(self, a: Place) -> float:
        obs = self.obs
        li = LINE_KEYS.index(a.line)
        eff = 8 if a.boost else a.rank
        cost = self._coins(a.rank)
        if a.boost:
            cost += self._favour_worth("rank_boost")
        if a.extra:
            cost += self._favour_worth("extra_trader") - 0.5
        spare = self._spare_traders()
        if li == 0:
            # the villa: favours and the starting-player card; keep four traders for the day
            if spare <= 4:
                return -1.0
            prizes = sorted([self._favour_worth(k) for k in obs.favour_display]
                            + ([START_CARD_VALUE] if obs.start_card_at_villa else []), reverse=True)
            gain = self._line_gain(li, eff, prizes, len(prizes) - self._threat(eff))
            reserve = 1.5 if a.rank >= 6 else 0.0  # strong traders are wanted for tickets
            return gain - cost - reserve if gain > 0 else -1.0
        if li == 1:
            if spare < 2:  # a ticket needs this trader and one more to sell it
                return -1.0
            prizes = sorted((self._ticket_value(t) for t in obs.forum), reverse=True)
            gain = self._line_gain(li, eff, prizes, len(prizes) - self._threat(eff))
            if gain <= 0:
                return -1.0
            others = [self._coins(r) for r in obs.hands[self.me] if r != a.rank]
            sell_cost = min(others) if others else 0
            reserve = 0.8 if a.rank >= 7 else 0.0
            return gain - cost - sell_cost - reserve
        venue = li - 2
        key = VENUE_KEYS[venue] + ":"
        mine = self._my_tickets(venue)
        caesar = "caesar" in obs.venues[venue] and not obs.caesar_used and bool(obs.favours[self.me])
        if mine - self._my_queued(li) <= 0 and not caesar:
            return -1.0
        buyers = [b + obs.bonus[venue] for b in self._buyers(venue)]
        best_ticket = max((self._ticket_coins(t) for t in obs.tickets[self.me] if t.startswith(key)), default=0)
        prizes = [b + (best_ticket if mine else -1.0) for b in buyers]

        def counts(s: int, used: int) -> bool:
            if s == self.me:
                return used < max(mine, 1 if caesar else 0)
            return any(t.startswith(key) for t in obs.tickets[s])

        gain = self._line_gain(li, eff, prizes, len(prizes) - self._threat(eff, venue), counts)
        if gain <= 0:
            return -1.0
        # prefer the weakest trader that still gets served
        return gain - cost - 0.05 * a.rank

    def _score_extra_visitor(self) -> float:
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
        venue = VENUE_KEYS.index(a.venue)
        return self._my_tickets(venue) * 2 - len(self._buyers(venue)) * 0.5 + self._venue_tickets(venue) * 0.1

    def _score_replay(self, a: PlayReplay) -> float:
        place = Place(a.rank, a.line)
        value = self._score_place(place)
        return value + self._coins(a.rank) - self._favour_worth("replay_trader")

    def _score_move_ahead(self, a: PlayMoveAhead) -> float:
        obs = self.obs
        for li, line in enumerate(obs.lines):
            for i, (s, r, _e) in enumerate(line):
                if s == self.me and r == a.rank:
                    if li == 0:
                        slots = len(obs.favour_display) + obs.start_card_at_villa
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
        venue = VENUE_KEYS.index(obs.resolving_line) if obs.resolving_line in VENUE_KEYS else 0
        value = 10.0 + paid + obs.bonus[venue]
        if a.ticket is not None:
            value += self._ticket_coins(a.ticket)
        else:
            value -= EFFECT_VALUE.get(a.favour or "", 1.0)  # its coins count either way; its effect is lost
        if a.legion:
            value -= self._favour_worth("legionnaire")
        if a.double:
            rest = sorted(self._buyers(venue), reverse=True)
            tickets = sorted((self._ticket_coins(t) for t in obs.tickets[self.me]
                              if t.startswith(VENUE_KEYS[venue] + ":")), reverse=True)
            if a.ticket is not None and tickets:
                tickets = tickets[1:]
            second = (rest[1] if len(rest) > 1 else 0) + (tickets[0] if tickets else 0)
            later = sum(1 for s, _r, _e in obs.lines[2 + venue][obs.resolving_index + 1:] if s == self.me)
            value += (0.3 if later else 1.0) * second - self._favour_worth("double_sale")
        return value
