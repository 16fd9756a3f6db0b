"""The fast Circus Maximus heuristic and observation give exactly what the plain formulas give.

Both are on the hot path of heuristic rollouts, so they cache and look things up in tables
(the observation's tables are the game's fast paths, in ``ludus/games/circus_maximus/fast.py``).
Here they are checked against slow reference versions written the plain way (the code as
it was before the speed-up): every candidate action's score bit for bit, the chosen actions
and tie-break draws, and every observation field, over random games with every seat count.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from ludus.agents.base import Agent
from ludus.core.bits import iter_bits
from ludus.core.frozen import same_as_constructed
from ludus.core.game import CHANCE, Action, SeatView
from ludus.core.rng import Rng
from ludus.games.circus_maximus import fast as obs_fast
from ludus.games.circus_maximus import heuristic as fast
from ludus.games.circus_maximus.actions import (
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
from ludus.games.circus_maximus.cards import FAVOUR_KEYS, VENUE_KEYS
from ludus.games.circus_maximus.game import GAME
from ludus.games.circus_maximus.heuristic import EFFECT_VALUE, START_CARD_VALUE, CircusMaximusHeuristic
from ludus.games.circus_maximus.views import PHASE_NAMES, CircusMaximusObservation

SETUPS = [(3, False), (3, True), (4, False), (4, True), (5, False), (5, True)]


# ------------------------------------------------------------------ slow references
def reference_observation(st: Any, seat: int | None) -> CircusMaximusObservation:
    d = st.data

    def fav_keys(mask: int) -> tuple[str, ...]:
        return tuple(FAVOUR_KEYS[d.favour_kind_of[c]] for c in iter_bits(mask))

    def tkt_keys(mask: int) -> tuple[str, ...]:
        return tuple(d.tickets[d.ticket_kind_of[c]].key for c in iter_bits(mask))

    def vis_keys(mask: int) -> tuple[str, ...]:
        return tuple(d.visitors[d.visitor_kind_of[c]].key for c in iter_bits(mask))

    return CircusMaximusObservation(
        seat=seat, players=st.n, caesar_variant=st.options.caesar,
        start_card=st.options.start_card, cards=st.options.cards, day=st.day,
        phase=st.stage, phase_name=PHASE_NAMES[st.stage], resolving=st.resolving, to_act=st.current_seats(),
        starting=st.starting, start_card_at_villa=st.sp_at_villa, turn=st.turn,
        passed=tuple(bool(st.passed >> s & 1) for s in range(st.n)), extra_traders=st.extra,
        pending_visitor=None if st.pending_visitor < 0 else d.visitors[d.visitor_kind_of[st.pending_visitor]].key,
        resolving_line=LINE_KEYS[st.res_line] if st.resolving else None,
        resolving_index=st.res_pos if st.resolving else -1, second_pick=st.res_again,
        lines=tuple(tuple(line) for line in st.lines),
        hands=tuple(tuple(r + 1 for r in iter_bits(h)) for h in st.hands),
        favours=tuple(fav_keys(m) for m in st.favours), tickets=tuple(tkt_keys(m) for m in st.tickets),
        sales=st._sales_keys(), past_sales=tuple(st.past_sales), favour_display=fav_keys(st.fav_display),
        forum=tkt_keys(st.forum), venues=tuple(vis_keys(m) for m in st.venue_vis), bonus=tuple(st.bonus),
        caesar_used=st.caesar_used, favour_deck=fav_keys(st.fav_deck), ticket_deck=tkt_keys(st.tkt_deck),
        visitor_deck=vis_keys(st.vis_deck), favours_out=fav_keys(st.fav_gone), visitors_out=vis_keys(st.vis_box),
        draws=tuple(st.draws), setup_tickets=tuple(st.setup_counts), scores=tuple(st.totals),
        day_scores=tuple(tuple(x) for x in st.day_scores),
        favour_coins=None if st.favour_coins is None else tuple(st.favour_coins),
    )


class ReferenceHeuristic(Agent):
    """The heuristic's formulas written the plain way: everything recomputed for every action."""

    def act(self, view: SeatView) -> Action:
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0]
        self.setup(view)
        best, best_score = actions[0], float("-inf")
        for action in actions:
            score = self.score(action) + self.rng.random() * 1e-6
            if score > best_score:
                best, best_score = action, score
        return best

    def setup(self, view: SeatView) -> None:
        self.obs, self.me, self.cards = view.observation, view.seat, view.game.cards(view.options)

    def coins(self, rank: int) -> int:
        return self.cards.trader_coins[rank - 1]

    def favour_worth(self, key: str) -> float:
        coins = self.cards.favours[self.cards.favour_index(key)].coins
        late = self.obs.day == 3 and self.obs.phase >= 2
        return coins + (0.3 if late else 1.0) * EFFECT_VALUE.get(key, 1.0)

    def ticket_coins(self, key: str) -> int:
        return self.cards.tickets[self.cards.ticket_index(key)].coins

    def visitor_coins(self, key: str) -> int:
        return self.cards.visitors[self.cards.visitor_index(key)].coins

    def buyers(self, venue: int) -> list[int]:
        return sorted((self.visitor_coins(k) for k in self.obs.venues[venue] if k != "caesar"), reverse=True)

    def venue_tickets(self, venue: int) -> int:
        key = VENUE_KEYS[venue] + ":"
        held = sum(1 for hand in self.obs.tickets for t in hand if t.startswith(key))
        return held + sum(1 for t in self.obs.forum if t.startswith(key))

    def ticket_value(self, key: str) -> float:
        venue = VENUE_KEYS.index(key.split(":")[0])
        buyers = self.buyers(venue)
        if not buyers:
            return 0.0
        chance = min(1.0, len(buyers) / max(1, self.venue_tickets(venue)))
        return chance * (self.ticket_coins(key) + sum(buyers) / len(buyers) + self.obs.bonus[venue])

    def threat(self, eff: int, venue: int | None = None) -> float:
        obs, n = self.obs, 0.0
        for s in range(obs.players):
            if s == self.me or obs.passed[s]:
                continue
            if venue is not None:
                key = VENUE_KEYS[venue] + ":"
                own = sum(1 for t in obs.tickets[s] if t.startswith(key))
                if own - sum(1 for seat, _r, _e in obs.lines[2 + venue] if seat == s) <= 0:
                    continue
            if any(r > eff for r in obs.hands[s]):
                n += 0.6
        return n

    def my_tickets(self, venue: int | None = None) -> int:
        tickets = self.obs.tickets[self.me]
        if venue is None:
            return len(tickets)
        return sum(1 for t in tickets if t.startswith(VENUE_KEYS[venue] + ":"))

    def my_queued(self, li: int) -> int:
        return sum(1 for s, _r, _e in self.obs.lines[li] if s == self.me)

    def spare_traders(self) -> int:
        obs = self.obs
        hand = len(obs.hands[self.me])
        if obs.phase == 3:
            return hand - sum(max(0, self.my_tickets(v) - self.my_queued(2 + v)) for v in range(3))
        return hand - self.my_tickets() - (self.my_queued(1) if obs.phase == 2 else 0)

    def score(self, a: Action) -> float:
        obs = self.obs
        if isinstance(a, (Pass, Done)):
            return 0.0
        if isinstance(a, Place):
            return self.score_place(a)
        if isinstance(a, PlayExtraVisitor):
            if obs.phase != 3:
                return -1.0
            best = -1.0
            for venue in range(3):
                if self.my_tickets(venue) > 0 and self.venue_tickets(venue) > len(self.buyers(venue)):
                    best = max(best, 5.0 - self.favour_worth("extra_visitor"))
            return best
        if isinstance(a, PlaceVisitor):
            venue = VENUE_KEYS.index(a.venue)
            return self.my_tickets(venue) * 2 - len(self.buyers(venue)) * 0.5 + self.venue_tickets(venue) * 0.1
        if isinstance(a, PlayTicketVisitor):
            if self.spare_traders() < 1:
                return -1.0
            tickets, visitors = self.cards.tickets, [v for v in self.cards.visitors if not v.caesar]
            avg = sum(self.ticket_coins(t.key) * t.count for t in tickets) / max(1, sum(t.count for t in tickets))
            avg_v = sum(v.coins * v.count for v in visitors) / max(1, sum(v.count for v in visitors))
            return 0.7 * (avg + avg_v) - self.favour_worth("ticket_and_visitor")
        if isinstance(a, PlayReplay):
            value = self.score_place(Place(a.rank, a.line))
            return value + self.coins(a.rank) - self.favour_worth("replay_trader")
        if isinstance(a, PlayMoveAhead):
            for li, line in enumerate(obs.lines):
                for i, (s, r, _e) in enumerate(line):
                    if s == self.me and r == a.rank:
                        card = obs.start_card_at_villa and obs.start_card == "extra-pick"
                        slots = (len(obs.favour_display) + card if li == 0
                                 else len(obs.forum) if li == 1 else len(self.buyers(li - 2)))
                        return 3.0 - self.favour_worth("move_ahead") if i == slots else -1.0
            return -1.0
        if isinstance(a, TakeFavour):
            return self.favour_worth(a.favour) + 10
        if isinstance(a, TakeStart):
            front = obs.start_card == "instead" and obs.resolving_index == 0
            return 10.0 if front else START_CARD_VALUE + 10
        if isinstance(a, TakeTicket):
            value = self.ticket_value(a.ticket) + 10
            if a.double:
                others = sorted((self.ticket_value(t) for t in obs.forum), reverse=True)
                second = others[1] if len(others) > 1 else 0.0
                if self.spare_traders() < 2:
                    second = 0.0
                value += second - self.favour_worth("double_ticket")
            return value
        if isinstance(a, Sell):
            return self.score_sell(a)
        if isinstance(a, Skip):
            return 10.0
        return -1.0

    def line_gain(self, li: int, eff: int, prizes: list[float], slots: float, counts: Any = None) -> float:
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

        pos = sum(1 for _s, e in line if e >= eff)
        return mine(line[:pos] + [(self.me, eff)] + line[pos:]) - mine(line)

    def score_place(self, a: Place) -> float:
        obs = self.obs
        li = LINE_KEYS.index(a.line)
        eff = 8 if a.boost else a.rank
        cost = self.coins(a.rank)
        if a.boost:
            cost += self.favour_worth("rank_boost")
        if a.extra:
            cost += self.favour_worth("extra_trader") - 0.5
        spare = self.spare_traders()
        if li == 0:
            if spare <= 4:
                return -1.0
            favours = [self.favour_worth(k) for k in obs.favour_display]
            if obs.start_card == "extra-pick":
                prizes = sorted(favours + ([START_CARD_VALUE] if obs.start_card_at_villa else []), reverse=True)
            else:  # the front trader also gets the card unless someone chooses it
                prizes = sorted(favours, reverse=True) or ([0.0] if obs.start_card_at_villa else [])
                if obs.start_card_at_villa:
                    prizes[0] += START_CARD_VALUE
            gain = self.line_gain(li, eff, prizes, len(prizes) - self.threat(eff))
            reserve = 1.5 if a.rank >= 6 else 0.0
            return gain - cost - reserve if gain > 0 else -1.0
        if li == 1:
            if spare < 2:
                return -1.0
            prizes = sorted((self.ticket_value(t) for t in obs.forum), reverse=True)
            gain = self.line_gain(li, eff, prizes, len(prizes) - self.threat(eff))
            if gain <= 0:
                return -1.0
            others = [self.coins(r) for r in obs.hands[self.me] if r != a.rank]
            sell_cost = min(others) if others else 0
            reserve = 0.8 if a.rank >= 7 else 0.0
            return gain - cost - sell_cost - reserve
        venue = li - 2
        key = VENUE_KEYS[venue] + ":"
        mine = self.my_tickets(venue)
        caesar = "caesar" in obs.venues[venue] and not obs.caesar_used and bool(obs.favours[self.me])
        if mine - self.my_queued(li) <= 0 and not caesar:
            return -1.0
        buyers = [b + obs.bonus[venue] for b in self.buyers(venue)]
        best_ticket = max((self.ticket_coins(t) for t in obs.tickets[self.me] if t.startswith(key)), default=0)
        prizes = [b + (best_ticket if mine else -1.0) for b in buyers]

        def counts(s: int, used: int) -> bool:
            if s == self.me:
                return used < max(mine, 1 if caesar else 0)
            return any(t.startswith(key) for t in obs.tickets[s])

        gain = self.line_gain(li, eff, prizes, len(prizes) - self.threat(eff, venue), counts)
        return gain - cost - 0.05 * a.rank if gain > 0 else -1.0

    def score_sell(self, a: Sell) -> float:
        obs = self.obs
        paid = self.cards.legionnaire_pays if a.legion else self.visitor_coins(a.visitor)
        venue = VENUE_KEYS.index(obs.resolving_line) if obs.resolving_line in VENUE_KEYS else 0
        value = 10.0 + paid + obs.bonus[venue]
        if a.ticket is not None:
            value += self.ticket_coins(a.ticket)
        else:
            value -= EFFECT_VALUE.get(a.favour or "", 1.0)
        if a.legion:
            value -= self.favour_worth("legionnaire")
        if a.double:
            rest = sorted(self.buyers(venue), reverse=True)
            tickets = sorted((self.ticket_coins(t) for t in obs.tickets[self.me]
                              if t.startswith(VENUE_KEYS[venue] + ":")), reverse=True)
            if a.ticket is not None and tickets:
                tickets = tickets[1:]
            second = (rest[1] if len(rest) > 1 else 0) + (tickets[0] if tickets else 0)
            later = sum(1 for s, _r, _e in obs.lines[2 + venue][obs.resolving_index + 1:] if s == self.me)
            value += (0.3 if later else 1.0) * second - self.favour_worth("double_sale")
        return value


