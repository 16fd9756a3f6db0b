"""Every Gorus Maximus rule, one test (or a few) each."""

from __future__ import annotations

import pytest

from ludus.core.errors import IllegalAction, InvalidOptions
from ludus.core.frozen import same_as_constructed
from ludus.core.game import CHANCE, HIDDEN
from ludus.core.rng import Rng
from ludus.games.gorus_maximus.actions import PLAY, ChooseSchools, Deal
from ludus.games.gorus_maximus.cards import RANK_MASKS, SCHOOL_MASKS, parse_card
from ludus.games.gorus_maximus.game import GAME

from .helpers import card_mask, dealt, play

THREE = {"players": 3, "schools": "BF,GA,PA", "first_dealer": 2}
HANDS3 = {
    0: "BF4 BF5 BF6 BF7 GA4 GA5 GA6 PA4 PA5 PA6",
    1: "BF10 BF11 BF12 GA7 GA8 GA9 PA7 PA8 PA9 PA10",
    2: "BF9 BF8 BF0 GA10 GA11 GA12 GA0 PA11 PA12 PA0",
}


# ----------------------------------------------------------------- setup
@pytest.mark.parametrize(
    "players, schools, ranks",
    [(1, 3, "0 4-12"), (2, 3, "0 4-12"), (3, 3, "0 4-12"), (4, 4, "0 4-12"), (5, 5, "0 4-12"),
     (6, 5, "0 3-13"), (7, 5, "0 2-14"), (8, 5, "0-15")],
)
def test_deck_by_player_count(players, schools, ranks):
    expected_ranks = set()
    for part in ranks.split():
        lo, _, hi = part.partition("-")
        expected_ranks.update(range(int(lo), int(hi or lo) + 1))
    state = GAME.new_initial_state({"players": players}, seed=players)
    deck = sum(state.hands) | state.stock | sum(1 << c for _, c in state.bout)
    assert len(state.schools) == schools
    assert deck.bit_count() == schools * len(expected_ranks)
    for s in range(5):
        lane = (deck & SCHOOL_MASKS[s]) >> (16 * s)
        if s in state.schools:
            assert {r for r in range(16) if lane >> r & 1} == expected_ranks
        else:
            assert lane == 0
    assert all(h.bit_count() == 10 for h in state.hands)
    assert state.stock.bit_count() + len(state.bout) == {1: 20, 2: 10}.get(players, 0)


def test_schools_for_small_games_are_random_by_default_and_can_be_fixed():
    seen = {GAME.new_initial_state({"players": 4}, seed=s).schools for s in range(30)}
    assert len(seen) > 1 and all(len(x) == 4 for x in seen)
    state = GAME.new_initial_state({"players": 3, "schools": "ys,pa,bs"}, seed=1)
    assert state.schools == (1, 3, 4)
    explicit = GAME.new_initial_state({"players": 3}, seed=None)
    assert explicit.is_chance_node() and len(explicit.chance_outcomes()) == 10  # C(5,3)
    explicit.apply(ChooseSchools((0, 2, 4)), CHANCE)
    assert explicit.schools == (0, 2, 4)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"players": 9}, "1 to 8 players, not 9"),
        ({"players": 0}, "1 to 8 players"),
        ({"players": 3, "schools": "BF,GA"}, "use 3 schools"),
        ({"players": 3, "schools": "BF,GA,XX"}, "unknown school code 'XX'"),
        ({"players": 3, "schools": "BF,BF,GA"}, "listed twice"),
        ({"players": 3, "teams": "2v1"}, "4 or more players"),
        ({"players": 5, "teams": "2v2"}, "add up to 4"),
        ({"players": 4, "teams": "AABB"}, "alternating order: seats 1 and 2"),
        ({"players": 4, "teams": "xyz"}, "suggested for 4 players: 2v2"),
        ({"players": 4, "first_dealer": 4}, "first-dealer"),
        ({"players": 4, "cf_table": "/nonexistent.toml"}, "cannot read CF table"),
    ],
)
def test_bad_options_are_explained(options, message):
    with pytest.raises(InvalidOptions, match=message):
        GAME.parse_options(options)


def test_dealer_left_leads_and_dealer_moves_left_each_round():
    state = GAME.new_initial_state({"players": 4, "first_dealer": 1}, seed=5)
    assert state.current_seats() == (2,)
    dealer0 = state.dealer
    from ludus.core.game import play_random
    from ludus.core.rng import Rng

    rng = Rng(1)
    while state.round == 1:
        state.apply(rng.choice(state.legal_actions()))
    if not state.is_terminal():
        assert state.dealer == (dealer0 + 1) % 4
        assert state.current_seats() == ((state.dealer + 1) % 4,)
    del play_random


