"""Game records: options + seed (or explicit chance, or a start position) + the actions, as JSON.

Like PGN beside python-chess's Board, this module only reads and writes records and
replays them through the public protocol; it knows nothing about any particular game.
The format is described in ``docs/records.md``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import IllegalAction, InvalidOptions, LudusError, RecordError
from .game import CHANCE, Game, State
from .options import options_to_json

FORMAT = "ludus-record"
VERSION = 1
MAX_RECORD_BYTES = 16 * 1024 * 1024


@dataclass
class Record:
    """A game record. Exactly one of ``seed`` / ``start`` may be set; neither means explicit chance."""

    game: str
    options: dict[str, Any]
    actions: list[tuple[int, Any]]
    seed: int | None = None
    start: dict[str, Any] | None = None
    players: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": self.game, "options": self.options}
        if self.seed is not None:
            out["seed"] = self.seed
        if self.start is not None:
            out["start"] = self.start
        out["actions"] = [[seat, action] for seat, action in self.actions]
        if self.players:
            out["players"] = self.players
        if self.result is not None:
            out["result"] = self.result
        return out

    def dumps(self) -> str:
        """Pretty JSON with one action per line, so records diff and read well."""
        data = self.to_json()
        actions = data.pop("actions")
        head = json.dumps(data, indent=1, ensure_ascii=False)[:-2]
        lines = ",\n  ".join(json.dumps(a, ensure_ascii=False) for a in actions)
        return f'{head},\n "actions": [\n  {lines}\n ]\n}}' if actions else f'{head},\n "actions": []\n}}'

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")


def record_of(state: State, seed: int | None, players: list[str] | None = None,
              start: dict[str, Any] | None = None) -> Record:
    """The record of a game played from a seed (chance left out) or explicitly (chance kept)."""
    keep_chance = seed is None
    actions = [(s, a.to_json()) for s, a in state.history if keep_chance or s != CHANCE]
    result = None
    if state.is_terminal():
        result = {"scores": state.scores(), "winners": state.winners()}
    return Record(
        game=state.game.name,
        options=options_to_json(state.options),
        actions=actions,
        seed=seed,
        start=start,
        players=list(players or []),
        result=result,
    )


def parse_record(data: Any) -> Record:
    """Check the shape of a decoded record; every problem raises RecordError with its place."""
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a Ludus record (field 'format' must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise RecordError(f"unsupported record version {data.get('version')!r}; this program reads {VERSION}")
    game = data.get("game")
    if not isinstance(game, str):
        raise RecordError("field 'game' must be a game name")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError("field 'options' must be an object")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError("field 'seed' must be an integer")
    start = data.get("start")
    if start is not None and not isinstance(start, Mapping):
        raise RecordError("field 'start' must be a position object")
    if seed is not None and start is not None:
        raise RecordError("a record has either 'seed' or 'start', not both")
    raw_actions = data.get("actions")
    if not isinstance(raw_actions, list):
        raise RecordError("field 'actions' must be a list")
    actions: list[tuple[int, Any]] = []
    for i, entry in enumerate(raw_actions):
        if (not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], int)
                or isinstance(entry[0], bool)):
            raise RecordError(f"action {i + 1} must be [seat, action]")
        actions.append((entry[0], entry[1]))
    players = data.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("field 'players' must be a list of names")
    result = data.get("result")
    if result is not None and not isinstance(result, Mapping):
        raise RecordError("field 'result' must be an object")
    return Record(game=game, options=dict(options), actions=actions, seed=seed,
                  start=dict(start) if start is not None else None, players=players,
                  result=dict(result) if result is not None else None)


def loads(text: str) -> Record:
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError("record is too large")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"record is not valid JSON: {exc}") from exc
    return parse_record(data)


def load(path: str | Path) -> Record:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read record {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise RecordError(f"record {path} is not UTF-8 text") from exc
    try:
        return loads(text)
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from exc


def initial_state(record: Record, find_game: Callable[[str], Game]) -> State:
    """The state a record starts from (before its first action)."""
    try:
        game = find_game(record.game)
    except LudusError as exc:
        raise RecordError(str(exc)) from exc
    try:
        if record.start is not None:
            return game.state_from_json(record.start)
        return game.new_initial_state(record.options, seed=record.seed)
    except InvalidOptions as exc:
        raise RecordError(f"record options are invalid: {exc}") from exc


def iter_replay(record: Record, find_game: Callable[[str], Game]) -> Iterator[tuple[State, int, Any]]:
    """Yield (state before, seat, action) for each step, applying it after the yield."""
    state = initial_state(record, find_game)
    for i, (seat, raw) in enumerate(record.actions):
        try:
            action = state.game.action_from_json(raw)
        except RecordError as exc:
            raise RecordError(f"action {i + 1}: {exc}") from exc
        yield state, seat, action
        try:
            state.apply(action, seat)
        except IllegalAction as exc:
            raise RecordError(f"action {i + 1} ({action}) by seat {seat} is illegal: {exc}") from exc


def replay(record: Record, find_game: Callable[[str], Game], check_result: bool = True) -> State:
    """Replay every action of a record (each validated) and return the final state."""
    final = initial_state(record, find_game)
    for state, _seat, _action in iter_replay(record, find_game):
        final = state
    if not record.actions:
        final = initial_state(record, find_game)
    if check_result and record.result is not None and final.is_terminal():
        if list(record.result.get("winners", [])) != final.winners():
            raise RecordError("the record's stated winners differ from the replayed game's")
    return final
