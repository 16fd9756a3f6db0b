"""``ludus play``: q leaves with exit status 0 (saving first when asked); Ctrl-C and the end of input
are an abandoned game (exit status 1); a bad answer prints one line and asks again, without
drawing the table again."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console

from ludus.cli import play as play_module
from ludus.cli.adapters import get_adapter
from ludus.cli.main import main
from ludus.core import records
from ludus.games import get_game


def answering(*answers: Any):
    """A stand-in for Prompt.ask: "Press Enter" prompts get "", the others the answers in turn
    (an exception class is raised instead), then "q"."""
    queue = list(answers)

    def ask(prompt: str, **kwargs: Any) -> str:
        if "Press Enter" in prompt:
            return ""
        answer = queue.pop(0) if queue else "q"
        if isinstance(answer, type):
            raise answer()
        return answer

    return staticmethod(ask)


def test_q_leaves_with_status_0_and_saves_the_unfinished_game(monkeypatch, tmp_path, capsys):
    path = tmp_path / "left.json"
    monkeypatch.setattr(play_module.Prompt, "ask", answering("1", "q"))
    assert main(["play", "gorus-maximus", "--players", "3", "--seed", "4", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert "saved" in out.lower() and str(path) in out.replace("\n", "")
    record = records.load(path)
    assert record.result is None and record.actions  # unfinished, and the move played is in it
    assert not records.replay(record, get_game).is_terminal()


def test_q_without_save_says_nothing_was_saved(monkeypatch, capsys):
    monkeypatch.setattr(play_module.Prompt, "ask", answering("q"))
    assert main(["play", "gladius", "--seed", "4"]) == 0
    assert "not saved" in capsys.readouterr().out


@pytest.mark.parametrize("interruption", [KeyboardInterrupt, EOFError])
def test_ctrl_c_and_end_of_input_abandon_the_game_with_status_1(monkeypatch, tmp_path, capsys, interruption):
    path = tmp_path / "abandoned.json"
    monkeypatch.setattr(play_module.Prompt, "ask", answering(interruption))
    assert main(["play", "gorus-maximus", "--players", "3", "--seed", "4", "--save", str(path)]) == 1
    assert "abandoned" in capsys.readouterr().out
    assert records.load(path).result is None


def test_play_help_states_the_exit_statuses(capsys):
    with pytest.raises(SystemExit):
        main(["play", "gladius", "--help"])
    out = " ".join(capsys.readouterr().out.split()).lower()
    assert "exit status 0" in out and "exit status 1" in out and "q leaves" in out


class CountingTurns:
    """Plays seat 0 like a careless person: a word, a number out of range, a refused card, then a
    legal move; records how many tables had been drawn when each prompt came."""

    def __init__(self, tg: play_module.TerminalGame, drawn: list[int]) -> None:
        self.tg = tg
        self.drawn = drawn
        self.log: list[tuple[str, int]] = []  # (answer given, tables drawn before this prompt)
        self.done_bad = False

    def __call__(self, prompt: str, **kwargs: Any) -> str:
        if "Press Enter" in prompt:
            return ""
        state = self.tg.state
        seat = state.current_seats()[0]
        choices = self.tg.adapter.choices(state.view(seat))
        illegal = [i for i, (_a, legal) in enumerate(choices, 1) if not legal]
        legal = [i for i, (_a, ok) in enumerate(choices, 1) if ok]
        if not self.done_bad and illegal:
            self.done_bad = True
            bad = ["not a move", str(len(choices) + 5), str(illegal[0])]
            self.pending = bad
        if getattr(self, "pending", None):
            answer = self.pending.pop(0)
        elif self.done_bad and len(self.log) > 8:
            raise play_module.QuitGame
        else:
            answer = str(legal[0])
        self.log.append((answer, self.drawn[0]))
        return answer


def test_a_bad_answer_asks_again_without_drawing_the_table_again(monkeypatch):
    game = get_game("gorus-maximus")
    real = get_adapter(game.name)
    drawn = [0]

    class Counting(type(real)):  # type: ignore[misc]
        def render(self, console, view, seat_names, *, you=True):
            drawn[0] += 1
            super().render(console, view, seat_names, you=you)

    opts = game.parse_options({"players": 4})
    console = Console(record=True, width=100)
    state0 = game.new_initial_state(opts, seed=3)
    bots = play_module.make_bots(game, state0, [0], None, 3)
    tg = play_module.TerminalGame(game, Counting(), opts, 3, [0], bots, console)
    player = CountingTurns(tg, drawn)
    monkeypatch.setattr(play_module.Prompt, "ask", staticmethod(player))
    with pytest.raises(play_module.QuitGame):
        tg.play()
    answers = [a for a, _n in player.log]
    first_bad = answers.index("not a move")
    counts = [n for _a, n in player.log]
    # the three bad answers and the good one after them were all asked over the same drawing
    assert counts[first_bad] == counts[first_bad + 1] == counts[first_bad + 2] == counts[first_bad + 3]
    text = console.export_text()
    assert "Type a number from 1 to" in text and "Not allowed:" in text
