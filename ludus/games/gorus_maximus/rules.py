"""Gorus Maximus rules: deal, bouts with following and Challenges, Crowd Favour, Crowd Support.

One state class covers every mode. Scoring is per *side*: a side is a seat in ordinary
play, a team in the team variant, and in solo play side 0 is the player and side 1 the
contenders (who are not a seat: their cards are chance outcomes turned face up).

This module owns :class:`GorusMaximusState`: setup, legal moves, transitions, chance
outcomes, scoring and the reasons an illegal move is refused. The observation is built in
:mod:`.views`, the position JSON in :mod:`.codec`, and the hot paths (legal moves, a played
card with 3+ players, seeded deals) are the faster versions in :mod:`.fast`, bound here as
methods; the plain versions they are checked against stay here and in the core ``State``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.errors import Refusal
from ...core.game import CHANCE, Action, State
from ...core.rng import Rng
from .actions import DEAL, REVEAL, ChooseSchools, Deal, Play, Reveal
from .cards import (
    CONTENDER,
    HAND_SIZE,
    NUM_SCHOOLS,
    PHASE_DEAL,
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_REVEAL,
    PHASE_SCHOOLS,
    RANK_MASKS,
    SCHOOL_MASKS,
    SCHOOLS,
    _bits,
    _deck,
    card,
    card_code,
    card_label,
    load_cf_table,
    setup_for,
)
from .fast import _cf_groups, fast_apply, fast_legal_actions, fast_settle_chance
from .options import GorusMaximusOptions
from .views import GorusObservation, RoundSummary, observation_of

if TYPE_CHECKING:
    from .game import GorusMaximusGame

__all__ = ["MUST_FOLLOW", "NOT_A_MOVE", "NOT_HELD", "GorusMaximusState"]

# The codes of the reasons a move is refused (a Refusal's code; its params in the comment): what a
# client renders in its reader's language, so a refusal leaves the engine language-neutral.
NOT_HELD = "gorus-maximus.not-held"  # card: the card's code (e.g. "GA10")
MUST_FOLLOW = "gorus-maximus.must-follow"  # school: the initiating school's code; rank: the last card's rank
NOT_A_MOVE = "gorus-maximus.not-a-move"  # action: the action as the engine writes it


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
        reached = []  # the sides that reach their target at this round end: only they may win now
        for s, g in enumerate(gained):
            support[s] += g
            if g and support[s] >= self.targets[s]:
                # a side already at its target (play-on after a tie) that gains nothing this
                # round did not reach it now, so it is not compared with the one that did
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

    # the hot paths, from .fast; the plain rules they stand for: legal_mask, and _apply
    # under the core State.apply and State._settle_chance
    legal_actions = fast_legal_actions
    apply = fast_apply
    _settle_chance = fast_settle_chance

    def why_illegal(self, action: Action, seat: int) -> str | None:
        if type(action) is Play:
            c = action.card
            if self.legal_mask(seat) >> c & 1:
                return None
            if not self.hands[seat] >> c & 1:
                return Refusal(f"you do not hold {card_label(c)}", NOT_HELD, {"card": card_code(c)})
            school = SCHOOLS[self.initiating]
            last_rank = self.bout[-1][1] & 15
            return Refusal(
                f"you hold a {school.short} gladiator: follow {school.short}, or Challenge with a {last_rank}",
                MUST_FOLLOW, {"school": school.code, "rank": last_rank},
            )
        return Refusal(f"{action} is not a move a player makes", NOT_A_MOVE, {"action": str(action)})

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
        return observation_of(self, seat)

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

    def to_json(self) -> dict[str, Any]:
        """The position JSON; ``memory-aids`` only changes what people are shown, so it is written
        only when on, and positions written before the option existed read and write the same."""
        out = super().to_json()
        if not self.options.memory_aids:
            del out["options"]["memory_aids"]
        return out

    def _position(self) -> dict[str, Any]:
        from .codec import state_to_position  # the codec reads positions into this class

        return state_to_position(self)
