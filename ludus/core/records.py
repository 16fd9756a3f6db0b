"""Game records: options + seed (or explicit chance, or a start position) + the actions, as JSON.

Like PGN beside python-chess's Board, this module only reads and writes records and
replays them through the public protocol; it knows nothing about any particular game.
The format is described in ``docs/records.md``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import N_
from .datafile import read_text
from .errors import DataError, IllegalAction, InvalidOptions, LudusError, Message, RecordError
from .fields import clip as _clip
from .fields import show as _show
from .game import CHANCE, Game, State
from .options import options_to_json

__all__ = [
    "FORMAT", "MAX_NAME_CHARS", "MAX_RECORD_BYTES", "RESULT_KEYS", "SEED_MAX", "SEED_MIN", "VERSION", "Record",
    "initial_state", "iter_replay", "load", "loads", "parse_record", "record_of", "replay", "verify_result",
]

FORMAT = "ludus-record"
VERSION = 1
MAX_RECORD_BYTES = 16 * 1024 * 1024
SEED_MIN = -(2**63)
"""Seeds run from the smallest signed to the largest unsigned 64-bit number; the generator
uses the seed's low 64 bits, so this range holds every seed the tools write."""
SEED_MAX = 2**64 - 1
RESULT_KEYS = ("scores", "winners")
MAX_NAME_CHARS = 200
NOT_JSON = N_("record is not valid JSON: {why}")


def _said(exc: BaseException) -> str:
    """An error inside a record's error, as a param: its message (so the reader's language can
    say it, where it was raised with a :class:`Message`), else its English text, clipped."""
    template = getattr(exc, "message_template", None)
    if template:
        return Message(template, **getattr(exc, "message_params", {}))
    return _clip(str(exc))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and (isinstance(value, int) or math.isfinite(value)))


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
    """Check the shape of a decoded record; every problem raises RecordError with its place.

    Checks that need the game (seat numbers, how many players and scores) are made when the
    record is replayed, by :func:`initial_state` and :func:`iter_replay`.
    """
    if not isinstance(data, Mapping):
        raise RecordError(Message(N_("a record must be a JSON object")))
    if data.get("format") != FORMAT:
        raise RecordError(Message(N_("not a Ludus record (field 'format' must be '{format}')"), format=FORMAT))
    version = data.get("version")
    if not _is_int(version) or version != VERSION:
        raise RecordError(Message(N_("unsupported record version {version}; this program reads {reads}"),
                                  version=_show(version, 40), reads=VERSION))
    game = data.get("game")
    if not isinstance(game, str):
        raise RecordError(Message(N_("field 'game' must be a game name")))
    options = data.get("options", {})
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise RecordError(Message(N_("field 'options' must be an object")))
    seed = data.get("seed")
    if seed is not None:
        if not _is_int(seed):
            raise RecordError(Message(N_("field 'seed' must be an integer")))
        if not SEED_MIN <= seed <= SEED_MAX:
            raise RecordError(Message(N_("field 'seed' must be from {low} to {high}"), low=SEED_MIN, high=SEED_MAX))
    start = data.get("start")
    if start is not None and not isinstance(start, Mapping):
        raise RecordError(Message(N_("field 'start' must be a position object")))
    if seed is not None and start is not None:
        raise RecordError(Message(N_("a record has either 'seed' or 'start', not both")))
    raw_actions = data.get("actions")
    if not isinstance(raw_actions, list):
        raise RecordError(Message(N_("field 'actions' must be a list")))
    actions: list[tuple[int, Any]] = []
    for i, entry in enumerate(raw_actions):
        if not isinstance(entry, list) or len(entry) != 2 or not _is_int(entry[0]):
            raise RecordError(Message(N_("action {number} must be [seat, action]"), number=i + 1))
        actions.append((entry[0], entry[1]))
    players = data.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError(Message(N_("field 'players' must be a list of names")))
    if any(not p.isprintable() for p in players):
        raise RecordError(Message(N_("player names must not hold control characters")))
    if any(len(p) > MAX_NAME_CHARS for p in players):
        raise RecordError(Message(N_("a player name may have at most {count} characters"), count=MAX_NAME_CHARS))
    result = data.get("result")
    if result is not None:
        result = _parse_result(result)
    return Record(game=game, options=dict(options), actions=actions, seed=seed,
                  start=dict(start) if start is not None else None, players=list(players),
                  result=result)


def _parse_result(result: Any) -> dict[str, Any]:
    """The generic checks of a ``result``: lists of numbers and of distinct seat numbers."""
    if not isinstance(result, Mapping):
        raise RecordError(Message(N_("field 'result' must be an object with 'scores' and 'winners'")))
    if set(result) != set(RESULT_KEYS):
        raise RecordError(Message(N_("field 'result' must have exactly the fields 'scores' and 'winners'")))
    scores, winners = result["scores"], result["winners"]
    if not isinstance(scores, list) or not all(_is_number(x) for x in scores):
        raise RecordError(Message(N_("result 'scores' must be a list of numbers, one per seat")))
    if not isinstance(winners, list) or not all(_is_int(w) for w in winners):
        raise RecordError(Message(N_("result 'winners' must be a list of seat numbers")))
    if len(set(winners)) != len(winners):
        raise RecordError(Message(N_("result 'winners' names a seat twice")))
    return {"scores": list(scores), "winners": list(winners)}


def loads(text: str) -> Record:
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(Message(N_("record is too large")))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(Message(NOT_JSON, why=str(exc))) from exc
    except RecursionError:
        raise RecordError(Message(N_("record is not valid JSON: it is nested too deeply"))) from None
    except ValueError as exc:  # e.g. an integer longer than Python converts
        raise RecordError(Message(NOT_JSON, why=_clip(str(exc)))) from None
    return parse_record(data)


