"""Determinization for Gorus Maximus: a full state that agrees with everything one seat knows.

Search bots (ISMCTS) need whole states to play forward, but a seat only knows its own
hand, the cards played this round and what the rules let it infer. The sampler deals the
cards it cannot see (the other hands and the face-down pile or contender stack) at random,
subject to what play has revealed:

* hand sizes, and the cards already played this round (they are nobody's now);
* voids: a seat that neither followed the initiating school nor Challenged held none of
  that school at that moment. With 3 or more players nobody draws, so the seat has none of
  it for the rest of the round. With 2 players the pile refills hands, so a void only says
  that every card of that school the opponent holds (or later played) came from a draw
  made after the void showed; the sampler checks that such a draw order exists.

It also rebuilds a complete history, filling the deals and draws hidden from the seat with
cards consistent with the sampled hands, so the sample can be replayed from the start, seen
from the seat it is identical to the real game (``sample.view(seat) == view``) and it can be
determinized again.

Given the constraints the unseen cards are dealt close to, not exactly, uniformly: cards
of a school someone is void in are placed first, each to a seat chosen in proportion to its
free places among those that keep a complete deal possible (Hall's condition over the
constrained schools), then every other card is dealt uniformly. Without voids the deal is
exactly uniform.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Any

from ...core.errors import RecordError
from ...core.game import CHANCE, SeatView
from ...core.rng import Rng
from .actions import DEAL, ChooseSchools, Reveal
from .cards import (
    CONTENDER,
    HAND_SIZE,
    NUM_SCHOOLS,
    PHASE_DEAL,
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SCHOOLS,
    _bits,
    _deck,
    setup_for,
)
from .rules import GorusMaximusState
from .views import GorusObservation

__all__ = ["STOCK", "sample_state"]

STOCK = -1
"""Bin id of the face-down pile (2 players), the contender stack (solo) or the undealt cards."""


@dataclass
class _Round:
    """One round of the visible history, cut into deals, bout cards and 2-player draws."""

    dealer: int
    deals: list[int] = field(default_factory=list)  # history index of each deal, in dealing order
    cards: list[tuple[int, int, int]] = field(default_factory=list)  # (index, actor, card) into bouts
    draws: list[tuple[int, int]] = field(default_factory=list)  # (index, drawer)


@dataclass
class _Plan:
    """Everything about a view that does not depend on the random choices (computed once per view)."""

    seat: int
    obs: GorusObservation
    template: list[Any]  # the history, past rounds' hidden deals already filled in
    unseen: list[int]  # cards no seat can account for: other hands and the stock
    bins: list[tuple[int, int, int]]  # (seat or STOCK, size, allowed-schools mask)
    deal_slots: dict[int, list[int]]  # seat -> history indices of its hidden deals this round
    played: dict[int, list[tuple[int, int]]]  # seat -> (index, card) of its cards played this round
    opponent: int  # 2 players: the other seat, else -1
    draw_slots: list[int]  # 2 players: history indices of the opponent's draws this round
    played_windows: list[tuple[int, int, int]]  # 2 players: (lo, hi, card) of the opponent's plays
    earliest: list[int]  # 2 players: first arrival slot a held card of each school may have
    turn: int
    drawer: int
    dealt: int
    hall: _Hall | None = None  # 3+ players and solo: the void bookkeeping for _deal_bins


_cache: tuple[SeatView, _Plan] | None = None
"""The plan of the last view seen: search asks for hundreds of samples of one view in a row."""


def sample_state(view: SeatView, rng: Rng) -> GorusMaximusState:
    """A full state that ``view.seat`` could not tell apart from the real one; chance continues
    from a fresh generator drawn from ``rng``."""
    global _cache
    cached = _cache
    if cached is not None and cached[0] is view:
        plan = cached[1]
    else:
        plan = _make_plan(view)
        _cache = (view, plan)
    game = view.game
    obs = plan.obs
    st = GorusMaximusState(game, view.options, Rng(rng.next_u64()))  # type: ignore[arg-type]
    history = list(plan.template)
    st.history = history
    if obs.phase == PHASE_SCHOOLS:
        return st
    hands = [0] * st.n
    hands[plan.seat] = obs.hand or 0
    stock = 0
    if plan.opponent >= 0:
        held, slots = _two_player_hand(plan, rng)
        hands[plan.opponent] = held
        stock = _mask(plan.unseen) & ~held
        o = plan.opponent
        for card, index in zip(slots[0], plan.deal_slots.get(o, ())):
            history[index] = (CHANCE, DEAL[card][o])
        for drawn, index in zip(slots[1:], plan.draw_slots):
            history[index] = (CHANCE, DEAL[drawn[0]][o])
    else:
        for who, mask in _deal_bins(plan, rng):
            if who == STOCK:
                stock = mask
            else:
                hands[who] = mask
        for who, indices in plan.deal_slots.items():
            cards = sorted([c for _, c in plan.played[who]] + _bits(hands[who]))
            if len(cards) != len(indices):  # pragma: no cover - _make_plan checked the sizes
                raise RecordError("sampled hand does not match the deals")
            for card, index in zip(cards, indices):
                history[index] = (CHANCE, DEAL[card][who])
    st.phase = obs.phase
    st.round = obs.round
    st.dealer = obs.dealer
    st.schools = obs.schools_in_play
    st.support = list(obs.support)
    st.hands = hands
    st.stock = stock
    st.dealt = plan.dealt
    st.collected = list(obs.collected)
    st.collected_count = list(obs.collected_counts)
    st.bout = list(obs.bout)
    st.turn = plan.turn
    st.initiating = obs.initiating
    st.preferred = obs.preferred
    if st.bout:
        st.top_actor, st.top = st._bout_winner()
    st.previous_bout = obs.previous_bout
    st.previous_winner = obs.previous_winner
    st.drawer = plan.drawer
    st.last_round = obs.last_round
    if obs.phase == PHASE_OVER:
        won = {st.side_of_seat[s] for s in obs.winners}
        st.winning_sides = tuple(sorted(won)) if won else (1,)  # solo: the contenders won alone
    return st


# --------------------------------------------------------------------------- the plan
def _make_plan(view: SeatView) -> _Plan:
    obs: GorusObservation = view.observation
    n, solo, v = obs.players, obs.solo, view.seat
    template: list[Any] = list(view.history)
    if obs.phase == PHASE_SCHOOLS:
        return _Plan(v, obs, template, [], [], {}, {}, -1, [], [], [], -1, -1, 0)
    played_all = sum(1 << c for _, c in obs.bout)
    for pile in obs.collected:
        played_all |= pile
    deck = _deck(obs.schools_in_play, setup_for(n).ranks)
    own = obs.hand or 0
    unseen = deck & ~own & ~played_all
    if own & played_all or own & ~deck:
        raise RecordError("the view's hand is inconsistent with the cards played")
    needed = sum(obs.hand_sizes) - obs.hand_sizes[v] + obs.stock_size
    if unseen.bit_count() != needed:
        raise RecordError("the view's hand sizes and stock do not add up to the unseen cards")

    try:
        rounds = _split_rounds(view, obs)
        current = rounds[-1]
        attached = sum(1 << c for _, _, c in current.cards) == played_all
    except RecordError:
        attached = False
    if attached:
        for rnd in rounds[:-1]:
            _fill_past_round(template, rnd, n, solo, v)
    else:
        # a position without the history that led to it (e.g. loaded from JSON): only the
        # bout in progress shows voids, and the sample gets no history
        template = []
        current = _Round(obs.dealer, cards=[(k, a, c) for k, (a, c) in enumerate(obs.bout)])

    played: dict[int, list[tuple[int, int]]] = {s: [] for s in range(n)}
    voids: list[tuple[int, int, int]] = []  # (index, seat, school)
    bout_size = 3 if solo else n
    for k, (index, actor, c) in enumerate(current.cards):
        if actor != CONTENDER:
            played[actor].append((index, c))
        start = k - k % bout_size
        if k > start:
            lead_school = current.cards[start][2] >> 4
            prev = current.cards[k - 1][2]
            if c >> 4 != lead_school and (c & 15) != (prev & 15) and actor != CONTENDER:
                voids.append((index, actor, lead_school))

    deal_slots: dict[int, list[int]] = {}
    for k, index in enumerate(current.deals):
        who = _recipient(current.dealer, k, n, solo)
        if who != v:
            deal_slots.setdefault(who, []).append(index)
    two = n == 2 and attached
    for who, indices in deal_slots.items():
        if not two and len(indices) != len(played[who]) + obs.hand_sizes[who]:
            raise RecordError(f"seat {who}'s hand size does not match its deals")

    phase = obs.phase
    last_play = next((a for a, _ in reversed(view.history) if a >= 0), -1)
    turn = obs.to_move[0] if phase == PHASE_PLAY else (-1 if phase == PHASE_OVER else last_play)
    drawer = -1
    if phase == PHASE_DRAW:  # the seat that just played draws
        drawer = (obs.bout[-1] if obs.bout else obs.previous_bout[-1])[0]
    dealt = sum(obs.hand_sizes) if phase == PHASE_DEAL else (HAND_SIZE if solo else HAND_SIZE * n)
    plan = _Plan(v, obs, template, _bits(unseen), [], deal_slots, played, -1, [], [], [], turn, drawer, dealt)

    if two:
        o = 1 - v
        plan.opponent = o
        draws = [index for index, who in current.draws if who == o]
        plan.draw_slots = draws
        plan.played_windows = _windows(played[o], draws, [(i, x) for i, s, x in voids if s == o])
        last_void = [-1] * NUM_SCHOOLS
        for index, who, school in voids:
            if who == o:
                last_void[school] = max(last_void[school], index)
        plan.earliest = [0 if t < 0 else _draws_before(draws, t) + 1 for t in last_void]
        if obs.hand_sizes[o] + len(played[o]) != len(deal_slots.get(o, ())) + len(draws):
            raise RecordError("the opponent's hand size does not match its deals and draws")
        return plan

    forbidden = [0] * n
    if n > 2:  # with 2 players the pile refills hands, and without history we cannot tell when
        for _, who, school in voids:
            forbidden[who] |= 1 << school
    everything = (1 << NUM_SCHOOLS) - 1
    plan.bins = [(s, obs.hand_sizes[s], everything & ~forbidden[s]) for s in range(n) if s != v]
    plan.bins.append((STOCK, obs.stock_size, everything))
    plan.hall = _Hall(plan.bins, plan.unseen)
    return plan


def _recipient(dealer: int, k: int, n: int, solo: bool) -> int:
    return 0 if solo else (dealer + 1 + k) % n


def _split_rounds(view: SeatView, obs: GorusObservation) -> list[_Round]:
    """Cut the history into rounds: deals, then every card that enters a bout, with draws between."""
    n, solo = obs.players, obs.solo
    deal_total = HAND_SIZE if solo else HAND_SIZE * n
    round_cards = len(setup_for(n).ranks) * len(obs.schools_in_play)

    def dealer_of(r: int) -> int:  # r counts from 1, like obs.round
        return (obs.dealer - (obs.round - r)) % n

    rounds: list[_Round] = []
    cur: _Round | None = None
    last_player = -1
    for index, (actor, act) in enumerate(view.history):
        if type(act) is ChooseSchools:
            continue
        if cur is None:
            cur = _Round(dealer_of(len(rounds) + 1))
            rounds.append(cur)
        if len(cur.deals) < deal_total:
            cur.deals.append(index)
            continue
        if actor == CHANCE:
            if type(act) is Reveal:
                cur.cards.append((index, CONTENDER, act.card))
            else:
                cur.draws.append((index, last_player))
                continue
        else:
            cur.cards.append((index, actor, act.card))  # type: ignore[union-attr]
            last_player = actor
        if len(cur.cards) == round_cards:
            cur = None
    while len(rounds) < obs.round:
        rounds.append(_Round(dealer_of(len(rounds) + 1)))
    if len(rounds) != obs.round:
        raise RecordError("the view's history does not match its round number")
    return rounds


def _fill_past_round(template: list[Any], rnd: _Round, n: int, solo: bool, v: int) -> None:
    """Give a finished round's hidden deals the cards each seat went on to play (all of them)."""
    if solo:
        return
    played: dict[int, list[tuple[int, int]]] = {s: [] for s in range(n)}
    voids: dict[int, list[tuple[int, int]]] = {s: [] for s in range(n)}
    for k, (index, actor, c) in enumerate(rnd.cards):
        played[actor].append((index, c))
        start = k - k % n
        if k > start:
            lead = rnd.cards[start][2] >> 4
            if c >> 4 != lead and (c & 15) != (rnd.cards[k - 1][2] & 15):
                voids[actor].append((index, lead))
    slots: dict[int, list[int]] = {}
    for k, index in enumerate(rnd.deals):
        who = _recipient(rnd.dealer, k, n, solo)
        if who != v:
            slots.setdefault(who, []).append(index)
    if n == 2:
        o = 1 - v
        draws = [index for index, who in rnd.draws if who == o]
        windows = _windows(played[o], draws, voids[o])
        arrival = _edf(windows, [len(slots.get(o, ()))] + [1] * len(draws))
        if arrival is None:
            raise RecordError("no order of deals and draws explains a past round")
        by_slot: list[list[int]] = [[] for _ in range(len(draws) + 1)]
        for (_, _, c), slot in zip(windows, arrival):
            by_slot[slot].append(c)
        for c, index in zip(sorted(by_slot[0]), slots.get(o, ())):
            template[index] = (CHANCE, DEAL[c][o])
        for cards, index in zip(by_slot[1:], draws):
            template[index] = (CHANCE, DEAL[cards[0]][o])
        return
    for who, indices in slots.items():
        cards = sorted(c for _, c in played[who])
        if len(cards) != len(indices):
            raise RecordError("a past round's deals do not match the cards played")
        for c, index in zip(cards, indices):
            template[index] = (CHANCE, DEAL[c][who])


