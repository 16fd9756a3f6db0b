"""Gorus Maximus options, the team seating rules and their validation."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache

from ...core.errors import DataError, InvalidOptions
from ...core.options import option
from .cards import SCHOOL_BY_CODE, load_cf_table, setup_for

__all__ = [
    "DEFAULT_TARGET",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "TEAM_PRESETS",
    "TEAM_SUGGESTIONS",
    "GorusMaximusOptions",
    "best_seating",
    "parse_teams",
    "players_refusal",
]

MIN_PLAYERS, MAX_PLAYERS = 1, 8
DEFAULT_TARGET = 3

# Team splits the rulebook suggests, by player count.
TEAM_PRESETS: dict[int, tuple[str, ...]] = {
    4: ("2v2",),
    5: ("2v2v1", "3v2"),
    6: ("2v2v2", "3v3"),
    7: ("2v2v2v1", "3v2v2"),
    8: ("2v2v2v2", "4v4"),
}

_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


def _split_label(split: str) -> str:
    """``2v2v1`` in words: "2 v 2 v 1: two teams of two and one player alone"."""
    sizes = [int(x) for x in split.split("v")]
    groups = []
    for size in sorted(set(sizes), reverse=True):
        count = sizes.count(size)
        if size == 1:
            groups.append("one player alone" if count == 1 else f"{_COUNT_WORDS[count]} players alone")
        else:
            teams = "a team" if count == 1 else f"{_COUNT_WORDS[count]} teams"
            groups.append(f"{teams} of {_COUNT_WORDS[size]}")
    return f"{' v '.join(map(str, sizes))}: {' and '.join(groups)}"


TEAM_SUGGESTIONS: tuple[dict[str, object], ...] = tuple(
    {"value": split, "label": _split_label(split), "players": players}
    for players, splits in sorted(TEAM_PRESETS.items()) for split in splits
)
"""The lobby's list for ``teams``: the rulebook's splits, each for its player count."""


def players_refusal(players: int) -> str:
    """Why a player count is refused, in the rules' words (shared by the options check and the game)."""
    return (f"Gorus Maximus is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}: the full deck of 80 "
            f"gladiators deals 10 to each of at most {MAX_PLAYERS} players")


def _adjacent_teammates(seating: tuple[int, ...]) -> list[tuple[int, int]]:
    n = len(seating)
    return [(i, (i + 1) % n) for i in range(n) if seating[i] == seating[(i + 1) % n]]


@lru_cache(maxsize=64)
def best_seating(sizes: tuple[int, ...]) -> tuple[int, ...]:
    """Seat teams so that as few teammates as possible sit side by side (none if possible).

    ``sizes[t]`` is the size of team t; the result gives each seat's team. Among equally
    good seatings the lexicographically first is taken, so seat 1 is always team A.
    """
    pool = [t for t, size in enumerate(sizes) for _ in range(size)]
    best: tuple[int, ...] | None = None
    best_bad = 1 << 30
    for perm in sorted(set(itertools.permutations(pool))):
        bad = len(_adjacent_teammates(perm))
        if bad < best_bad:
            best, best_bad = perm, bad
            if bad == 0:
                break
    assert best is not None
    return best


def parse_teams(spec: str, players: int) -> tuple[int, ...]:
    """Each seat's team from a split like ``2v2v1`` or a seating like ``ABACB``."""
    spec = spec.strip()
    if players < 4:
        raise InvalidOptions("the team variant needs 4 or more players")
    if re.fullmatch(r"\d+(v\d+)+", spec, flags=re.IGNORECASE):
        sizes = tuple(int(x) for x in re.split(r"[vV]", spec))
        if any(s < 1 for s in sizes):
            raise InvalidOptions(f"teams {spec!r}: every team needs at least one player")
        if sum(sizes) != players:
            raise InvalidOptions(f"teams {spec!r} add up to {sum(sizes)} players, but the game has {players}")
        return best_seating(sizes)
    if re.fullmatch(r"[A-Ha-h]+", spec):
        letters = spec.upper()
        if len(letters) != players:
            raise InvalidOptions(f"team seating {spec!r} names {len(letters)} seats, but the game has {players}")
        names = sorted(set(letters))
        if len(names) < 2:
            raise InvalidOptions("the team variant needs at least two teams")
        seating = tuple(names.index(ch) for ch in letters)
        sizes = tuple(letters.count(ch) for ch in names)
        ideal = len(_adjacent_teammates(best_seating(tuple(sorted(sizes, reverse=True)))))
        bad = _adjacent_teammates(seating)
        if len(bad) > ideal:
            i, j = bad[0]
            raise InvalidOptions(
                f"teammates must sit in alternating order: seats {i + 1} and {j + 1} are both team {letters[i]}"
                f" (try {''.join('ABCDEFGH'[t] for t in best_seating(tuple(sorted(sizes, reverse=True))))})"
            )
        return seating
    presets = ", ".join(TEAM_PRESETS.get(players, ()))
    raise InvalidOptions(
        f"teams {spec!r} is neither a split like 2v2v1 nor a seating like ABACB"
        + (f"; suggested for {players} players: {presets}" if presets else "")
    )


