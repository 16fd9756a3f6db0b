"""Write the recorded games that ``test_recorded_games.py`` replays (run once, then commit the files).

Each file is a whole game between bots from a seed (or, for one per game, from a start
position), together with the position every replay must reach. They were written before the
game packages were reorganised (issue 13), so that a record that loads today keeps loading
and replaying identically afterwards. Rerun this only on purpose, when a rules change is
meant to change games; a rewrite hides exactly the differences the test is there to find.

    .venv/bin/python -m tests.regression.make_recorded
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ludus.agents.base import make_agent
from ludus.core.game import CHANCE
from ludus.core.records import record_of
from ludus.core.rng import Rng
from ludus.games import get_game

HERE = Path(__file__).resolve().parent / "recorded"

# (game, options, seed, bot kinds by seat, explicit chance)
CASES: list[tuple[str, dict[str, Any], int, str, bool]] = [
    ("gorus-maximus", {"players": 4}, 11, "heuristic", False),
    ("gorus-maximus", {"players": 2, "target": 2}, 12, "random", False),
    ("gorus-maximus", {"players": 1}, 13, "heuristic", False),
    ("gorus-maximus", {"players": 5, "teams": "2v2v1", "target": 2}, 14, "random", True),
    ("gladius", {}, 21, "heuristic", False),
    ("gladius", {"fighter1": "murmillo", "solo": True}, 22, "random", False),
    ("gladius", {"fighter1": "secutor", "fighter2": "secutor", "reshuffle": False}, 23, "random", True),
    ("circus-maximus", {"players": 4}, 31, "heuristic", False),
    ("circus-maximus", {"players": 3, "caesar": True}, 32, "random", True),
    ("gorus-arena", {"players": 3}, 41, "heuristic", False),
    ("gorus-arena", {"players": 5, "auction": "per-round"}, 42, "random", True),
]


def play(name: str, options: dict[str, Any], seed: int, bots: str, explicit: bool) -> dict[str, Any]:
    game = get_game(name)
    opts = game.parse_options(options)
    state = game.new_initial_state(opts, seed=None if explicit else seed)
    chance = Rng(seed)
    agents = [make_agent(bots, game, seed=seed * 10 + i) for i in range(game.num_seats(opts))]
    middle = None
    while not state.is_terminal():
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(chance), CHANCE)
            continue
        state.apply(agents[seat].act(state.view(seat)), seat)
        if middle is None and len(state.history) >= 40:
            middle = (len(state.history), state.to_json())
    record = record_of(state, None if explicit else seed).to_json()
    out = {"record": record, "final": state.to_json()}
    if middle is not None and not explicit:  # the same game again, from a position reached on the way
        played = [a for s, a in state.history[: middle[0]] if s != CHANCE]
        out["start"] = {**record, "actions": record["actions"][len(played):]}
        out["start"].pop("seed")
        out["start"]["start"] = middle[1]
    return out


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for i, (name, options, seed, bots, explicit) in enumerate(CASES):
        data = play(name, options, seed, bots, explicit)
        path = HERE / f"{i:02d}-{name}.json"
        path.write_text(json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n", encoding="utf-8")
        print(path.name, len(data["record"]["actions"]), "actions")


if __name__ == "__main__":
    main()
