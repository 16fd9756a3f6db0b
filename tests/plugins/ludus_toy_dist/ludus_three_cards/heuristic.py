"""A small rule-of-thumb player for Three cards."""

from __future__ import annotations

from ludus.core.agent import Agent
from ludus.core.game import Action, SeatView

__all__ = ["ThreeCardsHeuristic"]


class ThreeCardsHeuristic(Agent):
    """Bets and calls with the 3, folds the 1 to a bet (bluffing with it a third of the time
    when it may bet), and with the 2 checks and calls a third of the time."""

    name = "heuristic"

    def act(self, view: SeatView) -> Action:
        card = view.observation.your_card
        moves = {a.to_json()["move"]: a for a in view.legal_actions}
        if "bet" in moves:  # nothing to call yet: pass or bet
            bluff = card == 1 and self.rng.below(3) == 0
            return moves["bet"] if card == 3 or bluff else moves["pass"]
        if card == 3 or (card == 2 and self.rng.below(3) == 0):
            return moves["call"]
        return moves["fold"]
