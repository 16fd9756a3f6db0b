"""Every Gorus Arena rule, one test (or a few) each. Card names refer to data/cards.toml."""

from __future__ import annotations

import pytest

from ludus.core.bits import bits_list
from ludus.core.errors import IllegalAction, InvalidOptions
from ludus.core.game import CHANCE, HIDDEN
from ludus.games.gorus_arena.actions import (
    ATTACK,
    DONE,
    INCOME_ACTION,
    PASS,
    PLACE,
    RECRUIT,
    Draw,
    MarketDraw,
)
from ludus.games.gorus_arena.cards import (
    ARMOURY_MASK,
    CARD,
    DEFENCE,
    GLADIATOR_MASK,
    KEY,
    KIND_BY_KEY,
    KINDS,
    MARKET_MASK,
    POINTS,
    STRENGTH,
    basics_of,
)
from ludus.games.gorus_arena.game import GAME

from .helpers import card_of, draw, draw_any, plan, table


def unchanged(state, action, seat, match):
    """Apply an illegal action: it raises with ``match`` in the reason and changes nothing."""
    before = state.to_json()
    history = list(state.history)
    with pytest.raises(IllegalAction, match=match):
        state.apply(action, seat)
    assert state.to_json() == before and state.history == history


# ----------------------------------------------------------------- cards and setup
def test_card_list_has_about_fifty_gladiators_and_action_cards_of_every_kind():
    gladiators = [c for c in CARD if c.gladiator]
    assert 45 <= len(gladiators) <= 55
    assert len({c.key for c in gladiators}) >= 8
    assert {a for k in KINDS if not k.gladiator for a in k.actions} == {"attack", "defence", "recruit", "income"}
    assert all(1 <= k.strength <= 5 for k in KINDS)
    # numbers the text gives
    assert KIND_BY_KEY["tired-fighter"].defence == 2
    assert KIND_BY_KEY["professional"].cost == 3


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_five_coins_two_tired_fighters_and_a_slave_rest_is_market(players):
    state = GAME.new_initial_state({"players": players}, seed=1)
    for s in range(players):
        assert state.coins[s] == 5
        assert sorted(KEY[c] for c in bits_list(state.hand[s])) == ["slave", "tired-fighter", "tired-fighter"]
        assert state.deck[s] == state.discard[s] == 0
    assert state.market & GLADIATOR_MASK == MARKET_MASK  # every other gladiator
    assert state.market & ARMOURY_MASK == ARMOURY_MASK  # action cards laid out apart
    assert state.dead == 0 and state.round == 1


def test_without_the_armoury_there_are_no_action_cards_to_buy():
    state = GAME.new_initial_state({"players": 2, "armoury": False}, seed=1)
    assert state.market & ARMOURY_MASK == 0


@pytest.mark.parametrize("options, message", [
    ({"players": 1}, "at least 2"),
    ({"players": 6}, "at most 5"),
    ({"players": 3, "first_player": 4}, "first-player must be a seat from 1 to 3"),
    ({"auction": "blind"}, "must be one of per-card, per-round"),
    ({"rounds": 0}, "at least 1"),
])
def test_bad_options_are_explained(options, message):
    with pytest.raises(InvalidOptions, match=message):
        GAME.parse_options(options)


# ----------------------------------------------------------------- planning
def test_planning_is_simultaneous_for_every_seat():
    state = GAME.new_initial_state({"players": 4}, seed=3)
    assert state.current_seats() == (0, 1, 2, 3)
    state.apply(PLACE["tired-fighter"], 2)
    assert state.current_seats() == (0, 1, 2, 3)  # seat 3 still orders a Tired Fighter and the Slave
    state.apply(PLACE["slave"], 2)
    assert state.current_seats() == (0, 1, 3)


def test_whole_hand_is_planned_and_the_last_card_is_placed_automatically():
    state = GAME.new_initial_state({"players": 2}, seed=3)
    state.apply(PLACE["slave"], 0)
    assert not state.ready[0] and state.legal_actions(0) == (PLACE["tired-fighter"],)
    state.apply(PLACE["tired-fighter"], 0)
    assert state.ready[0] and state.hand[0] == 0
    assert [KEY[c] for c in state.plan[0]] == ["slave", "tired-fighter", "tired-fighter"]
    assert state.current_seats() == (1,)


