"""Gorus Maximus in the terminal tells the whole story: every bout's winner, every Challenge,
the preferred school, every round's summary, with the seats' names, from observations only."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from ludus.cli import play as play_module
from ludus.cli.adapters import get_adapter
from ludus.cli.main import main
from ludus.core.game import CHANCE
from ludus.games import get_game
from ludus.games.gorus_maximus.actions import Reveal
from ludus.games.gorus_maximus.cards import CONTENDER, card_label

GAME = get_game("gorus-maximus")
ADAPTER = get_adapter("gorus-maximus")
CARD = re.compile(r"\b(Blue|Brown|Green|Pink|Yellow) (\d+)\b")


def engine_story(options: dict, history) -> tuple[list[int], int, int]:
    """Replaying a game's history: each bout's winner (an actor), the number of cards that
    matched the rank of the card before them (Challenges), and the number of rounds that ended."""
    state = GAME.new_initial_state(options, seed=None)
    winners: list[int] = []
    challenges = rounds = 0
    for seat, action in history:
        before_round = state.last_round
        before_prev = state.previous_bout
        counts = list(state.collected_count)
        bout = list(state.bout)
        holder = None
        if seat != CHANCE or type(action).__name__ == "Reveal":
            if bout and bout[-1][1] & 15 == action.card & 15:
                challenges += 1
            probe = state.clone()  # the engine's own holder of the bout once this card is in it
            probe._add_card(CONTENDER if seat == CHANCE else seat, action.card)
            holder = probe.top_actor
        state.apply(action, seat)
        if state.last_round is not before_round:  # the round's last bout ended the round
            rounds += 1
            grown = [s for s, c in enumerate(state.last_round.collected_counts) if c > counts[s]]
            assert len(grown) == 1 and holder is not None
            winners.append(holder)
        elif state.previous_bout and state.previous_bout != before_prev:
            winners.append(state.previous_winner)
    return winners, challenges, rounds


def watch(options: dict, seed: int) -> tuple[str, play_module.TerminalGame]:
    opts = GAME.parse_options(options)
    console = Console(record=True, width=400)
    state0 = GAME.new_initial_state(opts, seed=seed)
    bots = play_module.make_bots(GAME, state0, [], None, seed)
    tg = play_module.TerminalGame(GAME, ADAPTER, opts, seed, [], bots, console)
    tg.play()
    return console.export_text(), tg


def names_of(actor: int, tg) -> str:
    return "Contender" if actor == CONTENDER else tg.names[actor]


@pytest.mark.parametrize("options, seed", [({"players": 4}, 7), ({"players": 1}, 3), ({"players": 2}, 5),
                                           ({"players": 5, "teams": "2v2v1"}, 9), ({"players": 8}, 4)])
def test_a_watched_game_tells_every_bout_challenge_and_round(options, seed):
    text, tg = watch(options, seed)
    winners, challenges, rounds = engine_story(options, tg.state.history)
    told = re.findall(r"→ bout won by (.+?) with (\w+ \d+)", text)
    assert [w for w, _ in told] == [names_of(a, tg) for a in winners]
    assert sum("Challenge" in line for line in text.splitlines()) == challenges
    assert len(re.findall(r"End of round \d+: ", text)) == rounds == tg.state.round
    assert text.count("+1 Crowd Support to ") == rounds
    assert len(re.findall(r"^\s+Crowd Support: ", text, flags=re.M)) == rounds
    # the preferred school is told at each round's first card
    assert text.count("(the round's first card)") == rounds
    # seat names, never the engine's "Seat N" for a named seat
    assert not re.search(r"Seat \d [0-9]/", text)
    if options["players"] == 1:
        # the contender card turned up by the seeded opening is told first, before the seat's first card
        reveal = next(a for actor, a in tg.state.history if isinstance(a, Reveal))
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        assert lines[0] == f"Contender plays {card_label(reveal.card)}"
        assert text.count("Contender plays ") == 20 * rounds  # every contender card, once


def test_a_replay_tells_the_same_story_as_the_watched_game(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    for options, seed in (({"players": 4}, 7), ({"players": 1}, 3)):
        path = tmp_path / f"g{seed}.json"
        args = ["play", "gorus-maximus", "--seat", "none", "--seed", str(seed), "--save", str(path)]
        assert main(args + (["--solo"] if options["players"] == 1 else ["--players", "4"])) == 0
        watched = capsys.readouterr().out
        assert main(["replay", str(path)]) == 0
        replayed = capsys.readouterr().out
        for pattern in (r"→ bout won by (.+?) with (\w+ \d+)", r"End of round \d+", r"Challenge",
                        r"\+1 Crowd Support to (.+)"):
            assert re.findall(pattern, replayed) == re.findall(pattern, watched), pattern
        # the same contender cards (the live log prints a turn's reveals before what they set off)
        assert sorted(re.findall(r"Contender plays (\w+ \d+)", replayed)) == \
            sorted(re.findall(r"Contender plays (\w+ \d+)", watched))
        assert re.findall(r"→ bout won by", replayed)


@pytest.mark.parametrize("options, seed", [({"players": 4}, 11), ({"players": 2}, 12), ({"players": 1}, 13)])
def test_a_players_log_tells_nothing_of_the_hands_it_may_not_see(options, seed):
    """Narrated from seat 1's observations step by step (as ``ludus play --seat 1`` does): no line
    names a card that is then in another seat's hand or in the unseen stock."""
    state = GAME.new_initial_state(options, seed=seed)
    from ludus.core.rng import Rng

    rng = Rng(seed)
    logged = len(state.history)
    seen = state.observation(0)
    names = GAME.seat_names(GAME.parse_options(options))
    told = 0
    def secret_cards(st) -> int:
        out = st.stock
        for s in range(st.n):
            if s != 0:
                out |= st.hands[s]
        return out

    while not state.is_terminal():
        seat = state.current_seats()[0]
        action = rng.choice(state.legal_actions(seat))
        before_round, secret_before = state.round, secret_cards(state)
        last_stock = state.stock if state.solo else 0  # a solo round's last contender card is turned up
        state.apply(action, seat)
        entries = state.visible_history(0)[logged:]
        after = state.observation(0)
        lines = ADAPTER.narrate(seen, after, entries, names)
        if state.round == before_round and not state.is_terminal():
            secret = secret_cards(state)
        else:  # the round ended: what was secret before this card, less the cards the last bout showed
            secret = secret_before & ~(1 << action.card) & ~last_stock
        for line in lines:
            for school, rank in CARD.findall(line):
                label = f"{school} {rank}"
                assert not any(secret >> c & 1 and card_label(c) == label for c in range(80)), (line, label)
        told += len(lines)
        seen, logged = after, len(state.visible_history(0))
    assert told


