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
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from ..core.game import CHANCE, Game, SeatView, State
from ..core.options import options_to_json
from ..core.rng import Rng
from ..games import game_names, get_game
from .action_space import ActionSpace, Bounds, acting_seat, build_action_space, game_bounds
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

    __slots__ = ("_parts", "_views", "bridge", "offset", "origin", "state")

    def __init__(self, bridge: Bridge, state: State, origin: _Origin | None = None, offset: int = 0) -> None:
        self.bridge = bridge
        self.state = state
        self.origin = origin
        self.offset = offset  # history entries of ``state`` that predate the resample
        self._parts: dict[int | None, tuple[int, str]] = {}  # seat -> (history length, text)
        self._views: dict[tuple[int, int], SeatView] = {}

    # OpenSpiel's Clone deep-copies the Python attributes: make that a cheap Ludus clone.
    def __deepcopy__(self, memo: dict) -> _Core:
        new = _Core(self.bridge, self.state.clone(), self.origin, self.offset)
        new._parts = dict(self._parts)  # same history, same texts; growth is handled on use
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
        origin = data["origin"]
        self.origin = None if origin is None else _Origin(origin[0], origin[1], origin[2])
        self.offset = data["offset"]
        self._parts = {}
        self._views = {}

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
        return self._core.state

    def current_player(self) -> int:
        seat = acting_seat(self._core.state)
        if seat is None:
            return TERMINAL
        return seat  # CHANCE is -1 in both libraries

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        pid = core.bridge.space.player_id
        return sorted(pid(a) for a in core.state.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        cid = core.bridge.space.chance_id
        return sorted((cid(a), p) for a, p in core.state.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        core = self._core
        st = core.state
        seat = acting_seat(st)
        if seat == CHANCE:
            st.apply(core.bridge.space.chance[action], CHANCE)
        else:
            st.apply(core.bridge.space.player[action], seat)

    def _action_to_string(self, player: int, action: int) -> str:
        space = self._core.bridge.space
        names = space.chance_names if player == CHANCE else space.player_names
        if 0 <= action < len(names):
            return names[action]
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self._core.state.is_terminal()

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
        return LudusState(self, _Core(self.bridge, self.bridge.template.clone()))

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
