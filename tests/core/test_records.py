import json
from pathlib import Path

import pytest

from ludus.core import records
from ludus.core.errors import RecordError
from ludus.games import get_game

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_documented_examples_replay(name):
    record = records.load(EXAMPLES / name)
    state = records.replay(record, get_game)
    assert state.history  # something was played
    again = records.loads(record.dumps())
    assert again == record


def _seeded():
    return records.load(EXAMPLES / "gorus-maximus-seeded.json")


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(format="pgn"), "not a Ludus record"),
        (lambda d: d.update(version=99), "unsupported record version"),
        (lambda d: d.update(game="chess"), "unknown game"),
        (lambda d: d.update(seed="x"), "'seed' must be an integer"),
        (lambda d: d.update(actions="none"), "'actions' must be a list"),
        (lambda d: d["actions"].__setitem__(0, [0]), r"action 1 must be \[seat, action\]"),
        (lambda d: d["actions"].__setitem__(0, [0, {"play": "XX9"}]), "action 1"),
        (lambda d: d["actions"].__setitem__(1, d["actions"][0]), "action 2"),
        (lambda d: d["options"].update(players=12), "options are invalid"),
        (lambda d: d["result"].update(winners=[0, 1]), "winners differ"),
    ],
)
def test_malformed_records_are_refused_with_a_reason(mutate, message):
    data = _seeded().to_json()
    mutate(data)
    with pytest.raises(RecordError, match=message):
        records.replay(records.parse_record(json.loads(json.dumps(data))), get_game)


def test_not_json_and_missing_file():
    with pytest.raises(RecordError, match="not valid JSON"):
        records.loads("{nope")
    with pytest.raises(RecordError, match="cannot read record"):
        records.load("/nonexistent/record.json")


def test_position_plus_moves_replays():
    record = _seeded()
    game = get_game(record.game)
    state = game.new_initial_state(record.options, seed=record.seed)
    for seat, raw in record.actions[:17]:
        state.apply(game.action_from_json(raw), seat)
    rest = records.Record(game=record.game, options=record.options, actions=record.actions[17:],
                          start=state.to_json())
    final = records.replay(rest, get_game)
    assert final.winners() == record.result["winners"]
    assert final.scores() == record.result["scores"]
