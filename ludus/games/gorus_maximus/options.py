"""Gorus Maximus options, the team seating rules and their validation."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache

from ...core.errors import DataError, InvalidOptions, Message
from ...core.options import option
from ...i18n import N_
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


# TRANSLATORS: a team split of Gorus Maximus in the lobby's list; {split} is written "2 v 2 v 1"
SPLIT_MESSAGES = {
    "2v2": N_("{split}: two teams of two"),
    "2v2v1": N_("{split}: two teams of two and one player alone"),
    "3v2": N_("{split}: a team of three and a team of two"),
    "2v2v2": N_("{split}: three teams of two"),
    "3v3": N_("{split}: two teams of three"),
    "2v2v2v1": N_("{split}: three teams of two and one player alone"),
    "3v2v2": N_("{split}: a team of three and two teams of two"),
    "2v2v2v2": N_("{split}: four teams of two"),
    "4v4": N_("{split}: two teams of four"),
}
"""Each preset's label as a message to translate (the tests check it says what _split_label does)."""

TEAM_SUGGESTIONS: tuple[dict[str, object], ...] = tuple(
    {"value": split, "label": _split_label(split), "players": players, "message": SPLIT_MESSAGES[split],
     "words": {"split": split.replace("v", " v ")}}
    for players, splits in sorted(TEAM_PRESETS.items()) for split in splits
)
"""The lobby's list for ``teams``: the rulebook's splits, each for its player count."""


def players_refusal(players: int) -> Message:
    """Why a player count is refused, in the rules' words (shared by the options check and the game)."""
    return Message(N_("Gorus Maximus is for {low} to {high} players, not {players}: the full deck of {cards} "
                      "gladiators deals {hand} to each of at most {high} players"),
                   low=MIN_PLAYERS, high=MAX_PLAYERS, players=players, cards=80, hand=10)


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
        raise InvalidOptions(Message(N_("the team variant needs {count} or more players"), count=4))
    if re.fullmatch(r"\d+(v\d+)+", spec, flags=re.IGNORECASE):
        sizes = tuple(int(x) for x in re.split(r"[vV]", spec))
        if any(s < 1 for s in sizes):
            raise InvalidOptions(Message(N_("teams {spec}: every team needs at least one player"), spec=repr(spec)))
        if sum(sizes) != players:
            raise InvalidOptions(Message(N_("teams {spec} add up to {total} players, but the game has {players}"),
                                         spec=repr(spec), total=sum(sizes), players=players))
        return best_seating(sizes)
    if re.fullmatch(r"[A-Ha-h]+", spec):
        letters = spec.upper()
        if len(letters) != players:
            raise InvalidOptions(Message(N_("team seating {spec} names {count} seats, but the game has {players}"),
                                         spec=repr(spec), count=len(letters), players=players))
        names = sorted(set(letters))
        if len(names) < 2:
            raise InvalidOptions(Message(N_("the team variant needs at least two teams")))
        seating = tuple(names.index(ch) for ch in letters)
        sizes = tuple(letters.count(ch) for ch in names)
        ideal = len(_adjacent_teammates(best_seating(tuple(sorted(sizes, reverse=True)))))
        bad = _adjacent_teammates(seating)
        if len(bad) > ideal:
            i, j = bad[0]
            seating_tried = "".join("ABCDEFGH"[t] for t in best_seating(tuple(sorted(sizes, reverse=True))))
            raise InvalidOptions(Message(
                N_("teammates must sit in alternating order: seats {first} and {second} are both team {team} "
                   "(try {seating})"), first=i + 1, second=j + 1, team=letters[i], seating=seating_tried))
        return seating
    presets = ", ".join(TEAM_PRESETS.get(players, ()))
    if presets:
        raise InvalidOptions(Message(N_("teams {spec} is neither a split like 2v2v1 nor a seating like ABACB; "
                                        "suggested for {players} players: {presets}"),
                                     spec=repr(spec), players=players, presets=presets))
    raise InvalidOptions(Message(N_("teams {spec} is neither a split like 2v2v1 nor a seating like ABACB"),
                                 spec=repr(spec)))


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
            raise InvalidOptions(Message(N_("first-dealer must be a seat from {first} to {last}"), first=0,
                                         last=self.players - 1))
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
            raise InvalidOptions(Message(N_("unknown school code {code}; the schools are {known}"),
                                         code=repr(unknown[0]), known=known))
        if len(set(codes)) != len(codes):
            raise InvalidOptions(Message(N_("a school is listed twice in 'schools'")))
        if len(codes) != needed:
            raise InvalidOptions(Message(N_("{players} player(s) use {needed} schools, but 'schools' lists {count}"),
                                         players=self.players, needed=needed, count=len(codes)))
        return tuple(sorted(SCHOOL_BY_CODE[c].index for c in codes))

    def target_refusal(self) -> str | None:
        """Why ``target`` is refused with these options: a team plays to ``team-target``, so a
        target given with ``teams`` would be ignored. Checked for new games only
        (:meth:`GorusMaximusGame.parse_options`): a stored game that gave both was played with
        ``target`` ignored, and still replays so."""
        if self.teams and self.target != DEFAULT_TARGET:
            return Message(N_("target applies to individual and solo play; a team plays to team-target (its size "
                              "plus one by default), so give team-target={target} instead of target"),
                           target=str(self.target))
        return None

    def team_of_seat(self) -> tuple[int, ...] | None:
        return parse_teams(self.teams, self.players) if self.teams else None
