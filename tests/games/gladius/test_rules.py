"""One test (or more) for every Gladius rule in issue 3 and every documented reading."""

from __future__ import annotations

import pytest

from ludus.core.errors import IllegalAction, InvalidOptions
from ludus.core.game import CHANCE
from ludus.core.rng import Rng
from ludus.games.gladius.actions import (
    NO_ATTACK,
    NO_DEFENCE,
    AdversaryAttack,
    AdversaryDefend,
    Attack,
    Defend,
    Discard,
    DrawCard,
    FirstPlayer,
    MiniDraw,
    Reshuffle,
    SkipTurn,
)
from ludus.games.gladius.game import GAME

from .helpers import (
    ARMOR_S,
    BASH,
    DAGGER,
    DISARM,
    DUCK,
    KICK,
    NET,
    OVERHEAD,
    PARRY,
    SHIELD_BLOCK,
    SHIELD_M,
    SS,
    SWIPE,
    TRIDENT,
    WILD,
    WITHDRAW,
    draw,
    position,
    settle,
)


# ----------------------------------------------------------------------------- setup
def test_default_game_is_retiarius_against_secutor_with_ten_hit_points_each():
    state = GAME.new_initial_state()
    assert state.setup.sides[0].id == "retiarius" and state.setup.sides[1].id == "secutor"
    assert state.hp == [10, 10]
    assert state.setup.n_cards == 56
    assert GAME.seat_names(state.options) == ["Retiarius", "Secutor"]


def test_each_fighter_starts_with_two_cards_and_the_retiarius_moves_first():
    for f1, f2, first in [("retiarius", "secutor", 0), ("secutor", "retiarius", 1)]:
        state = GAME.new_initial_state({"fighter1": f1, "fighter2": f2}, seed=3)
        # the first player has drawn its Maneuver card: 2 + 1
        assert state.active == first
        assert state.hands[first].bit_count() == 3
        assert state.hands[1 - first].bit_count() == 2
        assert state.current_seats() == (first,)


def test_deal_alternates_and_is_hidden_from_the_other_seat():
    state = GAME.new_initial_state({}, seed=None)
    targets = []
    for _ in range(4):
        action = state.chance_outcomes()[0][0]
        targets.append(action.seat)
        assert action.visible_to(action.seat, CHANCE) and not action.visible_to(1 - action.seat, CHANCE)
        assert not action.visible_to(None, CHANCE)
        state.apply(action, CHANCE)
    assert targets == [0, 1, 0, 1]


@pytest.mark.parametrize("opts, expected", [
    ({"fighter1": "murmillo", "fighter2": "thracian"}, 0),  # no Retiarius: fighter 1 (documented)
    ({"fighter1": "retiarius", "fighter2": "retiarius"}, 0),  # two: fighter 1
    ({"fighter1": "murmillo", "fighter2": "thracian", "first": "fighter2"}, 1),
    ({"fighter1": "secutor", "fighter2": "retiarius", "first": "fighter1"}, 0),
])
def test_first_player_option(opts, expected):
    assert GAME.new_initial_state(opts, seed=1).first == expected


def test_random_first_player_is_a_fair_chance_node():
    state = GAME.new_initial_state({"first": "random"}, seed=None)
    assert state.chance_outcomes() == [(FirstPlayer(0), 0.5), (FirstPlayer(1), 0.5)]
    state.apply(FirstPlayer(1), CHANCE)
    assert state.first == 1
    firsts = {GAME.new_initial_state({"first": "random"}, seed=s).first for s in range(20)}
    assert firsts == {0, 1}


def test_invalid_options_are_refused_with_a_reason():
    with pytest.raises(InvalidOptions, match=r"unknown fighter type 'gaul'.*secutor"):
        GAME.parse_options({"fighter1": "gaul"})
    with pytest.raises(InvalidOptions, match="starting-hand"):
        GAME.parse_options({"starting_hand": 6})
    with pytest.raises(InvalidOptions, match="at most 3"):
        GAME.parse_options({"solo_defence_hand": 4})


