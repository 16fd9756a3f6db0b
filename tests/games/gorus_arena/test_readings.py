"""The readings of the source text that issue #16 made options (where used cards go, how an
empty hand is refilled), the examples the card list cannot reproduce, and round 1's setup
checked in positions."""

from __future__ import annotations

import json

import pytest

from ludus.core import records
from ludus.core.bits import bits_list
from ludus.core.errors import IllegalAction, RecordError
from ludus.core.game import CHANCE
from ludus.games import get_game
from ludus.games.gorus_arena.actions import ATTACK, PICK, RECRUIT, MarketDraw, Pick, action_from_json
from ludus.games.gorus_arena.cards import CARD, GLADIATOR_MASK, KEY, KINDS
from ludus.games.gorus_arena.game import GAME
from ludus.games.gorus_arena.heuristic import GorusArenaHeuristic

from .helpers import card_of, draw_any, plan, table


# ----------------------------------------------------------------- used cards
def test_by_default_used_cards_come_back_through_the_discard_pile():
    state = table({0: ["tired-fighter", "slave"], 1: ["tired-fighter", "slave"]}, coins={0: 0, 1: 0},
                  armoury=False)
    assert state.options.used_cards == "discard"
    plan(state, 0, "tired-fighter")
    plan(state, 1, "tired-fighter")
    draw_any(state)
    assert state.hand[0].bit_count() == 2 and state.phase == "plan"


def test_used_cards_leave_play_with_the_leave_reading():
    state = table({0: ["tired-fighter", "slave"], 1: ["tired-fighter", "slave"]}, coins={0: 0, 1: 0},
                  armoury=False, used_cards="leave")
    plan(state, 0, "tired-fighter")
    plan(state, 1, "tired-fighter")
    assert not any("new draw pile" in e for e in state.events)
    # nothing to draw: both hands stay empty, so both take three from the market
    assert state.phase == "draw"
    assert all(type(a) is MarketDraw for a, _ in state.chance_outcomes())
    used = state.discard[0]
    assert {KEY[c] for c in bits_list(used)} == {"tired-fighter", "slave"}
    for _ in range(6):
        state.apply(state.chance_outcomes()[0][0], CHANCE)
    assert state.phase == "plan" and state.hand[0].bit_count() == 3
    assert state.discard[0] == used and not state.deck[0]  # put away, never drawn again
    # the used cards are still alive: they score with the rest of the team
    assert state.score(0) == sum(CARD[c].points for c in bits_list(state.hand[0] | used))


# ----------------------------------------------------------------- refill
def _emptied(**options):
    """A 2-player position where seat 2 has lost everything and seat 1 has drawn: seat 2 refills next."""
    state = table({0: ["dimachaerus", "thumbs-down"], 1: ["professional", "retiarius"]}, **options)
    plan(state, 0, "dimachaerus")
    plan(state, 1, "professional")
    state.apply(ATTACK[card_of(state, 1, "professional")], 0)
    state.apply(ATTACK[card_of(state, 1, "retiarius")], 0)
    state.apply(state.chance_outcomes()[0][0], CHANCE)
    state.apply(state.chance_outcomes()[0][0], CHANCE)
    return state


def test_by_default_the_refill_is_three_random_market_gladiators():
    state = _emptied()
    assert state.options.refill == "random" and state.current_seats() == (CHANCE,)
    assert {a.card for a, _ in state.chance_outcomes()} == set(bits_list(state.market & GLADIATOR_MASK))


def test_with_refill_choose_the_empty_handed_player_picks_three_from_the_market():
    state = _emptied(refill="choose")
    assert state.current_seats() == (1,)
    legal = state.legal_actions(1)
    assert all(type(a) is Pick for a in legal)
    assert {a.card for a in legal} == {KEY[c] for c in bits_list(state.market & GLADIATOR_MASK)}
    assert PICK.get("thumbs-down") is None  # action cards never refill a hand
    with pytest.raises(IllegalAction, match="only gladiators"):
        state.apply(Pick("thumbs-down"), 1)
    with pytest.raises(IllegalAction):
        state.chance_outcomes()
    with pytest.raises(IllegalAction, match="empty"):
        state.apply(RECRUIT["secutor"], 1)
    coins = state.coins[1]
    for kind in ("champion", "champion", "secutor"):
        state.apply(PICK[kind], 1)
    assert state.coins[1] == coins  # free
    assert sorted(KEY[c] for c in bits_list(state.hand[1])) == ["champion", "champion", "secutor"]
    assert state.phase == "plan"
    assert sum("picks" in e for e in state.events) == 3
    with pytest.raises(IllegalAction):
        state.apply(PICK["secutor"], 1)  # planning now


def test_a_pick_of_a_kind_that_is_gone_is_refused_and_changes_nothing():
    state = _emptied(refill="choose")
    state.apply(PICK["champion"], 1)
    state.apply(PICK["champion"], 1)
    before = state.to_json()
    with pytest.raises(IllegalAction, match="no Champion"):
        state.apply(PICK["champion"], 1)
    assert state.to_json() == before


