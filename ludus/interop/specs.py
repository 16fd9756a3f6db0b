"""Per-game facts the bridges need that the core protocol does not give: the full action
lists, bounds on game length, and which observation encoder to use.

A game gives them in one of two ways: its ``Game`` defines ``action_space(options)`` and
``max_game_length(options)`` itself (see :mod:`.action_space`), or its plugin names an
:class:`~ludus.core.plugin.InteropSpec` (actions written in the game's JSON action format).
"""

from __future__ import annotations

from typing import Any

from ..core.encoding import ObservationEncoder
from ..core.errors import LudusError
from ..core.game import Game
from ..core.plugin import InteropSpec, PluginError
from ..games import get_plugin, observation_encoder
from .action_space import InteropError

__all__ = ["GameSpec", "encoder_for", "spec_for"]

GameSpec = InteropSpec  # the name this module used before specs moved into the game packages


def _declared(game: Game) -> InteropSpec | None:
    try:
        spec = get_plugin(game.name).load("interop")
    except PluginError as exc:
        raise InteropError(str(exc)) from exc
    except LudusError:  # a Game made outside the registry (tests, notebooks)
        return None
    if spec is not None and not isinstance(spec, InteropSpec):
        raise InteropError(f"{game.title}: its plugin's interop part is not an InteropSpec")
    return spec


def spec_for(game: Game) -> InteropSpec:
    spec = _declared(game)
    if spec is None:
        raise InteropError(
            f"{game.title} has no interop spec: give the game action_space(options) and "
            "max_game_length(options), or name an InteropSpec in its plugin"
        )
    return spec


def encoder_for(game: Game, options: Any) -> ObservationEncoder:
    """The game's exact encoder if it has one, else the generic hashed encoder."""
    try:
        return observation_encoder(game, options)
    except PluginError as exc:
        raise InteropError(str(exc)) from exc
