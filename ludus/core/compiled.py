"""Compiled playouts: the same games as :func:`ludus.core.playout.playout`, run by numba.

Why numba: the rules engines are plain Python over integers and tuples; numba compiles the same
kind of code (integer bitsets, small arrays) to machine code with no build step for users, and
its wheels install from PyPI on every platform we support. A compiled playout is an accelerator
behind the Python engine, never a second rulebook: for the same state and generators it plays
exactly the same moves, which each game's tests check over thousands of seeded games.

A game offers one through :meth:`ludus.core.game.Game.compiled_playouts`, returning a
:class:`CompiledPlayouts`. Each one

* packs a state into numpy arrays (:meth:`CompiledPlayouts.pack`): canonical, so two states
  that will play the same pack equal; None for a state it does not handle;
* plays the packed state on in place (:meth:`CompiledPlayouts.run`), drawing from SplitMix64
  generators held in a ``uint64`` array: ``[ROLLOUT]`` is the playout's generator and
  ``[CHANCE_RNG]`` the state's own (when ``has_state_rng``), exactly as the Python engine draws
  from ``rng`` and ``state.rng``; for a policy whose rollout agents draw from generators of their
  own, ``[POLICY_RNGS + seat]`` is each seat's agent's.

Without numba (or with ``LUDUS_COMPILED=0`` in the environment) nothing here compiles: games
return no compiled playouts and bots use the Python engine, slower, after one warning.
The first call of each compiled function compiles it (seconds); numba caches the machine code
on disk (``cache=True``), and :func:`compile_report` tells how long the compiling took here.
"""

from __future__ import annotations

import importlib
import os
import time
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .game import Game, State
from .playout import Playout
from .rng import Rng

__all__ = [
    "CHANCE_RNG",
    "LEARNER",
    "POLICY_RNGS",
    "ROLLOUT",
    "AgentsGame",
    "CompiledPlayouts",
    "CompiledSteps",
    "available",
    "compile_report",
    "load_playouts",
    "njit",
    "warm_up",
]

ROLLOUT = 0
"""Index of the playout's own generator in the generators array."""
CHANCE_RNG = 1
"""Index of the state's generator (``state.rng``) in the generators array."""
LEARNER = -1
"""The learner's code in the agents array of :meth:`CompiledPlayouts.vector_steps`."""
POLICY_RNGS = 2
"""Index of seat 0's rollout-agent generator in the generators array (seat s at ``POLICY_RNGS + s``),
for policies whose agents draw from generators of their own."""

_MAX_SHUFFLE = 256
"""Longest sequence the compiled shuffle handles (the largest deck is far shorter)."""

try:  # numba is a default dependency; a platform without wheels still runs, slower
    import numba as _numba
    import numpy as np
except ImportError:  # pragma: no cover - exercised only where numba cannot be installed
    _numba = None  # type: ignore[assignment]
    np = None  # type: ignore[assignment]

_warned = False
_compile_seconds: dict[str, float] = {}


def available() -> bool:
    """True when compiled playouts can be used here; warns once when they cannot."""
    global _warned
    if os.environ.get("LUDUS_COMPILED", "1") == "0":
        return False
    if _numba is None:
        if not _warned:
            _warned = True
            warnings.warn(
                "numba is not installed: bots use the Python rules engine for their playouts (slower)",
                RuntimeWarning,
                stacklevel=2,
            )
        return False
    return True


def load_playouts(module: str) -> CompiledPlayouts | None:
    """``module.PLAYOUTS`` (a game's compiled playouts), imported only when :func:`available`."""
    if not available():
        return None
    playouts: CompiledPlayouts = importlib.import_module(module).PLAYOUTS
    return playouts


