"""Games recorded before the game packages were reorganised still load and replay identically.

Each file in ``recorded/`` holds a whole game's record (from a seed, or with explicit chance),
the position its replay must end in, and for seeded games the same game again from a start
position reached on the way. Written by ``make_recorded.py``; see there before rewriting them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ludus.core import records
from ludus.core.options import with_legacy_values
from ludus.games import get_game

RECORDED = Path(__file__).resolve().parent / "recorded"
FILES = sorted(p.name for p in RECORDED.glob("*.json"))


def test_every_game_has_recorded_games():
    assert {name.split("-", 1)[1].removesuffix(".json") for name in FILES} == {
        "gorus-maximus", "gladius", "circus-maximus", "gorus-arena"}


def completed(position: dict) -> dict:
    """``position`` with the options added since it was written, at the value it was played under
    (their ``legacy`` value), as the game now writes them."""
    game = get_game(position["game"])
    return {**position, "options": with_legacy_values(game.Options, position["options"])}


def as_in_file(position: dict, in_file: dict) -> dict:
    """``position`` without the ``event_codes`` (Gorus Arena) added since the file was written:
    the same log lines language-neutrally, checked to read back as the same position first."""
    if "event_codes" in position["state"] and "event_codes" not in in_file["state"]:
        assert get_game(position["game"]).state_from_json(position).to_json() == position
        position = {**position, "state": {k: v for k, v in position["state"].items() if k != "event_codes"}}
    return position


@pytest.mark.parametrize("name", FILES)
def test_recorded_game_replays_to_the_same_position(name):
    data = json.loads((RECORDED / name).read_text(encoding="utf-8"))
    record = records.parse_record(data["record"])
    final = records.replay(record, get_game)  # also checks the stated scores and winners
    assert final.is_terminal()
    data["final"] = completed(data["final"])
    assert as_in_file(final.to_json(), data["final"]) == data["final"]
    assert records.parse_record(json.loads(records.loads(record.dumps()).dumps())) == record
    # the position it ends in loads, and says the same
    assert get_game(record.game).state_from_json(data["final"]).to_json() == data["final"]
    if "start" in data:
        from_start = records.replay(records.parse_record(data["start"]), get_game)
        assert as_in_file(from_start.to_json(), data["final"]) == data["final"]
