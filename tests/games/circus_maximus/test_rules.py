"""Circus Maximus core rules: setup, lines, resolution, scoring, days, game end."""

from __future__ import annotations

import pytest

from ludus.core.errors import IllegalAction, InvalidOptions
from ludus.core.game import CHANCE
from ludus.games.circus_maximus.actions import Done, Pass, Place, Sell, Skip, TakeFavour, TakeStart, TakeTicket
from ludus.games.circus_maximus.game import GAME

from .helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    all_pass,
    craft,
    deal,
    favour_keys,
    line,
    new,
    play,
    settle,
    ticket_keys,
)


# ------------------------------------------------------------------ setup
@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_deals_favours_tickets_and_visitors_by_player_count(players):
    st = deal(new(players))
    obs = st.observation(None)
    assert len(obs.favour_display) == players
    assert len(obs.forum) == 2 * players
    for v, venue in enumerate(("circus", "colosseum", "theatre")):
        tickets_here = sum(1 for t in obs.forum if t.startswith(venue + ":"))
        assert len(obs.venues[v]) == max(0, tickets_here - 1)
    assert obs.start_card_at_villa and obs.starting == 0
    assert all(h == tuple(range(1, 9)) for h in obs.hands)
    assert st.current_seats() == (0,) and obs.phase == 1 and obs.day == 1


def test_forum_tickets_are_listed_sorted_by_venue():
    st = deal(new(4), tickets=["theatre:box", "circus:box", "colosseum:arena", "circus:balcony",
                               "theatre:arena", "colosseum:box", "circus:arena", "theatre:balcony"])
    venues = [t.split(":")[0] for t in st.observation(0).forum]
    assert venues == sorted(venues, key=("circus", "colosseum", "theatre").index)


def test_venue_without_tickets_gets_no_visitors():
    st = deal(new(4), tickets=["circus:box"] * 2 + ["circus:arena"] * 2 + ["circus:balcony"] * 2
              + ["colosseum:box"] * 2)
    assert [len(v) for v in st.observation(None).venues] == [5, 1, 0]


def test_three_players_sort_out_one_of_each_favour_and_visitor():
    st = new(3)
    obs = st.observation(None)
    assert sorted(obs.favours_out) == sorted(k.key for k in st.data.favours)
    non_caesar = sorted(v.key for v in st.data.visitors if not v.caesar)
    assert sorted(obs.visitors_out) == sorted(non_caesar + ["caesar"])
    assert len(obs.favour_deck) == 9 and len(obs.visitor_deck) == 10
    st = new(3, caesar=True)
    assert len(st.observation(None).visitor_deck) == 11
    assert "caesar" not in st.observation(None).visitors_out


@pytest.mark.parametrize("players", [4, 5])
def test_four_and_five_players_use_every_card(players):
    obs = new(players).observation(None)
    assert obs.favours_out == () and obs.visitors_out == ("caesar",)
    assert len(obs.favour_deck) == 18 and len(obs.visitor_deck) == 15 and len(obs.ticket_deck) == 18


def test_player_count_option_is_checked():
    with pytest.raises(InvalidOptions):
        GAME.new_initial_state({"players": 2})
    with pytest.raises(InvalidOptions):
        GAME.new_initial_state({"players": 6})
    assert GAME.seat_names({"players": 4}) == ["Yellow", "Red", "Blue", "Green"]


# ------------------------------------------------------------------ lines
def test_rulebook_line_placement_and_villa_example():
    """Yellow 1, Red 6, Blue 4, Green 4; then Red 2 and Blue 3; picks R, B, G, B, R; Yellow nothing."""
    st = deal(new(4), favours=["extra_visitor", "extra_trader", "double_ticket", "move_ahead"])
    play(st, (YELLOW, Place(1, "villa")), (RED, Place(6, "villa")), (BLUE, Place(4, "villa")))
    assert [(s, r) for s, r, _ in line(st, "villa")] == [(RED, 6), (BLUE, 4), (YELLOW, 1)]
    play(st, (GREEN, Place(4, "villa")))
    assert [(s, r) for s, r, _ in line(st, "villa")] == [(RED, 6), (BLUE, 4), (GREEN, 4), (YELLOW, 1)]
    play(st, (YELLOW, Pass()), (RED, Place(2, "villa")), (BLUE, Place(3, "villa")), (GREEN, Pass()),
         (RED, Pass()), (BLUE, Pass()))
    assert [(s, r) for s, r, _ in line(st, "villa")] == [
        (RED, 6), (BLUE, 4), (GREEN, 4), (BLUE, 3), (RED, 2), (YELLOW, 1)]
    # resolution: one pick per trader from the front
    play(st, (RED, TakeFavour("extra_trader")), (BLUE, TakeFavour("move_ahead")),
         (GREEN, TakeStart()), (BLUE, TakeFavour("extra_visitor")), (RED, TakeFavour("double_ticket")))
    assert favour_keys(st, RED) == ["extra_trader", "double_ticket"]
    assert favour_keys(st, BLUE) == ["extra_visitor", "move_ahead"]
    assert favour_keys(st, GREEN) == [] and favour_keys(st, YELLOW) == []
    # Green took the starting-player card, so Green opens phase II
    assert st.starting == GREEN and st.stage == 2 and st.current_seats() == (GREEN,)


