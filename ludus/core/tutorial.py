"""Guided first games: a short scripted game that teaches one rule at a time.

A tutorial is a data file in the game's package (``data/tutorial.toml``, named by the plugin's
``tutorial`` field). It starts a game with *explicit chance* (no seed: the deal is written in
the file as chance moves, seat -1), so what the learner sees is the same on every machine
and in every version of the engine. The file is a list of steps; each step

* first plays its scripted moves (``before``: chance outcomes and the other seats' moves,
  as ``[seat, action]`` pairs in the record format),
* then shows its text (``say``) and, if it has an ``expect``ed move, waits for the learner to
  make exactly that move; another legal move is refused with the step's ``other`` text, an
  illegal one with the engine's own reason;
* may invite the learner to try one illegal move first (``wrong``, introduced by
  ``wrong_say``), so they see how and why the rules refuse it;
* explains what happened once the move is made (``after``).

TOML has no null, so inside a move the string ``"null"`` stands for JSON null (Gladius's
"no attack" is ``{attack = "null"}``); moves sent by a client are real JSON and are read as sent.

A step without ``expect`` is a reading step: the learner just goes on. The game need not
reach its end: the tutorial stops after its last step, and ``outro`` invites the learner to
a real game with the same options.

Everything here reads the engine only through the public protocol (``legal_actions``,
``why_illegal``, ``apply``), and :func:`load_tutorial` plays the whole script once when
it loads, so a script that no longer fits the rules is refused with the step that broke,
never shown half-working to a learner.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..i18n import N_
from .errors import DataError, IllegalAction, LudusError, RecordError
from .game import CHANCE, Action, Game, State
from .tomldata import load_toml

__all__ = ["Attempt", "Tutorial", "TutorialScript", "TutorialStep", "load_tutorial", "tutorial_json"]


NOTHING_TO_PLAY = N_("Nothing to play in this step: read it, then go on.")
ANOTHER_MOVE = N_("That move is allowed, but this lesson asks for another one.")
"""The answers to a move a lesson does not want, in English (a client translates them, as it does
the script's own texts: :func:`ludus.i18n.data.translate_text`)."""

NULL = "null"
"""How a script writes JSON null inside a move (TOML has no null)."""


def _nulls(value: Any) -> Any:
    """The move with every ``"null"`` inside it read as None (the move itself is left as written)."""
    if isinstance(value, list):
        return [None if v == NULL else _nulls(v) for v in value]
    if isinstance(value, dict):
        return {k: None if v == NULL else _nulls(v) for k, v in value.items()}
    return value


class TutorialStep(BaseModel):
    """One lesson: scripted moves, a text, and (usually) one move for the learner to make."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    before: list[tuple[int, Any]] = Field(default_factory=list)
    """Moves played before the text shows: ``[seat, action JSON]``; seat -1 is a chance outcome."""
    say: str = Field(min_length=1)
    """What this step teaches, and what to do now (plain text; blank lines separate paragraphs)."""
    expect: Any = None
    """The move the learner must make (action JSON); absent: a reading step."""
    other: str = ""
    """Shown when the learner makes another legal move (why this lesson wants the expected one)."""
    wrong: Any = None
    """An illegal move the learner is invited to try, to see the rules refuse it."""
    wrong_say: str = ""
    """The invitation to try ``wrong`` (e.g. "Try playing the 3 of Swords first")."""
    after: str = ""
    """What the expected move did, shown once it is made."""

    @field_validator("before", "expect", "wrong", mode="before")
    @classmethod
    def _toml_nulls(cls, value: Any) -> Any:
        return _nulls(value)


class TutorialScript(BaseModel):
    """The whole file: who the learner is, with which options, and the steps in order."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    title: str = Field(min_length=1)
    intro: str = Field(min_length=1)
    options: dict[str, Any] = Field(default_factory=dict)
    seat: int = Field(default=0, ge=0)
    """The learner's seat; the others play the scripted moves."""
    names: list[str] = Field(default_factory=list)
    """Names for the seats (the learner's is replaced by "You" where shown); default Player N."""
    steps: list[TutorialStep] = Field(min_length=1)
    outro: str = Field(min_length=1)
    """The closing words, before "play a real game"."""
    play_options: dict[str, Any] | None = None
    """Options of the real game offered at the end; absent: the tutorial's own ``options`` (a lesson
    may need a setting that shows a rule sooner, e.g. a bigger starting hand, that a first real game
    should not keep)."""


@dataclass(frozen=True)
class Attempt:
    """The answer to one move the learner tried at a step.

    ``kind`` is ``"done"`` (the expected move: the step is passed, ``message`` is its ``after``),
    ``"refused"`` (the rules forbid the move: ``message`` is the engine's reason), or
    ``"other"`` (legal, but not this lesson's move: ``message`` says what the lesson wants).
    """

    kind: Literal["done", "refused", "other"]
    message: str


class Tutorial:
    """A checked tutorial script bound to its game: states at each step, and answers to tries."""

    def __init__(self, game: Game, script: TutorialScript, source: str = "tutorial") -> None:
        self.game = game
        self.script = script
        self.source = source
        self.options = game.parse_options(script.options)
        self.play_options: dict[str, Any] = dict(script.options if script.play_options is None else script.play_options)
        try:
            game.parse_options(self.play_options)
        except LudusError as exc:
            raise DataError(f"{source}: play_options: {exc}") from exc
        self._states: list[State] = []  # the state at each step, its scripted moves played
        self._check()

    # ------------------------------------------------------------------ reading
    @property
    def seat(self) -> int:
        return self.script.seat

    @property
    def steps(self) -> list[TutorialStep]:
        return self.script.steps

    def __len__(self) -> int:
        return len(self.script.steps)

    def names(self) -> list[str]:
        n = self._states[0].num_seats()
        names = list(self.script.names) or [f"Player {i + 1}" for i in range(n)]
        names[self.seat] = "You"
        return names

    def state_at(self, step: int) -> State:
        """A fresh copy of the game as the learner meets step ``step`` (its scripted moves played)."""
        if not 0 <= step < len(self._states):
            raise LudusError(f"this tutorial has steps 0 to {len(self._states) - 1}, not {step}")
        return self._states[step].clone()

    def final_state(self) -> State:
        """The game after the last step's move (what the learner sees with the closing words)."""
        return self._final.clone()

    def expected(self, step: int) -> Action | None:
        raw = self.script.steps[step].expect
        return None if raw is None else self.game.action_from_json(raw)

    def attempt(self, step: int, raw: Any) -> Attempt:
        """Judge a move the learner tried at ``step`` (action JSON, as a client sends it).

        Nothing is changed: the caller moves on to ``step + 1`` when the answer is ``done``.
        A malformed action is an error (RecordError), like anywhere else in Ludus.
        """
        state = self.state_at(step)
        lesson = self.script.steps[step]
        action = self.game.action_from_json(raw)
        reason = state.why_illegal(action, self.seat)
        if reason is not None:
            return Attempt("refused", reason)
        if lesson.expect is None:
            return Attempt("other", NOTHING_TO_PLAY)
        if action == self.expected(step):
            return Attempt("done", lesson.after)
        return Attempt("other", lesson.other or ANOTHER_MOVE)

    # ------------------------------------------------------------------ checking
    def _check(self) -> None:
        state = self.game.new_initial_state(self.script.options, seed=None)
        n = state.num_seats()
        if self.seat >= n:
            raise DataError(f"{self.source}: seat {self.seat} is not a seat of this game (0 to {n - 1})")
        if self.script.names and len(self.script.names) != n:
            raise DataError(f"{self.source}: 'names' must name all {n} seats")
        for i, lesson in enumerate(self.script.steps):
            where = f"{self.source}: step {i + 1}"
            for j, (seat, raw) in enumerate(lesson.before):
                self._play(state, seat, raw, f"{where}, scripted move {j + 1}")
            if lesson.expect is not None:
                if state.is_terminal() or self.seat not in state.current_seats():
                    raise DataError(f"{where}: it is not the learner's turn when the step asks for a move")
                self._refusal_of(state, lesson.wrong, where)
            elif lesson.wrong is not None:
                raise DataError(f"{where}: 'wrong' needs an 'expect'ed move to follow it")
            self._states.append(state.clone())
            if lesson.expect is not None:
                self._play(state, self.seat, lesson.expect, f"{where}, the expected move")
        self._final = state

    def _refusal_of(self, state: State, raw: Any, where: str) -> None:
        if raw is None:
            return
        try:
            action = self.game.action_from_json(raw)
        except RecordError as exc:
            raise DataError(f"{where}: 'wrong' is not a move of this game: {exc}") from exc
        if state.why_illegal(action, self.seat) is None:
            raise DataError(f"{where}: the 'wrong' move {action.label!r} is legal here, so it shows no refusal")

    def _play(self, state: State, seat: int, raw: Any, where: str) -> None:
        try:
            action = self.game.action_from_json(raw)
            state.apply(action, CHANCE if seat == CHANCE else seat)
        except (RecordError, IllegalAction) as exc:
            raise DataError(f"{where}: {exc}") from exc


def load_tutorial(game: Game, text: str, source: str = "tutorial.toml") -> Tutorial:
    """Parse and check a tutorial file; any mistake is a DataError naming the file and step."""
    script = load_toml(text, source, TutorialScript)
    try:
        return Tutorial(game, script, source)
    except LudusError as exc:
        if isinstance(exc, DataError):
            raise
        raise DataError(f"{source}: {exc}") from exc


def tutorial_json(tutorial: Tutorial) -> Mapping[str, Any]:
    """The parts of a tutorial a client shows besides the game: titles and texts per step."""
    return {
        "title": tutorial.script.title,
        "intro": tutorial.script.intro,
        "outro": tutorial.script.outro,
        "seat": tutorial.seat,
        "names": tutorial.names(),
        "options": dict(tutorial.script.options),
        "play_options": dict(tutorial.play_options),
        "steps": len(tutorial),
    }
