"""Gladius card sets: the data model, and the loader for set files (shipped and user-made).

Every fighter type's cards live in a TOML file, never in code, so that a user can add a
fighter or an animal with a file of their own. The loader checks a file completely before
anything of it is used, and names the file, the line and the problem when it refuses one.
The format is described in ``docs/games/gladius.md`` ("Card-set files").
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic_core import PydanticCustomError

from ...core.datafile import MiB, read_text
from ...core.errors import DataError, InvalidOptions
from ...core.memo import BoundedMemo
from ...core.tomldata import line_map, line_of, load_toml

__all__ = [
    "BUILTIN_SETS", "DATA_DIR", "DEFENCES", "MAX_COUNT", "MAX_SET_SIZE", "OURS_SETS", "SET_KINDS", "SHARED_ID",
    "Card", "CardSet", "CardSetError", "Catalogue", "SetFileModel",
    "builtin_catalogue", "load_catalogue", "parse_set", "read_set_file", "split_paths",
]

SHARED_ID = "both"
"""Id of the shared set: the cards every fighter may use (the rulebook's "B" cards)."""

SET_KINDS = ("fighter", "animal", "shared")
DEFENCES = ("block", "evade")
BUILTIN_SETS = ("secutor", "retiarius", "thracian", "murmillo", "dimachaeri", "samnite",
                "postulati", "lion")
"""Built-in fighter sets in display order (the lion is the project's example animal)."""
OURS_SETS: dict[str, str] = {
    "lion": "the rulebook suggests animal opponents with their own cards, hit points and mini-hands "
            "but prints none; the Lion is Ludus's own example",
}
"""Built-in sets that the rulebook does not print (every value in them is ours), with why. All
other built-in sets are printed card for card; a player's own files are theirs, not listed."""

DATA_DIR = Path(__file__).with_name("data")
_ID_PATTERN = r"^[a-z][a-z0-9_-]{0,31}$"
"""A set id: lowercase letters, digits, - or _, starting with a letter, at most 32 characters."""
MAX_COUNT = 99
MAX_SET_SIZE = 400


class CardSetError(DataError, InvalidOptions):
    """A card-set file that cannot be used; also an InvalidOptions, as it came from the options."""


@dataclass(frozen=True, slots=True)
class Card:
    """One kind of card (all its copies are alike). ``key`` names it in actions and records."""

    set_id: str
    name: str
    count: int
    type: str  # "attack" or "defence"
    damage: int = 0
    immobilize: bool = False
    defence: str = ""  # "block" or "evade" for defence cards
    no_attack_next_turn: bool = False

    @property
    def key(self) -> str:
        return f"{self.set_id}/{self.name}"

    @property
    def is_attack(self) -> bool:
        return self.type == "attack"

    @property
    def is_defence(self) -> bool:
        return self.type == "defence"

    @property
    def is_block(self) -> bool:
        return self.defence == "block"

    @property
    def is_evade(self) -> bool:
        return self.defence == "evade"

    def effect(self) -> str:
        """A few words on what the card does, e.g. "3 damage" or "Evade"."""
        if self.is_defence:
            return self.defence.capitalize()
        parts = []
        if self.damage:
            parts.append(f"{self.damage} damage")
        if self.immobilize:
            parts.append("Immobilize")
        text = " + ".join(parts)
        if self.no_attack_next_turn:
            text += "; no attack next turn"
        return text


@dataclass(frozen=True)
class CardSet:
    """The cards of one fighter type (or the shared set) and the type's own numbers."""

    id: str
    name: str
    kind: str
    cards: tuple[Card, ...]
    hit_points: int = 10
    solo_defence_hand: int = 2
    solo_attack_hand: int = 3
    shared_cards: frozenset[str] | None = None
    """Names of the shared cards this type may use; None means all of them."""
    note: str = ""
    source: str = ""

    @property
    def size(self) -> int:
        return sum(c.count for c in self.cards)

    def may_use_shared(self, name: str) -> bool:
        return self.shared_cards is None or name in self.shared_cards


@dataclass(frozen=True, eq=False)
class Catalogue:
    """The shared set and every fighter type available (built-in first, then user files)."""

    shared: CardSet
    fighters: Mapping[str, CardSet] = field(default_factory=dict)
    user_files: tuple[str, ...] = ()

    def fighter(self, type_id: str) -> CardSet:
        try:
            return self.fighters[type_id]
        except KeyError:
            known = ", ".join(self.fighters)
            raise InvalidOptions(f"unknown fighter type {type_id!r}; known types: {known}") from None


# --------------------------------------------------------------------------- loading
# The file format as pydantic models: types, ranges, text lengths and unknown keys are checked
# here (``load_toml`` names file and line); what relates several values is checked in
# ``parse_set`` after validation.


def _one_line(allow_empty: bool) -> AfterValidator:
    def check(value: str) -> str:
        if allow_empty and value == "":
            return value
        if not value.strip():
            raise PydanticCustomError("blank_text", "must not be blank")
        if any(ch in value for ch in "\n\r\t"):
            raise PydanticCustomError("multi_line_text", "must be on one line")
        return value.strip()
    return AfterValidator(check)


def _shared_cards(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    try:
        return handler(value)
    except ValidationError:
        raise PydanticCustomError("shared_cards", "must be true, false or a list of shared card names") from None


Name = Annotated[str, StringConstraints(strict=True, max_length=40), _one_line(False)]
Note = Annotated[str, StringConstraints(strict=True, max_length=200), _one_line(True)]
SetId = Annotated[str, StringConstraints(strict=True, pattern=_ID_PATTERN)]
Amount = Annotated[StrictInt, Field(ge=0, le=99)]
HandSize = Annotated[StrictInt, Field(ge=1, le=3)]
SharedCards = Annotated[StrictBool | list[StrictStr], WrapValidator(_shared_cards)]


class SetModel(BaseModel):
    """The ``[set]`` table of a card-set file."""

    model_config = ConfigDict(extra="forbid")
    id: SetId
    name: Name | None = None
    kind: Literal["fighter", "animal", "shared"] = "fighter"
    hit_points: Annotated[StrictInt, Field(ge=1, le=99)] = 10
    solo_defence_hand: HandSize = 2
    solo_attack_hand: HandSize = 3
    shared_cards: SharedCards = True
    note: Note = ""


class CardModel(BaseModel):
    """One ``[[card]]`` table; None is a key the file does not give (TOML has no null)."""

    model_config = ConfigDict(extra="forbid")
    name: Name
    count: Annotated[StrictInt, Field(ge=1, le=MAX_COUNT)]
    type: Literal["attack", "defence", "defense"]
    damage: Amount | None = None
    immobilize: StrictBool | None = None
    defence: Literal["block", "evade"] | None = None
    no_attack_next_turn: StrictBool | None = None


class SetFileModel(BaseModel):
    """A whole card-set file: one ``[set]`` table and its ``[[card]]`` tables."""

    model_config = ConfigDict(extra="forbid")
    set: SetModel
    card: list[CardModel] = Field(min_length=1)


_FIGHTER_ONLY = ("hit_points", "solo_defence_hand", "solo_attack_hand", "shared_cards")
_ATTACK_ONLY = ("damage", "immobilize", "no_attack_next_turn")


def parse_set(text: str, source: str, shared: CardSet | None = None) -> CardSet:
    """Parse and check one set file's text; ``shared`` is the shared set (for ``shared_cards``)."""
    model = load_toml(text, source, SetFileModel, CardSetError)

    def line(loc: tuple[str | int, ...]) -> int:
        return line_of(line_map(text), loc)

    def fail(loc: tuple[str | int, ...], problem: str) -> CardSetError:
        return CardSetError(f"{source}, line {line(loc)}: {problem}")

    head = model.set
    set_id = head.id
    if head.kind == "shared":
        for key in _FIGHTER_ONLY:
            if key in head.model_fields_set:
                raise fail(("set", key), f"the shared set has no {key} (it is not a fighter)")
    shared_cards: frozenset[str] | None
    if isinstance(head.shared_cards, bool):
        shared_cards = None if head.shared_cards else frozenset()
    else:
        shared_cards = frozenset(head.shared_cards)
        if shared is not None:
            names = {c.name for c in shared.cards}
            for x in head.shared_cards:
                if x not in names:
                    raise fail(("set", "shared_cards"), f"shared_cards names {x!r}, which is not a shared "
                                                        f"card (shared cards: {', '.join(sorted(names))})")
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(model.card):
        label = f"card {raw.name!r}"
        first = seen.setdefault(raw.name.lower(), i)
        if first != i:
            raise fail(("card", i, "name"), f"{label} appears twice in this set (first at line "
                                            f"{line(('card', first, 'name'))}); give one "
                                            f"entry a larger count instead")
        if raw.type == "attack":
            if raw.defence is not None:
                raise fail(("card", i, "defence"), f"{label} is an attack, so it cannot have a defence effect")
            damage, immob = raw.damage or 0, bool(raw.immobilize)
            if not damage and not immob:
                raise fail(("card", i), f"{label} is an attack that does nothing: give it damage "
                                        f"(1 or more) or immobilize = true")
            cards.append(Card(set_id, raw.name, raw.count, "attack", damage, immob, "",
                              bool(raw.no_attack_next_turn)))
        else:  # "defence", or "defense" as Americans write it
            for key in _ATTACK_ONLY:
                if getattr(raw, key) is not None:
                    raise fail(("card", i, key), f"{label} is a defence card, so it cannot have {key}")
            if raw.defence is None:
                raise fail(("card", i), f"{label}: a defence card needs defence = \"block\" or \"evade\"")
            cards.append(Card(set_id, raw.name, raw.count, "defence", defence=raw.defence))
    total = sum(c.count for c in cards)
    if total > MAX_SET_SIZE:
        raise fail(("set",), f"set {set_id!r} has {total} cards; at most {MAX_SET_SIZE} are allowed")
    name = head.name if head.name is not None else set_id.replace("-", " ").replace("_", " ").title()
    return CardSet(id=set_id, name=name, kind=head.kind, cards=tuple(cards), hit_points=head.hit_points,
                   solo_defence_hand=head.solo_defence_hand, solo_attack_hand=head.solo_attack_hand,
                   shared_cards=shared_cards, note=head.note, source=source)


def read_set_file(path: str | os.PathLike[str], shared: CardSet | None = None) -> CardSet:
    """Load one set file; any problem raises CardSetError naming the file (and line)."""
    return parse_set(read_text(path, MiB, "card-set file", CardSetError), str(path), shared)


@cache
def builtin_catalogue() -> Catalogue:
    """The shared set and the built-in fighter types (loaded once)."""
    shared = read_set_file(DATA_DIR / f"{SHARED_ID}.toml")
    fighters = {}
    for set_id in BUILTIN_SETS:
        s = read_set_file(DATA_DIR / f"{set_id}.toml", shared)
        if s.id != set_id:  # pragma: no cover - shipped data is tested
            raise CardSetError(f"{s.source}: id {s.id!r} does not match the file name")
        fighters[set_id] = s
    return Catalogue(shared=shared, fighters=fighters)


def split_paths(text: str) -> tuple[str, ...]:
    """The ``card_sets`` option: comma-separated file paths (blank entries ignored)."""
    return tuple(p.strip() for p in text.split(",") if p.strip())


def _stamp(path: str) -> tuple[str, int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (path, -1, -1)
    return (path, st.st_mtime_ns, st.st_size)


def _set_line(path: str, key: str) -> int:
    """The line of ``key`` in the ``[set]`` table of ``path`` (for refusals made after loading)."""
    return line_of(line_map(read_text(path, MiB, "card-set file", CardSetError)), ("set", key))


def _build_catalogue(stamps: tuple[tuple[str, int, int], ...]) -> Catalogue:
    base = builtin_catalogue()
    paths = tuple(path for path, _, _ in stamps)
    fighters = dict(base.fighters)
    for path in paths:
        s = read_set_file(path, base.shared)
        if s.kind == "shared":
            raise CardSetError(f"{path}, line {_set_line(path, 'kind')}: a user set may be a fighter or an "
                               f"animal, not the shared set")
        if s.id in fighters:
            origin = "a built-in set" if s.id in base.fighters else f"another file ({fighters[s.id].source})"
            raise CardSetError(f"{path}, line {_set_line(path, 'id')}: set id {s.id!r} is already used by "
                               f"{origin}; choose another id")
        fighters[s.id] = s
    return Catalogue(shared=base.shared, fighters=fighters, user_files=paths)


_CATALOGUES: BoundedMemo[tuple[tuple[str, int, int], ...], Catalogue] = BoundedMemo(_build_catalogue, 64)
"""Catalogues of user files, by each file's path, modification time and size (oldest dropped first)."""


def load_catalogue(paths: Sequence[str] = ()) -> Catalogue:
    """The built-in sets plus the user set files ``paths``; all of them load, or none is used.

    Results are cached per file and modification time, so a game made many times from the
    same options reads the files once.
    """
    if not paths:
        return builtin_catalogue()
    return _CATALOGUES[tuple(_stamp(p) for p in paths)]