# ----------------------------------------------------------------------------- maneuver
def test_maneuver_draws_one_card_at_the_start_of_a_turn():
    state = position(phase="defend", active=1, hands=([DUCK], [KICK]), table=SS)
    state.apply(NO_DEFENCE, 0)
    assert state.phase == 2 and state.active == 0  # DRAW, a chance node for seat 0
    draw(state, PARRY)
    assert state.hands[0].bit_count() == 2
    assert state.current_seats() == (0,)


def test_hand_limit_makes_the_player_choose_a_discard():
    hand = [TRIDENT, TRIDENT, NET, DUCK, DAGGER]
    state = position(phase="defend", active=1, hands=(hand, [KICK]), table=BASH)
    state.apply(NO_DEFENCE, 0)
    draw(state, SS)  # a sixth card
    assert state.observation(0).phase == "discard"
    legal = state.legal_actions(0)
    assert set(legal) == {Discard(k) for k in hand + [SS]}
    with pytest.raises(IllegalAction, match="first discard down to 5"):
        state.apply(Attack(TRIDENT), 0)
    with pytest.raises(IllegalAction, match="you do not hold Parry"):
        state.apply(Discard(PARRY), 0)
    state.apply(Discard(DUCK), 0)  # the player's choice, not the drawn card
    assert state.hands[0].bit_count() == 5
    assert state.observation(0).phase == "attack"
    assert (DUCK, 1) in state.observation(None).discard  # discards are face up


def test_hand_limit_option():
    state = position({"hand_limit": 3, "starting_hand": 2}, phase="defend", active=1,
                     hands=([TRIDENT, NET, DUCK], []), table=BASH)
    state.apply(NO_DEFENCE, 0)
    draw(state, DAGGER)
    assert state.observation(0).phase == "discard"


def test_no_discard_at_or_under_the_limit():
    state = position(phase="defend", active=1, hands=([TRIDENT, TRIDENT, NET, DUCK], []), table=BASH)
    state.apply(NO_DEFENCE, 0)
    draw(state, DAGGER)
    assert state.observation(0).phase == "attack"


# ----------------------------------------------------------------------------- attack
def test_attack_only_with_attack_cards_your_fighter_may_use():
    state = position(hands=([TRIDENT, WITHDRAW, SS, KICK], []))
    legal = state.legal_actions(0)
    assert legal == [Attack(KICK), Attack(TRIDENT)]  # attacking is compulsory by default
    assert position({"attack": "optional"}, hands=([TRIDENT, WITHDRAW, SS, KICK], [])).legal_actions(0) == [
        Attack(KICK), Attack(TRIDENT), NO_ATTACK]
    with pytest.raises(IllegalAction, match="Sword Stab \\(Secutor\\) is a Secutor card; a Retiarius cannot use it"):
        state.apply(Attack(SS), 0)
    with pytest.raises(IllegalAction, match=r"Withdraw .* is a defence card"):
        state.apply(Attack(WITHDRAW), 0)
    with pytest.raises(IllegalAction, match="you do not hold Dagger"):
        state.apply(Attack(DAGGER), 0)
    with pytest.raises(IllegalAction, match="no Bogus card"):
        state.apply(Attack("secutor/Bogus"), 0)


def test_with_the_attack_optional_no_attack_is_always_allowed_and_ends_the_turn():
    state = position({"attack": "optional"}, hands=([TRIDENT], []))
    state.apply(NO_ATTACK, 0)
    assert state.active == 1 and state.observation(None).last_result == "no attack"


# ----------------------------------------------------------------------------- defence & hit
def test_unanswered_damage_attack_takes_hit_points():
    state = position(hands=([TRIDENT], [PARRY]))
    state.apply(Attack(TRIDENT), 0)
    assert state.current_seats() == (1,)
    assert state.legal_actions(1) == [Defend(PARRY), NO_DEFENCE]
    state.apply(NO_DEFENCE, 1)
    assert state.hp == [10, 7]
    assert state.observation(None).last_result == "hit"


