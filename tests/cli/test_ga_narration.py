"""Gorus Arena in the terminal tells the whole story of a bot game (reveals, auctions, attacks
and their outcome) from public observations only, and never names a planned card before the
reveal."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from ludus.cli import play as play_module
from ludus.cli.adapters import get_adapter
from ludus.cli.main import main
from ludus.core.game import CHANCE
from ludus.games.gorus_arena.cards import KINDS
from ludus.games.gorus_arena.game import GAME
from ludus.games.gorus_arena.heuristic import GorusArenaHeuristic

SEED = 11
NAMES = tuple(k.name for k in KINDS)


def console() -> Console:
    return Console(file=io.StringIO(), width=200, record=True, color_system=None)


@pytest.fixture(scope="module")
def watched() -> list[str]:
    """The log of a seeded game of bots watched with ``--seat none``, line by line."""
    options = GAME.parse_options({"players": 3})
    state0 = GAME.new_initial_state(options, seed=SEED)
    bots = play_module.make_bots(GAME, state0, [], "heuristic", SEED)
    out = console()
    tg = play_module.TerminalGame(GAME, get_adapter("gorus-arena"), options, SEED, [], bots, out)
    assert tg.play().is_terminal()
    return [line.strip() for line in out.export_text().splitlines() if line.strip()]


def rounds(lines: list[str]) -> list[list[str]]:
    """The log split at each round's planning (the first round starts at the top)."""
    out: list[list[str]] = [[]]
    for line in lines:
        if line.startswith("— Round"):
            out.append([])
        out[-1].append(line)
    return out


def test_no_planned_card_is_named_before_the_reveal(watched):
    """The bug: the placement that set off the reveal was logged after it, in the clear
    ("Seat 3: plan Tired Fighter") while every other placement read "chose in secret"."""
    assert not any(": plan " in line for line in watched)
    for lines in rounds(watched):
        before_reveal = []
        for line in lines:
            if " reveals: " in line:
                break
            before_reveal.append(line)
        for line in before_reveal:
            if line.startswith("— Round") or line.startswith("Gorus Arena"):
                continue
            assert re.search(r"(chose in secret|lays a card face down)$", line), line
            assert not any(name in line for name in NAMES), line


def test_a_watched_game_tells_reveals_auctions_and_attacks(watched):
    text = "\n".join(watched)
    assert text.count(" reveals: ") >= 6 * 3 - 3  # every seat with cards, every round
    assert re.search(r"Auction \d: Seat \d wins with [A-Z][\w' ]+ \(strength \d\) and acts first", text)
    assert re.search(r"Auction \d: tie at strength \d \(Seat \d's .+\): nobody wins", text)
    assert re.search(r"attacks Seat \d's .+ \(defence \d\): (killed|the attack fails)", text)
    assert "— Round 6 of 6" in text and "Game over" in text
    assert not re.search(r" recruits .+ for \d+ coins$", text, re.M)  # a move is not told twice


def test_narration_is_the_same_for_every_reader():
    """Built from the public log only: each seat and a spectator read the same lines."""
    adapter = get_adapter("gorus-arena")
    state = GAME.new_initial_state({"players": 3}, seed=4)
    bots = [GorusArenaHeuristic(s) for s in range(3)]
    names = GAME.seat_names(state.options)
    told = 0
    while not state.is_terminal():
        seat = state.current_seats()[0]
        before = {v: state.observation(v) for v in (None, 0, 1, 2)}
        action = bots[seat].act(state.view(seat))
        state.apply(action, seat)
        lines = {v: tuple(adapter.narrate(before[v], state.observation(v), [(seat, action)], names))
                 for v in before}
        assert len(set(lines.values())) == 1
        told += len(lines[None])
    assert told > 50


def test_replay_tells_the_story_too(tmp_path, capsys):
    path = tmp_path / "ga.json"
    assert main(["play", "gorus-arena", "--seat", "none", "--seed", str(SEED), "--save", str(path)]) == 0
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert " reveals: " in text and "Auction" in text and "attacks" in text
    assert ": plan " not in text  # placements read "lays a card face down" here too
    assert main(["replay", str(path), "--seat", "2"]) == 0
    assert " reveals: " in capsys.readouterr().out


def test_a_replayed_view_is_labelled_by_the_seats_name():
    adapter = get_adapter("gorus-arena")
    state = GAME.new_initial_state({"players": 3}, seed=2)
    names = ["Livia", "Marcus", "Titus"]
    out = console()
    adapter.render(out, state.view(1), names, you=False)
    text = out.export_text()
    assert "Marcus's hand" in text and "Marcus's plan" in text and "Marcus plans in secret" in text
    assert "Your" not in text and "You " not in text
    mine = console()
    adapter.render(mine, state.view(1), names)
    assert "Your hand" in mine.export_text()


def test_draws_are_told_by_seat_not_as_you():
    """A replay that shows every draw must not call each of them "You draw"."""
    adapter = get_adapter("gorus-arena")
    state = GAME.new_initial_state({"players": 2}, seed=None)
    while state.current_seats() != (CHANCE,):
        seat = state.current_seats()[0]
        state.apply(state.legal_actions(seat)[0], seat)
    draw = state.chance_outcomes()[0][0]
    assert adapter.describe_action("Chance", draw).startswith(f"Seat {draw.seat + 1} draws ")
