"""Gorus Arena's compiled vector stepping plays exactly the Python vector environment's games.

``LudusVectorEnv(..., compiled=True)`` against ``compiled=False`` from the same seeds and the same
actions (random among the mask's, now and then an illegal number, which moves nothing): the same
observations, masks, rewards, terminations, truncations and infos at every step, over enough
steps that many games end and restart, for every player count, several learner seats, random
and heuristic opponents and every option value. The compiled steps are also checked directly
(:class:`CompiledSteps`) on states without a generator of their own loaded mid-game; the compiled
observation is shown to be the exact encoder's on every position of many games, positions read
back from JSON (a log of text lines) included, and to read nothing the learner may not see.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from ludus.core.rng import Rng
from ludus.games.gorus_arena.compiled import (
    L_KILL,
    L_MARKET,
    L_OTHER,
    L_RECRUIT,
    L_REVEAL,
    L_ROUND1,
    M_DECK,
    M_HAND,
    OFF_PLAN,
    PLAYOUTS,
    ROW,
    S_PLAN_LEN,
    SIZE,
    TABLE,
    TR_COUNT,
    TR_LINE,
    TR_RING,
    TRACED,
    WINDOW,
    WORD,
    _mask,
)
from ludus.games.gorus_arena.game import GAME
from ludus.games.gorus_arena.vector import _BASICS, _encode, _known_work, _trace
from ludus.games.gorus_arena.views import EVENTS_SHOWN
from ludus.interop.action_space import acting_seat, build_action_space
from ludus.interop.specs import encoder_for
from ludus.interop.vector_env import LudusVectorEnv

from ..vector_harness import (
    check_illegal_raises,
    check_partial_resets,
    check_steps_mid_game,
    check_switches,
    env_pair,
    lockstep,
    play_prefix,
)
from .test_compiled import CHOICES

CASES = [  # options, learner seat, opponents, sub-environments, steps
    ({}, 0, "random", 6, 250),
    ({}, 2, "heuristic", 6, 250),
    ({"players": 2}, 1, "random", 6, 250),
    ({"players": 2, "free_plan": True}, 0, "heuristic", 6, 250),
    ({"players": 4, "auction": "per-round", "attack_targets": "team"}, 3, "heuristic", 4, 250),
    ({"players": 5, "rounds": 3, "refill": "choose", "used_cards": "leave"}, 1, ["random", "heuristic", "random",
                                                                               "heuristic"], 4, 250),
    ({"players": 3, "free_plan": True, "attack_targets": "team", "defence_timing": "execution"}, 1, "heuristic",
     4, 250),
    ({"players": 4, "starting_player": "trailing", "tie_resolution": "turn-order", "tie_break": "shared",
      "armoury": False}, 0, "random", 4, 250),
    ({"players": 3, "rounds": 1, "attack_targets": "arena", "refill": "choose"}, 0, "heuristic", 6, 150),
    ({"players": 2, "rounds": 12, "starting_player": "fixed", "first-player": 2}, 1, "heuristic", 4, 250),
]


@pytest.mark.parametrize(("options", "seat", "opponents", "n", "steps"), CASES)
def test_same_trajectories(options: dict[str, Any], seat: int, opponents: Any, n: int, steps: int) -> None:
    fast, slow = env_pair("gorus-arena", options, seat, opponents, n)
    ended, illegal, _ = lockstep(fast, slow, steps, 17 + seat)
    assert ended >= n and illegal > 0  # games ended and restarted; illegal actions were met


def test_every_option_value() -> None:
    """Each option's every value, one at a time, three players, the learner at a changing seat."""
    ended = 0
    for i, (name, values) in enumerate(CHOICES.items()):
        for j, value in enumerate(values):
            fast, slow = env_pair("gorus-arena", {name.replace("_", "-"): value}, (i + j) % 3,
                                  "heuristic" if j % 2 else "random", 2)
            ended += lockstep(fast, slow, 60, 10 * i + j)[0]
    assert ended > 40


def test_rewards_of_wins_losses_and_shared_wins() -> None:
    """One-round games often end level: shared wins (a return below 1) as well as wins and losses."""
    fast, slow = env_pair("gorus-arena", {"players": 2, "rounds": 1, "tie-break": "shared"}, 0, "random", 8)
    _, _, rewards = lockstep(fast, slow, 120, 3)
    assert {0.0, 0.5, 1.0} <= rewards