# ----------------------------------------------------------------- bouts
def test_worked_example_ann_daniel_maureen():
    state = dealt(THREE, HANDS3)
    assert state.current_seats() == (0,)  # Ann, left of the dealer
    play(state, "BF4")
    assert state.initiating == state.preferred == 0  # Blue is both
    play(state, "BF10")
    # Maureen holds Blue 9 yet may Challenge with Green 10 (same rank as Daniel's 10)
    assert PLAY[parse_card("GA10")] in state.legal_actions()
    assert PLAY[parse_card("GA11")] not in state.legal_actions()
    play(state, "GA10")
    assert state.preferred == 2 and state.previous_winner == 2
    assert state.collected[2] == card_mask("BF4 BF10 GA10")
    assert state.crowd_favour(2) == 2
    assert state.current_seats() == (2,)  # Maureen leads next
    assert state.initiating == -1 and state.preferred == 2  # preferred carries over


def test_must_follow_and_the_refusal_explains_why():
    state = dealt(THREE, HANDS3)
    play(state, "BF4", "BF10")
    before = state.to_json()
    with pytest.raises(IllegalAction, match="you hold a Blue gladiator: follow Blue, or Challenge with a 10"):
        state.apply(PLAY[parse_card("GA11")])
    with pytest.raises(IllegalAction, match="you do not hold Blue 4"):
        state.apply(PLAY[parse_card("BF4")])
    with pytest.raises(IllegalAction, match="not seat 0's turn"):
        state.apply(PLAY[parse_card("BF5")], 0)
    assert state.to_json() == before


def test_void_player_may_play_anything_and_later_leads_set_only_initiating():
    hands = {
        0: "BF4 BF5 BF6 BF7 BF8 BF9 BF10 BF11 BF12 BF0",
        1: "GA4 GA5 GA6 GA7 GA8 GA9 GA10 GA11 GA12 GA0",
        2: "PA4 PA5 PA6 PA7 PA8 PA9 PA10 PA11 PA12 PA0",
    }
    state = dealt(THREE, hands)
    play(state, "BF12")
    assert len(state.legal_actions()) == 10  # no Blue: anything goes
    play(state, "GA4", "PA5")
    assert state.previous_winner == 0 and state.preferred == 0
    play(state, "BF11", "GA5", "PA11")  # Pink 11 sluffs; Blue preferred wins
    assert state.previous_winner == 0
    play(state, "BF4")
    play(state, "GA6")
    assert state.preferred == 0 and state.initiating == 0


def test_accidental_challenge_by_a_void_player_changes_preferred():
    hands = {
        0: "BF4 BF5 BF6 BF7 BF8 BF9 BF10 BF11 BF12 BF0",
        1: "GA4 GA5 GA6 GA7 GA8 GA9 GA10 GA11 GA12 GA0",
        2: "PA4 PA5 PA6 PA7 PA8 PA9 PA10 PA11 PA12 PA0",
    }
    state = dealt(THREE, hands)
    play(state, "BF5", "GA5")  # Green 5 matches the Blue 5: a Challenge, like it or not
    assert state.preferred == 2
    play(state, "PA12")
    assert state.previous_winner == 1  # Green is preferred; Green 5 beats the Blue 5


def test_challenge_with_the_preferred_or_initiating_school_keeps_working():
    hands = {
        0: "BF4 BF5 BF6 BF7 GA4 GA5 GA6 PA4 PA5 PA6",
        1: "BF10 BF11 BF12 GA7 GA8 GA9 PA7 PA8 PA9 PA10",
        2: "BF9 BF8 BF0 GA10 GA11 GA12 GA0 PA11 PA12 PA0",
    }
    state = dealt(THREE, hands)
    play(state, "GA6", "GA7")
    # seat 2 may not Challenge (no 7) and must follow Green
    assert {a.label for a in state.legal_actions()} == {"Green 10", "Green 11", "Green 12", "Green 0"}
    play(state, "GA0")
    assert state.previous_winner == 1
    # leader's card is never a Challenge even if its rank matches the last card of the previous bout
    play(state, "PA7")
    assert state.preferred == 2 and state.initiating == 3


