"""A Gorus Maximus heuristic that plays like a sensible person, one bout at a time.

For each playable card it looks at the bout as it would stand after the card: who would
win it, what the cards are worth in Crowd Favour, how likely the lead is to hold against
the players still to come, and what the card itself is worth keeping. It avoids winning
8s, dumps 8s on rivals, takes 9s and 10s cheaply, Challenges to steal a bout or to make a
0 it already holds the preferred one, and does not overtake a partner who is winning.
"""

from __future__ import annotations

from ...core.agent import Agent
from ...core.game import Action, SeatView
from .actions import Play
from .cards import CONTENDER, load_cf_table
from .views import GorusObservation

__all__ = ["GorusMaximusHeuristic"]


class GorusMaximusHeuristic(Agent):
    name = "heuristic"

    def act(self, view: SeatView) -> Action:
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0]
        obs: GorusObservation = view.observation
        cf = load_cf_table(view.options.cf_table)
        best, best_score = actions[0], float("-inf")
        for action in actions:
            assert isinstance(action, Play)
            score = self._score(obs, action.card, cf.by_rank, cf.preferred_zero) + self.rng.random() * 1e-3
            if score > best_score:
                best, best_score = action, score
        return best

    @staticmethod
    def _side(obs: GorusObservation, actor: int) -> int:
        return 1 if actor == CONTENDER else obs.side_of_seat[actor]

    def _score(self, obs: GorusObservation, c: int, table: tuple[int, ...], pz_value: int) -> float:
        me = obs.seat
        assert me is not None
        my_side = obs.side_of_seat[me]
        bout = list(obs.bout) + [(me, c)]
        preferred, initiating = obs.preferred, obs.initiating
        if len(bout) == 1:
            initiating = c >> 4
            if preferred < 0:
                preferred = c >> 4
        elif (bout[-2][1] & 15) == (c & 15):
            preferred = c >> 4
        # who holds the bout once this card is in
        winner, top = None, -1
        for school in (preferred, initiating):
            for actor, card in bout:
                if card >> 4 == school and card > top:
                    winner, top = actor, card
            if top >= 0:
                break
        remaining = (3 if obs.solo else obs.players) - len(bout)

        def worth(card: int) -> float:
            rank = card & 15
            if rank == 0:
                return pz_value * 0.6 if card >> 4 == preferred else 0.0
            return float(table[rank])

        value = sum(worth(card) for _, card in bout)
        # chance that the current top card survives the players still to come
        top_rank = top & 15
        hold = 1.0
        if remaining:
            base = 0.35 + 0.05 * top_rank + (0.15 if top >> 4 == preferred else 0.0)
            hold = max(0.05, min(0.97, base)) ** remaining
        ours = winner is not None and self._side(obs, winner) == my_side
        expected = (hold if ours else (1 - hold) * 0.3) * value
        score = expected
        if not ours and value < 0:
            score += -value * 0.4  # an opponent takes the loss
        rank = c & 15
        # keeping strong cards for later is worth something; spending them cheaply is not
        score -= 0.04 * rank * (1.5 if c >> 4 == preferred else 1.0)
        if rank == 8 and not ours:
            score += 2.0  # dumped an 8
        if rank == 0 and not ours:
            score -= 1.0 if c >> 4 == preferred else 0.0
        # overtaking a partner who already held the bout is needless
        if len(bout) > 1 and ours and winner == me:
            prev_winner = self._prior_winner(obs)
            if prev_winner is not None and prev_winner != me and self._side(obs, prev_winner) == my_side:
                score -= 1.5
        # a Challenge that makes a 0 we collected or hold the preferred one
        if preferred != obs.preferred and preferred >= 0:
            zero = preferred * 16
            mine = obs.collected[my_side] if my_side < len(obs.collected) else 0
            if mine >> zero & 1 or (obs.hand or 0) >> zero & 1:
                score += 2.0
        return score

    @staticmethod
    def _prior_winner(obs: GorusObservation) -> int | None:
        if not obs.bout:
            return None
        winner, top = None, -1
        for school in (obs.preferred, obs.initiating):
            for actor, card in obs.bout:
                if card >> 4 == school and card > top:
                    winner, top = actor, card
            if top >= 0:
                break
        return winner
