"""Every Ludus game as a PettingZoo AEC environment with action masks.

Agents are ``player_0 … player_{n-1}`` (one per seat). Each observation is a dict:
``"observation"`` is the seat's encoded view (:mod:`.encoding`) and ``"action_mask"`` marks
its legal actions among the game's fixed action numbers (:mod:`.action_space`); the mask is
all zeros for a seat that is not to move. Chance is resolved inside the environment from
the seed given to ``reset``; simultaneous phases are played in seat order, as in the
OpenSpiel bridge. Rewards come only at the end: each seat's win share (1 shared among the
winners, 0 otherwise), the same as ``State.returns``.

:class:`LudusParallelEnv` is the same game under PettingZoo's parallel API, for games where
several seats decide at once (Gorus Arena's planning): one parallel step takes one action
from every seat the game lets act now and applies them in seat order; see its docstring.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ..core.errors import IllegalAction
from ..core.game import CHANCE, State
from ..core.rng import Rng
from ..games import get_game
from .action_space import InteropError, acting_seat, build_action_space
from .specs import encoder_for

__all__ = ["LudusAECEnv", "LudusParallelEnv", "agent_name", "env", "parallel_env", "settle_chance"]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def settle_chance(state: State, rng: Rng) -> None:
    """Draw chance outcomes with ``rng`` until a seat must decide (or the game is over)."""
    while acting_seat(state) == CHANCE:
        state.apply(state.sample_chance(rng), CHANCE)



Spaces = dict[str, spaces.Space]


def _agent_spaces(encoder: Any, space: Any, agents: list[str]) -> tuple[Spaces, Spaces]:
    """Each agent's observation space (the encoder's vector and the action mask) and action space."""
    low, high = encoder.bounds()
    num_actions = space.num_player_actions
    observation: Spaces = {
        a: spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
        })
        for a in agents
    }
    return observation, {a: spaces.Discrete(num_actions) for a in agents}


class _LudusAgents:
    """What the AEC and the parallel environment share: one game with fixed options, its seats
    as agents, their spaces, and the spectator's view as text."""

    metadata: dict[str, Any]
    state: State | None

    def _set_up(self, game: str, options: dict[str, Any] | None, render_mode: str | None, suffix: str) -> None:
        self.game = get_game(game)
        self.options = self.game.parse_options(options)
        self.space = build_action_space(self.game, self.options)
        self.encoder = encoder_for(self.game, self.options)
        self.metadata = {**self.metadata, "name": f"ludus_{self.game.name.replace('-', '_')}{suffix}_v0"}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        n = self.game.num_seats(self.options)
        self.possible_agents = [agent_name(s) for s in range(n)]
        self._seat = {agent_name(s): s for s in range(n)}
        self.observation_spaces, self.action_spaces = _agent_spaces(self.encoder, self.space, self.possible_agents)
        self._rng: Rng | None = None
        self.state = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def render(self) -> str | None:
        """The spectator's view as JSON text (``render_mode="ansi"``)."""
        if self.render_mode is None or self.state is None:
            return None
        return json.dumps(self.state.observation(None).to_json(), ensure_ascii=False)

    def close(self) -> None:
        self.state = None

