"""The one protocol every game implements and every other layer uses.

A :class:`Game` describes a ruleset and its options; a :class:`State` is one position in a
game of it. States are mutable for speed (``apply`` changes them in place, ``clone`` is
cheap), actions are small immutable values, observations are immutable per-seat views.

Chance (deals, draws, shuffles) follows OpenSpiel: a state whose ``current_seats()`` is
``(CHANCE,)`` waits for a chance outcome. A state made with a seed settles chance by itself
from the seeded :class:`~ludus.core.rng.Rng` it carries, so bots and clients never see a
chance node; a state made without a seed (``seed=None``) stops at every chance node and
lets the caller pick outcomes, which is how explicit deals are replayed and how the
OpenSpiel bridge drives chance.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from .errors import DataError, IllegalAction, InvalidOptions, RecordError, Refusal
from .options import describe_options, options_to_json, parse_options, with_legacy_values
from .provenance import DataValue
from .rng import Rng

if TYPE_CHECKING:
    from .compiled import CompiledPlayouts

__all__ = [
    "CHANCE", "HIDDEN", "Action", "Game", "Observation", "SeatView", "State", "action_key", "legal_labels",
    "play_random", "seat_range_error",
]

CHANCE = -1
"""The pseudo-seat that acts at chance nodes."""

HIDDEN = "hidden"
"""Stands in for an action a viewer may not see in :meth:`State.visible_history`."""


def action_key(action: Action) -> str:
    """Canonical JSON text of an action: equal actions give equal keys in every process (the
    bridges number actions by it, and trained policies name their outputs with it)."""
    return json.dumps(action.to_json(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Action:
    """Base of all action values. Subclasses are frozen, hashable and carry a short label."""

    __slots__ = ()

    @property
    def label(self) -> str:
        raise NotImplementedError

    def to_json(self) -> Any:
        raise NotImplementedError

    def visible_to(self, viewer: int | None, actor: int) -> bool:
        """Whether ``viewer`` (a seat, or ``None`` for a spectator) may see this action."""
        return True

    def __str__(self) -> str:
        return self.label


class Observation:
    """Base of per-seat observations: frozen dataclasses that hold only what a seat may see."""

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError


@dataclass(frozen=True)
class SeatView:
    """Everything an agent or client may know when it is ``seat``'s turn, and nothing else."""

    game: Game
    options: Any
    seat: int
    observation: Any
    legal_actions: tuple[Action, ...]
    history: tuple[tuple[int, Action | str], ...]


OptionsT = TypeVar("OptionsT")


