"""Games and options the interop tests run: every registered game, with options that keep games short."""

from __future__ import annotations

from ludus.games import game_names

SHORT: dict[str, dict] = {
    "gorus-maximus": {"players": 3, "target": 1},
    "gladius": {"turn_limit": 30},
    "circus-maximus": {"players": 3},
    "gorus-arena": {"players": 3, "rounds": 2},
}
"""Per game, options for a short game (a few dozen decisions where the rules allow)."""

GAMES = game_names()
"""Every game whose module is installed; each must have an entry in SHORT (a test checks)."""


def short(game: str) -> dict:
    return dict(SHORT.get(game, {}))
