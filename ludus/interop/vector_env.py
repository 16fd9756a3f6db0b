"""Many single-agent games stepped in one call, behind Gymnasium's ``VectorEnv`` API.

``LudusVectorEnv("gladius", num_envs=64)`` holds ``num_envs`` independent games, each played
exactly as :class:`~ludus.interop.gymnasium_env.LudusSingleAgentEnv` plays one: the learner
holds ``seat``, Ludus bots (``"random"``, ``"heuristic"`` or any registered kind) the others,
the reward is the learner's win share at the end, and an illegal action is penalized (or
raises). With the same seeds and actions it gives exactly the trajectories of ``num_envs``
single environments (``tests/interop/test_vector_env.py`` checks it against them and against
``gymnasium.vector.SyncVectorEnv``).

Observations are batched ``{"observation": (num_envs, size) float32, "action_mask":
(num_envs, num_actions) int8}``; the mask is also in ``infos["action_mask"]``.

Auto reset follows Gymnasium 1.x's **next-step** mode (``metadata["autoreset_mode"]``): the
step that ends a sub-environment's game returns its last observation with ``terminated``
set; on the next ``step`` that sub-environment ignores its action, starts a new game (its
generator goes on, so seeds stay reproducible) and returns the new game's first observation
with reward 0.

Why it is faster than a loop over single environments: observations are encoded straight
into rows of one preallocated array (the encoder's ``encode_into(obs, row)`` where it has one,
else its own ``encode``, else ``encoder.write`` into per-row views made once), masks
are set in a preallocated array, and bots of the kinds that never read the history
(``random`` and the games' heuristics) get their seat's view without rebuilding the visible
history at every move (about a third of a single Gorus Maximus environment's time).

Where the game provides compiled stepping for the options and opponents
(:meth:`~ludus.core.compiled.CompiledPlayouts.vector_steps`, random and heuristic bots), and
``compiled`` is not ``False``, each new game is dealt and checked in Python and then loaded
into a slot of the game's numba engine, which plays every live slot up to the learner's next
decision and writes its observation row and mask in one call: the same games, bit for bit
(each game's ``tests/games/<name>/test_vector.py`` compares them with ``compiled=False``), tens
of times faster. Elsewhere the games (rules, observations, bots) run in Python, one after
another, a few times faster than single environments.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..agents.base import Agent, make_agent, normalize_kind
from ..core.compiled import CompiledSteps
from ..core.encoding import ObservationEncoder
from ..core.game import CHANCE, SeatView, State
from ..core.rng import Rng
from .action_space import InteropError, acting_seat
from .gymnasium_env import LudusSingleAgentEnv
from .specs import encoder_for

__all__ = ["LudusVectorEnv"]

_NO_HISTORY_KINDS = ("random", "heuristic")
"""Bot kinds that never read ``SeatView.history`` (see :mod:`ludus.agents.ismcts`): they get
views without it. Any other kind gets the full view."""


class LudusVectorEnv(VectorEnv):
    """``LudusVectorEnv("gorus-maximus", 16, {"players": 4}, opponents="heuristic")``.

    Arguments after ``num_envs`` are those of :class:`LudusSingleAgentEnv`. With
    ``copy=False`` the arrays returned by ``reset`` and ``step`` are the environment's own
    buffers, overwritten by the next call (no allocation per step; do not write into them).
    ``light_bot_views=False`` gives every bot the full ``state.view(seat)``, history included
    (for a heuristic that reads the history; none shipped does). ``compiled=None`` steps
    compiled where the game can, ``True`` insists (``InteropError`` where it cannot), ``False``
    keeps every game in Python (``states`` then holds each slot's live state).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 - Gymnasium's API

    def __init__(self, game: str, num_envs: int, options: dict[str, Any] | None = None, seat: int = 0,
                 opponents: str | Sequence[str] = "heuristic", illegal_action: str = "penalize",
                 illegal_penalty: float = -1.0, copy: bool = True, light_bot_views: bool = True,
                 compiled: bool | None = None) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        # one single environment checks the arguments and gives the spaces, so both agree
        proto = LudusSingleAgentEnv(game, options, seat=seat, opponents=opponents,
                                    illegal_action=illegal_action, illegal_penalty=illegal_penalty)
        self.game = proto.game
        self.options = proto.options
        self.seat = seat
        self.opponent_kinds = proto.opponent_kinds
        self.illegal_action = illegal_action
        self.illegal_penalty = proto.illegal_penalty
        self.space = proto.space
        self.encoder = proto.encoder
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space = proto.observation_space
        self.single_action_space = proto.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None

        self._num_actions = self.space.num_player_actions
        self._obs = np.zeros((num_envs, self.encoder.size), np.float32)
        self._mask = np.zeros((num_envs, self._num_actions), np.int8)
        self._views = [self.encoder.views(self._obs[i]) for i in range(num_envs)]
        # the cheapest way this encoder fills a row: ``encode_into(obs, row)`` on the zeroed row;
        # else its own ``encode`` if it overrides it (it builds the flat vector itself, and a
        # ``write`` would go through it), copied in; else ``write`` into the row's views
        self._encode_into = getattr(self.encoder, "encode_into", None)
        own_encode = type(self.encoder).encode is not ObservationEncoder.encode
        self._encode = self.encoder.encode if self._encode_into is None and own_encode else None
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminations = np.zeros(num_envs, np.bool_)
        self._truncations = np.zeros(num_envs, np.bool_)
        self._autoreset = np.zeros(num_envs, np.bool_)
        self._present = np.ones(num_envs, np.bool_)  # every sub-environment has an action mask
        self._done_at_start = np.zeros(num_envs, np.bool_)  # compiled: a game over before the learner's move
        self._ids = dict(self.space._player_ids)  # action -> number, filled further by player_id
        kinds = {s: normalize_kind(kind) for s, kind in self.opponent_kinds.items()}
        self._light = {s: light_bot_views and kind in _NO_HISTORY_KINDS for s, kind in kinds.items()}
        self._bare = {s: light_bot_views and kind == "random" for s, kind in kinds.items()}
        self._generators: list[np.random.Generator | None] = [None] * num_envs
        self._rngs: list[Rng] = [Rng(0)] * num_envs
        self._bots: list[dict[int, Agent]] = [{} for _ in range(num_envs)]
        self._states: list[State | None] = [None] * num_envs
        self._steps = self._compiled_steps(compiled)
        self.compiled = self._steps is not None
        """Whether the games step in the game's compiled engine (:class:`~ludus.core.compiled.CompiledSteps`)."""

    def _compiled_steps(self, wanted: bool | None) -> CompiledSteps | None:
        """The game's compiled stepping for these options and opponents, if it has one and
        ``wanted`` is not False; ``wanted=True`` without one is an error."""
        if wanted is False:
            return None
        playouts = self.game.compiled_playouts()
        steps = None
        exact = encoder_for(self.game, self.options)  # what compiled stepping writes, bit for bit
        if playouts is not None and type(self.encoder) is type(exact) and self.encoder.size == exact.size:
            kinds = [None if s == self.seat else normalize_kind(self.opponent_kinds[s])
                     for s in range(len(self.opponent_kinds) + 1)]
            steps = playouts.vector_steps(self.options, self.num_envs, self.seat, kinds, self.space.player)
        if steps is None and wanted:
            raise InteropError(f"{self.game.title}: no compiled stepping for these options, opponents and "
                               "encoder (or numba is unavailable); use compiled=None or False")
        return steps

    # ------------------------------------------------------------------ one sub-environment
    def _start(self, i: int, seed: int | None) -> None:
        """What ``LudusSingleAgentEnv.reset`` does, with the same draws in the same order."""
        gen = self._generators[i]
        if seed is not None or gen is None:
            gen, _ = seeding.np_random(seed)
            self._generators[i] = gen
        rng = self._rngs[i] = Rng(int(gen.integers(0, 2**63)))
        self._bots[i] = {s: make_agent(kind, self.game, rng.next_u64()) for s, kind in self.opponent_kinds.items()}
        state = self._states[i] = self.game.new_initial_state(self.options, seed=rng.next_u64())
        self._advance(i, state)
        self._write(i, state)
        if self._steps is not None:  # the compiled engine plays it from here; the Python state is left behind
            bots = self._bots[i]
            self._steps.load(i, state, rng, [None if s == self.seat else bots[s].rng
                                             for s in range(len(bots) + 1)])
            self._states[i] = None
            self._done_at_start[i] = state.is_terminal()
        self._rewards[i] = 0.0
        self._terminations[i] = False
        self._truncations[i] = False
        self._autoreset[i] = False

    def _advance(self, i: int, state: State) -> None:
        """Chance and bots move until the learner must decide or the game is over."""
        me = self.seat
        rng = self._rngs[i]
        bots = self._bots[i]
        while True:
            seat = acting_seat(state)
            if seat is None or seat == me:
                return
            if seat == CHANCE:
                state.apply(state.sample_chance(rng), CHANCE)
                continue
            bot = bots[seat]
            if self._bare[seat]:  # a random bot reads the legal actions only
                view = SeatView(self.game, self.options, seat, None, tuple(state.legal_actions(seat)), ())
            elif self._light[seat]:
                view = SeatView(self.game, self.options, seat, state.observation(seat),
                                tuple(state.legal_actions(seat)), ())
            else:
                view = state.view(seat)
            state.apply(bot.act(view), seat)

    def _write(self, i: int, state: State) -> None:
        """Encode the learner's observation into row ``i`` and set its action mask."""
        row = self._obs[i]
        row[:] = 0.0
        if self._encode_into is not None:
            self._encode_into(state.observation(self.seat), row)
        elif self._encode is not None:
            row[:] = self._encode(state.observation(self.seat))
        else:
            self.encoder.write(state.observation(self.seat), self._views[i])
        mask = self._mask[i]
        mask[:] = 0
        if acting_seat(state) == self.seat:
            ids = self._ids
            for a in state.legal_actions(self.seat):
                j = ids.get(a)
                if j is None:
                    j = ids[a] = self.space.player_id(a)
                mask[j] = 1

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start new games: ``seed`` is None, one int (sub-environment ``i`` gets ``seed + i``) or
        a list of ``num_envs`` seeds; ``options={"reset_mask": bool array}`` resets only those."""
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"{n} seeds needed, got {len(seeds)}")
        which: list[int] = list(range(n))
        if options is not None and "reset_mask" in options:
            reset_mask = np.asarray(options["reset_mask"])
            if reset_mask.shape != (n,) or reset_mask.dtype != np.bool_:
                raise ValueError(f"options['reset_mask'] must be a bool array of shape ({n},)")
            which = np.flatnonzero(reset_mask).tolist()
        for i in which:
            self._start(i, seeds[i])
        return self._observations(), self._infos(None)

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        acts = np.asarray(actions).reshape(-1)
        n = self.num_envs
        if acts.shape[0] != n:
            raise ValueError(f"{n} actions needed, got {acts.shape[0]}")
        states = self._states
        mask = self._mask
        rewards = self._rewards
        terminations = self._terminations
        illegal: np.ndarray | None = None
        steps = self._steps
        live = np.zeros(n, np.bool_) if steps is not None else None  # compiled: the slots that move
        me = self.seat
        player = self.space.player
        for i in range(n):
            if self._autoreset[i]:
                self._start(i, None)
                continue
            state = states[i]
            if self._generators[i] is None:
                raise RuntimeError("call reset() before step()")
            number = int(acts[i])
            if not (0 <= number < self._num_actions and mask[i, number]):
                # a game that ended before the learner's first move
                if state.is_terminal() if state is not None else self._done_at_start[i]:
                    raise RuntimeError(f"sub-environment {i}: the game is over: call reset()")
                if self.illegal_action == "raise":
                    raise ValueError(f"sub-environment {i}: action {number} is not legal now")
                if illegal is None:
                    illegal = np.zeros(n, np.bool_)
                illegal[i] = True
                rewards[i] = self.illegal_penalty
                continue  # nothing moved: row i still holds this observation
            if live is not None:
                live[i] = True
                continue
            assert state is not None
            state.apply(player[number], me)
            self._advance(i, state)
            self._write(i, state)
            done = state.is_terminal()
            terminations[i] = done
            rewards[i] = float(state.returns()[me]) if done else 0.0
        if steps is not None and live is not None and live.any():
            steps.step(acts.astype(np.int64, copy=False), live, self._obs, mask, rewards, terminations)
        np.logical_or(terminations, self._truncations, out=self._autoreset)
        return (self._observations(), rewards.copy(), terminations.copy(), self._truncations.copy(),
                self._infos(illegal))

    # ------------------------------------------------------------------ batches
    def _observations(self) -> dict[str, np.ndarray]:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def _infos(self, illegal: np.ndarray | None) -> dict[str, Any]:
        """Infos as ``SyncVectorEnv`` batches them: a value array and a ``_key`` presence mask."""
        infos: dict[str, Any] = {"action_mask": self._mask.copy(), "_action_mask": self._present.copy()}
        if illegal is not None:
            infos["illegal_action"] = illegal
            infos["_illegal_action"] = illegal.copy()
        return infos

    @property
    def states(self) -> tuple[State | None, ...]:
        """The sub-environments' games (full states, for tests and tools; never show them to a learner).
        Empty slots (None) when the games step compiled: their states live in arrays then."""
        return tuple(self._states)
