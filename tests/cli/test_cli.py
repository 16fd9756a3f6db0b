"""The terminal client, driven as a user would: real arguments, typed answers."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from rich.console import Console

from ludus.cli import play as play_module
from ludus.cli.main import main
from ludus.core import records
from ludus.games import get_game


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ludus.cli.main", *args], input=stdin, capture_output=True,
                          text=True, timeout=120)


def test_games_lists_every_game_and_its_options():
    out = run_cli("games")
    assert out.returncode == 0
    assert "Gorus Maximus" in out.stdout and "team-target" in out.stdout


def test_bots_only_game_saves_a_record_that_replays(tmp_path):
    path = tmp_path / "game.json"
    out = run_cli("play", "gorus-maximus", "--players", "4", "--seat", "none", "--seed", "7", "--save", str(path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Game over" in out.stdout and "Champion" in out.stdout
    record = records.load(path)
    final = records.replay(record, get_game)
    assert final.is_terminal() and record.result["winners"] == final.winners()
    replay = run_cli("replay", str(path))
    assert replay.returncode == 0 and "Game over" in replay.stdout


def test_bad_options_give_a_clear_error_and_exit_code():
    out = run_cli("play", "gorus-maximus", "--players", "9")
    assert out.returncode == 2 and "1 to 8 players" in out.stdout
    out = run_cli("play", "gorus-maximus", "--teams", "AABB")
    assert out.returncode == 2 and "alternating" in out.stdout
    out = run_cli("replay", "/nonexistent.json")
    assert out.returncode == 2 and "cannot read record" in out.stdout


class ScriptedPlayer:
    """Answers prompts like a person: first an illegal card when there is one, then a legal one."""

    def __init__(self, game: play_module.TerminalGame) -> None:
        self.game = game
        self.refusals = 0
        self.tried_illegal = False
        self.previous_requests = 0

    def __call__(self, prompt: str, **kwargs) -> str:
        state = self.game.state
        if "Press Enter" in prompt:
            return ""
        seat = state.current_seats()[0]
        view = state.view(seat)
        choices = self.game.adapter.choices(view)
        if self.previous_requests == 0 and view.observation.previous_bout:
            self.previous_requests += 1
            return "b"
        if not self.tried_illegal:
            for i, (_action, legal) in enumerate(choices, 1):
                if not legal:
                    self.tried_illegal = True
                    return str(i)
        for i, (_action, legal) in enumerate(choices, 1):
            if legal:
                return str(i)
        raise AssertionError("no legal choice offered")


@pytest.mark.parametrize("options", [{"players": 4}, {"players": 1}, {"players": 4, "teams": "2v2"},
                                     {"players": 2}])
def test_a_person_plays_a_whole_game(monkeypatch, options):
    game = get_game("gorus-maximus")
    from ludus.cli.adapters import get_adapter

    adapter = get_adapter(game.name)
    opts = game.parse_options(options)
    console = Console(record=True, width=100)
    state0 = game.new_initial_state(opts, seed=3)
    bots = play_module.make_bots(game, state0, [0], None, 3)
    tg = play_module.TerminalGame(game, adapter, opts, 3, [0], bots, console)
    player = ScriptedPlayer(tg)
    monkeypatch.setattr(play_module.Prompt, "ask", staticmethod(player))
    final = tg.play()
    text = console.export_text()
    assert final.is_terminal()
    assert "Your troupe" in text and "Game over" in text
    assert "Not allowed:" in text and "follow" in text
    assert "Previous bout:" in text
    assert "End of round 1" in text
    # the human's view never printed another seat's hand
    rec = tg.record()
    assert records.replay(records.loads(rec.dumps()), get_game).to_json() == final.to_json()


def test_main_returns_error_code_for_unknown_agent(capsys):
    assert main(["play", "gorus-maximus", "--seat", "none", "--bots", "genius", "--seed", "1"]) == 2
    assert "unknown agent" in capsys.readouterr().out


def test_record_file_is_json_with_one_action_per_line(tmp_path):
    path = tmp_path / "g.json"
    assert main(["play", "gorus-maximus", "--seat", "none", "--seed", "2", "--save", str(path)]) == 0
    data = json.loads(path.read_text())
    assert data["format"] == "ludus-record" and data["seed"] == 2
    assert path.read_text().count("\n") > len(data["actions"])


@pytest.mark.parametrize("seed", [str(2**64), str(-(2**63) - 1), "9" * 5000])
def test_play_refuses_a_seed_no_record_can_hold(seed, capsys):
    with pytest.raises(SystemExit) as info:
        main(["play", "gorus-maximus", "--seat", "none", "--seed", seed])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "a seed must be from" in err or "not a whole number" in err


def test_play_with_a_negative_seed_saves_a_record_that_replays(tmp_path, capsys):
    path = tmp_path / "g.json"
    assert main(["play", "gorus-maximus", "--seat", "none", "--seed", "-5", "--save", str(path)]) == 0
    assert main(["replay", str(path)]) == 0
    assert "Game over" in capsys.readouterr().out


# ------------------------------------------------------------------ the README's commands
def readme_commands() -> list[list[str]]:
    """Every ``.venv/bin/ludus ...`` line of README.md's shell blocks, as arguments after ``ludus``."""
    import re
    import shlex
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words and words[0].endswith("ludus"):
                out.append(words[1:])
    return out


def test_readme_commands_are_run_from_the_venv():
    """The README's install command puts ``ludus`` in .venv/bin, not on the PATH: every command says so."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    import re

    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            first = line.split("#")[0].split()
            if first and first[0].endswith("ludus"):
                assert first[0] == ".venv/bin/ludus", line
    assert len(readme_commands()) >= 10


def test_every_readme_command_parses():
    from ludus.cli.main import build_parser

    for argv in readme_commands():
        build_parser().parse_args(argv)  # argparse exits (a test failure) on a flag that does not exist


def test_the_quick_readme_commands_run(monkeypatch, tmp_path, capsys):
    """Run for real what is quick: games, rules, each play command (q at the first prompt, except the
    one that saves game.json, played to the end), the replay of that file and its analysis."""
    import itertools

    monkeypatch.chdir(tmp_path)
    numbers = itertools.cycle([str(i) for i in range(1, 13)])
    for argv in readme_commands():
        command = argv[0]
        if command in ("tournament", "analyze", "learn"):
            continue  # long runs, or an interactive lesson: parsed above
        if command == "play":
            playing = "--save" in argv

            def ask(prompt: str, playing: bool = playing, **kw: object) -> str:
                return "" if "Press Enter" in prompt else (next(numbers) if playing else "q")

            monkeypatch.setattr(play_module.Prompt, "ask", staticmethod(ask))
        if command == "replay":
            monkeypatch.setattr(Console, "input", lambda self, prompt="", **kw: "q")
        if command == "analyze-game":
            argv = [*argv, "--samples", "2"]  # the README's command, with fewer deals per decision
        assert main(argv) == 0, (argv, capsys.readouterr().out[-2000:])
    assert records.load(tmp_path / "game.json").result is not None