def test_finishing_a_plan_early_needs_the_free_plan_option():
    state = GAME.new_initial_state({"players": 2}, seed=3)
    unchanged(state, DONE, 0, "every card in your hand goes into your plan")
    with pytest.raises(IllegalAction) as refused:
        state.apply(DONE, 0)
    assert "fewer than" not in str(refused.value)  # said plainly, not "(you hold fewer than 6)"
    free = GAME.new_initial_state({"players": 2, "free_plan": True}, seed=3)
    unchanged(free, DONE, 0, "at least one card")
    free.apply(PLACE["slave"], 0)
    free.apply(DONE, 0)
    assert free.ready[0] and free.hand[0].bit_count() == 2  # the Tired Fighters stay in hand


def test_placing_a_card_you_do_not_hold_is_refused():
    state = GAME.new_initial_state({"players": 2}, seed=3)
    unchanged(state, PLACE["champion"], 0, "no Champion of the Arena in your hand")
    unchanged(state, ATTACK[20], 0, "planning phase")


def test_a_finished_plan_cannot_be_changed():
    state = GAME.new_initial_state({"players": 2}, seed=3)
    state.apply(PLACE["slave"], 0)
    state.apply(PLACE["tired-fighter"], 0)
    unchanged(state, PLACE["tired-fighter"], 0, "not seat 0's turn")


def test_plans_stay_secret_until_every_seat_has_planned():
    state = GAME.new_initial_state({"players": 3}, seed=3)
    state.apply(PLACE["slave"], 0)
    for viewer in (1, 2, None):
        assert state.visible_history(viewer)[-1] == (0, HIDDEN)
        obs = state.observation(viewer)
        assert obs.plan == () and obs.arena[0] == ()
    assert state.visible_history(0)[-1] == (0, PLACE["slave"])
    assert state.observation(0).plan == tuple(state.plan[0])
    for seat in (0, 1):
        state.apply(PLACE["tired-fighter"], seat)
    state.apply(PLACE["slave"], 1)
    assert state.phase == "plan" and state.current_seats() == (2,)
    state.apply(PLACE["slave"], 2)
    assert state.phase == "plan"
    state.apply(PLACE["tired-fighter"], 2)  # last plan: everything is revealed
    assert state.phase == "exec"
    for viewer in (1, 2, None):
        assert state.visible_history(viewer)[0] == (0, PLACE["slave"])
        assert state.observation(viewer).arena[0] == tuple(state.arena[0])


# ----------------------------------------------------------------- auction
def test_highest_strength_acts_first_even_when_not_the_starting_player():
    # the text's example: an attack of strength 3 beats a card of strength 2
    state = table({0: ["tired-fighter", "slave"], 1: ["professional", "slave"]})
    plan(state, 0, "tired-fighter")
    plan(state, 1, "professional")
    assert state.pending == (1, card_of(state, 1, "professional"))
    assert "Auction 1: Seat 2 wins with strength 3" in state.events


def test_tie_means_nobody_wins_and_turn_order_from_the_starting_player():
    state = table({0: ["professional", "slave"], 1: ["professional", "slave"], 2: ["professional", "slave"]},
                  players=3, first_player=2)
    for s in range(3):
        plan(state, s, "professional")
    assert "Auction 1: tie at strength 3, nobody wins; turn order" in state.events
    assert [s for s, _ in state.queue] == [1, 2, 0]


def test_after_the_winner_the_others_act_in_turn_order():
    state = table({0: ["tired-fighter", "slave"], 1: ["tired-fighter", "slave"], 2: ["secutor", "slave"]},
                  players=3, first_player=2)
    for s in range(3):
        plan(state, s, "slave")
    # auction 1: three Slaves (strength 1) tie; auction 2: the Secutor wins, then seats 2, 1 from the start
    while state.slot == 0:
        state.apply(PASS)
    assert [s for s, _ in state.queue] == [2, 1, 0]


def test_each_position_of_the_plan_is_its_own_auction():
    state = table({0: ["dimachaerus", "slave"], 1: ["slave", "secutor"]})
    plan(state, 0, "slave")  # Slave first, Dimachaerus second
    plan(state, 1, "secutor")  # Secutor first, Slave second
    assert state.pending[0] == 1  # auction 1: Secutor (4) beats Slave (1)
    state.apply(PASS, 1)
    assert state.pending[0] == 0  # seat 1's Slave still acts in auction 1
    state.apply(PASS, 0)
    assert state.slot == 1 and state.pending[0] == 0  # auction 2: Dimachaerus (5) beats Slave


