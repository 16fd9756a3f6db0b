"""The Caesar variant: two extra visitors, one favour card sold as a seat beside Caesar per day."""

from __future__ import annotations

from ludus.core.game import CHANCE
from ludus.games.circus_maximus.actions import (
    DrawVisitor,
    Place,
    PlaceVisitor,
    PlayExtraVisitor,
    Sell,
    Skip,
    TakeTicket,
)

from .helpers import all_pass, deal, favour_keys, give_favour, new, play, settle, venue_visitors

TICKETS = ["circus:box", "circus:arena", "circus:balcony", "colosseum:box", "colosseum:arena",
           "theatre:box", "theatre:arena", "theatre:balcony"]


def caesar_at_circus(**favours_by_seat):
    """4 players, Caesar drawn for the Circus; seat 0 holds a circus box ticket; phase III is open."""
    st = new(4, caesar=True)
    for seat, keys in favours_by_seat.items():
        for key in keys:
            give_favour(st, int(seat[1:]), key)
    deal(st, tickets=TICKETS, visitors=["caesar", "senator", "student", "merchant"])
    all_pass(st)
    play(st, (0, Place(8, "forum")))
    all_pass(st)
    play(st, (0, TakeTicket("circus:box")))
    assert st.stage == 3
    return st


def test_caesar_brings_two_more_visitors_and_buys_nothing():
    st = caesar_at_circus()
    # three circus tickets -> two visitor draws; the first was Caesar, who brought two more
    assert venue_visitors(st, 0) == ["senator", "merchant", "student", "caesar"]
    play(st, (0, Place(7, "circus")))
    all_pass(st)
    why = st.why_illegal(Sell("caesar", "circus:box"), 0)
    assert why == "Caesar buys no ticket; he only offers the seat beside him"


def test_favour_sold_as_a_seat_beside_caesar_once_a_day():
    st = caesar_at_circus(s1=["extra_visitor"], s2=["rank_boost"])
    play(st, (0, Place(7, "circus")), (1, Place(8, "circus")), (2, Place(6, "circus")))
    all_pass(st)
    # seat 1 is first, holds no circus ticket but a favour: it may sell the favour, or nothing
    assert st.current_seats() == (1,)
    legal = st.legal_actions()
    assert Sell("senator", None, "extra_visitor") in legal and Skip() in legal
    assert all(a.ticket is None for a in legal if isinstance(a, Sell))
    st.apply(Sell("senator", None, "extra_visitor"), 1)
    assert st.caesar_used and "caesar" not in venue_visitors(st, 0)
    # seat 0 sells its ticket; seat 2 has only a favour, and Caesar's seat is taken: skipped
    assert st.current_seats() == (0,)
    assert "beside Caesar" in st.why_illegal(Sell("student", None, "rank_boost"), 0)
    st.apply(Sell("student", "circus:box"), 0)
    assert st.day == 2  # nothing more to do today
    sales = st.observation(None).past_sales[-1]
    favour_coins = next(f.coins for f in st.data.favours if f.key == "extra_visitor")
    assert sales[1] == (("favour:extra_visitor", "senator", favour_coins + 6),)
    assert sales[0] == (("circus:box", "student", 3 + 3),) and sales[2] == ()
    assert favour_keys(st, 2) == ["rank_boost"] and favour_keys(st, 1) == []
    assert "extra_visitor" in st.observation(None).favours_out  # the sold favour is used up
    # Caesar is back in the visitor deck for the next day
    assert "caesar" in st.observation(None).visitor_deck and not st.caesar_used


def test_holder_of_a_ticket_may_sell_a_favour_instead_and_skipping_keeps_caesar():
    st = caesar_at_circus(s0=["legionnaire"], s1=["extra_visitor"], s2=["rank_boost"])
    play(st, (0, Place(6, "circus")), (1, Place(8, "circus")), (2, Place(7, "circus")))
    all_pass(st)
    play(st, (1, Skip()))
    assert not st.caesar_used
    play(st, (2, Sell("merchant", None, "rank_boost")))
    assert st.caesar_used
    # seat 0 holds a ticket: it must sell, and Caesar's seat is gone
    assert st.why_illegal(Skip(), 0) is not None
    assert Sell("senator", None, "legionnaire") not in st.legal_actions()


def test_extra_visitor_drawing_caesar_brings_two_more():
    st = new(4, caesar=True)
    give_favour(st, 0, "extra_visitor")
    deal(st, tickets=TICKETS)
    assert "caesar" not in [v for venue in st.observation(None).venues for v in venue]
    st.apply(PlayExtraVisitor(), 0)
    st.apply(DrawVisitor("caesar"), CHANCE)
    before = len(venue_visitors(st, 1))
    st.apply(PlaceVisitor("colosseum"), 0)
    assert st.current_seats() == (CHANCE,)
    settle(st)
    assert len(venue_visitors(st, 1)) == before + 3 and "caesar" in venue_visitors(st, 1)
    assert st.current_seats() == (1,)


def test_without_the_variant_caesar_never_appears():
    st = new(4)
    assert "caesar" in st.observation(None).visitors_out
    outcomes = []
    while st.current_seats() == (CHANCE,):
        outcomes += [a for a, _ in st.chance_outcomes()]
        settle_one = st.chance_outcomes()[-1][0]
        st.apply(settle_one, CHANCE)
    assert DrawVisitor("caesar") not in outcomes
