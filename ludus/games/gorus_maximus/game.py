"""Gorus Maximus rules: deal, bouts with following and Challenges, Crowd Favour, Crowd Support.

One state class covers every mode. Scoring is per *side*: a side is a seat in ordinary
play, a team in the team variant, and in solo play side 0 is the player and side 1 the
contenders (who are not a seat: their cards are chance outcomes turned face up).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from ...core.errors import IllegalAction, RecordError
from ...core.fields import required, show, whole_number
from ...core.game import CHANCE, Action, Game, Observation, State
from ...core.rng import Rng
from .cards import (
    NUM_SCHOOLS,
    RANK_MASKS,
    SCHOOL_BY_CODE,
    SCHOOL_MASKS,
    SCHOOLS,
    card,
    card_code,
    card_label,
    deck_mask,
    load_cf_table,
    parse_card,
    setup_for,
)
from .options import GorusMaximusOptions

CONTENDER = -2
"""Actor id of a contender card in solo play (not a seat)."""

HAND_SIZE = 10
PHASE_SCHOOLS, PHASE_DEAL, PHASE_PLAY, PHASE_DRAW, PHASE_REVEAL, PHASE_OVER = (
    "schools", "deal", "play", "draw", "reveal", "over",
)


# --------------------------------------------------------------------------- actions
class Play(Action):
    """Enter a gladiator from your troupe into the bout."""

    __slots__ = ("card",)
    card: int

    def __init__(self, card: int) -> None:
        object.__setattr__(self, "card", card)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("actions are immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is Play and other.card == self.card

    def __hash__(self) -> int:
        return hash(("play", self.card))

    def __repr__(self) -> str:
        return f"Play({card_code(self.card)})"

    @property
    def label(self) -> str:
        return card_label(self.card)

    def to_json(self) -> Any:
        return {"play": card_code(self.card)}


PLAY = tuple(Play(c) for c in range(NUM_SCHOOLS * 16))
_BIT = tuple(1 << c for c in range(NUM_SCHOOLS * 16))
_CHALLENGE_MASKS = tuple(tuple(RANK_MASKS[r] & ~SCHOOL_MASKS[s] for r in range(16)) for s in range(NUM_SCHOOLS))
"""Per initiating school and rank: the cards of that rank in every other school."""
"""Each card's bit, built once so the hot path allocates no new integers for it."""
_LANE_PLAYS: tuple[dict[int, tuple[Play, ...]], ...] = tuple({} for _ in range(NUM_SCHOOLS))
"""Per school, the Play actions of each 16-bit lane of a hand: legal moves without a bit loop."""


def _lane_plays(school: int, lane: int) -> tuple[Play, ...]:
    plays = _LANE_PLAYS[school][lane] = tuple(PLAY[(school << 4) + r] for r in range(16) if lane >> r & 1)
    return plays


@dataclass(frozen=True)
class Deal(Action):
    """Chance: one card dealt (or drawn from the 2-player pile) to a seat, seen only by it."""

    card: int
    seat: int

    @property
    def label(self) -> str:
        return f"deal {card_label(self.card)} to seat {self.seat + 1}"

    def to_json(self) -> Any:
        return {"deal": card_code(self.card), "to": self.seat}

    def visible_to(self, viewer: int | None, actor: int) -> bool:
        return viewer == self.seat


@dataclass(frozen=True)
class Reveal(Action):
    """Chance: the next contender card is turned face up (solo play)."""

    card: int

    @property
    def label(self) -> str:
        return f"contender plays {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"reveal": card_code(self.card)}


@dataclass(frozen=True)
class ChooseSchools(Action):
    """Chance: which schools make up the deck (1-4 players, random schools)."""

    schools: tuple[int, ...]

    @property
    def label(self) -> str:
        return "schools in play: " + ", ".join(SCHOOLS[s].name for s in self.schools)

    def to_json(self) -> Any:
        return {"schools": [SCHOOLS[s].code for s in self.schools]}


DEAL = tuple(tuple(Deal(c, seat) for seat in range(8)) for c in range(NUM_SCHOOLS * 16))
_DEAL_ENTRIES = tuple(tuple((CHANCE, d) for d in row) for row in DEAL)
"""History entries for seeded deals, built once."""
REVEAL = tuple(Reveal(c) for c in range(NUM_SCHOOLS * 16))


# --------------------------------------------------------------------------- observation
class RoundSummary(NamedTuple):
    """What happened at the end of a round, for every side (a tuple: built every round)."""

    round: int
    preferred: int
    crowd_favour: tuple[int, ...]
    collected_counts: tuple[int, ...]
    support_gained: tuple[int, ...]
    preferred_zero_side: int | None
    no_eight: bool  # solo: the player collected no 8 and lost the round outright

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "preferred": SCHOOLS[self.preferred].code,
            "crowd_favour": list(self.crowd_favour),
            "collected_counts": list(self.collected_counts),
            "support_gained": list(self.support_gained),
            "preferred_zero_side": self.preferred_zero_side,
            "no_eight": self.no_eight,
        }