def test_per_round_auction_fixes_the_order_by_the_strongest_card():
    state = table({0: ["dimachaerus", "slave"], 1: ["slave", "secutor"]}, auction="per-round")
    plan(state, 0, "slave")
    plan(state, 1, "secutor")
    assert state.order == [0, 1]
    assert state.pending[0] == 0  # seat 1's Slave acts before seat 2's Secutor
    state.apply(PASS, 0)
    assert state.pending[0] == 1


def test_a_card_killed_before_its_auction_neither_bids_nor_acts():
    state = table({0: ["dimachaerus", "tired-fighter"], 1: ["slave", "secutor"]}, coins={1: 0},
                  attack_targets="arena")
    plan(state, 0, "dimachaerus")
    plan(state, 1, "slave")
    secutor = card_of(state, 1, "secutor")
    state.apply(ATTACK[secutor], 0)  # auction 1: strength 5 kills the Secutor waiting for auction 2
    assert state.dead >> secutor & 1
    later = state.events[state.events.index("Seat 1's Dimachaerus (strength 5) attacks Seat 2's Secutor "
                                            "(defence 4): killed") + 1:]
    assert not any("Secutor" in e for e in later)
    assert not any(e.startswith("Auction 2") for e in later)  # the Tired Fighter was alone
    assert "Seat 1's Tired Fighter: income, +2 coins" in later


def test_the_auction_winner_strikes_before_the_loser_acts():
    state = table({0: ["dimachaerus", "slave"], 1: ["secutor", "tired-fighter"]}, coins={1: 0})
    plan(state, 0, "dimachaerus")
    plan(state, 1, "secutor")
    secutor = card_of(state, 1, "secutor")
    state.apply(ATTACK[secutor], 0)
    assert state.dead >> secutor & 1
    assert state.pending is None or state.pending[1] != secutor
    assert not any("Seat 2's Secutor (strength" in e for e in state.events)


def test_in_a_tied_auction_a_card_killed_during_it_still_acts():
    state = table({0: ["dimachaerus", "slave"], 1: ["dimachaerus", "slave"]})
    plan(state, 0, "dimachaerus")
    plan(state, 1, "dimachaerus")
    mine, theirs = card_of(state, 0, "dimachaerus"), card_of(state, 1, "dimachaerus")
    state.apply(ATTACK[theirs], 0)  # the starting player acts first in the tie...
    assert state.dead >> theirs & 1 and state.pending == (1, theirs)  # ...but nobody won: it strikes back
    assert "Seat 2's Dimachaerus is down but still acts: the auction was tied" in state.events
    state.apply(ATTACK[mine], 1)
    assert state.dead >> mine & 1


def test_turn_order_tie_resolution_lets_the_first_striker_cancel_the_other():
    state = table({0: ["dimachaerus", "slave"], 1: ["dimachaerus", "slave"]}, tie_resolution="turn-order")
    plan(state, 0, "dimachaerus")
    plan(state, 1, "dimachaerus")
    theirs = card_of(state, 1, "dimachaerus")
    state.apply(ATTACK[theirs], 0)
    assert state.pending is None or state.pending[1] != theirs
    assert not state.dead >> card_of(state, 0, "dimachaerus") & 1


# ----------------------------------------------------------------- attack
def test_attack_kills_only_when_stronger_than_the_defence():
    # Tired Fighter has defence 2: strength 3 kills it
    state = table({0: ["professional", "slave"], 1: ["tired-fighter", "murmillo"]}, defence_timing="execution")
    plan(state, 0, "professional")
    plan(state, 1, "tired-fighter")
    fighter = card_of(state, 1, "tired-fighter")
    before = state.score(1)
    state.apply(ATTACK[fighter], 0)
    assert state.dead >> fighter & 1
    assert state.score(1) == before - POINTS[fighter]
    assert fighter not in list(bits_list(state.owned(1)))


@pytest.mark.parametrize("target, defence", [("professional", 3), ("murmillo", 4)])
def test_attack_equal_or_weaker_than_the_defence_fails(target, defence):
    state = table({0: ["professional", "slave"], 1: [target, "tired-fighter"]}, defence_timing="execution")
    plan(state, 0, "professional")
    plan(state, 1, target)
    victim = card_of(state, 1, target)
    assert DEFENCE[victim] == defence and STRENGTH[card_of(state, 0, "professional")] == 3
    state.apply(ATTACK[victim], 0)
    assert not state.dead >> victim & 1
    assert "the attack fails" in state.events[-1] or any("the attack fails" in e for e in state.events)


