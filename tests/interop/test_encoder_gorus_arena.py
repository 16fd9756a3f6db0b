"""Gorus Arena's exact encoder: distinct observations give distinct vectors, the vector depends
on the observation alone, every value fits its bounds, and the bridges pick it. What the log
places of the hidden cards (``known_hand``, ``known_pile``) is in the vector, true of the real
position, and the only thing of the log that is."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np
import pytest

from ludus.core.game import CHANCE, State
from ludus.core.rng import Rng
from ludus.games import get_game
from ludus.games.gorus_arena.cards import KEY, KIND_BY_KEY, KINDS, cards_of
from ludus.games.gorus_arena.encoding import PHASES, GorusArenaEncoder, card_ids, kind_keys
from ludus.games.gorus_arena.events import RECRUITS, EventLines
from ludus.games.gorus_arena.knowledge import KIND_INDEX, placed
from ludus.interop.specs import encoder_for

GAME = get_game("gorus-arena")

LOG = GorusArenaEncoder.omitted
"""The text log and its counters: not encoded as such; only what the log places of the hidden
cards is (see the module's docstring)."""

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


def _known(obs: Any, options: Any) -> str:
    """What the log (with the counts) places of every seat's hidden cards, as text."""
    got = placed(obs, options.free_plan, options.attack_targets == "team")
    return json.dumps([sorted(row.items()) for row in got])


def _kinds(cards: Any) -> dict[int, int]:
    out: dict[int, int] = {}
    for c in cards:
        out[KIND_INDEX[c]] = out.get(KIND_INDEX[c], 0) + 1
    return out


def _viewers(options: Any) -> list[int | None]:
    return [None, *range(options.players)]


@pytest.mark.parametrize("opts", CASES, ids=lambda o: f"{o['players']}p")
def test_distinct_observations_give_distinct_vectors_within_bounds(opts):
    options = GAME.parse_options(opts)
    enc = encoder_for(GAME, options)
    assert isinstance(enc, GorusArenaEncoder)
    low, high = enc.bounds()
    seen: dict[bytes, str] = {}  # vector -> the observation outside the log, and what the log places
    vectors: dict[str, bytes] = {}  # the other way round
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
                key, known = _key(obs), _known(obs, options)
                both = key + known
                # one vector per (observation outside the log, placements), and one of those per vector:
                # observations that differ only in how the log told the same things share a vector
                assert seen.setdefault(x.tobytes(), both) == both, "two observations share a vector"
                assert vectors.setdefault(both, x.tobytes()) == x.tobytes(), "the log's wording changed the vector"
                keys.add(key)
                for s, row in enumerate(placed(obs, options.free_plan, options.attack_targets == "team")):
                    up, pile = _kinds([*cards_of(state.hand[s]), *state.plan[s]]), _kinds(cards_of(state.deck[s]))
                    for k, (a, b) in row.items():  # what the log places is true of the real position
                        assert up.get(k, 0) >= a and pile.get(k, 0) >= b, f"seat {s}, {KINDS[k].key}: {a}, {b}"
                if len(keys) % 7 == 0:  # the log worded (as a position read back from JSON holds it) reads the same
                    assert (enc.encode(dataclasses.replace(obs, events=tuple(obs.events))) == x).all()
                phases.add(obs.phase)
                filled |= x != 0
    assert len(seen) == len(vectors) >= len(keys) > 100
    assert phases == set(PHASES)  # the walks reach every phase
    views = enc.views(filled.astype(np.float32))
    wanted = ["seat", "reserve", "discard", "arena", "acted", "market", "dead", "queue_card", "pending_card",
              "draws_seat", "draws_left", "hand", "plan", "scores", "known_hand"]
    wanted += [] if options.used_cards == "leave" else ["deck", "deck_count", "known_pile"]  # leave: no draw pile
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
        keys = kind_keys(options)
        for s, row in enumerate(placed(obs, False, False)):  # [s, k]: seat s, kind keys[k]
            assert {keys[k]: (int(a), int(b)) for k, (a, b) in enumerate(zip(v["known_hand"][s], v["known_pile"][s]))
                    if a or b} == {KINDS[k].key: ab for k, ab in row.items()}
    spectator = enc.views(enc.encode(state.observation(None)))
    assert not spectator["seat"].any() and not spectator["hand"].any() and not spectator["plan"].any()


def test_only_the_log_is_left_out():
    assert set(LOG) == {"events", "event_codes", "step_events", "event_count"}
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


def _recruit_seen() -> tuple[Any, int, int, str]:
    """A 2-player position just after a rival's recruit that only the log places: (state, viewer,
    rival, kind recruited). The rival also has a draw pile, so ``reserve`` leaves the card unplaced."""
    options = GAME.parse_options({"players": 2, "rounds": 4})
    for seed in range(40):
        for state in _walk(options, seed):
            raw = state.observation(None).events.raw
            if not raw or raw[-1][0] != RECRUITS or state.phase != "exec":
                continue
            rival = raw[-1][1]
            viewer = 1 - rival
            obs = state.observation(viewer)
            blind = dataclasses.replace(obs, events=EventLines(()), step_events=0)
            k = KINDS.index(next(kind for kind in KINDS if kind.key == raw[-1][3]))
            if obs.deck_count[rival] and placed(blind, False, False)[rival].get(k, (0, 0))[0] == 0:
                return state, viewer, rival, raw[-1][3]
    raise AssertionError("no seeded game has a rival recruit that only the log places")


def _without_log(state: Any, events: list[str] | None = None) -> Any:
    """The same position read back from JSON with another log (none by default): a table that
    joined at this point, or one told the round differently."""
    data = state.to_json()
    data["state"]["events"] = [] if events is None else events
    data["state"].pop("step", None)
    return GAME.state_from_json(data)


def test_the_log_places_a_rivals_recruit():
    """A recruit goes to the recruiter's hand: the seat that saw it in the log has the card in
    ``known_hand``; the same position seen without that log line does not."""
    state, viewer, rival, key = _recruit_seen()
    enc = GorusArenaEncoder(state.options)
    slot = kind_keys(state.options).index(key)
    held = sum(KEY[c] == key for c in (*cards_of(state.hand[rival]), *state.plan[rival]))
    assert held >= 1  # true: the recruit is in the rival's hand
    for seat in (viewer, None):  # the log is public: the spectator saw it too
        v = enc.views(enc.encode(state.observation(seat)))
        assert 1 <= v["known_hand"][rival, slot] <= held
    saw = state.observation(viewer)
    later = _without_log(state).observation(viewer)  # a seat that did not see the recruit
    assert _key(later) == _key(saw)  # the same position in every other field
    v = enc.views(enc.encode(later))
    assert v["known_hand"][rival, slot] < enc.views(enc.encode(saw))["known_hand"][rival, slot]
    # the full log read back as text (what a saved position holds) places the same
    again = _without_log(state, state.events).observation(viewer)
    assert (enc.encode(again) == enc.encode(saw)).all()


def test_equal_observations_outside_the_log_share_a_vector_only_with_equal_placements():
    """Two logs of the same position: one that narrates the same facts in another order gives
    the same vector; one that names another recruit places another card and gives another."""
    state, viewer, rival, key = _recruit_seen()
    enc = GorusArenaEncoder(state.options)
    lines = list(state.events)
    told = lines[-1]
    assert " recruits " in told
    saw = state.observation(viewer)
    # the recruit told one line earlier, before a line that is no reveal: the same facts, the same vector
    assert "reveals:" not in lines[-2]
    same = _without_log(state, [*lines[:-2], told, lines[-2]]).observation(viewer)
    assert _key(same) == _key(saw) and tuple(same.events) != tuple(saw.events)
    assert _known(same, state.options) == _known(saw, state.options)
    assert (enc.encode(same) == enc.encode(saw)).all()
    # a log naming another kind the rival holds out of sight: other facts, another vector
    other = min({KEY[c] for c in saw.reserve[rival]} - {key})
    changed = [*lines[:-1], told.replace(f"recruits {KIND_BY_KEY[key].name} ", f"recruits {KIND_BY_KEY[other].name} ")]
    diff = _without_log(state, changed).observation(viewer)
    assert _key(diff) == _key(saw)
    assert _known(diff, state.options) != _known(saw, state.options)
    assert (enc.encode(diff) != enc.encode(saw)).any()
