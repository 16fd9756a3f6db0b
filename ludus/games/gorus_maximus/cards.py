"""Gorus Maximus cards as integers and card sets as 80-bit masks.

Card index = school * 16 + rank, so a school is one 16-bit lane of the mask and a rank
is every 16th bit. Schools, the setup table and the Crowd Favour table come from the
TOML files in ``data/``; a user may replace the CF table with a file of their own.

It also holds the table's fixed vocabulary that every other module of the game shares (the
troupe size, the phase names, the contender's actor id), so that the rules, the views, the
codec, the sampler and the fast paths can all import it without importing one another.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ...core.datafile import MiB, read_text
from ...core.errors import DataError

__all__ = [
    "ALL_CARDS_MASK",
    "CONTENDER",
    "HAND_SIZE",
    "NUM_CARDS",
    "NUM_SCHOOLS",
    "PHASE_DEAL",
    "PHASE_DRAW",
    "PHASE_OVER",
    "PHASE_PLAY",
    "PHASE_REVEAL",
    "PHASE_SCHOOLS",
    "RANKS_PER_SCHOOL",
    "RANK_MASKS",
    "SCHOOLS",
    "SCHOOL_BY_CODE",
    "SCHOOL_MASKS",
    "SETUP_ROWS",
    "CrowdFavourTable",
    "School",
    "SetupRow",
    "card",
    "card_code",
    "card_label",
    "deck_mask",
    "load_cf_table",
    "parse_card",
    "rank_of",
    "school_of",
    "setup_for",
]

NUM_SCHOOLS = 5
RANKS_PER_SCHOOL = 16
NUM_CARDS = NUM_SCHOOLS * RANKS_PER_SCHOOL

CONTENDER = -2
"""Actor id of a contender card in solo play (not a seat)."""

HAND_SIZE = 10
PHASE_SCHOOLS, PHASE_DEAL, PHASE_PLAY, PHASE_DRAW, PHASE_REVEAL, PHASE_OVER = (
    "schools", "deal", "play", "draw", "reveal", "over",
)


@dataclass(frozen=True)
class School:
    index: int
    code: str
    name: str
    colour: str
    icon: str

    @property
    def short(self) -> str:
        """The colour word players use ("Blue"), as in "Blue 10"."""
        return self.name.split()[0]


@dataclass(frozen=True)
class SetupRow:
    players: tuple[int, ...]
    schools: int
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class CrowdFavourTable:
    by_rank: tuple[int, ...]
    preferred_zero: int
    provisional: frozenset[int]
    source: str


def _read_toml(text: str, source: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{source}: {exc}") from exc


def _data(name: str) -> tuple[dict, str]:
    ref = resources.files(__package__).joinpath("data", name)
    return _read_toml(ref.read_text(encoding="utf-8"), f"ludus/games/gorus_maximus/data/{name}"), name


def _load_cards() -> tuple[tuple[School, ...], tuple[SetupRow, ...]]:
    data, _ = _data("cards.toml")
    schools = tuple(
        School(i, s["code"], s["name"], s["colour"], s["icon"]) for i, s in enumerate(data["school"])
    )
    if len(schools) != NUM_SCHOOLS:
        raise DataError(f"cards.toml must list {NUM_SCHOOLS} schools")
    rows = tuple(SetupRow(tuple(r["players"]), r["schools"], tuple(r["ranks"])) for r in data["setup"])
    return schools, rows


SCHOOLS, SETUP_ROWS = _load_cards()
SCHOOL_BY_CODE = {s.code: s for s in SCHOOLS}

SCHOOL_MASKS = tuple(((1 << RANKS_PER_SCHOOL) - 1) << (RANKS_PER_SCHOOL * s) for s in range(NUM_SCHOOLS))
RANK_MASKS = tuple(sum(1 << (s * RANKS_PER_SCHOOL + r) for s in range(NUM_SCHOOLS)) for r in range(RANKS_PER_SCHOOL))
ALL_CARDS_MASK = (1 << NUM_CARDS) - 1


def card(school: int, rank: int) -> int:
    return school * RANKS_PER_SCHOOL + rank


def school_of(c: int) -> int:
    return c >> 4


def rank_of(c: int) -> int:
    return c & 15


def card_code(c: int) -> str:
    """Compact notation used in records: school code + rank, e.g. ``GA10``."""
    return f"{SCHOOLS[c >> 4].code}{c & 15}"


def card_label(c: int) -> str:
    """Human notation, e.g. ``Green 10``."""
    return f"{SCHOOLS[c >> 4].short} {c & 15}"


def parse_card(text: str) -> int:
    """Inverse of :func:`card_code`; raises ValueError on anything else."""
    if not isinstance(text, str) or len(text) < 3:
        raise ValueError(f"not a card: {text!r}")
    school = SCHOOL_BY_CODE.get(text[:2].upper())
    if school is None or not text[2:].isdigit():
        raise ValueError(f"not a card: {text!r}")
    rank = int(text[2:])
    if not 0 <= rank < RANKS_PER_SCHOOL:
        raise ValueError(f"no rank {rank} in Gorus Maximus")
    return card(school.index, rank)


def setup_for(players: int) -> SetupRow:
    for row in SETUP_ROWS:
        if players in row.players:
            return row
    raise KeyError(players)


def deck_mask(schools_mask: int, ranks: tuple[int, ...]) -> int:
    """The deck: the given ranks of every school whose bit is set in ``schools_mask``."""
    mask = 0
    for s in range(NUM_SCHOOLS):
        if schools_mask >> s & 1:
            for r in ranks:
                mask |= 1 << card(s, r)
    return mask


@lru_cache(maxsize=256)
def _deck(schools: tuple[int, ...], ranks: tuple[int, ...]) -> int:
    """:func:`deck_mask` of the schools in play, cached: the rules and the sampler ask often."""
    return deck_mask(sum(1 << s for s in schools), ranks)


def _bits(mask: int) -> list[int]:
    """The cards of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _parse_cf(data: dict, source: str) -> CrowdFavourTable:
    cf = data.get("cf")
    if not isinstance(cf, dict):
        raise DataError(f"{source}: missing table [cf] with one value per rank 0-15")
    values = [0] * RANKS_PER_SCHOOL
    seen = set()
    for key, value in cf.items():
        if not key.isdigit() or not 0 <= int(key) < RANKS_PER_SCHOOL:
            raise DataError(f"{source}: [cf] key {key!r} is not a rank 0-15")
        if not isinstance(value, int) or isinstance(value, bool):
            raise DataError(f"{source}: [cf] rank {key} must be a whole number, not {value!r}")
        values[int(key)] = value
        seen.add(int(key))
    missing = sorted(set(range(RANKS_PER_SCHOOL)) - seen)
    if missing:
        raise DataError(f"{source}: [cf] has no value for rank(s) {', '.join(map(str, missing))}")
    pz = data.get("preferred_zero", 5)
    if not isinstance(pz, int) or isinstance(pz, bool):
        raise DataError(f"{source}: preferred_zero must be a whole number")
    prov = data.get("provisional", {}).get("ranks", [])
    if not isinstance(prov, list) or not all(isinstance(r, int) for r in prov):
        raise DataError(f"{source}: [provisional] ranks must be a list of ranks")
    return CrowdFavourTable(tuple(values), pz, frozenset(prov), source)


@lru_cache(maxsize=32)
def load_cf_table(path: str = "") -> CrowdFavourTable:
    """The shipped CF table, or a user's file; a bad file raises DataError naming it."""
    if not path:
        data, name = _data("crowd_favour.toml")
        return _parse_cf(data, name)
    text = read_text(path, MiB, "CF table", DataError)
    return _parse_cf(_read_toml(text, path), path)
