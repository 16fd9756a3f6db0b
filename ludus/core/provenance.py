"""Where a game's numbers come from: printed in the rulebook, worked out from one of its
examples, or chosen by Ludus.

The rulebooks leave some values out (a card's worth, a price, a strength). Ludus has to play
with *some* value there, and a player must be able to tell which numbers are the designers'
and which are ours. A game lists every value that is not printed as a :class:`DataValue`
through :meth:`ludus.core.game.Game.data_values`; ``ludus games``, the terminal view, the
rules panel and the card table all read that one list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..i18n import N_

__all__ = ["EXAMPLE", "OURS", "PRINTED", "SOURCE_TEXT", "DataValue", "Source"]

Source = Literal["printed", "example", "ours"]
PRINTED: Source = "printed"
EXAMPLE: Source = "example"
OURS: Source = "ours"

SOURCE_TEXT: dict[Source, str] = {
    PRINTED: N_("printed in the rulebook"),
    EXAMPLE: N_("not printed; follows from a worked example in the rulebook"),
    OURS: N_("not printed; chosen by Ludus"),
}
"""One short explanation per source, for a mark's tooltip or a footnote."""


@dataclass(frozen=True)
class DataValue:
    """One value of a game's data and where it comes from.

    ``subject`` names what the value belongs to as a player would say it ("Crowd Favour of
    rank 13", "Trader 4: coins at the Forum"), ``value`` is the value as shown, and ``note``
    says briefly why it is what it is (the constraint a worked example gives, the reasoning
    behind our choice).
    """

    subject: str
    value: str
    source: Source
    note: str = ""

    @property
    def provisional(self) -> bool:
        """True for a value the rulebook does not print (from an example or ours)."""
        return self.source != PRINTED

    def to_json(self) -> dict[str, str]:
        return {"subject": self.subject, "value": self.value, "source": self.source, "note": self.note}
