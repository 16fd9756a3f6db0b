"""``ludus replay --step``: each step shows the move, then what it set off, then the table after it,
labelled by seat name; the prompt's keys do what it says."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from rich.console import Console

from ludus.cli import adapters as adapters_module
from ludus.cli.main import build_parser, cmd_replay, main
from ludus.core import records
from ludus.core.game import CHANCE, Action, SeatView
from ludus.core.terminal import TerminalAdapter
from ludus.games import get_game


@pytest.fixture(scope="module")
def record_path(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("replay") / "gladius.json"
    assert main(["play", "gladius", "--seat", "none", "--seed", "5", "--save", str(path)]) == 0
    return str(path)


class StubAdapter(TerminalAdapter):
    """Records each board drawn (its view and ``you``) and marks the order of log lines."""

    def __init__(self) -> None:
        self.drawn: list[tuple[SeatView, bool]] = []
        self.narrated: list[tuple[Any, Any, list[tuple[int, Any]]]] = []

    def describe_action(self, seat_name: str, action: Action) -> str:
        return f"MOVE {seat_name}: {action.label}"

    def render(self, console: Console, view: SeatView, seat_names: list[str], *, you: bool = True) -> None:
        self.drawn.append((view, you))
        console.print(f"BOARD {len(self.drawn)}")

    def narrate(self, before: Any, after: Any, entries: Sequence[tuple[int, Action | str]],
                seat_names: list[str]) -> list[str]:
        self.narrated.append((before, after, list(entries)))
        return [f"NARR {len(self.narrated)}"]

    def render_final(self, console, observation, scores, winners, seat_names) -> None:
        console.print("FINAL")


class Keys:
    """Answers the step prompt from a script; records each prompt shown."""

    def __init__(self, answers: list[str | type[BaseException]]) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str = "", **kwargs: Any) -> str:
        self.prompts.append(prompt)
        answer = self.answers.pop(0) if self.answers else ""
        if isinstance(answer, type):
            raise answer()
        return answer


def run_replay(monkeypatch, path: str, *extra: str, keys: Keys | None = None) -> tuple[int, str, StubAdapter, Keys]:
    stub = StubAdapter()
    monkeypatch.setattr(adapters_module, "get_adapter", lambda name: stub)
    console = Console(record=True, width=120)
    keys = keys or Keys([])
    monkeypatch.setattr(console, "input", keys)
    args = build_parser().parse_args(["replay", path, *extra])
    code = cmd_replay(args, console)
    return code, console.export_text(), stub, keys


def expected_after_views(path: str, seat: int | None) -> list[tuple[int, Any]]:
    """For each non-chance step: (mover, the view that --step should draw), taken after the move."""
    record = records.load(path)
    out = []
    for state, actor, action in records.iter_replay(record, get_game):
        after = state.clone()
        after.apply(action, actor)
        if actor != CHANCE:
            shown = seat if seat is not None else actor
            out.append((actor, after.view(shown).observation.to_json()))
    return out


def test_each_step_draws_the_table_after_its_move_with_seats_named(monkeypatch, record_path):
    code, _text, stub, _keys = run_replay(monkeypatch, record_path, "--step")
    assert code == 0
    expected = expected_after_views(record_path, None)
    assert len(stub.drawn) == len(expected)
    for (view, you), (actor, after) in zip(stub.drawn, expected, strict=True):
        assert view.seat == actor  # without --seat: each mover's own view, in turn
        assert view.observation.to_json() == after  # the position after the printed move
        assert you is False  # a replay's reader is nobody at the table: seats by name


def test_with_seat_only_that_seat_is_drawn(monkeypatch, record_path):
    code, _text, stub, _keys = run_replay(monkeypatch, record_path, "--step", "--seat", "2")
    assert code == 0
    expected = expected_after_views(record_path, 1)
    assert [view.seat for view, _you in stub.drawn] == [1] * len(expected)
    assert [view.observation.to_json() for view, _you in stub.drawn] == [after for _a, after in expected]
    assert all(you is False for _view, you in stub.drawn)


def test_a_steps_narration_comes_before_its_board(monkeypatch, record_path):
    _code, text, _stub, _keys = run_replay(monkeypatch, record_path, "--step")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("─")]
    boards = [i for i, line in enumerate(lines) if line.startswith("BOARD ")]
    assert boards
    for i in boards:
        # the lines just above a board: the move, then its narration (NARR), nothing of the next move
        above = lines[i - 1]
        assert above.startswith("NARR "), lines[max(0, i - 3):i + 1]
        assert any(line.split(". ", 1)[-1].startswith("MOVE ") for line in lines[i - 3:i])


def test_q_stops_with_exit_status_0_and_says_where(monkeypatch, record_path):
    code, text, stub, keys = run_replay(monkeypatch, record_path, "--step", keys=Keys(["", "", "q"]))
    assert code == 0
    assert len(stub.drawn) == 3 and len(keys.prompts) == 3
    assert "FINAL" not in text and "Stopped" in text


def test_enter_goes_on_and_an_unknown_key_asks_again_without_moving(monkeypatch, record_path):
    code, _text, stub, keys = run_replay(monkeypatch, record_path, "--step", keys=Keys(["x", "", "Q"]))
    assert code == 0
    assert len(stub.drawn) == 2  # "x" asked again on the first board; Enter went on; Q stopped
    assert len(keys.prompts) == 3


def test_the_prompt_names_only_keys_that_work(monkeypatch, record_path):
    _code, _text, _stub, keys = run_replay(monkeypatch, record_path, "--step", keys=Keys(["q"]))
    prompt = keys.prompts[0].lower()
    assert "enter" in prompt and "q" in prompt


def test_end_of_input_stops_quietly(monkeypatch, record_path):
    code, text, _stub, _keys = run_replay(monkeypatch, record_path, "--step", keys=Keys([EOFError]))
    assert code == 0 and "Traceback" not in text


def test_help_says_whose_view_is_shown(capsys):
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "each mover's view in turn" in out
