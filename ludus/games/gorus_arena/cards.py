"""Gorus Arena cards: the catalogue read from ``data/cards.toml`` and per-card lookup tables.

Every physical card has a fixed integer id so that card sets are bitmasks and records can
name cards. Ids do not depend on the player count: the basic cards of all five possible
seats always have ids (seat by seat), then come the market gladiators and the armoury's
action cards. A game with fewer players simply never uses the basics of the empty seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from ...core.errors import DataError
from ...core.tomldata import line_map, line_of, load_toml

__all__ = [
    "ACTIONS", "ACTION_KINDS", "ACTION_MASK", "ARMOURY_FIRST", "ARMOURY_MASK", "BASICS_PER_SEAT", "CARD",
    "CARD_FIELDS", "COINS_PER_POINT", "COST", "DEFENCE", "GLADIATOR_MASK", "KEY", "KINDS", "KIND_BY_KEY", "KIND_MASK",
    "MARKET_FIRST", "MARKET_MASK", "MAX_SEATS", "NAME", "NUM_CARDS", "POINTS", "PRINTED_FIELDS", "STRENGTH",
    "ActionEntry", "CardFile", "CardKind", "GladiatorEntry", "basics_of", "card_label", "cards_of", "kinds_in",
    "ours_fields", "parse_catalogue", "points_of",
]

MAX_SEATS = 5
COINS_PER_POINT = 3
"""Coins worth one point at the end (a seat's score counts its gladiators' points and its coins)."""
ActionKind = Literal["attack", "defence", "recruit", "income"]
ACTION_KINDS: tuple[str, ...] = get_args(ActionKind)


@dataclass(frozen=True)
class CardKind:
    """One kind of card as printed; a kind has one or more physical copies (ids)."""

    key: str
    name: str
    gladiator: bool
    cost: int
    defence: int
    points: int
    strength: int
    actions: tuple[str, ...]
    basic: int
    copies: int
    note: str
    printed: tuple[str, ...] = ()
    """The fields whose value the source text gives (``name``, ``cost``...); every other value is ours."""

    @property
    def summary(self) -> str:
        """A one-line description such as ``attack 3 · cost 3 · def 3 · 2 pts``."""
        act = "/".join(self.actions)
        if self.gladiator:
            return f"{act} {self.strength} · cost {self.cost} · def {self.defence} · {self.points} pts"
        return f"{act} {self.strength} · cost {self.cost} · action card"


# ----------------------------------------------------------------- the file format (data/cards.toml)
# whole numbers in a range: TOML's ``true``, ``2.0`` and ``"2"`` are refused, as before
Cost = Annotated[StrictInt, Field(ge=0, le=20)]
Copies = Annotated[StrictInt, Field(ge=0, le=20)]
Strength = Annotated[StrictInt, Field(ge=1, le=5)]
Defence = Annotated[StrictInt, Field(ge=1, le=5)]
Points = Annotated[StrictInt, Field(ge=0, le=10)]
Basic = Annotated[StrictInt, Field(ge=0, le=MAX_SEATS)]
PrintedField = Literal["name", "cost", "defence", "points", "strength", "actions"]
PRINTED_FIELDS: tuple[str, ...] = get_args(PrintedField)


class ActionEntry(BaseModel):
    """One ``[[action]]`` table: an action card of the armoury (no defence, no points, never basic)."""

    model_config = ConfigDict(extra="forbid")

    key: StrictStr = Field(min_length=1)
    name: StrictStr | None = None
    """Printed name; the key when left out."""
    actions: list[ActionKind] = Field(min_length=1, max_length=2)
    cost: Cost = 0
    strength: Strength
    copies: Copies = 0
    note: StrictStr = ""
    printed: list[PrintedField] = []
    """Fields whose value comes from the source text; the page marks every other value as ours."""


class GladiatorEntry(ActionEntry):
    """One ``[[gladiator]]`` table: a gladiator, dealt to every seat (``basic``) or sold in the market."""

    defence: Defence
    points: Points = 0
    basic: Basic = 0


class CardFile(BaseModel):
    """The whole of ``cards.toml``: the gladiators, then the action cards, in id order."""

    model_config = ConfigDict(extra="forbid")

    gladiator: list[GladiatorEntry] = []
    action: list[ActionEntry] = []


def parse_catalogue(text: str, source: str = "cards.toml") -> tuple[CardKind, ...]:
    """Read and check the card list; any problem raises DataError naming the file, line and card.

    The model checks each field; what it cannot (keys unique across both families, an action
    listed twice or beside ``defence``, a basic card also sold, some basic card at all) is
    checked here, naming the line from :func:`~ludus.core.tomldata.line_of`.
    """
    data = load_toml(text, source, CardFile, DataError)
    lines = line_map(text)

    def fail(loc: tuple[str | int, ...], problem: str) -> DataError:
        return DataError(f"{source}, line {line_of(lines, loc)}: {problem}")

    kinds: list[CardKind] = []
    seen: set[str] = set()
    families: tuple[tuple[str, list[GladiatorEntry] | list[ActionEntry]], ...] = (
        ("gladiator", data.gladiator), ("action", data.action),
    )
    for family, entries in families:
        for i, entry in enumerate(entries):
            where = f"{family} {i + 1} ({entry.key!r})"
            if entry.key in seen:
                raise fail((family, i, "key"), f"{where}: key: used twice")
            seen.add(entry.key)
            if len(set(entry.actions)) != len(entry.actions):
                raise fail((family, i, "actions"), f"{where}: actions: an action is listed twice")
            if "defence" in entry.actions and len(entry.actions) > 1:
                raise fail((family, i, "actions"), f"{where}: actions: a defence card carries no other action")
            if len(set(entry.printed)) != len(entry.printed):
                raise fail((family, i, "printed"), f"{where}: printed: a field is listed twice")
            if not isinstance(entry, GladiatorEntry) and {"defence", "points"} & set(entry.printed):
                raise fail((family, i, "printed"), f"{where}: printed: an action card has no defence or points")
            glad = entry if isinstance(entry, GladiatorEntry) else None
            kind = CardKind(
                key=entry.key,
                name=entry.key if entry.name is None else entry.name,
                gladiator=glad is not None,
                cost=entry.cost,
                defence=glad.defence if glad else 0,
                points=glad.points if glad else 0,
                strength=entry.strength,
                actions=tuple(entry.actions),
                basic=glad.basic if glad else 0,
                copies=entry.copies,
                note=entry.note,
                printed=tuple(entry.printed),
            )
            if kind.basic and kind.copies:
                raise fail((family, i, "copies"), f"{where}: copies: a basic card is not also sold in the market")
            kinds.append(kind)
    if not any(k.basic for k in kinds):
        raise fail(("gladiator", 0, "basic"), "no basic gladiators to start with (give one a 'basic' count)")
    return tuple(kinds)


def _load() -> tuple[CardKind, ...]:
    text = resources.files(__package__).joinpath("data", "cards.toml").read_text(encoding="utf-8")
    return parse_catalogue(text)


KINDS: tuple[CardKind, ...] = _load()
KIND_BY_KEY: dict[str, CardKind] = {k.key: k for k in KINDS}

# ----------------------------------------------------------------- ids
_ids: list[CardKind] = []
BASICS_PER_SEAT = sum(k.basic for k in KINDS)
for _seat in range(MAX_SEATS):
    for _k in KINDS:
        _ids.extend([_k] * _k.basic)
MARKET_FIRST = len(_ids)
for _k in KINDS:
    if _k.gladiator:
        _ids.extend([_k] * _k.copies)
ARMOURY_FIRST = len(_ids)
for _k in KINDS:
    if not _k.gladiator:
        _ids.extend([_k] * _k.copies)
NUM_CARDS = len(_ids)

CARD: tuple[CardKind, ...] = tuple(_ids)
"""Card id -> its kind."""
KEY = tuple(k.key for k in CARD)
NAME = tuple(k.name for k in CARD)
STRENGTH = tuple(k.strength for k in CARD)
DEFENCE = tuple(k.defence for k in CARD)
POINTS = tuple(k.points for k in CARD)
COST = tuple(k.cost for k in CARD)
ACTIONS = tuple(k.actions for k in CARD)

MARKET_MASK = sum(1 << i for i in range(MARKET_FIRST, ARMOURY_FIRST))
ARMOURY_MASK = sum(1 << i for i in range(ARMOURY_FIRST, NUM_CARDS))
GLADIATOR_MASK = sum(1 << i for i, k in enumerate(CARD) if k.gladiator)
KIND_MASK: dict[str, int] = {k.key: 0 for k in KINDS}
for _i, _k in enumerate(CARD):
    KIND_MASK[_k.key] |= 1 << _i
ACTION_MASK: dict[str, int] = {
    a: sum(1 << i for i, k in enumerate(CARD) if a in k.actions) for a in ACTION_KINDS
}


def basics_of(seat: int) -> int:
    """The mask of the basic cards seat ``seat`` starts with."""
    first = seat * BASICS_PER_SEAT
    return ((1 << BASICS_PER_SEAT) - 1) << first


def card_label(card: int) -> str:
    return f"{NAME[card]} ({'/'.join(ACTIONS[card])} {STRENGTH[card]})"


CARD_FIELDS: dict[bool, tuple[str, ...]] = {
    True: ("name", "cost", "defence", "points", "strength", "actions"),
    False: ("name", "cost", "strength", "actions"),
}
"""The values a card shows, for a gladiator (True) and an action card (False)."""


def ours_fields(kind: CardKind) -> tuple[str, ...]:
    """The values of ``kind`` that the source text does not give (chosen by Ludus): the terminal
    and the page mark them, and ``GAME.data_values`` lists them."""
    return tuple(f for f in CARD_FIELDS[kind.gladiator] if f not in kind.printed)


_KIND_MASKS = tuple((k.key, KIND_MASK[k.key]) for k in KINDS)
_CARDS_OF: dict[int, tuple[int, ...]] = {}


def cards_of(mask: int) -> tuple[int, ...]:
    """The card ids in ``mask``, lowest first, as a shared tuple: observations and legal moves ask
    for the same few masks over and over, so each answer is kept (up to a bound)."""
    got = _CARDS_OF.get(mask)
    if got is None:
        if len(_CARDS_OF) >= 1 << 15:
            _CARDS_OF.clear()
        out = []
        m = mask
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        got = _CARDS_OF[mask] = tuple(out)
    return got


_POINTS_OF: dict[int, int] = {}


def points_of(gladiators: int) -> int:
    """The points of the cards in ``gladiators`` (a mask), kept like :func:`cards_of`."""
    got = _POINTS_OF.get(gladiators)
    if got is None:
        if len(_POINTS_OF) >= 1 << 15:
            _POINTS_OF.clear()
        got = _POINTS_OF[gladiators] = sum(POINTS[c] for c in cards_of(gladiators))
    return got


def kinds_in(mask: int) -> list[str]:
    """Distinct kinds present in ``mask``, in catalogue order."""
    return [key for key, kind in _KIND_MASKS if mask & kind]
