"""The one declaration a game makes to the rest of Ludus: :class:`GamePlugin`.

Each game package (``ludus/games/<name>/__init__.py`` for the games shipped with Ludus, or
any installed distribution that names it in the ``ludus.games`` entry point group) exports
a ``PLUGIN``. The layers above the rules (agents, analysis, the interop bridges, the web
pages, the terminal client) find everything game-specific through it and nothing else, so
adding a game is one folder.

The parts are *references* (``"module:attribute"``, or ``".module:attribute"`` relative to
the plugin's package) rather than objects: listing the games then imports no rules, no
rich and no numpy, and each layer loads only the part it uses. Every part but the game is
optional; a layer falls back to a generic default (random rollouts, the generic page, the
plain terminal view, the hashed observation encoder...) where a game leaves one out.

The data types a part must return are plain values defined here (search budgets, analysis
scenarios, the interop action-space spec), so a game package depends on :mod:`ludus.core`
only, whichever layer reads the part.
"""

from __future__ import annotations

import importlib
import importlib.resources
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .errors import LudusError

if TYPE_CHECKING:
    from .game import Game, State

__all__ = [
    "ENTRY_POINT_GROUP",
    "INDIVIDUAL",
    "SOLO",
    "TEAMS",
    "VARIANT",
    "AnalysisProfile",
    "GamePlugin",
    "InteropSpec",
    "PluginError",
    "RatedPlay",
    "RatingPool",
    "Scenario",
    "SearchBudget",
    "resolve",
]

ENTRY_POINT_GROUP = "ludus.games"
"""Entry point group under which an installed distribution names its ``GamePlugin``."""


class PluginError(LudusError):
    """A game's declaration is malformed, or one of its parts cannot be loaded."""


# --------------------------------------------------------------------------- search settings
@dataclass(frozen=True)
class SearchBudget:
    """How much an ISMCTS bot of one level searches in one game, and how.

    Budgets are counted in iterations rather than seconds so that bots replay identically on
    any machine; each game sets its own so that a move takes under a second (docs/agents.md).
    """

    iterations: int
    rollout: str = "random"  # "random" or "heuristic"
    score_weight: float = 0.0  # share of the final reward that comes from the rescaled score
    paired: bool = False  # every sampled deal is tried under every root move
    anchor: float | None = None  # keep the heuristic's move unless another beats it by this many SEs
    expand_after: int = 1  # visits of an edge before its child node joins the tree

    @classmethod
    def flat_paired(cls, iterations: int) -> SearchBudget:
        """A paired root with heuristic rollouts that keeps the heuristic's move unless the search
        shows another better by more than one standard error, its tree one move deep.

        Below the root, UCB would stand in for an opponent that really plays like the heuristic
        with untried random moves; at small budgets a flat search over the root is stronger.
        """
        return cls(iterations, "heuristic", 0.5, paired=True, anchor=1.0, expand_after=FLAT)


FLAT = 1_000_000
"""An ``expand_after`` no search reaches: the tree never grows below the root."""


# --------------------------------------------------------------------------- balance analysis
SOLO, INDIVIDUAL, TEAMS, VARIANT = "solo", "individual", "teams", "variant"


@dataclass(frozen=True)
class Scenario:
    """One option set worth analysing. ``key`` is a short id usable on the command line."""

    key: str
    title: str
    mode: str
    options: Mapping[str, Any]


@dataclass(frozen=True)
class AnalysisProfile:
    """What the balance analysis should compare for one game (every field optional).

    Without one, a game is analysed once per player count (or with its default options).
    """

    scenarios: Callable[[Game], list[Scenario]] | None = None
    variants: tuple[Scenario, ...] = ()
    sides: Callable[[Any], tuple[int, ...] | None] | None = None  # options -> each seat's team
    metrics: Callable[[State], dict[str, float]] | None = None  # public numbers of a finished game
    notes: tuple[str, ...] = ()


# --------------------------------------------------------------------------- interop
@dataclass(frozen=True)
class InteropSpec:
    """The full, fixed action lists the OpenSpiel/PettingZoo/Gymnasium bridges number.

    Actions are written in the game's JSON action format (the one records use) and parsed
    with ``game.action_from_json``, so the spec depends on a documented format only.
    """

    actions: Callable[[Any], tuple[list[Any], list[Any]]]
    """options -> (player actions, chance outcomes), as JSON."""
    max_length: Callable[[Any], tuple[int, int]]
    """options -> (most decisions, most chance nodes) in one game."""
    encoder: Callable[[Any], Any] | None = None
    """options -> an exact ``ObservationEncoder`` (see :mod:`ludus.core.encoding`); None: hashed."""


