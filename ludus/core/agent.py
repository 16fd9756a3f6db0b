"""The agent interface: anything that picks a move from one seat's view.

It lives in ``core`` so that a game package can ship its own heuristic agent without
depending on the agents layer; :mod:`ludus.agents` builds search agents and the registry
of agent kinds on top of it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from .game import Action, SeatView
from .rng import Rng

__all__ = ["Agent", "RandomAgent"]


class Agent(ABC):
    """Chooses an action from a seat's view; never sees the full state."""

    name: str = "agent"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    @abstractmethod
    def act(self, view: SeatView) -> Action:
        """The action to play; must be one of ``view.legal_actions``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class RandomAgent(Agent):
    """Uniformly random among the legal actions."""

    name = "random"

    def act(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal_actions)
