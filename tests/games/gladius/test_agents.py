"""The Gladius heuristic: legal, sensible in set pieces, and clearly stronger than random."""

from __future__ import annotations

import pytest

from ludus.agents.base import RandomAgent, make_agent
from ludus.games.gladius.actions import NO_ATTACK, NO_DEFENCE, Attack, Defend, Discard
from ludus.games.gladius.game import GAME
from ludus.games.gladius.heuristic import GladiusHeuristic, p_holds_any

from .helpers import DAGGER, DISARM, DUCK, KICK, NET, PARRY, SHIELD_BLOCK, SS, TRIDENT, WITHDRAW, position


def play(options, agents, seed):
    state = GAME.new_initial_state(options, seed=seed)
    while not state.is_terminal():
        seat = state.current_seats()[0]
        view = state.view(seat)
        action = agents[seat].act(view)
        assert action in view.legal_actions
        state.apply(action, seat)
    return state


def test_registry_gives_the_gladius_heuristic():
    assert isinstance(make_agent("heuristic", GAME, seed=1), GladiusHeuristic)


def test_heuristic_beats_random_clearly():
    wins = 0.0
    n = 80
    pairs = [("retiarius", "secutor"), ("murmillo", "thracian"), ("samnite", "postulati"), ("dimachaeri", "lion")]
    for i in range(n):
        f1, f2 = pairs[i % len(pairs)]
        me = (i // 4) % 2
        state = play({"fighter1": f1, "fighter2": f2}, {me: GladiusHeuristic(i), 1 - me: RandomAgent(i)}, i)
        if me in state.winners():
            wins += 1 / len(state.winners())
    assert wins / n >= 0.85


def test_heuristic_does_better_than_random_in_solo():
    def rate(make):
        return sum(play({"solo": True, "fighter1": "secutor", "fighter2": "lion"}, {0: make(i)}, i).winners() == [0]
                   for i in range(120)) / 120
    assert rate(GladiusHeuristic) > rate(RandomAgent) + 0.15


def test_p_holds_any():
    assert p_holds_any(1, 0, 10, 0) == 1.0
    assert p_holds_any(0, 0, 10, 3) == 0.0
    assert p_holds_any(0, 5, 10, 1) == pytest.approx(0.5)
    assert p_holds_any(0, 1, 10, 2) == pytest.approx(0.2)


def act(state, seat):
    return GladiusHeuristic(0).act(state.view(seat))


def test_keeps_its_last_defence_for_a_big_hit():
    small = position({"fighter1": "secutor", "fighter2": "retiarius"}, phase="attack", active=1, first=1,
                     hands=([SHIELD_BLOCK, SS], [KICK, TRIDENT]))
    small.apply(Attack(KICK), 1)
    assert act(small, 0) == NO_DEFENCE  # 1 damage at full health: keep the Block
    big = position({"fighter1": "secutor", "fighter2": "retiarius"}, phase="attack", active=1, first=1,
                   hands=([SHIELD_BLOCK, SS], [KICK, TRIDENT]))
    big.apply(Attack(TRIDENT), 1)
    assert act(big, 0) == Defend(SHIELD_BLOCK)
    lethal = position({"fighter1": "secutor", "fighter2": "retiarius"}, phase="attack", active=1, first=1,
                      hands=([SHIELD_BLOCK, SS], [KICK, TRIDENT]), hp=(1, 10))
    lethal.apply(Attack(KICK), 1)
    assert act(lethal, 0) == Defend(SHIELD_BLOCK)


def test_prefers_a_block_to_an_evade():
    state = position({"fighter1": "secutor", "fighter2": "retiarius"}, phase="attack", active=1, first=1,
                     hands=([DUCK, PARRY, SS], [TRIDENT]))
    state.apply(Attack(TRIDENT), 1)
    assert act(state, 0) == Defend(PARRY)


def test_uses_immobilize_when_a_block_waits_and_damage_when_nothing_does():
    blocked = position(hands=([NET, TRIDENT], [SHIELD_BLOCK]), known=([SHIELD_BLOCK], []))
    assert act(blocked, 0) == Attack(NET)  # a Block cannot stop the net
    # the opponent holds nothing: the Trident does more than the net's tempo
    open_ = position(hands=([NET, TRIDENT], []))
    assert act(open_, 0) == Attack(TRIDENT)


def test_counts_the_cards_the_opponents_type_can_still_use():
    # every defence a Secutor may use is discarded: no attack can be stopped any more
    stops = [SHIELD_BLOCK] * 4 + ["secutor/Armor"] * 4 + [DUCK, DUCK, "both/Leap", "both/Leap", "both/Dodge",
                                                            "both/Dodge", PARRY, PARRY]
    state = position(hands=([TRIDENT, DAGGER], [KICK, KICK, WITHDRAW]), discard=stops)
    h = GladiusHeuristic(0)
    obs = state.observation(0)
    setup = GAME.setup(state.options)
    pool = h._pool(obs, setup)
    assert h._p_stopped(obs, setup, setup.kinds[setup.index[TRIDENT]], pool) == 0.0
    assert act(state, 0) == Attack(TRIDENT)
    # with the Secutor's blocks back in play, a stop is likely
    fresh = position(hands=([TRIDENT, DAGGER], [KICK, KICK, WITHDRAW]))
    obs = fresh.observation(0)
    assert h._p_stopped(obs, setup, setup.kinds[setup.index[TRIDENT]], h._pool(obs, setup)) > 0.5


def test_discards_cards_it_cannot_use_first():
    state = position(phase="discard", hands=([TRIDENT, NET, DUCK, DAGGER, DISARM, SS], []))
    assert act(state, 0) == Discard(SS)


def test_attacks_rather_than_waits():
    state = position(hands=([KICK], []))
    assert act(state, 0) != NO_ATTACK