# --------------------------------------------------------------------------- 2 players
def _draws_before(draws: list[int], index: int) -> int:
    return sum(1 for d in draws if d < index)


def _windows(played: list[tuple[int, int]], draws: list[int],
             voids: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(earliest slot, latest slot, card) for each card the opponent played this round.

    Slot 0 is the deal, slot j the opponent's j-th draw. A played card arrived before it was
    played, and after the last void in its school shown before that.
    """
    out = []
    for index, c in played:
        lo = 0
        for t, school in voids:
            if school == c >> 4 and t < index:
                lo = max(lo, _draws_before(draws, t) + 1)
        out.append((lo, _draws_before(draws, index), c))
    return out


def _edf(windows: list[tuple[int, int, Any]], caps: list[int]) -> list[int] | None:
    """Give each window a slot within it, at most ``caps[j]`` per slot, or None if impossible.

    Earliest deadline first is optimal for unit jobs with release times and deadlines.
    """
    order = sorted(range(len(windows)), key=lambda i: windows[i][0])
    out = [-1] * len(windows)
    heap: list[tuple[int, int]] = []
    k = 0
    for j, cap in enumerate(caps):
        while k < len(order) and windows[order[k]][0] <= j:
            i = order[k]
            heapq.heappush(heap, (windows[i][1], i))
            k += 1
        while cap and heap:
            hi, i = heapq.heappop(heap)
            if hi < j:
                return None
            out[i] = j
            cap -= 1
    if heap or k < len(order):
        return None
    return out


def _two_player_hand(plan: _Plan, rng: Rng) -> tuple[int, list[list[int]]]:
    """The opponent's hand, and which of its cards came with the deal (slot 0) or each draw."""
    o = plan.opponent
    size = plan.obs.hand_sizes[o]
    draws = len(plan.draw_slots)
    caps = [len(plan.deal_slots.get(o, ()))] + [1] * draws
    earliest = plan.earliest
    cands = list(plan.unseen)
    rng.shuffle(cands)
    # how many candidates not yet looked at have each earliest slot: the best completion
    remaining: dict[int, int] = {}
    for c in cands:
        lo = earliest[c >> 4]
        if lo <= draws:
            remaining[lo] = remaining.get(lo, 0) + 1
    chosen: list[tuple[int, int, int]] = []
    for c in cands:
        if len(chosen) == size:
            break
        lo = earliest[c >> 4]
        if lo > draws:
            continue
        remaining[lo] -= 1
        if lo > 0:
            need = size - len(chosen) - 1
            completion: list[tuple[int, int, int]] = []
            for value in sorted(remaining):
                take = min(need - len(completion), remaining[value])
                completion += [(value, draws, -1)] * take
                if len(completion) == need:
                    break
            trial = plan.played_windows + chosen + [(lo, draws, c)] + completion
            if len(completion) < need or _edf(trial, caps) is None:
                continue
        chosen.append((lo, draws, c))
    if len(chosen) != size:
        raise RecordError("no opponent hand fits what the view has seen")
    windows = plan.played_windows + chosen
    arrival = _edf(windows, caps)
    if arrival is None:  # pragma: no cover - every card was accepted with a feasible completion
        raise RecordError("no order of deals and draws explains the sampled hand")
    by_slot: list[list[int]] = [[] for _ in range(draws + 1)]
    for (_, _, c), slot in zip(windows, arrival):
        by_slot[slot].append(c)
    by_slot[0].sort()
    return _mask(c for _, _, c in chosen), by_slot


# --------------------------------------------------------------------------- 3+ players, solo
class _Hall:
    """Hall's condition for dealing cards of constrained schools into bins, kept as slacks.

    A complete deal exists iff for every set S of constrained schools the free places of the
    bins that accept a school of S are at least the cards of S still to deal (cards of other
    schools fit anywhere). Placing one card changes each S's slack by -1, 0 or +1, so a
    placement is safe iff every slack it lowers is still positive. Built once per view.
    """

    def __init__(self, bins: list[tuple[int, int, int]], unseen: list[int]) -> None:
        everything = (1 << NUM_SCHOOLS) - 1
        constrained = 0
        for _, size, allowed in bins:
            if size:
                constrained |= everything & ~allowed
        self.constrained = constrained
        schools = [x for x in range(NUM_SCHOOLS) if constrained >> x & 1]
        count = [0] * NUM_SCHOOLS
        for c in unseen:
            count[c >> 4] += 1
        self.subsets: list[tuple[int, int]] = []  # (schools mask, bins mask)
        self.slack: list[int] = []
        for sub in range(1, 1 << len(schools)):
            smask = sum(1 << schools[i] for i in range(len(schools)) if sub >> i & 1)
            reach = sum(1 << b for b, (_, _, allowed) in enumerate(bins) if allowed & smask)
            self.subsets.append((smask, reach))
            self.slack.append(sum(bins[b][1] for b in range(len(bins)) if reach >> b & 1)
                              - sum(count[x] for x in schools if smask >> x & 1))
        if any(x < 0 for x in self.slack):
            raise RecordError("no deal of the unseen cards fits the voids seen")
        self.accepts = [[b for b, (_, _, allowed) in enumerate(bins) if allowed >> x & 1]
                        for x in range(NUM_SCHOOLS)]
        self._effect: dict[tuple[int, int], tuple[list[int], list[int]]] = {}

    def effect(self, school: int, b: int) -> tuple[list[int], list[int]]:
        """The subsets whose slack falls, and those whose slack rises, when ``school`` goes to ``b``."""
        key = (school, b)
        found = self._effect.get(key)
        if found is None:
            subsets = self.subsets
            worse = [i for i, (sm, rc) in enumerate(subsets) if rc >> b & 1 and not sm >> school & 1]
            better = [i for i, (sm, rc) in enumerate(subsets) if sm >> school & 1 and not rc >> b & 1]
            found = self._effect[key] = (worse, better)
        return found


def _deal_bins(plan: _Plan, rng: Rng) -> list[tuple[int, int]]:
    """Deal the unseen cards into the bins (other hands, stock) honouring each bin's schools."""
    bins = plan.bins
    room = [size for _, size, _ in bins]
    masks = [0] * len(bins)
    cards = list(plan.unseen)
    rng.shuffle(cards)
    hall = plan.hall
    constrained = 0 if hall is None else hall.constrained
    if hall is not None and constrained:
        hard = [c for c in cards if constrained >> (c >> 4) & 1]
        cards = [c for c in cards if not constrained >> (c >> 4) & 1]
        slack = list(hall.slack)
        for c in hard:
            school = c >> 4
            options = [b for b in hall.accepts[school] if room[b]]
            while options:
                b = options.pop(rng.weighted([room[b] for b in options]) if len(options) > 1 else 0)
                worse, better = hall.effect(school, b)
                if all(slack[i] > 0 for i in worse):
                    for i in worse:
                        slack[i] -= 1
                    for i in better:
                        slack[i] += 1
                    room[b] -= 1
                    masks[b] |= 1 << c
                    break
            else:  # pragma: no cover - the slacks rule this out
                raise RecordError("no deal of the unseen cards fits the voids seen")
    k = 0
    for b in range(len(bins)):
        for c in cards[k : k + room[b]]:
            masks[b] |= 1 << c
        k += room[b]
    return [(bins[b][0], masks[b]) for b in range(len(bins))]


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m