def test_illegal_actions_penalized_or_raised() -> None:
    """The environment checks the learner's action before the compiled step sees it: a penalty
    (any amount) or the same error, either way."""
    fast, slow = env_pair("gorus-arena", {}, 0, "random", 4, illegal_penalty=-0.25)
    ended, illegal, _ = lockstep(fast, slow, 150, 8)
    assert ended > 0 and illegal > 0
    fast, slow = env_pair("gorus-arena", {"players": 2}, 1, "heuristic", 3, illegal_action="raise")
    check_illegal_raises(fast, slow)


def test_partial_resets_and_reseeding() -> None:
    fast, slow = env_pair("gorus-arena", {"players": 4}, 2, "heuristic", 6)
    check_partial_resets(fast, slow)


def test_compiled_by_default_off_without_the_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    assert LudusVectorEnv("gorus-arena", 2, {"players": 5}, seat=4, opponents="heuristic").compiled
    check_switches("gorus-arena", monkeypatch)


def test_refusals_fall_back_to_python() -> None:
    """``vector_steps`` refuses what it cannot step exactly (the environment then steps in Python)."""
    options = GAME.parse_options({})
    player = build_action_space(GAME, options).player
    assert PLAYOUTS.vector_steps(options, 2, 0, [None, "heuristic", "random"], player) is not None
    assert PLAYOUTS.vector_steps(options, 2, 2, ["random", "random", None], player) is not None
    assert PLAYOUTS.vector_steps({}, 2, 0, [None, "random", "random"], player) is None  # not parsed
    assert PLAYOUTS.vector_steps(options, 2, 0, ["random"] * 3, player) is None  # the learner's seat
    assert PLAYOUTS.vector_steps(options, 2, 0, [None, "random"], player) is None  # a seat short
    assert PLAYOUTS.vector_steps(options, 2, 3, [None, "random", "random"], player) is None  # no such seat
    assert PLAYOUTS.vector_steps(options, 2, 0, [None, "ismcts", "random"], player) is None
    names = [json.dumps(a.to_json()) for a in player]
    for drop in ('{"do": "done"}', '{"do": "place", "card": "slave"}', '{"do": "attack", "target": 0}',
                 '{"do": "pick", "card": "retiarius"}'):
        i = names.index(drop)
        assert PLAYOUTS.vector_steps(options, 2, 0, [None, "random", "random"], player[:i] + player[i + 1:]) is None
    # an attack on a card that is not in a two-player game needs no number
    two = GAME.parse_options({"players": 2})
    player = build_action_space(GAME, two).player
    i = names.index('{"do": "attack", "target": 14}')
    assert PLAYOUTS.vector_steps(two, 2, 0, [None, "random"], player[:i] + player[i + 1:]) is not None


def test_load_refuses_other_options_and_unreadable_lines() -> None:
    options = GAME.parse_options({})
    steps = PLAYOUTS.vector_steps(options, 1, 0, [None, "random", "random"], build_action_space(GAME, options).player)
    assert steps is not None
    for other in ({"players": 2}, {"free_plan": True}):
        state = GAME.new_initial_state(GAME.parse_options(other), seed=1)
        with pytest.raises(ValueError, match="other options"):
            steps.load(0, state, Rng(0), [None, Rng(1), Rng(2)])
    pos = GAME.new_initial_state(options, seed=1).to_json()
    for line in ("Seat 0 reveals: nothing", "Seat 1 reveals: " + ", ".join(["Professional Gladiator (attack 3)"] * 6)):
        bad = copy.deepcopy(pos)
        bad["state"]["events"] = [*bad["state"]["events"], line]
        state = GAME.state_from_json(bad)
        with pytest.raises(ValueError, match="cannot read"):
            steps.load(0, state, Rng(0), [None, Rng(1), Rng(2)])