def test_dead_gladiators_never_return_to_the_market_and_score_nothing():
    state = table({0: ["dimachaerus", "slave"], 1: ["secutor", "tired-fighter"]})
    plan(state, 0, "dimachaerus")
    plan(state, 1, "secutor")
    secutor = card_of(state, 1, "secutor")
    state.apply(ATTACK[secutor], 0)
    while not state.is_terminal():
        if state.is_chance_node():
            draw_any(state)
            continue
        seat = state.current_seats()[0]
        state.apply(state.legal_actions(seat)[0], seat)
        assert state.dead >> secutor & 1
        assert not state.market >> secutor & 1
        assert all(not state.owned(s) >> secutor & 1 for s in range(2))


def test_by_default_a_card_attacks_only_the_rival_cards_of_its_own_auction():
    state = table({0: ["professional", "slave"], 1: ["tired-fighter", "secutor", "shield-wall"]},
                  players=3, decks={1: ["retiarius"]}, defence_timing="execution")
    plan(state, 0, "professional")
    plan(state, 1, "tired-fighter", "secutor")
    own = card_of(state, 0, "slave")
    unchanged(state, ATTACK[own], 0, "cannot attack your own gladiator")
    unchanged(state, ATTACK[card_of(state, 1, "secutor")], 0, "same position")
    unchanged(state, ATTACK[card_of(state, 1, "retiarius")], 0, "same position")
    targets = [a.target for a in state.legal_actions(0) if a in ATTACK]
    assert targets == [card_of(state, 1, "tired-fighter")]


def test_arena_targets_option_reaches_every_revealed_rival_gladiator():
    state = table({0: ["professional", "slave"], 1: ["tired-fighter", "murmillo", "shield-wall"]},
                  decks={1: ["retiarius"]}, defence_timing="execution", attack_targets="arena")
    plan(state, 0, "professional")
    plan(state, 1, "tired-fighter", "murmillo")
    unchanged(state, ATTACK[card_of(state, 1, "retiarius")], 0, "not in the arena")
    unchanged(state, ATTACK[card_of(state, 1, "shield-wall")], 0, "action card, not a gladiator")
    targets = [a.target for a in state.legal_actions(0) if a in ATTACK]
    assert targets == sorted([card_of(state, 1, "tired-fighter"), card_of(state, 1, "murmillo")])


def test_team_targets_option_reaches_gladiators_out_of_sight():
    state = table({0: ["professional", "slave"], 1: ["tired-fighter", "shield-wall"]},
                  decks={1: ["retiarius"]}, attack_targets="team", defence_timing="execution")
    plan(state, 0, "professional")
    plan(state, 1, "tired-fighter")
    retiarius = card_of(state, 1, "retiarius")
    state.apply(ATTACK[retiarius], 0)
    assert state.dead >> retiarius & 1 and not state.deck[1] >> retiarius & 1


def test_an_attack_card_with_nobody_to_attack_is_skipped():
    state = table({0: ["professional", "slave"], 1: ["shield-wall", "patrons-purse"]}, coins={0: 0})
    plan(state, 0, "professional")
    plan(state, 1, "shield-wall")
    assert "Seat 1's Professional Gladiator: nobody to attack" in state.events


# ----------------------------------------------------------------- defence
def test_a_planned_defence_guards_from_the_reveal_by_default():
    # the defence card is planned last, yet it already protects against the earlier attack
    state = table({0: ["secutor", "slave"], 1: ["tired-fighter", "shield-wall"]}, coins={0: 0})
    plan(state, 0, "secutor")
    plan(state, 1, "tired-fighter")
    assert state.shield[1] == 3
    fighter = card_of(state, 1, "tired-fighter")
    state.apply(ATTACK[fighter], 0)  # strength 4 > guard 3: still kills
    assert state.dead >> fighter & 1
    state = table({0: ["professional", "slave"], 1: ["tired-fighter", "shield-wall"]}, coins={0: 0})
    plan(state, 0, "professional")
    plan(state, 1, "tired-fighter")
    fighter = card_of(state, 1, "tired-fighter")
    state.apply(ATTACK[fighter], 0)  # strength 3 against guard 3: fails
    assert not state.dead >> fighter & 1


