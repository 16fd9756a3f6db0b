"""Gladius: two gladiators, one shared deck of attack and defence cards, ten hit points each.

This module is the entry point that connects the parts (:data:`GAME`): the options
(``options.py``), cards and fighter sets (``cards.py``), actions (``actions.py``), the rules
(``rules.py``, with their fast paths in ``fast.py``), observations (``views.py``), positions
(``codec.py``) and determinization for search (``sampler.py``). The rules as implemented,
and every reading of an unclear rule, are in ``docs/games/gladius.md``.
"""

from __future__ import annotations

from typing import Any

from ...core.game import Action, Game, SeatView, State
from ...core.rng import Rng
from .actions import action_from_json
from .codec import position_to_state
from .options import GladiusOptions
from .rules import GladiusState, Setup, build_setup, illegal_reason
from .sampler import sample_state
from .views import OVER, PHASE_OF, GladiusObservation

__all__ = ["GAME", "GladiusGame"]


class GladiusGame(Game):
    name = "gladius"
    title = "Gladius"
    summary = ("Two gladiators, one shared deck: maneuver, attack, defend, hit. Seven fighter types, "
               "solo rules with mini-hands, and user card sets (new fighters or animals).")
    Options = GladiusOptions
    min_seats = 1
    max_seats = 2

    def num_seats(self, options: GladiusOptions) -> int:
        return 1 if options.solo else 2

    def seat_names(self, options: GladiusOptions) -> list[str]:
        names = list(build_setup(options).names)
        return names[:1] if options.solo else names

    def setup(self, options: Any) -> Setup:
        """The deck and card tables for these options (for adapters and agents)."""
        return build_setup(self.parse_options(options))

    def _new_state(self, options: GladiusOptions, rng: Rng | None) -> GladiusState:
        st = GladiusState(self, options, rng, build_setup(options))
        st._start()
        return st

    def _state_from_position(self, options: GladiusOptions, rng: Rng | None, data: Any) -> State:
        return position_to_state(self, options, rng, data)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)

    def explain(self, view: SeatView, action: Action) -> str | None:
        """Why the viewing seat may not play ``action`` now, from its view alone (for clients)."""
        obs: GladiusObservation = view.observation
        setup = build_setup(view.options)
        held = {setup.index[k] for k in obs.hand}
        phase = PHASE_OF[obs.phase]
        if obs.to_act != view.seat:
            return "the game is over" if phase == OVER else "it is not your decision now"
        return illegal_reason(setup, phase=phase, side=view.seat, held=held, hand_size=len(obs.hand),
                              hand_limit=obs.hand_limit,
                              barred=-1 if obs.barred is None else setup.index[obs.barred],
                              pending=-1 if obs.table is None else setup.index[obs.table], action=action)

    def sample_state(self, view: SeatView, rng: Rng) -> State:
        return sample_state(self, view, rng)


GAME = GladiusGame()