def fast_scores(bot: CircusMaximusHeuristic, view: SeatView) -> list[float]:
    """Each legal action's score from the fast heuristic (without its tie-break)."""
    bot.act(SeatView(view.game, view.options, view.seat, view.observation, view.legal_actions[:2], ()))
    bot.obs, bot.me = view.observation, view.seat
    bot._begin(view.observation)
    return [bot._score(a) for a in view.legal_actions]


# ------------------------------------------------------------------ tests
@pytest.mark.parametrize("players,caesar", SETUPS)
def test_observation_matches_the_plain_one(players, caesar):
    """Every seat and the spectator, at every step of a random game (chance nodes too)."""
    st = GAME.new_initial_state({"players": players, "caesar": caesar}, seed=None)
    rng = Rng(players * 2 + caesar)
    while True:
        for seat in (None, *range(players)):
            want, got = reference_observation(st, seat), st.observation(seat)
            assert same_as_constructed(got)  # every field, in order: the constructor's object
            assert got == want and repr(got) == repr(want) and hash(got) == hash(want)
            assert got.to_json() == want.to_json()
        seats = st.current_seats()
        if not seats:
            break
        if seats[0] == CHANCE:
            st.apply(st.sample_chance(rng), CHANCE)
        else:
            legal = st.legal_actions(seats[0])
            st.apply(legal[rng.below(len(legal))], seats[0])
    assert pickle.loads(pickle.dumps(st.observation(0))) == reference_observation(st, 0)