def test_with_execution_timing_a_defence_guards_only_from_its_turn():
    state = table({0: ["professional", "slave"], 1: ["tired-fighter", "shield-wall"]},
                  coins={0: 0}, defence_timing="execution")
    plan(state, 0, "professional")
    plan(state, 1, "tired-fighter")
    assert state.shield[1] == 0
    fighter = card_of(state, 1, "tired-fighter")
    state.apply(ATTACK[fighter], 0)
    assert state.dead >> fighter & 1
    late = table({0: ["slave", "professional"], 1: ["shield-wall", "tired-fighter"]},
                 coins={0: 0}, defence_timing="execution")
    plan(late, 0, "slave")
    plan(late, 1, "shield-wall")
    assert late.shield[1] == 3  # the Shield Wall acted in auction 1
    fighter = card_of(late, 1, "tired-fighter")
    late.apply(ATTACK[fighter], 0)
    assert not late.dead >> fighter & 1


def test_guards_last_only_for_the_round():
    state = table({0: ["professional", "slave"], 1: ["tired-fighter", "shield-wall"]}, coins={0: 0})
    plan(state, 0, "professional")
    plan(state, 1, "tired-fighter")
    state.apply(PASS, 0)
    assert state.phase == "draw" and state.shield == [0, 0]


# ----------------------------------------------------------------- recruit and income
def test_recruit_pays_the_printed_cost_and_takes_the_card_into_the_hand():
    state = table({0: ["slave", "tired-fighter"], 1: ["slave", "tired-fighter"]}, coins={0: 5})
    plan(state, 0, "slave")
    plan(state, 1, "slave")
    assert state.pending == (0, card_of(state, 0, "slave"))
    in_market = (state.market & GLADIATOR_MASK).bit_count()
    state.apply(RECRUIT["professional"], 0)
    assert state.coins[0] == 2
    assert [KEY[c] for c in bits_list(state.hand[0])] == ["professional"]
    assert (state.market & GLADIATOR_MASK).bit_count() == in_market - 1


def test_recruit_needs_the_coins_a_card_in_the_market_and_room_in_the_hand():
    state = table({0: ["slave", "tired-fighter"], 1: ["slave", "tired-fighter"]}, coins={0: 4})
    plan(state, 0, "slave")
    plan(state, 1, "slave")
    unchanged(state, RECRUIT["secutor"], 0, "costs 5 coins and you have 4")
    unchanged(state, RECRUIT["slave"], 0, "no Slave left in the market")
    unchanged(state, INCOME_ACTION, 0, "cannot take income")
    for card in bits_list(state.market)[:5]:
        state.hand[0] |= 1 << card
        state.market &= ~(1 << card)
    unchanged(state, RECRUIT["professional"], 0, "hand is full")


def test_income_takes_two_coins_automatically():
    state = table({0: ["tired-fighter", "slave"], 1: ["tired-fighter", "slave"]}, coins={0: 5, 1: 5})
    plan(state, 0, "tired-fighter")
    plan(state, 1, "tired-fighter")
    assert state.coins == [7, 7]
    assert state.pending[0] == 0  # the Slaves' recruits are real choices


def test_a_card_with_two_actions_chooses_one_and_pass_is_always_allowed():
    state = table({0: ["eques", "tired-fighter"], 1: ["tired-fighter", "slave"]}, coins={0: 3})
    plan(state, 0, "eques")
    plan(state, 1, "tired-fighter")
    legal = state.legal_actions(0)
    assert INCOME_ACTION in legal and RECRUIT["professional"] in legal and legal[-1] == PASS
    state.apply(INCOME_ACTION, 0)
    assert "Seat 1's Eques: income, +2 coins" in state.events


# ----------------------------------------------------------------- end of round
def test_used_cards_are_discarded_and_two_cards_drawn_from_the_own_pile():
    state = table({0: ["tired-fighter", "slave"], 1: ["tired-fighter", "slave"]},
                  decks={0: ["professional", "secutor", "murmillo"]}, coins={0: 0, 1: 0}, armoury=False)
    plan(state, 0, "tired-fighter")
    plan(state, 1, "tired-fighter")
    assert state.phase == "draw" and state.current_seats() == (CHANCE,)
    assert {KEY[c] for c in bits_list(state.discard[0])} == {"tired-fighter", "slave"}
    outcomes = state.chance_outcomes()
    assert [KEY[a.card] for a, _ in outcomes] == ["professional", "murmillo", "secutor"]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    draw(state, "secutor")
    draw(state, "murmillo")
    assert {KEY[c] for c in bits_list(state.hand[0])} == {"secutor", "murmillo"}
    assert state.deck[0].bit_count() == 1