def test_highest_preferred_wins_else_highest_initiating():
    hands = {
        0: "BF4 BF5 BF6 BF7 BF8 BF9 BF10 BF11 BF12 BF0",
        1: "GA4 GA5 GA6 GA7 GA8 GA9 GA10 GA11 GA12 GA0",
        2: "PA4 PA5 PA6 PA7 PA8 PA9 PA10 PA11 PA12 PA0",
    }
    state = dealt(THREE, hands)
    play(state, "BF12", "GA4", "PA5")  # Blue preferred and initiating
    assert state.previous_winner == 0
    play(state, "BF4", "GA12", "PA12")  # Pink 12 Challenges the Green 12: Pink preferred wins
    assert state.preferred == 3 and state.previous_winner == 2

    state = dealt(THREE, HANDS3)
    play(state, "BF4", "BF10", "GA10")  # Green preferred
    play(state, "PA11", "PA4", "PA7")  # no Green in the bout: highest Pink wins
    assert state.previous_winner == 2 and state.preferred == 2
    play(state, "PA0", "PA5", "PA10")
    assert state.previous_winner == 1


def test_previous_bout_is_visible_and_older_ones_are_not_on_the_table():
    state = dealt(THREE, HANDS3)
    play(state, "BF4", "BF10", "GA10")
    obs = state.observation(1)
    assert [c for _, c in obs.previous_bout] == [parse_card(x) for x in ("BF4", "BF10", "GA10")]
    play(state, "GA11", "GA4", "GA7")
    obs = state.observation(1)
    assert [c for _, c in obs.previous_bout] == [parse_card(x) for x in ("GA11", "GA4", "GA7")]


# ----------------------------------------------------------------- scoring
def test_crowd_favour_tally_example_and_zeros():
    state = dealt(THREE, HANDS3)
    state.preferred = 2
    state.collected[0] = card_mask("BF10 BF11 BF9 BF12 GA9 GA10 BF8 BF0 PA0")
    assert state.crowd_favour(0) == 1 + 1 + 2 + 1 + 2 + 1 - 4  # other schools' 0s are worthless
    state.collected[0] |= card_mask("GA0")
    assert state.crowd_favour(0) == 4 + 5  # only the preferred school's 0 is worth 5


def _play_round_randomly(state, rng):
    start = state.round
    while state.round == start and not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))


def test_support_goes_to_the_highest_crowd_favour_ties_all_score():
    from ludus.core.rng import Rng

    for seed in range(30):
        state = GAME.new_initial_state({"players": 4}, seed=seed)
        _play_round_randomly(state, Rng(seed))
        lr = state.last_round
        best = max(lr.crowd_favour)
        assert lr.support_gained == tuple(int(cf == best) for cf in lr.crowd_favour)
        assert sum(state.support) == sum(lr.support_gained)


def _final_bout_state(options, hands, support, collected, preferred):
    """A 3-player state with one card each left, supports and piles set up."""
    state = dealt(options, hands)
    # fast-forward: empty all but the first card of each hand into seat piles
    keep = {s: parse_card(hands[s].split()[0]) for s in hands}
    for s in hands:
        state.hands[s] = 1 << keep[s]
    state.support = list(support)
    for side, codes in collected.items():
        state.collected[side] = card_mask(codes)
        state.collected_count[side] = len(codes.split())
    state.preferred = preferred
    return state


BASE_HANDS = {
    0: "BF4 BF5 BF6 BF7 GA4 GA5 GA6 PA4 PA5 PA6",
    1: "BF5 BF11 BF12 GA7 GA8 GA9 PA7 PA8 PA9 PA10",
    2: "BF6 BF8 BF0 GA10 GA11 GA12 GA0 PA11 PA12 PA0",
}


def test_reaching_target_ends_the_game():
    hands = {0: "BF4 " + HANDS3[0].split(" ", 1)[1].replace("BF4 ", ""), 1: HANDS3[1], 2: HANDS3[2]}
    state = dealt(THREE, hands)
    state.hands = [card_mask("BF4"), card_mask("BF10"), card_mask("BF9")]
    state.support = [0, 2, 0]
    state.collected = [0, card_mask("GA9 GA10"), 0]
    state.collected_count = [0, 2, 0]
    play(state, "BF4", "BF10", "BF9")
    assert state.is_terminal() and state.winners() == [1]
    assert state.returns() == [0.0, 1.0, 0.0]


