"""Every Ludus game as a PettingZoo AEC environment with action masks.

Agents are ``player_0 … player_{n-1}`` (one per seat). Each observation is a dict:
``"observation"`` is the seat's encoded view (:mod:`.encoding`) and ``"action_mask"`` marks
its legal actions among the game's fixed action numbers (:mod:`.action_space`); the mask is
all zeros for a seat that is not to move. Chance is resolved inside the environment from
the seed given to ``reset``; simultaneous phases are played in seat order, as in the
OpenSpiel bridge. Rewards come only at the end: each seat's win share (1 shared among the
winners, 0 otherwise), the same as ``State.returns``.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.errors import IllegalAction
from ..core.game import CHANCE, State
from ..core.rng import Rng
from ..games import get_game
from .action_space import acting_seat, build_action_space
from .specs import encoder_for

__all__ = ["LudusAECEnv", "agent_name", "env", "settle_chance"]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def settle_chance(state: State, rng: Rng) -> None:
    """Draw chance outcomes with ``rng`` until a seat must decide (or the game is over)."""
    while acting_seat(state) == CHANCE:
        state.apply(state.sample_chance(rng), CHANCE)


class LudusAECEnv(AECEnv):
    """One Ludus game with fixed options as an AEC environment."""

    # PettingZoo's API: a class attribute, copied per instance in __init__
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "ludus_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, game: str, options: dict[str, Any] | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.game = get_game(game)
        self.options = self.game.parse_options(options)
        self.space = build_action_space(self.game, self.options)
        self.encoder = encoder_for(self.game, self.options)
        self.metadata = {**self.metadata, "name": f"ludus_{self.game.name.replace('-', '_')}_v0"}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        n = self.game.num_seats(self.options)
        self.possible_agents = [agent_name(s) for s in range(n)]
        self._seat = {agent_name(s): s for s in range(n)}
        low, high = self.encoder.bounds()
        num_actions = self.space.num_player_actions
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._rng: Rng | None = None
        self.state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

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

    def render(self) -> str | None:
        """The spectator's view as JSON text (``render_mode="ansi"``)."""
        if self.render_mode is None or self.state is None:
            return None
        return json.dumps(self.state.observation(None).to_json(), ensure_ascii=False)

    def close(self) -> None:
        self.state = None


def env(game: str, options: dict[str, Any] | None = None, render_mode: str | None = None) -> LudusAECEnv:
    """PettingZoo-style constructor: ``env("gorus-maximus", {"players": 4})``."""
    return LudusAECEnv(game, options, render_mode)
