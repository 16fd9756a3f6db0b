"""Every Ludus game as an OpenSpiel Python game (``pyspiel.load_game("ludus_gorus_maximus")``).

Design, in short (``docs/interop.md`` has the long form):

* **Names and parameters.** ``gorus-maximus`` registers as ``ludus_gorus_maximus``; every
  int, bool and text option of the game is an OpenSpiel parameter with the option's default
  (a comma inside a text value is written ``;`` there, as game strings use commas).
* **Actions.** Numbers come from :class:`~ludus.interop.action_space.ActionSpace`: player
  actions are ``0 .. num_distinct_actions-1``, chance outcomes ``0 .. max_chance_outcomes-1``.
* **Chance** is explicit (``EXPLICIT_STOCHASTIC``): the Ludus state is made with
  ``seed=None``, so it stops at every deal and draw and OpenSpiel picks the outcome.
* **Simultaneous phases** are taken in seat order (see
  :func:`~ludus.interop.action_space.acting_seat`), so every game is ``SEQUENTIAL`` and
  OpenSpiel's MCTS and ISMCTS, which need turn-based games, can play all of them.
* **Information.** The information-state string is the seat's view of the history (actions
  it may not see appear as ``?``) plus its current observation; the observation string is
  the observation alone. Tensors come from the game's encoder (:mod:`.encoding`); the
  information-state tensor uses the same layout as the observation tensor, so perfect
  recall lives in the string only.
* **resample_from_infostate** asks the game's ``sample_state`` for a full state consistent
  with the seat's view. If the sample carries a whole past that the seat sees exactly as it
  saw the real one, that past is used as it is. Otherwise (samplers may rebuild only the
  present) the copy remembers the seat's history string, and the public one for the other
  seats, and appends to it from there.
* **Serialization.** OpenSpiel pickles a Python state's ``__dict__``; ours holds one
  :class:`_Core`, which pickles as the Ludus position JSON plus its history in action JSON.
* **Speed.** Every call from OpenSpiel's C++ back into Python costs about a microsecond, so
  what Python callers ask most (``legal_actions``, ``is_chance_node``, the two strings) is
  answered in Python with the C++ methods' answers; the current player, legal-action
  numbers and chance outcomes are remembered per history length or by object identity; and
  fresh initial states share one template until they move (``Clone`` makes one and
  overwrites it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from ..core.game import CHANCE, Action, Game, SeatView, State
from ..core.options import options_to_json
from ..core.rng import Rng
from ..games import game_names, get_game
from .action_space import ActionSpace, Bounds, build_action_space, game_bounds
from .encoding import ObservationEncoder
from .specs import encoder_for

__all__ = [
    "PREFIX", "REGISTERED", "SKIPPED", "TERMINAL", "Bridge", "LudusGame", "LudusObserver", "LudusState",
    "bridge_for", "game_type", "load", "openspiel_name", "register", "register_all",
]

PREFIX = "ludus_"
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _dumps(obj: Any) -> str:
    """Canonical compact JSON: sorted keys, no spaces, non-ASCII kept."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def openspiel_name(game_name: str) -> str:
    """``gorus-maximus`` -> ``ludus_gorus_maximus`` (OpenSpiel names use underscores)."""
    return PREFIX + game_name.replace("-", "_")


