"""Each of the nine favour cards: its effect and when it may (and may not) be played."""

from __future__ import annotations

import pytest

from ludus.core.errors import IllegalAction
from ludus.core.game import CHANCE
from ludus.games.circus_maximus.actions import (
    Done,
    DrawTicket,
    DrawVisitor,
    Pass,
    Place,
    PlaceVisitor,
    PlayExtraVisitor,
    PlayMoveAhead,
    PlayReplay,
    PlayTicketVisitor,
    Sell,
    Skip,
    TakeFavour,
    TakeTicket,
)

from .helpers import (
    BLUE,
    CIRCUS_HEAVY,
    RED,
    YELLOW,
    all_pass,
    at_circus_sale,
    craft,
    deal,
    favour_keys,
    line,
    new,
    play,
    start,
    ticket_keys,
    venue_visitors,
)


# ------------------------------------------------------------------ +Visitor
def test_extra_visitor_instead_of_a_trader_draws_and_places_a_visitor():
    st = start((0, "extra_visitor"))
    assert PlayExtraVisitor() in st.legal_actions(0)
    before = venue_visitors(st, 2)
    st.apply(PlayExtraVisitor(), 0)
    assert st.current_seats() == (CHANCE,)
    st.apply(DrawVisitor("pleb"), CHANCE)
    assert st.current_seats() == (0,)
    assert set(st.legal_actions()) == {PlaceVisitor("circus"), PlaceVisitor("colosseum"), PlaceVisitor("theatre")}
    assert st.observation(1).pending_visitor == "pleb"
    st.apply(PlaceVisitor("theatre"), 0)
    assert venue_visitors(st, 2) == sorted(before + ["pleb"], key=[v.key for v in st.data.visitors].index)
    assert favour_keys(st, 0) == [] and "extra_visitor" in st.observation(None).favours_out
    assert st.current_seats() == (1,) and line(st, "villa") == []  # it was the whole turn


def test_extra_visitor_not_with_an_empty_deck_and_not_at_resolution():
    every = [v.key for v in new(4).data.visitors for _ in range(v.count) if not v.caesar]
    st = craft(4, favours={0: ["extra_visitor"]}, venues=[every[:5], every[5:10], every[10:]])
    assert st.why_illegal(PlayExtraVisitor(), 0) == "the visitor deck is empty"
    st = start((0, "extra_visitor"))
    play(st, (0, Place(8, "villa")))
    all_pass(st)
    assert "Caesar's Villa" in st.why_illegal(PlayExtraVisitor(), 0)


# ------------------------------------------------------------------ +Trader
def test_extra_trader_places_a_second_trader_in_the_same_turn():
    st = start((0, "extra_trader"))
    st.apply(Place(5, "villa", extra=True), 0)
    assert st.current_seats() == (0,)
    legal = st.legal_actions()
    assert Done() in legal and Pass() not in legal and PlayExtraVisitor() not in legal
    assert "+Trader" in st.why_illegal(Pass(), 0)
    st.apply(Place(4, "villa"), 0)
    assert st.current_seats() == (1,)
    assert [(s, r) for s, r, _ in line(st, "villa")] == [(0, 5), (0, 4)]
    assert favour_keys(st, 0) == []


def test_extra_trader_may_be_declined_and_needs_two_traders():
    st = start((0, "extra_trader"), (0, "extra_trader"), players=4)
    st.apply(Place(5, "villa", extra=True), 0)
    st.apply(Done(), 0)
    assert st.current_seats() == (1,) and len(line(st, "villa")) == 1
    st2 = craft(3, favours={0: ["extra_trader"]},
                lines={"villa": [(0, r, r) for r in (8, 7, 6, 5, 4, 2, 1)]})
    assert st2.why_illegal(Place(3, "villa", extra=True), 0) == "+Trader needs a second trader in your hand"
    assert st2.why_illegal(Place(3, "villa"), 0) is None


def test_extra_trader_in_phase_three_may_use_another_venue():
    st = start((0, "extra_trader"), tickets=CIRCUS_HEAVY)
    all_pass(st)
    all_pass(st)
    st.apply(Place(5, "circus", extra=True), 0)
    st.apply(Place(6, "theatre"), 0)
    assert line(st, "circus") == [(0, 5, 5)] and line(st, "theatre") == [(0, 6, 6)]


# ------------------------------------------------------------------ Ticket -> Legionnaire
def test_legionnaire_favour_makes_a_legionnaire_pay_six():
    st = at_circus_sale((0, "legionnaire"))
    assert Sell("legionnaire", "circus:box", legion=True) in st.legal_actions()
    st.apply(Sell("legionnaire", "circus:box", legion=True), 0)
    assert st.observation(None).past_sales[-1][0] == (("circus:box", "legionnaire", 3 + 6),)
    assert favour_keys(st, 0) == []


