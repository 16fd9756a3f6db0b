"""Values of a game's data that the rulebook does not print (``Game.data_values``) shown by
``ludus games`` and ``ludus rules``: subject, value, where it comes from, and why."""

from __future__ import annotations

import argparse

import pytest
from rich.console import Console

from ludus.cli.main import build_parser, cmd_games, main
from ludus.cli.values import ALL_PRINTED, TITLE
from ludus.core.provenance import EXAMPLE, OURS, PRINTED, DataValue
from ludus.games import game_names, get_game

FAKE = [
    DataValue("Crowd Favour of rank 13", "2", EXAMPLE, "the round-end example adds up only with 2"),
    DataValue("Trader 4: coins at the Forum", "3", OURS, "rising with rank, as the printed ones do"),
    DataValue("Crowd Favour of rank 2", "1", PRINTED, ""),  # printed: not listed
]


def run(command: list[str]) -> str:
    console = Console(record=True, width=300)
    args: argparse.Namespace = build_parser().parse_args(command)
    assert cmd_games(args, console) == 0
    return console.export_text()


@pytest.fixture
def fake_values(monkeypatch):
    game = get_game("gladius")
    seen: list[object] = []

    def data_values(options=None):
        seen.append(options)
        return list(FAKE)

    monkeypatch.setattr(game, "data_values", data_values)
    return seen


def test_games_lists_the_unprinted_values_after_the_options(fake_values):
    text = run(["games", "gladius"])
    assert TITLE in text and text.index(TITLE) > text.index("option")
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:5]]
            for line in text.splitlines() if line.count("│") >= 5}
    assert rows["Crowd Favour of rank 13"] == ["2", "from a worked example",
                                              "the round-end example adds up only with 2"]
    assert rows["Trader 4: coins at the Forum"] == ["3", "ours (Ludus)", "rising with rank, as the printed ones do"]
    assert "Crowd Favour of rank 2" not in text  # printed values are not "not printed"
    assert "chosen by Ludus" in text and "follows from a worked example" in text  # the marks explained
    assert fake_values and fake_values[0] is not None  # asked for the default options, parsed


def test_games_says_in_one_line_when_every_value_is_printed(monkeypatch):
    monkeypatch.setattr(get_game("gladius"), "data_values", lambda options=None: [])
    text = run(["games", "gladius"])
    assert ALL_PRINTED in text and TITLE not in text


def rules_text(capsys, name: str = "gladius") -> str:
    assert main(["rules", name, "--plain"]) == 0  # --plain: the Markdown as it is, straight to stdout
    return capsys.readouterr().out


def test_rules_ends_with_the_same_list(fake_values, capsys):
    text = rules_text(capsys)
    tail = text[text.index(f"## {TITLE}"):]
    assert text.rstrip().endswith(tail.rstrip())
    assert "| Crowd Favour of rank 13 | 2 | from a worked example | the round-end example adds up only with 2 |" in tail
    assert "| Trader 4: coins at the Forum | 3 | ours (Ludus) |" in tail
    assert "rank 2 |" not in tail


def test_rules_markdown_cells_cannot_break_the_table(monkeypatch, capsys):
    monkeypatch.setattr(get_game("gladius"), "data_values",
                        lambda options=None: [DataValue("a | b", "1|2", OURS, "line\nbreak")])
    text = rules_text(capsys)
    assert "| a \\| b | 1\\|2 | ours (Ludus) | line break |" in text


@pytest.mark.parametrize("name", game_names())
def test_each_real_game_shows_its_own_list(name, capsys):
    game = get_game(name)
    values = [v for v in game.data_values(game.parse_options({})) if v.provisional]
    text = run(["games", name])
    if values:
        assert TITLE in text
        for v in values:
            assert v.subject.split()[0] in text
    else:
        assert ALL_PRINTED in text
    assert f"## {TITLE}" in rules_text(capsys, name)


def test_the_list_of_every_game_counts_the_values_and_names_the_command(fake_values):
    text = run(["games"])
    assert "2 values not printed in the rulebook" in text and "ludus games gladius lists them" in text
    assert "Trader 4: coins at the Forum" not in text  # the table itself only for one game