def test_block_stops_damage_and_both_cards_are_discarded():
    state = position(hands=([TRIDENT], [SHIELD_BLOCK]))
    state.apply(Attack(TRIDENT), 0)
    state.apply(Defend(SHIELD_BLOCK), 1)
    assert state.hp == [10, 10]
    disc = dict(state.observation(None).discard)
    assert disc == {TRIDENT: 1, SHIELD_BLOCK: 1}
    assert state.lock == [-1, -1]  # a Block costs nothing next turn


def test_block_cannot_stop_immobilize():
    state = position(hands=([NET], [SHIELD_BLOCK, PARRY, DUCK]))
    state.apply(Attack(NET), 0)
    assert state.legal_actions(1) == [Defend(DUCK), NO_DEFENCE]
    with pytest.raises(IllegalAction, match="a Block cannot stop Cast Net, which immobilizes; only an Evade can"):
        state.apply(Defend(PARRY), 1)
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply(Defend(SHIELD_BLOCK), 1)
    assert state.to_json() == before  # refused moves change nothing


def test_evade_stops_immobilize_and_damage():
    for attack in (NET, TRIDENT):
        state = position(hands=([attack], [DUCK]))
        state.apply(Attack(attack), 0)
        state.apply(Defend(DUCK), 1)
        assert state.hp == [10, 10] and state.skip == [False, False]
        assert state.observation(None).last_result == "evaded"


def test_defence_only_with_cards_your_fighter_may_use():
    state = position(hands=([SHIELD_BLOCK, WITHDRAW, TRIDENT], [SS]), active=1, phase="attack")
    state.apply(Attack(SS), 1)
    assert state.legal_actions(0) == [Defend(WITHDRAW), NO_DEFENCE]
    with pytest.raises(IllegalAction, match="Secutor card; a Retiarius cannot use it"):
        state.apply(Defend(SHIELD_BLOCK), 0)
    with pytest.raises(IllegalAction, match="attack card; to defend play a Block or an Evade"):
        state.apply(Defend(TRIDENT), 0)


def test_immobilize_makes_the_opponent_skip_its_next_turn_without_drawing():
    state = position(hands=([NET, TRIDENT], [KICK]))
    state.apply(Attack(NET), 0)
    state.apply(NO_DEFENCE, 1)
    assert state.skip == [False, True]
    assert state.chance_outcomes() == [(SkipTurn(1), 1.0)]
    pile = state.pile
    settle(state)
    assert state.pile == pile and state.hands[1].bit_count() == 1  # no Maneuver draw in a lost turn
    assert state.active == 0 and state.skip == [False, False]
    draw(state, DAGGER)
    assert state.current_seats() == (0,)  # the attacker plays again


def test_immobilized_fighter_may_still_defend():
    state = position(hands=([NET, TRIDENT], [DUCK]))
    state.apply(Attack(NET), 0)
    state.apply(NO_DEFENCE, 1)
    settle(state)
    draw(state, DAGGER)
    state.apply(Attack(TRIDENT), 0)
    assert Defend(DUCK) in state.legal_actions(1)


def test_evade_lockout_bars_the_next_attack_only():
    state = position({"attack": "optional"}, hands=([TRIDENT, TRIDENT], [DUCK, SS, SS]))
    state.apply(Attack(TRIDENT), 0)
    state.apply(Defend(DUCK), 1)
    draw(state, SS)
    assert state.legal_actions(1) == [NO_ATTACK]
    with pytest.raises(IllegalAction, match="you may not attack this turn: you evaded with Duck last turn"):
        state.apply(Attack(SS), 1)
    state.apply(NO_ATTACK, 1)
    draw(state, KICK)
    state.apply(NO_ATTACK, 0)
    draw(state, PARRY)
    assert Attack(SS) in state.legal_actions(1)  # the turn after is free again


