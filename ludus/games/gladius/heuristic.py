"""A Gladius bot that plays like a careful person.

It counts cards: from its view it knows which cards are still unaccounted for (not in its
hand, not discarded, not on the table, not known to be in the opponent's hand), so it can
estimate how likely the opponent is to hold a card that stops a given attack: only the
cards the opponent's *type* may use count. It attacks where the blow is least likely to be
stopped (draining defences with cheap attacks when a stop is likely; passing only where the
rules allow it, see option ``attack``), keeps Immobilize for
when the extra turn pays off, saves its defence cards for big or lethal blows, prefers a
Block to an Evade (an Evade costs the next attack), and discards the cards it cannot use.
"""

from __future__ import annotations

import math
from functools import lru_cache
from math import comb
from typing import Any

from ...core.agent import Agent
from ...core.game import Action, SeatView
from ...core.memo import derived
from .actions import Attack, Defend, Discard
from .cards import Card
from .options import GladiusOptions
from .rules import Setup
from .views import GladiusObservation

__all__ = ["GladiusHeuristic", "p_holds_any"]


def p_holds_any(hits_known: int, pool_hits: int, pool_size: int, draws: int) -> float:
    """Chance that a hand with ``draws`` unknown cards (from ``pool_size``, of which
    ``pool_hits`` are wanted) holds at least one wanted card, or 1 if one is known."""
    if hits_known:
        return 1.0
    if draws <= 0 or pool_hits <= 0:
        return 0.0
    if draws > pool_size:
        return 1.0
    return 1.0 - _p_misses(pool_size, pool_hits, draws)


@lru_cache(maxsize=8192)
def _p_misses(pool_size: int, pool_hits: int, draws: int) -> float:
    """Chance that ``draws`` cards from ``pool_size`` miss all ``pool_hits`` wanted ones (cached:
    rollouts ask the same few questions over and over)."""
    return comb(pool_size - pool_hits, draws) / comb(pool_size, draws)


class _Tables:
    """What the heuristic looks up about one setup's cards, built once per setup."""

    __slots__ = ("attack_keys", "defence_keys", "discard_value", "stop_sets", "stops")

    def __init__(self, setup: Setup) -> None:
        kinds = setup.kinds
        # stops[side][immobilizes]: kinds ``side`` may use that answer an attack (an Evade always,
        # a Block unless the attack immobilizes)
        stops = []
        for side in (0, 1):
            usable = setup.usable[side]
            per = tuple(tuple(sorted(k for k in usable if kinds[k].is_evade or (kinds[k].is_block and not imm)))
                        for imm in (False, True))
            stops.append(per)
        self.stops: tuple[tuple[tuple[int, ...], ...], ...] = tuple(stops)
        self.stop_sets = tuple(tuple(frozenset(s) for s in per) for per in stops)
        # per side: keys of the usable defence and attack cards, and what each card is worth
        # kept when discarding (None: a usable defence, worth depends on the other defences)
        self.defence_keys = tuple(frozenset(c.key for k, c in enumerate(kinds) if k in setup.usable[side]
                                            and c.is_defence) for side in (0, 1))
        self.attack_keys = tuple(frozenset(c.key for k, c in enumerate(kinds) if k in setup.usable[side]
                                           and c.is_attack) for side in (0, 1))
        values = []
        for side in (0, 1):
            v: dict[str, float | None] = {}
            for k, c in enumerate(kinds):
                if k not in setup.usable[side]:
                    v[c.key] = -1.0
                elif c.is_defence:
                    v[c.key] = None
                else:
                    v[c.key] = c.damage + (2.0 if c.immobilize else 0.0) - (1.0 if c.no_attack_next_turn else 0.0)
            values.append(v)
        self.discard_value = tuple(values)


_SURE = 1e-6
"""A margin far above float rounding in the attack values (they are at most a few dozen)."""