def test_simultaneous_target_tiebreak_preferred_zero_then_fewest_gladiators():
    # seats 0 and 1 tie on CF and both reach 3; seat 1 collected the preferred 0
    state = dealt(THREE, HANDS3)
    state.hands = [card_mask("BF4"), card_mask("BF5"), card_mask("BF6")]
    state.support = [2, 2, 0]
    state.preferred = 0
    state.collected = [card_mask("GA9 GA11 GA12 PA10"), card_mask("BF0 PA4 PA5 PA6 PA7 BF7"), card_mask("BF8")]
    state.collected_count = [4, 6, 1]
    play(state, "BF4", "BF5", "BF6")  # seat 2 wins this last bout (worth 0)
    assert state.last_round.crowd_favour[0] == state.last_round.crowd_favour[1] == 5
    assert state.is_terminal() and state.winners() == [1]

    state = dealt(THREE, HANDS3)
    state.hands = [card_mask("BF4"), card_mask("BF5"), card_mask("BF6")]
    state.support = [2, 2, 0]
    state.preferred = 0
    state.collected = [card_mask("GA9 GA10 GA11 PA4"), card_mask("PA9 PA10 PA11 PA5 PA6 PA7"), card_mask("BF8")]
    state.collected_count = [4, 6, 1]
    play(state, "BF4", "BF5", "BF6")
    assert state.last_round.crowd_favour[0] == state.last_round.crowd_favour[1] == 4
    assert state.winners() == [0]  # fewer gladiators collected this round


@pytest.mark.parametrize("final_tie, over", [("shared", True), ("play-on", False)])
def test_a_tie_after_both_tiebreaks(final_tie, over):
    state = dealt({**THREE, "final_tie": final_tie}, HANDS3)
    state.hands = [card_mask("BF4"), card_mask("BF5"), card_mask("BF6")]
    state.support = [2, 2, 0]
    state.preferred = 0
    state.collected = [card_mask("GA9 GA10 GA11 PA4"), card_mask("PA9 PA10 PA11 PA5"), card_mask("BF8")]
    state.collected_count = [4, 4, 1]
    play(state, "BF4", "BF5", "BF6")
    assert state.is_terminal() is over
    assert state.winners() == ([0, 1] if over else [])
    if not over:
        assert state.round == 2 and state.support == [3, 3, 0]


# ----------------------------------------------------------------- two players
def test_two_player_draw_after_each_card_hidden_from_the_opponent():
    state = GAME.new_initial_state({"players": 2}, seed=None)
    state.apply(ChooseSchools((0, 1, 2)), CHANCE)
    rng_cards = [o for o, _ in state.chance_outcomes()]
    while state.phase == "deal":
        seat = state.chance_outcomes()[0][0].seat
        card = next(c for c in (o.card for o, _ in state.chance_outcomes()))
        state.apply(Deal(card, seat), CHANCE)
    assert state.stock.bit_count() == 10 and rng_cards
    leader = state.current_seats()[0]
    state.apply(state.legal_actions()[0])
    assert state.is_chance_node()
    draw = state.chance_outcomes()[0][0]
    assert draw.seat == leader
    state.apply(draw, CHANCE)
    assert state.hands[leader].bit_count() == 10
    assert state.visible_history(1 - leader)[-1] == (CHANCE, HIDDEN)
    assert state.visible_history(leader)[-1] == (CHANCE, draw)
    assert state.current_seats() == (1 - leader,)


def test_two_player_round_has_fifteen_bouts():
    from ludus.core.rng import Rng

    state = GAME.new_initial_state({"players": 2}, seed=11)
    rng = Rng(2)
    bouts = 0
    last_prev = state.previous_bout
    while state.round == 1:
        state.apply(rng.choice(state.legal_actions()))
        if state.previous_bout is not last_prev and state.round == 1:
            bouts += 1
            last_prev = state.previous_bout
    assert state.last_round.collected_counts[0] + state.last_round.collected_counts[1] == 30
    assert bouts + 1 == 15  # the 15th bout ended the round and reset the table


# ----------------------------------------------------------------- solo
def test_solo_contender_leads_every_bout_and_plays_second_card():
    state = GAME.new_initial_state({"players": 1, "schools": "BF,GA,PA"}, seed=3)
    assert state.current_seats() == (0,)
    assert len(state.bout) == 1 and state.bout[0][0] == -2  # a contender led
    state.apply(state.legal_actions()[0])
    assert len(state.bout) == 1 and state.bout[0][0] == -2  # bout resolved, next contender led
    assert [a for a, _ in state.previous_bout] == [-2, 0, -2]
    assert state.stock.bit_count() == 20 - 3


