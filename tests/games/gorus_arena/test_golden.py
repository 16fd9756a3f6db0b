"""The faster engine says and does exactly what the engine before it did.

``golden.json.gz`` (see :mod:`.golden`) was captured from the engine before the speed work: the
test replays each of its seeded games move by move and compares, at every sampled position,
each seat's and a spectator's observation JSON (the log worded the same), the legal moves'
labels in order and the refusal reason of every move, then the final position, log included.
"""

from __future__ import annotations

import pickle

import pytest

from ludus.games.gorus_arena.events import EventLines
from ludus.games.gorus_arena.game import GAME

from .golden import load, sample
from .helpers import card_of, table

GAMES = load()["games"]


def captured(state) -> dict:
    """What the golden file keeps of a position: the observations as they were then, without the
    ``event_codes`` added since (the same lines as ``events``, checked in test_event_codes.py)."""
    now = sample(state)
    for obs in now["obs"]:
        assert len(obs.pop("event_codes")) == len(obs["events"])
    return now


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_golden_game_replays_word_for_word(index):
    game = GAMES[index]
    state = GAME.new_initial_state(game["options"], seed=game["seed"])
    samples = {s["ply"]: s for s in game["samples"]}
    for ply, (seat, action) in enumerate(game["moves"]):
        if ply in samples:
            want = samples[ply]
            assert captured(state) == {k: want[k] for k in ("obs", "legal", "why")}, f"ply {ply}"
        state.apply(GAME.action_from_json(action), seat)
    assert not state.current_seats()
    want = samples[len(game["moves"])]
    assert captured(state) == {k: want[k] for k in ("obs", "legal", "why")}
    final = state.to_json()
    assert GAME.state_from_json(final).log == list(state.log)  # its event_codes read back as the same events
    del final["state"]["event_codes"]  # added since the file was made: the events as before, language-neutral
    assert final == game["final"]


def test_golden_covers_every_option_and_log_line():
    """The games exercise each option value, and the logs hold every kind of line."""
    seen: dict[str, set] = {}
    for game in GAMES:
        for key, value in vars(GAME.parse_options(game["options"])).items():
            seen.setdefault(key, set()).add(value)
    assert seen["players"] == {2, 3, 4, 5}
    for key in ("auction", "defence_timing", "attack_targets", "free_plan", "starting_player",
                "tie_resolution", "tie_break", "armoury", "used_cards", "refill"):
        assert len(seen[key]) >= 2, key
    lines = [e for g in GAMES for e in g["final"]["state"]["events"]]
    for part in ("— Round ", " reveals: ", "are guarded", "wins with strength", "tie at strength",
                 "down but still acts", ": income, +2 coins", " guards: defence",
                 "no recruit (cannot afford anything)", "nobody to attack", "Game over: ", "new draw pile",
                 " draws 1 card", " draws 2 cards", "is empty: takes", "is empty: picks", " recruits ",
                 " passes", ": killed", ": the attack fails", "reveals: nothing", "Auction: "):
        assert any(part in e for e in lines), part


def test_the_one_line_the_golden_games_miss():
    """A recruit card with nothing to do because the hand is full (only reachable with free plans)."""
    state = table({0: ["slave"], 1: ["slave"]})
    slave = card_of(state, 0, "slave")
    state.hand[0] = (1 << 5) - 1 << 40  # any five cards
    state._auto(0, slave)
    assert state.events[-1] == "Seat 1's Slave: no recruit (hand full)"
    state.hand[0] = 0
    state._auto(0, slave)
    assert state.events[-1] == "Seat 1's Slave: no recruit (cannot afford anything)"


def test_event_lines_read_as_a_tuple_of_text():
    state = GAME.new_initial_state({"players": 3}, seed=4)
    while state.phase != "exec":
        seat = state.current_seats()[0]
        state.apply(state.legal_actions(seat)[0], seat)
    events = state.observation(0).events
    assert isinstance(events, EventLines)
    text = tuple(state.events[-len(events):])
    assert events == text and tuple(events) == text and events[-1] == text[-1] and events[:2] == text[:2]
    assert len(events) == len(text) and hash(events) == hash(text) and repr(events) == repr(text)
    assert events == EventLines(list(text))  # worded or not, the same lines are equal
    assert pickle.loads(pickle.dumps(events)) == text
    assert state.observation(0) == pickle.loads(pickle.dumps(state.observation(0)))
