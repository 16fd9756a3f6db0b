"""Gladius actions: the player moves and chance outcomes, their labels and their JSON form.

A card is named in actions by its key (``"set/Name"``), never by a physical copy: which
copy of a kind is played never matters. Chance outcomes (draws, the first player, forced
steps of the solo opponent) are actions too, so records and bridges treat them alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...core.errors import RecordError
from ...core.game import Action
from .cards import SHARED_ID

__all__ = [
    "NO_ATTACK", "NO_DEFENCE", "PLAYER_ACTIONS", "RESHUFFLE_ACTION", "AdversaryAttack", "AdversaryDefend",
    "Attack", "Defend", "Discard", "DrawCard", "FirstPlayer", "MiniDraw", "Reshuffle", "SkipTurn",
    "action_from_json", "card_label", "card_name",
]


def card_name(key: str) -> str:
    """The printed name in a card key ("secutor/Armor" -> "Armor")."""
    return key.split("/", 1)[1] if "/" in key else key


def card_label(key: str) -> str:
    """Name plus owner for fighter cards: several types have a card called Armor."""
    owner, _, name = key.partition("/")
    if not name or owner == SHARED_ID:
        return name or key
    return f"{name} ({owner.replace('-', ' ').replace('_', ' ').title()})"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Attack phase: play an attack card, or ``None`` for no attack."""

    card: str | None

    @property
    def label(self) -> str:
        return "No attack" if self.card is None else f"Attack: {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"attack": self.card}


@dataclass(frozen=True, slots=True)
class Defend(Action):
    """Defence phase: answer the attack with a defence card, or ``None`` to take it."""

    card: str | None

    @property
    def label(self) -> str:
        return "No defence" if self.card is None else f"Defend: {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"defend": self.card}


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Maneuver phase: discard a card (face up) to get down to the hand limit."""

    card: str

    @property
    def label(self) -> str:
        return f"Discard {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"discard": self.card}


@dataclass(frozen=True, slots=True)
class DrawCard(Action):
    """Chance: ``seat`` draws ``card`` (seen by that seat only)."""

    seat: int
    card: str

    @property
    def label(self) -> str:
        return f"Draw {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"draw": self.card, "seat": self.seat}

    def visible_to(self, viewer: int | None, actor: int) -> bool:
        return viewer == self.seat


@dataclass(frozen=True, slots=True)
class FirstPlayer(Action):
    """Chance (``first=random``): which fighter moves first."""

    seat: int

    @property
    def label(self) -> str:
        return f"Fighter {self.seat + 1} moves first"

    def to_json(self) -> Any:
        return {"first": self.seat}


@dataclass(frozen=True, slots=True)
class Reshuffle(Action):
    """Forced chance step: the discards become the new deck (public)."""

    @property
    def label(self) -> str:
        return "The discards are shuffled into a new deck"

    def to_json(self) -> Any:
        return {"reshuffle": True}


@dataclass(frozen=True, slots=True)
class SkipTurn(Action):
    """Forced chance step: an immobilized fighter loses this turn."""

    seat: int

    @property
    def label(self) -> str:
        return f"Fighter {self.seat + 1} is immobilized and loses the turn"

    def to_json(self) -> Any:
        return {"skip": self.seat}


@dataclass(frozen=True, slots=True)
class MiniDraw(Action):
    """Chance (solo): a card drawn face up into the automated opponent's mini-hand."""

    card: str

    @property
    def label(self) -> str:
        return f"Opponent's mini-hand: {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"mini": self.card}


@dataclass(frozen=True, slots=True)
class AdversaryAttack(Action):
    """Forced chance step (solo): the opponent attacks with its best card, or cannot."""

    card: str | None

    @property
    def label(self) -> str:
        return "Opponent has no attack" if self.card is None else f"Opponent attacks: {card_label(self.card)}"

    def to_json(self) -> Any:
        return {"adversary_attack": self.card}


@dataclass(frozen=True, slots=True)
class AdversaryDefend(Action):
    """Forced chance step (solo): the opponent defends from its mini-hand, or cannot."""

    card: str | None

    @property
    def label(self) -> str:
        return ("Opponent has no defence" if self.card is None
                else f"Opponent defends: {card_label(self.card)}")

    def to_json(self) -> Any:
        return {"adversary_defend": self.card}


NO_ATTACK = Attack(None)
NO_DEFENCE = Defend(None)
RESHUFFLE_ACTION = Reshuffle()
PLAYER_ACTIONS = (Attack, Defend, Discard)


def action_from_json(data: Any) -> Action:
    """The action of its JSON form (:meth:`Action.to_json`); RecordError for anything else."""
    if not isinstance(data, Mapping) or not data:
        raise RecordError(f"a Gladius action must be an object, not {data!r}")
    keys = set(data)

    def card(field: str, allow_none: bool) -> str | None:
        v = data[field]
        if v is None and allow_none:
            return None
        if not isinstance(v, str) or "/" not in v:
            raise RecordError(f"{field!r} must name a card as 'set/Name', not {v!r}")
        return v

    def seat(field: str) -> int:
        v = data[field]
        if not isinstance(v, int) or isinstance(v, bool) or v not in (0, 1):
            raise RecordError(f"{field!r} must be 0 or 1, not {v!r}")
        return v

    if keys == {"attack"}:
        return Attack(card("attack", True))
    if keys == {"defend"}:
        return Defend(card("defend", True))
    if keys == {"discard"}:
        return Discard(card("discard", False))  # type: ignore[arg-type]
    if keys == {"draw", "seat"}:
        return DrawCard(seat("seat"), card("draw", False))  # type: ignore[arg-type]
    if keys == {"mini"}:
        return MiniDraw(card("mini", False))  # type: ignore[arg-type]
    if keys == {"adversary_attack"}:
        return AdversaryAttack(card("adversary_attack", True))
    if keys == {"adversary_defend"}:
        return AdversaryDefend(card("adversary_defend", True))
    if keys == {"skip"}:
        return SkipTurn(seat("skip"))
    if keys == {"first"}:
        return FirstPlayer(seat("first"))
    if keys == {"reshuffle"}:
        if data["reshuffle"] is not True:
            raise RecordError("'reshuffle' must be true")
        return RESHUFFLE_ACTION
    raise RecordError(f"unknown Gladius action {dict(data)!r}")
