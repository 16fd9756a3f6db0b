"""The registry that turns names like "heuristic" or "ismcts-hard" into agents for a game."""

from __future__ import annotations

from ..core.agent import Agent, RandomAgent
from ..core.errors import LudusError
from ..core.game import Game
from ..core.plugin import PluginError, resolve
from ..games import get_plugin

__all__ = ["AGENT_KINDS", "EXTRA_AGENTS", "Agent", "RandomAgent", "UnknownAgent", "has_heuristic", "make_agent",
           "normalize_kind"]


class UnknownAgent(LudusError):
    pass


AGENT_KINDS = ("random", "heuristic")


def has_heuristic(game: Game) -> bool:
    """Whether the game's plugin ships a heuristic agent (search rollouts and bots prefer it)."""
    try:
        return get_plugin(game.name).heuristic is not None
    except LudusError:
        return False


def heuristic_class(game: Game) -> type[Agent]:
    try:
        cls = get_plugin(game.name).load("heuristic")
    except PluginError as exc:
        raise UnknownAgent(str(exc)) from exc
    except LudusError:
        cls = None
    if cls is None:
        raise UnknownAgent(f"{game.title} has no heuristic agent")
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        raise UnknownAgent(f"{game.title}: its heuristic is not an Agent class")
    return cls


def normalize_kind(kind: str) -> str:
    """An agent kind as the registry spells it: the name lower-cased, an argument after ``:``
    (a policy file's path) kept as written."""
    name, sep, arg = kind.strip().partition(":")
    return name.strip().lower() + (sep + arg.strip() if sep else "")


def make_agent(kind: str, game: Game, seed: int = 0) -> Agent:
    """An agent by name: ``random``, ``heuristic``, ``trained`` (the game's shipped policy),
    ``policy:PATH`` (a policy file) or one of :data:`EXTRA_AGENTS`."""
    kind = normalize_kind(kind)
    if kind == "trained" or kind.startswith("policy:"):
        from .policy import PolicyError, policy_agent

        try:
            return policy_agent(kind, game, seed)
        except PolicyError as exc:
            raise UnknownAgent(str(exc)) from exc
    if kind == "random":
        return RandomAgent(seed)
    if kind == "heuristic":
        return heuristic_class(game)(seed)
    if kind in EXTRA_AGENTS:
        agent_class: type[Agent] = resolve(EXTRA_AGENTS[kind])
        return agent_class(seed)
    known = ", ".join(AGENT_KINDS + tuple(EXTRA_AGENTS) + ("trained", "policy:PATH"))
    raise UnknownAgent(f"unknown agent {kind!r}; known agents: {known}")


# kind -> "module:class" for agents that work on every game (e.g. ISMCTS levels)
EXTRA_AGENTS: dict[str, str] = {
    "ismcts": "ludus.agents.ismcts:ISMCTSMedium",
    "ismcts-easy": "ludus.agents.ismcts:ISMCTSEasy",
    "ismcts-medium": "ludus.agents.ismcts:ISMCTSMedium",
    "ismcts-hard": "ludus.agents.ismcts:ISMCTSHard",
}
