"""Circus Maximus options: the player count, the Caesar variant and the card-data file.

Kept apart from the rules so that the Game, the codec and the agents can read and check
options without loading the engine; :data:`COLOURS` are the seat colours, one per player
the ``players`` option allows.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.errors import InvalidOptions
from ...core.options import option

__all__ = ["COLOURS", "CircusMaximusOptions"]

COLOURS = ("Yellow", "Red", "Blue", "Green", "Purple")


@dataclass(frozen=True)
class CircusMaximusOptions:
    players: int = option(4, "number of players", min=3, max=5)
    caesar: bool = option(False, "experienced variant: Caesar is shuffled in with the visitors")
    cards: str = option("", "card-data TOML file to use instead of the shipped, partly provisional one",
                        host_path=True)

    def __post_init__(self) -> None:
        if not 3 <= self.players <= 5:
            raise InvalidOptions(f"Circus Maximus is for 3 to 5 players, not {self.players}")