def test_pick_json_round_trips_and_bad_picks_are_record_errors():
    assert action_from_json({"do": "pick", "card": "secutor"}, 5) == PICK["secutor"]
    assert PICK["secutor"].to_json() == {"do": "pick", "card": "secutor"}
    with pytest.raises(RecordError, match="action card"):
        action_from_json({"do": "pick", "card": "testudo"}, 5)


@pytest.mark.parametrize("options", [{"used_cards": "leave"}, {"refill": "choose"},
                                     {"used_cards": "leave", "refill": "choose", "players": 4}])
def test_the_new_readings_play_whole_games_and_replay(options):
    state = GAME.new_initial_state(options, seed=5)
    bots = {s: GorusArenaHeuristic(seed=s) for s in range(state.num_seats())}
    while not state.is_terminal():
        seat = state.current_seats()[0]
        state.apply(bots[seat].act(state.view(seat)), seat)
    record = records.record_of(state, seed=5)
    again = records.replay(records.loads(record.dumps()), get_game)
    assert again.scores() == state.scores()


def test_an_old_record_without_the_new_options_replays_with_todays_rules():
    """Records stored before the options existed keep the rules they were played under."""
    state = GAME.new_initial_state({"players": 3}, seed=21)
    bots = {s: GorusArenaHeuristic(seed=s) for s in range(3)}
    while not state.is_terminal():
        seat = state.current_seats()[0]
        state.apply(bots[seat].act(state.view(seat)), seat)
    data = json.loads(records.record_of(state, seed=21).dumps())
    for key in ("used_cards", "refill", "used-cards"):
        data["options"].pop(key, None)
    again = records.replay(records.loads(json.dumps(data)), get_game)
    assert again.options.used_cards == "discard" and again.options.refill == "random"
    assert again.scores() == state.scores()
    assert GAME.parse_stored_options({"players": 3}).refill == "random"


# ----------------------------------------------------------------- the text's examples
def test_the_auction_example_of_an_attack_3_against_a_defence_2_cannot_happen_with_the_card_list():
    """The sentence table says so: no card with the defence action has strength 2."""
    attack_3 = [k.key for k in KINDS if "attack" in k.actions and k.strength == 3]
    defence_2 = [k.key for k in KINDS if "defence" in k.actions and k.strength == 2]
    assert attack_3 and not defence_2


def test_the_attack_example_can_happen_a_strength_3_attacker_kills_a_tired_fighter():
    tired = next(k for k in KINDS if k.key == "tired-fighter")
    assert tired.defence == 2
    assert any("attack" in k.actions and k.strength == 3 for k in KINDS)


# ----------------------------------------------------------------- positions against the setup
def _setup_position(players: int = 3) -> dict:
    return json.loads(json.dumps(GAME.new_initial_state({"players": players}, seed=4).to_json()))


@pytest.mark.parametrize("change, field", [
    (lambda st: st["coins"].__setitem__(1, 7), "'coins'"),
    (lambda st: st["dead"].append(st["market"].pop()), "'dead'"),
])
def test_round_one_planning_must_be_the_setup(change, field):
    pos = _setup_position()
    change(pos["state"])
    with pytest.raises(RecordError, match=field):
        GAME.state_from_json(pos)


def test_round_one_has_no_draw_pile_or_discards():
    pos = _setup_position()
    st = pos["state"]
    st["deck"][0] = [st["market"].pop()]
    with pytest.raises(RecordError, match="'deck'"):
        GAME.state_from_json(json.loads(json.dumps(pos)))
    pos = _setup_position()
    st = pos["state"]
    st["discard"][2] = [st["market"].pop()]
    with pytest.raises(RecordError, match="'discard'"):
        GAME.state_from_json(pos)


def test_round_one_hand_must_be_the_three_basics():
    pos = _setup_position()
    st = pos["state"]
    st["hand"][0].append(st["market"].pop(0))  # a fourth card, a recruit nobody paid for
    with pytest.raises(RecordError, match="'hand'"):
        GAME.state_from_json(pos)


def test_a_three_player_position_with_a_fourth_seats_cards_is_refused():
    pos = _setup_position(3)
    four = _setup_position(4)["state"]
    pos["state"]["hand"].append(four["hand"][3])
    with pytest.raises(RecordError, match="'hand'"):
        GAME.state_from_json(pos)


def _drawing_position(**options) -> dict:
    state = GAME.new_initial_state({"players": 3, **options}, seed=None)
    while state.phase != "draw":
        seat = state.current_seats()[0]
        state.apply(state.legal_actions(seat)[-1], seat)
    return json.loads(json.dumps(state.to_json()))


def test_draws_that_would_break_the_hand_limit_are_refused():
    pos = _drawing_position()
    st = pos["state"]
    seat = st["draws"][0][0]
    st["draws"][0][2] = 2
    st["draws"][0][3] = 0
    GAME.state_from_json(json.loads(json.dumps(pos)))  # two to draw into an empty hand: fine
    extra = [c for c in st["market"] if c < 48][:4]  # four market gladiators into that hand
    for c in extra:
        st["market"].remove(c)
    st["hand"][seat] = sorted(st["hand"][seat] + extra)
    with pytest.raises(RecordError, match=r"'draws'.* more than 5 cards"):
        GAME.state_from_json(pos)