def test_wild_swing_bars_the_murmillos_next_attack_whatever_the_outcome():
    for defence in (None, SHIELD_BLOCK, DUCK):
        state = position({"fighter1": "murmillo", "fighter2": "secutor", "attack": "optional"},
                         hands=([WILD, SWIPE], [SHIELD_BLOCK, DUCK, SS]))
        state.apply(Attack(WILD), 0)
        state.apply(Defend(defence), 1)
        assert state.hp[1] == (7 if defence is None else 10)
        draw(state, KICK)
        if defence == DUCK:  # the Evade bars the Secutor too
            assert state.legal_actions(1) == [NO_ATTACK]
        else:
            assert Attack(SS) in state.legal_actions(1)
        state.apply(NO_ATTACK, 1)
        draw(state, PARRY)
        assert state.legal_actions(0) == [NO_ATTACK]
        with pytest.raises(IllegalAction, match="a Wild Swing costs your next attack"):
            state.apply(Attack(SWIPE), 0)


def test_other_heavy_attacks_have_no_lockout():
    state = position({"fighter1": "murmillo", "fighter2": "secutor", "attack": "optional"},
                     hands=([OVERHEAD, SWIPE], []))
    state.apply(Attack(OVERHEAD), 0)
    state.apply(NO_DEFENCE, 1)
    assert state.hp[1] == 6
    draw(state, KICK)
    state.apply(NO_ATTACK, 1)
    draw(state, PARRY)
    assert Attack(SWIPE) in state.legal_actions(0)


def test_a_lost_turn_uses_up_a_pending_lockout():
    # Murmillo swings wild, then is immobilized: the lost turn is "its next turn" (documented)
    state = position({"fighter1": "murmillo", "fighter2": "secutor", "attack": "optional"},
                     hands=([WILD, SWIPE], [DISARM]))
    state.apply(Attack(WILD), 0)
    state.apply(NO_DEFENCE, 1)
    draw(state, KICK)
    state.apply(Attack(DISARM), 1)
    state.apply(NO_DEFENCE, 0)
    assert state.lock[0] >= 0 and state.skip[0]
    settle(state)  # Murmillo loses the turn
    assert state.lock[0] == -1
    draw(state, PARRY)
    state.apply(NO_ATTACK, 1)
    draw(state, SHIELD_M)
    assert Attack(SWIPE) in state.legal_actions(0)


def test_reaching_zero_hit_points_ends_the_game():
    state = position(hands=([TRIDENT], []), hp=(10, 2))
    state.apply(Attack(TRIDENT), 0)
    state.apply(NO_DEFENCE, 1)
    assert state.is_terminal() and state.hp == [10, 0]
    assert state.winners() == [0] and state.returns() == [1.0, 0.0]
    assert state.scores() == [10.0, 0.0]
    assert state.observation(None).end == "knockout"
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply(NO_ATTACK, 1)


# ----------------------------------------------------------------------------- deck
def test_empty_deck_reshuffles_the_discards():
    state = position(phase="defend", active=1, hands=([DUCK], [KICK]), table=BASH, pile=[])
    discards = state.discard
    state.apply(NO_DEFENCE, 0)
    assert state.chance_outcomes() == [(Reshuffle(), 1.0)]
    state.apply(Reshuffle(), CHANCE)
    assert state.pile & discards == discards  # the old discards (and the Shield Bash) are the new deck
    assert state.discard == 0 and state.reshuffles == 1
    assert state.pile.bit_count() == 56 - 2
    obs = state.observation(0)
    assert obs.opponent_known == (KICK,) and obs.opponent_unknown == 0  # all other cards are accounted for
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)