def test_pass_is_final_for_the_phase():
    st = deal(new(3))
    play(st, (0, Pass()), (1, Place(5, "villa")), (2, Place(3, "villa")), (1, Place(4, "villa")))
    # seat 0 passed, so after seat 2 it is seat 1 again
    play(st, (2, Pass()), (1, Place(2, "villa")), (1, Pass()))
    assert st.resolving


def test_phase_three_pass_ends_actions_at_every_venue():
    st = deal(new(3), tickets=["circus:box", "colosseum:box", "theatre:box", "circus:arena",
                               "colosseum:arena", "theatre:arena"])
    all_pass(st)  # phase I: nobody at the villa
    play(st, (0, Place(8, "forum")), (1, Place(7, "forum")), (2, Place(6, "forum")))
    all_pass(st)
    play(st, (0, TakeTicket("circus:box")), (1, TakeTicket("colosseum:box")), (2, TakeTicket("theatre:box")))
    assert st.stage == 3
    play(st, (0, Place(5, "circus")), (1, Pass()), (2, Place(5, "theatre")), (0, Pass()))
    assert st.current_seats() == (2,)
    with pytest.raises(IllegalAction):
        st.apply(Place(4, "colosseum"), 0)
    play(st, (2, Place(4, "colosseum")), (2, Pass()))
    assert st.resolving


def test_placing_in_the_wrong_line_or_a_used_trader_is_explained():
    st = deal(new(3))
    assert "Caesar's Villa" in st.why_illegal(Place(5, "forum"), 0)
    play(st, (0, Place(5, "villa")))
    play(st, (1, Pass()), (2, Pass()))
    reason = st.why_illegal(Place(5, "villa"), 0)
    assert "not in your hand" in reason
    before = st.to_json()
    with pytest.raises(IllegalAction):
        st.apply(Place(5, "villa"), 0)
    assert st.to_json() == before


def test_player_with_nothing_to_do_passes_automatically():
    st = deal(new(3))
    for rank in range(1, 9):
        play(st, (0, Place(rank, "villa")))
        if rank == 1:
            play(st, (1, Pass()), (2, Pass()))
    assert st.resolving  # seat 0 ran out of traders: its forced pass ended the phase


# ------------------------------------------------------------------ villa
def test_start_card_goes_to_first_trader_when_nobody_takes_it():
    st = deal(new(3), favours=["extra_visitor", "extra_trader", "legionnaire"])
    play(st, (0, Place(2, "villa")), (1, Place(7, "villa")), (2, Place(3, "villa")))
    all_pass(st)
    play(st, (1, TakeFavour("legionnaire")), (2, TakeFavour("extra_visitor")), (0, TakeFavour("extra_trader")))
    assert st.starting == 1 and st.current_seats() == (1,) and st.stage == 2


def test_untaken_favours_leave_the_game_and_back_traders_get_nothing():
    st = deal(new(4), favours=["extra_visitor", "extra_trader", "legionnaire", "rank_boost"])
    play(st, (0, Place(8, "villa")))
    all_pass(st)
    play(st, (0, TakeFavour("rank_boost")))
    # one trader, one pick: the other three favours are out of the game
    obs = st.observation(None)
    assert sorted(obs.favours_out) == ["extra_trader", "extra_visitor", "legionnaire"]
    assert obs.favour_display == () and not obs.start_card_at_villa and obs.starting == 0


def test_empty_villa_leaves_the_starting_player_unchanged():
    st = deal(new(3))
    all_pass(st)
    assert st.stage == 2 and st.starting == 0 and st.current_seats() == (0,)


def test_villa_picks_stop_when_cards_run_out():
    st = deal(new(3), favours=["extra_visitor", "extra_trader", "legionnaire"])
    for rank in (8, 7):
        play(st, (0, Place(rank, "villa")), (1, Place(rank - 2, "villa")), (2, Place(rank - 4, "villa")))
    all_pass(st)
    # 3 favours + the starting-player card = 4 picks for 6 traders
    play(st, (0, TakeFavour("legionnaire")), (0, TakeStart()), (1, TakeFavour("extra_visitor")),
         (1, TakeFavour("extra_trader")))
    assert st.stage == 2 and not st.resolving


