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
"""

from __future__ import annotations

from typing import Any

from ...core.bits import bits_list, nth_bit
from ...core.errors import IllegalAction
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
    seat_name,
)
from .cards import (
    ACTIONS,
    ARMOURY_MASK,
    DEFENCE,
    GLADIATOR_MASK,
    KIND_BY_KEY,
    KIND_MASK,
    MARKET_MASK,
    NAME,
    NUM_CARDS,
    POINTS,
    STRENGTH,
    basics_of,
    card_label,
    kinds_in,
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
COINS_PER_POINT = 3

PLAN, EXEC, DRAW, OVER = "plan", "exec", "draw", "over"


# --------------------------------------------------------------------------- state
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
        self.events: list[str] = []
        self.step_from = 0  # where in ``events`` the latest choice's consequences begin (for the pages)

    # ------------------------------------------------------------- helpers
    def turn_order(self) -> list[int]:
        """Seats in turn order, beginning with this round's starting player."""
        return [(self.start + i) % self.n for i in range(self.n)]

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
        for o in range(self.n):
            if o == seat:
                continue
            mode = self.options.attack_targets
            if mode == "bout":
                if 0 <= self.slot < len(self.arena[o]):
                    mask |= 1 << self.arena[o][self.slot]
            elif mode == "arena":
                for c in self.arena[o]:
                    mask |= 1 << c
            else:
                mask |= self.owned(o)
        return mask & GLADIATOR_MASK & ~self.dead

    def choices(self, seat: int, card: int) -> list[Action]:
        """What the acting ``card`` of ``seat`` could do now, pass excluded."""
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

    def score(self, seat: int) -> int:
        glads = self.owned(seat) & GLADIATOR_MASK
        return sum(POINTS[c] for c in bits_list(glads)) + self.coins[seat] // COINS_PER_POINT

    def _log(self, text: str) -> None:
        self.events.append(text)

    def _who(self, seat: int, card: int) -> str:
        return f"{seat_name(seat)}'s {NAME[card]}"

    # ------------------------------------------------------------- round flow
    def _begin_planning(self) -> None:
        self.phase = PLAN
        self._log(f"— Round {self.round} of {self.options.rounds}: {seat_name(self.start)} starts —")
        for s in range(self.n):
            self.plan[s] = []
            self.ready[s] = False
            if not self.hand[s]:
                self.ready[s] = True
            elif not self.options.free_plan:
                self._autoplan(s)
        if all(self.ready):
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
        for s in self.turn_order():
            self.arena[s] = self.plan[s]
            self.plan[s] = []
            shown = ", ".join(card_label(c) for c in self.arena[s]) or "nothing"
            self._log(f"{seat_name(s)} reveals: {shown}")
        if self.options.defence_timing == "reveal":
            for s in self.turn_order():
                for c in self.arena[s]:
                    if "defence" in ACTIONS[c]:
                        self.shield[s] = max(self.shield[s], STRENGTH[c])
                        self.acted |= 1 << c
                if self.shield[s]:
                    self._log(f"{seat_name(s)}'s gladiators are guarded: defence at least {self.shield[s]}")
        self.phase = EXEC
        self.slot = -1
        self.queue = []
        self.pending = None
        self.order = []
        if self.options.auction == "per-round":
            bids = {s: max(STRENGTH[c] for c in self.arena[s]) for s in range(self.n) if self.arena[s]}
            self.order, self.round_tied = self._auction(bids, "Auction")
        self._next_slot()

    def _auction(self, bids: dict[int, int], what: str) -> tuple[list[int], bool]:
        """Order of play and whether it was a tie: a single highest bid acts first, then the
        rest in turn order; on a tie everybody acts in turn order from the starting player."""
        order = [s for s in self.turn_order() if s in bids]
        if not order:
            return [], False
        best = max(bids.values())
        top = [s for s in order if bids[s] == best]
        if len(top) == 1:
            if len(order) > 1:
                self._log(f"{what}: {seat_name(top[0])} wins with strength {best}")
            return top + [s for s in order if s != top[0]], False
        self._log(f"{what}: tie at strength {best}, nobody wins; turn order")
        return order, True

    def _next_slot(self) -> None:
        longest = max((len(a) for a in self.arena), default=0)
        while True:
            self.slot += 1
            if self.slot >= longest:
                self._end_round()
                return
            cards = {
                s: a[self.slot]
                for s, a in enumerate(self.arena)
                if len(a) > self.slot and not self.dead >> a[self.slot] & 1
            }
            if not cards:
                continue
            if self.options.auction == "per-round":
                seats = [s for s in self.order if s in cards]
                self.tied = self.round_tied
            else:
                bids = {s: STRENGTH[c] for s, c in cards.items()}
                seats, self.tied = self._auction(bids, f"Auction {self.slot + 1}")
            self.tied = self.tied and self.options.tie_resolution == "simultaneous"
            self.queue = [(s, cards[s]) for s in seats]
            return

    def _advance(self) -> None:
        """Carry out everything that needs no decision, up to the next decision or chance node."""
        while self.phase == EXEC and self.pending is None:
            if not self.queue:
                self._next_slot()
                continue
            seat, card = self.queue[0]
            bit = 1 << card
            if self.acted & bit or (self.dead & bit and not self.tied):
                self.queue.pop(0)  # done already, or killed by a card that won the auction
                continue
            if self.dead & bit:
                self._log(f"{self._who(seat, card)} is down but still acts: the auction was tied")
            opts = self.choices(seat, card)
            if any(type(o) is not Income for o in opts):
                self.pending = (seat, card)
                return
            self.queue.pop(0)
            self.acted |= bit
            self._auto(seat, card, opts)

    def _auto(self, seat: int, card: int, opts: list[Action]) -> None:
        acts = ACTIONS[card]
        who = self._who(seat, card)
        if opts:
            self.coins[seat] += INCOME
            self._log(f"{who}: income, +{INCOME} coins")
        elif "defence" in acts:
            self.shield[seat] = max(self.shield[seat], STRENGTH[card])
            self._log(f"{who} guards: defence at least {self.shield[seat]} for the rest of the round")
        elif "recruit" in acts:
            why = "hand full" if self.hand[seat].bit_count() >= HAND_LIMIT else "cannot afford anything"
            self._log(f"{who}: no recruit ({why})")
        else:
            self._log(f"{who}: nobody to attack")

    def _end_round(self) -> None:
        for s in range(self.n):
            for c in self.arena[s]:
                if not self.dead >> c & 1:
                    self.discard[s] |= 1 << c
            self.arena[s] = []
        self.acted = 0
        self.shield = [0] * self.n
        self.queue = []
        self.order = []
        self.round_tied = self.tied = False
        self.pending = None
        self.slot = -1
        if self.round >= self.options.rounds:
            self.phase = OVER
            self._log("Game over: " + ", ".join(f"{seat_name(s)} {self.score(s)}" for s in range(self.n)))
            return
        self.phase = DRAW
        self.draws = [
            [s, "own", max(0, min(DRAW_COUNT, HAND_LIMIT - self.hand[s].bit_count())), 0]
            for s in self.turn_order()
        ]
        self._prepare_draws()

    def _prepare_draws(self) -> None:
        """Settle the deterministic part of drawing; stop where a random card is needed."""
        while self.draws:
            seat, source, left, drawn = self.draws[0]
            if source == "own":
                if left > 0 and not self.deck[seat] and self.discard[seat] and self.options.used_cards == "discard":
                    self.deck[seat] = self.discard[seat]
                    self.discard[seat] = 0
                    self._log(f"{seat_name(seat)} turns the discard pile into a new draw pile")
                if left > 0 and self.deck[seat]:
                    return
                self.draws.pop(0)
                if drawn:
                    self._log(f"{seat_name(seat)} draws {drawn} card{'s' if drawn > 1 else ''}")
                if not self.hand[seat]:
                    self.draws.insert(0, [seat, "market", MARKET_DRAW, 0])
            else:
                if left > 0 and self.market & GLADIATOR_MASK:
                    return
                self.draws.pop(0)
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
        order = [(self.start + i) % self.n for i in range(1, self.n + 1)]
        if rule == "trailing":
            scores = [self.score(s) for s in range(self.n)]
            low = min(scores)
            return next(s for s in order if scores[s] == low)
        return order[0]

    # ------------------------------------------------------------- protocol
    def current_seats(self) -> tuple[int, ...]:
        if self.phase == PLAN:
            return tuple(s for s in range(self.n) if not self.ready[s])
        if self.phase == EXEC:
            return (self.pending[0],) if self.pending is not None else ()
        if self.phase == DRAW:
            picker = self.picker()
            return (CHANCE,) if picker is None else (picker,)
        return ()

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        if seat is None:
            seats = self.current_seats()
            if len(seats) != 1:
                return []
            seat = seats[0]
        if seat == CHANCE:
            return [a for a, _ in self.chance_outcomes()] if self.phase == DRAW and self.picker() is None else []
        if not 0 <= seat < self.n:
            return []
        if self.phase == DRAW:
            if self.picker() != seat:
                return []
            return [PICK[k] for k in kinds_in(self.market & GLADIATOR_MASK)]
        if self.phase == PLAN:
            if self.ready[seat]:
                return []
            out: list[Action] = [PLACE[k] for k in kinds_in(self.hand[seat])]
            if self.options.free_plan and self.plan[seat]:
                out.append(DONE)
            return out
        if self.phase == EXEC and self.pending is not None and self.pending[0] == seat:
            return self.choices(seat, self.pending[1]) + [PASS]
        return []

    def why_illegal(self, action: Action, seat: int) -> str | None:
        if self.phase == PLAN:
            return self._why_plan(action, seat)
        if type(action) is Pick or self.picker() == seat:
            return self._why_pick(action, seat)
        if isinstance(action, (Place, Done)):
            return "planning is over for this round; now the revealed cards are carried out"
        if self.phase != EXEC or self.pending is None or self.pending[0] != seat:
            return "it is not your turn" if self.phase != OVER else "the game is over"
        card = self.pending[1]
        acts = ACTIONS[card]
        name = NAME[card]
        can = "/".join(acts)
        if type(action) is Pass:
            return None
        if type(action) is Income:
            return None if "income" in acts else f"your {name} cannot take income (it can: {can})"
        if type(action) is Recruit:
            return self._why_recruit(action.card, seat, card)
        if type(action) is Attack:
            return self._why_attack(action.target, seat, card)
        return f"{action} is not a move a player makes"

    def _why_plan(self, action: Action, seat: int) -> str | None:
        if self.ready[seat]:
            return "your plan for this round is already complete"
        if type(action) is Place:
            if not self.hand[seat] & KIND_MASK.get(action.card, 0):
                return f"you have no {KIND_BY_KEY[action.card].name} in your hand"
            return None
        if type(action) is Done:
            if not self.options.free_plan:
                return (f"every card in your hand goes into your plan: a hand holds at most {HAND_LIMIT} cards, "
                        "so you always play them all (the free-plan option allows stopping early)")
            if not self.plan[seat]:
                return "put at least one card in your plan first"
            return None
        return "it is the planning phase: put the cards of your hand into your plan, in the order to play them"

    def _why_pick(self, action: Action, seat: int) -> str | None:
        if self.picker() != seat:
            return "only a player whose hand is empty after drawing takes cards from the market, and not now"
        if type(action) is not Pick:
            return "your hand is empty: take a gladiator from the market first (it is free)"
        kind = KIND_BY_KEY.get(action.card)
        if kind is None or not kind.gladiator:
            return "only gladiators refill an empty hand, not action cards"
        if not self.market & KIND_MASK[action.card]:
            return f"there is no {kind.name} left in the market"
        return None

    def _why_recruit(self, key: str, seat: int, card: int) -> str | None:
        if "recruit" not in ACTIONS[card]:
            return f"your {NAME[card]} cannot recruit (it can: {'/'.join(ACTIONS[card])})"
        kind = KIND_BY_KEY[key]
        if not self.market & KIND_MASK[key]:
            if not self.options.armoury and not kind.gladiator:
                return f"{kind.name} is an action card and this game has no armoury"
            return f"there is no {kind.name} left in the market"
        if self.hand[seat].bit_count() >= HAND_LIMIT:
            return f"your hand is full ({HAND_LIMIT} cards); a recruit joins your hand"
        if kind.cost > self.coins[seat]:
            return f"{kind.name} costs {kind.cost} coins and you have {self.coins[seat]}"
        return None

    def _why_attack(self, target: int, seat: int, card: int) -> str | None:
        if "attack" not in ACTIONS[card]:
            return f"your {NAME[card]} cannot attack (it can: {'/'.join(ACTIONS[card])})"
        if not 0 <= target < NUM_CARDS:
            return "there is no such card"
        if self.dead >> target & 1:
            return f"that {NAME[target]} is already dead"
        if not GLADIATOR_MASK >> target & 1:
            return f"{NAME[target]} is an action card, not a gladiator; only gladiators can be attacked"
        if self.owned(seat) >> target & 1:
            return "you cannot attack your own gladiator"
        if not self.targets(seat) >> target & 1:
            if self.options.attack_targets == "bout":
                return (f"that {NAME[target]} is not in this auction; a card can only attack the rival cards "
                        f"planned at the same position (position {self.slot + 1})")
            if self.options.attack_targets == "arena":
                return f"that {NAME[target]} is not in the arena this round; only revealed gladiators can be attacked"
            return f"that {NAME[target]} belongs to no opponent"
        return None

    def _apply(self, seat: int, action: Action) -> None:
        if seat == CHANCE:
            self._apply_chance(action)
            return
        if self.phase == DRAW:  # a refill chosen from the market (refill=choose)
            self.step_from = len(self.events)
            bit = self.market & KIND_MASK[action.card]  # type: ignore[attr-defined]
            bit &= -bit
            self._take_from_market(seat, bit.bit_length() - 1, "picks")
            return
        if self.phase == PLAN:
            self.secret += 1
            if type(action) is Place:
                bit = self.hand[seat] & KIND_MASK[action.card]
                bit &= -bit
                self.hand[seat] ^= bit
                self.plan[seat].append(bit.bit_length() - 1)
                if not self.options.free_plan:
                    self._autoplan(seat)
                if not self.hand[seat] or len(self.plan[seat]) >= PLAN_SIZE:
                    self.ready[seat] = True
            else:  # Done
                self.ready[seat] = True
            if all(self.ready):
                self.step_from = len(self.events)  # the last placement turns every plan over
                self._reveal()
                self._advance()
            return
        assert self.pending is not None
        self.step_from = len(self.events)
        _, card = self.pending
        self.pending = None
        self.queue.pop(0)
        self.acted |= 1 << card
        who = self._who(seat, card)
        if type(action) is Attack:
            self._attack(seat, card, action.target)
        elif type(action) is Recruit:
            bit = self.market & KIND_MASK[action.card]
            bit &= -bit
            cost = KIND_BY_KEY[action.card].cost
            self.coins[seat] -= cost
            self.market ^= bit
            self.hand[seat] |= bit
            self._log(f"{who} recruits {KIND_BY_KEY[action.card].name} for {cost} coins")
        elif type(action) is Income:
            self.coins[seat] += INCOME
            self._log(f"{who}: income, +{INCOME} coins")
        else:
            self._log(f"{who} passes")
        self._advance()

    def _attack(self, seat: int, card: int, target: int) -> None:
        victim = self.owner(target)
        assert victim is not None
        guard = max(DEFENCE[target], self.shield[victim])
        text = (f"{self._who(seat, card)} (strength {STRENGTH[card]}) attacks {self._who(victim, target)} "
                f"(defence {guard})")
        if STRENGTH[card] > guard:
            bit = 1 << target
            self.dead |= bit
            self.hand[victim] &= ~bit
            self.deck[victim] &= ~bit
            self.discard[victim] &= ~bit
            self._log(text + ": killed")
        else:
            self._log(text + ": the attack fails")

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
        self.market &= ~bit
        self._log(f"{seat_name(seat)}'s hand is empty: {verb} {NAME[card]} from the market")
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
        return Draw(seat, card) if source == "own" else MarketDraw(seat, card)

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
        c.events = self.events[:]
        c.step_from = self.step_from
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
