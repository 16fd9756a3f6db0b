"""The exact Gladius encoder: distinct observations give distinct vectors, the vector is a
function of the observation alone, and every slot stays within its bounds, in every option
set that changes the layout (solo or not, the card kinds in play, no turn limit).

Exactness is checked two ways over random walks: no two different observations share a
vector, and :func:`decode` reads every field back from the vector alone (which also catches a
piece that random walks rarely tell apart, such as one that changes with another).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from ludus.core.game import CHANCE
from ludus.core.rng import Rng
from ludus.games import get_game
from ludus.games.gladius.encoding import RESULTS, GladiusEncoder
from ludus.games.gladius.rules import build_setup
from ludus.games.gladius.views import END_REASONS, PHASES
from ludus.interop.specs import encoder_for

GAME = get_game("gladius")

OPTION_SETS = {
    "duel": {"fighter2": "murmillo", "hit_points": 20, "turn_limit": 200},
    "solo": {"solo": True, "fighter2": "murmillo", "hit_points": 20},
    "solo-small-hands": {"solo": True, "solo_defence_hand": 1, "solo_attack_hand": 3, "fighter1": "murmillo",
                         "fighter2": "lion", "turn_limit": 60},
    "mirror-once": {"fighter1": "secutor", "fighter2": "secutor", "mirror": "once", "reshuffle": False},
    "mirror-twice": {"fighter1": "thracian", "fighter2": "thracian", "hand_limit": 7, "starting_hand": 4,
                     "hit_points": 30},
    "lion-no-limit": {"fighter1": "murmillo", "fighter2": "lion", "turn_limit": 0, "attack": "optional"},
}
"""Options that change the vector's layout or the values it can hold; hit points above the usual
10 make games long enough to reshuffle (and so to count cards)."""

NEVER_SET = {
    "mirror-once": {"locked", "resume", "reshuffles", "opponent_known", "known_by_opponent"},
    "mirror-twice": {"locked"},
}
"""Pieces these options leave at zero: no reshuffle (so no card counting, which starts at a
reshuffle), or no card that locks (a Murmillo attack, or an Evade before a skipped turn)."""

SEEDS = range(8)


def walk(options: dict, seed: int) -> Iterator[tuple[Any, int | None]]:
    """(state, viewer) at every node of a random game, for every seat and the spectator."""
    state = GAME.new_initial_state(options, seed=None)
    rng = Rng(seed)
    seats: list[int | None] = [None, *range(GAME.num_seats(state.options))]
    while True:
        for seat in seats:
            yield state, seat
        current = state.current_seats()
        if not current:
            return
        seat = current[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            state.apply(rng.choice(state.legal_actions(seat)), seat)


FIXED = ("solo", "fighters", "names", "max_hit_points", "turn_limit", "hand_limit")
"""Observation fields the options fix: not encoded (the encoder is made for one option set)."""


def decode(enc: GladiusEncoder, keys: tuple[str, ...], x: np.ndarray) -> dict[str, Any]:
    """Every encoded field of the observation, read back from the vector as ``to_json`` writes it."""
    v = enc.views(x)
    nk = len(keys)

    def one(row: np.ndarray, names: Any) -> Any:
        nz = np.flatnonzero(row)
        assert len(nz) <= 1 and (row[nz] == 1).all()
        return names[nz[0]] if len(nz) else None

    def cards(row: np.ndarray) -> list[str]:
        return [keys[k] for k in range(nk) for _ in range(int(row[k]))]

    def pair(rows: np.ndarray) -> list[Any] | None:
        nz = np.flatnonzero(rows)
        assert len(nz) <= 1
        if not len(nz):
            return None
        side, col = divmod(int(nz[0]), nk + 1)
        return [side, keys[col] if col < nk else None]

    def num(name: str) -> int:
        return int(v[name][0])

    out = {
        "seat": one(v["seat"], (0, 1)), "hit_points": [int(h) for h in v["hit_points"]],
        "phase": one(v["phase"], PHASES), "active": one(v["active"], (0, 1)),
        "to_act": one(v["to_act"], (0, 1)), "first": one(v["first"], (0, 1)),
        "turn": num("turn"), "dealt": num("dealt"), "hand": cards(v["hand"]),
        "hand_sizes": [int(n) for n in v["hand_sizes"]], "draw_pile": num("draw_pile"),
        "discard": [[keys[k], int(n)] for k, n in enumerate(v["discard"]) if n],
        "table": one(v["table"], keys),
        "mini_hand": cards(v["mini_hand"]) if enc.solo else [],
        "mini_left": num("mini_left") if enc.solo else 0,
        "locked": [one(v["locked"][0], keys), one(v["locked"][1], keys)],
        "barred": one(v["barred"], keys), "skip": [bool(v["skip"][0]), bool(v["skip"][1])],
        "resume": one(v["resume"], PHASES), "reshuffles": num("reshuffles"),
        "last_attack": pair(v["last_attack"]), "last_defence": pair(v["last_defence"]),
        "last_result": one(v["last_result"], RESULTS) or "",
        "end": one(v["end"], END_REASONS[1:]) or "", "winners": [s for s in (0, 1) if v["winners"][s]],
    }
    if enc.solo:
        out.update(opponent_known=[], opponent_unknown=0, known_by_opponent=[], unknown_to_opponent=0)
    else:
        out.update(opponent_known=cards(v["opponent_known"]), opponent_unknown=num("opponent_unknown"),
                   known_by_opponent=cards(v["known_by_opponent"]),
                   unknown_to_opponent=num("unknown_to_opponent"))
    assert all(float(n).is_integer() for n in x if np.isfinite(n))
    return out


def encoder(options: dict) -> GladiusEncoder:
    enc = encoder_for(GAME, GAME.parse_options(options))
    assert isinstance(enc, GladiusEncoder)
    return enc


@pytest.mark.parametrize("name", OPTION_SETS)
def test_distinct_observations_give_distinct_vectors_within_bounds(name: str) -> None:
    options = OPTION_SETS[name]
    enc = encoder(options)
    low, high = enc.bounds()
    keys = build_setup(GAME.parse_options(options)).keys
    seen: dict[bytes, str] = {}
    fixed: dict[str, Any] = {}
    notes: dict[str, Any] = {}
    used = np.zeros(enc.size, bool)
    distinct = 0
    for seed in SEEDS:
        for state, seat in walk(options, seed):
            obs = state.observation(seat)
            x = enc.encode(obs)
            assert x.shape == (enc.size,) and x.dtype == np.float32
            assert (x >= low).all() and (x <= high).all(), (name, seed, obs)
            used |= x != 0
            data = obs.to_json()
            back = decode(enc, keys, x)
            assert back == {k: data[k] for k in back}
            assert set(data) == set(back) | set(FIXED) | {"hand_notes", "hand_reasons"}
            for k in FIXED:
                assert fixed.setdefault(k, data[k]) == data[k]
            # the notes follow from fields the vector holds (views.hand_notes)
            basis = json.dumps([back[k] for k in ("seat", "phase", "to_act", "hand", "barred", "table")])
            said = [data["hand_notes"], data["hand_reasons"]]
            assert notes.setdefault(basis, said) == said
            text = json.dumps(data, sort_keys=True)
            key = x.tobytes()
            if key not in seen:
                seen[key] = text
                distinct += 1
            assert seen[key] == text, f"two observations share a vector:\n{seen[key]}\n{text}"
    assert distinct > 500  # the walks reached many positions
    never = {p for p, u in enc.views(used).items() if not u.any()}
    assert never == NEVER_SET.get(name, set())  # every piece was read back while it held something


@pytest.mark.parametrize("name", OPTION_SETS)
def test_the_vector_depends_only_on_the_observation(name: str) -> None:
    options = OPTION_SETS[name]
    enc = encoder(options)
    players = range(GAME.num_seats(GAME.parse_options(options)))
    checked = 0
    for seed in range(3):
        rng = Rng(100 + seed)
        for i, (state, seat) in enumerate(walk(options, seed)):
            obs = state.observation(seat)
            x = enc.encode(obs)
            assert (enc.encode(obs) == x).all()
            if seat not in players or i % 5 or state.is_terminal():
                continue
            # a determinization: another full state the seat cannot tell from this one
            other = GAME.sample_state(state.view(seat), rng)
            assert other.observation(seat) == obs
            assert (enc.encode(other.observation(seat)) == x).all()
            checked += 1
    assert checked > 20


def test_the_layout_follows_the_options() -> None:
    duel, solo = encoder({}), encoder({"solo": True})
    names = {p.name for p in duel.pieces}
    assert {"opponent_known", "known_by_opponent"} <= names and "mini_hand" not in names
    assert "mini_hand" in {p.name for p in solo.pieces} and "opponent_known" not in {p.name for p in solo.pieces}
    nk = len(build_setup(GAME.parse_options({"fighter1": "secutor", "fighter2": "secutor", "mirror": "once"})).kinds)
    mirror = encoder({"fighter1": "secutor", "fighter2": "secutor", "mirror": "once"})
    assert mirror.views(np.zeros(mirror.size, np.float32))["hand"].shape == (nk,)
    assert duel.size == sum(p.size for p in duel.pieces)
    unlimited = encoder({"turn_limit": 0})
    top = unlimited.views(unlimited.bounds()[1])
    assert top["turn"][0] == top["reshuffles"][0] == np.finfo(np.float32).max
    top = duel.views(duel.bounds()[1])
    assert top["turn"][0] == 500 and top["reshuffles"][0] == 2 * 2 + 4 * 500  # the deal, then 4 draws a turn


def test_pieces_mean_what_the_table_says() -> None:
    options = GAME.parse_options({})
    setup = build_setup(options)
    enc = encoder({})
    state: Any = GAME.new_initial_state(options, seed=4)
    while state.phase != 4 or not state.hands[0]:  # an attack decision with cards in hand
        state.apply(state.legal_actions()[0])
    obs: Any = state.observation(0)
    v = enc.views(enc.encode(obs))
    assert v["seat"].tolist() == [1, 0]
    assert v["hand"].sum() == len(obs.hand)
    for key in obs.hand:
        assert v["hand"][setup.index[key]] == obs.hand.count(key)
    assert v["hit_points"].tolist() == list(obs.hit_points)
    assert v["phase"].argmax() == 4 and v["phase"].sum() == 1
    assert v["to_act"][obs.to_act] == 1 and v["turn"][0] == obs.turn
    assert v["draw_pile"][0] == obs.draw_pile
    assert v["discard"].sum() == sum(n for _, n in obs.discard)
    spectator = enc.views(enc.encode(state.observation(None)))
    assert spectator["seat"].sum() == 0 and spectator["hand"].sum() == 0
    assert spectator["opponent_known"].sum() == 0


def test_write_and_encode_into_match_encode() -> None:
    """OpenSpiel's observer fills named views through ``write``, a vector env a row of its batch
    through ``encode_into``: both must hold the vector ``encode`` gives."""
    enc = encoder({"solo": True})
    batch = np.zeros((3, enc.size), np.float32)
    for state, seat in walk({"solo": True, "turn_limit": 10}, 3):
        obs = state.observation(seat)
        x = enc.encode(obs)
        buf = np.zeros(enc.size, np.float32)
        enc.write(obs, enc.views(buf))
        assert (buf == x).all()
        batch[:] = 0
        enc.encode_into(obs, batch[1])
        assert (batch[1] == x).all() and not batch[0].any() and not batch[2].any()
