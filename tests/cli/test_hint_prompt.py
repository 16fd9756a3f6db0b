"""'h' at the terminal prompt: the bot's suggestion from the player's own view, in the move list's numbers."""

from __future__ import annotations

import contextlib
import re

from rich.console import Console

from ludus.cli import play as play_module
from ludus.cli.adapters import get_adapter
from ludus.games import get_game


def test_h_prints_a_hint_and_plays_nothing(monkeypatch):
    game = get_game("gorus-arena")
    adapter = get_adapter(game.name)
    opts = game.parse_options({})
    console = Console(record=True, width=120)
    state0 = game.new_initial_state(opts, seed=4)
    bots = play_module.make_bots(game, state0, [0], None, 4)
    tg = play_module.TerminalGame(game, adapter, opts, 4, [0], bots, console, hint_seconds=0.2)
    asked: list[int] = []

    def player(prompt: str, **kwargs) -> str:
        if "Press Enter" in prompt:
            return ""
        if "h for a hint" not in prompt:
            raise AssertionError(f"unexpected prompt {prompt!r}")
        seat = tg.state.current_seats()[0]
        if not asked:
            asked.append(len(tg.state.history))
            return "h"
        if len(asked) == 1:  # the hint played nothing: the same position is still waiting
            assert len(tg.state.history) == asked[0]
            asked.append(-1)
            raise play_module.QuitGame
        return "1" if tg.state.legal_actions(seat) else "q"

    monkeypatch.setattr(play_module.Prompt, "ask", staticmethod(player))
    with contextlib.suppress(play_module.QuitGame):
        tg.play()
    text = console.export_text()
    assert len(asked) == 2
    found = re.search(r"Hint: (?:the bot would play|your only move is) (\d+)\. (.+?)(?: —|\.$)", text, re.M)
    assert found, text[-2000:]
    number, label = int(found.group(1)), found.group(2).strip()
    # the number is the move list's number for that move
    assert re.search(rf"^\s*{number}\. {re.escape(label)}", text, re.M)