class State(ABC, Generic[OptionsT]):
    """One position. Subclasses implement the ``_``-prefixed hooks and the abstract queries."""

    game: Game
    options: OptionsT

    def __init__(self, game: Game, options: OptionsT, rng: Rng | None) -> None:
        self.game = game
        self.options = options
        self.rng = rng
        self.history: list[tuple[int, Action]] = []

    # ----------------------------------------------------------------- queries
    @abstractmethod
    def current_seats(self) -> tuple[int, ...]:
        """Seats whose decision it is: one seat, several (simultaneous), (CHANCE,), or () at the end."""

    @abstractmethod
    def legal_actions(self, seat: int | None = None) -> Sequence[Action]:
        """Legal actions of ``seat`` (default: the single current seat), in a stable order.

        The result may be a shared immutable sequence: copy it before changing it.
        """

    def _acting_seat(self, seat: int | None) -> int | None:
        """For ``legal_actions``: the seat asked about, or the single current seat when none is
        named; None when that seat has nothing to decide now (not its turn, several seats
        deciding and none named, or the game over)."""
        seats = self.current_seats()
        if seat is None:
            return seats[0] if len(seats) == 1 else None
        return seat if seat in seats else None

    @abstractmethod
    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may see now; ``None`` is a spectator (public information only)."""

    @abstractmethod
    def scores(self) -> list[float]:
        """The game's own per-seat score (points, supports, hit points…)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """Winning seats once terminal (several on a tie); empty before the end."""

    def is_terminal(self) -> bool:
        return not self.current_seats()

    def is_chance_node(self) -> bool:
        return self.current_seats() == (CHANCE,)

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Outcomes and probabilities at a chance node."""
        raise IllegalAction("this is not a chance node")

    def returns(self) -> list[float]:
        """Per-seat result for learning and tournaments: 1 shared among winners, else 0."""
        n = self.game.num_seats(self.options)
        if not self.is_terminal():
            return [0.0] * n
        win = self.winners()
        return [1.0 / len(win) if s in win else 0.0 for s in range(n)]

    def num_seats(self) -> int:
        return self.game.num_seats(self.options)

    # ----------------------------------------------------------------- moves
    def why_illegal(self, action: Action, seat: int) -> str | None:
        """A player-readable reason why ``seat`` may not play ``action`` now, or None if legal."""
        if action in self.legal_actions(seat):
            return None
        return Refusal(f"{action} is not a legal move now", "not-legal", {"action": str(action)})

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Play ``action`` for ``seat``; raise :class:`IllegalAction` and change nothing if illegal."""
        seats = self.current_seats()
        if seat is None:
            if len(seats) != 1:
                if not seats:
                    raise IllegalAction("the game is over", code="game-over")
                raise IllegalAction("several seats decide now; say which seat is acting", code="which-seat")
            seat = seats[0]
        elif seat not in seats:
            if not seats:
                raise IllegalAction("the game is over", code="game-over")
            raise IllegalAction(f"it is not seat {seat}'s turn", code="not-your-turn", params={"seat": seat})
        if seat == CHANCE:
            if not any(a == action for a, _ in self.chance_outcomes()):
                raise IllegalAction(f"{action} is not a possible chance outcome here", code="not-a-chance-outcome",
                                    params={"action": str(action)})
        else:
            reason = self.why_illegal(action, seat)
            if reason is not None:
                raise IllegalAction(reason)
        self._apply(seat, action)
        self.history.append((seat, action))
        if self.rng is not None:
            self._settle_chance()

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> None:
        """Change the state for a validated action (chance outcomes included)."""

    def sample_chance(self, rng: Rng) -> Action:
        """Pick a chance outcome; games may override with something faster than the list."""
        outcomes = self.chance_outcomes()
        if len(outcomes) == 1:
            return outcomes[0][0]
        return outcomes[rng.weighted([p for _, p in outcomes])][0]

    def _settle_chance(self) -> None:
        rng = self.rng
        assert rng is not None
        while self.current_seats() == (CHANCE,):
            outcome = self.sample_chance(rng)
            self._apply(CHANCE, outcome)
            self.history.append((CHANCE, outcome))

    # ----------------------------------------------------------------- views
    def visible_history(self, viewer: int | None) -> list[tuple[int, Action | str]]:
        """The history with every action ``viewer`` may not see replaced by :data:`HIDDEN`."""
        return [
            (actor, action if self._visible(i, actor, action, viewer) else HIDDEN)
            for i, (actor, action) in enumerate(self.history)
        ]

    def _visible(self, index: int, actor: int, action: Action, viewer: int | None) -> bool:
        return actor == viewer or action.visible_to(viewer, actor)

    def view(self, seat: int) -> SeatView:
        return SeatView(
            game=self.game,
            options=self.options,
            seat=seat,
            observation=self.observation(seat),
            legal_actions=tuple(self.legal_actions(seat)),
            history=tuple(self.visible_history(seat)),
        )

    # ----------------------------------------------------------------- copies
    @abstractmethod
    def clone(self) -> State[OptionsT]:
        """An independent copy (history list copied, immutable parts shared)."""

    @abstractmethod
    def _position(self) -> dict[str, Any]:
        """The game-specific part of the position JSON."""

    def to_json(self) -> dict[str, Any]:
        """The full state as JSON (a "position"); reveals everything, so never send it to a seat."""
        return {
            "game": self.game.name,
            "options": options_to_json(self.options),
            "rng": None if self.rng is None else self.rng.state,
            "state": self._position(),
        }

    def __str__(self) -> str:
        return f"<{self.game.name} state, seats to act {self.current_seats()}>"


S = TypeVar("S", bound=State)


