"""Gorus Arena rules (the State): secret plans, auctions on card strength, attacks, recruits and income.

A round is planning (every seat at once, in secret), then the plans are revealed and
executed card by card in auction order, then every seat draws (a seat left with an empty hand
takes 3 market gladiators: chance, or its own pick with ``refill=choose``). All card sets are bitmasks
of the ids in :mod:`.cards`. Draws take a uniformly random card from the draw pile (a set,
not an ordered deck), which is the same as shuffling and drawing the top card but keeps each
chance node small and honest.

Only decisions with a real choice stop the game: taking income, a defence card's guard and
a card with nothing it can do are carried out automatically and written to the public log.

This module owns the :class:`GorusArenaState`: setup, legal actions, transitions, chance
outcomes, scoring and the reasons an illegal move is refused. The moves are in
:mod:`.actions`, a seat's view in :mod:`.views`, the position JSON in :mod:`.codec` and
determinization in :mod:`.sampler`.

Search plays this engine millions of steps, so its hot paths are lean: the log keeps events
as small tuples worded only when read (:mod:`.events`); legal moves come from memos keyed by
card masks; ``apply`` checks the usual moves by the same refusal reasons without the general
turn bookkeeping, and seeded draws are settled inline with the same random numbers.
``choices`` and ``why_illegal`` stay the plain reading; the tests hold the fast paths to
them and to games captured before the fast paths existed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.bits import bits_list, nth_bit
from ...core.errors import IllegalAction, Refusal
from ...core.game import CHANCE, Action, Game, State
from ...core.rng import Rng
from .actions import (
    ATTACK,
    DONE,
    INCOME,
    INCOME_ACTION,
    PASS,
    PICK,
    PLACE,
    RECRUIT,
    Attack,
    Done,
    Draw,
    Income,
    MarketDraw,
    Pass,
    Pick,
    Place,
    Recruit,
)
from .cards import (
    ACTIONS,
    ARMOURY_MASK,
    COINS_PER_POINT,
    DEFENCE,
    GLADIATOR_MASK,
    KEY,
    KIND_BY_KEY,
    KIND_MASK,
    MARKET_MASK,
    MAX_SEATS,
    NAME,
    NUM_CARDS,
    STRENGTH,
    basics_of,
    cards_of,
    kinds_in,
    points_of,
)
from .events import (
    ATTACK_EV,
    AUCTION,
    DOWN,
    DRAWS,
    GAME_OVER,
    GUARDED,
    GUARDS,
    INCOME_EV,
    MARKET,
    NO_ATTACK,
    NO_RECRUIT,
    PASSES,
    RECRUITS,
    RESHUFFLE,
    REVEAL,
    ROUND,
    TIE,
    Event,
    texts,
)
from .options import GorusArenaOptions
from .views import GorusArenaObservation, observe

__all__ = [
    "COINS_PER_POINT",
    "DRAW",
    "DRAW_COUNT",
    "EXEC",
    "HAND_LIMIT",
    "MARKET_DRAW",
    "OVER",
    "PLAN",
    "PLAN_SIZE",
    "START_COINS",
    "GorusArenaState",
    "initial_state",
]

START_COINS = 5
HAND_LIMIT = 5
PLAN_SIZE = 5
DRAW_COUNT = 2
MARKET_DRAW = 3

PLAN, EXEC, DRAW, OVER = "plan", "exec", "draw", "over"

# ------------------------------------------------------------------ move tables
# Legal moves are built from these tables and from memos keyed by card masks (which hold no state,
# so a state changed by hand, as tests and the position reader do, can never see a stale list).
_CAN_INCOME = tuple("income" in a for a in ACTIONS)
_CAN_RECRUIT = tuple("recruit" in a for a in ACTIONS)
_CAN_ATTACK = tuple("attack" in a for a in ACTIONS)
_CAN_DEFEND = tuple("defence" in a for a in ACTIONS)
_MAX_COST = max(k.cost for k in KIND_BY_KEY.values())
_COST = {k: kind.cost for k, kind in KIND_BY_KEY.items()}
_TO_DRAW = tuple(max(0, min(DRAW_COUNT, HAND_LIMIT - k)) for k in range(NUM_CARDS + 1))
"""Per hand size, the cards a seat draws at the end of a round."""
_MEMO_LIMIT = 1 << 14
"""Entries a memo keeps before it starts again (the masks a game meets are few; a long search
meets many)."""

_TURN_ORDERS = tuple(tuple(tuple((start + i) % n for i in range(n)) for start in range(n)) if n else ()
                     for n in range(MAX_SEATS + 1))
"""Per player count and starting seat, the seats in turn order."""
_OTHERS = tuple(tuple(tuple(o for o in range(n) if o != s) for s in range(n)) for n in range(MAX_SEATS + 1))
"""Per player count and seat, the other seats in seat order."""
_DRAWS = tuple(tuple(Draw(s, c) for c in range(NUM_CARDS)) for s in range(MAX_SEATS))
_MARKET_DRAWS = tuple(tuple(MarketDraw(s, c) for c in range(NUM_CARDS)) for s in range(MAX_SEATS))
"""One shared instance of each chance outcome (they are values), so drawing allocates nothing."""

_PLACES: dict[int, tuple[Action, ...]] = {}
_RECRUITS: dict[int, list[Any]] = {}
_ATTACKS: dict[int, tuple[Action, ...]] = {}
_NOT_READY: dict[tuple[bool, ...], tuple[int, ...]] = {}


def _places(hand: int) -> tuple[Action, ...]:
    """The Place moves of a hand, one per kind in catalogue order."""
    got = _PLACES.get(hand)
    if got is None:
        if len(_PLACES) >= _MEMO_LIMIT:
            _PLACES.clear()
        got = _PLACES[hand] = tuple(PLACE[k] for k in kinds_in(hand))
    return got


_RECRUIT_ROWS = tuple((KIND_MASK[k], KIND_BY_KEY[k].cost, RECRUIT[k]) for k in KIND_BY_KEY)
"""Each kind in catalogue order: its cards, its cost and its Recruit move."""


def _recruits(market: int, coins: int) -> tuple[Action, ...]:
    """The Recruit moves ``coins`` can pay for in ``market``, in catalogue order."""
    row = _RECRUITS.get(market)
    if row is None:
        if len(_RECRUITS) >= _MEMO_LIMIT:
            _RECRUITS.clear()
        # the kinds in the market with their costs, then one slot per amount of coins, filled when asked
        row = _RECRUITS[market] = [tuple((cost, a) for m, cost, a in _RECRUIT_ROWS if market & m)]
        row += [None] * (_MAX_COST + 1)
    c = coins if coins < _MAX_COST else _MAX_COST
    got = row[c + 1]
    if got is None:
        got = row[c + 1] = tuple([a for cost, a in row[0] if cost <= c])
    return got


def _market_left(before: int, after: int, kind: int) -> None:
    """A card of ``kind`` left the market: while copies of that kind remain, the market offers the
    same kinds, so the new market shares the old one's recruit memo (most recruits miss it else)."""
    if after & kind:
        row = _RECRUITS.get(before)
        if row is not None and len(_RECRUITS) < _MEMO_LIMIT:
            _RECRUITS[after] = row