def warm_up(game: Game) -> float:
    """Compile ``game``'s playouts now (or load them from the disk cache), every policy, so that a
    bot's first move does not wait for it. Returns the seconds it took (0.0 without them)."""
    playouts = game.compiled_playouts()
    if playouts is None:
        return 0.0
    start = time.perf_counter()
    state = game.new_initial_state(None, seed=0)
    for policy in playouts.policies:  # a heuristic gets each seat's agent's generator, as bots give it
        agents = [] if policy == "random" else [Rng(seat) for seat in range(state.num_seats())]
        playouts.playout(state.clone(), Rng(0), policy, None, agents)
    return time.perf_counter() - start


def njit(fn: Callable[..., Any]) -> Callable[..., Any]:
    """numba's ``njit`` with on-disk caching; the function itself where numba is missing."""
    if _numba is None:  # pragma: no cover
        return fn
    return _numba.njit(cache=True, nogil=True)(fn)


def compile_report() -> dict[str, float]:
    """Seconds each game's first compiled playout took here (compiling or loading the disk cache)."""
    return dict(_compile_seconds)


# --------------------------------------------------------------------------- generators
# The same SplitMix64 stream as ludus.core.rng.Rng, on a uint64 array so compiled code can
# advance it in place. All arithmetic stays in uint64: numba turns int64 with uint64 into float.


def _factorial_tables() -> tuple[Any, Any, Any, Any]:
    """For every n <= _MAX_SHUFFLE: n! as little-endian 32-bit limbs, and how Rng.below_big(n!)
    draws it (64-bit words, bits dropped from the last)."""
    limbs = (_MAX_SHUFFLE * 8 + 63) // 32 + 2
    table = np.zeros((_MAX_SHUFFLE + 1, limbs), dtype=np.uint32)
    words = np.zeros(_MAX_SHUFFLE + 1, dtype=np.int64)
    extra = np.zeros(_MAX_SHUFFLE + 1, dtype=np.int64)
    length = np.zeros(_MAX_SHUFFLE + 1, dtype=np.int64)
    f = 1
    for n in range(_MAX_SHUFFLE + 1):
        f = f * n if n > 1 else 1
        bits = (f - 1).bit_length()
        w = (bits + 63) // 64 or 1
        words[n], extra[n] = w, w * 64 - bits
        x, k = f, 0
        while x:
            table[n, k] = x & 0xFFFFFFFF
            x >>= 32
            k += 1
        length[n] = 2 * w
    return table, words, extra, length


