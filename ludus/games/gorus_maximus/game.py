"""Gorus Maximus: the game's entry point, connecting its parts.

:data:`GAME` is what the plugin names (``__init__.py``); it starts states from
:mod:`.rules`, reads positions with :mod:`.codec`, actions with :mod:`.actions` and
determinizes views with :mod:`.sampler`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import InvalidOptions
from ...core.game import Action, Game, State
from ...core.options import with_legacy_values
from ...core.provenance import DataValue
from ...core.rng import Rng
from ...i18n import N_
from .actions import action_from_json
from .cards import RANKS_PER_SCHOOL, load_cf_table, setup_for
from .codec import position_to_state
from .options import MAX_PLAYERS, MIN_PLAYERS, GorusMaximusOptions, players_refusal
from .rules import GorusMaximusState
from .sampler import sample_state

__all__ = ["GAME", "GorusMaximusGame"]


class GorusMaximusGame(Game):
    name = "gorus-maximus"
    compiled_module = f"{__package__}.compiled"  # search bots' playouts, compiled (numba)
    title = "Gorus Maximus"
    summary = N_("Trick-taking for 1-8 players where a Challenge changes the preferred school mid-bout.")
    Options = GorusMaximusOptions
    min_seats = 1
    max_seats = 8

    def parse_options(self, values: Mapping[str, Any] | Any | None = None) -> Any:
        """As every game, but a player count out of range is refused with the rules' reason
        (the deck deals 10 to each of at most 8), not only the bounds the lobby also gets; and
        ``target`` given with ``teams`` is refused, naming ``team-target`` (teams play to that)."""
        if isinstance(values, self.Options):
            return values
        opts = self._parse_options(values)
        refusal = opts.target_refusal()
        if refusal:
            raise InvalidOptions(refusal)
        return opts

    def parse_stored_options(self, values: Mapping[str, Any] | None) -> Any:
        """As every game; a stored game that gave ``target`` with ``teams`` is still read (the
        target was ignored when it was played, and still is), so that its record replays."""
        return self._parse_options(with_legacy_values(self.Options, values))

    def _parse_options(self, values: Mapping[str, Any] | Any | None) -> Any:
        try:
            return super().parse_options(values)
        except InvalidOptions as exc:
            players = _whole_number(values.get("players")) if isinstance(values, Mapping) else None
            if players is not None and not MIN_PLAYERS <= players <= MAX_PLAYERS \
                    and str(exc).startswith("option 'players'"):
                raise InvalidOptions(players_refusal(players)) from exc
            raise

    def num_seats(self, options: GorusMaximusOptions) -> int:
        return options.players

    def seat_names(self, options: GorusMaximusOptions) -> list[str]:
        return ["You"] if options.solo else [f"Seat {i + 1}" for i in range(options.players)]

    def _new_state(self, options: GorusMaximusOptions, rng: Rng | None) -> GorusMaximusState:
        return GorusMaximusState(self, options, rng)

    def _state_from_position(self, options: GorusMaximusOptions, rng: Rng | None, data: Any) -> State:
        return position_to_state(self, options, rng, data)

    def data_values(self, options: Any = None) -> list[DataValue]:
        """The Crowd Favour values the rulebook does not print, for the ranks in this game's deck
        (every rank when no options are given); none with a ``cf-table`` of the player's own."""
        if options is None:
            return load_cf_table("").data_values(tuple(range(RANKS_PER_SCHOOL)))
        opts = self.parse_options(options)
        return load_cf_table(opts.cf_table).data_values(setup_for(opts.players).ranks)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)

    def sample_state(self, view: Any, rng: Rng) -> GorusMaximusState:
        """A determinization of a SeatView for search: the unseen cards dealt at random,
        consistent with all the seat knows (see :mod:`.sampler`)."""
        return sample_state(view, rng)


def _whole_number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        return None


GAME = GorusMaximusGame()
