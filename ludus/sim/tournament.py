"""Tournaments: many seeded games between agent kinds, seats rotated, results per game.

A tournament is fully described by a :class:`TournamentSpec`. Game ``i`` gets its own seed
(:func:`game_seed`) and seating (:func:`seating`) computed from the spec alone, and builds
fresh agents, so every game is independent of every other: any backend may play them in any
order on any number of workers and the results, sorted by game index, are the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..agents.base import make_agent, normalize_kind
from ..core.errors import LudusError
from ..core.game import CHANCE, Game, seat_range_error
from ..core.options import options_to_json
from ..core.records import record_of
from ..core.rng import Rng
from ..games import get_game
from .scenarios import game_metrics

__all__ = [
    "DEFAULT_MAX_DECISIONS", "GameResult", "TournamentError", "TournamentSpec", "agent_labels", "agent_seed",
    "game_seed", "make_spec", "parse_agents", "play_chunk", "play_game", "seating",
]

_GAMMA = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1
_AGENT_SALT = 0xA6E17_5EED

DEFAULT_MAX_DECISIONS = 200_000


class TournamentError(LudusError):
    """A tournament that cannot be set up or whose game did not finish."""


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index``: the top 53 bits of the ``index``-th SplitMix64 output from ``seed``.

    Computed directly (no stream to walk), so a worker needs only the index. 53 bits keep
    seeds exact in JSON readers that use doubles, and within int64 for Parquet.
    """
    return Rng((seed + index * _GAMMA) & _MASK64).next_u64() >> 11


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent at ``seat`` in a game whose seed is ``seed``."""
    return Rng(((seed ^ _AGENT_SALT) + (seat + 1) * _GAMMA) & _MASK64).next_u64()


def parse_agents(text: str) -> tuple[str, ...]:
    """``"ismcts,heuristic,random*2"`` -> one kind per entry (``*N`` repeats a kind)."""
    kinds: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        kind, star, count = part.partition("*")
        kind = normalize_kind(kind)
        n = 1
        if star:
            if not count.strip().isdigit() or int(count) < 1:
                raise TournamentError(f"agent {part!r}: write KIND*N with N a positive whole number")
            n = int(count)
        if not kind:
            raise TournamentError(f"agent {part!r} has no kind")
        kinds.extend([kind] * n)
    if not kinds:
        raise TournamentError("no agents given; write e.g. --agents heuristic,random")
    return tuple(kinds)


def agent_labels(kinds: Sequence[str]) -> tuple[str, ...]:
    """Unique names for the entries: the kind, numbered (``random#1``) when it appears twice."""
    out = []
    for i, kind in enumerate(kinds):
        if kinds.count(kind) == 1:
            out.append(kind)
        else:
            out.append(f"{kind}#{kinds[: i + 1].count(kind)}")
    return tuple(out)


@dataclass(frozen=True)
class TournamentSpec:
    """Everything that decides a tournament's results (and nothing that does not).

    ``options`` are the game's validated options as JSON values; ``agents`` holds one agent
    kind per entry, as many entries as the game has seats.
    """

    game: str
    options: dict[str, Any]
    agents: tuple[str, ...]
    games: int
    seed: int
    records: bool = False
    max_decisions: int = DEFAULT_MAX_DECISIONS

    @property
    def labels(self) -> tuple[str, ...]:
        return agent_labels(self.agents)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": dict(self.options), "agents": list(self.agents),
                "labels": list(self.labels), "games": self.games, "seed": self.seed}


