"""Gladius games saved as records (seeded, explicit chance, from a position) replay exactly."""

from __future__ import annotations

import json

import pytest

from ludus.core import records
from ludus.core.errors import RecordError
from ludus.core.game import CHANCE
from ludus.core.rng import Rng
from ludus.games import get_game
from ludus.games.gladius.actions import (
    AdversaryAttack,
    AdversaryDefend,
    Attack,
    Defend,
    Discard,
    DrawCard,
    FirstPlayer,
    MiniDraw,
    Reshuffle,
    SkipTurn,
)
from ludus.games.gladius.game import GAME

MODES = [
    {},
    {"fighter1": "murmillo", "fighter2": "thracian", "first": "random"},
    {"solo": True, "fighter1": "postulati", "fighter2": "lion"},
    {"fighter1": "samnite", "fighter2": "samnite", "mirror": "once", "reshuffle": False},
]


def play(options, seed, rng_seed):
    state = GAME.new_initial_state(options, seed=seed)
    rng = Rng(rng_seed)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


@pytest.mark.parametrize("options", MODES)
def test_seeded_record_round_trip(options):
    state = play(options, seed=21, rng_seed=3)
    rec = records.record_of(state, 21, players=GAME.seat_names(state.options))
    assert all(seat != CHANCE for seat, _ in rec.actions)  # the seed stands for chance
    again = records.loads(rec.dumps())
    final = records.replay(again, get_game)
    assert final.to_json() == state.to_json()
    assert final.winners() == state.winners()


@pytest.mark.parametrize("options", MODES)
def test_explicit_chance_record_round_trip(options):
    state = play(options, seed=None, rng_seed=8)
    rec = records.record_of(state, None)
    assert any(seat == CHANCE for seat, _ in rec.actions)
    final = records.replay(records.loads(rec.dumps()), get_game)
    assert final._position() == state._position()


def test_record_from_a_start_position():
    state = GAME.new_initial_state({}, seed=5)
    rng = Rng(4)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    start = state.to_json()
    mark = len(state.history)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    actions = [(s, a.to_json()) for s, a in state.history[mark:] if s != CHANCE]
    rec = records.Record(game="gladius", options=start["options"], actions=actions, start=start)
    final = records.replay(records.loads(rec.dumps()), get_game)
    assert final._position() == state._position()


def test_every_action_kind_round_trips_through_json():
    actions = [Attack("secutor/Sword Stab"), Attack(None), Defend("both/Duck"), Defend(None),
               Discard("retiarius/Dagger"), DrawCard(1, "both/Kick"), FirstPlayer(0), Reshuffle(), SkipTurn(1),
               MiniDraw("lion/Bite"), AdversaryAttack("lion/Maul"), AdversaryAttack(None),
               AdversaryDefend("both/Leap"), AdversaryDefend(None)]
    for a in actions:
        assert GAME.action_from_json(json.loads(json.dumps(a.to_json()))) == a
        assert a.label


@pytest.mark.parametrize("bad", [
    None, [], {}, "attack", {"attack": 3}, {"attack": "Sword Stab"}, {"discard": None}, {"draw": "both/Kick"},
    {"draw": "both/Kick", "seat": 2}, {"draw": "both/Kick", "seat": True}, {"reshuffle": False},
    {"attack": None, "defend": None}, {"fly": "away"},
])
def test_malformed_actions_are_record_errors(bad):
    with pytest.raises(RecordError):
        GAME.action_from_json(bad)


def test_illegal_or_malformed_record_is_refused():
    state = play({}, seed=2, rng_seed=2)
    rec = records.record_of(state, 2)
    data = json.loads(rec.dumps())
    data["actions"][0] = [data["actions"][0][0], {"attack": "secutor/Nonsense"}]
    with pytest.raises(RecordError, match=r"action 1 .*is illegal: there is no Nonsense card"):
        records.replay(records.parse_record(data), get_game)
    data["actions"][0] = [0, {"bogus": 1}]
    with pytest.raises(RecordError, match="action 1: unknown Gladius action"):
        records.replay(records.parse_record(data), get_game)


@pytest.mark.parametrize("mutate, problem", [
    (lambda s: s.update(phase="nap"), "unknown phase"),
    (lambda s: s["hands"][0].append("both/Kick"), "the position holds"),
    (lambda s: s.update(hp=[10]), "hp must be two numbers"),
    (lambda s: s.update(pile={"both/Nope": 1}), "unknown card"),
    (lambda s: s.update(unknown=[5, 5]), "card-counting knowledge"),
    (lambda s: s.update(end="boredom"), "unknown end reason"),
    (lambda s: s.update(mini=["both/Kick"]), "the position holds"),
])
def test_broken_positions_are_record_errors(mutate, problem):
    state = GAME.new_initial_state({}, seed=9)
    data = json.loads(json.dumps(state.to_json()))
    mutate(data["state"])
    with pytest.raises(RecordError, match=problem):
        GAME.state_from_json(data)