# ------------------------------------------------------------------ forum and venues
def forum_day(players: int = 3, **deal_args):
    st = deal(new(players), **deal_args)
    all_pass(st)
    return st


def test_forum_picks_in_line_order_until_tickets_run_out():
    st = forum_day(3, tickets=["circus:box", "circus:arena", "colosseum:box", "colosseum:arena",
                               "theatre:box", "theatre:balcony"])
    play(st, (0, Place(5, "forum")), (1, Place(8, "forum")))
    all_pass(st)
    assert [(s, r) for s, r, _ in line(st, "forum")] == [(1, 8), (0, 5)]
    play(st, (1, TakeTicket("circus:box")), (0, TakeTicket("theatre:box")))
    assert ticket_keys(st, 0) == ["theatre:box"] and ticket_keys(st, 1) == ["circus:box"]
    assert st.stage == 3 and len(st.observation(None).forum) == 4  # leftovers stay until the day ends


def test_trader_too_far_back_gets_no_ticket():
    st = forum_day(3, tickets=["circus:box", "circus:arena", "colosseum:box", "colosseum:arena",
                               "theatre:box", "theatre:balcony"])
    for _ in range(3):
        for seat in range(3):
            play(st, (seat, Place(8 - _, "forum")))
    all_pass(st)
    # nine traders, six tickets: the last three traders get nothing
    for seat in (0, 1, 2, 0, 1, 2):
        st.apply(st.legal_actions()[0], seat)
    assert st.stage == 3
    assert [len(ticket_keys(st, s)) for s in range(3)] == [2, 2, 2]


def test_trader_without_a_ticket_for_the_venue_is_skipped():
    st = forum_day(3, tickets=["circus:box", "circus:arena", "circus:balcony", "colosseum:box",
                               "colosseum:arena", "theatre:box"], visitors=["senator", "student"])
    play(st, (0, Place(8, "forum")))
    all_pass(st)
    play(st, (0, TakeTicket("circus:box")))
    # seat 1 stands first at the Circus but holds no ticket there; seat 0 behind it sells
    play(st, (0, Place(3, "circus")), (1, Place(8, "circus")))
    all_pass(st)
    assert st.current_seats() == (0,)
    assert st.why_illegal(Skip(), 0) is not None  # holding a ticket, the trader must sell
    play(st, (0, Sell("senator", "circus:box")))
    assert st.observation(None).day_scores[0][0] == 3 + 6 + sum(st.data.trader_coins[r - 1] for r in (1, 2, 4, 5, 6, 7))


def test_sell_reasons():
    st = forum_day(3, tickets=["circus:box", "circus:arena", "circus:balcony", "colosseum:box",
                               "colosseum:arena", "theatre:box"], visitors=["senator", "student"])
    play(st, (0, Place(8, "forum")), (1, Place(7, "forum")))
    all_pass(st)
    play(st, (0, TakeTicket("circus:box")), (1, TakeTicket("colosseum:box")))
    play(st, (0, Place(6, "circus")))
    all_pass(st)
    assert "no Merchant" in st.why_illegal(Sell("merchant", "circus:box"), 0)
    assert "Colosseum" in st.why_illegal(Sell("senator", "colosseum:box"), 0)
    assert "no unsold" in st.why_illegal(Sell("senator", "circus:arena"), 0)
    assert "Caesar" in st.why_illegal(Sell("senator", None, "extra_trader"), 0)
    assert "Legionnaire" in st.why_illegal(Sell("senator", "circus:box", legion=True), 0)
    assert st.why_illegal(Sell("student", "circus:box"), 0) is None


def test_rulebook_scoring_example_is_fifteen_coins():
    """Colosseum balcony to a Senator 7, theatre arena to a Student 5, unsold balcony 0, traders 6/3/2 -> 3."""
    st = craft(4, stage=3, resolving=True, res_line=3, res_pos=0, starting=GREEN, sp_at_villa=False,
               lines={"villa": [(GREEN, 1, 1)], "forum": [(GREEN, 8, 8), (GREEN, 7, 7)],
                      "colosseum": [(GREEN, 5, 5)], "theatre": [(GREEN, 4, 4)]},
               tickets={GREEN: ["colosseum:balcony", "theatre:arena", "theatre:balcony"]},
               venues=[[], ["senator"], ["student"]], favours={GREEN: ["extra_visitor"]})
    assert st.current_seats() == (GREEN,)
    st.apply(Sell("senator", "colosseum:balcony"), GREEN)
    st.apply(Sell("student", "theatre:arena"), GREEN)
    assert st.day_scores[0][GREEN] == 15
    assert st.day_scores[0][YELLOW] == sum(st.data.trader_coins)  # unplayed traders only
    assert st.day == 2 and st.current_seats() == (CHANCE,)
    # the favour does not count yet, but it does at the end of day three
    st = craft(4, day=3, stage=3, resolving=True, res_line=3, res_pos=0, sp_at_villa=False,
               lines={"villa": [(GREEN, 1, 1)], "forum": [(GREEN, 8, 8), (GREEN, 7, 7)],
                      "colosseum": [(GREEN, 5, 5)], "theatre": [(GREEN, 4, 4)]},
               tickets={GREEN: ["colosseum:balcony", "theatre:arena", "theatre:balcony"]},
               venues=[[], ["senator"], ["student"]], favours={GREEN: ["extra_visitor"]})
    st.apply(Sell("senator", "colosseum:balcony"), GREEN)
    st.apply(Sell("student", "theatre:arena"), GREEN)
    assert st.is_terminal()
    assert st.day_scores[-1][GREEN] == 15 and st.favour_coins[GREEN] == 2 and st.scores()[GREEN] == 17.0


