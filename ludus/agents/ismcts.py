"""Information-set Monte Carlo tree search (ISMCTS) for every game of the core protocol.

Why this design (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012):

* The bot sees only its :class:`~ludus.core.game.SeatView`. Each iteration asks the game for
  a *determinization* (``game.sample_state(view, rng)``): a full state consistent with what
  the seat knows. One tree is shared by all determinizations, so statistics gather on what
  the seat can tell apart, not on one guessed deal.
* A tree edge is an action as the observing seat sees it. Moves it sees (its own, and other
  seats' public moves) get their own child; moves hidden from it (``Action.visible_to``) all
  lead to one shared child, so nothing below can depend on what it could not have seen.
  Every seat still picks its move at a node by UCB over the actions available in this
  determinization (availability counts, as ISMCTS requires), scored by its own reward.
* Chance is left to the sampled state: it carries a seeded generator and settles chance
  itself, so the tree has no chance nodes (it is open-loop over chance outcomes).
* Simultaneous moves (several seats in ``current_seats()``): the other seats choose first and
  their choices are hidden edges, then the observer chooses. So neither side's choice in the
  tree is conditioned on the other's, as at a real table where plans are secret.
* Rewards are per seat: ``state.returns()`` at the end of the game (1 shared among the
  winners), optionally blended with the final scores rescaled to [0, 1] (``score_weight``):
  a seat that loses every rollout still learns which moves lose by less. A rollout cut at
  ``horizon`` decisions is worth the rescaled scores. Team mates share wins in
  ``returns()``, so they pull together without special code.
* Rollouts use uniform random play or the game's heuristic agent, whichever measured
  stronger for the game at equal time (``GamePlugin.search``). They are
  :func:`ludus.core.playout.playout`, run compiled where the game has compiled playouts for the
  policy (``Game.compiled_playouts``): the same games, faster; ``compiled=False`` keeps Python.
  Rollout agents get a view without history (none of our heuristics reads it, and rebuilding it every move is slow).
* Paired root (``paired``): each sampled determinization, with its generator and so its
  chance to come, is played out once under *every* legal first move, instead of UCB picking
  one first move per sample. The first moves are then compared on the same deals and the
  same draws (common random numbers), so the luck of the deal drops out of their difference;
  in games where the deal decides much (Gladius, Circus Maximus) that comparison needs far
  fewer rollouts than independent samples would.
* Anchor (``anchor``): with a paired root, the seat plays its heuristic's move unless another
  move's mean paired advantage over it exceeds ``anchor`` standard errors. Search then only
  overrides the heuristic where it has evidence; with few samples it plays the heuristic.
* Expansion threshold (``expand_after``): an edge gets its child node only after that many
  visits. Below the root the other seats then keep playing their rollout policy until the
  tree has seen enough to do better, rather than trying untried moves at random.
* The budget is a number of iterations (reproducible: same seed, same view, same move) or
  seconds per move, or both (whichever ends first). The levels are iteration budgets, so
  tournaments replay identically on any machine; see ``level_budget``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import LudusError
from ..core.game import CHANCE, HIDDEN, Action, Game, SeatView, State
from ..core.playout import playout
from ..core.plugin import SearchBudget
from ..core.rng import Rng
from ..games import get_plugin
from .base import Agent, UnknownAgent, make_agent

if TYPE_CHECKING:
    from ..core.compiled import CompiledPlayouts

__all__ = ["GENERIC_LEVELS", "Budget", "ISMCTSAgent", "ISMCTSEasy", "ISMCTSHard", "ISMCTSMedium", "level_budget"]

Budget = SearchBudget

# Levels for games whose plugin sets no budget of its own. A game's plugin sets its own
# (``GamePlugin.search``), measured over whole games to answer within 1 s per move on the
# reference 2-core machine, with a margin for a noisy host (docs/agents.md).
GENERIC_LEVELS: dict[str, Budget] = {"easy": Budget(50), "medium": Budget(150), "hard": Budget(300)}


def level_budget(level: str, game: Game) -> Budget:
    """The budget of ``level`` for ``game``: the game's own if its plugin sets one."""
    try:
        own = get_plugin(game.name).search.get(level)
    except LudusError:
        own = None
    return own or GENERIC_LEVELS[level]


