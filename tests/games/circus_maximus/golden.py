"""Golden Circus Maximus games: what the engine said before its legal moves were made faster.

``golden.json.gz`` was written by :func:`capture` from the engine as it was before the speed
work of issue #17 (legal moves built as a superset and filtered through the refusal checks).
It holds seeded random games in every option combination (3, 4 and 5 players, with and
without Caesar, both readings of the starting-player card). For every game it keeps the number
of moves, the final scores and digests of: the moves played (labels), the legal moves' labels
at every decision (so their order is kept too), and, every few decisions, a sample: the
spectator's observation JSON, the position JSON and the refusal reason for every move in
:func:`probe_pool`. The first game of each combination is also kept in full (labels and
samples), so that a difference can be read, not only detected. One more game of each
combination is played by the heuristic bot in every seat (its choices depend on the order of
the legal moves and on the observations).

``test_golden.py`` replays the games on today's engine and asserts that all of it is the same.
Rewrite the file only when a change of the rules or of the texts is meant:
``python -m tests.games.circus_maximus.golden``.
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import json
from pathlib import Path
from typing import Any

from ludus.core.game import CHANCE, Action
from ludus.core.rng import Rng
from ludus.games.circus_maximus.actions import (
    LINE_KEYS,
    Done,
    Pass,
    Place,
    PlaceVisitor,
    PlayExtraVisitor,
    PlayMoveAhead,
    PlayReplay,
    PlayTicketVisitor,
    Sell,
    Skip,
    TakeFavour,
    TakeStart,
    TakeTicket,
)
from ludus.games.circus_maximus.cards import FAVOUR_KEYS, VENUE_KEYS
from ludus.games.circus_maximus.game import GAME
from ludus.games.circus_maximus.heuristic import CircusMaximusHeuristic

GOLDEN = Path(__file__).resolve().parent / "golden.json.gz"

OPTION_SETS: tuple[dict[str, Any], ...] = tuple(
    {"players": p, "caesar": c, "start_card": s}
    for p, c, s in itertools.product((3, 4, 5), (False, True), ("instead", "extra-pick"))
)
"""Every combination of the game's options (the card file aside)."""

GAMES_PER_SET = 25
SAMPLE_EVERY = 17
"""Take a sample every this many player decisions (and at the end)."""
FULL_EVERY = 3
"""In a game kept in full, keep every this many samples."""


def probe_pool(state: Any) -> list[Action]:
    """A wide pool of moves, most of them illegal at any moment, for the refusal reasons."""
    d = state.data
    pool: list[Action] = [Pass(), Done(), PlayExtraVisitor(), PlayTicketVisitor(), TakeStart(), Skip()]
    pool += [Place(r, k, e, b) for r in (1, 2, 5, 8) for k in LINE_KEYS for e in (False, True) for b in (False, True)]
    pool += [Place(0, "villa"), Place(9, "forum"), Place(3, "nowhere")]
    pool += [PlayReplay(r, k) for r in (1, 4, 8) for k in (*LINE_KEYS, "nowhere")]
    pool += [PlayMoveAhead(r) for r in range(1, 9)]
    pool += [PlaceVisitor(v) for v in (*VENUE_KEYS, "villa")] + [TakeFavour(k) for k in (*FAVOUR_KEYS, "nothing")]
    pool += [TakeTicket(t.key, dbl) for t in d.tickets for dbl in (False, True)] + [TakeTicket("nothing")]
    pool += [Sell(v.key, t.key, None, lg, dbl) for v in d.visitors for t in d.tickets[::3]
             for lg in (False, True) for dbl in (False, True)]
    pool += [Sell(v.key, None, f, lg, dbl) for v in d.visitors for f in FAVOUR_KEYS[::2]
             for lg in (False, True) for dbl in (False, True)]
    pool += [Sell("senator", None, None), Sell("senator", "circus:box", "legionnaire"), Sell("nobody", "x:y"),
             Sell("senator", "nothing"), Sell("senator", None, "nothing")]
    return pool


def sample(state: Any) -> dict[str, Any]:
    """What the golden file keeps of one position."""
    seats = [s for s in state.current_seats() if s != CHANCE]
    pool = probe_pool(state)
    return {
        "obs": state.observation(None).to_json(),
        "position": state.to_json(),
        "why": {str(s): [state.why_illegal(a, s) for a in pool] for s in seats},
    }


def _digest(items: list[Any]) -> str:
    h = hashlib.sha256()
    for item in items:
        h.update(json.dumps(item, sort_keys=True, ensure_ascii=False).encode())
        h.update(b"\n")
    return h.hexdigest()


def play(options: dict[str, Any], seed: int, full: bool, heuristic: bool = False) -> dict[str, Any]:
    """One seeded game of random legal moves (or, with ``heuristic``, of the heuristic bot in
    every seat), with its digests (and, if ``full``, its text)."""
    state = GAME.new_initial_state(options, seed=seed)
    rng = Rng(seed * 7919 + 1)
    bots = [CircusMaximusHeuristic(seed + s) for s in range(state.n)] if heuristic else []
    legal_lists: list[list[str]] = []
    samples: list[dict[str, Any]] = []
    decisions = 0
    while seats := state.current_seats():
        seat = seats[0]
        legal = state.legal_actions(seat)
        legal_lists.append([a.label for a in legal])
        if decisions % SAMPLE_EVERY == 0:
            samples.append(sample(state))
        action = bots[seat].act(state.view(seat)) if bots else rng.choice(legal)
        state.apply(action, seat)
        decisions += 1
    samples.append(sample(state))
    moves = [[seat, action.label] for seat, action in state.history]
    out: dict[str, Any] = {
        "options": options, "seed": seed, "heuristic": heuristic, "moves": len(moves), "decisions": decisions,
        "scores": state.scores(), "moves_sha": _digest(moves), "legal_sha": _digest(legal_lists),
        "samples_sha": _digest(samples),
    }
    if full:
        out["full_moves"] = moves
        out["full_samples"] = samples[::FULL_EVERY]
    return out


def capture() -> dict[str, Any]:
    """Every golden game, as the file keeps them."""
    games = []
    for i, options in enumerate(OPTION_SETS):
        for g in range(GAMES_PER_SET):
            games.append(play(options, 1000 * i + g, full=g == 0))
        games.append(play(options, 1000 * i + 999, full=False, heuristic=True))
    return {"sample_every": SAMPLE_EVERY, "games": games}


def load() -> dict[str, Any]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        result: dict[str, Any] = json.load(f)
        return result


if __name__ == "__main__":
    data = capture()
    with gzip.open(GOLDEN, "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(data, f, ensure_ascii=False, separators=(",", ":"))
    print(f"{len(data['games'])} games, {GOLDEN.stat().st_size:,} bytes")