@pytest.mark.parametrize(("values", "seat", "kinds"), [
    ({}, 0, [None, "heuristic", "random"]),
    ({"players": 2, "refill": "choose", "used_cards": "leave", "rounds": 8}, 1, ["random", None]),
    ({"players": 4, "free_plan": True, "attack_targets": "team"}, 2, ["heuristic", "random", None, "heuristic"]),
])
def test_steps_from_unseeded_states_mid_game(values: dict[str, Any], seat: int, kinds: list[str | None]) -> None:
    """``CompiledSteps`` itself, on states without a generator (every chance outcome drawn from the
    environment's ``rng`` by ``sample_chance``) loaded after a random prefix: the Python engine and
    the exact encoder give the same rows, masks, rewards and ends."""
    compared: list[int] = []

    def same_log(steps: Any, i: int, state: Any) -> None:  # the trace the rules wrote is the log's
        assert _lines(steps._st[i]) == _lines(_pack_trace(state)), len(state.log)
        compared.append(len(state.log))

    ended, drawing = check_steps_mid_game(GAME, PLAYOUTS, values, seat, kinds, slots=4, prefix=40, rounds=250,
                                          watch=lambda state: state.phase == "draw", also=same_log)
    assert ended >= 4 and max(compared) > WINDOW
    assert drawing > 0 or values.get("refill") != "choose"  # the learner picked refills from the market


def test_the_trace_window_is_the_observations() -> None:
    assert WINDOW == EVENTS_SHOWN


def _pack_trace(state: Any) -> np.ndarray:
    """The traced array :meth:`GorusArenaSteps.load` makes of ``state`` (its log reduced)."""
    st = np.zeros(TRACED, np.int64)
    st[SIZE:] = _trace(state.log, state.n)
    return st


def _lines(st: np.ndarray) -> list[tuple[int, ...]]:
    """A trace's count and window, each line as far as it means anything: the code, and for a
    line that can place a card its seat and kinds."""
    count = int(st[TR_COUNT])
    out: list[tuple[int, ...]] = [(count,)]
    for j in range(max(0, count - WINDOW), count):
        at = TR_RING + j % WINDOW * TR_LINE
        code, seat, nk = (int(v) for v in st[at:at + 3])
        out.append((code,) if code in (L_OTHER, L_ROUND1) else
                   (code, seat, nk, *st[at + 3:at + 3 + max(nk, 0)].tolist()))
    return out


def _traced(steps: Any, state: Any) -> np.ndarray:
    seats = state.n
    steps.load(0, state, Rng(0), [Rng(1 + s) for s in range(seats)])
    return steps._st[0].copy()


def _encode_row(steps: Any, st: np.ndarray, seat: int, size: int) -> np.ndarray:
    row = np.full(size, np.nan, np.float32)  # _encode zeroes it first
    _encode(st, TABLE, seat, steps._off, steps._cslot, steps._kslot, _BASICS, steps._free_plan, steps._team, row,
            _known_work(steps._kslot.shape[0]))
    return row