def test_an_empty_draw_pile_is_refilled_from_the_discard_pile():
    state = table({0: ["tired-fighter", "slave"], 1: ["tired-fighter", "slave"]}, coins={0: 0, 1: 0},
                  armoury=False)
    plan(state, 0, "tired-fighter")
    plan(state, 1, "tired-fighter")
    assert "Seat 1 turns the discard pile into a new draw pile" in state.events
    assert state.discard[0] == 0 and state.deck[0].bit_count() == 2
    draw_any(state)
    assert state.hand[0].bit_count() == 2 and state.phase == "plan"


def test_draws_stop_at_the_hand_limit_of_five():
    state = table({0: ["slave", "tired-fighter"], 1: ["tired-fighter", "slave"]},
                  decks={0: ["murmillo"]}, coins={0: 40, 1: 0})
    plan(state, 0, "slave")
    plan(state, 1, "tired-fighter")
    for kind in ("professional", "retiarius", "secutor", "thraex"):
        state.hand[0] |= 1 << next(c for c in bits_list(state.market) if KEY[c] == kind)
        state.market &= ~state.hand[0]
    state.apply(RECRUIT["eques"], 0)  # fifth card in hand
    assert state.hand[0].bit_count() == 5
    draw_any(state)
    assert state.hand[0].bit_count() == 5 and state.deck[0].bit_count() == 1


def test_a_player_whose_hand_stays_empty_draws_three_from_the_market():
    state = table({0: ["dimachaerus", "thumbs-down"], 1: ["professional", "retiarius"]})
    plan(state, 0, "dimachaerus")
    plan(state, 1, "professional")
    state.apply(ATTACK[card_of(state, 1, "professional")], 0)
    state.apply(ATTACK[card_of(state, 1, "retiarius")], 0)
    assert state.owned(1) == 0  # everything seat 2 had is dead
    state.apply(state.chance_outcomes()[0][0], CHANCE)
    state.apply(state.chance_outcomes()[0][0], CHANCE)  # seat 1 draws its two cards back
    outcomes = state.chance_outcomes()
    assert all(type(a) is MarketDraw and a.seat == 1 for a, _ in outcomes)
    assert {a.card for a, _ in outcomes} == set(bits_list(state.market & GLADIATOR_MASK))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    for _ in range(3):
        state.apply(state.chance_outcomes()[-1][0], CHANCE)
    assert state.hand[1].bit_count() == 3 and state.phase == "plan"
    assert sum("from the market" in e for e in state.events) == 3
    assert MarketDraw(1, 20).visible_to(0, CHANCE)  # taken from the open market: public
    assert not Draw(1, 20).visible_to(0, CHANCE) and Draw(1, 20).visible_to(1, CHANCE)


def test_starting_player_moves_each_round_unless_fixed():
    state = GAME.new_initial_state({"players": 3}, seed=11)
    starts = []
    from ludus.core.game import play_random
    from ludus.core.rng import Rng

    rng = Rng(2)
    while not state.is_terminal():
        if state.phase == "plan" and (not starts or starts[-1][0] != state.round):
            starts.append((state.round, state.start))
        seat = state.current_seats()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert [s for _, s in starts] == [0, 1, 2, 0, 1, 2]
    fixed = play_random(GAME.new_initial_state({"players": 3, "starting_player": "fixed", "first_player": 2}, seed=1),
                        Rng(3))
    assert fixed.start == 1


def test_trailing_start_gives_the_next_round_to_the_lowest_score():
    state = table({0: ["tired-fighter", "slave"], 1: ["tired-fighter", "slave"], 2: ["tired-fighter", "slave"]},
                  players=3, coins={0: 9, 1: 0, 2: 9}, starting_player="trailing", armoury=False)
    for s in range(3):
        plan(state, s, "slave")
    while not state.is_chance_node():
        state.apply(PASS)
    draw_any(state)
    assert state.round == 2 and state.start == 1  # seat 2 had the fewest points


