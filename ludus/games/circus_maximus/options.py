"""Circus Maximus options: the player count, the Caesar variant, the starting-player card's
reading and the card-data file.

Kept apart from the rules so that the Game, the codec and the agents can read and check
options without loading the engine; :data:`COLOURS` are the seat colours, one per player
the ``players`` option allows.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.errors import InvalidOptions, Message
from ...core.options import option
from ...i18n import N_

__all__ = ["COLOURS", "START_CARD_READINGS", "CircusMaximusOptions"]

COLOURS = ("Yellow", "Red", "Blue", "Green", "Purple")

START_CARD_READINGS = ("instead", "extra-pick")
"""How the starting-player card is won at Caesar's Villa. ``instead`` (the rulebook's text): a
picker may take it instead of a favour, picks end when the favours are gone, and a card nobody
chose goes to the owner of the first trader in line. ``extra-pick`` (the engine before issue
16, which the rulebook's worked example also fits): the card is one more item of the display,
so picks go on until it is taken, and a later trader may have to take it."""


@dataclass(frozen=True)
class CircusMaximusOptions:
    players: int = option(4, "number of players", min=3, max=5)
    caesar: bool = option(False, "experienced variant: Caesar is shuffled in with the visitors")
    start_card: str = option(
        "instead", "starting-player card at the villa: 'instead' of a favour (unchosen, it goes to the "
        "first trader in line), or an 'extra-pick' after the favours", choices=START_CARD_READINGS,
        legacy="extra-pick")
    cards: str = option("", "card-data TOML file to use instead of the shipped one (whose values not "
                        "printed in the rulebook are marked)", host_path=True)

    def __post_init__(self) -> None:
        if not 3 <= self.players <= 5:
            raise InvalidOptions(Message(N_("Circus Maximus is for {low} to {high} players, not {players}"), low=3,
                                         high=5, players=self.players))
