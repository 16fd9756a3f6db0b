"""Gorus Arena cards: the catalogue read from ``data/cards.toml`` and per-card lookup tables.

Every physical card has a fixed integer id so that card sets are bitmasks and records can
name cards. Ids do not depend on the player count: the basic cards of all five possible
seats always have ids (seat by seat), then come the market gladiators and the armoury's
action cards. A game with fewer players simply never uses the basics of the empty seats.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

from ...core.errors import DataError

__all__ = [
    "ACTIONS", "ACTION_KINDS", "ACTION_MASK", "ARMOURY_FIRST", "ARMOURY_MASK", "BASICS_PER_SEAT", "CARD",
    "COST", "DEFENCE", "GLADIATOR_MASK", "KEY", "KINDS", "KIND_BY_KEY", "KIND_MASK", "MARKET_FIRST",
    "MARKET_MASK", "MAX_SEATS", "NAME", "NUM_CARDS", "POINTS", "STRENGTH", "CardKind", "basics_of",
    "card_label", "kinds_in", "parse_catalogue",
]

MAX_SEATS = 5
ACTION_KINDS = ("attack", "defence", "recruit", "income")


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

    @property
    def summary(self) -> str:
        """A one-line description such as ``attack 3 · cost 3 · def 3 · 2 pts``."""
        act = "/".join(self.actions)
        if self.gladiator:
            return f"{act} {self.strength} · cost {self.cost} · def {self.defence} · {self.points} pts"
        return f"{act} {self.strength} · cost {self.cost} · action card"


def _need_int(entry: dict, field: str, lo: int, hi: int, where: str) -> int:
    value = entry.get(field, 0)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise DataError(f"{where}: '{field}' must be a whole number from {lo} to {hi}, got {value!r}")
    return value


def parse_catalogue(text: str, source: str = "cards.toml") -> tuple[CardKind, ...]:
    """Read and check the card list; any problem raises DataError naming the card."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{source}: {exc}") from exc
    kinds: list[CardKind] = []
    seen: set[str] = set()
    for family in ("gladiator", "action"):
        for i, entry in enumerate(data.get(family, [])):
            where = f"{source}: {family} {i + 1}"
            key = entry.get("key")
            if not isinstance(key, str) or not key:
                raise DataError(f"{where}: needs a 'key'")
            where = f"{source}: {family} {key!r}"
            if key in seen:
                raise DataError(f"{where}: key used twice")
            seen.add(key)
            actions = entry.get("actions")
            if (not isinstance(actions, list) or not actions or len(actions) > 2
                    or any(a not in ACTION_KINDS for a in actions) or len(set(actions)) != len(actions)):
                raise DataError(f"{where}: 'actions' must list one or two of {', '.join(ACTION_KINDS)}")
            if "defence" in actions and len(actions) > 1:
                raise DataError(f"{where}: a defence card carries no other action")
            gladiator = family == "gladiator"
            basic = _need_int(entry, "basic", 0, 5, where) if gladiator else 0
            kind = CardKind(
                key=key,
                name=str(entry.get("name", key)),
                gladiator=gladiator,
                cost=_need_int(entry, "cost", 0, 20, where),
                defence=_need_int(entry, "defence", 1, 5, where) if gladiator else 0,
                points=_need_int(entry, "points", 0, 10, where) if gladiator else 0,
                strength=_need_int(entry, "strength", 1, 5, where),
                actions=tuple(actions),
                basic=basic,
                copies=_need_int(entry, "copies", 0, 20, where),
                note=str(entry.get("note", "")),
            )
            if kind.basic and kind.copies:
                raise DataError(f"{where}: a basic card is not also sold in the market")
            kinds.append(kind)
    if not any(k.basic for k in kinds):
        raise DataError(f"{source}: no basic gladiators to start with")
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


def kinds_in(mask: int) -> list[str]:
    """Distinct kinds present in ``mask``, in catalogue order."""
    return [k.key for k in KINDS if mask & KIND_MASK[k.key]]
