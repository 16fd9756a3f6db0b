"""Gorus Maximus actions: a card played, and the chance outcomes (deals, reveals, schools).

The actions are what records, clients and agents exchange, so they live apart from the rules
that judge them: their labels, their JSON form and the reader of that JSON are here. Plays,
deals and reveals are interned (:data:`PLAY`, :data:`DEAL`, :data:`REVEAL`) so the hot loops
compare and hash shared objects instead of building new ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.errors import RecordError
from ...core.game import Action
from .cards import NUM_SCHOOLS, SCHOOLS, card_code, card_label, parse_card

__all__ = ["DEAL", "PLAY", "REVEAL", "ChooseSchools", "Deal", "Play", "Reveal", "action_from_json"]


class Play(Action):
    """Enter a gladiator from your troupe into the bout."""

    __slots__ = ("card",)
    card: int

    def __init__(self, card: int) -> None:
        object.__setattr__(self, "card", card)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("actions are immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is Play and other.card == self.card

    def __hash__(self) -> int:
        return hash(("play", self.card))

    def __repr__(self) -> str:
        return f"Play({card_code(self.card)})"

    @property
    def label(self) -> str:
        return card_label(self.card)

    def to_json(self) -> Any:
        return {"play": card_code(self.card)}


PLAY = tuple(Play(c) for c in range(NUM_SCHOOLS * 16))


@dataclass(frozen=True)
class Deal(Action):
    """Chance: one card dealt (or drawn from the 2-player pile) to a seat, seen only by it."""

    card: int
    seat: int

    @property
    def label(self) -> str:
        return f"deal {card_label(self.card)} to seat {self.seat + 1}"

    def to_json(self) -> Any:
        return {"deal": card_code(self.card), "to": self.seat}

    def visible_to(self, viewer: int | None, actor: int) -> bool:
        return viewer == self.seat


@dataclass(frozen=True)
class Reveal(Action):
    """Chance: the next contender card is turned face up (solo play)."""

    card: int

    @property
    def label(self) -> str:
        return f"contender plays {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"reveal": card_code(self.card)}


@dataclass(frozen=True)
class ChooseSchools(Action):
    """Chance: which schools make up the deck (1-4 players, random schools)."""

    schools: tuple[int, ...]

    @property
    def label(self) -> str:
        return "schools in play: " + ", ".join(SCHOOLS[s].name for s in self.schools)

    def to_json(self) -> Any:
        return {"schools": [SCHOOLS[s].code for s in self.schools]}


DEAL = tuple(tuple(Deal(c, seat) for seat in range(8)) for c in range(NUM_SCHOOLS * 16))
REVEAL = tuple(Reveal(c) for c in range(NUM_SCHOOLS * 16))


def action_from_json(data: Any) -> Action:
    """The action an action's JSON form (:meth:`Action.to_json`) names; RecordError if none."""
    try:
        if isinstance(data, dict):
            if set(data) == {"play"}:
                return PLAY[parse_card(data["play"])]
            to = data.get("to")
            if set(data) == {"deal", "to"} and isinstance(to, int) and not isinstance(to, bool) and 0 <= to < 8:
                return DEAL[parse_card(data["deal"])][data["to"]]
            if set(data) == {"reveal"}:
                return REVEAL[parse_card(data["reveal"])]
            if set(data) == {"schools"} and isinstance(data["schools"], list):
                return ChooseSchools(tuple(sorted(parse_card(c + "0") >> 4 for c in data["schools"])))
    except (ValueError, TypeError) as exc:
        raise RecordError(f"bad Gorus Maximus action {data!r}: {exc}") from exc
    raise RecordError(f"bad Gorus Maximus action {data!r}")
