"""Circus Maximus (3-5 players): the Game entry point that connects the parts of the engine.

Options are in :mod:`.options`, card data in :mod:`.cards`, actions in :mod:`.actions`, the
rules (the State) in :mod:`.rules`, observations in :mod:`.views`, positions in :mod:`.codec`
and determinization in :mod:`.sampler`. See ``docs/games/circus-maximus.md`` for the rules.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import DataError, RecordError
from ...core.game import Action, Game, SeatView
from ...core.provenance import DataValue
from ...core.rng import Rng
from ...i18n import N_
from .actions import action_from_json
from .cards import CardData, load_cards
from .codec import position_to_state
from .options import COLOURS, CircusMaximusOptions
from .rules import CircusMaximusState
from .sampler import state_from_observation

__all__ = ["GAME", "CircusMaximusGame"]


class CircusMaximusGame(Game):
    """Circus Maximus for 3-5 players, with the Caesar variant as an option."""

    name = "circus-maximus"
    compiled_module = f"{__package__}.compiled"  # search bots' playouts, compiled (numba)
    title = "Circus Maximus"
    summary = N_("Queue your traders for Caesar's favours, tickets and the visitors of three venues, "
                  "over three days of games")
    Options = CircusMaximusOptions
    min_seats = 3
    max_seats = 5

    def num_seats(self, options: Any) -> int:
        return self.parse_options(options).players

    def seat_names(self, options: Any) -> list[str]:
        return list(COLOURS[: self.num_seats(options)])

    def cards(self, options: CircusMaximusOptions) -> CardData:
        """The card data these options name (shipped file unless ``cards`` is set)."""
        return load_cards(options.cards or None)

    def data_values(self, options: Any = None) -> list[DataValue]:
        """The shipped card values the rulebook does not print (from its scoring example, or
        ours), as ``data/cards.toml`` marks them; a player's own card file lists none."""
        opts = self.parse_options(options if options is not None else {})
        if opts.cards:
            return []
        return self.cards(opts).data_values()

    def _new_state(self, options: CircusMaximusOptions, rng: Rng | None) -> CircusMaximusState:
        state = CircusMaximusState(self, options, rng, self.cards(options))
        state._setup_game()
        return state

    def _state_from_position(self, options: Any, rng: Rng | None, data: Any) -> CircusMaximusState:
        try:
            cards = self.cards(options)
        except DataError as exc:
            raise RecordError(f"position option 'cards': {exc}") from exc
        return position_to_state(self, options, rng, data, cards)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)

    def sample_state(self, view: SeatView, rng: Rng) -> CircusMaximusState:
        """Rebuild the state from the (complete, public) observation; future draws use ``rng``.

        Decks are unordered, so nothing is hidden and no card needs to be guessed: the copy
        differs from the real state at most in which card ids of one kind sit where, which
        no rule can tell apart.
        """
        return state_from_observation(self, view.options, view.observation, rng.spawn())


GAME = CircusMaximusGame()
