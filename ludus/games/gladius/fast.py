"""Gladius fast paths: shortcuts that heuristic rollouts and searches run instead of the plain code.

Each does exactly what a plain version does, only quicker, and a test holds it to that
(``tests/games/gladius/test_heuristic_speedup.py``):

* :func:`apply`, :func:`settle_chance` and :func:`why_illegal` are methods of
  :class:`~ludus.games.gladius.rules.GladiusState` (the class binds them: no extra call);
  they shortcut :meth:`State.apply`, :meth:`State._settle_chance` and
  ``GladiusState._plain_why_illegal`` for the common case;
* :func:`nth_card` finds the card a draw picks faster than :func:`ludus.core.bits.nth_bit`.

Other speed-minded code lives with what it speeds up: the precomputed tables of
:class:`~ludus.games.gladius.rules.Setup` and the observation builder in ``views.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.game import CHANCE, Action, State
from .actions import Attack, Defend, Discard
from .views import ATTACK, DECISIONS, DEFEND, DISCARD, DRAW, NOT_CHANCE

if TYPE_CHECKING:
    from .rules import GladiusState

__all__ = ["apply", "nth_card", "settle_chance", "why_illegal"]


def nth_card(pile: int, r: int) -> int:
    """Index of the ``r``-th card of ``pile`` (0-based, lowest first): 16 cards at a time, then
    bit by bit (a draw picks one this way, so it runs for every draw of every rollout)."""
    base = 0
    while True:
        n = (pile & 0xFFFF).bit_count()
        if r < n:
            break
        r -= n
        pile >>= 16
        base += 16
    for _ in range(r):
        pile &= pile - 1
    return base + (pile & -pile).bit_length() - 1


def why_illegal(self: GladiusState, action: Action, seat: int) -> str | None:
    """``GladiusState.why_illegal``: the common legal moves are recognised from the masks
    at once; anything else gets its reason from the plain rules (``_plain_why_illegal``)."""
    t = type(action)
    p = self.phase
    # fast path for the common legal moves
    if t is Attack and p == ATTACK and seat == self.active:
        if action.card is None:  # type: ignore[attr-defined]
            if not self.compulsory or self.barred >= 0 or not self.hands[seat] & self.setup.attack_phys[seat]:
                return None
            return self._plain_why_illegal(action, seat)
        k = self.setup.index.get(action.card)  # type: ignore[attr-defined]
        if (k is not None and self.barred < 0 and self.hands[seat] & self.setup.kind_mask[k]
                & self.setup.attack_phys[seat]):
            return None
    elif t is Defend and p == DEFEND and seat != self.active:
        if action.card is None:  # type: ignore[attr-defined]
            return None
        k = self.setup.index.get(action.card)  # type: ignore[attr-defined]
        if k is not None:
            m = self.hands[seat] & self.setup.kind_mask[k] & self.setup.defence_phys[seat]
            if m and (m & self.setup.evade_phys or not self.setup.kinds[self.pending].immobilize):
                return None
    elif t is Discard and p == DISCARD and seat == self.active:
        k = self.setup.index.get(action.card)  # type: ignore[attr-defined]
        if k is not None and self.hands[seat] & self.setup.kind_mask[k]:
            return None
    return self._plain_why_illegal(action, seat)


def apply(self: GladiusState, action: Action, seat: int | None = None) -> None:
    """``GladiusState.apply`` (rules.py binds it)."""
    # State.apply without its generic checks for the common case, the seat to move
    # playing a legal move; anything else goes the general way (and raises there)
    p = self.phase
    if (seat is not None and p in DECISIONS and seat == (1 - self.active if p == DEFEND else self.active)
            and self.why_illegal(action, seat) is None):
        self._apply(seat, action)
        self.history.append((seat, action))
        if self.rng is not None:
            self._settle_chance()
        return
    State.apply(self, action, seat)


def settle_chance(self: GladiusState) -> None:
    """``GladiusState._settle_chance`` (rules.py binds it)."""
    # State._settle_chance with the chance test inlined: every phase but the decisions
    # and the end is a chance node (see current_seats)
    rng = self.rng
    assert rng is not None
    history = self.history
    while True:
        p = self.phase
        if p == DRAW:
            # the turn's draw, the commonest chance step: sample_chance and _apply inlined
            s = self.setup
            side = self.active
            pile = self.pile
            k = s.card_kind[nth_card(pile, rng.below(pile.bit_count()))]
            m = pile & s.kind_mask[k]
            bit = m & -m
            self.pile = pile ^ bit
            self.hands[side] |= bit
            if not self.solo:
                self.unknown[1 - side] += 1
            self._after_maneuver()
            history.append((CHANCE, s.draw_actions[side][k]))
            continue
        if p in NOT_CHANCE:
            return
        outcome = self.sample_chance(rng)
        self._apply(CHANCE, outcome)
        history.append((CHANCE, outcome))