@dataclass(frozen=True)
class GorusObservation(Observation):
    """One seat's view of the table (``seat`` None: a spectator's).

    ``collected`` holds each side's won cards this round. They lie face down on the table,
    but every one was played face up in a bout, so a player with perfect memory knows
    them; giving them here keeps bots honest about what memory allows. Clients show only
    the previous bout, as the rules ask.
    """

    seat: int | None
    players: int
    solo: bool
    side_of_seat: tuple[int, ...]
    side_names: tuple[str, ...]
    targets: tuple[int, ...]
    support: tuple[int, ...]
    round: int
    dealer: int
    phase: str
    to_move: tuple[int, ...]
    hand: int | None
    hand_sizes: tuple[int, ...]
    stock_size: int
    schools_in_play: tuple[int, ...]
    bout: tuple[tuple[int, int], ...]
    initiating: int
    preferred: int
    previous_bout: tuple[tuple[int, int], ...]
    previous_winner: int | None
    collected_counts: tuple[int, ...]
    collected: tuple[int, ...]
    last_round: RoundSummary | None
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        def bout(b: tuple[tuple[int, int], ...]) -> list[list[Any]]:
            return [[actor, card_code(c)] for actor, c in b]

        return {
            "game": "gorus-maximus",
            "seat": self.seat,
            "players": self.players,
            "solo": self.solo,
            "side_of_seat": list(self.side_of_seat),
            "side_names": list(self.side_names),
            "targets": list(self.targets),
            "support": list(self.support),
            "round": self.round,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_move": list(self.to_move),
            "hand": None if self.hand is None else [card_code(c) for c in _bits(self.hand)],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "schools_in_play": [SCHOOLS[s].code for s in self.schools_in_play],
            "bout": bout(self.bout),
            "initiating": None if self.initiating < 0 else SCHOOLS[self.initiating].code,
            "preferred": None if self.preferred < 0 else SCHOOLS[self.preferred].code,
            "previous_bout": bout(self.previous_bout),
            "previous_winner": self.previous_winner,
            "collected_counts": list(self.collected_counts),
            "collected": [[card_code(c) for c in _bits(m)] for m in self.collected],
            "last_round": None if self.last_round is None else self.last_round.to_json(),
            "winners": list(self.winners),
        }