def test_reshuffle_off_ends_the_game_when_a_draw_is_needed():
    state = position({"reshuffle": False}, phase="defend", active=1, hands=([DUCK], [KICK]), table=BASH,
                     pile=[], hp=(9, 6))
    state.apply(NO_DEFENCE, 0)
    assert state.is_terminal() and state.observation(None).end == "deck"
    assert state.winners() == [0]  # more hit points wins
    tie = position({"reshuffle": False}, phase="defend", active=1, hands=([], []), table=KICK, pile=[],
                   hp=(9, 8))
    tie.apply(NO_DEFENCE, 0)
    assert tie.winners() == [0, 1] and tie.returns() == [0.5, 0.5]


def test_turn_limit_ends_the_game():
    state = position({"turn_limit": 3}, hands=([], []), turn=3, hp=(5, 7))
    state.apply(NO_ATTACK, 0)
    assert state.is_terminal() and state.observation(None).end == "turn-limit"
    assert state.winners() == [1]


def test_draw_probabilities_follow_the_card_counts():
    state = GAME.new_initial_state({}, seed=None)
    outcomes = {a.card: p for a, p in state.chance_outcomes()}
    assert outcomes[TRIDENT] == pytest.approx(8 / 56) and outcomes[KICK] == pytest.approx(2 / 56)
    assert sum(outcomes.values()) == pytest.approx(1.0)


def test_seeded_and_explicit_chance_agree():
    seeded = GAME.new_initial_state({}, seed=11)
    rng = Rng(0)
    while not seeded.is_terminal():
        seeded.apply(rng.choice(seeded.legal_actions()))
    explicit = GAME.new_initial_state({}, seed=None)
    for seat, action in seeded.history:
        explicit.apply(action, seat)
    assert explicit._position() == seeded._position()


# ----------------------------------------------------------------------------- mirror matches
def test_mirror_match_deck_twice_or_once():
    twice = GAME.new_initial_state({"fighter1": "secutor", "fighter2": "secutor"})
    once = GAME.new_initial_state({"fighter1": "secutor", "fighter2": "secutor", "mirror": "once"})
    assert twice.setup.n_cards == 56 and once.setup.n_cards == 38
    assert twice.setup.kinds[twice.setup.index[SS]].count == 16
    assert GAME.seat_names(twice.options) == ["Secutor 1", "Secutor 2"]


# ----------------------------------------------------------------------------- solo
SOLO = {"solo": True}


def test_solo_is_a_one_seat_game_with_a_rule_driven_opponent():
    state = GAME.new_initial_state(SOLO, seed=4)
    assert GAME.num_seats(state.options) == 1 and GAME.seat_names(state.options) == ["Retiarius"]
    assert state.hands[1] == 0
    rng = Rng(1)
    while not state.is_terminal():
        assert state.current_seats() == (0,)
        state.apply(rng.choice(state.legal_actions(0)), 0)
        assert state.hands[1] == 0  # the opponent never holds a hand
    assert len(state.scores()) == 1 and state.winners() in ([], [0])


def test_solo_opponent_defends_from_a_two_card_mini_hand_and_prefers_a_block():
    state = position(SOLO, hands=([TRIDENT], []))
    state.apply(Attack(TRIDENT), 0)
    assert state.mini_left == 2
    draw(state, DUCK)
    draw(state, ARMOR_S)
    assert state.chance_outcomes() == [(AdversaryDefend(ARMOR_S), 1.0)]
    settle(state)
    assert state.hp == [10, 10] and state.lock[1] == -1
    assert dict(state.observation(0).discard) == {TRIDENT: 1, DUCK: 1, ARMOR_S: 1}  # whole mini-hand discarded


def test_solo_opponent_uses_only_an_evade_against_immobilize_and_only_its_own_cards():
    state = position(SOLO, hands=([NET], []))
    state.apply(Attack(NET), 0)
    draw(state, ARMOR_S)
    draw(state, WITHDRAW)  # a Retiarius card: the Secutor cannot use it
    assert state.chance_outcomes() == [(AdversaryDefend(None), 1.0)]
    state.apply(AdversaryDefend(None), CHANCE)
    assert state.skip[1] and state.chance_outcomes() == [(SkipTurn(1), 1.0)]