# --------------------------------------------------------------------------- rated play
@dataclass(frozen=True)
class RatingPool:
    """Player counts rated together: the game's character is alike across them, so one rating
    says how well someone plays it there. ``key`` is a short id (URLs, the database)."""

    key: str
    label: str
    min_seats: int
    max_seats: int

    def holds(self, seats: int) -> bool:
        return self.min_seats <= seats <= self.max_seats


@dataclass(frozen=True)
class RatedPlay:
    """How a game is played for a rating: the pools, and the options a rated table may choose.

    Every option not in ``choose`` keeps the game's default (its standard rules), so players'
    ratings compare like with like. ``note`` says, for players, why the pools are cut where
    they are."""

    pools: tuple[RatingPool, ...]
    choose: tuple[str, ...] = ()
    note: str = ""

    def __post_init__(self) -> None:
        keys = [pool.key for pool in self.pools]
        if not self.pools or len(set(keys)) != len(keys):
            raise PluginError("rated play needs one or more pools with distinct keys")
        for pool in self.pools:
            if not pool.key or not all(c.islower() or c.isdigit() or c == "-" for c in pool.key):
                raise PluginError(f"rating pool key {pool.key!r} must be lower-case letters, digits and '-'")
            if not 2 <= pool.min_seats <= pool.max_seats:
                raise PluginError(f"rating pool {pool.key!r}: a rated game needs two or more seats")
        spans = sorted((p.min_seats, p.max_seats) for p in self.pools)
        if any(low <= prev_high for (_, prev_high), (low, _) in itertools.pairwise(spans)):
            raise PluginError("rating pools must not share a player count")

    def pool_for(self, seats: int) -> RatingPool | None:
        return next((pool for pool in self.pools if pool.holds(seats)), None)


# --------------------------------------------------------------------------- the declaration
def resolve(ref: str, package: str = "") -> Any:
    """The object a ``"module:attribute"`` reference names (``".module"`` is relative to ``package``)."""
    module_name, sep, attr = ref.partition(":")
    if not sep or not module_name or not attr:
        raise PluginError(f"{ref!r} is not a 'module:attribute' reference")
    try:
        module = importlib.import_module(module_name, package or None)
    except ImportError as exc:
        raise PluginError(f"cannot import {module_name!r} for {ref!r}: {exc}") from exc
    obj: Any = module
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise PluginError(f"{ref!r}: {module.__name__} has no attribute {attr!r}") from None
    return obj


_PARTS = ("heuristic", "analysis", "interop", "page_data", "terminal")


