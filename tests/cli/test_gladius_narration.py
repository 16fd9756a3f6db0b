"""Gladius in the terminal tells the whole story: watching bots and ``ludus replay`` print every
exchange with its outcome (blocked, evaded, damage, immobilized), the hit points after it and
the fighter who falls; moves are worded for the seat that makes them ("You draw", "Ann draws");
a replay's table names the seat whose view it shows."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from ludus.cli.main import main
from ludus.core import records
from ludus.core.game import CHANCE
from ludus.games import get_game
from ludus.games.gladius.actions import AdversaryDefend, Defend, DrawCard, FirstPlayer, SkipTurn
from ludus.games.gladius.terminal import ADAPTER
from tests.games.gladius.helpers import TRIDENT, position

OUTCOME = re.compile(r"^\s*(?:\d+\.\s+)?→ ", re.MULTILINE)


def exchanges(history) -> int:
    """Exchanges the engine settled: each answer (or no answer) to an attack."""
    return sum(1 for seat, a in history
               if (isinstance(a, Defend) and seat != CHANCE) or isinstance(a, AdversaryDefend))


@pytest.mark.parametrize("args", [
    ["--seed", "3"],
    ["--me", "murmillo", "--opponent", "lion", "--solo", "--seed", "4"],
    ["--me", "thracian", "--opponent", "murmillo", "--seed", "11"],
])
def test_watched_game_and_replay_print_one_outcome_per_exchange(monkeypatch, capsys, tmp_path, args):
    monkeypatch.setenv("COLUMNS", "400")  # one log line per printed line
    path = tmp_path / "game.json"
    assert main(["play", "gladius", "--seat", "none", *args, "--save", str(path)]) == 0
    watched = capsys.readouterr().out
    final = records.replay(records.load(path), get_game)
    n = exchanges(final.history)
    assert n > 3
    assert len(OUTCOME.findall(watched)) == n
    outcomes = [line for line in watched.splitlines() if line.lstrip().startswith("→")]
    assert all("Hit points:" in line for line in outcomes)
    words = ("blocked by", "evaded with", "damage to", "immobilized")
    assert all(any(w in line for w in words) for line in outcomes)
    # hit points in the last outcome line are the final ones
    hp = final.hp
    assert re.search(rf"{hp[0]}/\d+, .* {hp[1]}/\d+\.", outcomes[-1])
    if final.observation(None).end == "knockout":
        assert "falls:" in outcomes[-1] and "wins" in outcomes[-1]
    assert main(["replay", str(path)]) == 0
    replayed = capsys.readouterr().out
    assert len(OUTCOME.findall(replayed)) == n


def test_moves_are_worded_for_the_seat():
    ADAPTER._names = ["You", "Marcus"]
    assert ADAPTER.describe_action("Chance", DrawCard(0, TRIDENT)).startswith("You draw ")
    assert ADAPTER.describe_action("Chance", DrawCard(1, TRIDENT)).startswith("Marcus draws ")
    assert ADAPTER.describe_action("Chance", SkipTurn(0)) == "You are immobilized and lose the turn"
    assert ADAPTER.describe_action("Chance", FirstPlayer(0)) == "You move first"
    ADAPTER._names = ["Ann", "Bob"]
    assert ADAPTER.describe_action("Chance", DrawCard(0, TRIDENT)).startswith("Ann draws ")
    assert ADAPTER.describe_action("Chance", SkipTurn(1)) == "Bob is immobilized and loses the turn"


def test_replay_view_labels_the_seat_by_name():
    state = position(hands=([TRIDENT], ["secutor/Sword Stab"]), known=([], [TRIDENT]))
    console = Console(record=True, width=140)
    ADAPTER.render(console, state.view(0), ["Ann", "Bob"], you=False)
    text = console.export_text()
    assert "Hand of Ann" in text and "Your hand" not in text and "(you)" not in text
    assert "You know" not in text and "Attack phase" not in text
    console = Console(record=True, width=140)
    ADAPTER.render(console, state.view(0), ["Ann", "Bob"])
    mine = console.export_text()
    assert "Your hand" in mine and "(you)" in mine