def test_solo_opponent_evade_bars_its_next_attack():
    state = position(SOLO, hands=([TRIDENT], []))
    state.apply(Attack(TRIDENT), 0)
    draw(state, DUCK)
    draw(state, KICK)
    state.apply(AdversaryDefend(DUCK), CHANCE)
    # its turn: no mini-hand is drawn, it cannot attack
    assert state.chance_outcomes() == [(AdversaryAttack(None), 1.0)]


def test_solo_opponent_attacks_with_the_best_card_of_a_three_card_mini_hand():
    state = position(SOLO, phase="attack", hands=([], []))
    state.apply(NO_ATTACK, 0)
    assert state.mini_left == 3
    for key in (KICK, SS, DISARM):
        draw(state, key)
    assert state.chance_outcomes() == [(AdversaryAttack(SS), 1.0)]
    settle(state)
    assert state.current_seats() == (0,) and state.observation(0).table == SS
    assert dict(state.observation(0).discard) == {KICK: 1, DISARM: 1}
    state.apply(NO_DEFENCE, 0)
    assert state.hp[0] == 7


def test_solo_mini_hand_sizes_come_from_the_type_and_the_options():
    lion = GAME.setup({"solo": True, "fighter2": "lion"})
    assert (lion.mini_def, lion.mini_atk) == (1, 3)
    custom = GAME.setup({"solo": True, "solo_defence_hand": 3, "solo_attack_hand": 1})
    assert (custom.mini_def, custom.mini_atk) == (3, 1)
    state = position({"solo": True, "solo_attack_hand": 1}, hands=([], []))
    state.apply(NO_ATTACK, 0)
    draw(state, KICK)
    assert state.observation(0).phase == "adversary-attack"


def test_solo_mini_hand_is_public():
    state = position(SOLO, hands=([TRIDENT], []))
    state.apply(Attack(TRIDENT), 0)
    action = state.chance_outcomes()[0][0]
    assert isinstance(action, MiniDraw) and action.visible_to(0, CHANCE) and action.visible_to(None, CHANCE)


def test_solo_immobilized_opponent_loses_its_turn():
    state = position(SOLO, hands=([NET], []))
    state.apply(Attack(NET), 0)
    draw(state, KICK)
    draw(state, KICK)
    settle(state)
    assert state.active == 0 and state.phase == 2  # straight back to the player's draw
    assert any(isinstance(a, SkipTurn) for _, a in state.history)


def test_solo_winner_is_the_player_only_on_a_knockout_or_more_hit_points():
    won = position(SOLO, hands=([TRIDENT], []), hp=(4, 3))
    won.apply(Attack(TRIDENT), 0)
    draw(won, KICK)
    draw(won, KICK)
    settle(won)
    assert won.is_terminal() and won.winners() == [0]
    lost = position({"solo": True, "turn_limit": 3}, hands=([], []), hp=(3, 3), turn=3)
    lost.apply(NO_ATTACK, 0)
    assert lost.is_terminal() and lost.winners() == []  # a tie is not a win in solo


def test_chance_actions_are_not_player_moves():
    state = position(hands=([TRIDENT], []))
    with pytest.raises(IllegalAction, match="not a player's move"):
        state.apply(DrawCard(0, KICK), 0)


def test_solo_reshuffle_in_the_middle_of_a_mini_hand_round_trips():
    state = position(SOLO, hands=([TRIDENT], []), pile=[KICK])
    state.apply(Attack(TRIDENT), 0)
    draw(state, KICK)  # the deck is now empty with one mini-hand card still to draw
    assert state.chance_outcomes() == [(Reshuffle(), 1.0)]
    copy = GAME.state_from_json(state.to_json())
    assert copy._position() == state._position()
    state.apply(Reshuffle(), CHANCE)
    assert state.observation(0).phase == "mini-defence" and state.observation(0).table == TRIDENT
