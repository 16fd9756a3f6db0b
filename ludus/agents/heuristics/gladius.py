"""A Gladius bot that plays like a careful person.

It counts cards: from its view it knows which cards are still unaccounted for (not in its
hand, not discarded, not on the table, not known to be in the opponent's hand), so it can
estimate how likely the opponent is to hold a card that stops a given attack: only the
cards the opponent's *type* may use count. It attacks where the blow is least likely to be
stopped (draining defences with cheap attacks when a stop is likely), keeps Immobilize for
when the extra turn pays off, saves its defence cards for big or lethal blows, prefers a
Block to an Evade (an Evade costs the next attack), and discards the cards it cannot use.
"""

from __future__ import annotations

from math import comb

from ...core.game import Action, SeatView
from ...games.gladius.cards import Card
from ...games.gladius.game import Attack, Defend, Discard, GladiusObservation, Setup
from ..base import Agent


def p_holds_any(hits_known: int, pool_hits: int, pool_size: int, draws: int) -> float:
    """Chance that a hand with ``draws`` unknown cards (from ``pool_size``, of which
    ``pool_hits`` are wanted) holds at least one wanted card, or 1 if one is known."""
    if hits_known:
        return 1.0
    if draws <= 0 or pool_hits <= 0:
        return 0.0
    if draws > pool_size:
        return 1.0
    return 1.0 - comb(pool_size - pool_hits, draws) / comb(pool_size, draws)


class GladiusHeuristic(Agent):
    name = "heuristic"

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        obs: GladiusObservation = view.observation
        setup: Setup = view.game.setup(view.options)  # type: ignore[attr-defined]
        if obs.phase == "discard":
            return self._discard(obs, setup, legal)
        if obs.phase == "attack":
            return self._attack(obs, setup, legal)
        if obs.phase == "defend":
            return self._defend(obs, setup, legal)
        return legal[0]  # pragma: no cover - Gladius has no other decisions

    # ----------------------------------------------------------------- counting
    def _pool(self, obs: GladiusObservation, setup: Setup) -> list[int]:
        """Copies of each kind that are unaccounted for (deck or the opponent's unknown cards)."""
        pool = setup.counts()
        idx = setup.index
        for key in obs.hand + obs.mini_hand + obs.opponent_known:
            pool[idx[key]] -= 1
        if obs.table is not None:
            pool[idx[obs.table]] -= 1
        for key, n in obs.discard:
            pool[idx[key]] -= n
        return pool

    def _p_stopped(self, obs: GladiusObservation, setup: Setup, attack: Card, pool: list[int]) -> float:
        """How likely the opponent answers ``attack`` (it may use only its own type's cards)."""
        opp = 1 - obs.seat  # type: ignore[operator]
        usable = setup.usable[opp]
        stops = [k for k in usable
                 if setup.kinds[k].is_evade or (setup.kinds[k].is_block and not attack.immobilize)]
        pool_hits = sum(pool[k] for k in stops)
        if obs.solo:
            return p_holds_any(0, pool_hits, sum(pool), setup.mini_def)
        known = sum(1 for key in obs.opponent_known if setup.index[key] in stops)
        return p_holds_any(known, pool_hits, sum(pool), obs.opponent_unknown)

    # ----------------------------------------------------------------- decisions
    def _attack(self, obs: GladiusObservation, setup: Setup, legal: tuple[Action, ...]) -> Action:
        me = obs.seat
        assert me is not None
        opp_hp = obs.hit_points[1 - me]
        pool = self._pool(obs, setup)
        cards = [(a, setup.kinds[setup.index[a.card]]) for a in legal if isinstance(a, Attack) and a.card]
        damage_cards = [c for _, c in cards if c.damage]
        best: Action = legal[-1]
        best_value = 0.1
        for action, c in cards:
            p = self._p_stopped(obs, setup, c, pool)
            gain = float(c.damage)
            if c.damage >= opp_hp:
                gain += 20.0
            if c.immobilize:
                # the extra turn is worth most with a damage card to follow it
                follow = max((d.damage for d in damage_cards if d is not c), default=0)
                gain += 1.0 + 0.5 * follow
            if c.no_attack_next_turn:
                gain -= 1.5
            value = (1.0 - p) * gain + p * (0.6 - 0.15 * c.damage)
            if value > best_value + 1e-9:
                best, best_value = action, value
        return best

    def _defend(self, obs: GladiusObservation, setup: Setup, legal: tuple[Action, ...]) -> Action:
        me = obs.seat
        assert me is not None and obs.table is not None
        attack = setup.kinds[setup.index[obs.table]]
        options = [(a, setup.kinds[setup.index[a.card]]) for a in legal if isinstance(a, Defend) and a.card]
        if not options:
            return legal[-1]
        options.sort(key=lambda ac: (ac[1].is_evade, ac[0].card))  # Blocks first: an Evade costs an attack
        action, card = options[0]
        hp = obs.hit_points[me]
        mine = [setup.kinds[setup.index[key]] for key in obs.hand if setup.index[key] in setup.usable[me]]
        held_defences = sum(1 for c in mine if c.is_defence)
        holds_attack = any(c.is_attack for c in mine)
        if attack.damage >= hp or (attack.damage and hp - attack.damage <= 3):
            return action  # lethal or close to it: stop it with anything
        threat = attack.damage + (2.5 if attack.immobilize else 0.0)
        # what the card is worth if kept: more when it is my last defence, nothing when the
        # hand is so full that it would soon be discarded anyway
        keep = 2.5 if held_defences <= 1 else 1.5 if held_defences == 2 else 0.8
        if len(obs.hand) >= obs.hand_limit:
            keep = min(keep, 0.8)
        cost = keep + (1.5 if card.is_evade and holds_attack else 0.0)
        return action if threat >= cost else legal[-1]

    def _discard(self, obs: GladiusObservation, setup: Setup, legal: tuple[Action, ...]) -> Action:
        me = obs.seat
        assert me is not None
        defences = sum(1 for key in obs.hand if setup.index[key] in setup.usable[me]
                       and setup.kinds[setup.index[key]].is_defence)

        def value(action: Action) -> tuple[float, str]:
            assert isinstance(action, Discard)
            k = setup.index[action.card]
            c = setup.kinds[k]
            if k not in setup.usable[me]:
                return (-1.0, action.card)
            if c.is_defence:
                return (2.6 if defences <= 2 else 1.4, action.card)
            v = c.damage + (2.0 if c.immobilize else 0.0) - (1.0 if c.no_attack_next_turn else 0.0)
            return (v, action.card)

        return min(legal, key=value)
