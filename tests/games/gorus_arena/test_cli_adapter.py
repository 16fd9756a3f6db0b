"""The terminal adapter: flags, choices with reasons, drawing every phase, and whole games."""

from __future__ import annotations

import argparse
import io

import pytest
from rich.console import Console

from ludus.cli.adapters import get_adapter
from ludus.core.errors import IllegalAction
from ludus.core.game import CHANCE
from ludus.games.gorus_arena.actions import Draw, MarketDraw, Recruit
from ludus.games.gorus_arena.game import GAME

from .helpers import plan, table


def console() -> Console:
    return Console(file=io.StringIO(), width=140, record=True, color_system=None)


def test_registry_finds_the_adapter_and_flags_become_options():
    adapter = get_adapter("gorus-arena")
    assert adapter.game_name == "gorus-arena"
    parser = argparse.ArgumentParser()
    adapter.add_arguments(parser)
    args = parser.parse_args(["--rounds", "4", "--auction", "per-round", "--free-plan"])
    opts = adapter.options_from_args(args)
    assert opts == {"rounds": 4, "auction": "per-round", "free_plan": True}
    assert GAME.parse_options(opts).rounds == 4
    assert adapter.options_from_args(parser.parse_args([])) == {}
    more = adapter.options_from_args(parser.parse_args(["--used-cards", "leave", "--refill", "choose"]))
    assert more == {"used_cards": "leave", "refill": "choose"}


def test_unaffordable_recruits_are_offered_greyed_and_explained():
    adapter = get_adapter("gorus-arena")
    state = table({0: ["slave", "tired-fighter"], 1: ["slave", "tired-fighter"]}, coins={0: 3})
    plan(state, 0, "slave")
    plan(state, 1, "slave")
    view = state.view(0)
    choices = adapter.choices(view)
    legal = [a for a, ok in choices if ok]
    assert set(legal) == set(view.legal_actions)
    greyed = [a for a, ok in choices if not ok]
    assert Recruit("champion") in greyed
    with pytest.raises(IllegalAction, match="costs 10 coins and you have 3"):
        state.apply(Recruit("champion"), 0)
    assert choices[-1][0].label == "pass"


def test_render_shows_the_own_hand_but_only_counts_for_rivals():
    adapter = get_adapter("gorus-arena")
    state = GAME.new_initial_state({"players": 3}, seed=2)
    state.apply(state.legal_actions(1)[0], 1)
    out = console()
    adapter.render(out, state.view(0), GAME.seat_names(state.options))
    text = out.export_text()
    assert "Your hand" in text and "Plan in secret" in text and "Market" in text
    assert "(planning…)" in text
    spectator = console()
    adapter.render_spectator(spectator, state.observation(None), GAME.seat_names(state.options))
    assert "Your hand" not in spectator.export_text()


def test_every_phase_renders_in_a_whole_bot_game():
    from ludus.games.gorus_arena.heuristic import GorusArenaHeuristic

    adapter = get_adapter("gorus-arena")
    state = GAME.new_initial_state({"players": 4, "free_plan": True}, seed=8)
    bots = [GorusArenaHeuristic(s) for s in range(4)]
    names = GAME.seat_names(state.options)
    out = console()
    while not state.is_terminal():
        seat = state.current_seats()[0]
        view = state.view(seat)
        adapter.render(out, view, names)
        assert adapter.choices(view)
        action = bots[seat].act(view)
        out.print(adapter.describe_action(names[seat], action))
        state.apply(action, seat)
    adapter.render_final(out, state.observation(None), state.scores(), state.winners(), names)
    text = out.export_text()
    assert "Game over" in text and "winner" in text and "execution" in text
    for seat, action in state.history:
        if seat == CHANCE:
            assert adapter.show_chance(action)
            assert adapter.describe_action("Chance", action)
    assert adapter.describe_action("Chance", Draw(0, 20)).startswith("Seat 1 draws")
    assert "from the market" in adapter.describe_action("Chance", MarketDraw(1, 20))


def test_terminal_loop_plays_a_person_against_bots(monkeypatch):
    from ludus.cli import play as play_module

    answers = iter(["9", "x"] + ["1"] * 500)
    monkeypatch.setattr(play_module.Prompt, "ask", lambda *a, **k: next(answers))
    adapter = get_adapter("gorus-arena")
    options = GAME.parse_options({"players": 3})
    state0 = GAME.new_initial_state(options, seed=5)
    bots = play_module.make_bots(GAME, state0, [0], "heuristic,random", 5)
    out = console()
    tg = play_module.TerminalGame(GAME, adapter, options, 5, [0], bots, out)
    final = tg.play()
    assert final.is_terminal()
    assert "Type a number" in out.export_text()
    record = tg.record()
    assert record.result is not None and record.result["winners"] == final.winners()


def test_a_person_picks_a_refill_from_the_market_in_the_terminal(monkeypatch):
    """With used-cards=leave every hand empties after round 1; with refill=choose the person is
    asked which market gladiators to take, and the prompt says why."""
    from ludus.cli import play as play_module

    answers = iter(["1"] * 500)
    monkeypatch.setattr(play_module.Prompt, "ask", lambda *a, **k: next(answers))
    adapter = get_adapter("gorus-arena")
    options = GAME.parse_options({"players": 2, "used_cards": "leave", "refill": "choose", "rounds": 3})
    state0 = GAME.new_initial_state(options, seed=6)
    bots = play_module.make_bots(GAME, state0, [0], "heuristic", 6)
    out = console()
    final = play_module.TerminalGame(GAME, adapter, options, 6, [0], bots, out).play()
    assert final.is_terminal()
    text = out.export_text()
    assert "hand is empty: take a gladiator from the market, free" in text
    assert "take " in text and "from the market (free: your hand is empty)" in text
    assert any(type(a).__name__ == "Pick" for s, a in final.history if s == 0)