def test_legionnaire_favour_timing():
    st = at_circus_sale((0, "legionnaire"))
    assert "only when selling to a Legionnaire" in st.why_illegal(Sell("senator", "circus:box", legion=True), 0)
    st.apply(Sell("legionnaire", "circus:box"), 0)
    assert st.observation(None).past_sales[-1][0] == (("circus:box", "legionnaire", 3 + 2),)
    assert favour_keys(st, 0) == ["legionnaire"]  # not played, still worth its coins at the end
    st = at_circus_sale()
    assert "you hold no Ticket→Legionnaire" in st.why_illegal(Sell("legionnaire", "circus:box", legion=True), 0)


# ------------------------------------------------------------------ II +Ticket
def test_double_ticket_takes_two_tickets_at_the_forum():
    st = start((0, "double_ticket"), tickets=CIRCUS_HEAVY)
    all_pass(st)
    play(st, (0, Place(3, "forum")), (1, Place(2, "forum")))
    all_pass(st)
    st.apply(TakeTicket("circus:box", double=True), 0)
    assert st.current_seats() == (0,)  # same trader picks again
    st.apply(TakeTicket("theatre:box"), 0)
    assert ticket_keys(st, 0) == ["circus:box", "theatre:box"] and favour_keys(st, 0) == []
    assert st.current_seats() == (1,)


def test_double_ticket_needs_two_tickets_and_the_card():
    st = craft(3, favours={0: ["double_ticket"]}, stage=2, resolving=True, res_line=1, res_pos=0,
               sp_at_villa=False, lines={"forum": [(0, 8, 8)]}, forum=["circus:box"])
    assert st.why_illegal(TakeTicket("circus:box", double=True), 0) == "II +Ticket needs two tickets left at the forum"
    st = craft(3, stage=2, resolving=True, res_line=1, res_pos=0, sp_at_villa=False,
               lines={"forum": [(0, 8, 8)]}, forum=["circus:box", "circus:box"])
    assert "you hold no II +Ticket" in st.why_illegal(TakeTicket("circus:box", double=True), 0)
    assert "forum" in st.why_illegal(Place(7, "forum", extra=False), 0).lower()


# ------------------------------------------------------------------ III +Ticket
def test_double_sale_sells_two_tickets_with_one_trader():
    st = at_circus_sale((0, "double_sale"), tickets_for_0=("circus:box", "circus:arena"))
    st.apply(Sell("senator", "circus:box", double=True), 0)
    assert st.current_seats() == (0,)
    st.apply(Sell("legionnaire", "circus:arena"), 0)
    assert st.observation(None).past_sales[-1][0] == (("circus:box", "senator", 9), ("circus:arena", "legionnaire", 4))


def test_double_sale_needs_a_second_ticket():
    st = at_circus_sale((0, "double_sale"))
    assert "second ticket" in st.why_illegal(Sell("senator", "circus:box", double=True), 0)
    st = at_circus_sale((0, "double_sale"), tickets_for_0=("circus:box", "circus:arena"), visitors=("senator",))
    # three circus tickets were dealt, so two visitors: one named, one settled by the helper
    assert st.why_illegal(Sell("senator", "circus:box", double=True), 0) is None


# ------------------------------------------------------------------ down arrow: replay a trader
def test_replay_trader_brings_back_a_trader_from_an_earlier_phase():
    st = start((0, "replay_trader"), tickets=CIRCUS_HEAVY)
    assert "phase I" in st.why_illegal(PlayReplay(8, "villa"), 0)
    play(st, (0, Place(8, "villa")))
    all_pass(st)
    play(st, (0, TakeFavour(st.observation(0).favour_display[0])))
    assert st.stage == 2
    assert PlayReplay(8, "forum") in st.legal_actions(0)
    st.apply(PlayReplay(8, "forum"), 0)
    assert line(st, "villa") == [] and line(st, "forum") == [(0, 8, 8)]
    assert 8 not in st.observation(0).hands[0] and "replay_trader" not in favour_keys(st, 0)
    assert st.current_seats() == (1,)


def test_replay_trader_reasons():
    st = craft(3, favours={0: ["replay_trader"]}, stage=3, lines={"villa": [(0, 8, 8)], "circus": [(0, 2, 2)]})
    assert st.why_illegal(PlayReplay(8, "colosseum"), 0) is None
    assert "not in a line of an earlier phase" in st.why_illegal(PlayReplay(2, "colosseum"), 0)
    assert "not in a line of an earlier phase" in st.why_illegal(PlayReplay(5, "colosseum"), 0)
    assert "Forum" not in st.why_illegal(PlayReplay(8, "forum"), 0)


def test_boosted_trader_is_rank_one_again_when_replayed():
    st = start((0, "rank_boost"), (0, "replay_trader"))
    st.apply(Place(1, "villa", boost=True), 0)
    assert line(st, "villa") == [(0, 1, 8)]
    all_pass(st)
    play(st, (0, TakeFavour(st.observation(0).favour_display[0])))
    play(st, (0, Place(5, "forum")), (1, Place(3, "forum")), (2, Pass()), (0, PlayReplay(1, "forum")))
    assert line(st, "forum") == [(0, 5, 5), (1, 3, 3), (0, 1, 1)]