def test_fast_observation_tables_match_the_plain_walk():
    """fast.py's tables against walking the bits: card keys (also once the memo is full), the
    ranks of a hand and the passed flags."""
    d = GAME.cards(GAME.parse_options({}))
    keys = obs_fast.ObsKeys(d)
    rng = Rng(7)
    for _ in range(2 * obs_fast._KEY_MEMO_LIMIT + 100):
        fav, tkt, vis = (rng.below_big(full + 1) for full in (d.all_favours, d.all_tickets, d.all_visitors))
        assert keys.fav(fav) == tuple(FAVOUR_KEYS[d.favour_kind_of[c]] for c in iter_bits(fav))
        assert keys.tkt(tkt) == tuple(d.tickets[d.ticket_kind_of[c]].key for c in iter_bits(tkt))
        assert keys.vis(vis) == tuple(d.visitors[d.visitor_kind_of[c]].key for c in iter_bits(vis))
    # full: the oldest sets were forgotten one at a time, the newest kept (no clearing all at once)
    assert len(keys.favours) == obs_fast._KEY_MEMO_LIMIT and fav in keys.favours and tkt in keys.tickets
    assert keys.visitor_of == tuple(d.visitors[k].key for k in d.visitor_kind_of)
    for hand in range(0x200):  # past ALL_TRADERS too
        assert obs_fast.hand_ranks(hand) == tuple(r + 1 for r in iter_bits(hand))
    for n in (3, 4, 5):
        for passed in range(1 << n):
            assert obs_fast.passed_flags(passed, n) == tuple(bool(passed >> s & 1) for s in range(n))