# --------------------------------------------------------------------------- per-options data
class Bridge:
    """Everything fixed for one game with one set of options, shared by all its states."""

    def __init__(self, game: Game, options: Any) -> None:
        self.game = game
        self.options = game.parse_options(options)
        self.options_json = options_to_json(self.options)
        self.space: ActionSpace = build_action_space(game, self.options)
        self.bounds: Bounds = game_bounds(game, self.options)
        self.encoder: ObservationEncoder = encoder_for(game, self.options)
        self.num_players = game.num_seats(self.options)
        self.template = game.new_initial_state(self.options, seed=None)
        cls = type(self.template)
        self.stable_visibility = cls._visible is State._visible and cls.visible_history is State.visible_history
        """True when an action's visibility is fixed when it is played (the core's default rule)."""
        self._player_numbers = _Numbers(self.space.player, self.space.player_id)
        self._chance_numbers = _Numbers(self.space.chance, self.space.chance_id)
        self._legal_by_id: dict[int, tuple[Sequence[Action], list[int]]] = {}

    def player_ids(self, actions: Sequence[Action]) -> list[int]:
        """The sorted numbers of ``actions``; treat the list as read-only (it may be shared).

        A tuple of actions (Gorus Maximus returns shared cached tuples) is converted once and
        remembered by identity; the memo holds the tuple, so its id stays unique while there.
        """
        shared = type(actions) is tuple
        if shared:
            hit = self._legal_by_id.get(id(actions))
            if hit is not None and hit[0] is actions:
                return hit[1]
        ids = self._player_numbers(actions)
        ids.sort()
        if shared:
            if len(self._legal_by_id) >= _MEMO_LIMIT:
                self._legal_by_id.clear()
            self._legal_by_id[id(actions)] = (actions, ids)
        return ids

    def chance_pairs(self, outcomes: Sequence[tuple[Action, float]]) -> list[tuple[int, float]]:
        """``(number, probability)`` for each outcome, sorted by number."""
        if not outcomes:
            return []
        actions, probs = zip(*outcomes)
        ids = self._chance_numbers(actions)
        pairs = list(zip(ids, probs))
        pairs.sort()
        return pairs


class _Numbers:
    """Action -> number for one table of the action space, by object identity where it can.

    Engines hand out the same action objects again and again (the table's own, as Gorus
    Maximus does, or their own cached ones, as Gladius does), so a number is looked up by
    ``id`` first: no dataclass hash. An object found by value is remembered by its id, and
    kept (pinned) so that its id cannot pass to another object while it is remembered; the
    table keeps its own objects. Past ``_PIN_LIMIT`` remembered objects the memo starts over.
    """

    def __init__(self, table: tuple[Action, ...], slow: Callable[[Action], int]) -> None:
        self._table = table
        self._table_ids = {id(a): i for i, a in enumerate(table)}
        self._by_id = dict(self._table_ids)
        self._by_value = {a: i for i, a in enumerate(table)}
        self._pins: list[Action] = []
        self._slow = slow  # the action space's lookup: by JSON as a last resort, raises if missing

    def __call__(self, actions: Sequence[Action]) -> list[int]:
        by_id = self._by_id
        if actions and id(actions[0]) in by_id:
            known = list(map(by_id.get, map(id, actions)))
            if None not in known:
                return known  # type: ignore[return-value]  # no None left
        found = list(map(self._by_value.get, actions))
        if None in found:
            slow = self._slow
            found = [slow(a) if i is None else i for a, i in zip(actions, found)]
        self._remember(actions, found)  # type: ignore[arg-type]
        return found  # type: ignore[return-value]

    def _remember(self, actions: Sequence[Action], numbers: list[int]) -> None:
        if len(self._pins) > _PIN_LIMIT:
            self._by_id = dict(self._table_ids)
            self._pins = []
        by_id, pins = self._by_id, self._pins
        for a, i in zip(actions, numbers):
            key = id(a)
            if key not in by_id:
                by_id[key] = i
                pins.append(a)


_PIN_LIMIT = 100_000
"""Most engine-made action objects a :class:`_Numbers` remembers before it starts over."""

_MEMO_LIMIT = 4096
"""Most legal-action tuples a bridge remembers; engines that build a new tuple each time refill it."""


_BRIDGES: dict[tuple[str, str], Bridge] = {}


def bridge_for(game: Game, options: Any) -> Bridge:
    """The shared :class:`Bridge` of ``game`` with ``options`` (built once per process)."""
    opts = game.parse_options(options)
    key = (game.name, _dumps(options_to_json(opts)))
    hit = _BRIDGES.get(key)
    if hit is None:
        hit = _BRIDGES[key] = Bridge(game, opts)
    return hit