class Game(ABC):
    """A ruleset: its name, options and how to start and read its states."""

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str] = ""
    Options: ClassVar[type]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]

    # ----------------------------------------------------------------- options
    def parse_options(self, values: Mapping[str, Any] | Any | None = None) -> Any:
        if isinstance(values, self.Options):
            return values
        return parse_options(self.Options, values)

    def parse_stored_options(self, values: Mapping[str, Any] | None) -> Any:
        """Options of a stored game (record, position, server table): as :meth:`parse_options`,
        with every option it does not name set to the value games had before that option
        existed (``legacy`` in :func:`ludus.core.options.option`)."""
        return self.parse_options(with_legacy_values(self.Options, values))

    def describe_options(self) -> list:
        return describe_options(self.Options)

    @abstractmethod
    def num_seats(self, options: Any) -> int:
        """How many seats a game with these options has."""

    def seat_names(self, options: Any) -> list[str]:
        return [f"Seat {i + 1}" for i in range(self.num_seats(options))]

    # ----------------------------------------------------------------- states
    def new_initial_state(self, options: Any = None, seed: int | None = None) -> State:
        """A new game. With a seed chance is settled internally; with ``None`` it is explicit."""
        opts = self.parse_options(options)
        state = self._new_state(opts, None if seed is None else Rng(seed))
        if state.rng is not None:
            state._settle_chance()
        return state

    @abstractmethod
    def _new_state(self, options: Any, rng: Rng | None) -> State:
        """The state before any chance outcome or decision."""

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_json`; malformed data raises RecordError.

        Each game checks its own fields completely (ranges, lengths, types, where every card
        is, what the phase requires), so that a position either loads as one the engine can
        play on or is refused with a message naming the field. Invalid options are refused
        the same way. Any other error a game's reader lets slip is turned into a RecordError
        here as a last line of defence, never into a half-built state.
        """
        if not isinstance(data, Mapping) or data.get("game") != self.name:
            raise RecordError(f"not a {self.name} position")
        raw_options = data.get("options")
        if raw_options is not None and not isinstance(raw_options, Mapping):
            raise RecordError("position 'options' must be an object")
        try:
            opts = self.parse_stored_options(raw_options or {})
        except (InvalidOptions, DataError) as exc:
            raise RecordError(f"position options are invalid: {exc}") from exc
        rng_state = data.get("rng")  # absent or null: chance is explicit
        if rng_state is not None and (
            not isinstance(rng_state, int) or isinstance(rng_state, bool) or not 0 <= rng_state < 1 << 64
        ):
            raise RecordError("position 'rng' must be a whole number from 0 to 2**64 - 1, or null")
        rng = None if rng_state is None else Rng(rng_state)
        if not isinstance(data.get("state"), Mapping):
            raise RecordError("position 'state' must be an object")
        try:
            return self._state_from_position(opts, rng, data["state"])
        except RecordError:
            raise
        except (InvalidOptions, DataError) as exc:
            raise RecordError(f"position options are invalid: {exc}") from exc
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError,
                RecursionError, AssertionError) as exc:
            raise RecordError(f"malformed {self.name} position: {exc!r}") from exc

    @abstractmethod
    def _state_from_position(self, options: Any, rng: Rng | None, data: Any) -> State:
        """Inverse of ``State._position``: check every field and raise RecordError naming the
        field on anything inconsistent (``data`` is known to be a mapping)."""

    @abstractmethod
    def action_from_json(self, data: Any) -> Action:
        """Parse an action; raise RecordError naming the problem if it is malformed."""

    def sample_state(self, view: SeatView, rng: Rng) -> State:
        """A full state consistent with everything ``view`` knows (determinization for search)."""
        raise NotImplementedError(f"{self.name} has no determinization sampler yet")

    compiled_module: ClassVar[str | None] = None
    """The module holding this game's compiled playouts as ``PLAYOUTS`` (its ``compiled.py``), or
    None for a game without them."""

    def compiled_playouts(self) -> CompiledPlayouts | None:
        """This game's compiled playouts (:mod:`ludus.core.compiled`), or None: search bots then
        play their playouts with the Python engine. The module (and numba) is imported only here,
        and only where compiled code can run: compiling takes seconds a game that never searches
        should not pay."""
        if self.compiled_module is None:
            return None
        from .compiled import load_playouts

        return load_playouts(self.compiled_module)

    def data_values(self, options: Any = None) -> list[DataValue]:
        """Every value of the game's data (for these options) that the rulebook does not print.

        Each one says whether it follows from a worked example or is Ludus's own choice
        (:mod:`ludus.core.provenance`). Values loaded from a player's own file are theirs,
        not ours, and are not listed. The default is a game whose data is all printed.
        """
        return []


def seat_range_error(game: Game, n: int) -> str:
    return f"{game.title} is for {game.min_seats} to {game.max_seats} players, not {n}"


def play_random(state: State, rng: Rng, max_steps: int = 1_000_000) -> State:
    """Play uniformly random legal moves (and chance outcomes) to the end; for tests and sims."""
    for _ in range(max_steps):
        seats = state.current_seats()
        if not seats:
            return state
        seat = seats[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
            continue
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    raise RuntimeError("game did not end")


def legal_labels(actions: Sequence[Action]) -> list[str]:
    return [a.label for a in actions]
