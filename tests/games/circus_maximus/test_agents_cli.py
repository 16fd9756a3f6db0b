"""The Circus Maximus heuristic and the terminal adapter, driven through the real loop."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from ludus.agents.base import make_agent
from ludus.cli import play as play_module
from ludus.cli.adapters import get_adapter
from ludus.cli.main import build_parser, main
from ludus.core import records
from ludus.games import get_game
from ludus.games.circus_maximus.actions import Pass, Place
from ludus.games.circus_maximus.game import GAME
from ludus.games.circus_maximus.heuristic import CircusMaximusHeuristic

from .helpers import all_pass, at_circus_sale, deal, give_favour, new, play


def bot_game(kinds: list[str], seed: int, caesar: bool = False):
    state = GAME.new_initial_state({"players": len(kinds), "caesar": caesar}, seed=seed)
    bots = [make_agent(k, GAME, seed * 10 + i) for i, k in enumerate(kinds)]
    while not state.is_terminal():
        seat = state.current_seats()[0]
        view = state.view(seat)
        action = bots[seat].act(view)
        assert action in view.legal_actions
        state.apply(action, seat)
    return state


def test_registry_gives_the_heuristic():
    assert isinstance(make_agent("heuristic", GAME), CircusMaximusHeuristic)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_heuristic_beats_random_players(players):
    wins = 0
    for g in range(4):
        kinds = ["random"] * players
        kinds[g % players] = "heuristic"
        final = bot_game(kinds, seed=100 + g, caesar=g % 2 == 1)
        wins += (g % players) in final.winners()
    assert wins >= 3


def test_heuristic_does_not_queue_for_tickets_it_cannot_sell():
    """With two traders left it may buy one ticket; with one left it keeps it to sell that ticket."""
    st = deal(new(3))
    all_pass(st)  # phase I over
    # test set-up: seat 0 spent six traders at the villa and keeps its cheap ranks 2 and 3
    st.hands[0] = 0b110
    st.lines[0] = [(0, rank, rank) for rank in (8, 7, 6, 5, 4, 1)]
    assert st.check_cards() is None and st.current_seats() == (0,)
    bot = CircusMaximusHeuristic(1)
    action = bot.act(st.view(0))
    assert isinstance(action, Place) and action.line == "forum"
    play(st, (0, action), (1, Pass()), (2, Pass()))
    assert bot.act(st.view(0)) == Pass()


def test_heuristic_weighs_favour_coins_against_the_effect():
    """A legionnaire favour is worth playing for +4 coins; at a senator it is kept."""
    st = at_circus_sale((0, "legionnaire"))
    action = CircusMaximusHeuristic(0).act(st.view(0))
    assert action.visitor == "senator" and not action.legion  # a senator pays as much and keeps the card
    st = at_circus_sale((0, "legionnaire"), visitors=("legionnaire", "legionnaire"))
    action = CircusMaximusHeuristic(0).act(st.view(0))
    assert action.visitor == "legionnaire" and action.legion


# ------------------------------------------------------------------ terminal
@pytest.mark.parametrize("players,caesar", [(3, False), (3, True), (4, False), (4, True), (5, False), (5, True)])
def test_bots_only_games_from_the_command_line(capsys, tmp_path, players, caesar):
    path = tmp_path / "cm.json"
    argv = ["play", "circus-maximus", "--players", str(players), "--seat", "none", "--seed", "5",
            "--save", str(path)] + (["--caesar"] if caesar else [])
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Game over" in out and "Day 3" in out and "winner" in out
    record = records.load(path)
    assert record.options["caesar"] is caesar and record.options["players"] == players
    final = records.replay(record, get_game)
    assert final.is_terminal() and record.result["winners"] == final.winners()
    assert main(["replay", str(path)]) == 0


def test_flags_become_options(tmp_path):
    args = build_parser().parse_args(["play", "circus-maximus", "--caesar", "--cards", "x.toml"])
    assert get_adapter("circus-maximus").options_from_args(args) == {"caesar": True, "cards": "x.toml"}
    args = build_parser().parse_args(["play", "circus-maximus"])
    assert get_adapter("circus-maximus").options_from_args(args) == {}


class ScriptedPlayer:
    """Answers like a person: tries a greyed-out choice once, then always a legal one."""

    def __init__(self, game: play_module.TerminalGame) -> None:
        self.game = game
        self.tried_illegal = False
        self.rng = 0

    def __call__(self, prompt: str, **kwargs) -> str:
        if "Press Enter" in prompt:
            return ""
        state = self.game.state
        view = state.view(state.current_seats()[0])
        choices = self.game.adapter.choices(view)
        if not self.tried_illegal:
            for i, (_a, legal) in enumerate(choices, 1):
                if not legal:
                    self.tried_illegal = True
                    return str(i)
        legal = [i for i, (_a, ok) in enumerate(choices, 1) if ok]
        self.rng += 1
        return str(legal[self.rng % len(legal)])


@pytest.mark.parametrize("players,caesar", [(4, False), (3, True), (5, True)])
def test_a_person_plays_a_whole_game(monkeypatch, players, caesar):
    game = get_game("circus-maximus")
    adapter = get_adapter(game.name)
    opts = game.parse_options({"players": players, "caesar": caesar})
    console = Console(record=True, width=130, file=io.StringIO())
    state0 = game.new_initial_state(opts, seed=9)
    bots = play_module.make_bots(game, state0, [0], None, 9)
    tg = play_module.TerminalGame(game, adapter, opts, 9, [0], bots, console)
    monkeypatch.setattr(play_module.Prompt, "ask", staticmethod(ScriptedPlayer(tg)))
    final = tg.play()
    text = console.export_text()
    assert final.is_terminal()
    for words in ("Caesar's Villa", "Forum Romanum", "Traders in hand", "Favours", "Tickets", "Day 3 of 3",
                  "Not allowed:", "Game over", "(you)"):
        assert words in text, words
    assert records.replay(records.loads(tg.record().dumps()), get_game).to_json() == final.to_json()


def test_spectator_and_final_views_render():
    st = new(4, caesar=True)
    give_favour(st, 1, "move_ahead")
    deal(st)
    adapter = get_adapter("circus-maximus")
    console = Console(record=True, width=120, file=io.StringIO())
    names = GAME.seat_names(st.options)
    adapter.render_spectator(console, st.observation(None), names)
    adapter.render(console, st.view(0), names)
    text = console.export_text()
    assert "← Trader" in text and "starting-player card" in text and "Caesar variant" in text
    assert not adapter.show_chance(st.history[0][1])
