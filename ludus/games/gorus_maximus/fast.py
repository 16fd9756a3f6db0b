"""Gorus Maximus fast paths: precomputed tables and specialised loops used instead of the plain rules.

The plain rules are in :mod:`.rules` (``legal_mask``, ``_apply`` and its helpers, the core
``State.apply`` and ``State._settle_chance``); what is here does the same faster, and
``tests/games/gorus_maximus/test_fast.py`` checks each against them:

* :func:`fast_legal_actions`: legal moves as cached tuples of :class:`Play`, one per lane of a hand;
* :func:`fast_apply`: with 3+ players (``fast_bouts``) the whole bout logic inlined;
* :func:`fast_settle_chance`: a seeded deal of a whole troupe set from one shuffle;
* :func:`_cf_groups`: the CF table as one mask per value, so scoring is a few popcounts.

The functions are bound as methods of :class:`.rules.GorusMaximusState` in its class body, so
using them costs no call more than methods written there.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ...core.errors import IllegalAction
from ...core.game import CHANCE, Action, State
from .actions import DEAL, PLAY, Play
from .cards import (
    HAND_SIZE,
    NUM_SCHOOLS,
    PHASE_DEAL,
    PHASE_DRAW,
    PHASE_PLAY,
    PHASE_REVEAL,
    PHASE_SCHOOLS,
    RANK_MASKS,
    SCHOOL_MASKS,
    _bits,
    _deck,
)

if TYPE_CHECKING:
    from .rules import GorusMaximusState

__all__ = ["fast_apply", "fast_legal_actions", "fast_settle_chance"]

_BIT = tuple(1 << c for c in range(NUM_SCHOOLS * 16))
"""Each card's bit, built once so the hot path allocates no new integers for it."""
_CHALLENGE_MASKS = tuple(tuple(RANK_MASKS[r] & ~SCHOOL_MASKS[s] for r in range(16)) for s in range(NUM_SCHOOLS))
"""Per initiating school and rank: the cards of that rank in every other school."""
_LANE_PLAYS: tuple[dict[int, tuple[Play, ...]], ...] = tuple({} for _ in range(NUM_SCHOOLS))
"""Per school, the Play actions of each 16-bit lane of a hand: legal moves without a bit loop."""


def _lane_plays(school: int, lane: int) -> tuple[Play, ...]:
    plays = _LANE_PLAYS[school][lane] = tuple(PLAY[(school << 4) + r] for r in range(16) if lane >> r & 1)
    return plays


_DEAL_ENTRIES = tuple(tuple((CHANCE, d) for d in row) for row in DEAL)
"""History entries for seeded deals, built once."""


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
def _deck_cards(deck: int) -> tuple[int, ...]:
    return tuple(_bits(deck))


def fast_legal_actions(self: GorusMaximusState, seat: int | None = None) -> Sequence[Action]:
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


def fast_apply(self: GorusMaximusState, action: Action, seat: int | None = None) -> None:
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
    State.apply(self, action, seat)


def fast_settle_chance(self: GorusMaximusState) -> None:
    """Seeded chance, dealing a whole troupe set from one shuffle (same outcomes as card by card).

    The outcomes are deals the card-by-card path (the core ``State._settle_chance``) could make,
    with the same probabilities, though not from the same random numbers.
    """
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
