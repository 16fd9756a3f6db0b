"""Gorus Arena actions: the moves a seat makes and the chance draws, with labels and JSON.

The player moves (planning a card, finishing a free plan, then attack, recruit, income or pass
for the acting card) and the chance outcomes (a draw from the own pile, a market draw) are
small frozen values; one shared instance of each exists (:data:`PLACE`, :data:`ATTACK`...),
so the rules build legal-move lists without allocating. Their JSON form and the reader of
actions from JSON live here beside them, so a record's actions need nothing of the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.errors import RecordError
from ...core.game import Action
from .cards import KIND_BY_KEY, KINDS, NAME, NUM_CARDS

__all__ = [
    "ATTACK",
    "DONE",
    "INCOME",
    "INCOME_ACTION",
    "PASS",
    "PICK",
    "PLACE",
    "RECRUIT",
    "Attack",
    "Done",
    "Draw",
    "Income",
    "MarketDraw",
    "Pass",
    "Pick",
    "Place",
    "Recruit",
    "action_from_json",
    "read_int",
    "seat_name",
]

INCOME = 2
"""Coins an income action brings."""


def seat_name(s: int) -> str:
    """How labels and the log name seat ``s`` (counted from 0): ``Seat 1``..."""
    return f"Seat {s + 1}"


def read_int(value: Any, lo: int, hi: int, what: str) -> int:
    """``value`` if it is an int (not a bool) from ``lo`` to ``hi - 1``; else a RecordError naming ``what``."""
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value < hi:
        raise RecordError(f"{what} must be a whole number from {lo} to {hi - 1}, got {value!r}")
    return value


# --------------------------------------------------------------------------- actions
@dataclass(frozen=True)
class Place(Action):
    """Planning: put a card of this kind from your hand next in your face-down plan."""

    card: str

    @property
    def label(self) -> str:
        kind = KIND_BY_KEY[self.card]
        return f"plan {kind.name} ({'/'.join(kind.actions)} {kind.strength})"

    def to_json(self) -> Any:
        return {"do": "place", "card": self.card}

    def visible_to(self, viewer: int | None, actor: int) -> bool:
        return False  # secret until the reveal; State._visible opens it afterwards


@dataclass(frozen=True)
class Done(Action):
    """Planning (free-plan option only): the plan is complete; keep the other cards in hand."""

    @property
    def label(self) -> str:
        return "finish plan"

    def to_json(self) -> Any:
        return {"do": "done"}

    def visible_to(self, viewer: int | None, actor: int) -> bool:
        return False


@dataclass(frozen=True)
class Attack(Action):
    """Execution: attack this gladiator (card id) with the acting card."""

    target: int

    @property
    def label(self) -> str:
        return f"attack {NAME[self.target]} #{self.target}"

    def to_json(self) -> Any:
        return {"do": "attack", "target": self.target}


@dataclass(frozen=True)
class Recruit(Action):
    """Execution: pay the cost and take a card of this kind from the market into your hand."""

    card: str

    @property
    def label(self) -> str:
        kind = KIND_BY_KEY[self.card]
        return f"recruit {kind.name} ({kind.cost} coin{'' if kind.cost == 1 else 's'})"

    def to_json(self) -> Any:
        return {"do": "recruit", "card": self.card}


@dataclass(frozen=True)
class Income(Action):
    """Execution: take 2 coins (offered only when the card could do something else too)."""

    @property
    def label(self) -> str:
        return f"take income ({INCOME} coins)"

    def to_json(self) -> Any:
        return {"do": "income"}


@dataclass(frozen=True)
class Pass(Action):
    """Execution: the acting card does nothing (its action is optional)."""

    @property
    def label(self) -> str:
        return "pass"

    def to_json(self) -> Any:
        return {"do": "pass"}


@dataclass(frozen=True)
class Pick(Action):
    """Refill (option ``refill=choose``): a player whose hand stayed empty takes this gladiator
    kind from the face-up market, free (public)."""

    card: str

    @property
    def label(self) -> str:
        return f"take {KIND_BY_KEY[self.card].name} from the market (free: your hand is empty)"

    def to_json(self) -> Any:
        return {"do": "pick", "card": self.card}


@dataclass(frozen=True)
class Draw(Action):
    """Chance: ``seat`` draws ``card`` from its own draw pile; only that seat sees which."""

    seat: int
    card: int

    @property
    def label(self) -> str:
        return f"{seat_name(self.seat)} draws {NAME[self.card]}"

    def to_json(self) -> Any:
        return {"do": "draw", "seat": self.seat, "card": self.card}

    def visible_to(self, viewer: int | None, actor: int) -> bool:
        return viewer == self.seat


@dataclass(frozen=True)
class MarketDraw(Action):
    """Chance: a seat whose hand stayed empty takes a random gladiator from the market (public)."""

    seat: int
    card: int

    @property
    def label(self) -> str:
        return f"{seat_name(self.seat)} takes {NAME[self.card]} from the market"

    def to_json(self) -> Any:
        return {"do": "market-draw", "seat": self.seat, "card": self.card}


PLACE = {k.key: Place(k.key) for k in KINDS}
RECRUIT = {k.key: Recruit(k.key) for k in KINDS}
PICK = {k.key: Pick(k.key) for k in KINDS if k.gladiator}
ATTACK = tuple(Attack(i) for i in range(NUM_CARDS))
DONE = Done()
INCOME_ACTION = Income()
PASS = Pass()


# --------------------------------------------------------------------------- reading JSON
def action_from_json(data: Any, max_seats: int) -> Action:
    """Read an action from its JSON form (:meth:`Action.to_json`); anything malformed raises
    RecordError. ``max_seats`` bounds the seat a chance draw names."""
    if not isinstance(data, dict):
        raise RecordError(f"an action must be an object like {{\"do\": \"pass\"}}, got {data!r}")
    do = data.get("do")
    if do in ("place", "recruit", "pick"):
        key = data.get("card")
        if not isinstance(key, str) or key not in KIND_BY_KEY:
            raise RecordError(f"unknown card kind {key!r}")
        if do == "pick":
            if key not in PICK:
                raise RecordError(f"{KIND_BY_KEY[key].name} is an action card; only gladiators refill a hand")
            return PICK[key]
        return PLACE[key] if do == "place" else RECRUIT[key]
    if do == "attack":
        return ATTACK[read_int(data.get("target"), 0, NUM_CARDS, "attack target")]
    if do == "done":
        return DONE
    if do == "income":
        return INCOME_ACTION
    if do == "pass":
        return PASS
    if do in ("draw", "market-draw"):
        seat = read_int(data.get("seat"), 0, max_seats, "draw seat")
        card = read_int(data.get("card"), 0, NUM_CARDS, "drawn card")
        return Draw(seat, card) if do == "draw" else MarketDraw(seat, card)
    raise RecordError(f"unknown action {data!r}")