def test_render_for_a_replay_names_the_seat_not_you():
    state = GAME.new_initial_state({"players": 4, "teams": "2v2"}, seed=2)
    names = ["Ann", "Bo", "Cy", "Di"]
    console = Console(record=True, width=200)
    ADAPTER.render(console, state.view(1), names, you=False)
    text = console.export_text()
    assert "Bo's troupe" in text and "Your troupe" not in text and "you are" not in text
    assert "type b" not in text  # a replay's board waits for no move
    assert "Bo is Team B: Bo, Di" in text
    console = Console(record=True, width=200)
    ADAPTER.render(console, state.view(1), names)
    text = console.export_text()
    assert "Your troupe" in text and "you are Team B" in text


def test_support_and_round_summaries_use_the_seats_names():
    state = GAME.new_initial_state({"players": 3, "target": 1}, seed=4)
    from ludus.core.rng import Rng

    rng = Rng(4)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    console = Console(record=True, width=200)
    names = ["Ann", "Bo", "Cy"]
    ADAPTER.render_final(console, state.observation(None), state.scores(), state.winners(), names)
    text = console.export_text()
    assert "Ann 1/1" in text or "Ann 0/1" in text
    assert "Seat 1" not in text and "Seat 2" not in text


def test_the_board_shows_each_crowd_favour_value_with_a_mark_where_the_rulebook_prints_none(tmp_path):
    state = GAME.new_initial_state({"players": 4}, seed=2)
    console = Console(record=True, width=300)
    ADAPTER.render(console, state.view(0), GAME.seat_names(state.options))
    text = console.export_text()
    legend = next(line for line in text.splitlines() if line.startswith("Crowd Favour: "))
    assert "8: -4 " in legend + " " and "10: +1 " in legend + " "  # printed: no mark
    assert "9: +2*" in legend and "11: +1*" in legend and "4: 0†" in legend
    assert "* our value, not in the rulebook; † not printed, follows from a rulebook example" in text
    own = tmp_path / "own.toml"
    own.write_text("[cf]\n" + "\n".join(f"{r} = 1" for r in range(16)) + "\n", encoding="utf-8")
    state = GAME.new_initial_state({"players": 4, "cf_table": str(own)}, seed=2)
    console = Console(record=True, width=300)
    ADAPTER.render(console, state.view(0), GAME.seat_names(state.options))
    text = console.export_text()
    assert "*" not in text.split("Crowd Favour: ")[1].splitlines()[0] and "this table's own" in text


def test_data_values_list_every_unprinted_value_of_the_deck_and_none_for_an_own_table(tmp_path):
    values = GAME.data_values(GAME.parse_options({"players": 4}))
    assert [v.subject for v in values] == [f"Crowd Favour of rank {r}" for r in (4, 5, 6, 7, 9, 11, 12)]
    assert {v.source for v in values} == {"example", "ours"} and all(v.note for v in values)
    assert len(GAME.data_values(GAME.parse_options({"players": 8}))) == 13
    own = tmp_path / "own.toml"
    own.write_text("[cf]\n" + "\n".join(f"{r} = 1" for r in range(16)) + "\n", encoding="utf-8")
    assert GAME.data_values(GAME.parse_options({"players": 4, "cf_table": str(own)})) == []
