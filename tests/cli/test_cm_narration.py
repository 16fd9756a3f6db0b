"""Circus Maximus in the terminal tells the whole story (issue 16): a watched bot game and its
replay name every pick and every sale with what it was worth, the starting-player card's fate
each day, each day's deal and scoring; a replay's step view names the seat, and card values the
rulebook does not print are marked with a footnote."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from ludus.cli.adapters import get_adapter
from ludus.cli.main import main
from ludus.core import records
from ludus.core.game import CHANCE
from ludus.games import get_game
from ludus.games.circus_maximus.actions import Sell, TakeFavour, TakeStart, TakeTicket
from ludus.games.circus_maximus.game import GAME


def _plain(text: str) -> str:
    """The transcript with rich's line wrapping undone (each log line starts with two spaces)."""
    return re.sub(r"\n(?! )", " ", text)


def _expected(final) -> dict[str, int]:
    moves = [a for s, a in final.history if s != CHANCE]
    sales = sum(len(seat) for day in final.past_sales for seat in day)
    return {
        "favour": sum(isinstance(a, TakeFavour) for a in moves),
        "start": sum(isinstance(a, TakeStart) for a in moves),
        "ticket": sum(isinstance(a, TakeTicket) for a in moves),
        "sell": sum(isinstance(a, Sell) for a in moves),
        "sales": sales,
    }


def _told(text: str) -> dict[str, int]:
    return {
        "favour": len(re.findall(r"^ +\w+ takes the .+ favour card \(worth \d+ coins? at the end", text, re.M)),
        "start": len(re.findall(r"^ +\w+ takes the starting-player card instead of a favour", text, re.M)),
        "ticket": len(re.findall(r"^ +\w+ takes a .+ ticket \(\d+ coins? if sold\)", text, re.M)),
        "sell": len(re.findall(r"^ +\w+ sells .+ = \d+ coins?$", text, re.M)),
    }


@pytest.mark.parametrize("players,caesar,seed", [(3, False, 5), (4, True, 7), (5, False, 11)])
def test_a_watched_game_and_its_replay_name_every_pick_and_sale(capsys, tmp_path, players, caesar, seed):
    path = tmp_path / "cm.json"
    argv = ["play", "circus-maximus", "--players", str(players), "--seat", "none", "--seed", str(seed),
            "--save", str(path)] + (["--caesar"] if caesar else [])
    assert main(argv) == 0
    watched = _plain(capsys.readouterr().out)
    final = records.replay(records.load(path), get_game)
    want = _expected(final)
    assert want["sell"] == want["sales"] and want["sell"] > 0
    for text in (watched, None):
        if text is None:
            assert main(["replay", str(path)]) == 0
            text = _plain(capsys.readouterr().out)
        told = _told(text)
        assert told == {k: want[k] for k in told}, (told, want)
        # each sale's coins add up, and every day is dealt and scored
        for seat_part, visitor_part, total in re.findall(r"sells .+?: (\d+) for the seat \+ (-?\d+) from the \w+"
                                                         r"(?: \+ \d+ special-event bonus)? = (\d+) coin", text):
            assert int(seat_part) + int(visitor_part) <= int(total)
        for day in (1, 2, 3):
            assert f"Day {day} is scored" in text
        assert text.count("Day 1 is dealt") == 1 and "Day 2 is dealt" in text and "Day 3 is dealt" in text
        # the starting-player card each day: chosen, or given to the front trader, or nobody queued
        fates = (len(re.findall(r"takes the starting-player card instead", text))
                 + len(re.findall(r"Nobody chose the starting-player card", text))
                 + len(re.findall(r"Nobody queued at Caesar's Villa", text)))
        assert fates == 3
        assert "Favour cards still in hand add their coins" in text and "Final coins:" in text
        assert text.count("is worked off from the front") >= 9  # villa, forum and the first venue, each day


def test_the_day_summary_matches_the_engines_scores(capsys, tmp_path):
    path = tmp_path / "cm.json"
    assert main(["play", "circus-maximus", "--players", "4", "--seat", "none", "--seed", "3", "--save", str(path)]) == 0
    text = _plain(capsys.readouterr().out)
    final = records.replay(records.load(path), get_game)
    names = GAME.seat_names(final.options)
    for day, scores in enumerate(final.day_scores, start=1):
        block = text.split(f"Day {day} is scored")[1]
        for seat, name in enumerate(names):
            so_far = sum(d[seat] for d in final.day_scores[:day])
            assert re.search(rf"{name}: \d+ sold for \d+, traders kept \d+: {scores[seat]} coins? today, "
                             rf"{so_far} so far", block), (day, name)


def test_replay_step_view_names_the_seat_and_marks_unprinted_values():
    adapter = get_adapter("circus-maximus")
    state = GAME.new_initial_state({"players": 4}, seed=2)
    names = GAME.seat_names(state.options)
    console = Console(record=True, width=140, file=io.StringIO())
    adapter.render(console, state.view(1), names, you=False)
    text = console.export_text()
    assert "(you)" not in text and "Red (this view)" in text
    console = Console(record=True, width=140, file=io.StringIO())
    adapter.render(console, state.view(1), names)
    text = console.export_text()
    assert "Red (you)" in text
    # the favour cards' coins are ours: marked, with the footnote saying what the mark means
    assert re.search(r"\(\d°\)", text)
    assert "° not printed; chosen by Ludus" in text


def test_a_players_own_card_file_is_not_marked(tmp_path):
    from ludus.games.circus_maximus.cards import DEFAULT_PATH

    path = tmp_path / "mine.toml"
    path.write_text(DEFAULT_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    adapter = get_adapter("circus-maximus")
    state = GAME.new_initial_state({"players": 4, "cards": str(path)}, seed=2)
    console = Console(record=True, width=140, file=io.StringIO())
    adapter.render(console, state.view(0), GAME.seat_names(state.options))
    text = console.export_text()
    assert "°" not in text and "not printed" not in text