def load(path: str | Path) -> Record:
    text = read_text(path, MAX_RECORD_BYTES, "record", RecordError)
    try:
        return loads(text)
    except RecordError as exc:
        raise RecordError(Message(N_("{path}: {problem}"), path=str(path), problem=_said(exc))) from exc


def initial_state(record: Record, find_game: Callable[[str], Game]) -> State:
    """The state a record starts from (before its first action).

    Also checks what needs the game: as many player names as seats (or none), and a result
    with one score per seat and winners among the seats.
    """
    try:
        game = find_game(record.game)
    except LudusError as exc:
        raise RecordError(_said(exc)) from exc
    try:
        if record.start is not None:
            state = game.state_from_json(record.start)
            if record.options and game.parse_stored_options(record.options) != state.options:
                raise RecordError(Message(N_("the record's options differ from those of its start position")))
        else:
            state = game.new_initial_state(game.parse_stored_options(record.options), seed=record.seed)
    except (InvalidOptions, DataError) as exc:
        raise RecordError(Message(N_("record options are invalid: {problem}"), problem=_said(exc))) from exc
    except LudusError:
        raise
    except Exception as exc:  # a safety net: hostile input must not crash a reader
        said = N_("the record's start position cannot be read: {problem}") if record.start is not None else \
            N_("the record's options cannot be read: {problem}")
        raise RecordError(Message(said, problem=_show(exc))) from exc
    n = state.num_seats()
    if record.players and len(record.players) != n:
        raise RecordError(Message(N_("the record names {players} players for a game of {seats} seats"),
                                  players=len(record.players), seats=n))
    if record.result is not None:
        if len(record.result["scores"]) != n:
            raise RecordError(Message(N_("result 'scores' must have one number per seat ({seats})"), seats=n))
        if not all(0 <= w < n for w in record.result["winners"]):
            raise RecordError(Message(N_("result 'winners' must be seat numbers from 0 to {high}"), high=n - 1))
    return state


def _check_seat(state: State, seat: int, i: int) -> None:
    n = state.num_seats()
    if seat == CHANCE:
        if state.rng is not None:
            raise RecordError(Message(N_("action {number}: a chance outcome (seat -1) in a record whose chance "
                                         "follows its seed or start position"), number=i + 1))
    elif not 0 <= seat < n:
        raise RecordError(Message(N_("action {number}: seat {seat} is not a seat of this game (0 to {high}, or -1 "
                                     "for chance)"), number=i + 1, seat=_show(seat, 40), high=n - 1))


def iter_replay(record: Record, find_game: Callable[[str], Game]) -> Iterator[tuple[State, int, Any]]:
    """Yield (state before, seat, action) for each step, applying it after the yield.

    Each seat is checked to be one of the game's (or -1 for chance when chance is explicit)
    before its step is yielded; an action that cannot be read or applied raises RecordError.
    """
    state = initial_state(record, find_game)
    for i, (seat, raw) in enumerate(record.actions):
        _check_seat(state, seat, i)
        try:
            action = state.game.action_from_json(raw)
        except RecordError as exc:
            raise RecordError(Message(N_("action {number}: {problem}"), number=i + 1, problem=_said(exc))) from exc
        except Exception as exc:  # a safety net behind each game's own checks
            raise RecordError(Message(N_("action {number}: cannot read {action}: {problem}"), number=i + 1,
                                      action=_show(raw, 80), problem=_show(exc))) from exc
        yield state, seat, action
        try:
            state.apply(action, seat)
        except IllegalAction as exc:
            raise RecordError(Message(N_("action {number} ({action}) by seat {seat} is illegal: {problem}"),
                                      number=i + 1, action=_clip(str(action), 80), seat=seat,
                                      problem=_said(exc))) from exc
        except Exception as exc:  # the replay stops; the half-changed state is not used
            raise RecordError(Message(N_("action {number} ({action}) by seat {seat} cannot be played: {problem}"),
                                      number=i + 1, action=_clip(str(action), 80), seat=seat,
                                      problem=_show(exc))) from exc


def verify_result(record: Record, final: State) -> None:
    """Compare the record's stated result with the replayed game's; any difference raises RecordError."""
    if record.result is None:
        return
    if not final.is_terminal():
        raise RecordError(Message(N_("the record states a result, but its {count} actions end before the game "
                                     "does"), count=len(record.actions)))
    # Python compares ints and floats by value, exactly and without overflow (2 == 2.0)
    if sorted(record.result["winners"]) != sorted(final.winners()):
        raise RecordError(Message(N_("the record's stated winners differ from the replayed game's ({stated} "
                                     "stated, {replayed} replayed)"), stated=_show(record.result["winners"], 120),
                                  replayed=str(final.winners())))
    if list(record.result["scores"]) != list(final.scores()):
        raise RecordError(Message(N_("the record's stated scores differ from the replayed game's ({stated} "
                                     "stated, {replayed} replayed)"), stated=_show(record.result["scores"], 120),
                                  replayed=str(final.scores())))


def replay(record: Record, find_game: Callable[[str], Game], check_result: bool = True) -> State:
    """Replay every action of a record (each validated) and return the final state.

    With ``check_result`` a record that states a result must end where the game ends, with
    exactly those scores and winners.
    """
    final: State | None = None
    for state, _seat, _action in iter_replay(record, find_game):
        final = state
    if final is None:
        final = initial_state(record, find_game)
    if check_result:
        verify_result(record, final)
    return final