# ------------------------------------------------------------------ II +Ticket +Visitor
def test_ticket_and_visitor_only_in_phase_two():
    st = start((0, "ticket_and_visitor"), (0, "ticket_and_visitor"), players=4, tickets=CIRCUS_HEAVY)
    assert "phase II" in st.why_illegal(PlayTicketVisitor(), 0)
    all_pass(st)
    assert PlayTicketVisitor() in st.legal_actions(0)
    st.apply(PlayTicketVisitor(), 0)
    st.apply(DrawTicket("theatre:arena"), CHANCE)
    assert ticket_keys(st, 0) == ["theatre:arena"]
    assert st.current_seats() == (CHANCE,)
    outcomes = st.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    before = venue_visitors(st, 2)
    st.apply(DrawVisitor("student"), CHANCE)
    assert venue_visitors(st, 2) == before + ["student"]
    assert st.current_seats() == (1,)
    all_pass(st)
    assert st.stage == 3 and favour_keys(st, 0) == ["ticket_and_visitor"]
    assert "phase II" in st.why_illegal(PlayTicketVisitor(), 0)


# ------------------------------------------------------------------ Rank 1 -> 8
def test_rank_boost_makes_rank_one_an_eight_behind_other_eights():
    st = start((2, "rank_boost"))
    play(st, (0, Place(8, "villa")), (1, Place(7, "villa")))
    assert st.why_illegal(Place(2, "villa", boost=True), 2) == "Rank 1→8 only works with your rank-1 trader"
    st.apply(Place(1, "villa", boost=True), 2)
    assert line(st, "villa") == [(0, 8, 8), (2, 1, 8), (1, 7, 7)]
    play(st, (0, Place(7, "villa")))
    assert line(st, "villa")[:3] == [(0, 8, 8), (2, 1, 8), (1, 7, 7)]
    assert favour_keys(st, 2) == []


def test_rank_boost_needs_the_card():
    st = start()
    assert st.why_illegal(Place(1, "villa", boost=True), 0) == "you hold no Rank 1→8 favour"


# ------------------------------------------------------------------ left arrow: move ahead
def test_move_ahead_rulebook_example():
    """Red-2 overtakes Blue-5 behind Yellow-7 and counts as a 5 for the rest of the phase."""
    st = start((RED, "move_ahead"))
    play(st, (YELLOW, Place(7, "villa")), (RED, Place(2, "villa")), (BLUE, Place(5, "villa")))
    assert [(s, r) for s, r, _ in line(st, "villa")] == [(YELLOW, 7), (BLUE, 5), (RED, 2)]
    play(st, (YELLOW, Pass()), (RED, PlayMoveAhead(2)))
    assert line(st, "villa") == [(YELLOW, 7, 7), (RED, 2, 5), (BLUE, 5, 5)]
    play(st, (BLUE, Place(6, "villa")), (RED, Place(5, "villa")))
    # a 6 goes ahead of red-2; a 5 goes behind blue-5
    assert line(st, "villa") == [(YELLOW, 7, 7), (BLUE, 6, 6), (RED, 2, 5), (BLUE, 5, 5), (RED, 5, 5)]
    assert favour_keys(st, RED) == []


def test_move_ahead_reasons():
    st = start((0, "move_ahead"))
    play(st, (0, Place(8, "villa")), (1, Place(3, "villa")), (2, Pass()))
    assert st.why_illegal(PlayMoveAhead(8), 0) == "your trader 8 is already first in line"
    assert "not in a line of this phase" in st.why_illegal(PlayMoveAhead(4), 0)
    before = st.to_json()
    with pytest.raises(IllegalAction, match="already first"):
        st.apply(PlayMoveAhead(8), 0)
    assert st.to_json() == before


# ------------------------------------------------------------------ general timing
def test_instead_of_trader_favours_are_not_allowed_at_resolution_or_as_second_trader():
    st = start((0, "extra_trader"), (0, "move_ahead"), (0, "extra_visitor"))
    play(st, (0, Place(8, "villa")), (1, Place(7, "villa")), (2, Pass()))
    st.apply(Place(6, "villa", extra=True), 0)
    for action in (PlayExtraVisitor(), PlayMoveAhead(6)):
        assert "second trader" in st.why_illegal(action, 0)
    st.apply(Done(), 0)
    all_pass(st)
    assert st.resolving
    assert "Villa" in st.why_illegal(PlayExtraVisitor(), 0)
    assert "Villa" in st.why_illegal(Skip(), 0)


def test_played_favours_leave_the_game_and_unplayed_ones_score_at_the_end():
    st = start((0, "rank_boost"), (1, "move_ahead"))
    st.apply(Place(1, "villa", boost=True), 0)
    assert "rank_boost" in st.observation(None).favours_out
    while not st.is_terminal():
        if st.current_seats() == (CHANCE,):
            deal(st)
        else:
            st.apply(st.legal_actions()[0] if st.resolving else Pass())
    assert st.day_scores[0][1] == sum(st.data.trader_coins)  # favours do not count on day 1
    move_ahead = next(f for f in st.data.favours if f.key == "move_ahead")
    assert st.favour_coins[1] == move_ahead.coins
    assert st.scores()[1] == 3 * sum(st.data.trader_coins) + move_ahead.coins