@dataclass(frozen=True)
class GorusMaximusOptions:
    players: int = option(4, "number of players; 1 is solo play against the contenders",
                          min=MIN_PLAYERS, max=MAX_PLAYERS)
    schools: str = option(
        "random",
        "for 1-4 players, which schools are in the deck: 'random' or codes such as BF,GA,PA",
    )
    teams: str = option("", "team variant (4+ players): a split like 2v2v1 or a seating like ABACB",
                        suggestions=TEAM_SUGGESTIONS)
    target: int = option(DEFAULT_TARGET,
                         "Crowd Support needed to win, in individual and solo play (teams use team-target)",
                         min=1, max=20)
    team_target: int = option(0, "Crowd Support a team needs in the team variant; 0 means its size plus one",
                              min=0, max=20)
    first_dealer: int = option(-1, "seat index of the first dealer; -1 means the last seat", min=-1, max=7)
    final_tie: str = option(
        "shared",
        "if the end-of-game tiebreaks still tie: the tied share the win, or play on another round",
        choices=("shared", "play-on"),
    )
    cf_table: str = option("", "path of a TOML file replacing the Crowd Favour table", host_path=True)
    memory_aids: bool = option(
        False,
        "show everyone each side's Crowd Favour so far this round (the rules let players look only at "
        "the previous bout)",
    )

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidOptions(players_refusal(self.players))
        self.school_indices()  # validates
        if self.teams:
            parse_teams(self.teams, self.players)
        if self.first_dealer >= self.players:
            raise InvalidOptions(f"first-dealer must be a seat from 0 to {self.players - 1}")
        try:
            load_cf_table(self.cf_table)
        except DataError as exc:
            raise InvalidOptions(f"cf-table: {exc}") from exc

    @property
    def solo(self) -> bool:
        return self.players == 1

    def school_indices(self) -> tuple[int, ...] | None:
        """The fixed schools in play, or None when they are drawn at random."""
        needed = setup_for(self.players).schools
        spec = self.schools.strip()
        if spec.lower() == "random":
            return None if needed < 5 else tuple(range(5))
        codes = [c.strip().upper() for c in spec.split(",") if c.strip()]
        unknown = [c for c in codes if c not in SCHOOL_BY_CODE]
        if unknown:
            known = ", ".join(SCHOOL_BY_CODE)
            raise InvalidOptions(f"unknown school code {unknown[0]!r}; the schools are {known}")
        if len(set(codes)) != len(codes):
            raise InvalidOptions("a school is listed twice in 'schools'")
        if len(codes) != needed:
            raise InvalidOptions(
                f"{self.players} player(s) use {needed} schools, but 'schools' lists {len(codes)}"
            )
        return tuple(sorted(SCHOOL_BY_CODE[c].index for c in codes))

    def target_refusal(self) -> str | None:
        """Why ``target`` is refused with these options: a team plays to ``team-target``, so a
        target given with ``teams`` would be ignored. Checked for new games only
        (:meth:`GorusMaximusGame.parse_options`): a stored game that gave both was played with
        ``target`` ignored, and still replays so."""
        if self.teams and self.target != DEFAULT_TARGET:
            return (f"target applies to individual and solo play; a team plays to team-target (its size "
                    f"plus one by default), so give team-target={self.target} instead of target")
        return None

    def team_of_seat(self) -> tuple[int, ...] | None:
        return parse_teams(self.teams, self.players) if self.teams else None
