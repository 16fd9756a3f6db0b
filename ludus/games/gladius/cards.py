"""Gladius card sets: the data model, and the loader for set files (shipped and user-made).

Every fighter type's cards live in a TOML file, never in code, so that a user can add a
fighter or an animal with a file of their own. The loader checks a file completely before
anything of it is used, and names the file, the line and the problem when it refuses one.
The format is described in ``docs/games/gladius.md`` ("Card-set files").
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ...core.datafile import MiB, read_bytes, read_text
from ...core.errors import DataError, InvalidOptions

SHARED_ID = "both"
"""Id of the shared set: the cards every fighter may use (the rulebook's "B" cards)."""

SET_KINDS = ("fighter", "animal", "shared")
DEFENCES = ("block", "evade")
BUILTIN_SETS = ("secutor", "retiarius", "thracian", "murmillo", "dimachaeri", "samnite",
                "postulati", "lion")
"""Built-in fighter sets in display order (the lion is the project's example animal)."""

DATA_DIR = Path(__file__).with_name("data")
_ID_RE = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")
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
_HEADER_RE = re.compile(r"^\s*(\[\[|\[)\s*([^\]]*?)\s*\]\]?\s*(#.*)?$")
_KEY_RE = re.compile(r"""^\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*=""")


def _line_map(text: str) -> dict[tuple[str, int, str], int]:
    """Where each table header and key starts, so errors can name a line.

    Keys are (table, index, key): ("set", 0, "id"), ("card", 2, "count"), ("card", 2, "")
    for the third ``[[card]]`` header, ("", 0, "x") for a key before any table.
    """
    out: dict[tuple[str, int, str], int] = {}
    table, index = "", 0
    counts: dict[str, int] = {}
    for n, line in enumerate(text.splitlines(), 1):
        header = _HEADER_RE.match(line)
        if header and not _KEY_RE.match(line):
            table = header.group(2).strip().strip("\"'")
            if header.group(1) == "[[":
                index = counts.get(table, -1) + 1
                counts[table] = index
            else:
                index = 0
            out.setdefault((table, index, ""), n)
            continue
        key = _KEY_RE.match(line)
        if key:
            out.setdefault((table, index, key.group(1).strip("\"'")), n)
    return out


class _Checker:
    """Validates one parsed set file and raises CardSetError with file and line."""

    def __init__(self, source: str, text: str) -> None:
        self.source = source
        self.lines = _line_map(text)

    def line(self, table: str, index: int = 0, key: str = "") -> int:
        return self.lines.get((table, index, key)) or self.lines.get((table, index, "")) or 1

    def fail(self, table: str, index: int, key: str, problem: str) -> CardSetError:
        return CardSetError(f"{self.source}, line {self.line(table, index, key)}: {problem}")

    def whole(self, table: str, index: int, key: str, value: Any, what: str, lo: int, hi: int) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise self.fail(table, index, key, f"{what} must be a whole number from {lo} to {hi}, not {value!r}")
        return value

    def flag(self, table: str, index: int, key: str, value: Any, what: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(table, index, key, f"{what} must be true or false, not {value!r}")
        return value

    def text(self, table: str, index: int, key: str, value: Any, what: str, max_len: int = 60) -> str:
        if not isinstance(value, str) or not value.strip() or len(value) > max_len:
            raise self.fail(table, index, key, f"{what} must be non-empty text of at most {max_len} characters, "
                                               f"not {value!r}")
        if any(ch in value for ch in "\n\r\t"):
            raise self.fail(table, index, key, f"{what} must be on one line")
        return value.strip()

    def known_keys(self, table: str, index: int, data: Mapping[str, Any], allowed: Iterable[str],
                   where: str) -> None:
        allowed = tuple(allowed)
        for key in data:
            if key not in allowed:
                raise self.fail(table, index, key, f"unknown key {key!r} in {where} "
                                                   f"(allowed: {', '.join(allowed)})")


_SET_KEYS = ("id", "name", "kind", "hit_points", "solo_defence_hand", "solo_attack_hand", "shared_cards", "note")
_CARD_KEYS = ("name", "count", "type", "damage", "immobilize", "defence", "no_attack_next_turn")


def parse_set(text: str, source: str, shared: CardSet | None = None) -> CardSet:
    """Parse and check one set file's text; ``shared`` is the shared set (for ``shared_cards``)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        line = getattr(exc, "lineno", None) or (int(m.group(1)) if m else 1)
        col = getattr(exc, "colno", None) or (int(m.group(2)) if m else None)
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", getattr(exc, "msg", msg) or msg)
        where = f" (column {col})" if col else ""
        raise CardSetError(f"{source}, line {line}: not valid TOML: {msg}{where}") from None
    ck = _Checker(source, text)
    for key in data:
        if key not in ("set", "card"):
            line = ck.lines.get(("", 0, key)) or ck.lines.get((key, 0, "")) or 1  # a key, or a [table]
            raise CardSetError(f"{source}, line {line}: unknown top-level entry {key!r}; a set file has "
                               f"one 'set' table and 'card' tables")
    head = data.get("set")
    if not isinstance(head, dict):
        raise CardSetError(f"{source}, line {ck.line('set') if head is not None else 1}: "
                           f"a card-set file needs a 'set' table with its id, name and kind")
    ck.known_keys("set", 0, head, _SET_KEYS, "the set table")
    if "id" not in head:
        raise ck.fail("set", 0, "", "the set table needs an id (lowercase letters, digits, - or _)")
    set_id = head["id"]
    if not isinstance(set_id, str) or not _ID_RE.match(set_id):
        raise ck.fail("set", 0, "id", f"set id must be lowercase letters, digits, - or _ (starting with a "
                                      f"letter, at most 32), not {set_id!r}")
    name = ck.text("set", 0, "name", head.get("name", set_id.replace("-", " ").replace("_", " ").title()),
                   "set name", 40)
    kind = head.get("kind", "fighter")
    if kind not in SET_KINDS:
        raise ck.fail("set", 0, "kind", f"kind must be one of {', '.join(SET_KINDS)}, not {kind!r}")
    is_shared = kind == "shared"
    if is_shared:
        for key in ("hit_points", "solo_defence_hand", "solo_attack_hand", "shared_cards"):
            if key in head:
                raise ck.fail("set", 0, key, f"the shared set has no {key} (it is not a fighter)")
    hp = ck.whole("set", 0, "hit_points", head.get("hit_points", 10), "hit_points", 1, 99)
    def_hand = ck.whole("set", 0, "solo_defence_hand", head.get("solo_defence_hand", 2), "solo_defence_hand", 1, 3)
    atk_hand = ck.whole("set", 0, "solo_attack_hand", head.get("solo_attack_hand", 3), "solo_attack_hand", 1, 3)
    note = head.get("note", "")
    if note != "":
        note = ck.text("set", 0, "note", note, "note", 200)
    shared_cards: frozenset[str] | None = None
    raw_shared = head.get("shared_cards", True)
    if isinstance(raw_shared, bool):
        shared_cards = None if raw_shared else frozenset()
    elif isinstance(raw_shared, list) and all(isinstance(x, str) for x in raw_shared):
        shared_cards = frozenset(raw_shared)
        if shared is not None:
            names = {c.name for c in shared.cards}
            for x in raw_shared:
                if x not in names:
                    raise ck.fail("set", 0, "shared_cards", f"shared_cards names {x!r}, which is not a shared "
                                                            f"card (shared cards: {', '.join(sorted(names))})")
    else:
        raise ck.fail("set", 0, "shared_cards", "shared_cards must be true, false or a list of shared card names")

    raw_cards = data.get("card")
    if raw_cards is None:
        raise ck.fail("set", 0, "", f"set {set_id!r} has no cards; add 'card' tables")
    if not isinstance(raw_cards, list) or not all(isinstance(c, dict) for c in raw_cards):
        raise ck.fail("", 0, "card", "cards must be written as 'card' tables (an array of tables)")
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(raw_cards):
        ck.known_keys("card", i, raw, _CARD_KEYS, f"card {i + 1}")
        if "name" not in raw:
            raise ck.fail("card", i, "", f"card {i + 1} has no name")
        cname = ck.text("card", i, "name", raw["name"], "card name", 40)
        label = f"card {cname!r}"
        if cname.lower() in seen:
            raise ck.fail("card", i, "name", f"{label} appears twice in this set (first at line "
                                             f"{ck.line('card', seen[cname.lower()], 'name')}); give one "
                                             f"entry a larger count instead")
        seen[cname.lower()] = i
        if "count" not in raw:
            raise ck.fail("card", i, "", f"{label} has no count")
        count = ck.whole("card", i, "count", raw["count"], f"{label}: count", 1, MAX_COUNT)
        ctype = raw.get("type")
        if ctype == "defense":
            ctype = "defence"
        if ctype not in ("attack", "defence"):
            raise ck.fail("card", i, "type" if "type" in raw else "",
                          f"{label}: type must be \"attack\" or \"defence\", not {ctype!r}")
        if ctype == "attack":
            if "defence" in raw:
                raise ck.fail("card", i, "defence", f"{label} is an attack, so it cannot have a defence effect")
            damage = ck.whole("card", i, "damage", raw.get("damage", 0), f"{label}: damage", 0, 99)
            immob = ck.flag("card", i, "immobilize", raw.get("immobilize", False), f"{label}: immobilize")
            lock = ck.flag("card", i, "no_attack_next_turn", raw.get("no_attack_next_turn", False),
                           f"{label}: no_attack_next_turn")
            if not damage and not immob:
                raise ck.fail("card", i, "", f"{label} is an attack that does nothing: give it damage "
                                             f"(1 or more) or immobilize = true")
            cards.append(Card(set_id, cname, count, "attack", damage, immob, "", lock))
        else:
            for key in ("damage", "immobilize", "no_attack_next_turn"):
                if key in raw:
                    raise ck.fail("card", i, key, f"{label} is a defence card, so it cannot have {key}")
            if "defence" not in raw:
                raise ck.fail("card", i, "", f"{label}: a defence card needs defence = \"block\" or \"evade\"")
            dtype = raw["defence"]
            if dtype not in DEFENCES:
                raise ck.fail("card", i, "defence", f"{label}: defence must be \"block\" or \"evade\", "
                                                    f"not {dtype!r}")
            cards.append(Card(set_id, cname, count, "defence", defence=dtype))
    total = sum(c.count for c in cards)
    if total > MAX_SET_SIZE:
        raise ck.fail("set", 0, "", f"set {set_id!r} has {total} cards; at most {MAX_SET_SIZE} are allowed")
    return CardSet(id=set_id, name=name, kind=kind, cards=tuple(cards), hit_points=hp,
                   solo_defence_hand=def_hand, solo_attack_hand=atk_hand, shared_cards=shared_cards,
                   note=note, source=source)


def read_set_file(path: str | os.PathLike[str], shared: CardSet | None = None) -> CardSet:
    """Load one set file; any problem raises CardSetError naming the file (and line)."""
    source = str(path)
    raw = read_bytes(path, MiB, "card-set file", CardSetError)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CardSetError(f"{source}, line {line}: not UTF-8 text") from None
    return parse_set(text, source, shared)


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


_CATALOGUES: dict[tuple[Any, ...], Catalogue] = {}


def _stamp(path: str) -> tuple[str, int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (path, -1, -1)
    return (path, st.st_mtime_ns, st.st_size)


def load_catalogue(paths: Sequence[str] = ()) -> Catalogue:
    """The built-in sets plus the user set files ``paths``; all of them load, or none is used.

    Results are cached per file and modification time, so a game made many times from the
    same options reads the files once.
    """
    base = builtin_catalogue()
    if not paths:
        return base
    key = tuple(_stamp(p) for p in paths)
    hit = _CATALOGUES.get(key)
    if hit is not None:
        return hit
    fighters = dict(base.fighters)
    for path in paths:
        s = read_set_file(path, base.shared)
        if s.kind == "shared":
            line = _line_map(read_text(path, MiB, "card-set file", CardSetError)).get(("set", 0, "kind"), 1)
            raise CardSetError(f"{path}, line {line}: a user set may be a fighter or an animal, not the shared set")
        if s.id in fighters:
            origin = "a built-in set" if s.id in base.fighters else f"another file ({fighters[s.id].source})"
            line = _line_map(read_text(path, MiB, "card-set file", CardSetError)).get(("set", 0, "id"), 1)
            raise CardSetError(f"{path}, line {line}: set id {s.id!r} is already used by {origin}; "
                               f"choose another id")
        fighters[s.id] = s
    cat = Catalogue(shared=base.shared, fighters=fighters, user_files=tuple(paths))
    if len(_CATALOGUES) > 64:
        _CATALOGUES.clear()
    _CATALOGUES[key] = cat
    return cat