class LudusAECEnv(_LudusAgents, AECEnv):
    """One Ludus game with fixed options as an AEC environment."""

    # PettingZoo's API: a class attribute, copied per instance in __init__
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "ludus_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, game: str, options: dict[str, Any] | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self._set_up(game, options, render_mode, "")

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. ``seed`` fixes every chance outcome; ``None`` continues the stream."""
        if seed is not None:
            self._rng = Rng(seed)
        elif self._rng is None:
            self._rng = Rng(int.from_bytes(os.urandom(8), "little"))
        self.state = self.game.new_initial_state(self.options, seed=None)
        settle_chance(self.state, self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move()

    def _after_move(self) -> None:
        assert self.state is not None
        seat = acting_seat(self.state)
        if seat is None:
            for a, r in zip(self.possible_agents, self.state.returns()):
                if a in self.agents:
                    self.rewards[a] = float(r)
                    self.terminations[a] = True
            return
        self.agent_selection = agent_name(seat)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state is not None
        seat = self._seat[agent]
        mask = np.zeros(self.space.num_player_actions, np.int8)
        if acting_seat(self.state) == seat:
            for a in self.state.legal_actions(seat):
                mask[self.space.player_id(a)] = 1
        return {"observation": self.encoder.encode(self.state.observation(seat)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None and self._rng is not None
        if action is None:
            raise ValueError(f"{agent} is to move: None is only for agents whose game is over")
        number = int(action)
        if not 0 <= number < self.space.num_player_actions:
            raise ValueError(f"action {number} is outside 0..{self.space.num_player_actions - 1}")
        seat = self._seat[agent]
        try:
            self.state.apply(self.space.player[number], seat)
        except IllegalAction as exc:
            raise ValueError(f"illegal action {number} for {agent}: {exc}") from exc
        settle_chance(self.state, self._rng)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._after_move()
        self._accumulate_rewards()


def env(game: str, options: dict[str, Any] | None = None, render_mode: str | None = None) -> LudusAECEnv:
    """PettingZoo-style constructor: ``env("gorus-maximus", {"players": 4})``."""
    return LudusAECEnv(game, options, render_mode)


class LudusParallelEnv(_LudusAgents, ParallelEnv):
    """One Ludus game with fixed options under PettingZoo's parallel API.

    A parallel step is one decision from every seat in ``state.current_seats()``: all the
    seats of a simultaneous phase (Gorus Arena's planning, where each step places one more
    card of each unfinished plan face down, or ``done``), or the single seat of a sequential
    decision (an auction winner's card, a Gladius turn). A seat is *live* when its action
    mask has a one. Actions given for seats that are not live are ignored (any value, or
    ``None``), so generic loops may act for every agent. A live seat's action must be in the
    dict. Live actions are checked against the masks first and then applied in seat order,
    which is how the engine takes a simultaneous phase: each choice is hidden from the others
    by the game's own visibility rules until the reveal, so the order tells nobody anything.
    Chance is then drawn from the ``reset`` seed, as in the AEC environment, so the same seed
    and the same actions give the same game in both. Every agent stays in ``agents`` until
    the game ends; then all of them are terminated at once and the step's rewards are the
    win shares (``State.returns``); every earlier reward is 0.

    ``illegal_action="raise"`` (default) refuses an illegal live action with ``ValueError``
    and applies nothing. ``"penalize"`` lets that seat skip this step (it stays live) with
    reward ``illegal_penalty`` and applies the other live seats' legal actions; this is for
    tools that sample without masks (PettingZoo's ``parallel_seed_test``).
    """

    # PettingZoo's API: a class attribute, copied per instance in __init__
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "ludus_v0"}  # noqa: RUF012

    def __init__(self, game: str, options: dict[str, Any] | None = None, render_mode: str | None = None,
                 illegal_action: str = "raise", illegal_penalty: float = -1.0) -> None:
        self._set_up(game, options, render_mode, "_parallel")  # self.state: the Ludus state
        # (ParallelEnv.state() stays unimplemented: it would show hidden cards)
        if illegal_action not in ("raise", "penalize"):
            raise ValueError(f"illegal_action must be 'raise' or 'penalize', not {illegal_action!r}")
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.agents: list[str] = []
        self._legal_ids: dict[int, frozenset[int]] = {}

    def live_seats(self) -> tuple[int, ...]:
        """Seats that act in the next step: ``current_seats()`` once chance is drawn."""
        assert self.state is not None
        return tuple(s for s in self.state.current_seats() if s != CHANCE)

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Start a new game. ``seed`` fixes every chance outcome; ``None`` continues the stream."""
        if seed is not None:
            self._rng = Rng(seed)
        elif self._rng is None:
            self._rng = Rng(int.from_bytes(os.urandom(8), "little"))
        self.state = self.game.new_initial_state(self.options, seed=None)
        settle_chance(self.state, self._rng)
        self.agents = self.possible_agents[:]
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        assert self.state is not None
        live = self.live_seats()
        self._legal_ids = {}
        out: dict[str, dict[str, np.ndarray]] = {}
        for agent in self.agents:
            seat = self._seat[agent]
            mask = np.zeros(self.space.num_player_actions, np.int8)
            if seat in live:
                ids = frozenset(self.space.player_id(a) for a in self.state.legal_actions(seat))
                mask[list(ids)] = 1
                self._legal_ids[seat] = ids
            out[agent] = {"observation": self.encoder.encode(self.state.observation(seat)), "action_mask": mask}
        return out

    def _legal(self, seat: int, action: Any) -> bool:
        """Whether ``action`` is one of the numbers in ``seat``'s last mask (kept aside, so a
        caller that edits the returned array changes nothing)."""
        try:
            number = int(action)
        except (TypeError, ValueError):
            return False
        return number in self._legal_ids.get(seat, ())

    def step(self, actions: dict[str, Any]) -> tuple[
            dict[str, dict[str, np.ndarray]], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict]]:
        if not self.agents:
            raise ValueError("the game is over: call reset() before step()")
        assert self.state is not None and self._rng is not None
        rewards = dict.fromkeys(self.agents, 0.0)
        moves: list[tuple[int, int]] = []
        for seat in self.live_seats():
            agent = agent_name(seat)
            if agent not in actions or actions[agent] is None:
                raise ValueError(f"{agent} is to move this step: give it an action")
            if self._legal(seat, actions[agent]):
                moves.append((seat, int(actions[agent])))
            elif self.illegal_action == "penalize":
                rewards[agent] = self.illegal_penalty
            else:
                raise ValueError(f"illegal action {actions[agent]!r} for {agent}")
        for seat, number in moves:  # seat order: the engine takes a simultaneous phase one seat at a time
            if seat not in self.state.current_seats():
                raise InteropError(f"{self.game.name}: seat {seat} stopped being to move inside a simultaneous step")
            self.state.apply(self.space.player[number], seat)
        settle_chance(self.state, self._rng)
        observations = self._observations()
        over = not self.state.current_seats()
        if over:
            for agent, r in zip(self.possible_agents, self.state.returns()):
                if agent in rewards:
                    rewards[agent] = float(r)
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


def parallel_env(game: str, options: dict[str, Any] | None = None, render_mode: str | None = None,
                 **kwargs: Any) -> LudusParallelEnv:
    """PettingZoo-style constructor: ``parallel_env("gorus-arena", {"players": 3})``."""
    return LudusParallelEnv(game, options, render_mode, **kwargs)
