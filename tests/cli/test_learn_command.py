"""``ludus learn GAME``: a whole tutorial played in the terminal by piped answers, and plain refusals."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from ludus import games
from ludus.cli.learn import play_command

GM = "gorus-maximus"


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludus.cli.main", *args], input=stdin, capture_output=True,
                          text=True, timeout=120)


def answers(name: str, *, try_wrong: bool = True) -> list[str]:
    """What a learner types to follow the prompts: Enter to begin, each step's move (by its name)."""
    t = games.tutorial(name)
    lines = [""]
    for i, step in enumerate(t.steps):
        if step.expect is None:
            lines.append("")
            continue
        if step.wrong is not None and try_wrong:
            lines.append("t")
        expected = t.expected(i)
        assert expected is not None
        lines.append(expected.label)
    return lines


def test_the_gorus_maximus_lesson_can_be_followed_to_its_end():
    t = games.tutorial(GM)
    out = run_cli("learn", GM, stdin="\n".join([*answers(GM), "n"]) + "\n")
    assert out.returncode == 0, out.stdout + out.stderr
    text = " ".join(out.stdout.split())  # rich wraps long lines
    assert "Traceback" not in out.stdout + out.stderr
    assert t.script.title in text
    assert f"Step {len(t)} of {len(t)}" in text
    assert " ".join(t.script.outro.split()[:12]) in text
    assert "Not allowed: you hold a Green gladiator: follow Green" in text  # the wrong try and its reason
    for step in t.steps:
        if step.after:
            assert " ".join(step.after.split()[:8]) in text
    assert play_command(t) in text and play_command(t) == "ludus play gorus-maximus -o players=3"
    # the learner's view only: other seats' deals never show, their plays do once made
    assert "to seat 2" not in text and "to seat 3" not in text
    assert "Marcus plays Yellow 0" in text


def test_another_move_is_answered_and_the_step_waits():
    t = games.tutorial(GM)
    lines = answers(GM, try_wrong=False)
    other = next(a for a in t.state_at(0).legal_actions(t.seat) if a != t.expected(0))
    lines.insert(1, other.label)
    out = run_cli("learn", GM, stdin="\n".join([*lines, "n"]) + "\n")
    assert out.returncode == 0, out.stdout
    text = " ".join(out.stdout.split())
    assert " ".join(t.steps[0].other.split()[:8]) in text
    assert "Not allowed" not in text  # no wrong move was tried this time


def test_q_stops_the_lesson_and_so_does_the_end_of_the_input():
    out = run_cli("learn", GM, stdin="\nq\n")
    assert out.returncode == 1 and "Lesson stopped" in out.stdout
    out = run_cli("learn", GM, stdin="\n")
    assert out.returncode == 1 and "Lesson stopped" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_a_real_game_follows_the_lesson_when_asked():
    out = run_cli("learn", GM, stdin="\n".join([*answers(GM, try_wrong=False), "y", "q"]) + "\n")
    assert out.returncode == 0, out.stdout  # the real game was started, then left with q (a choice, not an error)
    assert "--seed" in out.stdout and "You left the game" in out.stdout
    assert "choose 1-10" in out.stdout  # a fresh round: a troupe of 10 at a table of three


def test_an_unknown_game_is_a_clear_error():
    out = run_cli("learn", "chess")
    assert out.returncode == 2
    assert "unknown game 'chess'" in out.stdout and GM in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_a_game_without_a_tutorial_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture):
    from ludus.cli.main import main

    plain = dataclasses.replace(games.get_plugin(GM), tutorial=None)
    monkeypatch.setattr(games, "get_plugin", lambda name: plain)
    games.tutorial.cache_clear()
    try:
        assert main(["learn", GM]) == 2
    finally:
        games.tutorial.cache_clear()
    out = capsys.readouterr().out
    assert "has no tutorial" in out and "Traceback" not in out


def test_learn_is_listed_in_the_help():
    out = run_cli("--help")
    assert "learn" in out.stdout
