"""Gladius: two gladiators, one shared deck of attack and defence cards, ten hit points each.

This module is the entry point that connects the parts (:data:`GAME`): the options
(``options.py``), cards and fighter sets (``cards.py``), actions (``actions.py``), the rules
(``rules.py``, with their fast paths in ``fast.py``), observations (``views.py``), positions
(``codec.py``) and determinization for search (``sampler.py``). The rules as implemented,
and every reading of an unclear rule, are in ``docs/games/gladius.md``.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import Refusal
from ...core.game import Action, Game, SeatView, State
from ...core.provenance import OURS, DataValue
from ...core.rng import Rng
from ...i18n import N_
from .actions import action_from_json
from .cards import OURS_SETS
from .codec import position_to_state
from .options import GladiusOptions
from .rules import GAME_OVER, NOT_YOUR_DECISION, GladiusState, Setup, build_setup, illegal_reason
from .sampler import sample_state
from .views import OVER, PHASE_OF, GladiusObservation

__all__ = ["GAME", "GladiusGame"]


class GladiusGame(Game):
    name = "gladius"
    compiled_module = f"{__package__}.compiled"  # search bots' playouts, compiled (numba)
    title = "Gladius"
    summary = N_("Two gladiators, one shared deck: maneuver, attack, defend, hit. Seven fighter types, "
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

    def data_values(self, options: Any = None) -> list[DataValue]:
        """The values of the sets in play that the rulebook does not print: those of the Lion
        (``OURS_SETS``), when it fights. The seven gladiator sets, their 10 hit points, the
        shared cards, the starting hand of 2, the hand limit of 5 and the solo mini-hands of 2
        and 3 are all printed; a player's own card-set file is theirs and not listed."""
        opts = self.parse_options(options if options is not None else {})
        setup = build_setup(opts)
        out: list[DataValue] = []
        seen: set[str] = set()
        for side in setup.sides:
            why = OURS_SETS.get(side.id)
            if why is None or side.id in seen:
                continue
            seen.add(side.id)
            name = side.name
            out.append(DataValue(f"{name}: the whole set", f"{side.size} cards", OURS, why))
            if not opts.hit_points:  # else the option's number applies
                out.append(DataValue(f"{name}: hit points", str(side.hit_points), OURS,
                                     "tougher than a gladiator's printed 10"))
            if not opts.solo_defence_hand:
                out.append(DataValue(f"{name}: solo defence mini-hand", str(side.solo_defence_hand), OURS,
                                     "the solo rules use 2 and allow 1 to 3 depending on the type"))
            if not opts.solo_attack_hand:
                out.append(DataValue(f"{name}: solo attack mini-hand", str(side.solo_attack_hand), OURS,
                                     "the solo rules use 3 and allow 1 to 3 depending on the type"))
            shared = setup.catalogue.shared.cards
            usable = ", ".join(c.name for c in shared if side.may_use_shared(c.name)) or "none"
            out.append(DataValue(f"{name}: shared cards it may use", usable, OURS,
                                 "an animal does not kick, parry or disarm"))
            for c in side.cards:
                out.append(DataValue(f"{name}: {c.name}", f"{c.count} × {c.effect()}", OURS, ""))
        return out

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)

    def explain(self, view: SeatView, action: Action) -> str | None:
        """Why the viewing seat may not play ``action`` now, from its view alone (for clients)."""
        obs: GladiusObservation = view.observation
        setup = build_setup(view.options)
        held = {setup.index[k] for k in obs.hand}
        phase = PHASE_OF[obs.phase]
        if obs.to_act != view.seat:
            return (Refusal("the game is over", GAME_OVER) if phase == OVER
                    else Refusal("it is not your decision now", NOT_YOUR_DECISION))
        return illegal_reason(setup, phase=phase, side=view.seat, held=held, hand_size=len(obs.hand),
                              hand_limit=obs.hand_limit,
                              barred=-1 if obs.barred is None else setup.index[obs.barred],
                              pending=-1 if obs.table is None else setup.index[obs.table], action=action,
                              compulsory=view.options.attack == "compulsory")

    def sample_state(self, view: SeatView, rng: Rng) -> State:
        return sample_state(self, view, rng)


GAME = GladiusGame()