@lru_cache(maxsize=64)
def _cf_groups(by_rank: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Non-zero CF values with the mask of all cards worth each: one popcount per value."""
    groups: dict[int, int] = {}
    for rank, value in enumerate(by_rank):
        if value:
            groups[value] = groups.get(value, 0) | RANK_MASKS[rank]
    return tuple(groups.items())


@lru_cache(maxsize=256)
def _deal_order(n: int, first: int, count: int) -> tuple[int, ...]:
    """Who receives each of ``count`` cards dealt one at a time from seat ``first`` round the table."""
    return tuple((first + k) % n for k in range(count))


@lru_cache(maxsize=256)
def _deck(schools: tuple[int, ...], ranks: tuple[int, ...]) -> int:
    return deck_mask(sum(1 << s for s in schools), ranks)


@lru_cache(maxsize=256)
def _deck_cards(deck: int) -> tuple[int, ...]:
    return tuple(_bits(deck))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --------------------------------------------------------------------------- state
class GorusMaximusState(State[GorusMaximusOptions]):
    """A Gorus Maximus position. Hands, stock and collected piles are 80-bit masks."""

    def __init__(self, game: GorusMaximusGame, options: GorusMaximusOptions, rng: Rng | None) -> None:
        super().__init__(game, options, rng)
        o = options
        self.n = o.players
        self.solo = o.solo
        self.two_player = o.players == 2
        self.fast_bouts = o.players > 2  # no draws or contenders between cards
        self.cf = load_cf_table(o.cf_table)
        self.cf_groups = _cf_groups(self.cf.by_rank)
        team_of = o.team_of_seat()
        if self.solo:
            self.side_of_seat: tuple[int, ...] = (0,)
            self.num_sides = 2
            self.targets: tuple[int, ...] = (o.target, o.target)
        elif team_of is not None:
            self.side_of_seat = team_of
            self.num_sides = max(team_of) + 1
            sizes = [team_of.count(t) for t in range(self.num_sides)]
            self.targets = tuple(o.team_target or size + 1 for size in sizes)
        else:
            self.side_of_seat = tuple(range(self.n))
            self.num_sides = self.n
            self.targets = (o.target,) * self.n
        self.ranks = setup_for(self.n).ranks
        self.support = [0] * self.num_sides
        self.round = 1
        self.dealer = o.first_dealer if o.first_dealer >= 0 else self.n - 1
        fixed = o.school_indices()
        self.schools: tuple[int, ...] = fixed or ()
        self.hands = [0] * self.n
        self.stock = 0
        self.dealt = 0
        self.collected = [0] * self.num_sides
        self.collected_count = [0] * self.num_sides
        self.bout: list[tuple[int, int]] = []
        self.top = -1  # the card holding the current bout, and who played it
        self.top_actor = -3
        self.turn = -1
        self.initiating = -1
        self.preferred = -1
        self.previous_bout: tuple[tuple[int, int], ...] = ()
        self.previous_winner: int | None = None
        self.drawer = -1
        self.last_round: RoundSummary | None = None
        self.winning_sides: tuple[int, ...] = ()
        if fixed is None:
            self.phase = PHASE_SCHOOLS
        else:
            self._start_round()

    # ------------------------------------------------------------- round flow
    def _start_round(self) -> None:
        self.stock = _deck(self.schools, self.ranks)
        self.dealt = 0
        self.hands = [0] * self.n
        self.collected = [0] * self.num_sides
        self.collected_count = [0] * self.num_sides
        self.bout = []
        self.initiating = -1
        self.preferred = -1
        self.previous_bout = ()
        self.previous_winner = None
        self.phase = PHASE_DEAL

    def _deal_recipient(self) -> int:
        if self.solo:
            return 0
        return (self.dealer + 1 + self.dealt) % self.n

    def _begin_play(self) -> None:
        if self.solo:
            self.phase = PHASE_REVEAL
        else:
            self.phase = PHASE_PLAY
            self.turn = (self.dealer + 1) % self.n

    def _add_card(self, actor: int, c: int) -> None:
        """Put a card into the bout, applying a Challenge and keeping track of who holds the bout."""
        bout = self.bout
        school = c >> 4
        if not bout:
            self.initiating = school
            if self.preferred < 0:
                self.preferred = school
            bout.append((actor, c))
            self.top, self.top_actor = c, actor
            return
        bout.append((actor, c))
        if (bout[-2][1] & 15) == (c & 15) and school != self.preferred:
            self.preferred = school  # a Challenge: same rank as the card just before
            self.top_actor, self.top = self._bout_winner()
            return
        top = self.top
        if school == top >> 4:
            if c > top:
                self.top, self.top_actor = c, actor
        elif school == self.preferred:
            self.top, self.top_actor = c, actor

    def _bout_size(self) -> int:
        return 3 if self.solo else self.n

    def _after_card(self) -> None:
        """Advance after a card entered the bout (and any 2-player draw is done)."""
        if len(self.bout) == self._bout_size():
            self._resolve_bout()
            return
        if self.solo:
            last_actor = self.bout[-1][0]
            if last_actor == CONTENDER:
                self.phase, self.turn = PHASE_PLAY, 0
            else:
                self.phase = PHASE_REVEAL
        else:
            self.phase = PHASE_PLAY
            self.turn = (self.turn + 1) % self.n

    def _resolve_bout(self) -> None:
        winner_actor = self.top_actor
        side = 1 if winner_actor == CONTENDER else self.side_of_seat[winner_actor]
        mask = 0
        for _, c in self.bout:
            mask |= 1 << c
        self.collected[side] |= mask
        self.collected_count[side] += len(self.bout)
        self.previous_bout = tuple(self.bout)
        self.previous_winner = winner_actor
        self.bout = []
        self.initiating = -1
        if not any(self.hands) and (self.solo or not self.stock):
            self._end_round()
        elif self.solo:
            self.phase = PHASE_REVEAL
        else:
            self.phase = PHASE_PLAY
            self.turn = winner_actor

    def _bout_winner(self) -> tuple[int, int]:
        """(actor, card) of the highest preferred-school card, else the highest initiating-school one."""
        for school in (self.preferred, self.initiating):
            best_actor, best = -3, -1
            for actor, c in self.bout:
                if c >> 4 == school and c > best:
                    best_actor, best = actor, c
            if best >= 0:
                return best_actor, best
        raise AssertionError("a bout always holds a card of the initiating school")

    def crowd_favour(self, side: int) -> int:
        """CF of a side's collected gladiators, valuing the preferred school's 0 as the table says."""
        mask = self.collected[side]
        total = 0
        for value, ranks in self.cf_groups:
            total += value * (mask & ranks).bit_count()
        if self.preferred >= 0 and mask >> card(self.preferred, 0) & 1:
            total += self.cf.preferred_zero - self.cf.by_rank[0]
        return total

    def _end_round(self) -> None:
        collected = self.collected
        groups = self.cf_groups
        cf_list = []
        for mask in collected:
            total = 0
            for value, ranks in groups:
                total += value * (mask & ranks).bit_count()
            cf_list.append(total)
        pz = card(self.preferred, 0)
        pz_side = None
        for s, mask in enumerate(collected):
            if mask >> pz & 1:
                pz_side = s
                cf_list[s] += self.cf.preferred_zero - self.cf.by_rank[0]
                break
        cf = tuple(cf_list)
        no_eight = self.solo and not collected[0] & RANK_MASKS[8]
        gained: tuple[int, ...]
        if no_eight:
            gained = (0, 1)
        else:
            best = max(cf)
            gained = tuple([1 if v == best else 0 for v in cf])
        support = self.support
        reached = []
        for s, g in enumerate(gained):
            support[s] += g
            if support[s] >= self.targets[s]:
                reached.append(s)
        self.last_round = RoundSummary(
            self.round, self.preferred, cf, tuple(self.collected_count), gained, pz_side, no_eight
        )
        if reached:
            winners = self._break_tie(reached, pz_side)
            if winners:
                self.winning_sides = tuple(winners)
                self.phase = PHASE_OVER
                self.turn = -1
                return
        self.round += 1
        self.dealer = (self.dealer + 1) % self.n
        self._start_round()

    def _break_tie(self, reached: list[int], pz_side: int | None) -> list[int]:
        if len(reached) <= 1:
            return reached
        if pz_side in reached:
            return [pz_side]
        fewest = min(self.collected_count[s] for s in reached)
        tied = [s for s in reached if self.collected_count[s] == fewest]
        if len(tied) == 1 or self.options.final_tie == "shared":
            return tied
        return []  # play on: another round decides

    # ------------------------------------------------------------- protocol
    def current_seats(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == PHASE_PLAY:
            return (self.turn,)
        if phase == PHASE_OVER:
            return ()
        return (CHANCE,)

    def is_terminal(self) -> bool:
        return self.phase == PHASE_OVER

    def legal_mask(self, seat: int) -> int:
        """The cards ``seat`` may play now, as a mask (0 when it is not its turn)."""
        if self.phase != PHASE_PLAY or seat != self.turn:
            return 0
        hand = self.hands[seat]
        bout = self.bout
        if not bout:
            return hand
        follow = hand & SCHOOL_MASKS[self.initiating]
        if not follow:
            return hand
        return follow | (hand & RANK_MASKS[bout[-1][1] & 15])

    def legal_actions(self, seat: int | None = None) -> Sequence[Action]:
        """The playable cards as :class:`Play` actions, built from per-school cached tuples."""
        if self.phase != PHASE_PLAY:
            return ()
        turn = self.turn
        if seat is not None and seat != turn:
            return ()
        hand = self.hands[turn]
        bout = self.bout
        if bout:
            init = self.initiating
            follow = hand & SCHOOL_MASKS[init]
            if follow:
                challenges = hand & _CHALLENGE_MASKS[init][bout[-1][1] & 15]
                if not challenges:  # the usual case: one school's lane, straight from the cache
                    lane = follow >> (init << 4)
                    return _LANE_PLAYS[init].get(lane) or _lane_plays(init, lane)
                hand = follow | challenges
        out: list[Action] = []
        for s in self.schools:
            lane = (hand >> (s << 4)) & 0xFFFF
            if lane:
                out += _LANE_PLAYS[s].get(lane) or _lane_plays(s, lane)
        return out

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Same contract as :meth:`State.apply`, with a fast path for cards played with 3+ players.

        The fast path is the whole bout logic of :meth:`_add_card`, :meth:`_after_card` and
        :meth:`_resolve_bout` inlined; tests check it against the general path.
        """
        if type(action) is Play and self.phase == PHASE_PLAY and (seat is None or seat == self.turn):
            seat = self.turn
            c = action.card
            hands = self.hands
            hand = hands[seat]
            bout = self.bout
            bit = _BIT[c]
            if not hand & bit or (
                bout
                and c >> 4 != self.initiating
                and (c ^ bout[-1][1]) & 15
                and hand & SCHOOL_MASKS[self.initiating]
            ):
                raise IllegalAction(self.why_illegal(action, seat))
            self.history.append((seat, action))
            if not self.fast_bouts:
                self._apply(seat, action)
                if self.phase != PHASE_PLAY and self.rng is not None:
                    self._settle_chance()
                return
            hands[seat] = hand ^ bit
            school = c >> 4
            if not bout:
                self.initiating = school
                if self.preferred < 0:
                    self.preferred = school
                bout.append((seat, c))
                self.top, self.top_actor = c, seat
                self.turn = (seat + 1) % self.n
                return
            last = bout[-1][1]
            bout.append((seat, c))
            if not (last ^ c) & 15 and school != self.preferred:
                self.preferred = school  # a Challenge: same rank as the card just before
                self.top_actor, self.top = self._bout_winner()
            else:
                top = self.top
                if school == top >> 4:
                    if c > top:
                        self.top, self.top_actor = c, seat
                elif school == self.preferred:
                    self.top, self.top_actor = c, seat
            if len(bout) < self.n:
                self.turn = (seat + 1) % self.n
                return
            # the bout is complete: the holder collects it and leads next
            winner = self.top_actor
            side = self.side_of_seat[winner]
            (_, c0), (_, c1), (_, c2), *rest = bout
            mask = 1 << c0 | 1 << c1 | 1 << c2
            for _, c in rest:
                mask |= 1 << c
            self.collected[side] |= mask
            self.collected_count[side] += self.n
            self.previous_bout = tuple(bout)
            self.previous_winner = winner
            self.bout = []
            self.initiating = -1
            self.turn = winner
            if not hands[seat]:  # every hand is the same size with 3+ players
                self._end_round()
                if self.rng is not None:
                    self._settle_chance()
            return
        super().apply(action, seat)

    def _settle_chance(self) -> None:
        """Seeded chance, dealing a whole troupe set from one shuffle (same outcomes as card by card)."""
        rng = self.rng
        assert rng is not None
        history = self.history
        while True:
            phase = self.phase
            if phase == PHASE_DEAL:
                full = _deck(self.schools, self.ranks)
                cards = list(_deck_cards(full)) if self.stock == full else _bits(self.stock)
                rng.shuffle(cards)
                total = HAND_SIZE if self.solo else HAND_SIZE * self.n
                del cards[total - self.dealt :]
                if self.solo:
                    recipients: Sequence[int] = (0,) * len(cards)
                else:
                    recipients = _deal_order(self.n, (self.dealer + 1 + self.dealt) % self.n, len(cards))
                hands = self.hands
                for c, seat in zip(cards, recipients):
                    hands[seat] |= 1 << c
                stock = self.stock
                for hand in hands:
                    stock &= ~hand
                self.stock = stock
                entries = _DEAL_ENTRIES
                history += [entries[c][seat] for c, seat in zip(cards, recipients)]
                self.dealt += len(cards)
                self._begin_play()
            elif phase in (PHASE_DRAW, PHASE_REVEAL, PHASE_SCHOOLS):
                outcome = self.sample_chance(rng)
                self._apply(CHANCE, outcome)
                history.append((CHANCE, outcome))
            else:
                return

    def why_illegal(self, action: Action, seat: int) -> str | None:
        if type(action) is Play:
            c = action.card
            if self.legal_mask(seat) >> c & 1:
                return None
            if not self.hands[seat] >> c & 1:
                return f"you do not hold {card_label(c)}"
            school = SCHOOLS[self.initiating].short
            last_rank = self.bout[-1][1] & 15
            return (
                f"you hold a {school} gladiator: follow {school}, or Challenge with a {last_rank}"
            )
        return f"{action} is not a move a player makes"

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        phase = self.phase
        if phase == PHASE_SCHOOLS:
            from itertools import combinations

            k = setup_for(self.n).schools
            combos = list(combinations(range(NUM_SCHOOLS), k))
            return [(ChooseSchools(c), 1.0 / len(combos)) for c in combos]
        if phase in (PHASE_DEAL, PHASE_DRAW, PHASE_REVEAL):
            cards = _bits(self.stock)
            p = 1.0 / len(cards)
            if phase == PHASE_REVEAL:
                return [(REVEAL[c], p) for c in cards]
            seat = self._deal_recipient() if phase == PHASE_DEAL else self.drawer
            return [(DEAL[c][seat], p) for c in cards]
        return super().chance_outcomes()

    def sample_chance(self, rng: Rng) -> Action:
        phase = self.phase
        if phase == PHASE_SCHOOLS:
            return super().sample_chance(rng)
        cards = _bits(self.stock)
        c = cards[rng.below(len(cards))]
        if phase == PHASE_REVEAL:
            return REVEAL[c]
        return DEAL[c][self._deal_recipient() if phase == PHASE_DEAL else self.drawer]

    def _apply(self, seat: int, action: Action) -> None:
        if seat != CHANCE:
            c = action.card  # type: ignore[attr-defined]
            self.hands[seat] ^= 1 << c
            self._add_card(seat, c)
            if self.two_player and self.stock:
                self.phase = PHASE_DRAW
                self.drawer = seat
                return
            self._after_card()
            return
        t = type(action)
        if t is Deal:
            c = action.card  # type: ignore[attr-defined]
            self.stock ^= 1 << c
            self.hands[action.seat] |= 1 << c  # type: ignore[attr-defined]
            if self.phase == PHASE_DRAW:
                self.drawer = -1
                self._after_card()
                return
            self.dealt += 1
            if self.dealt == (HAND_SIZE if self.solo else HAND_SIZE * self.n):
                self._begin_play()
        elif t is Reveal:
            c = action.card  # type: ignore[attr-defined]
            self.stock ^= 1 << c
            self._add_card(CONTENDER, c)
            self._after_card()
        elif t is ChooseSchools:
            self.schools = action.schools  # type: ignore[attr-defined]
            self._start_round()
        else:  # pragma: no cover - apply() validated it
            raise AssertionError(action)

    # ------------------------------------------------------------- results
    def scores(self) -> list[float]:
        """Crowd Support of each seat's side."""
        return [float(self.support[self.side_of_seat[s]]) for s in range(self.n)]

    def winners(self) -> list[int]:
        return [s for s in range(self.n) if self.side_of_seat[s] in self.winning_sides]

    def side_names(self) -> tuple[str, ...]:
        if self.solo:
            return ("You", "Contenders")
        if self.num_sides != self.n:
            return tuple(f"Team {'ABCDEFGH'[t]}" for t in range(self.num_sides))
        return tuple(f"Seat {s + 1}" for s in range(self.n))

    def observation(self, seat: int | None) -> GorusObservation:
        return GorusObservation(
            seat=seat,
            players=self.n,
            solo=self.solo,
            side_of_seat=self.side_of_seat,
            side_names=self.side_names(),
            targets=self.targets,
            support=tuple(self.support),
            round=self.round,
            dealer=self.dealer,
            phase=self.phase,
            to_move=self.current_seats(),
            hand=None if seat is None else self.hands[seat],
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            stock_size=self.stock.bit_count(),
            schools_in_play=self.schools,
            bout=tuple(self.bout),
            initiating=self.initiating,
            preferred=self.preferred,
            previous_bout=self.previous_bout,
            previous_winner=self.previous_winner,
            collected_counts=tuple(self.collected_count),
            collected=tuple(self.collected),
            last_round=self.last_round,
            winners=tuple(self.winners()),
        )

    # ------------------------------------------------------------- copies and JSON
    def clone(self) -> GorusMaximusState:
        new = object.__new__(GorusMaximusState)
        new.__dict__.update(self.__dict__)
        new.rng = None if self.rng is None else self.rng.clone()
        new.history = list(self.history)
        new.support = list(self.support)
        new.hands = list(self.hands)
        new.collected = list(self.collected)
        new.collected_count = list(self.collected_count)
        new.bout = list(self.bout)
        return new

    def _position(self) -> dict[str, Any]:
        def cards(mask: int) -> list[str]:
            return [card_code(c) for c in _bits(mask)]

        return {
            "phase": self.phase,
            "round": self.round,
            "dealer": self.dealer,
            "schools": [SCHOOLS[s].code for s in self.schools],
            "support": list(self.support),
            "hands": [cards(h) for h in self.hands],
            "stock": cards(self.stock),
            "dealt": self.dealt,
            "collected": [cards(m) for m in self.collected],
            "collected_count": list(self.collected_count),
            "bout": [[a, card_code(c)] for a, c in self.bout],
            "turn": self.turn,
            "initiating": self.initiating,
            "preferred": self.preferred,
            "previous_bout": [[a, card_code(c)] for a, c in self.previous_bout],
            "previous_winner": self.previous_winner,
            "drawer": self.drawer,
            "last_round": None if self.last_round is None else self.last_round.to_json(),
            "winning_sides": list(self.winning_sides),
        }


# --------------------------------------------------------------------------- reading positions
_PHASES = (PHASE_SCHOOLS, PHASE_DEAL, PHASE_PLAY, PHASE_DRAW, PHASE_REVEAL, PHASE_OVER)
_MAX_ROUND = 100_000
"""Rounds a position may have reached (a play-on final tie can add rounds, but not without end)."""


def _int_in(value: Any, what: str, lo: int, hi: int) -> int:
    return whole_number(value, f"position field {what!r}", lo, hi)


def _list_of(value: Any, what: str, size: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"position field {what!r} must be a list, not {show(value, 40)}")
    if size is not None and len(value) != size:
        raise RecordError(f"position field {what!r} must have {size} entries, not {len(value)}")
    return value


def _school_in(value: Any, what: str) -> int:
    school = SCHOOL_BY_CODE.get(value) if isinstance(value, str) else None
    if school is None:
        raise RecordError(f"position field {what!r}: {show(value, 40)} is not a school code")
    return school.index


def _card_in(value: Any, what: str, deck: int) -> int:
    try:
        c = parse_card(value)
    except ValueError:
        raise RecordError(f"position field {what!r}: {show(value, 40)} is not a card") from None
    if card_code(c) != value:
        raise RecordError(f"position field {what!r}: write the card {show(value, 40)} as {card_code(c)}")
    if not deck >> c & 1:
        raise RecordError(f"position field {what!r}: {value} is not in this game's deck")
    return c


def _cards_in(value: Any, what: str, deck: int) -> int:
    mask = 0
    for code in _list_of(value, what):
        c = _card_in(code, what, deck)
        if mask >> c & 1:
            raise RecordError(f"position field {what!r} lists {code} twice")
        mask |= 1 << c
    return mask


def _bout_in(value: Any, what: str, deck: int, actors: frozenset[int]) -> list[tuple[int, int]]:
    out = []
    for entry in _list_of(value, what):
        if not isinstance(entry, list) or len(entry) != 2:
            raise RecordError(f"position field {what!r}: each card is [actor, card], not {show(entry, 40)}")
        actor = entry[0]
        if not isinstance(actor, int) or isinstance(actor, bool) or actor not in actors:
            raise RecordError(f"position field {what!r}: {show(actor, 40)} is not an actor of this game")
        out.append((actor, _card_in(entry[1], what, deck)))
    if len({c for _, c in out}) != len(out):
        raise RecordError(f"position field {what!r} holds a card twice")
    return out


def _round_summary(lr: Any, st: GorusMaximusState, deck: int) -> RoundSummary:
    if not isinstance(lr, dict):
        raise RecordError("position field 'last_round' must be an object or null")
    sides = st.num_sides
    rnd = _int_in(required(lr, "round"), "last_round.round", 1, _MAX_ROUND)
    preferred = _school_in(required(lr, "preferred"), "last_round.preferred")
    if preferred not in st.schools:
        raise RecordError("position field 'last_round.preferred' is not a school in play")
    cf = tuple(_int_in(x, "last_round.crowd_favour", -(10**6), 10**6)
               for x in _list_of(required(lr, "crowd_favour"), "last_round.crowd_favour", sides))
    counts = tuple(_int_in(x, "last_round.collected_counts", 0, NUM_SCHOOLS * 16)
                   for x in _list_of(required(lr, "collected_counts"), "last_round.collected_counts", sides))
    if sum(counts) != deck.bit_count():
        raise RecordError("position field 'last_round.collected_counts' does not add up to the deck")
    gained = tuple(_int_in(x, "last_round.support_gained", 0, 1)
                   for x in _list_of(required(lr, "support_gained"), "last_round.support_gained", sides))
    pz = required(lr, "preferred_zero_side")
    if pz is not None:
        _int_in(pz, "last_round.preferred_zero_side", 0, sides - 1)
    no_eight = required(lr, "no_eight")
    if not isinstance(no_eight, bool) or (no_eight and not st.solo):
        raise RecordError("position field 'last_round.no_eight' must be true or false (always false "
                          "outside solo play)")
    return RoundSummary(rnd, preferred, cf, counts, gained, pz, no_eight)


def _position_to_state(game: GorusMaximusGame, options: GorusMaximusOptions, rng: Rng | None,
                       data: Any) -> GorusMaximusState:
    """Inverse of ``GorusMaximusState._position``: every field is checked, and the position as
    a whole must be one the rules can reach (each card in one place, hand sizes that fit the
    bouts played, a bout that fits the phase); anything else raises RecordError."""
    if not isinstance(data, dict):
        raise RecordError("position 'state' must be an object")
    st = GorusMaximusState(game, options, rng)
    n, sides, solo = st.n, st.num_sides, st.solo
    phase = required(data, "phase")
    if not isinstance(phase, str) or phase not in _PHASES:
        raise RecordError(f"position field 'phase' must be one of {', '.join(_PHASES)}, not {show(phase, 40)}")
    st.phase = phase
    st.round = _int_in(required(data, "round"), "round", 1, _MAX_ROUND)
    st.dealer = _int_in(required(data, "dealer"), "dealer", 0, n - 1)
    first_dealer = options.first_dealer if options.first_dealer >= 0 else n - 1
    if st.dealer != (first_dealer + st.round - 1) % n:
        raise RecordError(f"position field 'dealer': in round {st.round} the dealer is seat "
                          f"{(first_dealer + st.round - 1) % n}, not {st.dealer}")
    fixed = options.school_indices()
    codes = _list_of(required(data, "schools"), "schools")
    schools = tuple(sorted(_school_in(c, "schools") for c in codes))
    if len(set(schools)) != len(schools):
        raise RecordError("position field 'schools' lists a school twice")
    if phase == PHASE_SCHOOLS:
        if fixed is not None:
            raise RecordError("position phase 'schools': these options fix the schools in play")
        if schools:
            raise RecordError("position field 'schools' must be empty before the schools are chosen")
    elif len(schools) != setup_for(n).schools:
        raise RecordError(f"position field 'schools' must list {setup_for(n).schools} schools for {n} "
                          f"player(s), not {len(schools)}")
    elif fixed is not None and schools != fixed:
        raise RecordError("position field 'schools' differs from the schools the options fix")
    st.schools = schools
    deck = _deck(schools, st.ranks) if schools else 0
    st.support = [_int_in(x, "support", 0, _MAX_ROUND) for x in _list_of(required(data, "support"), "support", sides)]
    st.hands = [_cards_in(h, "hands", deck) for h in _list_of(required(data, "hands"), "hands", n)]
    st.stock = _cards_in(required(data, "stock"), "stock", deck)
    total = HAND_SIZE if solo else HAND_SIZE * n
    st.dealt = _int_in(required(data, "dealt"), "dealt", 0, total)
    st.collected = [_cards_in(m, "collected", deck) for m in _list_of(required(data, "collected"), "collected", sides)]
    st.collected_count = [_int_in(x, "collected_count", 0, NUM_SCHOOLS * 16)
                          for x in _list_of(required(data, "collected_count"), "collected_count", sides)]
    if st.collected_count != [m.bit_count() for m in st.collected]:
        raise RecordError("position field 'collected_count' must give the number of cards in each 'collected' pile")
    actors = frozenset((0, CONTENDER) if solo else range(n))
    st.bout = _bout_in(required(data, "bout"), "bout", deck, actors)
    st.turn = _int_in(required(data, "turn"), "turn", -1, n - 1)
    st.initiating = _int_in(required(data, "initiating"), "initiating", -1, NUM_SCHOOLS - 1)
    st.preferred = _int_in(required(data, "preferred"), "preferred", -1, NUM_SCHOOLS - 1)
    st.previous_bout = tuple(_bout_in(required(data, "previous_bout"), "previous_bout", deck, actors))
    pw = required(data, "previous_winner")
    if pw is not None and (not isinstance(pw, int) or isinstance(pw, bool) or pw not in actors):
        raise RecordError(f"position field 'previous_winner': {show(pw, 40)} is not an actor of this game")
    st.previous_winner = pw
    st.drawer = _int_in(required(data, "drawer"), "drawer", -1, n - 1)
    lr = required(data, "last_round")
    st.last_round = None if lr is None else _round_summary(lr, st, deck)
    winning = _list_of(required(data, "winning_sides"), "winning_sides")
    st.winning_sides = tuple(_int_in(x, "winning_sides", 0, sides - 1) for x in winning)
    _check_position(st, deck, total)
    return st


def _check_position(st: GorusMaximusState, deck: int, total: int) -> None:
    """The whole-position rules of :func:`_position_to_state` (fields are already in range)."""
    n, solo, phase = st.n, st.solo, st.phase
    over = phase == PHASE_OVER
    # every card of the deck in exactly one place
    seen = st.stock
    bout_mask = sum(1 << c for _, c in st.bout)
    for m in [*st.hands, *st.collected, bout_mask]:
        if seen & m:
            raise RecordError("position holds a card in two places")
        seen |= m
    if seen != deck:
        raise RecordError("position cards do not add up to the deck (a card is missing)")
    # the score
    done = st.round if over else st.round - 1
    if any(x > done for x in st.support):
        raise RecordError(f"position field 'support': no side can have gained more than {done} after "
                          f"{done} round(s)")
    if (st.last_round is None) != (done == 0):
        raise RecordError("position field 'last_round' is null exactly before the first round ends")
    if st.last_round is not None and st.last_round.round != done:
        raise RecordError(f"position field 'last_round.round' must be {done}")
    if over:
        if not st.winning_sides or list(st.winning_sides) != sorted(set(st.winning_sides)):
            raise RecordError("position field 'winning_sides' must list the winners once each, in order")
        if any(st.support[s] < st.targets[s] for s in st.winning_sides):
            raise RecordError("position field 'winning_sides' names a side short of its target")
    else:
        if st.winning_sides:
            raise RecordError("position field 'winning_sides' must be empty before the game is over")
        if st.options.final_tie == "shared" and any(x >= t for x, t in zip(st.support, st.targets)):
            raise RecordError("position field 'support': a side has reached its target, so the game is over")
    if phase != PHASE_DRAW and st.drawer != -1:
        raise RecordError("position field 'drawer' must be -1 except while a card is drawn")
    played = sum(st.collected_count)
    if phase in (PHASE_SCHOOLS, PHASE_DEAL):
        if played or st.bout or st.previous_bout or st.previous_winner is not None:
            raise RecordError(f"position phase {phase!r}: no card can have been played yet this round")
        if st.initiating != -1 or st.preferred != -1:
            raise RecordError(f"position phase {phase!r}: fields 'initiating' and 'preferred' must be -1")
        dealt = sum(h.bit_count() for h in st.hands)
        if st.dealt != dealt or dealt >= total:
            raise RecordError("position field 'dealt' must count the cards in the hands (fewer than a full deal)")
        if phase == PHASE_SCHOOLS and (dealt or st.round != 1):
            raise RecordError("position phase 'schools' comes only before the first deal")
        if not solo:
            for k in range(n):
                seat = (st.dealer + 1 + k) % n
                if st.hands[seat].bit_count() != dealt // n + (k < dealt % n):
                    raise RecordError(f"position field 'hands': seat {seat} holds the wrong number of cards "
                                      f"for {dealt} dealt")
        return
    if st.dealt != total:
        raise RecordError(f"position field 'dealt' must be {total} once the deal is over")
    size = st._bout_size()
    if over:
        if any(st.hands) or st.stock or st.bout:
            raise RecordError("position phase 'over': every card must be collected")
        if st.turn != -1:
            raise RecordError("position phase 'over': field 'turn' must be -1")
        assert st.last_round is not None
        if st.preferred != st.last_round.preferred or st.initiating != -1:
            raise RecordError("position phase 'over': 'preferred' must be the last round's, 'initiating' -1")
    if played % size:
        raise RecordError("position field 'collected' must hold whole bouts")
    bouts = played // size
    # the bout in progress and the one before it
    if (st.previous_bout and not bouts) or (st.previous_winner is None) != (not st.previous_bout):
        raise RecordError("position fields 'previous_bout' and 'previous_winner' give the last bout "
                          "(if any was played this round) and who won it")
    if st.previous_bout:
        _check_bout_order(st, list(st.previous_bout), "previous_bout", complete=True)
        pw = st.previous_winner
        if pw not in [a for a, _ in st.previous_bout]:
            raise RecordError("position field 'previous_winner' did not play in the previous bout")
        side = 1 if pw == CONTENDER else st.side_of_seat[pw]
        if sum(1 << c for _, c in st.previous_bout) & ~st.collected[side]:
            raise RecordError("position field 'previous_bout': its cards must be in the winner's collected pile")
    if over:
        return
    if not played and not st.bout:
        if st.preferred != -1:
            raise RecordError("position field 'preferred' must be -1 before the round's first card")
    elif st.preferred not in st.schools:
        raise RecordError("position field 'preferred' must be a school in play once a card is played")
    if st.bout:
        if st.initiating != st.bout[0][1] >> 4:
            raise RecordError("position field 'initiating' must be the school of the bout's first card")
    elif st.initiating != -1:
        raise RecordError("position field 'initiating' must be -1 between bouts")
    _check_bout_order(st, st.bout, "bout", complete=False)
    in_bout = {a for a, _ in st.bout}
    if solo:
        shape = [a for a, _ in st.bout]
        if phase == PHASE_PLAY and shape != [CONTENDER]:
            raise RecordError("position phase 'play' (solo): the bout holds exactly the contender's first card")
        if phase == PHASE_REVEAL and shape not in ([], [CONTENDER, 0]):
            raise RecordError("position phase 'reveal' (solo): the bout is empty or holds a contender "
                              "card and yours")
        if phase == PHASE_DRAW:
            raise RecordError("position phase 'draw' happens only with 2 players")
        if phase == PHASE_PLAY and st.turn != 0:
            raise RecordError("position field 'turn' must be 0 in solo play")
        if st.hands[0].bit_count() != HAND_SIZE - bouts - (0 in in_bout):
            raise RecordError("position field 'hands' does not fit the bouts played")
        if phase == PHASE_REVEAL and not st.stock:
            raise RecordError("position phase 'reveal' needs a contender card in the stock")
    else:
        if phase == PHASE_REVEAL:
            raise RecordError("position phase 'reveal' happens only in solo play")
        # who leads: the last bout's winner, the dealer's left-hand neighbour in the first bout,
        # or (a position written without its previous bout) whoever played first
        leader = st.previous_winner if st.previous_bout else (st.dealer + 1) % n if not bouts else None
        if st.bout:
            leader = st.bout[0][0] if leader is None else leader
            if st.bout[0][0] != leader:
                raise RecordError(f"position field 'bout': seat {leader} leads this bout")
        if phase == PHASE_PLAY:
            next_seat = st.turn if leader is None else (leader + len(st.bout)) % n
            if len(st.bout) >= n or st.turn != next_seat:
                raise RecordError(f"position field 'turn' must be seat {next_seat}, the next in the bout")
        else:  # a 2-player draw after a card
            if not st.two_player or not st.bout or not st.stock:
                raise RecordError("position phase 'draw' needs 2 players, a card in the bout and a stock")
            if st.turn != st.bout[-1][0] or st.drawer != st.turn:
                raise RecordError("position fields 'turn' and 'drawer' must be the seat that played last")
        for s in range(n):
            played_s = bouts + (s in in_bout)
            held = HAND_SIZE - played_s
            if st.two_player:  # a card drawn after each of the first 10 played, while the stock lasts
                held += min(played_s, 5) - (phase == PHASE_DRAW and s == st.drawer)
            if st.hands[s].bit_count() != held:
                raise RecordError(f"position field 'hands': seat {s} must hold {held} cards after the bouts played")
    if phase == PHASE_PLAY and not st.hands[st.turn]:
        raise RecordError("position phase 'play': the seat to move has no card")
    if st.bout:
        st.top_actor, st.top = st._bout_winner()


def _check_bout_order(st: GorusMaximusState, bout: list[tuple[int, int]], what: str, complete: bool) -> None:
    """Actors of a bout in playing order: contender, player, contender in solo play; otherwise
    seats one after another round the table."""
    actors = [a for a, _ in bout]
    if complete and len(actors) != st._bout_size():
        raise RecordError(f"position field {what!r} must hold a whole bout")
    if st.solo:
        if actors != [CONTENDER, 0, CONTENDER][: len(actors)]:
            raise RecordError(f"position field {what!r}: a solo bout is contender, you, contender")
    elif any(b != (a + 1) % st.n for a, b in itertools.pairwise(actors)) or len(actors) > st.n:
        raise RecordError(f"position field {what!r}: seats play in turn round the table")


# --------------------------------------------------------------------------- game
class GorusMaximusGame(Game):
    name = "gorus-maximus"
    title = "Gorus Maximus"
    summary = "Trick-taking for 1-8 players where a Challenge changes the preferred school mid-bout."
    Options = GorusMaximusOptions
    min_seats = 1
    max_seats = 8

    def num_seats(self, options: GorusMaximusOptions) -> int:
        return options.players

    def seat_names(self, options: GorusMaximusOptions) -> list[str]:
        return ["You"] if options.solo else [f"Seat {i + 1}" for i in range(options.players)]

    def _new_state(self, options: GorusMaximusOptions, rng: Rng | None) -> GorusMaximusState:
        return GorusMaximusState(self, options, rng)

    def _state_from_position(self, options: GorusMaximusOptions, rng: Rng | None, data: Any) -> State:
        return _position_to_state(self, options, rng, data)

    def action_from_json(self, data: Any) -> Action:
        try:
            if isinstance(data, dict):
                if set(data) == {"play"}:
                    return PLAY[parse_card(data["play"])]
                to = data.get("to")
                if set(data) == {"deal", "to"} and isinstance(to, int) and not isinstance(to, bool) and 0 <= to < 8:
                    return DEAL[parse_card(data["deal"])][data["to"]]
                if set(data) == {"reveal"}:
                    return REVEAL[parse_card(data["reveal"])]
                if set(data) == {"schools"} and isinstance(data["schools"], list):
                    return ChooseSchools(tuple(sorted(parse_card(c + "0") >> 4 for c in data["schools"])))
        except (ValueError, TypeError) as exc:
            raise RecordError(f"bad Gorus Maximus action {data!r}: {exc}") from exc
        raise RecordError(f"bad Gorus Maximus action {data!r}")

    def sample_state(self, view: Any, rng: Rng) -> GorusMaximusState:
        """A determinization of a SeatView for search: the unseen cards dealt at random,
        consistent with all the seat knows (see :mod:`.sampler`)."""
        from .sampler import sample_state

        return sample_state(view, rng)


GAME = GorusMaximusGame()