def _attacks(targets: int) -> tuple[Action, ...]:
    """The Attack moves on a mask of targets, lowest card id first."""
    got = _ATTACKS.get(targets)
    if got is None:
        if len(_ATTACKS) >= _MEMO_LIMIT:
            _ATTACKS.clear()
        got = _ATTACKS[targets] = tuple(ATTACK[t] for t in cards_of(targets))
    return got


# --------------------------------------------------------------------------- state

REFUSAL = "gorus-arena."
"""The prefix of this game's refusal codes (a Refusal's code: ``gorus-arena.hand-full``...). Their
params are codes and numbers only: ``card``/``target`` a card's index, ``kind`` a kind's key
("tired-fighter"), ``limit``, ``cost``, ``coins``, ``position`` numbers."""


def _refuse(text: str, code: str, **params: Any) -> Refusal:
    """A refused move: the English sentence, with its code (``REFUSAL`` + ``code``) and params."""
    return Refusal(text, REFUSAL + code, params)


class GorusArenaState(State[GorusArenaOptions]):
    """A Gorus Arena position. Mutable for speed; :meth:`clone` copies every list."""

    def __init__(self, game: Game, options: GorusArenaOptions, rng: Rng | None) -> None:
        super().__init__(game, options, rng)
        n = options.players
        self.n = n
        self.round = 1
        self.phase = PLAN
        self.start = options.first_player - 1
        self.coins = [START_COINS] * n
        self.hand = [basics_of(s) for s in range(n)]
        self.deck = [0] * n
        self.discard = [0] * n
        self.plan: list[list[int]] = [[] for _ in range(n)]
        self.ready = [False] * n
        self.arena: list[list[int]] = [[] for _ in range(n)]
        self.acted = 0
        self.shield = [0] * n
        self.market = MARKET_MASK | (ARMOURY_MASK if options.armoury else 0)
        self.dead = 0
        self.slot = -1
        self.order: list[int] = []
        self.round_tied = False
        self.tied = False
        self.queue: list[tuple[int, int]] = []
        self.pending: tuple[int, int] | None = None
        self.draws: list[list[Any]] = []  # [seat, "own" | "market", still to draw, drawn]
        self.secret = 0  # plan placements made this planning phase: the last entries of the history
        self.log: list[Event] = []  # the public log, worded only when read (see .events)
        self.step_from = 0  # where in ``log`` the latest choice's consequences begin (for the pages)
        self._cache_options()

    def _cache_options(self) -> None:
        """The options the hot paths test, as plain attributes (the options never change; :meth:`clone`
        copies these)."""
        o = self.options
        self._free_plan = o.free_plan
        self._per_round = o.auction == "per-round"
        self._simultaneous = o.tie_resolution == "simultaneous"
        self._targets_mode = o.attack_targets
        self._choose = o.refill == "choose"
        self._reuse = o.used_cards == "discard"
        self._rounds = o.rounds
        self._guard_at_reveal = o.defence_timing == "reveal"

    @property
    def events(self) -> list[str]:
        """The whole public log as text (a new list: the state keeps its events unworded)."""
        return texts(self.log)

    # ------------------------------------------------------------- helpers
    def turn_order(self) -> tuple[int, ...]:
        """Seats in turn order, beginning with this round's starting player."""
        return _TURN_ORDERS[self.n][self.start]

    def owned(self, seat: int) -> int:
        """Every living card ``seat`` owns, wherever it lies (its "team" plus action cards)."""
        mask = self.hand[seat] | self.deck[seat] | self.discard[seat]
        for c in self.plan[seat]:
            mask |= 1 << c
        for c in self.arena[seat]:
            mask |= 1 << c
        return mask & ~self.dead

    def owner(self, card: int) -> int | None:
        bit = 1 << card
        for s in range(self.n):
            if self.owned(s) & bit:
                return s
        return None

    def targets(self, seat: int) -> int:
        """Mask of the gladiators ``seat`` may attack now."""
        mask = 0
        mode = self._targets_mode
        if mode == "bout":
            slot = self.slot
            if slot >= 0:
                arena = self.arena
                for o in _OTHERS[self.n][seat]:  # the rivals, from a table (no enumerate and test)
                    a = arena[o]
                    if slot < len(a):
                        mask |= 1 << a[slot]
        elif mode == "arena":
            for o, a in enumerate(self.arena):
                if o != seat:
                    for c in a:
                        mask |= 1 << c
        else:
            for o in range(self.n):
                if o != seat:
                    mask |= self.owned(o)
        return mask & GLADIATOR_MASK & ~self.dead

    def choices(self, seat: int, card: int) -> list[Action]:
        """What the acting ``card`` of ``seat`` could do now, pass excluded (the plain reading of the
        rules; :meth:`_exec_moves` builds the same faster, and the tests hold them together)."""
        acts = ACTIONS[card]
        out: list[Action] = []
        if "income" in acts:
            out.append(INCOME_ACTION)
        if "recruit" in acts and self.hand[seat].bit_count() < HAND_LIMIT:
            coins = self.coins[seat]
            out.extend(RECRUIT[k] for k in kinds_in(self.market) if KIND_BY_KEY[k].cost <= coins)
        if "attack" in acts:
            out.extend(ATTACK[t] for t in bits_list(self.targets(seat)))
        return out

    def _exec_moves(self, seat: int, card: int) -> tuple[Action, ...]:
        """The legal moves of the acting ``card`` of ``seat``: :meth:`choices` and Pass, from the memos."""
        out: tuple[Action, ...] = (INCOME_ACTION,) if _CAN_INCOME[card] else ()
        if _CAN_RECRUIT[card] and self.hand[seat].bit_count() < HAND_LIMIT:
            out += _recruits(self.market, self.coins[seat])
        if _CAN_ATTACK[card]:
            targets = self.targets(seat)
            if targets:
                out += _attacks(targets)
        return out + (PASS,)

    def _has_choice(self, seat: int, card: int) -> bool:
        """Whether ``card`` has a move other than income and pass (else it acts by itself)."""
        if (_CAN_RECRUIT[card] and self.hand[seat].bit_count() < HAND_LIMIT
                and _recruits(self.market, self.coins[seat])):
            return True
        return _CAN_ATTACK[card] and self.targets(seat) != 0

    def score(self, seat: int) -> int:
        return points_of(self.owned(seat) & GLADIATOR_MASK) + self.coins[seat] // COINS_PER_POINT

    # ------------------------------------------------------------- round flow
    def _begin_planning(self) -> None:
        self.phase = PLAN
        self.log.append((ROUND, self.round, self._rounds, self.start))
        plan, ready, hand = self.plan, self.ready, self.hand
        for s in range(self.n):
            plan[s] = []
            ready[s] = not hand[s]
            if hand[s] and not self._free_plan and hand[s].bit_count() == 1:  # (the test _autoplan begins with)
                self._autoplan(s)
        if all(ready):
            self._reveal()

    def _autoplan(self, seat: int) -> None:
        """With the whole hand planned, the last card left needs no choice: place it.

        Only the count decides (never which kinds are left), so how many placements a seat
        makes tells the others nothing they could not count anyway."""
        hand = self.hand[seat]
        if hand.bit_count() == 1 and len(self.plan[seat]) < PLAN_SIZE:
            self.plan[seat].append(hand.bit_length() - 1)
            self.hand[seat] = 0
            self.ready[seat] = True

    def _reveal(self) -> None:
        self.secret = 0  # every placement so far is now public
        arena, plan, log, turn = self.arena, self.plan, self.log, self.turn_order()
        for s in turn:
            a = arena[s] = plan[s]
            plan[s] = []
            log.append((REVEAL, s, tuple(a)))
        if self._guard_at_reveal:
            shield = self.shield
            for s in turn:
                for c in arena[s]:
                    if _CAN_DEFEND[c]:
                        shield[s] = max(shield[s], STRENGTH[c])
                        self.acted |= 1 << c
                if shield[s]:
                    log.append((GUARDED, s, shield[s]))
        self.phase = EXEC
        self.slot = -1
        self.queue = []
        self.pending = None
        self.order = []
        if self._per_round:
            seats = [s for s in self.turn_order() if self.arena[s]]
            if seats:
                i = self._auction(seats, [max(STRENGTH[c] for c in self.arena[s]) for s in seats], 0)
                self.order = seats if i < 0 else [seats[i]] + seats[:i] + seats[i + 1:]
                self.round_tied = i < 0
            else:
                self.round_tied = False
        self._next_slot()

    def _auction(self, seats: list[int], bids: list[int], what: int) -> int:
        """The auction between ``seats`` (in turn order, at least one) bidding ``bids``: the index
        of the single highest bid, which acts first (then the rest in turn order), or -1 on a tie
        (everybody acts in turn order from the starting player). ``what`` numbers the auction in
        the log (0: the per-round auction)."""
        best = max(bids)
        if bids.count(best) == 1:
            i = bids.index(best)
            if len(bids) > 1:
                self.log.append((AUCTION, what, seats[i], best))
            return i
        self.log.append((TIE, what, best))
        return -1

    def _next_slot(self) -> None:
        arena = self.arena
        longest = max(map(len, arena), default=0)
        dead = self.dead
        turn = self.turn_order()
        while True:
            slot = self.slot = self.slot + 1
            if slot >= longest:
                self._end_round()
                return
            # the living cards at this slot, (seat, card) in turn order
            live = [(s, arena[s][slot]) for s in turn if len(arena[s]) > slot and not dead >> arena[s][slot] & 1]
            if not live:
                continue
            tied = False
            if self._per_round:
                cards = dict(live)
                live = [(s, cards[s]) for s in self.order if s in cards]
                tied = self.round_tied
            elif len(live) > 1:  # a lone card: no auction to hold or log
                i = self._auction([s for s, _ in live], [STRENGTH[c] for _, c in live], slot + 1)
                if i < 0:
                    tied = True
                elif i:
                    live.insert(0, live.pop(i))  # the winner first, the rest in turn order
            self.tied = tied and self._simultaneous
            self.queue = live
            return

    def _advance(self) -> None:
        """Carry out everything that needs no decision, up to the next decision or chance node."""
        while self.phase == EXEC and self.pending is None:
            queue = self.queue
            while queue:  # a card carried out by itself changes neither the phase nor the pending card
                head = queue[0]
                seat, card = head
                bit = 1 << card
                if self.acted & bit or (self.dead & bit and not self.tied):
                    del queue[0]  # done already, or killed by a card that won the auction
                    continue
                if self.dead & bit:
                    self.log.append((DOWN, seat, card))
                if (_CAN_RECRUIT[card] or _CAN_ATTACK[card]) and self._has_choice(seat, card):
                    self.pending = head
                    return
                del queue[0]
                self.acted |= bit
                if _CAN_INCOME[card]:  # the usual automatic action, as _auto does it
                    self.coins[seat] += INCOME
                    self.log.append((INCOME_EV, seat, card))
                else:
                    self._auto(seat, card)
            self._next_slot()

    def _auto(self, seat: int, card: int) -> None:
        """Carry out a card with no choice to make: income if it can, else its guard, else nothing."""
        acts = ACTIONS[card]
        if _CAN_INCOME[card]:
            self.coins[seat] += INCOME
            self.log.append((INCOME_EV, seat, card))
        elif "defence" in acts:
            self.shield[seat] = max(self.shield[seat], STRENGTH[card])
            self.log.append((GUARDS, seat, card, self.shield[seat]))
        elif "recruit" in acts:
            self.log.append((NO_RECRUIT, seat, card, self.hand[seat].bit_count() >= HAND_LIMIT))
        else:
            self.log.append((NO_ATTACK, seat, card))

    def _end_round(self) -> None:
        dead = self.dead
        arena = self.arena
        discard = self.discard
        for s in range(self.n):
            used = 0
            for c in arena[s]:
                used |= 1 << c
            discard[s] |= used & ~dead  # the living ones
            arena[s] = []
        self.acted = 0
        self.shield = [0] * self.n
        self.queue = []
        self.order = []
        self.round_tied = self.tied = False
        self.pending = None
        self.slot = -1
        if self.round >= self._rounds:
            self.phase = OVER
            self.log.append((GAME_OVER, tuple(self.score(s) for s in range(self.n))))
            return
        self.phase = DRAW
        hand = self.hand
        self.draws = [[s, "own", _TO_DRAW[hand[s].bit_count()], 0] for s in self.turn_order()]
        self._prepare_draws()

    def _prepare_draws(self) -> None:
        """Settle the deterministic part of drawing; stop where a random card is needed."""
        draws, deck, log = self.draws, self.deck, self.log
        while draws:
            seat, source, left, drawn = draws[0]
            if source == "own":
                if left > 0 and not deck[seat] and self.discard[seat] and self._reuse:
                    deck[seat] = self.discard[seat]
                    self.discard[seat] = 0
                    log.append((RESHUFFLE, seat))
                if left > 0 and deck[seat]:
                    return
                del draws[0]
                if drawn:
                    log.append((DRAWS, seat, drawn))
                if not self.hand[seat]:
                    draws.insert(0, [seat, "market", MARKET_DRAW, 0])
            else:
                if left > 0 and self.market & GLADIATOR_MASK:
                    return
                del draws[0]
        self.round += 1
        self.start = self._next_start()
        self._begin_planning()

    def picker(self) -> int | None:
        """The seat choosing its refill from the market now (option ``refill=choose``), else None."""
        if self.phase == DRAW and self.draws and self.draws[0][1] == "market" and self.options.refill == "choose":
            return int(self.draws[0][0])
        return None

    def _next_start(self) -> int:
        rule = self.options.starting_player
        if rule == "fixed":
            return self.start
        if rule == "trailing":
            order = [(self.start + i) % self.n for i in range(1, self.n + 1)]
            scores = [self.score(s) for s in range(self.n)]
            low = min(scores)
            return next(s for s in order if scores[s] == low)
        return (self.start + 1) % self.n  # rotate: the next seat in turn

    # ------------------------------------------------------------- protocol
    def current_seats(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == EXEC:
            return (self.pending[0],) if self.pending is not None else ()
        if phase == PLAN:
            ready = tuple(self.ready)
            got = _NOT_READY.get(ready)  # a memo keyed by the flags themselves (a few dozen at most)
            if got is None:
                got = _NOT_READY[ready] = tuple([s for s, r in enumerate(ready) if not r])
            return got
        if phase == DRAW:
            picker = self.picker()
            return (CHANCE,) if picker is None else (picker,)
        return ()

    def legal_actions(self, seat: int | None = None) -> Sequence[Action]:
        """The legal moves, in a fixed order, as a shared tuple (copy it before changing it)."""
        phase = self.phase
        if phase == EXEC:
            pending = self.pending
            if pending is None or (seat is not None and seat != pending[0]):
                return ()
            return self._exec_moves(pending[0], pending[1])
        if seat is None:
            seats = self.current_seats()
            if len(seats) != 1:
                return ()
            seat = seats[0]
        if seat == CHANCE:
            return tuple(a for a, _ in self.chance_outcomes()) if phase == DRAW and self.picker() is None else ()
        if not 0 <= seat < self.n:
            return ()
        if phase == PLAN:
            if self.ready[seat]:
                return ()
            hand = self.hand[seat]
            places = _PLACES.get(hand) or _places(hand)  # the memo read inline, as it nearly always hits
            return places + (DONE,) if self._free_plan and self.plan[seat] else places
        if phase == DRAW and self.picker() == seat:
            return tuple(PICK[k] for k in kinds_in(self.market & GLADIATOR_MASK))
        return ()

    def why_illegal(self, action: Action, seat: int) -> str | None:
        if self.phase == PLAN:
            return self._why_plan(action, seat)
        if type(action) is Pick or self.picker() == seat:
            return self._why_pick(action, seat)
        if isinstance(action, (Place, Done)):
            return _refuse("planning is over for this round; now the revealed cards are carried out", "planning-over")
        if self.phase != EXEC or self.pending is None or self.pending[0] != seat:
            return (_refuse("it is not your turn", "not-your-turn") if self.phase != OVER
                    else Refusal("the game is over", "game-over"))
        card = self.pending[1]
        acts = ACTIONS[card]
        name = NAME[card]
        can = "/".join(acts)
        if type(action) is Pass:
            return None
        if type(action) is Income:
            if "income" in acts:
                return None
            return _refuse(f"your {name} cannot take income (it can: {can})", "cannot-income", card=card)
        if type(action) is Recruit:
            return self._why_recruit(action.card, seat, card)
        if type(action) is Attack:
            return self._why_attack(action.target, seat, card)
        return _refuse(f"{action} is not a move a player makes", "not-a-move", action=str(action))

    def _why_plan(self, action: Action, seat: int) -> str | None:
        if self.ready[seat]:
            return _refuse("your plan for this round is already complete", "plan-complete")
        if type(action) is Place:
            if not self.hand[seat] & KIND_MASK.get(action.card, 0):
                return _refuse(f"you have no {KIND_BY_KEY[action.card].name} in your hand", "not-in-hand",
                               kind=action.card)
            return None
        if type(action) is Done:
            if not self.options.free_plan:
                return _refuse(f"every card in your hand goes into your plan: a hand holds at most {HAND_LIMIT} cards, "
                               "so you always play them all (the free-plan option allows stopping early)", "plan-all",
                               limit=HAND_LIMIT)
            if not self.plan[seat]:
                return _refuse("put at least one card in your plan first", "plan-empty")
            return None
        return _refuse("it is the planning phase: put the cards of your hand into your plan, in the order to play them",
                       "planning")

    def _why_pick(self, action: Action, seat: int) -> str | None:
        if self.picker() != seat:
            return _refuse("only a player whose hand is empty after drawing takes cards from the market, and not now",
                           "not-picking")
        if type(action) is not Pick:
            return _refuse("your hand is empty: take a gladiator from the market first (it is free)", "pick-first")
        kind = KIND_BY_KEY.get(action.card)
        if kind is None or not kind.gladiator:
            return _refuse("only gladiators refill an empty hand, not action cards", "pick-gladiator")
        if not self.market & KIND_MASK[action.card]:
            return _refuse(f"there is no {kind.name} left in the market", "none-left", kind=action.card)
        return None

    def _why_recruit(self, key: str, seat: int, card: int) -> str | None:
        if "recruit" not in ACTIONS[card]:
            return _refuse(f"your {NAME[card]} cannot recruit (it can: {'/'.join(ACTIONS[card])})", "cannot-recruit",
                           card=card)
        kind = KIND_BY_KEY[key]
        if not self.market & KIND_MASK[key]:
            if not self.options.armoury and not kind.gladiator:
                return _refuse(f"{kind.name} is an action card and this game has no armoury", "no-armoury", kind=key)
            return _refuse(f"there is no {kind.name} left in the market", "none-left", kind=key)
        if self.hand[seat].bit_count() >= HAND_LIMIT:
            return _refuse(f"your hand is full ({HAND_LIMIT} cards); a recruit joins your hand", "hand-full",
                           limit=HAND_LIMIT)
        if kind.cost > self.coins[seat]:
            return _refuse(f"{kind.name} costs {kind.cost} coins and you have {self.coins[seat]}", "too-dear", kind=key,
                           cost=kind.cost, coins=self.coins[seat])
        return None

    def _why_attack(self, target: int, seat: int, card: int) -> str | None:
        if "attack" not in ACTIONS[card]:
            return _refuse(f"your {NAME[card]} cannot attack (it can: {'/'.join(ACTIONS[card])})", "cannot-attack",
                           card=card)
        if not 0 <= target < NUM_CARDS:
            return _refuse("there is no such card", "no-such-card", target=target)
        if self.dead >> target & 1:
            return _refuse(f"that {NAME[target]} is already dead", "already-dead", target=target)
        if not GLADIATOR_MASK >> target & 1:
            return _refuse(f"{NAME[target]} is an action card, not a gladiator; only gladiators can be attacked",
                           "not-a-gladiator", target=target)
        if self.owned(seat) >> target & 1:
            return _refuse("you cannot attack your own gladiator", "own-gladiator", target=target)
        if not self.targets(seat) >> target & 1:
            if self.options.attack_targets == "bout":
                return _refuse(f"that {NAME[target]} is not in this auction; a card can only attack the rival cards "
                               f"planned at the same position (position {self.slot + 1})", "not-in-auction",
                               target=target, position=self.slot + 1)
            if self.options.attack_targets == "arena":
                return _refuse(f"that {NAME[target]} is not in the arena this round; only revealed gladiators "
                               "can be attacked", "not-in-arena", target=target)
            return _refuse(f"that {NAME[target]} belongs to no opponent", "not-an-opponents", target=target)
        return None

    def apply(self, action: Action, seat: int | None = None) -> None:
        """:meth:`State.apply`, with the usual moves (a placement, the acting card's move) checked
        by the same reasons without first listing the seats to act; anything else goes the
        general way, so every refusal is worded as before."""
        phase = self.phase
        if phase == EXEC:
            pending = self.pending
            if pending is not None and (seat is None or seat == pending[0]):
                seat = pending[0]
                if type(action) is not Pass and not self._legal_exec(action, seat, pending[1]):
                    reason = self.why_illegal(action, seat)
                    if reason is not None:
                        raise IllegalAction(reason)
                self._apply_exec(seat, action)
                self.history.append((seat, action))
                if self.rng is not None and self.phase == DRAW:
                    self._settle_chance()
                return
        elif phase == PLAN and seat is not None and 0 <= seat < self.n and not self.ready[seat]:
            if not (type(action) is Place and self.hand[seat] & KIND_MASK.get(action.card, 0)):
                reason = self._why_plan(action, seat)  # a card of the hand is legal; else ask
                if reason is not None:
                    raise IllegalAction(reason)
            self._apply_plan(seat, action)
            self.history.append((seat, action))
            if self.rng is not None and self.phase == DRAW:
                self._settle_chance()
            return
        State.apply(self, action, seat)

    def _legal_exec(self, action: Action, seat: int, card: int) -> bool:
        """Whether the acting ``card``'s move is surely legal: each test implies every check of
        :meth:`why_illegal` passes; anything else is left to it (which words the refusal)."""
        kind = type(action)
        if kind is Pass:
            return True
        if kind is Income:
            return _CAN_INCOME[card]
        if kind is Recruit:
            key = action.card  # type: ignore[attr-defined]
            cost = _COST.get(key)
            return (cost is not None and _CAN_RECRUIT[card] and self.market & KIND_MASK[key] != 0
                    and self.hand[seat].bit_count() < HAND_LIMIT and cost <= self.coins[seat])
        if kind is Attack:
            t = action.target  # type: ignore[attr-defined]
            # targets() holds only living gladiators; the own-card test is why_illegal's
            return (_CAN_ATTACK[card] and type(t) is int and 0 <= t < NUM_CARDS
                    and self.targets(seat) >> t & 1 == 1 and not self.owned(seat) >> t & 1)
        return False

    def _settle_chance(self) -> None:
        """:meth:`State._settle_chance` without asking for the seats: a draw is due while the
        phase is drawing and no seat picks its refill (the same test as ``current_seats``)."""
        rng = self.rng
        assert rng is not None
        history = self.history
        choose = self._choose
        while self.phase == DRAW:
            task = self.draws[0]
            seat = task[0]
            if task[1] != "own":
                if choose:
                    return
                outcome = self.sample_chance(rng)
                self._apply(CHANCE, outcome)
                history.append((CHANCE, outcome))
                continue
            # the seat's draws from its own pile, one after another: sample_chance and _apply_chance
            # inlined (the same random numbers, from Rng itself); nothing is settled between two
            # draws of one task
            outcomes = _DRAWS[seat]
            pile = self.deck[seat]
            hand = self.hand[seat]
            left = task[2]
            while True:
                card = nth_bit(pile, rng.below(pile.bit_count()))
                bit = 1 << card
                pile &= ~bit
                hand |= bit
                left -= 1
                history.append((CHANCE, outcomes[card]))
                if not left or not pile:
                    break
            self.deck[seat] = pile
            self.hand[seat] = hand
            task[3] += task[2] - left
            task[2] = left
            self._prepare_draws()
            if self.phase == EXEC:  # (_advance does nothing in any other phase)
                self._advance()

    def _apply(self, seat: int, action: Action) -> None:
        if seat == CHANCE:
            self._apply_chance(action)
            return
        if self.phase == DRAW:  # a refill chosen from the market (refill=choose)
            self.step_from = len(self.log)
            bit = self.market & KIND_MASK[action.card]  # type: ignore[attr-defined]
            bit &= -bit
            self._take_from_market(seat, bit.bit_length() - 1, "picks")
            return
        if self.phase == PLAN:
            self._apply_plan(seat, action)
        else:
            self._apply_exec(seat, action)

    def _apply_plan(self, seat: int, action: Action) -> None:
        """A placement (or the end of a free plan); the last one reveals every plan."""
        self.secret += 1
        ready = self.ready
        if type(action) is Place:
            hand = self.hand[seat]
            plan = self.plan[seat]
            bit = hand & KIND_MASK[action.card]
            bit &= -bit
            hand ^= bit
            plan.append(bit.bit_length() - 1)
            if not self._free_plan and hand.bit_count() == 1 and len(plan) < PLAN_SIZE:
                plan.append(hand.bit_length() - 1)  # _autoplan: the last card needs no choice
                hand = 0
            self.hand[seat] = hand
            if not hand or len(plan) >= PLAN_SIZE:
                ready[seat] = True
        else:  # Done
            ready[seat] = True
        if ready[seat] and all(ready):
            self.step_from = len(self.log)  # the last placement turns every plan over
            self._reveal()
            self._advance()

    def _apply_exec(self, seat: int, action: Action) -> None:
        """The acting card's move, then everything that follows up to the next decision."""
        assert self.pending is not None
        self.step_from = len(self.log)
        _, card = self.pending
        self.pending = None
        del self.queue[0]
        self.acted |= 1 << card
        kind = type(action)
        if kind is Attack:
            self._attack(seat, card, action.target)  # type: ignore[attr-defined]
        elif kind is Recruit:
            key = action.card  # type: ignore[attr-defined]
            market, kind_mask = self.market, KIND_MASK[key]
            bit = market & kind_mask
            bit &= -bit
            cost = _COST[key]
            self.coins[seat] -= cost
            _market_left(market, market ^ bit, kind_mask)
            self.market = market ^ bit
            self.hand[seat] |= bit
            self.log.append((RECRUITS, seat, card, key, cost))
        elif kind is Income:
            self.coins[seat] += INCOME
            self.log.append((INCOME_EV, seat, card))
        else:
            self.log.append((PASSES, seat, card))
        self._advance()

    def _attack(self, seat: int, card: int, target: int) -> None:
        victim = self.owner(target)
        assert victim is not None
        guard = max(DEFENCE[target], self.shield[victim])
        killed = STRENGTH[card] > guard
        if killed:
            bit = 1 << target
            self.dead |= bit
            self.hand[victim] &= ~bit
            self.deck[victim] &= ~bit
            self.discard[victim] &= ~bit
        self.log.append((ATTACK_EV, seat, card, victim, target, guard, killed))

    def _apply_chance(self, action: Action) -> None:
        task = self.draws[0]
        bit = 1 << action.card  # type: ignore[attr-defined]
        seat = task[0]
        if type(action) is Draw:
            self.deck[seat] &= ~bit
        else:
            self._take_from_market(seat, action.card, "takes")  # type: ignore[attr-defined]
            return
        self.hand[seat] |= bit
        task[2] -= 1
        task[3] += 1
        self._prepare_draws()
        self._advance()

    def _take_from_market(self, seat: int, card: int, verb: str) -> None:
        """One card of a refill (the head of ``draws``): from the market into the empty-handed seat's hand."""
        task = self.draws[0]
        bit = 1 << card
        _market_left(self.market, self.market & ~bit, KIND_MASK[KEY[card]])
        self.market &= ~bit
        self.log.append((MARKET, seat, card, verb == "picks"))
        self.hand[seat] |= bit
        task[2] -= 1
        task[3] += 1
        self._prepare_draws()
        self._advance()

    def _draw_pile(self) -> tuple[int, int, str]:
        seat, source, _, _ = self.draws[0]
        pile = self.deck[seat] if source == "own" else self.market & GLADIATOR_MASK
        return seat, pile, source

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.phase != DRAW or self.picker() is not None:
            raise IllegalAction("this is not a chance node")
        seat, pile, source = self._draw_pile()
        cls = Draw if source == "own" else MarketDraw
        cards = bits_list(pile)
        p = 1.0 / len(cards)
        return [(cls(seat, c), p) for c in cards]

    def sample_chance(self, rng: Rng) -> Action:
        seat, pile, source = self._draw_pile()
        card = nth_bit(pile, rng.below(pile.bit_count()))
        return _DRAWS[seat][card] if source == "own" else _MARKET_DRAWS[seat][card]

    def _visible(self, index: int, actor: int, action: Action, viewer: int | None) -> bool:
        if actor == viewer:
            return True
        if type(action) is Place or type(action) is Done:
            # planning leaves only placements in the history, so this phase's secret ones are the last
            return not (self.phase == PLAN and index >= len(self.history) - self.secret)
        return action.visible_to(viewer, actor)

    # ------------------------------------------------------------- results
    def scores(self) -> list[float]:
        return [float(self.score(s)) for s in range(self.n)]

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        scores = [self.score(s) for s in range(self.n)]
        best = max(scores)
        top = [s for s in range(self.n) if scores[s] == best]
        if self.options.tie_break == "coins" and len(top) > 1:
            most = max(self.coins[s] for s in top)
            top = [s for s in top if self.coins[s] == most]
        return top

    def observation(self, seat: int | None) -> GorusArenaObservation:
        return observe(self, seat)

    # ------------------------------------------------------------- copies
    def clone(self) -> GorusArenaState:
        c = GorusArenaState.__new__(GorusArenaState)
        c.game = self.game
        c.options = self.options
        c.rng = None if self.rng is None else self.rng.clone()
        c.history = list(self.history)
        c.n = self.n
        c.round = self.round
        c.phase = self.phase
        c.start = self.start
        c.coins = self.coins[:]
        c.hand = self.hand[:]
        c.deck = self.deck[:]
        c.discard = self.discard[:]
        c.plan = [p[:] for p in self.plan]
        c.ready = self.ready[:]
        c.arena = [a[:] for a in self.arena]
        c.acted = self.acted
        c.shield = self.shield[:]
        c.market = self.market
        c.dead = self.dead
        c.slot = self.slot
        c.order = self.order[:]
        c.round_tied = self.round_tied
        c.tied = self.tied
        c.queue = self.queue[:]
        c.pending = self.pending
        c.draws = [t[:] for t in self.draws]
        c.secret = self.secret
        c.log = self.log[:]
        c.step_from = self.step_from
        c._free_plan = self._free_plan
        c._per_round = self._per_round
        c._simultaneous = self._simultaneous
        c._targets_mode = self._targets_mode
        c._choose = self._choose
        c._reuse = self._reuse
        c._rounds = self._rounds
        c._guard_at_reveal = self._guard_at_reveal
        return c

    def _position(self) -> dict[str, Any]:
        from .codec import position_of  # deferred: the codec imports this module to read positions

        return position_of(self)


def initial_state(game: Game, options: GorusArenaOptions, rng: Rng | None) -> GorusArenaState:
    """A new game: the first round's planning begun, up to the first decision or chance node."""
    state = GorusArenaState(game, options, rng)
    state._begin_planning()
    state._advance()
    return state