def test_heuristic_memos_are_bounded_and_forget_the_oldest_first():
    tables = fast._Tables(GAME.cards(GAME.parse_options({})))
    hands = [("circus:box",) * (i % 7) + (f"colosseum:{i}",) for i in range(fast._MEMO_MAX + 10)]
    for hand in hands:
        assert tables.hand_venues[hand] == tables._hand_venues(hand)
    assert len(tables.hand_venues) == fast._MEMO_MAX
    assert hands[9] not in tables.hand_venues and hands[10] in tables.hand_venues and hands[-1] in tables.hand_venues


@pytest.mark.parametrize("players,caesar", SETUPS)
def test_heuristic_scores_and_choices_match_the_plain_formulas(players, caesar):
    """Every candidate's score bit for bit, then the same choices and tie-break draws in play."""
    options = GAME.parse_options({"players": players, "caesar": caesar})
    st = GAME.new_initial_state(options, seed=700 + players * 2 + caesar)
    ref = ReferenceHeuristic(0)
    probe = CircusMaximusHeuristic(0)
    bots = [(CircusMaximusHeuristic(s), ReferenceHeuristic(s)) for s in range(players)]
    rng = Rng(players)
    scored = 0
    while st.current_seats():
        seat = st.current_seats()[0]
        view = st.view(seat)
        if len(view.legal_actions) > 1:
            ref.setup(view)
            want = [ref.score(a) for a in view.legal_actions]
            got = fast_scores(probe, view)
            assert [(type(x), x) for x in got] == [(type(x), x) for x in want], view.observation
            scored += len(want)
        quick, plain = bots[seat]
        action = quick.act(view)
        assert action == plain.act(view) and quick.rng.state == plain.rng.state
        if rng.random() < 0.25:  # stray from the bots' own lines now and then
            action = view.legal_actions[rng.below(len(view.legal_actions))]
        st.apply(action, seat)
    assert scored > 300


