"""A single-agent Gymnasium environment: the learner holds one seat, Ludus bots the others.

Observations and action numbers are those of the PettingZoo environment (a dict with
``"observation"`` and ``"action_mask"``; the mask is also in ``info``). Opponents are made
with :func:`~ludus.agents.base.make_agent` (``"random"``, ``"heuristic"`` or any registered
kind) and see only their own seat's view. The reward is the learner's win share at the end
of the game, 0 before.

An action that is not legal now does not end the episode: with
``illegal_action="penalize"`` (the default) nothing moves and the reward is
``illegal_penalty``; with ``"raise"`` it raises ``ValueError``. Masked sampling never hits it;
the default keeps generic tools such as Gymnasium's own ``check_env`` (which samples without
a mask) working.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..agents.base import Agent, make_agent
from ..core.game import CHANCE, State
from ..core.rng import Rng
from ..games import get_game
from .action_space import acting_seat, build_action_space
from .specs import encoder_for

__all__ = ["LudusSingleAgentEnv"]


class LudusSingleAgentEnv(gymnasium.Env):
    """``LudusSingleAgentEnv("gladius", opponents="heuristic")``: play seat ``seat`` against bots."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's API

    def __init__(self, game: str, options: dict[str, Any] | None = None, seat: int = 0,
                 opponents: str | Sequence[str] = "heuristic", illegal_action: str = "penalize",
                 illegal_penalty: float = -1.0, render_mode: str | None = None) -> None:
        self.game = get_game(game)
        self.options = self.game.parse_options(options)
        self.n = self.game.num_seats(self.options)
        if not 0 <= seat < self.n:
            raise ValueError(f"seat must be 0..{self.n - 1}, not {seat}")
        if illegal_action not in ("penalize", "raise"):
            raise ValueError("illegal_action must be 'penalize' or 'raise'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        others = [s for s in range(self.n) if s != seat]
        kinds = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(kinds) != len(others):
            raise ValueError(f"{len(others)} opponent kinds needed, got {len(kinds)}")
        for kind in kinds:
            make_agent(kind, self.game, 0)  # fail now, not at reset, on an unknown kind
        self.seat = seat
        self.opponent_kinds = dict(zip(others, kinds))
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.space = build_action_space(self.game, self.options)
        self.encoder = encoder_for(self.game, self.options)
        low, high = self.encoder.bounds()
        num_actions = self.space.num_player_actions
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(num_actions)
        self.state: State | None = None
        self._rng = Rng(0)
        self._bots: dict[int, Agent] = {}

    # ------------------------------------------------------------------ helpers
    def _mask(self) -> np.ndarray:
        assert self.state is not None
        mask = np.zeros(self.space.num_player_actions, np.int8)
        if acting_seat(self.state) == self.seat:
            for a in self.state.legal_actions(self.seat):
                mask[self.space.player_id(a)] = 1
        return mask

    def _obs(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        assert self.state is not None
        mask = self._mask()
        obs = {"observation": self.encoder.encode(self.state.observation(self.seat)), "action_mask": mask}
        return obs, {"action_mask": mask.copy()}

    def _advance(self) -> None:
        """Chance and opponents move until the learner must decide or the game is over."""
        state = self.state
        assert state is not None
        while True:
            seat = acting_seat(state)
            if seat is None or seat == self.seat:
                return
            if seat == CHANCE:
                state.apply(state.sample_chance(self._rng), CHANCE)
            else:
                state.apply(self._bots[seat].act(state.view(seat)), seat)

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        self._rng = Rng(int(self.np_random.integers(0, 2**63)))
        self._bots = {s: make_agent(kind, self.game, self._rng.next_u64()) for s, kind in self.opponent_kinds.items()}
        # a seeded state settles its own chance (the games' fast paths deal a whole hand at once)
        self.state = self.game.new_initial_state(self.options, seed=self._rng.next_u64())
        self._advance()
        return self._obs()

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if state.is_terminal():
            raise RuntimeError("the game is over: call reset()")
        number = int(action)
        legal = 0 <= number < self.space.num_player_actions and acting_seat(state) == self.seat
        move = self.space.player[number] if legal else None
        if move is not None and state.why_illegal(move, self.seat) is not None:
            legal = False
        if not legal or move is None:  # (a legal number always names a move)
            if self.illegal_action == "raise":
                raise ValueError(f"action {number} is not legal now")
            obs, info = self._obs()
            info["illegal_action"] = True
            return obs, self.illegal_penalty, False, False, info
        state.apply(move, self.seat)
        self._advance()
        obs, info = self._obs()
        done = state.is_terminal()
        reward = float(state.returns()[self.seat]) if done else 0.0
        return obs, reward, done, False, info

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return json.dumps(self.state.observation(None).to_json(), ensure_ascii=False)