if _numba is not None:
    _FACT, _FACT_WORDS, _FACT_EXTRA, _FACT_LIMBS = _factorial_tables()
    _GOLDEN = np.uint64(0x9E3779B97F4A7C15)
    _MIX1 = np.uint64(0xBF58476D1CE4E5B9)
    _MIX2 = np.uint64(0x94D049BB133111EB)
    _U30, _U27, _U31, _U32, _U11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32), np.uint64(11)
    _LOW32 = np.uint64(0xFFFFFFFF)
    _ZERO = np.uint64(0)

    @njit
    def rng_next(rngs: Any, i: int) -> Any:
        """The next 64-bit output of generator ``i`` (``Rng.next_u64``)."""
        z = rngs[i] + _GOLDEN
        rngs[i] = z
        z = (z ^ (z >> _U30)) * _MIX1
        z = (z ^ (z >> _U27)) * _MIX2
        return z ^ (z >> _U31)

    @njit
    def rng_below(rngs: Any, i: int, n: int) -> int:
        """Uniform integer in [0, n) (``Rng.below``; 1 <= n < 2**63)."""
        bound = np.uint64(n)
        rest = (_ZERO - bound) % bound  # 2**64 mod n
        while True:
            x = rng_next(rngs, i)
            if rest == _ZERO or x < _ZERO - rest:
                return int(x % bound)

    @njit
    def rng_random(rngs: Any, i: int) -> float:
        """Uniform float in [0, 1) with 53 bits (``Rng.random``)."""
        return float(rng_next(rngs, i) >> _U11) * (1.0 / 9007199254740992.0)

    @njit
    def rng_shuffle(rngs: Any, i: int, seq: Any, n: int) -> None:
        """Shuffle ``seq[:n]`` in place exactly as ``Rng.shuffle`` does (one draw below n!,
        then its mixed-radix digits), with n! held as 32-bit limbs."""
        if n < 2:
            return
        if n > _MAX_SHUFFLE:  # the tables stop there, and compiled code checks no bounds
            raise ValueError("rng_shuffle shuffles at most 256 items")
        words = _FACT_WORDS[n]
        extra = _FACT_EXTRA[n]
        size = _FACT_LIMBS[n]
        x = np.zeros(size + 2, dtype=np.uint64)
        while True:
            for w in range(words):
                z = rng_next(rngs, i)
                k = 2 * (words - 1 - w)
                x[k] = z & _LOW32
                x[k + 1] = z >> _U32
            if extra:  # x >>= extra
                shift_limbs = extra // 32
                shift_bits = np.uint64(extra % 32)
                for k in range(size):
                    lo = x[k + shift_limbs] if k + shift_limbs < size else _ZERO
                    hi = x[k + shift_limbs + 1] if k + shift_limbs + 1 < size else _ZERO
                    if shift_bits:
                        x[k] = ((lo >> shift_bits) | (hi << (np.uint64(32) - shift_bits))) & _LOW32
                    else:
                        x[k] = lo
            below = False  # x < n! ?
            for k in range(size - 1, -1, -1):
                f = np.uint64(_FACT[n, k])
                if x[k] != f:
                    below = x[k] < f
                    break
            if below:
                break
        for j in range(n - 1, 0, -1):  # x, r = divmod(x, j + 1); swap seq[j], seq[r]
            d = np.uint64(j + 1)
            rem = _ZERO
            for k in range(size - 1, -1, -1):
                cur = (rem << _U32) | x[k]
                x[k] = cur // d
                rem = cur % d
            r = int(rem)
            seq[j], seq[r] = seq[r], seq[j]

else:  # pragma: no cover
    rng_next = rng_below = rng_random = rng_shuffle = None


# --------------------------------------------------------------------------- the protocol
@dataclass(frozen=True, slots=True)
class AgentsGame:
    """A whole game played by fast agents (:meth:`CompiledPlayouts.play_agents`).

    ``decisions`` counts every move an agent chose, forced ones too (as tournaments count them);
    ``metrics`` are the game's analysis metrics of the final position (``game_metrics``)."""

    scores: tuple[float, ...]
    returns: tuple[float, ...]
    decisions: int
    metrics: dict[str, float]


class CompiledSteps(ABC):
    """``num_envs`` games in numpy arrays, each with one learner seat and fast agents in the
    others, stepped in one call: the compiled engine behind ``ludus.interop.vector_env``.

    A game loads from a Python state (:meth:`load`), so dealing and the first moves are the
    Python engine's; from there :meth:`step` plays the learner's move, the agents' moves and
    chance to the learner's next decision (or the end) and writes the learner's encoded
    observation and action mask: the same numbers, bit for bit, as the game's exact encoder on
    ``state.observation(seat)`` and the action space's numbers of ``state.legal_actions(seat)``
    would give, and the same games as the Python environment (tests check both).
    """

    @abstractmethod
    def load(self, i: int, state: State, rng: Rng, agent_rngs: Sequence[Rng | None]) -> None:
        """Slot ``i`` takes over ``state`` (the learner to move, or over): ``rng`` draws its
        explicit chance outcomes (``state.sample_chance(rng)``) and ``agent_rngs[seat]`` is the
        generator of the agent at ``seat`` (None at the learner's). The Rng objects are read,
        not kept."""

    @abstractmethod
    def step(self, actions: Any, live: Any, obs: Any, mask: Any, rewards: Any, terminated: Any) -> None:
        """For every ``i`` with ``live[i]``: apply action number ``actions[i]`` (legal, checked by
        the caller) for the learner, play on to the learner's next decision or the end, and
        write row ``i`` of ``obs`` (float32, zeroed first) and ``mask`` (int8), ``rewards[i]``
        (the learner's return at the end, else 0.0) and ``terminated[i]``. Rows not live are
        left alone."""

    @staticmethod
    def load_generators(rngs: Any, state: State, rng: Rng, agent_rngs: Sequence[Rng | None]) -> bool:
        """Fill a slot's generators row (uint64) as :meth:`load` describes: the environment's
        ``rng`` at ``ROLLOUT``, the state's own at ``CHANCE_RNG`` and each agent's at
        ``POLICY_RNGS + seat``; returns whether the state has a generator of its own."""
        rngs[:] = 0
        rngs[ROLLOUT] = rng.state
        own = state.rng
        rngs[CHANCE_RNG] = 0 if own is None else own.state
        for seat, agent_rng in enumerate(agent_rngs):
            if agent_rng is not None:
                rngs[POLICY_RNGS + seat] = agent_rng.state
        return own is not None