def make_spec(game_name: str, options: Any, agents: Sequence[str] | str, games: int, seed: int,
              records: bool = False, max_decisions: int = DEFAULT_MAX_DECISIONS) -> TournamentSpec:
    """A validated spec: known game, valid options, one known agent kind per seat."""
    game = get_game(game_name)
    opts = game.parse_options(options)
    kinds = parse_agents(agents) if isinstance(agents, str) else tuple(normalize_kind(k) for k in agents)
    n = game.num_seats(opts)
    if len(kinds) != n:
        raise TournamentError(
            f"{game.title} with these options has {n} seat(s), but {len(kinds)} agent(s) were given;"
            f" give one agent kind per seat (KIND*N repeats one)"
        )
    if not game.min_seats <= n <= game.max_seats:
        raise TournamentError(seat_range_error(game, n))
    for kind in sorted(set(kinds)):
        make_agent(kind, game, seed=0)  # raises UnknownAgent with the known kinds
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise TournamentError(f"the number of games must be a positive whole number, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TournamentError(f"the seed must be a whole number, not {seed!r}")
    return TournamentSpec(game=game.name, options=options_to_json(opts), agents=kinds, games=games,
                          seed=seed, records=records, max_decisions=max_decisions)


def seating(num_entries: int, index: int) -> tuple[int, ...]:
    """Which entry sits at each seat in game ``index``: the lineup rotated by one seat per game.

    Over any ``num_entries`` consecutive games every entry plays every seat exactly once.
    """
    shift = index % num_entries
    return tuple((seat - shift) % num_entries for seat in range(num_entries))


@dataclass(frozen=True)
class GameResult:
    """One finished game. Seats are 0-based here; exports number them from 1."""

    index: int
    seed: int
    seating: tuple[int, ...]  # entry index at each seat
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    shares: tuple[float, ...]  # 1 shared among the winners (State.returns)
    decisions: int  # actions chosen by agents (chance outcomes not counted)
    metrics: dict[str, float] = field(default_factory=dict)
    record: dict[str, Any] | None = None

    def entry_at(self, seat: int) -> int:
        return self.seating[seat]


_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], tuple[Game, Any]] = {}


def _game_and_options(spec: TournamentSpec) -> tuple[Game, Any]:
    """Parse a spec's game and options once per process (workers reuse them across chunks)."""
    key = (spec.game, tuple(sorted(spec.options.items())))
    found = _CACHE.get(key)
    if found is None:
        game = get_game(spec.game)
        found = _CACHE[key] = (game, game.parse_options(spec.options))
    return found


def play_game(spec: TournamentSpec, index: int) -> GameResult:
    """Play game ``index`` of a tournament from scratch: compiled when every seat's agent is one
    the game's compiled code plays (the same game, faster), else through the Python engine."""
    game, options = _game_and_options(spec)
    seed = game_seed(spec.seed, index)
    seats = seating(len(spec.agents), index)
    state = game.new_initial_state(options, seed=seed)
    if not spec.records:
        fast = _play_compiled(spec, game, state, index, seed, seats)
        if fast is not None:
            return fast
    agents = [make_agent(spec.agents[entry], game, seed=agent_seed(seed, s)) for s, entry in enumerate(seats)]
    decisions = 0
    while True:
        acting = state.current_seats()
        if not acting:
            break
        seat = acting[0]
        if seat == CHANCE:
            raise TournamentError(f"{game.title} left a chance node to the caller despite a seed")
        state.apply(agents[seat].act(state.view(seat)), seat)
        decisions += 1
        if decisions > spec.max_decisions:
            raise TournamentError(
                f"game {index} (seed {seed}) did not end within {spec.max_decisions} decisions")
    record = None
    if spec.records:
        labels = spec.labels
        record = record_of(state, seed, players=[labels[e] for e in seats]).to_json()
    return GameResult(
        index=index,
        seed=seed,
        seating=seats,
        scores=tuple(float(x) for x in state.scores()),
        winners=tuple(state.winners()),
        shares=tuple(state.returns()),
        decisions=decisions,
        metrics=game_metrics(state),
        record=record,
    )


def _play_compiled(spec: TournamentSpec, game: Game, state: Any, index: int, seed: int,
                   seats: tuple[int, ...]) -> GameResult | None:
    """Game ``index`` played by the game's compiled agents, or None where they cannot play it
    (no compiled code here, an agent kind or a state it does not handle). Records need every
    move, which the compiled game does not keep, so a tournament with records never comes here."""
    kinds = [spec.agents[entry] for entry in seats]
    playouts = game.compiled_playouts()
    if playouts is None or any(kind not in playouts.agent_kinds for kind in kinds):
        return None
    try:
        played = playouts.play_agents(state, kinds, [Rng(agent_seed(seed, s)) for s in range(len(seats))])
    except RuntimeError:
        played = None
        decisions = spec.max_decisions + 1
    else:
        if played is None:
            return None
        decisions = played.decisions
    if played is None or decisions > spec.max_decisions:
        raise TournamentError(f"game {index} (seed {seed}) did not end within {spec.max_decisions} decisions")
    return GameResult(
        index=index,
        seed=seed,
        seating=seats,
        scores=played.scores,
        winners=tuple(s for s, share in enumerate(played.returns) if share > 0),
        shares=played.returns,
        decisions=decisions,
        metrics=played.metrics,
    )


def play_chunk(spec: TournamentSpec, indices: Sequence[int]) -> list[GameResult]:
    """Play several games of one tournament; the unit of work sent to a worker."""
    return [play_game(spec, i) for i in indices]
