"""A fixed integer for every action of a game, and the seat-order rule for simultaneous phases.

OpenSpiel, PettingZoo and Gymnasium all speak in action *numbers* drawn from a range that
is fixed when the game is made, while Ludus actions are small objects whose JSON form is
the stable, documented name (records store it). The bridge therefore needs, per game and
options, the complete list of player actions and of chance outcomes; an action's number
is its index in that list. Lists come from an *enumerator*:

* a game may provide ``action_space(options)`` returning ``(player_actions,
  chance_outcomes)`` as iterables of :class:`~ludus.core.game.Action`, and
  ``max_game_length(options)`` returning ``(max_decisions, max_chance_nodes)``;
* otherwise the game's plugin names an ``InteropSpec`` (see :mod:`ludus.interop.specs`), written
  against the game's JSON action format.

:func:`explore_actions` plays random games and collects the actions seen; tests use it to
check that an enumerator misses nothing that play can produce.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import LudusError
from ..core.game import CHANCE, Action, Game, State, action_key
from ..core.rng import Rng

__all__ = [
    "ActionSpace", "Bounds", "InteropError", "acting_seat", "action_key", "build_action_space", "explore_actions",
    "game_bounds",
]


class InteropError(LudusError):
    """A game cannot be bridged as asked (no enumerator, or an action outside its space)."""


class ActionSpace:
    """Numbered player actions and chance outcomes of one game with fixed options.

    Lookups go by the action object (actions are hashable) and fall back to the canonical
    JSON key, so an action rebuilt by ``action_from_json`` finds the same number.
    """

    def __init__(self, game: Game, player: Iterable[Action], chance: Iterable[Action]) -> None:
        self.game = game
        self.player: tuple[Action, ...] = tuple(player)
        self.chance: tuple[Action, ...] = tuple(chance)
        self._player_ids = self._index(self.player, "player action")
        self._chance_ids = self._index(self.chance, "chance outcome")
        self._player_keys = {action_key(a): i for i, a in enumerate(self.player)}
        self._chance_keys = {action_key(a): i for i, a in enumerate(self.chance)}
        self._json_cache: dict[Action, str] = {}
        self.player_names = self._names(self.player)
        self.chance_names = self._names(self.chance)

    @staticmethod
    def _names(actions: tuple[Action, ...]) -> tuple[str, ...]:
        """Each action's label, with its JSON added where labels repeat (OpenSpiel wants them distinct)."""
        labels = [a.label for a in actions]
        seen: dict[str, int] = {}
        for lab in labels:
            seen[lab] = seen.get(lab, 0) + 1
        return tuple(lab if seen[lab] == 1 else f"{lab} {action_key(a)}" for lab, a in zip(labels, actions))

    def _index(self, actions: tuple[Action, ...], what: str) -> dict[Action, int]:
        ids: dict[Action, int] = {}
        for i, a in enumerate(actions):
            if a in ids:
                raise InteropError(f"{self.game.name}: {what} {a!r} is listed twice in its action space")
            ids[a] = i
        return ids

    @property
    def num_player_actions(self) -> int:
        return len(self.player)

    @property
    def num_chance_outcomes(self) -> int:
        return len(self.chance)

    def player_id(self, action: Action) -> int:
        i = self._player_ids.get(action)
        if i is None:
            i = self._player_keys.get(action_key(action))
            if i is None:
                raise InteropError(f"{self.game.name}: action {action_key(action)} is missing from its action space")
            self._player_ids[action] = i
        return i

    def chance_id(self, action: Action) -> int:
        i = self._chance_ids.get(action)
        if i is None:
            i = self._chance_keys.get(action_key(action))
            if i is None:
                raise InteropError(
                    f"{self.game.name}: chance outcome {action_key(action)} is missing from its action space")
            self._chance_ids[action] = i
        return i

    def key(self, action: Action) -> str:
        """:func:`action_key`, memoised: the information-state strings render many actions."""
        k = self._json_cache.get(action)
        if k is None:
            k = self._json_cache[action] = action_key(action)
        return k


@dataclass(frozen=True)
class Bounds:
    """Most decisions and most chance nodes one game can have (OpenSpiel's MaxGameLength)."""

    decisions: int
    chance_nodes: int


def _from_json(game: Game, items: Iterable[Any]) -> list[Action]:
    return [game.action_from_json(item) for item in items]


def build_action_space(game: Game, options: Any) -> ActionSpace:
    """The action space of ``game`` with ``options``: the game's own enumerator, else ours."""
    options = game.parse_options(options)
    own = getattr(game, "action_space", None)
    if callable(own):
        player, chance = own(options)
        return ActionSpace(game, player, chance)
    from .specs import spec_for

    spec = spec_for(game)
    player_json, chance_json = spec.actions(options)
    return ActionSpace(game, _from_json(game, player_json), _from_json(game, chance_json))


def game_bounds(game: Game, options: Any) -> Bounds:
    """Upper bounds on the game's length, from the game itself if it says, else our spec."""
    options = game.parse_options(options)
    own = getattr(game, "max_game_length", None)
    if callable(own):
        decisions, chance_nodes = own(options)
        return Bounds(int(decisions), int(chance_nodes))
    from .specs import spec_for

    decisions, chance_nodes = spec_for(game).max_length(options)
    return Bounds(int(decisions), int(chance_nodes))


def acting_seat(state: State) -> int | None:
    """Who moves next once simultaneous phases are taken in seat order.

    ``CHANCE`` at a chance node, ``None`` at the end, else the lowest seat among those the
    game says may act now. A Ludus state accepts the moves of a simultaneous phase one seat
    at a time, and its own visibility rules hide each choice from the others, so taking
    them in seat order changes nothing a seat can know.
    """
    seats = state.current_seats()
    if not seats:
        return None
    if seats[0] == CHANCE:
        return CHANCE
    return min(seats)


def explore_actions(game: Game, options: Any, games: int, seed: int = 0,
                    max_steps: int = 100_000) -> tuple[set[str], set[str]]:
    """JSON keys of the player actions and chance outcomes met in ``games`` random games.

    Every legal action at every decision and every outcome at every chance node counts, not
    only the ones played, so a few games cover most of the space.
    """
    rng = Rng(seed)
    seen_player: set[str] = set()
    seen_chance: set[str] = set()
    for _ in range(games):
        state = game.new_initial_state(options, seed=None)
        for _step in range(max_steps):
            seat = acting_seat(state)
            if seat is None:
                break
            if seat == CHANCE:
                outcomes = state.chance_outcomes()
                seen_chance.update(action_key(a) for a, _ in outcomes)
                state.apply(state.sample_chance(rng), CHANCE)
                continue
            legal: Sequence[Action] = state.legal_actions(seat)
            seen_player.update(action_key(a) for a in legal)
            state.apply(rng.choice(legal), seat)
        else:
            raise InteropError(f"{game.name}: a random game did not end in {max_steps} steps")
    return seen_player, seen_chance