def test_solo_without_an_eight_loses_the_round():
    from ludus.core.rng import Rng

    seen_no_eight = seen_scored = False
    for seed in range(40):
        state = GAME.new_initial_state({"players": 1}, seed=seed)
        rng = Rng(seed)
        while state.round == 1:
            state.apply(rng.choice(state.legal_actions()))
        lr = state.last_round
        got_eight = lr.no_eight is False
        if not got_eight:
            seen_no_eight = True
            assert lr.support_gained == (0, 1)
        else:
            seen_scored = True
            best = max(lr.crowd_favour)
            assert lr.support_gained == tuple(int(cf == best) for cf in lr.crowd_favour)
        assert sum(lr.collected_counts) == 30
    assert seen_no_eight and seen_scored


def test_solo_contender_cards_can_challenge():
    from ludus.core.rng import Rng

    found = False
    for seed in range(60):
        state = GAME.new_initial_state({"players": 1}, seed=seed)
        rng = Rng(seed)
        while not state.is_terminal() and state.round == 1:
            before = state.preferred
            mine = rng.choice(state.legal_actions())
            state.apply(mine)
            bout = state.previous_bout
            if bout and bout[1][1] & 15 == bout[2][1] & 15 and bout[2][1] >> 4 != before:
                found = True
                break
        if found:
            break
    assert found


# ----------------------------------------------------------------- teams
def test_team_presets_seat_teammates_apart():
    from ludus.games.gorus_maximus.options import TEAM_PRESETS, parse_teams

    for players, presets in TEAM_PRESETS.items():
        for preset in presets:
            seating = parse_teams(preset, players)
            sizes = sorted((seating.count(t) for t in set(seating)), reverse=True)
            assert sizes == sorted(map(int, preset.split("v")), reverse=True)
            if max(sizes) <= players // 2:
                assert all(seating[i] != seating[(i + 1) % players] for i in range(players))


def test_team_targets_are_size_plus_one_and_cf_is_pooled():
    state = GAME.new_initial_state({"players": 5, "teams": "2v2v1"}, seed=4)
    sizes = [state.side_of_seat.count(t) for t in range(3)]
    assert sorted(sizes) == [1, 2, 2]
    assert state.targets == tuple(s + 1 for s in sizes)
    from ludus.core.rng import Rng

    _play_round_randomly(state, Rng(9))
    lr = state.last_round
    assert len(lr.crowd_favour) == 3 and sum(lr.collected_counts) == 50
    # every seat of a team shares the team's support
    assert all(state.scores()[s] == state.support[state.side_of_seat[s]] for s in range(5))


def test_team_target_option_overrides():
    state = GAME.new_initial_state({"players": 4, "teams": "2v2", "team_target": 2}, seed=1)
    assert state.targets == (2, 2)


# ----------------------------------------------------------------- CF table file
def test_user_cf_table(tmp_path):
    good = tmp_path / "cf.toml"
    good.write_text("preferred_zero = 7\n[cf]\n" + "\n".join(f"{r} = {r}" for r in range(16)) + "\n")
    state = dealt({**THREE, "cf_table": str(good)}, HANDS3)
    state.preferred = 0
    state.collected[0] = card_mask("BF0 GA9")
    assert state.crowd_favour(0) == 7 + 9
    bad = tmp_path / "bad.toml"
    bad.write_text("[cf]\n0 = 0\n1 = 'x'\n")
    with pytest.raises(InvalidOptions, match=r"bad\.toml, line 3: cf: 1: Input should be a valid integer"):
        GAME.parse_options({"cf_table": str(bad)})
    broken = tmp_path / "broken.toml"
    broken.write_text("[cf\n")
    with pytest.raises(InvalidOptions, match=r"broken\.toml, line 1, column \d+: not valid TOML: Expected ']'"):
        GAME.parse_options({"cf_table": str(broken)})


def test_rank_masks_cover_each_rank_once():
    assert sum(m.bit_count() for m in RANK_MASKS) == 80


def test_observations_are_the_constructors_objects_through_a_whole_game():
    """observation_of builds with core.frozen's builder; every seat, every step, ends included."""
    for options in ({"players": 1}, {"players": 5, "teams": "2v2v1"}):
        state = GAME.new_initial_state(options, seed=7)
        rng = Rng(7)
        while True:
            for seat in (None, *range(state.num_seats())):
                obs = state.observation(seat)
                assert same_as_constructed(obs)
                assert hash(obs) == hash(type(obs)(**vars(obs)))
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
