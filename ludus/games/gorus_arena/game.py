"""Gorus Arena, the game: the entry point that ties its parts together.

The rules live in :mod:`.rules` (the State), the moves in :mod:`.actions`, a seat's view
in :mod:`.views`, the position JSON in :mod:`.codec`, determinization in :mod:`.sampler`,
the options in :mod:`.options` and the cards in :mod:`.cards`.
"""

from __future__ import annotations

from typing import Any

from ...core.game import Action, Game, SeatView
from ...core.provenance import EXAMPLE, OURS, DataValue
from ...core.rng import Rng
from ...i18n import N_
from .actions import action_from_json
from .cards import CARD_FIELDS, KINDS, CardKind, ours_fields
from .codec import position_to_state
from .options import GorusArenaOptions
from .rules import GorusArenaState, initial_state
from .sampler import sample_state

__all__ = ["GAME", "GorusArena", "card_data_values"]

_EXAMPLE_NOTES = {
    ("tired-fighter", "defence"): N_("given only in the text's example of an attack (strength 3 kills it)"),
    ("professional", "cost"): N_("given only in the text's example of a recruit"),
}
"""The values the text gives, each inside one of its examples: kept as given."""


def _shown(kind: CardKind, field: str) -> str:
    value = getattr(kind, field)
    return " or ".join(value) if field == "actions" else str(value)


def card_data_values(kind: CardKind) -> list[DataValue]:
    """Where each value of one card kind comes from: the text's examples give two values (the
    Tired Fighter's defence, the Professional Gladiator's cost), three names are the text's, and
    every other value, and the number of copies in the market, is ours."""
    out: list[DataValue] = []
    for field in CARD_FIELDS[kind.gladiator]:
        if field not in ours_fields(kind):
            if field != "name":  # a number the text gives, always inside one of its examples
                note = _EXAMPLE_NOTES.get((kind.key, field), N_("given only in one of the text's examples"))
                out.append(DataValue(f"{kind.name}: {field}", _shown(kind, field), EXAMPLE, note))
        else:
            why = N_("the text names only the Tired Fighter, the Slave and the Professional Gladiator") \
                if field == "name" else N_("the source text gives no card list")
            out.append(DataValue(f"{kind.name}: {field}", _shown(kind, field), OURS, why))
    if not kind.basic:
        where = "market" if kind.gladiator else "armoury"
        note = (N_("the text says about fifty gladiators in all") if kind.gladiator
                else N_("the text lists action cards but not how many"))
        out.append(DataValue(f"{kind.name}: copies in the {where}", str(kind.copies), OURS, note))
    return out


class GorusArena(Game):
    """The auction deck-builder read from the "Gorus Maximus" arena tutorial."""

    name = "gorus-arena"
    compiled_module = f"{__package__}.compiled"  # search bots' playouts, compiled (numba)
    title = "Gorus Arena"
    summary = N_(
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

    def data_values(self, options: GorusArenaOptions | None = None) -> list[DataValue]:
        """Every card value the source text does not give: it has no card list, so all but five
        values (three names, a defence and a cost from its examples) are ours. Without the
        armoury the action cards are not in the game and not listed."""
        opts = options if options is not None else self.parse_options({})
        return [v for kind in KINDS if kind.gladiator or opts.armoury for v in card_data_values(kind)]

    def sample_state(self, view: SeatView, rng: Rng) -> GorusArenaState:
        """Deal the viewer's unknowns at random: which of each rival's hidden cards lie face down
        in its plan (and in which order), which in its hand and which in its draw pile."""
        return sample_state(self, view, rng)


GAME = GorusArena()
