"""A Gorus Arena bot that values every move in points, using only its seat's view.

Planning orders the hand so that attacks come first (to kill a rival card before it acts),
then income, then recruits (which then have the coins), then defence. In execution each
legal move gets a value in end-of-game points: a kill is worth the victim's points (more
if it also cancels the victim's action this round), a recruit is worth the card's points
plus what its action should bring over the rounds left, less the coins it costs; coins are
worth a third of a point at the end and somewhat more while they can still buy cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.agent import Agent
from ...core.game import Action, SeatView
from .actions import INCOME, Attack, Income, Pick, Place, Recruit
from .cards import ACTIONS, DEFENCE, KEY, KIND_BY_KEY, POINTS, STRENGTH, CardKind
from .rules import COINS_PER_POINT
from .views import GorusArenaObservation

__all__ = ["NOISE", "GorusArenaHeuristic", "Weights", "kills", "plan_priority"]

NOISE = 0.3
"""Random jitter added to move values, so that two copies of the bot do not mirror each other."""


@dataclass(frozen=True)
class Weights:
    """The bot's valuation constants, all in end-of-game points (tuned by simulation)."""

    coin: float = 0.55
    """A coin while rounds remain to spend it (at the end it is worth exactly 1/3)."""
    engine: float = 0.3
    """Multiplier on what a recruited card's action should bring over the rounds left."""
    attack: float = 0.8
    """Worth of one play of an attack card, per point of strength above 2, in a 2-player game
    (a kill hurts one rival, so with n players it is scaled by 2/n)."""
    recruit: float = 1.2
    """Worth of one play of a recruit card."""
    defence: float = 1.0
    """Worth of one play of a defence card."""
    risk: float = 0.0
    """Points a gladiator is expected to lose per point of defence below 5 (it may be killed)."""
    kill: float = 1.4
    """Multiplier on the worth of killing a rival gladiator."""


def _owner(obs: GorusArenaObservation, card: int) -> int | None:
    """The seat that owns ``card`` (ownership is public), or None."""
    for s in range(obs.players):
        if card in obs.arena[s] or card in obs.reserve[s] or card in obs.discard[s]:
            return s
    return None


def plan_priority(card: int, defence_first: bool = False) -> tuple[int, int]:
    """Sort key for the plan: attacks, income, recruits, defence; stronger first within each."""
    acts = ACTIONS[card]
    if "defence" in acts:
        group = -1 if defence_first else 3
    elif "attack" in acts:
        group = 0
    elif "recruit" in acts:
        group = 2
    else:
        group = 1
    return (group, -STRENGTH[card])


def kills(obs: GorusArenaObservation, attacker: int, target: int) -> bool:
    """Whether an attack by card ``attacker`` on ``target`` would succeed (guards included)."""
    victim = _owner(obs, target)
    guard = max(DEFENCE[target], obs.shield[victim] if victim is not None else 0)
    return STRENGTH[attacker] > guard


class GorusArenaHeuristic(Agent):
    """Greedy one-step evaluation of moves in points; plans its hand by a fixed priority."""

    name = "heuristic"

    def __init__(self, seed: int = 0, weights: Weights | None = None) -> None:
        super().__init__(seed)
        self.w = weights or Weights()

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        obs: GorusArenaObservation = view.observation
        if obs.phase == "plan":
            return self.plan(view)
        values = [self.value(view, a) + NOISE * self.rng.random() for a in legal]
        return legal[max(range(len(legal)), key=values.__getitem__)]

    # ------------------------------------------------------------- planning
    def plan(self, view: SeatView) -> Action:
        obs: GorusArenaObservation = view.observation
        defence_first = view.options.defence_timing == "execution"
        order = sorted(obs.hand, key=lambda c: plan_priority(c, defence_first))
        places = {a.card: a for a in view.legal_actions if isinstance(a, Place)}
        for card in order:
            key = KEY[card]
            if key in places:
                return places[key]
        return view.legal_actions[0]

    # ------------------------------------------------------------- execution
    def value(self, view: SeatView, action: Action) -> float:
        """Worth of ``action`` in end-of-game points (pass is 0)."""
        obs: GorusArenaObservation = view.observation
        w = self.w
        me = view.seat
        coins = obs.coins[me]
        last = obs.round >= obs.rounds
        if isinstance(action, Income):
            if last:
                return (coins + INCOME) // COINS_PER_POINT - coins // COINS_PER_POINT
            return INCOME * w.coin
        if isinstance(action, Recruit):
            kind = KIND_BY_KEY[action.card]
            if last:
                return kind.points - (coins // COINS_PER_POINT - (coins - kind.cost) // COINS_PER_POINT) - 0.01
            return self.card_worth(obs, me, kind) - kind.cost * w.coin
        if isinstance(action, Pick):  # a free refill: the best card for what is left of the game
            return self.card_worth(obs, me, KIND_BY_KEY[action.card])
        if isinstance(action, Attack):
            assert obs.pending is not None
            target = action.target
            if not kills(obs, obs.pending[1], target):
                return -1.0
            worth = float(POINTS[target])
            if _waiting(obs, target):
                worth += 0.8  # it has not acted yet: the kill also cancels its action
            if not last:
                worth += 0.3 * self.action_worth(ACTIONS[target], STRENGTH[target], 3)
            victim = _owner(obs, target)
            if victim is not None:
                others = [obs.scores[s] for s in range(obs.players) if s != me]
                if obs.scores[victim] == max(others):
                    worth += 0.5
            return worth * w.kill
        return 0.0  # pass

    def card_worth(self, obs: GorusArenaObservation, me: int, kind: CardKind) -> float:
        """Points a card should bring if recruited now: its own points (at risk) plus its plays."""
        rounds_left = obs.rounds - obs.round
        own = len(obs.reserve[me]) + len(obs.discard[me]) + sum(1 for c in obs.arena[me] if c not in obs.dead)
        plays = 1.0 + (rounds_left - 1) * min(1.0, 2.5 / (own + 1))
        points = kind.points - (self.w.risk * (5 - kind.defence) if kind.gladiator else 0.0)
        return points + self.w.engine * plays * self.action_worth(kind.actions, kind.strength, rounds_left,
                                                                  obs.players)

    def action_worth(self, actions: tuple[str, ...], strength: int, rounds_left: int, players: int = 2) -> float:
        """Rough worth in points of playing a card with these actions once."""
        w = self.w
        worths = []
        for a in actions:
            if a == "income":
                worths.append(INCOME * w.coin)
            elif a == "recruit":
                worths.append(w.recruit if rounds_left > 1 else w.recruit / 3)
            elif a == "attack":
                worths.append(max(0.0, w.attack * (strength - 2)) * 2 / players)
            else:
                worths.append(w.defence)
        return max(worths) + 0.2 * (len(worths) - 1)


def _waiting(obs: GorusArenaObservation, card: int) -> bool:
    """Whether killing ``card`` now would stop its action this round."""
    if obs.tied and any(c == card for _, c in obs.queue):
        return False  # a tied auction: the card acts even if killed now
    return any(card in a for a in obs.arena) and card not in obs.acted