# ----------------------------------------------------------------- end of game
def test_game_ends_after_six_rounds_and_scores_living_points_plus_a_point_per_three_coins():
    from ludus.core.game import play_random
    from ludus.core.rng import Rng

    state = play_random(GAME.new_initial_state({"players": 3}, seed=5), Rng(5))
    assert state.round == 6 and state.phase == "over" and state.current_seats() == ()
    for s in range(3):
        team = state.owned(s) & GLADIATOR_MASK
        assert state.scores()[s] == sum(POINTS[c] for c in bits_list(team)) + state.coins[s] // 3
    short = play_random(GAME.new_initial_state({"players": 2, "rounds": 2}, seed=5), Rng(5))
    assert short.round == 2 and short.is_terminal()


def test_most_points_wins_and_ties_go_to_more_coins_or_are_shared():
    state = table({0: ["tired-fighter", "slave"], 1: ["tired-fighter", "slave"]}, rounds=1,
                  coins={0: 4, 1: 3})
    plan(state, 0, "tired-fighter")
    plan(state, 1, "tired-fighter")
    state.apply(PASS, 0)
    state.apply(PASS, 1)
    assert state.is_terminal()
    assert state.scores() == [3.0, 2.0]  # a Tired Fighter (1) + 6 coins (2); 1 + 5 coins (1)
    assert state.winners() == [0]
    tie = table({0: ["tired-fighter", "slave"], 1: ["tired-fighter", "slave"]}, rounds=1,
                coins={0: 4, 1: 4}, tie_break="shared")
    plan(tie, 0, "tired-fighter")
    plan(tie, 1, "tired-fighter")
    tie.apply(PASS, 0)
    tie.apply(PASS, 1)
    assert tie.winners() == [0, 1] and tie.returns() == [0.5, 0.5]
    by_coins = table({0: ["tired-fighter", "slave"], 1: ["tired-fighter", "slave"]}, rounds=1,
                     coins={0: 4, 1: 5})
    plan(by_coins, 0, "tired-fighter")
    plan(by_coins, 1, "tired-fighter")
    by_coins.apply(PASS, 0)
    by_coins.apply(PASS, 1)
    assert by_coins.scores() == [3.0, 3.0] and by_coins.winners() == [1]  # 6 coins against 7


def test_basics_belong_to_their_seat():
    assert basics_of(0) & basics_of(1) == 0
    assert all(CARD[c].basic for c in bits_list(basics_of(4)))


# ----------------------------------------------------------------- what the pages are told
def test_the_latest_step_is_what_the_last_choice_set_off():
    """``step_events`` counts the log lines since the latest choice: the reveal the last
    placement caused, then an attack with what followed it automatically; a position keeps it."""
    state = table({0: ["dimachaerus", "slave"], 1: ["secutor", "tired-fighter"]}, coins={1: 0})
    plan(state, 0, "dimachaerus")
    obs = state.observation(1)
    assert obs.events[-obs.step_events:] == ("— Round 1 of 6: Seat 1 starts —",)  # a placement starts no step
    plan(state, 1, "secutor")  # the last placement turns every plan over
    obs = state.observation(1)
    step = obs.events[-obs.step_events:]
    assert step[0] == "Seat 1 reveals: Dimachaerus (attack 5), Slave (recruit 1)"
    assert step[-1] == "Auction 1: Seat 1 wins with strength 5"
    before = len(state.events)
    state.apply(ATTACK[card_of(state, 1, "secutor")], 0)
    obs = state.observation(None)
    assert obs.step_events == len(state.events) - before > 1
    assert obs.events[-obs.step_events].startswith("Seat 1's Dimachaerus (strength 5) attacks Seat 2's Secutor")


def test_a_position_keeps_the_latest_step():
    state = GAME.new_initial_state({"players": 3}, seed=7)
    while state.phase != "exec" or state.pending is None:  # up to the reveal's first choice
        seat = state.current_seats()[0]
        state.apply(state.legal_actions(seat)[0], seat)
    state.apply(PASS, state.current_seats()[0])
    assert state.observation(0).step_events > 0
    again = GAME.state_from_json(state.to_json())
    assert again.observation(0) == state.observation(0)
    older = state.to_json()
    del older["state"]["step"]  # a position saved before the field: nothing counts as latest
    assert GAME.state_from_json(older).observation(0).step_events == 0