@dataclass(frozen=True)
class GamePlugin:
    """Everything the rest of Ludus needs to know about one game.

    ``name`` is the game's id (the one records, URLs and the command line use) and must equal
    the ``name`` of the ``Game`` that ``game`` refers to.
    """

    name: str
    package: str
    """The package the plugin lives in (``__name__`` of its ``__init__``); relative refs start here."""
    game: str
    """Reference to the ``Game`` instance."""
    heuristic: str | None = None
    """Reference to the heuristic ``Agent`` class (a ``ludus.core.agent.Agent`` taking ``seed``)."""
    search: Mapping[str, SearchBudget] = field(default_factory=dict)
    """ISMCTS budget per level (``easy``, ``medium``, ``hard``); missing levels use the generic ones."""
    analysis: str | None = None
    """Reference to an :class:`AnalysisProfile`."""
    interop: str | None = None
    """Reference to an :class:`InteropSpec` (not needed when the Game itself has ``action_space``)."""
    page_data: str | None = None
    """Reference to a function returning the JSON data the game's page script needs."""
    page_script: str | None = None
    """File name, inside the package, of the browser page module (an ES module); None: generic page."""
    page_style: str | None = None
    """File name, inside the package, of a stylesheet for the page (beside the shared components)."""
    terminal: str | None = None
    """Reference to a ``ludus.core.terminal.TerminalAdapter`` instance for ``ludus play``."""
    how_to_play: str | None = None
    """Path, inside the package, of the game's rules for players (Markdown, e.g. ``data/how-to-play.md``):
    what ``ludus rules`` and the browser's rules panel show."""
    tutorial: str | None = None
    """Path, inside the package, of the guided first game (TOML, e.g. ``data/tutorial.toml``; see
    :mod:`ludus.core.tutorial`): what ``ludus learn`` and the lobby's Learn button play."""
    order: int = 100
    """Where the game comes in lists (lower first, then by name)."""
    rated: RatedPlay | None = None
    """Rated play (pools of player counts, the options a rated table may set); None: casual only."""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name or not all(
                c.islower() or c.isdigit() or c == "-" for c in self.name):
            raise PluginError(f"game name {self.name!r} must be lower-case letters, digits and '-'")
        if not isinstance(self.game, str):
            raise PluginError(f"game {self.name!r}: 'game' must be a 'module:attribute' reference")
        object.__setattr__(self, "search", MappingProxyType(dict(self.search)))
        for level, budget in self.search.items():
            if not isinstance(budget, SearchBudget):
                raise PluginError(f"game {self.name!r}: search level {level!r} is not a SearchBudget")
        for part, suffix in (("page_script", ".js"), ("page_style", ".css")):
            value = getattr(self, part)
            if value is not None and (not isinstance(value, str) or "/" in value or "\\" in value
                                      or value.startswith(".") or not value.endswith(suffix)):
                raise PluginError(f"game {self.name!r}: {part} must be a {suffix} file name in its package")
        if self.rated is not None and not isinstance(self.rated, RatedPlay):
            raise PluginError(f"game {self.name!r}: 'rated' must be a RatedPlay")
        rules = self.how_to_play
        if rules is not None and (not isinstance(rules, str) or "\\" in rules or not rules.endswith(".md")
                                  or any(step in ("", ".", "..") for step in rules.split("/"))):
            raise PluginError(f"game {self.name!r}: how_to_play must be a .md file path inside its package")
        lesson = self.tutorial
        if lesson is not None and (not isinstance(lesson, str) or "\\" in lesson or not lesson.endswith(".toml")
                                   or any(step in ("", ".", "..") for step in lesson.split("/"))):
            raise PluginError(f"game {self.name!r}: tutorial must be a .toml file path inside its package")

    def load(self, part: str) -> Any:
        """The object behind one reference (``"game"`` or one of the optional parts), or None if absent."""
        if part != "game" and part not in _PARTS:
            raise PluginError(f"a game plugin has no part {part!r}")
        ref = getattr(self, part)
        if ref is None:
            return None
        try:
            return resolve(ref, self.package)
        except PluginError as exc:
            raise PluginError(f"game {self.name!r}: its {part.replace('_', ' ')} cannot be loaded: {exc}") from exc

    def page_script_text(self) -> str | None:
        """The page module's source, read from the package's own files."""
        return self._package_text(self.page_script)

    def page_style_text(self) -> str | None:
        """The page stylesheet, read from the package's own files."""
        return self._package_text(self.page_style)

    def how_to_play_text(self) -> str | None:
        """The rules for players (Markdown), read from the package's own files; None if it has none."""
        return self._package_text(self.how_to_play)

    def translated_how_to_play_text(self, lang: str) -> str | None:
        """The rules for players in ``lang``: the file beside the English one with the language
        before its suffix (``data/how-to-play.es.md``); None when the game has none in ``lang``."""
        if self.how_to_play is None or lang == "en":
            return None
        stem, _dot, suffix = self.how_to_play.rpartition(".")
        ref = importlib.resources.files(self.package).joinpath(*f"{stem}.{lang}.{suffix}".split("/"))
        return ref.read_text(encoding="utf-8") if ref.is_file() else None

    def tutorial_text(self) -> str | None:
        """The guided first game's script (TOML), read from the package's own files; None if it has none."""
        return self._package_text(self.tutorial)

    def _package_text(self, name: str | None) -> str | None:
        if name is None:
            return None
        ref = importlib.resources.files(self.package).joinpath(*name.split("/"))
        if not ref.is_file():
            raise PluginError(f"game {self.name!r}: {name!r} is missing from {self.package}")
        return ref.read_text(encoding="utf-8")
