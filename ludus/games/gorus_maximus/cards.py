"""Gorus Maximus cards as integers and card sets as 80-bit masks.

Card index = school * 16 + rank, so a school is one 16-bit lane of the mask and a rank
is every 16th bit. Schools, the setup table and the Crowd Favour table come from the
TOML files in ``data/``; a user may replace the CF table with a file of their own. Both
formats are pydantic models (:class:`CardsFile`, :class:`CfFile`) loaded with
:func:`ludus.core.tomldata.load_toml`, so every refusal names the file and the line.

It also holds the table's fixed vocabulary that every other module of the game shares (the
troupe size, the phase names, the contender's actor id), so that the rules, the views, the
codec, the sampler and the fast paths can all import it without importing one another.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, StringConstraints

from ...core.datafile import MiB, read_text
from ...core.errors import DataError
from ...core.provenance import OURS, PRINTED, DataValue, Source
from ...core.tomldata import line_map, line_of, load_toml

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
    "CardsFile",
    "CfFile",
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
    """The CF of every rank, and for each where it comes from (``origins``: printed in the
    rulebook, following from a worked example, or ours; see :mod:`ludus.core.provenance`), so
    that every client can mark a value the rulebook does not print."""

    by_rank: tuple[int, ...]
    preferred_zero: int
    origins: tuple[Source, ...]
    source: str
    notes: tuple[str, ...] = ("",) * 16
    own: bool = False
    """A player's own table (option ``cf-table``): its values are theirs, not the rulebook's nor ours."""

    @property
    def provisional(self) -> frozenset[int]:
        """The ranks whose value the rulebook does not print (from an example, or ours)."""
        return frozenset(r for r, origin in enumerate(self.origins) if origin != PRINTED)

    def data_values(self, ranks: tuple[int, ...]) -> list[DataValue]:
        """The values of these ranks that the rulebook does not print; none for a player's own
        table (its values are the player's)."""
        if self.own:
            return []
        return [DataValue(f"Crowd Favour of rank {r}", _signed(self.by_rank[r]), self.origins[r], self.notes[r])
                for r in ranks if self.origins[r] != PRINTED]

    def to_json(self) -> dict[str, Any]:
        """What a page needs to print each card's CF: the values, where each comes from
        (``origins``; ``ours`` lists the ranks not printed in the rulebook), and whether the
        table is a player's own (never the file's path: that names a file on the host)."""
        return {
            "by_rank": list(self.by_rank),
            "preferred_zero": self.preferred_zero,
            "origins": list(self.origins),
            "ours": sorted(self.provisional),
            "own_table": self.own,
        }


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


# ----------------------------------------------------------------- data file formats
Rank = Annotated[StrictInt, Field(ge=0, le=RANKS_PER_SCHOOL - 1)]
"""A rank as written in the data files: a whole number 0-15 (``true`` or ``"3"`` refused)."""


class _Table(BaseModel):
    """A TOML table of the data files: unknown keys are errors, values are not coerced."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class SchoolModel(_Table):
    """One ``[[school]]`` of ``cards.toml``."""

    code: Annotated[StrictStr, StringConstraints(pattern=r"^[A-Z]{2}$")]
    """Two capital letters: card codes are the school code and the rank (``GA10``)."""
    name: Annotated[StrictStr, StringConstraints(min_length=1, max_length=40, pattern=r"^\S")]
    """Its first word is the colour word players use ("Blue 10")."""
    colour: Literal["blue", "brown", "green", "pink", "yellow"]
    """One of the colours the terminal and the page style have."""
    icon: Annotated[StrictStr, StringConstraints(min_length=1, max_length=4)]


_MOST_PLAYERS = NUM_CARDS // HAND_SIZE
"""8: the whole deck of 80 deals 10 to each."""


class SetupModel(_Table):
    """One ``[[setup]]`` of ``cards.toml``: the deck for some player counts."""

    players: list[Annotated[StrictInt, Field(ge=1, le=_MOST_PLAYERS)]] = Field(min_length=1)
    schools: StrictInt = Field(ge=1, le=NUM_SCHOOLS)
    ranks: list[Rank] = Field(min_length=1)


class CardsFile(_Table):
    """``data/cards.toml``: the schools and the setup table."""

    school: list[SchoolModel]
    setup: list[SetupModel]


class CfRanks(_Table):
    """``[cf]``: the Crowd Favour of every rank 0-15, keyed by the rank."""

    r0: StrictInt = Field(alias="0")
    r1: StrictInt = Field(alias="1")
    r2: StrictInt = Field(alias="2")
    r3: StrictInt = Field(alias="3")
    r4: StrictInt = Field(alias="4")
    r5: StrictInt = Field(alias="5")
    r6: StrictInt = Field(alias="6")
    r7: StrictInt = Field(alias="7")
    r8: StrictInt = Field(alias="8")
    r9: StrictInt = Field(alias="9")
    r10: StrictInt = Field(alias="10")
    r11: StrictInt = Field(alias="11")
    r12: StrictInt = Field(alias="12")
    r13: StrictInt = Field(alias="13")
    r14: StrictInt = Field(alias="14")
    r15: StrictInt = Field(alias="15")

    def by_rank(self) -> tuple[int, ...]:
        return tuple(getattr(self, f"r{r}") for r in range(RANKS_PER_SCHOOL))


class ProvisionalModel(_Table):
    """``[provisional]``: the ranks whose CF is the file's own choice rather than the rulebook's
    (the older way to say it; ``[source]`` says it per rank)."""

    ranks: list[Rank] = []


Origin = Literal["printed", "example", "ours"]
"""Where a value comes from, as a data file writes it (:data:`ludus.core.provenance.Source`)."""
Note = Annotated[StrictStr, StringConstraints(max_length=300)]


class CfSources(_Table):
    """``[source]``: where each rank's value comes from, keyed by the rank; a rank left out is
    printed in the rulebook (unless ``[provisional]`` lists it)."""

    r0: Origin | None = Field(None, alias="0")
    r1: Origin | None = Field(None, alias="1")
    r2: Origin | None = Field(None, alias="2")
    r3: Origin | None = Field(None, alias="3")
    r4: Origin | None = Field(None, alias="4")
    r5: Origin | None = Field(None, alias="5")
    r6: Origin | None = Field(None, alias="6")
    r7: Origin | None = Field(None, alias="7")
    r8: Origin | None = Field(None, alias="8")
    r9: Origin | None = Field(None, alias="9")
    r10: Origin | None = Field(None, alias="10")
    r11: Origin | None = Field(None, alias="11")
    r12: Origin | None = Field(None, alias="12")
    r13: Origin | None = Field(None, alias="13")
    r14: Origin | None = Field(None, alias="14")
    r15: Origin | None = Field(None, alias="15")

    def by_rank(self) -> tuple[Origin | None, ...]:
        return tuple(getattr(self, f"r{r}") for r in range(RANKS_PER_SCHOOL))


class CfNotes(_Table):
    """``[note]``: why a value not printed in the rulebook is what it is, keyed by the rank."""

    r0: Note | None = Field(None, alias="0")
    r1: Note | None = Field(None, alias="1")
    r2: Note | None = Field(None, alias="2")
    r3: Note | None = Field(None, alias="3")
    r4: Note | None = Field(None, alias="4")
    r5: Note | None = Field(None, alias="5")
    r6: Note | None = Field(None, alias="6")
    r7: Note | None = Field(None, alias="7")
    r8: Note | None = Field(None, alias="8")
    r9: Note | None = Field(None, alias="9")
    r10: Note | None = Field(None, alias="10")
    r11: Note | None = Field(None, alias="11")
    r12: Note | None = Field(None, alias="12")
    r13: Note | None = Field(None, alias="13")
    r14: Note | None = Field(None, alias="14")
    r15: Note | None = Field(None, alias="15")

    def by_rank(self) -> tuple[str, ...]:
        return tuple(getattr(self, f"r{r}") or "" for r in range(RANKS_PER_SCHOOL))


class CfFile(_Table):
    """A Crowd Favour table file (``data/crowd_favour.toml`` or the option ``cf-table``)."""

    preferred_zero: StrictInt = 5
    cf: CfRanks
    provisional: ProvisionalModel = ProvisionalModel()
    source: CfSources = CfSources.model_validate({})
    note: CfNotes = CfNotes.model_validate({})


# ----------------------------------------------------------------- loading
_DATA_DIR = "ludus/games/gorus_maximus/data"


def _shipped(name: str) -> str:
    return resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")


def _check_cards(data: CardsFile, text: str, source: str) -> None:
    """What the model cannot say: the number of schools, unique codes, one deck per player count."""
    lines = line_map(text)

    def fail(loc: tuple[str | int, ...], message: str) -> DataError:
        return DataError(f"{source}, line {line_of(lines, loc)}: {message}")

    if len(data.school) != NUM_SCHOOLS:
        where: tuple[str | int, ...] = ("school", min(len(data.school), NUM_SCHOOLS + 1) - 1)
        raise fail(where, f"must list {NUM_SCHOOLS} schools, not {len(data.school)}")
    codes: dict[str, int] = {}
    for i, school in enumerate(data.school):
        if school.code in codes:
            first = codes[school.code] + 1
            raise fail(("school", i, "code"), f"school {i + 1}: code: {school.code!r} is already school {first}'s")
        codes[school.code] = i
    row_of: dict[int, int] = {}
    for i, row in enumerate(data.setup):
        for p in row.players:
            if p in row_of:
                raise fail(("setup", i, "players"), f"setup {i + 1}: {p} players already have setup {row_of[p] + 1}")
            row_of[p] = i
        if len(set(row.ranks)) != len(row.ranks):
            raise fail(("setup", i, "ranks"), f"setup {i + 1}: ranks: a rank is listed twice")
        need = HAND_SIZE * max(row.players)
        if row.schools * len(row.ranks) < need:
            raise fail(("setup", i, "ranks"), f"setup {i + 1}: {row.schools} schools of {len(row.ranks)} ranks "
                       f"make {row.schools * len(row.ranks)} cards, too few to deal {need}")
    missing = [p for p in range(1, _MOST_PLAYERS + 1) if p not in row_of]
    if missing:
        raise fail(("setup", 0), f"no [[setup]] for {', '.join(map(str, missing))} player(s)")


def _parse_cards(text: str, source: str) -> tuple[tuple[School, ...], tuple[SetupRow, ...]]:
    data = load_toml(text, source, CardsFile, DataError)
    _check_cards(data, text, source)
    schools = tuple(School(i, s.code, s.name, s.colour, s.icon) for i, s in enumerate(data.school))
    rows = tuple(SetupRow(tuple(r.players), r.schools, tuple(r.ranks)) for r in data.setup)
    return schools, rows


def _load_cards() -> tuple[tuple[School, ...], tuple[SetupRow, ...]]:
    return _parse_cards(_shipped("cards.toml"), f"{_DATA_DIR}/cards.toml")


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


def _parse_cf(text: str, source: str, name: str, *, own: bool) -> CrowdFavourTable:
    """The CF table in ``text``; errors name ``source`` and the line, the table is named ``name``.

    The model says it all: sixteen whole-number values keyed "0" to "15", where each comes
    from ("printed", "example" or "ours"; a rank not listed is printed) and a note, no other key.
    """
    data = load_toml(text, source, CfFile, DataError)
    origins: list[Source] = [PRINTED] * RANKS_PER_SCHOOL
    for r in data.provisional.ranks:
        origins[r] = OURS
    for r, origin in enumerate(data.source.by_rank()):
        if origin is not None:
            origins[r] = origin
    return CrowdFavourTable(data.cf.by_rank(), data.preferred_zero, tuple(origins), name, data.note.by_rank(), own)


@lru_cache(maxsize=32)
def load_cf_table(path: str = "") -> CrowdFavourTable:
    """The shipped CF table, or a user's file; a bad file raises DataError naming it and the line."""
    if not path:
        return _parse_cf(_shipped("crowd_favour.toml"), f"{_DATA_DIR}/crowd_favour.toml", "crowd_favour.toml",
                         own=False)
    text = read_text(path, MiB, "CF table", DataError)
    return _parse_cf(text, path, path, own=True)
