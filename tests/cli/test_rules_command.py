"""``ludus rules GAME`` in the terminal: the same text the product shows, or a plain refusal."""

from __future__ import annotations

import subprocess
import sys

from ludus.games import how_to_play


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludus.cli.main", *args], capture_output=True, text=True, timeout=120)


def test_rules_prints_the_games_text_when_piped():
    out = run_cli("rules", "gladius")
    assert out.returncode == 0, out.stderr
    text = how_to_play("gladius").rstrip("\n")
    assert out.stdout.startswith(text + "\n\n## Values not printed in the rulebook\n")  # the game's text, then the list
    assert run_cli("rules", "gorus-arena", "--plain").stdout.startswith("# Gorus Arena: how to play")


def test_rules_of_an_unknown_game_is_a_clear_error():
    out = run_cli("rules", "chess")
    assert out.returncode == 2
    assert "unknown game 'chess'" in out.stdout and "gorus-maximus" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_rules_is_listed_in_the_help():
    out = run_cli("--help")
    assert "rules" in out.stdout and "how to play" in out.stdout