def _swap_hidden(st: np.ndarray, seat: int, pick: Rng) -> np.ndarray | None:
    """``st`` with one of ``seat``'s hand or plan cards swapped with one of its draw pile cards (the
    counts unchanged), or None when it has none of either."""
    h, d = _mask(M_HAND, seat), _mask(M_DECK, seat)
    deck = [c for c in range(2 * WORD) if st[d + c // WORD] >> (c % WORD) & 1]
    hand = [c for c in range(2 * WORD) if st[h + c // WORD] >> (c % WORD) & 1]
    plan = [int(st[OFF_PLAN + seat * ROW + j]) for j in range(int(st[S_PLAN_LEN + seat]))]
    if not deck or not hand + plan:
        return None
    out = st.copy()
    a, b = (hand + plan)[pick.below(len(hand + plan))], deck[pick.below(len(deck))]
    out[d + b // WORD] &= ~(1 << (b % WORD))
    out[d + a // WORD] |= 1 << (a % WORD)
    if a in hand:
        out[h + a // WORD] &= ~(1 << (a % WORD))
        out[h + b // WORD] |= 1 << (b % WORD)
    else:
        out[OFF_PLAN + seat * ROW + plan.index(a)] = b
    return out


@pytest.mark.parametrize("values", [
    {}, {"players": 2, "refill": "choose"}, {"players": 4, "free_plan": True, "attack_targets": "team"},
    {"players": 5, "rounds": 4, "auction": "per-round", "tie_resolution": "turn-order"},
])
def test_the_observation_is_the_encoders_and_reads_no_hidden_information(values: dict[str, Any]) -> None:
    """The compiled row of every position of many games (a traced state loaded from the Python
    one, chance nodes and the end included) is the exact encoder's, also for the same position
    read back from JSON whose log is text only (an older position, without ``event_codes``); it
    stays the same when a rival's hand or plan card and one of its draw pile cards trade places
    (the counts unchanged: where a hidden card lies is all a seat cannot see), and changes when
    the learner's own do."""
    options = GAME.parse_options(values)
    encoder = encoder_for(GAME, options)
    space = build_action_space(GAME, options)
    seats = options.players
    steps = PLAYOUTS.vector_steps(options, 1, 0, [None] + ["random"] * (seats - 1), space.player)
    assert steps is not None
    pick = Rng(3)
    positions = swapped = own = placed = reread = 0
    for game in range(12):
        state = GAME.new_initial_state(options, seed=game if game % 2 else None)
        rng = Rng(game)
        while True:
            st = _traced(steps, state)
            assert st[TR_COUNT] == len(state.log)
            if positions % 5 == 0:  # the same position with its log as text
                pos = json.loads(json.dumps(state.to_json()))
                assert GAME.state_from_json(pos).log == list(state.log)  # its event_codes: the same events
                del pos["state"]["event_codes"]  # an older position: its log as text only
                again = GAME.state_from_json(pos)
                assert all(type(e) is str for e in again.log)
                assert np.array_equal(_traced(steps, again), st)
                reread += 1
            for seat in range(seats):
                row = _encode_row(steps, st, seat, encoder.size)
                want = encoder.encode(state.observation(seat))
                assert np.array_equal(row, want), (game, seat, np.flatnonzero(row != want)[:8])
                positions += 1
                placed += int(want[encoder.offsets()["known_hand"]:encoder.offsets()["arena"]].any())
                if positions % 3:
                    continue
                other = (seat + 1 + pick.below(seats - 1)) % seats
                twin = _swap_hidden(st, other, pick)
                if twin is not None:
                    assert np.array_equal(_encode_row(steps, twin, seat, encoder.size), row), (game, seat)
                    swapped += 1
                mine = _swap_hidden(st, seat, pick)
                if mine is not None:
                    assert not np.array_equal(_encode_row(steps, mine, seat, encoder.size), row)
                    own += 1
            if acting_seat(state) is None:
                break
            play_prefix(state, rng, pick, 1)  # one move at random, or a chance step
    print(f"\n{positions} positions, {placed} with cards placed, {swapped} and {own} swaps, {reread} read back")
    assert swapped > 100 and own > 100 and reread > 50 and placed > positions // 4


def test_text_lines_place_what_their_events_place() -> None:
    """Hand-made text lines, appended to a game's log read back from JSON: the trace reads a
    recruit, a refill, a reveal and a kill as the event tuples' codes, a seat the game lacks as
    another line and a name this card list lacks as unknown, after which (a reveal with
    ``free_plan``) nothing older places that seat's cards; the compiled rows are the encoder's,
    with the unknown name and without it (which the encoder tells apart)."""
    options = GAME.parse_options({"players": 3, "free_plan": True, "attack_targets": "team"})
    steps = PLAYOUTS.vector_steps(options, 1, 0, [None, "random", "random"], build_action_space(GAME, options).player)
    assert steps is not None
    encoder = encoder_for(GAME, options)
    lines = [
        "Seat 2's Professional Gladiator recruits Murmillo for 3 coins",
        "Seat 3's hand is empty: takes Murmillo from the market",
        "Seat 2's Professional Gladiator (strength 3) attacks Seat 1's Murmillo (defence 2): killed",
        "Seat 9 reveals: nothing",
        "Seat 1 reveals: Slave (income 2), Nobody (attack 9)",
    ]
    differ = 0
    for seed in range(12):
        state = GAME.new_initial_state(options, seed=seed)
        play_prefix(state, Rng(seed), Rng(seed + 50), 60 + 7 * seed)
        rows = []
        for last in (lines[-1], lines[-1].replace(", Nobody (attack 9)", "")):
            pos = state.to_json()
            pos["state"]["events"] = [*pos["state"]["events"], *lines[:-1], last]
            again = GAME.state_from_json(pos)
            st = _traced(steps, again)
            got = _lines(st)[-len(lines):]
            assert [g[:3] for g in got[:3]] == [(L_RECRUIT, 1, 1), (L_MARKET, 2, 1), (L_KILL, 0, 1)]
            assert got[3] == (L_OTHER,)
            assert got[4][:3] == ((L_REVEAL, 0, -1) if last == lines[-1] else (L_REVEAL, 0, 1))
            for seat in range(3):
                row = _encode_row(steps, st, seat, encoder.size)
                assert np.array_equal(row, encoder.encode(again.observation(seat))), (seed, seat)
            rows.append(row)
        differ += not np.array_equal(*rows)
    assert differ > 0