_COMPILED: dict[str, CompiledPlayouts | None] = {}
"""Each game's compiled playouts, looked up once per process."""


class _Node:
    """One information-set node: children by observed edge, statistics by (seat, action)."""

    __slots__ = ("children", "stats")

    def __init__(self) -> None:
        self.children: dict[tuple[int, Any], _Node] = {}
        self.stats: dict[tuple[int, Action], list[float]] = {}  # [visits, availability, reward]


class ISMCTSAgent(Agent):
    """Single-observer ISMCTS; any game whose ``Game.sample_state`` works."""

    name = "ismcts"
    level = "medium"

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        rollout: str | None = None,
        exploration: float = 0.7,
        horizon: int | None = None,
        score_weight: float | None = None,
        paired: bool | None = None,
        anchor: float | None = None,
        expand_after: int | None = None,
        compiled: bool = True,
    ) -> None:
        super().__init__(seed)
        self.seed = seed
        if rollout not in (None, "heuristic", "random"):
            raise ValueError("rollout must be 'heuristic' or 'random'")
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if seconds is not None and seconds <= 0:
            raise ValueError("seconds must be positive")
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.exploration = exploration
        self.horizon = horizon
        if score_weight is not None and not 0 <= score_weight <= 1:
            raise ValueError("score_weight must be between 0 and 1")
        self.score_weight = score_weight
        if anchor is not None and anchor < 0:
            raise ValueError("anchor must be at least 0 (standard errors)")
        if expand_after is not None and expand_after < 1:
            raise ValueError("expand_after must be at least 1")
        self.paired = paired
        self.anchor = anchor
        self.expand_after = expand_after
        self.compiled = compiled
        self._score_weight = 0.0
        self._level = Budget(1)
        self._policies: dict[tuple[str, int], Agent | None] = {}
        self._rollout_kind = "random"
        self.last_iterations = 0  # of the last search, for benchmarks and tests

    # ------------------------------------------------------------------ budget
    def budget(self, game: Game) -> tuple[int | None, float | None, str, float]:
        """(iterations, seconds, rollout, score weight) for a move in ``game``.

        Explicit settings win; what is left unset comes from the level's budget for the game.
        """
        level = self._settings(game)
        if self.iterations is None and self.seconds is None:
            return level.iterations, None, level.rollout, level.score_weight
        return self.iterations, self.seconds, level.rollout, level.score_weight

    def _settings(self, game: Game) -> Budget:
        """The level's budget for ``game`` with every explicit setting laid over it."""
        level = level_budget(self.level, game)
        return Budget(
            level.iterations,
            self.rollout or level.rollout,
            level.score_weight if self.score_weight is None else self.score_weight,
            level.paired if self.paired is None else self.paired,
            level.anchor if self.anchor is None else self.anchor,
            level.expand_after if self.expand_after is None else self.expand_after,
        )

    # ------------------------------------------------------------------ acting
    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        level = self._settings(view.game)
        if level.paired:
            return self._act_paired(view, level)
        visits = self.search(view)
        best, best_key = legal[0], (-1.0, -math.inf)
        for action in legal:
            n, mean = visits.get(action, (0, 0.0))
            if (n, mean) > best_key:
                best, best_key = action, (n, mean)
        return best

    def search(self, view: SeatView) -> dict[Action, tuple[int, float]]:
        """Run the search; for each of the seat's first actions, (visits, mean reward)."""
        game = view.game
        iterations, seconds, self._rollout_kind, self._score_weight = self.budget(game)
        self._level = self._settings(game)
        deadline = None if seconds is None else time.perf_counter() + seconds
        root = _Node()
        first: dict[Action, list[float]] = {}
        done = 0
        if self._level.paired:
            for action, rewards in self._search_paired(view, root, iterations, deadline).items():
                first[action] = [len(rewards), sum(rewards)]
            done = sum(int(s[0]) for s in first.values())
        else:
            while (iterations is None or done < iterations) and (deadline is None or time.perf_counter() < deadline):
                self._iterate(view, root, first, view.game.sample_state(view, self.rng))
                done += 1
        self.last_iterations = done
        return {a: (int(s[0]), s[1] / s[0] if s[0] else 0.0) for a, s in first.items()}

    # ------------------------------------------------------------------ paired root
    def _search_paired(
        self, view: SeatView, root: _Node, iterations: int | None, deadline: float | None
    ) -> dict[Action, list[float]]:
        """Each sampled deal, with its own chance to come, is played out under every root move.

        The root moves are then compared on the same deals and the same draws (common random
        numbers), so the luck of the deal cancels out of the comparison; in luck-heavy games
        this needs far fewer iterations than comparing each move on its own deals.
        """
        legal = view.legal_actions
        rewards: dict[Action, list[float]] = {a: [] for a in legal}
        done = 0
        # whole passes only, and never past the budget except for the first pass
        while (iterations is None or done == 0 or done + len(legal) <= iterations) and (
            deadline is None or done == 0 or time.perf_counter() < deadline
        ):
            sample = view.game.sample_state(view, self.rng)
            for action in legal:
                first: dict[Action, list[float]] = {}
                self._iterate(view, root, first, sample.clone(), forced=action)
                rewards[action].append(first[action][1])
            done += len(legal)
        return rewards

    def _act_paired(self, view: SeatView, level: Budget) -> Action:
        """Best root move on paired rewards; with an anchor, the heuristic's move unless beaten clearly."""
        game = view.game
        iterations, seconds, self._rollout_kind, self._score_weight = self.budget(game)
        self._level = level
        legal = view.legal_actions
        if level.anchor is not None and seconds is None and iterations is not None and iterations < 2 * len(legal):
            # the budget gives some move fewer than the two deals the anchor needs to be
            # overruled: the answer is the heuristic's move, so spare the search
            policy = self._heuristic(game, view.seat)
            if policy is not None:
                self.last_iterations = 0
                return policy.act(view)
        deadline = None if seconds is None else time.perf_counter() + seconds
        rewards = self._search_paired(view, _Node(), iterations, deadline)
        self.last_iterations = sum(len(r) for r in rewards.values())
        default = None
        if level.anchor is not None:
            policy = self._heuristic(game, view.seat)
            default = None if policy is None else policy.act(view)
        if default is None or default not in rewards:
            return max(legal, key=lambda a: sum(rewards[a]) / max(1, len(rewards[a])))
        base = rewards[default]
        n = len(base)
        best, best_gain = default, 0.0
        for action in legal:
            if action == default or n < 2:
                continue
            diffs = [x - y for x, y in zip(rewards[action], base)]
            mean = sum(diffs) / n
            spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
            if mean > level.anchor * spread and mean > best_gain:  # type: ignore[operator]
                best, best_gain = action, mean
        return best

    def _heuristic(self, game: Game, seat: int) -> Agent | None:
        key = ("anchor:" + game.name, seat)
        if key not in self._policies:
            self._policies[key] = _heuristic_or_none(game, seat)
        return self._policies[key]

    def _iterate(
        self,
        view: SeatView,
        root: _Node,
        first: dict[Action, list[float]],
        state: State,
        forced: Action | None = None,
    ) -> None:
        rng = self.rng
        me = view.seat
        expand_after = self._level.expand_after
        node = root
        path: list[tuple[int, list[float]]] = []
        mine: list[float] | None = None  # the stats of the observer's first decision
        c = self.exploration
        while True:
            seats = state.current_seats()
            if not seats:
                break
            if seats[0] == CHANCE:  # only for samplers that return a state without a generator
                state.apply(state.sample_chance(rng), CHANCE)
                continue
            seat = seats[0]
            simultaneous = len(seats) > 1
            if simultaneous and seat == me:
                seat = seats[1]  # the others choose first, unseen by the observer
            legal = state.legal_actions(seat)
            stats = node.stats
            untried: list[Action] = []
            best: Action | None = None
            best_value = -math.inf
            for action in legal:
                s = stats.get((seat, action))
                if s is None:
                    s = stats[(seat, action)] = [0, 0, 0.0]
                s[1] += 1  # availability: how often this action could have been chosen here
                if s[0] == 0:
                    untried.append(action)
                elif not untried:
                    value = s[2] / s[0] + c * math.sqrt(math.log(s[1]) / s[0])
                    if value > best_value:
                        best, best_value = action, value
            if forced is not None and seat == me and mine is None:
                action = forced
            else:
                action = untried[rng.below(len(untried))] if untried else best  # type: ignore[assignment]
            s = stats[(seat, action)]
            path.append((seat, s))
            if seat == me and mine is None:
                mine = first.setdefault(action, [0, 0.0])
            hidden = seat != me and (simultaneous or not action.visible_to(me, seat))
            key = (seat, HIDDEN if hidden else action)
            state.apply(action, seat)
            child = node.children.get(key)
            if child is None:
                if s[0] + 1 >= expand_after:  # this visit is counted below
                    node.children[key] = _Node()
                break
            node = child
        rewards = self._rollout(state, view)
        for seat, s in path:
            s[0] += 1
            s[2] += rewards[seat]
        if mine is not None:
            mine[0] += 1
            mine[1] += rewards[me]

    # ------------------------------------------------------------------ rollouts
    def _policy(self, game: Game, seat: int) -> Agent | None:
        if self._rollout_kind != "heuristic":
            return None
        key = (game.name, seat)
        if key not in self._policies:
            # seeded from the bot's seed, not drawn from the search's generator: making the agent
            # then changes no draw of the search, so a compiled heuristic playout can match it
            self._policies[key] = _heuristic_or_none(game, Rng(self.seed * 1_000_003 + seat + 1).next_u64())
        return self._policies[key]  # None: no heuristic for this game, random rollouts

    def _rollout(self, state: State, view: SeatView) -> Sequence[float]:
        game = view.game
        heuristic = self._rollout_kind == "heuristic"
        result = None
        compiled = self._compiled(game)
        if compiled is not None:  # the same game as the Python playout below, faster
            agents = [self._policy(game, seat) for seat in range(state.num_seats())] if heuristic else []
            if all(agent is not None for agent in agents):  # else: no heuristic, random rollouts in Python
                policy_rngs = [agent.rng for agent in agents if agent is not None]
                result = compiled.playout(state, self.rng, self._rollout_kind, self.horizon, policy_rngs)
        if result is None:
            policy = None
            if heuristic:
                options = view.options

                def policy(st: State, seat: int, legal: Sequence[Action]) -> Action:
                    agent = self._policy(game, seat)
                    if agent is None:  # no heuristic for this game: random rollouts
                        return legal[self.rng.below(len(legal))]
                    return agent.act(SeatView(game, options, seat, st.observation(seat), tuple(legal), ()))

            result = playout(state, self.rng, policy, self.horizon)
        if not result.finished:
            return _scaled_scores(result.scores)
        weight = self._score_weight
        if not weight:
            return result.returns
        return [(1 - weight) * r + weight * x for r, x in zip(result.returns, _scaled_scores(result.scores))]

    def _compiled(self, game: Game) -> CompiledPlayouts | None:
        """The game's compiled playouts when this search may use them (``compiled=True``)."""
        if not self.compiled:
            return None
        if game.name not in _COMPILED:
            _COMPILED[game.name] = game.compiled_playouts()
        return _COMPILED[game.name]


def _heuristic_or_none(game: Game, seed: int) -> Agent | None:
    """The game's heuristic agent, or None for a game that has none."""
    try:
        return make_agent("heuristic", game, seed=seed)
    except UnknownAgent:
        return None


def _scaled_scores(scores: Sequence[float]) -> list[float]:
    """Scores rescaled to [0, 1] (best 1, worst 0; all equal: an equal share each)."""
    lo, hi = min(scores), max(scores)
    if hi == lo:
        return [1.0 / len(scores)] * len(scores)
    return [(x - lo) / (hi - lo) for x in scores]


class ISMCTSEasy(ISMCTSAgent):
    name = "ismcts-easy"
    level = "easy"


class ISMCTSMedium(ISMCTSAgent):
    name = "ismcts-medium"
    level = "medium"


class ISMCTSHard(ISMCTSAgent):
    name = "ismcts-hard"
    level = "hard"