def test_line_gain_matches_the_plain_walk():
    """Random lines, prizes and served places, with and without the venue's who-counts rule."""
    rng = Rng(11)
    quick, plain = CircusMaximusHeuristic(0), ReferenceHeuristic(0)
    for _ in range(3000):
        players = 3 + rng.below(3)
        me = rng.below(players)
        line = tuple((rng.below(players), 1 + rng.below(8), 1 + rng.below(8)) for _ in range(rng.below(12)))
        if rng.below(4):
            line = tuple(sorted(line, key=lambda e: -e[2]))
        obs = type("Obs", (), {"lines": (line, (), (), (), ())})()
        quick.obs = plain.obs = obs  # type: ignore[assignment]
        quick.me = plain.me = me
        quick._my_places = [None] * 5
        prizes = sorted((rng.below(12) - 2 if rng.below(2) else rng.random() * 9 for _ in range(rng.below(9))),
                        reverse=True)
        slots = len(prizes) - fast._THREAT[rng.below(6)]
        eff = 1 + rng.below(8)
        if rng.below(2):
            got, want = quick._line_gain(0, eff, prizes, slots), plain.line_gain(0, eff, prizes, slots)
        else:
            cap = rng.below(4)
            sellers = {s for s in range(players) if rng.below(2)}
            got = quick._line_gain(0, eff, prizes, slots, cap, sellers)
            want = plain.line_gain(0, eff, prizes, slots,
                                   lambda s, used: used < cap if s == me else s in sellers)  # noqa: B023
        assert type(got) is type(want) and got == want, (line, me, prizes, slots, eff)
