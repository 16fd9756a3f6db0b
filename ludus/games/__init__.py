"""The registry of games. Each game lives in its own subpackage and is imported on demand."""

from __future__ import annotations

import importlib
import importlib.util

from ..core.errors import LudusError
from ..core.game import Game

# name -> "module:attribute" of its Game instance
_REGISTRY: dict[str, str] = {
    "gorus-maximus": "ludus.games.gorus_maximus.game:GAME",
    "gladius": "ludus.games.gladius.game:GAME",
    "circus-maximus": "ludus.games.circus_maximus.game:GAME",
    "gorus-arena": "ludus.games.gorus_arena.game:GAME",
}


class UnknownGame(LudusError):
    pass


def game_names() -> list[str]:
    """Names of the games whose module is present (in registry order)."""
    out = []
    for name, target in _REGISTRY.items():
        module = target.split(":")[0]
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:  # the game's package itself is absent
            found = False
        if found:
            out.append(name)
    return out


def get_game(name: str) -> Game:
    target = _REGISTRY.get(name)
    if target is None:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(game_names())}")
    module_name, attr = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise UnknownGame(f"game {name!r} is not installed ({exc})") from exc
    return getattr(module, attr)
