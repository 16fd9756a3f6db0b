"""Gorus Arena's exact encoder: distinct observations give distinct vectors, the vector depends
on the observation alone, every value fits its bounds, and the bridges pick it."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from ludus.core.game import CHANCE, State
from ludus.core.rng import Rng
from ludus.games import get_game
from ludus.games.gorus_arena.encoding import PHASES, GorusArenaEncoder, card_ids
from ludus.interop.specs import encoder_for

GAME = get_game("gorus-arena")

LOG = GorusArenaEncoder.omitted
"""The text log and its counters: narration, not encoded (see the module's docstring)."""

CASES = [
    {"players": 2, "rounds": 4},
    {"players": 3, "rounds": 3, "auction": "per-round", "refill": "choose"},
    {"players": 4, "rounds": 3, "armoury": False, "free_plan": True, "attack_targets": "team"},
    {"players": 5, "rounds": 2, "used_cards": "leave", "tie_resolution": "turn-order",
     "defence_timing": "execution", "attack_targets": "arena", "starting_player": "trailing"},
]
"""Every option that changes the observation's shape (players, armoury) and the variants that
fill pieces the default leaves empty (per-round order, refill picks, hands kept by free plans)."""

SEEDS = range(10)


def _walk(options: Any, seed: int) -> list[State]:
    """Every state of one random game (decision and chance nodes), start to end."""
    rng = Rng(seed)
    state = GAME.new_initial_state(options, seed=None)  # chance explicit: the walk stops at the draws
    out = [state.clone()]
    while not state.is_terminal():
        seat = state.current_seats()[0]
        action = state.sample_chance(rng) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        state.apply(action, seat)
        out.append(state.clone())
    return out


def _key(obs: Any) -> str:
    data = obs.to_json()
    for name in LOG:
        del data[name]
    return json.dumps(data, sort_keys=True)


def _viewers(options: Any) -> list[int | None]:
    return [None, *range(options.players)]


@pytest.mark.parametrize("opts", CASES, ids=lambda o: f"{o['players']}p")
def test_distinct_observations_give_distinct_vectors_within_bounds(opts):
    options = GAME.parse_options(opts)
    enc = encoder_for(GAME, options)
    assert isinstance(enc, GorusArenaEncoder)
    low, high = enc.bounds()
    seen: dict[bytes, str] = {}
    keys: set[str] = set()
    phases: set[str] = set()
    filled: np.ndarray = np.zeros(enc.size, bool)
    for seed in SEEDS:
        for state in _walk(options, seed):
            for seat in _viewers(options):
                obs = state.observation(seat)
                x = enc.encode(obs)
                assert x.shape == (enc.size,) and x.dtype == np.float32
                assert (x >= low).all() and (x <= high).all(), f"out of bounds: {obs.to_json()}"
                key = _key(obs)
                assert seen.setdefault(x.tobytes(), key) == key, "two observations share a vector"
                keys.add(key)
                phases.add(obs.phase)
                filled |= x != 0
    assert len(seen) == len(keys) > 100
    assert phases == set(PHASES)  # the walks reach every phase
    views = enc.views(filled.astype(np.float32))
    wanted = ["seat", "reserve", "discard", "arena", "acted", "market", "dead", "queue_card", "pending_card",
              "draws_seat", "draws_left", "hand", "plan", "scores"]
    wanted += [] if options.used_cards == "leave" else ["deck", "deck_count"]  # leave: no draw pile
    wanted += ["order", "round_tied"] if options.auction == "per-round" else ["slot"]
    wanted += ["tied"] if options.tie_resolution == "simultaneous" else []  # turn-order: never tied
    for name in wanted:
        assert views[name].any(), f"the walks never filled {name}"


@pytest.mark.parametrize("opts", CASES, ids=lambda o: f"{o['players']}p")
def test_the_vector_depends_on_the_observation_only(opts):
    """Same observation object, same vector; a determinization that keeps the seat's observation
    (but deals the rivals' hidden cards anew) gives the same vector too."""
    options = GAME.parse_options(opts)
    enc = GorusArenaEncoder(options)
    rng = Rng(99)
    hidden_changed = 0
    for state in _walk(options, 7)[::3]:
        if state.is_terminal():
            continue
        for seat in range(options.players):
            obs = state.observation(seat)
            x = enc.encode(obs)
            assert (x == enc.encode(obs)).all()
            sampled = GAME.sample_state(state.view(seat), rng)
            again = sampled.observation(seat)
            assert _key(again) == _key(obs)
            assert (enc.encode(again) == x).all()
            rival = (seat + 1) % options.players
            hidden_changed += sampled.observation(rival).to_json() != state.observation(rival).to_json()
    assert hidden_changed > 0  # the determinizations did change what the seat cannot see


def test_pieces_say_what_the_observation_says():
    options = GAME.parse_options({"players": 3, "rounds": 2})
    enc = GorusArenaEncoder(options)
    ids = card_ids(options)
    state = _walk(options, 3)[12]
    for seat in range(3):
        obs = state.observation(seat)
        v = enc.views(enc.encode(obs))
        assert list(np.flatnonzero(v["seat"])) == [seat]
        assert v["phase"][PHASES.index(obs.phase)] == 1 and v["phase"].sum() == 1
        assert [ids[i] for i in np.flatnonzero(v["hand"])] == list(obs.hand)
        assert [ids[i] for i in np.flatnonzero(v["deck"])] == list(obs.deck)
        for pos, card in enumerate(obs.plan):
            assert [ids[i] for i in np.flatnonzero(v["plan"][pos])] == [card]
        for s in range(3):
            assert [ids[i] for i in np.flatnonzero(v["reserve"][s])] == list(obs.reserve[s])
            assert [[ids[i] for i in np.flatnonzero(row)] for row in v["arena"][s] if row.any()] == \
                [[c] for c in obs.arena[s]]
        assert v["coins"].tolist() == list(obs.coins) and v["scores"].tolist() == list(obs.scores)
        assert [ids[i] for i in np.flatnonzero(v["market"])] == list(obs.market)
    spectator = enc.views(enc.encode(state.observation(None)))
    assert not spectator["seat"].any() and not spectator["hand"].any() and not spectator["plan"].any()


def test_only_the_log_is_left_out():
    assert set(LOG) == {"events", "step_events", "event_count"}
    obs = GAME.new_initial_state({"players": 2}, seed=None).observation(0)
    assert set(obs.to_json()) - set(LOG) == set(json.loads(_key(obs)))


def test_card_slots_follow_the_options():
    small = GorusArenaEncoder(GAME.parse_options({"players": 2, "armoury": False}))
    big = GorusArenaEncoder(GAME.parse_options({"players": 5}))
    assert small.cards == 2 * 3 + 37 and big.cards == 5 * 3 + 37 + 16
    assert big.views(np.zeros(big.size, np.float32))["arena"].shape == (5, 5, big.cards)
    assert small.size == sum(p.size for p in small.pieces)


def test_openspiel_style_write_fills_given_views():
    """The OpenSpiel observer writes into views of its own tensor, not through ``encode``."""
    options = GAME.parse_options({"players": 3})
    enc = GorusArenaEncoder(options)
    obs = _walk(options, 5)[20].observation(1)
    tensor = np.zeros(enc.size + 4, np.float32)
    enc.write(obs, enc.views(tensor[2:2 + enc.size]))
    assert (tensor[2:2 + enc.size] == enc.encode(obs)).all() and not tensor[:2].any() and not tensor[-2:].any()
    strided = np.zeros((enc.size, 2), np.float32)[:, 0]  # not contiguous: encode_into takes a detour
    enc.encode_into(obs, strided)
    assert (strided == enc.encode(obs)).all()
