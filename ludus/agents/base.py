"""The agent interface and the registry that turns names like "heuristic" into agents."""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod

from ..core.errors import LudusError
from ..core.game import Action, Game, SeatView
from ..core.rng import Rng


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


class UnknownAgent(LudusError):
    pass


# game name -> "module:class" of its heuristic agent
HEURISTICS: dict[str, str] = {
    "gorus-maximus": "ludus.agents.heuristics.gorus_maximus:GorusMaximusHeuristic",
    "gladius": "ludus.agents.heuristics.gladius:GladiusHeuristic",
    "circus-maximus": "ludus.agents.heuristics.circus_maximus:CircusMaximusHeuristic",
    "gorus-arena": "ludus.agents.heuristics.gorus_arena:GorusArenaHeuristic",
}

AGENT_KINDS = ("random", "heuristic")


def _load(target: str) -> type[Agent]:
    module_name, cls = target.split(":")
    return getattr(importlib.import_module(module_name), cls)


def make_agent(kind: str, game: Game, seed: int = 0) -> Agent:
    """An agent by name: ``random`` or ``heuristic`` (more kinds are added by later layers)."""
    kind = kind.strip().lower()
    if kind == "random":
        return RandomAgent(seed)
    if kind == "heuristic":
        target = HEURISTICS.get(game.name)
        if target is None:
            raise UnknownAgent(f"{game.title} has no heuristic agent")
        return _load(target)(seed)
    if kind in EXTRA_AGENTS:
        return _load(EXTRA_AGENTS[kind])(seed)
    known = ", ".join(AGENT_KINDS + tuple(EXTRA_AGENTS))
    raise UnknownAgent(f"unknown agent {kind!r}; known agents: {known}")


# kind -> "module:class" for agents that work on every game (e.g. ISMCTS levels)
EXTRA_AGENTS: dict[str, str] = {
    "ismcts": "ludus.agents.ismcts:ISMCTSMedium",
    "ismcts-easy": "ludus.agents.ismcts:ISMCTSEasy",
    "ismcts-medium": "ludus.agents.ismcts:ISMCTSMedium",
    "ismcts-hard": "ludus.agents.ismcts:ISMCTSHard",
}
