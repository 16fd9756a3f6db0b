"""Golden Gorus Arena games: what the engine said before it was made faster, to compare against.

``golden.json.gz`` was written by :func:`capture` from the engine as it was before the speed work
of issue #17 (event text built on every step, legal moves from the option lists). It holds
seeded random games over many option sets; for each game the moves played, the final position
(which carries the whole event log) and, every few moves, each seat's and a spectator's
observation JSON, the legal moves' labels of every seat to act and the refusal reason for
every move in :func:`universe`. ``test_golden.py`` replays the games on today's engine and
asserts that all of it is the same, word for word.

Rewrite the file only when a change of the rules or the log text is meant:
``python -m tests.games.gorus_arena.golden``.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from ludus.core.game import Action
from ludus.core.rng import Rng
from ludus.games.gorus_arena.actions import ATTACK, DONE, INCOME_ACTION, PASS, PICK, PLACE, RECRUIT
from ludus.games.gorus_arena.game import GAME

GOLDEN = Path(__file__).resolve().parent / "golden.json.gz"

OPTION_SETS: tuple[dict[str, Any], ...] = (
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 3, "auction": "per-round"},
    {"players": 4, "auction": "per-round", "tie_resolution": "turn-order"},
    {"players": 3, "defence_timing": "execution"},
    {"players": 2, "attack_targets": "arena"},
    {"players": 4, "attack_targets": "team"},
    {"players": 3, "free_plan": True},
    {"players": 5, "free_plan": True, "attack_targets": "team", "auction": "per-round"},
    {"players": 3, "starting_player": "trailing"},
    {"players": 4, "starting_player": "fixed", "first_player": 3},
    {"players": 3, "tie_resolution": "turn-order"},
    {"players": 2, "tie_break": "shared"},
    {"players": 3, "armoury": False},
    {"players": 4, "used_cards": "leave"},
    {"players": 3, "refill": "choose"},
    {"players": 2, "refill": "choose", "used_cards": "leave", "free_plan": True},
    {"players": 5, "refill": "choose", "defence_timing": "execution", "attack_targets": "arena"},
    {"players": 3, "rounds": 12, "armoury": False, "starting_player": "trailing"},
)
"""Every option and each of its values at least once, alone and in a few combinations."""

GAMES_PER_SET = 2
SAMPLE_EVERY = 12
"""Take a sample every this many player moves (and at the last position)."""


def universe() -> list[Action]:
    """Every player move of the game, in a fixed order (for refusal reasons)."""
    return [*PLACE.values(), DONE, *RECRUIT.values(), *PICK.values(), *ATTACK, INCOME_ACTION, PASS]


def sample(state: Any) -> dict[str, Any]:
    """What the golden file keeps of one position."""
    n = state.n
    seats = [s for s in state.current_seats() if s >= 0]
    moves = universe()
    return {
        "obs": [state.observation(s).to_json() for s in [*range(n), None]],
        "legal": {str(s): [a.label for a in state.legal_actions(s)] for s in seats},
        "why": {str(s): [state.why_illegal(a, s) for a in moves] for s in seats},
    }


def play(options: dict[str, Any], seed: int) -> dict[str, Any]:
    """One seeded game of random moves (random seat among those deciding), with its samples."""
    state = GAME.new_initial_state(options, seed=seed)
    rng = Rng(seed * 7919 + 1)
    moves: list[list[Any]] = []
    samples: list[dict[str, Any]] = []
    while state.current_seats():
        seats = state.current_seats()
        seat = seats[rng.below(len(seats))]
        if len(moves) % SAMPLE_EVERY == 0:
            samples.append({"ply": len(moves), **sample(state)})
        action = rng.choice(state.legal_actions(seat))
        moves.append([seat, action.to_json()])
        state.apply(action, seat)
    samples.append({"ply": len(moves), **sample(state)})
    return {"options": options, "seed": seed, "moves": moves, "samples": samples, "final": state.to_json()}


def capture() -> dict[str, Any]:
    return {"games": [play(o, 100 * i + g + 1) for i, o in enumerate(OPTION_SETS) for g in range(GAMES_PER_SET)]}


def load() -> dict[str, Any]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        return json.load(f)


if __name__ == "__main__":
    data = json.dumps(capture(), separators=(",", ":"), sort_keys=True)
    with gzip.open(GOLDEN, "wt", encoding="utf-8", compresslevel=9) as f:
        f.write(data)
    print(f"{GOLDEN}: {GOLDEN.stat().st_size} bytes ({len(data)} uncompressed)")
