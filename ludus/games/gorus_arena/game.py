"""Gorus Arena, the game: the entry point that ties its parts together.

The rules live in :mod:`.rules` (the State), the moves in :mod:`.actions`, a seat's view
in :mod:`.views`, the position JSON in :mod:`.codec`, determinization in :mod:`.sampler`,
the options in :mod:`.options` and the cards in :mod:`.cards`.
"""

from __future__ import annotations

from typing import Any

from ...core.game import Action, Game, SeatView
from ...core.rng import Rng
from .actions import action_from_json
from .codec import position_to_state
from .options import GorusArenaOptions
from .rules import GorusArenaState, initial_state
from .sampler import sample_state

__all__ = ["GAME", "GorusArena"]


class GorusArena(Game):
    """The auction deck-builder read from the "Gorus Maximus" arena tutorial."""

    name = "gorus-arena"
    title = "Gorus Arena"
    summary = (
        "Plan your hand in secret, win auctions with strong cards, attack rival gladiators, "
        "recruit from the market and collect income; after 6 rounds living gladiators and coins score."
    )
    Options = GorusArenaOptions
    min_seats = 2
    max_seats = 5

    def num_seats(self, options: GorusArenaOptions) -> int:
        return options.players

    def _new_state(self, options: GorusArenaOptions, rng: Rng | None) -> GorusArenaState:
        return initial_state(self, options, rng)

    def _state_from_position(self, options: GorusArenaOptions, rng: Rng | None, data: Any) -> GorusArenaState:
        return position_to_state(self, options, rng, data)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data, self.max_seats)

    def sample_state(self, view: SeatView, rng: Rng) -> GorusArenaState:
        """Deal the viewer's unknowns at random: which of each rival's hidden cards lie face down
        in its plan (and in which order), which in its hand and which in its draw pile."""
        return sample_state(self, view, rng)


GAME = GorusArena()