class GladiusHeuristic(Agent):
    name = "heuristic"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        # the last options object seen, with its setup and tables (rollouts ask for the same
        # options at every move, and game.setup() hashes them every time)
        self._last: tuple[Any, Setup, _Tables] | None = None

    def _lookup(self, view: SeatView) -> tuple[Setup, _Tables]:
        options = view.options
        last = self._last
        if last is not None and last[0] is options:
            return last[1], last[2]
        setup: Setup = view.game.setup(options)  # type: ignore[attr-defined]
        tab = derived(setup, _Tables)
        # kept only for immutable options on the built-in sets (user set files may change)
        if type(options) is GladiusOptions and not options.card_sets:
            self._last = (options, setup, tab)
        return setup, tab

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        obs: GladiusObservation = view.observation
        setup, tab = self._lookup(view)
        phase = obs.phase
        if phase == "attack":
            return self._attack(obs, setup, legal, tab)
        if phase == "discard":
            return self._discard(obs, setup, legal, tab)
        if phase == "defend":
            return self._defend(obs, setup, legal, tab)
        return legal[0]  # pragma: no cover - Gladius has no other decisions

    # ----------------------------------------------------------------- counting
    def _pool(self, obs: GladiusObservation, setup: Setup) -> list[int]:
        """Copies of each kind that are unaccounted for (deck or the opponent's unknown cards)."""
        pool = list(setup.kind_counts)
        idx = setup.index
        for key in obs.hand:
            pool[idx[key]] -= 1
        for key in obs.mini_hand:
            pool[idx[key]] -= 1
        for key in obs.opponent_known:
            pool[idx[key]] -= 1
        if obs.table is not None:
            pool[idx[obs.table]] -= 1
        for key, n in obs.discard:
            pool[idx[key]] -= n
        return pool

    def _p_stopped(self, obs: GladiusObservation, setup: Setup, attack: Card, pool: list[int]) -> float:
        """How likely the opponent answers ``attack`` (it may use only its own type's cards)."""
        tab = derived(setup, _Tables)
        return self._p_stop(obs, setup, tab, 1 if attack.immobilize else 0, pool, sum(pool))

    @staticmethod
    def _p_stop(obs: GladiusObservation, setup: Setup, tab: _Tables, immobilizes: int, pool: list[int],
                pool_size: int) -> float:
        opp = 1 - obs.seat  # type: ignore[operator]
        pool_hits = 0
        for k in tab.stops[opp][immobilizes]:
            pool_hits += pool[k]
        if obs.solo:
            return p_holds_any(0, pool_hits, pool_size, setup.mini_def)
        known = 0
        if obs.opponent_known:
            stops = tab.stop_sets[opp][immobilizes]
            idx = setup.index
            known = sum(1 for key in obs.opponent_known if idx[key] in stops)
        return p_holds_any(known, pool_hits, pool_size, obs.opponent_unknown)

    # ----------------------------------------------------------------- decisions
    def _attack(self, obs: GladiusObservation, setup: Setup, legal: tuple[Action, ...],
                tab: _Tables | None = None) -> Action:
        me = obs.seat
        assert me is not None
        if tab is None:
            tab = derived(setup, _Tables)
        kinds, idx = setup.kinds, setup.index
        cards = [(a, kinds[idx[a.card]]) for a in legal if isinstance(a, Attack) and a.card]
        best: Action = legal[-1]
        if not cards:
            return best
        # with the attack compulsory "no attack" is not offered (legal[-1] is then a card): the
        # best-valued card is played however low its value
        may_pass = best.card is None  # type: ignore[attr-defined]
        best_value = 0.1 if may_pass else -math.inf
        opp_hp = obs.hit_points[1 - me]
        damage_cards = [c for _, c in cards if c.damage]
        # what each attack is worth if it lands (gain) and if it is stopped (foiled)
        scored = []
        for action, c in cards:
            gain = float(c.damage)
            if c.damage >= opp_hp:
                gain += 20.0
            if c.immobilize:
                # the extra turn is worth most with a damage card to follow it
                follow = max((d.damage for d in damage_cards if d is not c), default=0)
                gain += 1.0 + 0.5 * follow
            if c.no_attack_next_turn:
                gain -= 1.5
            scored.append((action, c, gain, 0.6 - 0.15 * c.damage))
        if len(scored) == 1 and may_pass:
            # the value (1 - p) * gain + p * foiled lies between gain and foiled whatever the
            # chance p of a stop, so when both beat the bar (or both miss it) by far more than
            # rounding, the choice is made without counting cards
            action, c, gain, foiled = scored[0]
            bar = best_value + 1e-9
            if gain > bar + _SURE and foiled > bar + _SURE:
                return action
            if gain < bar - _SURE and foiled < bar - _SURE:
                return best
        pool = self._pool(obs, setup)
        pool_size = sum(pool)
        stopped: list[float | None] = [None, None]  # the chance depends only on whether it immobilizes
        for action, c, gain, foiled in scored:
            imm = 1 if c.immobilize else 0
            p = stopped[imm]
            if p is None:
                p = stopped[imm] = self._p_stop(obs, setup, tab, imm, pool, pool_size)
            value = (1.0 - p) * gain + p * foiled
            if value > best_value + 1e-9:
                best, best_value = action, value
        return best

    def _defend(self, obs: GladiusObservation, setup: Setup, legal: tuple[Action, ...],
                tab: _Tables | None = None) -> Action:
        me = obs.seat
        assert me is not None and obs.table is not None
        if tab is None:
            tab = derived(setup, _Tables)
        kinds, idx = setup.kinds, setup.index
        attack = kinds[idx[obs.table]]
        options = [(a, kinds[idx[a.card]]) for a in legal if isinstance(a, Defend) and a.card]
        if not options:
            return legal[-1]
        if len(options) == 1:
            action, card = options[0]
        else:  # Blocks first: an Evade costs an attack (the cards differ, so min is the sorted first)
            action, card = min(options, key=lambda ac: (ac[1].is_evade, ac[0].card))
        hp = obs.hit_points[me]
        if attack.damage >= hp or (attack.damage and hp - attack.damage <= 3):
            return action  # lethal or close to it: stop it with anything
        defence_keys = tab.defence_keys[me]
        held_defences = sum(1 for key in obs.hand if key in defence_keys)
        attack_keys = tab.attack_keys[me]
        holds_attack = any(key in attack_keys for key in obs.hand)
        threat = attack.damage + (2.5 if attack.immobilize else 0.0)
        # what the card is worth if kept: more when it is my last defence, nothing when the
        # hand is so full that it would soon be discarded anyway
        keep = 2.5 if held_defences <= 1 else 1.5 if held_defences == 2 else 0.8
        if len(obs.hand) >= obs.hand_limit:
            keep = min(keep, 0.8)
        cost = keep + (1.5 if card.is_evade and holds_attack else 0.0)
        return action if threat >= cost else legal[-1]

    def _discard(self, obs: GladiusObservation, setup: Setup, legal: tuple[Action, ...],
                 tab: _Tables | None = None) -> Action:
        me = obs.seat
        assert me is not None
        if tab is None:
            tab = derived(setup, _Tables)
        defence_keys = tab.defence_keys[me]
        defences = sum(1 for key in obs.hand if key in defence_keys)
        kept = 2.6 if defences <= 2 else 1.4  # what a usable defence is worth
        values = tab.discard_value[me]

        def value(action: Action) -> tuple[float, str]:
            assert isinstance(action, Discard)
            v = values[action.card]
            return (kept if v is None else v, action.card)

        return min(legal, key=value)