class CompiledPlayouts(ABC):
    """One game's compiled playouts: :meth:`pack` a state, :meth:`run` it, :meth:`playout` both;
    and, for tournaments, whole games of fast agents (:meth:`play_agents`)."""

    game_name: ClassVar[str]
    policies: ClassVar[tuple[str, ...]] = ("random",)
    """Rollout policies it compiles, in order of their codes (``policies.index(name)``)."""
    agent_kinds: ClassVar[tuple[str, ...]] = ()
    """Agent kinds (registry names of :func:`ludus.agents.base.make_agent`) whose whole games
    :meth:`play_agents` plays, in order of their codes (``agent_kinds.index(kind)``)."""

    @abstractmethod
    def pack(self, state: State) -> tuple[Any, ...] | None:
        """The state as numpy arrays (fresh, canonical), or None when this state is not handled
        (an option or phase it does not compile): the caller then plays it in Python."""

    @abstractmethod
    def run(self, packed: tuple[Any, ...], rngs: Any, has_state_rng: bool, policy: int, max_decisions: int) -> Any:
        """Play ``packed`` on in place; returns an array ``[decisions, finished, scores..., returns...]``
        (float64). ``max_decisions`` < 0 means no cut; ``decisions`` < 0 reports a game that did
        not end within :data:`~ludus.core.playout.MAX_PLAYOUT_DECISIONS`."""

    def playout(
        self,
        state: State,
        rng: Rng,
        policy: str = "random",
        max_decisions: int | None = None,
        policy_rngs: Sequence[Rng] = (),
    ) -> Playout | None:
        """:func:`ludus.core.playout.playout` for ``policy``, compiled; None when not handled.

        ``rng`` is advanced exactly as the Python playout would advance it; so is each of
        ``policy_rngs``, the generators of the seats' rollout agents (seat order) for a policy
        whose agents draw from generators of their own (the heuristics that add noise).
        ``state`` and its generator are left unchanged (a bot's determinization is thrown away
        after its playout).
        """
        if policy not in self.policies:
            return None
        packed = self.pack(state)
        if packed is None:
            return None
        state_rng = state.rng
        rngs = np.array(
            [rng.state, 0 if state_rng is None else state_rng.state, *(r.state for r in policy_rngs)], dtype=np.uint64
        )
        first = self.game_name not in _compile_seconds
        start = time.perf_counter() if first else 0.0
        cut = -1 if max_decisions is None else max_decisions
        out = self.run(packed, rngs, state_rng is not None, self.policies.index(policy), cut)
        if first:
            _compile_seconds[self.game_name] = time.perf_counter() - start
        values = out.tolist()
        if values[0] < 0:
            raise RuntimeError(f"{state.game.title} compiled playout did not end")
        rng.state = int(rngs[ROLLOUT])
        for i, policy_rng in enumerate(policy_rngs):
            policy_rng.state = int(rngs[POLICY_RNGS + i])
        n = (len(values) - 2) // 2
        return Playout(tuple(values[2 : 2 + n]), tuple(values[2 + n :]), int(values[0]), bool(values[1]))

    # ----------------------------------------------------------------- whole games of agents
    def run_agents(self, packed: tuple[Any, ...], rngs: Any, has_state_rng: bool, kinds: Any) -> Any:
        """Play ``packed`` to the end in place, the agent of code ``kinds[seat]`` (int64 array,
        codes from :attr:`agent_kinds`) choosing every move of ``seat``, forced ones included,
        drawing from ``rngs[POLICY_RNGS + seat]`` exactly as the Python agent draws from its
        ``rng`` (the random agent draws even when only one move is legal); chance as in
        :meth:`run`. Returns ``[decisions, finished, scores..., returns...]`` as :meth:`run`."""
        raise NotImplementedError(f"{self.game_name}: no compiled agents")

    def vector_steps(
        self, options: Any, num_envs: int, seat: int, kinds: Sequence[str | None], player_actions: Sequence[Any]
    ) -> CompiledSteps | None:
        """Compiled stepping of ``num_envs`` games of ``options`` with the learner at ``seat`` and
        the agent kind ``kinds[s]`` (registry names; None at the learner's seat) elsewhere, in
        the action numbering of ``player_actions`` (number = index); None when this game, these
        options or these kinds are not compiled (the caller then steps in Python)."""
        return None

    def learner_agent_codes(self, kinds: Sequence[str | None], seat: int, num_seats: int) -> list[int] | None:
        """The agents array of :meth:`vector_steps`: each seat's agent code (its index in
        ``agent_kinds``), ``LEARNER`` at the learner's seat; None when ``kinds`` does not fit the
        seats (one per seat, None at the learner's only) or names a kind not compiled."""
        if len(kinds) != num_seats or not 0 <= seat < num_seats or kinds[seat] is not None:
            return None
        codes = [LEARNER] * num_seats
        for s, kind in enumerate(kinds):
            if s != seat:
                if kind not in self.agent_kinds:
                    return None
                codes[s] = self.agent_kinds.index(kind)
        return codes

    def metrics(self, packed: tuple[Any, ...]) -> dict[str, float]:
        """The game's analysis metrics (``ludus.sim.scenarios.game_metrics``) read off a final
        packed position; none by default."""
        return {}

    def play_agents(self, state: State, kinds: Sequence[str], agent_rngs: Sequence[Rng]) -> AgentsGame | None:
        """Play ``state`` to the end as a tournament does with ``make_agent(kinds[seat], game,
        seed)`` at each seat, whose generator is ``agent_rngs[seat]`` (advanced as the agent's
        would be); the same game, compiled. None when a kind or the state is not handled.
        ``state`` is left unchanged."""
        if not kinds or any(kind not in self.agent_kinds for kind in kinds):
            return None
        packed = self.pack(state)
        if packed is None:
            return None
        state_rng = state.rng
        rngs = np.array([0, 0 if state_rng is None else state_rng.state, *(r.state for r in agent_rngs)],
                        dtype=np.uint64)
        codes = np.array([self.agent_kinds.index(kind) for kind in kinds], dtype=np.int64)
        values = self.run_agents(packed, rngs, state_rng is not None, codes).tolist()
        if values[0] < 0 or not values[1]:
            raise RuntimeError(f"{state.game.title} compiled game did not end")
        for i, agent_rng in enumerate(agent_rngs):
            agent_rng.state = int(rngs[POLICY_RNGS + i])
        n = (len(values) - 2) // 2
        return AgentsGame(tuple(values[2 : 2 + n]), tuple(values[2 + n :]), int(values[0]), self.metrics(packed))