# --------------------------------------------------------------------------- the state's payload
@dataclass(frozen=True)
class _Origin:
    """Where a resampled state began: the history strings it inherits.

    ``viewer`` is the seat whose view was resampled; it keeps its own history string, and
    every other seat (and a spectator) gets the public history string of that moment.
    """

    viewer: int
    viewer_part: str
    public_part: str


class _Core:
    """The Ludus state behind one OpenSpiel state, plus what a resample inherited."""

    __slots__ = ("_chance", "_parts", "_seat", "_shared", "_views", "bridge", "offset", "origin", "state")

    def __init__(self, bridge: Bridge, state: State, origin: _Origin | None = None, offset: int = 0,
                 shared: bool = False) -> None:
        self.bridge = bridge
        self.state = state
        # True while ``state`` is the bridge's template, shared by every untouched initial state
        # (OpenSpiel's Clone makes one only to overwrite it): copied before any move (``own``).
        self._shared = shared
        self.origin = origin
        self.offset = offset  # history entries of ``state`` that predate the resample
        self._parts: dict[int | None, tuple[int, str]] = {}  # seat -> (history length, text)
        self._views: dict[tuple[int, int], SeatView] = {}
        self._chance: tuple[int, list[tuple[int, float]]] | None = None  # (history length, numbered outcomes)
        self._seat = (-1, TERMINAL)  # (history length, OpenSpiel's current player)

    # OpenSpiel's Clone deep-copies the Python attributes: make that a cheap Ludus clone.
    def __deepcopy__(self, memo: dict) -> _Core:
        shared = self._shared
        new = _Core(self.bridge, self.state if shared else self.state.clone(), self.origin, self.offset, shared)
        new._parts = dict(self._parts)  # same history, same texts; growth is handled on use
        new._chance = self._chance  # keyed on the history length, so it is dropped once either moves
        new._seat = self._seat
        return new

    def __getstate__(self) -> dict[str, Any]:
        st = self.state
        return {
            "game": self.bridge.game.name,
            "options": self.bridge.options_json,
            "position": st.to_json(),
            "history": [[seat, action.to_json()] for seat, action in st.history],
            "origin": None if self.origin is None else [self.origin.viewer, self.origin.viewer_part,
                                                        self.origin.public_part],
            "offset": self.offset,
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        game = get_game(data["game"])
        self.bridge = bridge_for(game, data["options"])
        state = game.state_from_json(data["position"])
        state.history = [(seat, game.action_from_json(a)) for seat, a in data["history"]]
        self.state = state
        self._shared = False
        origin = data["origin"]
        self.origin = None if origin is None else _Origin(origin[0], origin[1], origin[2])
        self.offset = data["offset"]
        self._parts = {}
        self._views = {}
        self._chance = None
        self._seat = (-1, TERMINAL)

    def own(self) -> State:
        """The Ludus state, first copied from the template if it is still shared."""
        if self._shared:
            self.state = self.state.clone()
            self._shared = False
        return self.state

    def acting(self) -> int:
        """OpenSpiel's current player: :func:`~.action_space.acting_seat`, with TERMINAL for None.

        OpenSpiel asks several times per step (``apply_action``, ``is_chance_node``,
        ``legal_actions``), so the answer is kept until the history grows: every move,
        chance outcomes included, appends one entry to it.
        """
        st = self.state
        n = len(st.history)
        at, seat = self._seat
        if at == n:
            return seat
        seats = st.current_seats()
        # CHANCE is -1 in both libraries; several seats: the lowest acts first
        seat = TERMINAL if not seats else seats[0] if len(seats) == 1 or seats[0] == CHANCE else min(seats)
        self._seat = (n, seat)
        return seat

    # ------------------------------------------------------------- information
    def history_part(self, seat: int | None) -> str:
        """``seat``'s view of the history as text: ``actor:action-json`` or ``actor:?``, ``;``-joined.

        When the game's visibility rule is the core's default (an action's visibility never
        changes later), the text is extended action by action and survives clones, so a
        search pays for each action once; otherwise it is rebuilt from ``visible_history``.
        """
        st = self.state
        n = len(st.history)
        hit = self._parts.get(seat)
        if hit is not None and hit[0] == n:
            return hit[1]
        render = self.bridge.space.key
        if self.bridge.stable_visibility and hit is not None:
            start, text = hit
            entries = [(actor, a if actor == seat or a.visible_to(seat, actor) else None)
                       for actor, a in st.history[start:n]]
        else:
            text = self._prefix(seat)
            entries = [(actor, None if isinstance(a, str) else a)
                       for actor, a in st.visible_history(seat)[self.offset:]]
        new = ";".join(f"{actor}:?" if a is None else f"{actor}:{render(a)}" for actor, a in entries)
        text = f"{text};{new}" if text and new else text or new
        self._parts[seat] = (n, text)
        return text

    def full_history_part(self) -> str:
        """Every action in the clear (the all-players view); before a resample, the public part."""
        render = self.bridge.space.key
        text = ";".join(f"{actor}:{render(a)}" for actor, a in self.state.history[self.offset:])
        prefix = "" if self.origin is None else self.origin.public_part
        return f"{prefix};{text}" if prefix and text else prefix or text

    def _prefix(self, seat: int | None) -> str:
        if self.origin is None:
            return ""
        return self.origin.viewer_part if seat == self.origin.viewer else self.origin.public_part

    def observation_json(self, seat: int | None) -> str:
        return _dumps(self.state.observation(seat).to_json())

    def resample(self, seat: int, rng: Rng) -> _Core:
        """A core for a full state the game samples from ``seat``'s view."""
        st = self.state
        key = (seat, len(st.history))
        view = self._views.get(key)
        if view is None:
            view = self._views[key] = st.view(seat)
        sampled = self.bridge.game.sample_state(view, rng)
        sampled.rng = None  # chance stays explicit: OpenSpiel picks the outcomes from here on
        mine = self.history_part(seat)
        if sampled.history:  # the sampler rebuilt a whole past: use it if the seat sees the same
            whole = _Core(self.bridge, sampled)
            if whole.history_part(seat) == mine:
                return whole
        origin = _Origin(seat, mine, self.history_part(None))
        return _Core(self.bridge, sampled, origin, len(sampled.history))


# --------------------------------------------------------------------------- OpenSpiel classes
class LudusState(pyspiel.State):
    """An OpenSpiel state wrapping a Ludus state (its only Python attribute is ``_core``)."""

    def __init__(self, game: LudusGame, core: _Core) -> None:
        super().__init__(game)
        self._core = core

    @property
    def ludus_state(self) -> State:
        """The Ludus state (full information: never hand it to a seat)."""
        return self._core.own()  # the caller may move it: never hand out the shared template

    def current_player(self) -> int:
        return self._core.acting()

    # ``legal_actions`` and ``is_chance_node`` answered in Python for Python callers (OpenSpiel's
    # Python bots among them): the C++ versions call back into Python three or four times per
    # call. Same answers as the C++ ones; C++ callers still get those, which call the hooks below.
    def legal_actions(self, player: int | None = None) -> list[int]:
        core = self._core
        seat = core.acting()
        if player is None:
            player = seat
        if seat == TERMINAL:
            return []
        if seat == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if player == seat:
            return list(core.bridge.player_ids(core.state.legal_actions(player)))
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        return self._core.acting() == CHANCE

    # The two strings OpenSpiel's Python searches key their trees on, likewise written here
    # rather than reached through C++ and the observer (the text is the observer's).
    def information_state_string(self, player: int | None = None) -> str:
        core = self._core
        seat = self._string_seat(player)
        return f"seat {seat}\n{core.history_part(seat)}\n{core.observation_json(seat)}"

    def observation_string(self, player: int | None = None) -> str:
        seat = self._string_seat(player)
        return f"seat {seat}\n{self._core.observation_json(seat)}"

    def _string_seat(self, player: int | None) -> int:
        seat = self._core.acting() if player is None else player
        if not 0 <= seat < self._core.bridge.num_players:
            raise pyspiel.SpielError(f"player {seat} has no information state (0 <= player < "
                                     f"{self._core.bridge.num_players})")
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        return list(core.bridge.player_ids(core.state.legal_actions(player)))  # a copy, as above

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        st = core.state
        n = len(st.history)
        hit = core._chance
        if hit is None or hit[0] != n:
            hit = core._chance = (n, core.bridge.chance_pairs(st.chance_outcomes()))
        return list(hit[1])  # a Python caller gets the method's result itself: never the cached list

    def _apply_action(self, action: int) -> None:
        core = self._core
        seat = core.acting()
        st = core.own()
        if seat == CHANCE:
            st.apply(core.bridge.space.chance[action], CHANCE)
        elif seat == TERMINAL:
            st.apply(core.bridge.space.player[action])  # raises: the game is over
        else:
            st.apply(core.bridge.space.player[action], seat)

    def _action_to_string(self, player: int, action: int) -> str:
        space = self._core.bridge.space
        names = space.chance_names if player == CHANCE else space.player_names
        if 0 <= action < len(names):
            return names[action]
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self._core.acting() == TERMINAL

    def returns(self) -> list[float]:
        return [float(x) for x in self._core.state.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LudusState:
        """A state drawn from ``player_id``'s information set via the game's ``sample_state``.

        ``probability_sampler`` is OpenSpiel's callable returning a float in [0, 1) (as the
        ISMCTS bots pass); it seeds the Ludus sampler, so a seeded sampler gives repeatable
        draws. Games without a sampler raise ``NotImplementedError``.
        """
        seed = int(float(probability_sampler()) * (1 << 53))
        core = self._core.resample(player_id, Rng(seed))
        return LudusState(self.get_game(), core)

    def __str__(self) -> str:
        return _dumps(self._core.state.to_json())


class LudusGame(pyspiel.Game):
    """One Ludus game with fixed options, as OpenSpiel sees it."""

    def __init__(self, game_type: pyspiel.GameType, ludus_game: Game, params: dict[str, Any] | None) -> None:
        # OpenSpiel game strings separate parameters with commas, so a comma inside a text
        # option (schools=BF,GA,PA) is kept as ';' on the OpenSpiel side; both are accepted.
        params = {k: v.replace(",", ";") if isinstance(v, str) else v for k, v in (params or {}).items()}
        bridge = bridge_for(ludus_game, {k: v.replace(";", ",") if isinstance(v, str) else v
                                         for k, v in params.items()})
        space, bounds = bridge.space, bridge.bounds
        info = pyspiel.GameInfo(
            num_distinct_actions=space.num_player_actions,
            max_chance_outcomes=space.num_chance_outcomes,
            num_players=bridge.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=bounds.decisions,
        )
        super().__init__(game_type, info, params)
        self.bridge = bridge

    def new_initial_state(self, *args: Any) -> LudusState:
        if args:
            raise ValueError("Ludus games start only from their initial state")
        return LudusState(self, _Core(self.bridge, self.bridge.template, shared=True))

    def max_chance_nodes_in_history(self) -> int:
        return self.bridge.bounds.chance_nodes

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, Any] | None = None) -> LudusObserver:
        return LudusObserver(self.bridge, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class LudusObserver:
    """OpenSpiel's Python observer interface: ``tensor``, ``dict``, ``set_from``, ``string_from``.

    ``private_info`` SINGLE_PLAYER is a seat's view, NONE a spectator's (public information
    only), ALL_PLAYERS every seat's view side by side. Views without public information are
    not offered.
    """

    def __init__(self, bridge: Bridge, iig_obs_type: pyspiel.IIGObservationType,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if not iig_obs_type.public_info:
            raise ValueError("Ludus observers always include public information")
        self.bridge = bridge
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info
        enc = bridge.encoder
        n = bridge.num_players
        self._all = self.private == pyspiel.PrivateInfoType.ALL_PLAYERS
        copies = n if self._all else 1
        self.tensor = np.zeros(enc.size * copies, np.float32)
        self._views = [enc.views(self.tensor[i * enc.size:(i + 1) * enc.size]) for i in range(copies)]
        if self._all:
            self.dict = {f"seat{i}.{k}": v for i, views in enumerate(self._views) for k, v in views.items()}
        else:
            self.dict = dict(self._views[0])

    def _seat(self, player: int) -> int | None:
        return None if self.private == pyspiel.PrivateInfoType.NONE else player

    def set_from(self, state: LudusState, player: int) -> None:
        self.tensor.fill(0)
        st = state._core.state
        enc = self.bridge.encoder
        if self._all:
            for seat, views in enumerate(self._views):
                enc.write(st.observation(seat), views)
        else:
            enc.write(st.observation(self._seat(player)), self._views[0])

    def string_from(self, state: LudusState, player: int) -> str:
        core = state._core
        if self._all:
            head = "all"
            body = _dumps(core.state.to_json())
            if self.perfect_recall:
                return f"{head}\n{core.full_history_part()}\n{body}"
            return f"{head}\n{body}"
        seat = self._seat(player)
        head = "public" if seat is None else f"seat {seat}"
        if self.perfect_recall:
            return f"{head}\n{core.history_part(seat)}\n{core.observation_json(seat)}"
        return f"{head}\n{core.observation_json(seat)}"


# --------------------------------------------------------------------------- registration
def _parameter_spec(game: Game) -> dict[str, Any]:
    return {o.name: o.default for o in game.describe_options() if o.kind in ("int", "bool", "str")}


def game_type(game: Game) -> pyspiel.GameType:
    T = pyspiel.GameType
    return T(
        short_name=openspiel_name(game.name),
        long_name=f"Ludus {game.title}",
        dynamics=T.Dynamics.SEQUENTIAL,
        chance_mode=T.ChanceMode.EXPLICIT_STOCHASTIC,
        information=T.Information.IMPERFECT_INFORMATION,
        utility=T.Utility.GENERAL_SUM,
        reward_model=T.RewardModel.TERMINAL,
        max_num_players=game.max_seats,
        min_num_players=game.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_spec(game),
    )


REGISTERED: dict[str, str] = {}
"""Ludus game name -> OpenSpiel name, for every game registered in this process."""
SKIPPED: dict[str, str] = {}
_CREATORS: dict[str, type] = {}
"""Ludus game name -> why it could not be registered."""


def register(game: Game) -> str:
    """Register ``game`` with OpenSpiel (once per process); returns its OpenSpiel name."""
    name = openspiel_name(game.name)
    if game.name in REGISTERED:
        return name
    gtype = game_type(game)

    # OpenSpiel keeps the creator until the C++ runtime exits, after Python has shut down;
    # a class (which only the garbage collector frees) is safe there, a closure is not.
    def __init__(self: LudusGame, params: dict[str, Any] | None = None) -> None:
        LudusGame.__init__(self, gtype, game, params)

    cls = type(f"LudusGame_{game.name.replace('-', '_')}", (LudusGame,), {"__init__": __init__})
    _CREATORS[game.name] = cls
    pyspiel.register_game(gtype, cls)
    REGISTERED[game.name] = name
    return name


def register_all() -> dict[str, str]:
    """Register every installed Ludus game that imports cleanly; see :data:`SKIPPED` for the rest."""
    for name in game_names():
        if name in REGISTERED:
            continue
        try:
            register(get_game(name))
        except Exception as exc:  # noqa: BLE001 - a game being written may not import yet; say why, carry on
            SKIPPED[name] = f"{type(exc).__name__}: {exc}"
    return dict(REGISTERED)


def load(game_name: str, **options: Any) -> LudusGame:
    """``pyspiel.load_game`` for a Ludus game name, registering it first if needed."""
    register(get_game(game_name))
    return pyspiel.load_game(openspiel_name(game_name), options)


register_all()
