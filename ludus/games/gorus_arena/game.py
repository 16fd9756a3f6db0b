"""Gorus Arena rules: secret plans, auctions on card strength, attacks, recruits and income.

A round is planning (every seat at once, in secret), then the plans are revealed and
executed card by card in auction order, then every seat draws. All card sets are bitmasks
of the ids in :mod:`.cards`. Draws take a uniformly random card from the draw pile (a set,
not an ordered deck), which is the same as shuffling and drawing the top card but keeps each
chance node small and honest.

Only decisions with a real choice stop the game: taking income, a defence card's guard and
a card with nothing it can do are carried out automatically and written to the public log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.bits import bits_list, mask_of, nth_bit
from ...core.errors import IllegalAction, RecordError
from ...core.fields import required
from ...core.game import CHANCE, Action, Game, Observation, SeatView, State
from ...core.rng import Rng
from .cards import (
    ACTIONS,
    ARMOURY_MASK,
    DEFENCE,
    GLADIATOR_MASK,
    KIND_BY_KEY,
    KIND_MASK,
    KINDS,
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

START_COINS = 5
HAND_LIMIT = 5
PLAN_SIZE = 5
DRAW_COUNT = 2
MARKET_DRAW = 3
INCOME = 2
COINS_PER_POINT = 3
EVENTS_SHOWN = 40

PLAN, EXEC, DRAW, OVER = "plan", "exec", "draw", "over"


def _seat(s: int) -> str:
    return f"Seat {s + 1}"


# --------------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Place(Action):
    """Planning: put a card of this kind from your hand next in your face-down plan."""

    card: str

    @property
    def label(self) -> str:
        kind = KIND_BY_KEY[self.card]
        return f"plan {kind.name} ({'/'.join(kind.actions)} {kind.strength})"

    def to_json(self) -> Any:
        return {"do": "place", "card": self.card}

    def visible_to(self, viewer: int | None, actor: int) -> bool:
        return False  # secret until the reveal; State._visible opens it afterwards


@dataclass(frozen=True)
class Done(Action):
    """Planning (free-plan option only): the plan is complete; keep the other cards in hand."""

    @property
    def label(self) -> str:
        return "finish plan"

    def to_json(self) -> Any:
        return {"do": "done"}

    def visible_to(self, viewer: int | None, actor: int) -> bool:
        return False


@dataclass(frozen=True)
class Attack(Action):
    """Execution: attack this gladiator (card id) with the acting card."""

    target: int

    @property
    def label(self) -> str:
        return f"attack {NAME[self.target]} #{self.target}"

    def to_json(self) -> Any:
        return {"do": "attack", "target": self.target}


@dataclass(frozen=True)
class Recruit(Action):
    """Execution: pay the cost and take a card of this kind from the market into your hand."""

    card: str

    @property
    def label(self) -> str:
        kind = KIND_BY_KEY[self.card]
        return f"recruit {kind.name} ({kind.cost} coin{'' if kind.cost == 1 else 's'})"

    def to_json(self) -> Any:
        return {"do": "recruit", "card": self.card}


@dataclass(frozen=True)
class Income(Action):
    """Execution: take 2 coins (offered only when the card could do something else too)."""

    @property
    def label(self) -> str:
        return f"take income ({INCOME} coins)"

    def to_json(self) -> Any:
        return {"do": "income"}


@dataclass(frozen=True)
class Pass(Action):
    """Execution: the acting card does nothing (its action is optional)."""

    @property
    def label(self) -> str:
        return "pass"

    def to_json(self) -> Any:
        return {"do": "pass"}


@dataclass(frozen=True)
class Draw(Action):
    """Chance: ``seat`` draws ``card`` from its own draw pile; only that seat sees which."""

    seat: int
    card: int

    @property
    def label(self) -> str:
        return f"{_seat(self.seat)} draws {NAME[self.card]}"

    def to_json(self) -> Any:
        return {"do": "draw", "seat": self.seat, "card": self.card}

    def visible_to(self, viewer: int | None, actor: int) -> bool:
        return viewer == self.seat


@dataclass(frozen=True)
class MarketDraw(Action):
    """Chance: a seat whose hand stayed empty takes a random gladiator from the market (public)."""

    seat: int
    card: int

    @property
    def label(self) -> str:
        return f"{_seat(self.seat)} takes {NAME[self.card]} from the market"

    def to_json(self) -> Any:
        return {"do": "market-draw", "seat": self.seat, "card": self.card}


PLACE = {k.key: Place(k.key) for k in KINDS}
RECRUIT = {k.key: Recruit(k.key) for k in KINDS}
ATTACK = tuple(Attack(i) for i in range(NUM_CARDS))
DONE = Done()
INCOME_ACTION = Income()
PASS = Pass()


# --------------------------------------------------------------------------- observation
@dataclass(frozen=True)
class GorusArenaObservation(Observation):
    """One seat's view. Card lists hold card ids (look them up in :mod:`.cards`).

    ``reserve`` is each seat's cards out of sight (hand, face-down plan and draw pile) as a
    set: who owns which card is public, only where it lies is not. ``held`` counts the hand,
    ``planned`` the face-down plan (cards are laid down in view) and ``deck_count`` the draw
    pile. ``hand``, ``plan`` and ``deck`` are filled for the viewing seat only.
    """

    seat: int | None
    players: int
    round: int
    rounds: int
    phase: str
    start: int
    coins: tuple[int, ...]
    held: tuple[int, ...]
    planned: tuple[int, ...]
    deck_count: tuple[int, ...]
    reserve: tuple[tuple[int, ...], ...]
    discard: tuple[tuple[int, ...], ...]
    ready: tuple[bool, ...]
    arena: tuple[tuple[int, ...], ...]
    acted: tuple[int, ...]
    shield: tuple[int, ...]
    market: tuple[int, ...]
    dead: tuple[int, ...]
    slot: int
    order: tuple[int, ...]
    round_tied: bool
    tied: bool
    queue: tuple[tuple[int, int], ...]
    pending: tuple[int, int] | None
    draws: tuple[tuple[int, str, int, int], ...]
    scores: tuple[int, ...]
    hand: tuple[int, ...]
    plan: tuple[int, ...]
    deck: tuple[int, ...]
    events: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "round": self.round,
            "rounds": self.rounds,
            "phase": self.phase,
            "start": self.start,
            "coins": list(self.coins),
            "held": list(self.held),
            "planned": list(self.planned),
            "deck_count": list(self.deck_count),
            "reserve": [list(r) for r in self.reserve],
            "discard": [list(d) for d in self.discard],
            "ready": list(self.ready),
            "arena": [list(a) for a in self.arena],
            "acted": list(self.acted),
            "shield": list(self.shield),
            "market": list(self.market),
            "dead": list(self.dead),
            "slot": self.slot,
            "order": list(self.order),
            "round_tied": self.round_tied,
            "tied": self.tied,
            "queue": [list(q) for q in self.queue],
            "pending": None if self.pending is None else list(self.pending),
            "draws": [list(d) for d in self.draws],
            "scores": list(self.scores),
            "hand": list(self.hand),
            "plan": list(self.plan),
            "deck": list(self.deck),
            "events": list(self.events),
        }


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
        return f"{_seat(seat)}'s {NAME[card]}"

    # ------------------------------------------------------------- round flow
    def _begin_planning(self) -> None:
        self.phase = PLAN
        self._log(f"— Round {self.round} of {self.options.rounds}: {_seat(self.start)} starts —")
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
            self._log(f"{_seat(s)} reveals: {shown}")
        if self.options.defence_timing == "reveal":
            for s in self.turn_order():
                for c in self.arena[s]:
                    if "defence" in ACTIONS[c]:
                        self.shield[s] = max(self.shield[s], STRENGTH[c])
                        self.acted |= 1 << c
                if self.shield[s]:
                    self._log(f"{_seat(s)}'s gladiators are guarded: defence at least {self.shield[s]}")
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
                self._log(f"{what}: {_seat(top[0])} wins with strength {best}")
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
            self._log("Game over: " + ", ".join(f"{_seat(s)} {self.score(s)}" for s in range(self.n)))
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
                if left > 0 and not self.deck[seat] and self.discard[seat]:
                    self.deck[seat] = self.discard[seat]
                    self.discard[seat] = 0
                    self._log(f"{_seat(seat)} turns the discard pile into a new draw pile")
                if left > 0 and self.deck[seat]:
                    return
                self.draws.pop(0)
                if drawn:
                    self._log(f"{_seat(seat)} draws {drawn} card{'s' if drawn > 1 else ''}")
                if not self.hand[seat]:
                    self.draws.insert(0, [seat, "market", MARKET_DRAW, 0])
            else:
                if left > 0 and self.market & GLADIATOR_MASK:
                    return
                self.draws.pop(0)
        self.round += 1
        self.start = self._next_start()
        self._begin_planning()

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
            return (CHANCE,)
        return ()

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        if seat is None:
            seats = self.current_seats()
            if len(seats) != 1:
                return []
            seat = seats[0]
        if seat == CHANCE:
            return [a for a, _ in self.chance_outcomes()] if self.phase == DRAW else []
        if not 0 <= seat < self.n:
            return []
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
                return (f"you must plan every card in your hand (you hold fewer than {PLAN_SIZE + 1}); "
                        "the free-plan option allows stopping early")
            if not self.plan[seat]:
                return "put at least one card in your plan first"
            return None
        return "it is the planning phase: put the cards of your hand into your plan, in the order to play them"

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
                self._reveal()
                self._advance()
            return
        assert self.pending is not None
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
            self.market &= ~bit
            self._log(f"{_seat(seat)}'s hand is empty: takes {NAME[action.card]} from the market")  # type: ignore[attr-defined]
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
        if self.phase != DRAW:
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
        n = self.n
        me = seat if seat is not None and 0 <= seat < n else None  # the seat whose own cards are shown
        return GorusArenaObservation(
            seat=seat,
            players=n,
            round=self.round,
            rounds=self.options.rounds,
            phase=self.phase,
            start=self.start,
            coins=tuple(self.coins),
            held=tuple(h.bit_count() for h in self.hand),
            planned=tuple(len(p) for p in self.plan),
            deck_count=tuple(d.bit_count() for d in self.deck),
            reserve=tuple(
                tuple(sorted(bits_list(self.hand[s] | self.deck[s]) + self.plan[s])) for s in range(n)
            ),
            discard=tuple(tuple(bits_list(d)) for d in self.discard),
            ready=tuple(self.ready),
            arena=tuple(tuple(a) for a in self.arena),
            acted=tuple(bits_list(self.acted)),
            shield=tuple(self.shield),
            market=tuple(bits_list(self.market)),
            dead=tuple(bits_list(self.dead)),
            slot=self.slot,
            order=tuple(self.order),
            round_tied=self.round_tied,
            tied=self.tied,
            queue=tuple(self.queue),
            pending=self.pending,
            draws=tuple(tuple(t) for t in self.draws),
            scores=tuple(self.score(s) for s in range(n)),
            hand=tuple(bits_list(self.hand[me])) if me is not None else (),
            plan=tuple(self.plan[me]) if me is not None else (),
            deck=tuple(bits_list(self.deck[me])) if me is not None else (),
            events=tuple(self.events[-EVENTS_SHOWN:]),
        )

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
        return c

    def _position(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase,
            "start": self.start,
            "coins": self.coins[:],
            "hand": [bits_list(m) for m in self.hand],
            "deck": [bits_list(m) for m in self.deck],
            "discard": [bits_list(m) for m in self.discard],
            "plan": [p[:] for p in self.plan],
            "ready": self.ready[:],
            "arena": [a[:] for a in self.arena],
            "acted": bits_list(self.acted),
            "shield": self.shield[:],
            "market": bits_list(self.market),
            "dead": bits_list(self.dead),
            "slot": self.slot,
            "order": self.order[:],
            "round_tied": self.round_tied,
            "tied": self.tied,
            "queue": [list(q) for q in self.queue],
            "pending": None if self.pending is None else list(self.pending),
            "draws": [t[:] for t in self.draws],
            "secret": self.secret,
            "events": self.events[:],
        }


# --------------------------------------------------------------------------- game
def _int(value: Any, lo: int, hi: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value < hi:
        raise RecordError(f"{what} must be a whole number from {lo} to {hi - 1}, got {value!r}")
    return value


def _cards(value: Any, what: str) -> list[int]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list of card ids")
    cards = [_int(c, 0, NUM_CARDS, f"a card id in {what}") for c in value]
    if len(set(cards)) != len(cards):
        raise RecordError(f"{what} lists a card twice")
    return cards


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"{what} must be true or false, got {value!r:.40}")
    return value


def _position_to_state(game: Game, options: GorusArenaOptions, rng: Rng | None, data: Any) -> GorusArenaState:
    """Inverse of ``GorusArenaState._position``. Every field is checked, and the whole must be a
    position the rules reach: each card in one place, plans, arena and draws that fit the phase,
    and the card about to act at the head of the queue; anything else raises RecordError."""
    if not isinstance(data, dict):
        raise RecordError("position 'state' must be an object")
    n = options.players
    st = GorusArenaState(game, options, rng)

    def per_seat(key: str) -> list:
        value = required(data, key)
        if not isinstance(value, list) or len(value) != n:
            raise RecordError(f"position '{key}' must have one entry per seat ({n})")
        return value

    st.round = _int(required(data, "round"), 1, options.rounds + 1, "round")
    st.phase = required(data, "phase")
    if not isinstance(st.phase, str) or st.phase not in (PLAN, EXEC, DRAW, OVER):
        raise RecordError(f"unknown phase {st.phase!r:.40} (one of {PLAN}, {EXEC}, {DRAW}, {OVER})")
    st.start = _int(required(data, "start"), 0, n, "position 'start'")
    st.coins = [_int(c, 0, 10_000, "position 'coins'") for c in per_seat("coins")]
    st.hand = [mask_of(_cards(h, "position 'hand'")) for h in per_seat("hand")]
    st.deck = [mask_of(_cards(h, "position 'deck'")) for h in per_seat("deck")]
    st.discard = [mask_of(_cards(h, "position 'discard'")) for h in per_seat("discard")]
    st.plan = [_cards(p, "position 'plan'") for p in per_seat("plan")]
    st.ready = [_flag(r, "position 'ready'") for r in per_seat("ready")]
    st.arena = [_cards(a, "position 'arena'") for a in per_seat("arena")]
    st.acted = mask_of(_cards(required(data, "acted"), "position 'acted'"))
    st.shield = [_int(s, 0, max(STRENGTH) + 1, "position 'shield'") for s in per_seat("shield")]
    st.market = mask_of(_cards(required(data, "market"), "position 'market'"))
    st.dead = mask_of(_cards(required(data, "dead"), "position 'dead'"))
    st.slot = _int(required(data, "slot"), -1, PLAN_SIZE, "position 'slot'")
    order = required(data, "order")
    if not isinstance(order, list):
        raise RecordError("position 'order' must be a list of seats")
    st.order = [_int(s, 0, n, "position 'order'") for s in order]
    st.round_tied = _flag(required(data, "round_tied"), "position 'round_tied'")
    st.tied = _flag(required(data, "tied"), "position 'tied'")
    queue = required(data, "queue")
    if not isinstance(queue, list) or not all(isinstance(q, list) and len(q) == 2 for q in queue):
        raise RecordError("position 'queue' must be a list of [seat, card]")
    st.queue = [(_int(s, 0, n, "position 'queue' seat"), _int(c, 0, NUM_CARDS, "position 'queue' card"))
                for s, c in queue]
    pending = required(data, "pending")
    if pending is not None and not (isinstance(pending, list) and len(pending) == 2):
        raise RecordError("position 'pending' must be [seat, card] or null")
    st.pending = None if pending is None else (_int(pending[0], 0, n, "position 'pending' seat"),
                                                _int(pending[1], 0, NUM_CARDS, "position 'pending' card"))
    draws = required(data, "draws")
    if not isinstance(draws, list) or not all(isinstance(t, list) and len(t) == 4 for t in draws):
        raise RecordError("position 'draws' must be a list of [seat, source, still to draw, drawn]")
    st.draws = []
    for seat, source, left, drawn in draws:
        if source not in ("own", "market"):
            raise RecordError(f"position 'draws': unknown draw source {source!r:.40}")
        most = DRAW_COUNT if source == "own" else MARKET_DRAW
        st.draws.append([_int(seat, 0, n, "position 'draws' seat"), source,
                         _int(left, 0, most + 1, "position 'draws' count"), _int(drawn, 0, most + 1, "drawn")])
        if st.draws[-1][2] + st.draws[-1][3] > most:
            raise RecordError(f"position 'draws': a draw from the {source} pile takes at most {most} cards")
    st.secret = _int(required(data, "secret"), 0, n * (PLAN_SIZE + 1) + 1, "position 'secret'")
    events = required(data, "events")
    if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
        raise RecordError("position 'events' must be a list of text lines")
    st.events = list(events)
    _check_cards(st)
    _check_phase(st)
    return st


def _check_cards(st: GorusArenaState) -> None:
    """Each card of this game in exactly one place; a dead card nowhere but the arena it fell in."""
    n, o = st.n, st.options
    in_game = MARKET_MASK | (ARMOURY_MASK if o.armoury else 0)
    for s in range(n):
        in_game |= basics_of(s)
    places = [("market", st.market)]
    for s in range(n):
        places += [(f"seat {s + 1}'s hand", st.hand[s]), (f"seat {s + 1}'s draw pile", st.deck[s]),
                   (f"seat {s + 1}'s discards", st.discard[s]), (f"seat {s + 1}'s plan", mask_of(st.plan[s])),
                   (f"seat {s + 1}'s arena", mask_of(st.arena[s]))]
    seen = 0
    for name, mask in places:
        if mask & ~in_game:
            raise RecordError(f"position: {name} holds a card that is not in this game")
        if seen & mask:
            raise RecordError(f"position holds a card in two places ({name} and elsewhere)")
        seen |= mask
        if name.endswith("arena"):
            continue
        if mask & st.dead:
            raise RecordError(f"position: {name} holds a dead card")
    if st.dead & ~GLADIATOR_MASK or st.dead & ~in_game:
        raise RecordError("position 'dead' lists a card that is no gladiator of this game")
    if (seen | st.dead) != in_game:
        raise RecordError("position cards do not add up (a card of the game is nowhere)")
    for s in range(n):
        others = 0
        for t in range(n):
            if t != s:
                others |= basics_of(t)
        if st.owned(s) & others:
            raise RecordError(f"position: seat {s + 1} holds another seat's basic card")
        if st.hand[s].bit_count() > HAND_LIMIT:
            raise RecordError(f"position: seat {s + 1} holds more than {HAND_LIMIT} cards")


def _check_phase(st: GorusArenaState) -> None:
    """What the phase requires of the plans, the arena, the auction and the draws."""
    n, o, phase = st.n, st.options, st.phase
    first = o.first_player - 1
    if (o.starting_player == "fixed" and st.start != first) or (
            o.starting_player == "rotate" and st.start != (first + st.round - 1) % n):
        raise RecordError("position 'start' is not this round's starting player")
    if (phase == OVER and st.round != o.rounds) or (phase == DRAW and st.round >= o.rounds):
        raise RecordError("position 'round' does not fit the phase (the game ends after the last round)")
    if phase != EXEC:
        if any(st.arena) or st.acted or any(st.shield) or st.queue or st.order or st.pending is not None:
            raise RecordError(f"position phase {phase!r}: the arena, queue and auction must be empty")
        if st.slot != -1 or st.round_tied or st.tied:
            raise RecordError(f"position phase {phase!r}: 'slot' must be -1 and 'tied', 'round_tied' false")
    if phase != PLAN and (any(st.plan) or not all(st.ready) or st.secret):
        raise RecordError(f"position phase {phase!r}: plans are revealed ('plan' empty, 'ready' all true, "
                          "'secret' 0)")
    if phase != DRAW and st.draws:
        raise RecordError(f"position phase {phase!r}: 'draws' must be empty")
    if phase == PLAN:
        if all(st.ready):
            raise RecordError("position phase 'plan': some seat must still be planning")
        for s in range(n):
            held, planned = st.hand[s].bit_count(), len(st.plan[s])
            if held + planned > HAND_LIMIT:
                raise RecordError(f"position: seat {s + 1} has more than {HAND_LIMIT} cards in hand and plan")
            full = not held or planned >= PLAN_SIZE
            if st.ready[s] and not full and not (o.free_plan and planned):
                raise RecordError(f"position 'ready': seat {s + 1} has not finished its plan")
            if not st.ready[s] and (full or (not o.free_plan and held == 1)):
                raise RecordError(f"position 'ready': seat {s + 1}'s plan is complete")
        if st.secret > sum(map(len, st.plan)) + n:
            raise RecordError("position 'secret' counts more placements than were made")
    elif phase == EXEC:
        _check_exec(st)
    elif phase == DRAW:
        if not st.draws:
            raise RecordError("a drawing position needs pending draws")
        seat, source, left, _drawn = st.draws[0]
        pile = st.deck[seat] if source == "own" else st.market & GLADIATOR_MASK
        if not left or not pile:
            raise RecordError("position 'draws': the first draw must have a card to take")


def _check_exec(st: GorusArenaState) -> None:
    n, o = st.n, st.options
    if st.pending is None or not st.queue or st.queue[0] != st.pending:
        raise RecordError("position phase 'exec': 'pending' must be the card at the head of the queue")
    longest = max(len(a) for a in st.arena)
    if not 0 <= st.slot < longest:
        raise RecordError("position 'slot' must be a position of the revealed plans")
    seats = [s for s, _ in st.queue]
    if len(set(seats)) != len(seats):
        raise RecordError("position 'queue' lists a seat twice")
    for s, c in st.queue:
        if len(st.arena[s]) <= st.slot or st.arena[s][st.slot] != c:
            raise RecordError("position 'queue': each card must be its seat's card at the current slot")
    arena = 0
    for a in st.arena:
        arena |= mask_of(a)
    if st.acted & ~arena:
        raise RecordError("position 'acted' lists a card that is not in the arena")
    seat, card = st.pending
    if st.acted >> card & 1 or (st.dead >> card & 1 and not st.tied):
        raise RecordError("position 'pending': that card has acted already or is dead")
    if not any(type(a) is not Income for a in st.choices(seat, card)):
        raise RecordError("position 'pending': that card has no choice to make (it acts by itself)")
    if o.auction == "per-round":
        if sorted(st.order) != [s for s in range(n) if st.arena[s]]:
            raise RecordError("position 'order' must list each seat with revealed cards once")
    elif st.order or st.round_tied:
        raise RecordError("position 'order' and 'round_tied' belong to the per-round auction")
    if st.tied and (o.tie_resolution != "simultaneous" or (o.auction == "per-round" and not st.round_tied)):
        raise RecordError("position 'tied' does not fit the options")


class GorusArena(Game):
    """The auction deck-builder read from the "Gorus Maximus" arena tutorial."""

    name = "gorus-arena"
    title = "Gorus Arena"
    summary = (
        "Plan your hand in secret, win auctions with strong cards, attack rival gladiators, "
        "recruit from the market and collect income; after 6 rounds living gladiators and coins score."
    )
    Options = GorusArenaOptions
    min_seats = 2
    max_seats = 5

    def num_seats(self, options: GorusArenaOptions) -> int:
        return options.players

    def _new_state(self, options: GorusArenaOptions, rng: Rng | None) -> GorusArenaState:
        state = GorusArenaState(self, options, rng)
        state._begin_planning()
        state._advance()
        return state

    def _state_from_position(self, options: GorusArenaOptions, rng: Rng | None, data: Any) -> GorusArenaState:
        return _position_to_state(self, options, rng, data)

    def action_from_json(self, data: Any) -> Action:
        if not isinstance(data, dict):
            raise RecordError(f"an action must be an object like {{\"do\": \"pass\"}}, got {data!r}")
        do = data.get("do")
        if do in ("place", "recruit"):
            key = data.get("card")
            if not isinstance(key, str) or key not in KIND_BY_KEY:
                raise RecordError(f"unknown card kind {key!r}")
            return PLACE[key] if do == "place" else RECRUIT[key]
        if do == "attack":
            return ATTACK[_int(data.get("target"), 0, NUM_CARDS, "attack target")]
        if do == "done":
            return DONE
        if do == "income":
            return INCOME_ACTION
        if do == "pass":
            return PASS
        if do in ("draw", "market-draw"):
            seat = _int(data.get("seat"), 0, self.max_seats, "draw seat")
            card = _int(data.get("card"), 0, NUM_CARDS, "drawn card")
            return Draw(seat, card) if do == "draw" else MarketDraw(seat, card)
        raise RecordError(f"unknown action {data!r}")

    def sample_state(self, view: SeatView, rng: Rng) -> GorusArenaState:
        """Deal the viewer's unknowns at random: which of each rival's hidden cards lie face down
        in its plan (and in which order), which in its hand and which in its draw pile."""
        obs: GorusArenaObservation = view.observation
        me = view.seat
        st = GorusArenaState(self, view.options, Rng(rng.next_u64()))
        st.round = obs.round
        st.phase = obs.phase
        st.start = obs.start
        st.coins = list(obs.coins)
        st.discard = [mask_of(d) for d in obs.discard]
        st.ready = list(obs.ready)
        st.arena = [list(a) for a in obs.arena]
        st.acted = mask_of(obs.acted)
        st.shield = list(obs.shield)
        st.market = mask_of(obs.market)
        st.dead = mask_of(obs.dead)
        st.slot = obs.slot
        st.order = list(obs.order)
        st.round_tied = obs.round_tied
        st.tied = obs.tied
        st.queue = list(obs.queue)
        st.pending = obs.pending
        st.draws = [list(t) for t in obs.draws]
        st.secret = 0  # the sampled state has no history to hide
        st.events = list(obs.events)
        for s in range(st.n):
            if s == me:
                st.hand[s] = mask_of(obs.hand)
                st.plan[s] = list(obs.plan)
                st.deck[s] = mask_of(obs.deck)
                continue
            hidden = list(obs.reserve[s])
            rng.shuffle(hidden)
            planned, held = obs.planned[s], obs.held[s]
            st.plan[s] = hidden[:planned]
            st.hand[s] = mask_of(hidden[planned:planned + held])
            st.deck[s] = mask_of(hidden[planned + held:])
        return st


GAME = GorusArena()