def test_unplayed_traders_score_their_coins_each_day():
    st = deal(new(3))
    all_pass(st)
    all_pass(st)
    all_pass(st)
    assert st.day == 2
    assert st.day_scores[0] == [sum(st.data.trader_coins)] * 3


# ------------------------------------------------------------------ days
def test_between_days_traders_return_favours_stay_decks_reshuffle():
    st = deal(new(3), favours=["extra_visitor", "extra_trader", "legionnaire"])
    play(st, (0, Place(8, "villa")))
    all_pass(st)
    play(st, (0, TakeFavour("legionnaire")))
    play(st, (0, Place(7, "forum")))
    all_pass(st)
    play(st, (0, TakeTicket(st.observation(0).forum[0])))
    all_pass(st)
    assert st.day == 2 and st.current_seats() == (CHANCE,)
    obs = st.observation(None)
    assert obs.hands[0] == tuple(range(1, 9)) and obs.lines == ((),) * 5
    assert obs.favours[0] == ("legionnaire",)
    assert obs.tickets[0] == () and len(obs.ticket_deck) == 18 and len(obs.visitor_deck) == 10
    # favour deck is not reshuffled: 9 for 3 players, 3 dealt on day 1, nothing returns
    assert len(obs.favour_deck) == 6 and obs.start_card_at_villa and obs.starting == 0
    settle(st)
    assert len(st.observation(None).favour_display) == 3 and len(st.observation(None).favour_deck) == 3


def test_special_events_day_two_and_three():
    st = deal(new(3))
    for _ in range(3):
        all_pass(st)
    # day 2: one extra ticket, its venue gets an extra visitor and a coin card per visitor
    tickets = ["circus:box", "circus:arena", "colosseum:box", "colosseum:arena", "theatre:box",
               "theatre:arena", "colosseum:balcony"]
    deal(st, tickets=tickets)
    obs = st.observation(None)
    assert len(obs.forum) == 7 and obs.bonus == (0, 1, 0)
    assert [len(v) for v in obs.venues] == [1, 2, 1]
    for _ in range(3):
        all_pass(st)
    # day 3: two extra tickets for the same venue -> two coin cards under each visitor there
    tickets = ["circus:box", "circus:arena", "colosseum:box", "colosseum:arena", "theatre:box",
               "theatre:arena", "theatre:balcony", "theatre:balcony"]
    deal(st, tickets=tickets, visitors=["pleb", "pleb", "student", "senator", "senator"])
    obs = st.observation(None)
    assert len(obs.forum) == 8 and obs.bonus == (0, 0, 2)
    assert [len(v) for v in obs.venues] == [1, 1, 3]
    all_pass(st)
    # sell at the theatre: the senator pays 6 + 2 coin cards
    play(st, (0, Place(8, "forum")))
    all_pass(st)
    play(st, (0, TakeTicket("theatre:box")), (0, Place(7, "theatre")))
    all_pass(st)
    play(st, (0, Sell("senator", "theatre:box")))
    assert st.is_terminal()
    assert st.observation(None).past_sales[-1][0] == (("theatre:box", "senator", 3 + 6 + 2),)


def test_game_ends_after_day_three_with_favour_coins_and_ties():
    st = deal(new(3))
    for _day in range(3):
        for _ in range(3):
            all_pass(st)
        settle(st)
    assert st.is_terminal() and st.current_seats() == ()
    assert st.day_scores == [[sum(st.data.trader_coins)] * 3] * 3
    assert st.winners() == [0, 1, 2]  # a tie gives several winners
    assert st.returns() == pytest.approx([1 / 3] * 3)


def test_done_only_after_extra_trader():
    st = deal(new(3))
    assert "no second trader" in st.why_illegal(Done(), 0)
