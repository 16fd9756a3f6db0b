"""The starting-player card at Caesar's Villa (issue 16).

By the rulebook a picker may take the card *instead of* a favour; the villa's picks end when
the favours are gone (or the traders), and a card nobody chose goes to the owner of the
first trader in line. ``start-card=extra-pick`` keeps the earlier reading (the card is one
more item of the display, so picks go on until it is taken); stored games that predate the
option replay under it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from ludus.cli.main import main
from ludus.core import records
from ludus.core.errors import InvalidOptions, RecordError
from ludus.games import get_game
from ludus.games.circus_maximus.actions import Pass, Place, TakeFavour, TakeStart
from ludus.games.circus_maximus.game import GAME

from .helpers import BLUE, GREEN, RED, YELLOW, all_pass, deal, favour_keys, new, play

FOUR = ["extra_visitor", "extra_trader", "legionnaire", "rank_boost"]


def issue_line(**opts):
    """The issue's line: Yellow 8, Red 7, Blue 6, Green 5, Green 1; four favours on display."""
    st = deal(new(4, **opts), favours=FOUR)
    play(st, (YELLOW, Place(8, "villa")), (RED, Place(7, "villa")), (BLUE, Place(6, "villa")),
         (GREEN, Place(5, "villa")), (YELLOW, Pass()), (RED, Pass()), (BLUE, Pass()),
         (GREEN, Place(1, "villa")), (GREEN, Pass()))
    assert st.resolving
    return st


def test_unchosen_start_card_goes_to_the_first_in_line_not_to_the_next_trader():
    st = issue_line()
    play(st, (YELLOW, TakeFavour("rank_boost")), (RED, TakeFavour("legionnaire")),
         (BLUE, TakeFavour("extra_trader")), (GREEN, TakeFavour("extra_visitor")))
    # the favours are gone, so the villa is done: Green's rank-1 trader picks nothing
    assert st.stage == 2 and not st.resolving
    assert st.starting == YELLOW and st.current_seats() == (YELLOW,)
    assert favour_keys(st, GREEN) == ["extra_visitor"]
    assert not st.observation(None).start_card_at_villa


def test_the_card_may_be_chosen_instead_of_a_favour():
    st = issue_line()
    assert TakeStart() in st.legal_actions(YELLOW)
    play(st, (YELLOW, TakeFavour("rank_boost")), (RED, TakeStart()))
    assert st.starting == RED and not st.observation(None).start_card_at_villa
    assert "already been taken" in st.why_illegal(TakeStart(), BLUE)
    # Red's pick was the card: the four favours still go to the next four traders
    play(st, (BLUE, TakeFavour("legionnaire")), (GREEN, TakeFavour("extra_trader")),
         (GREEN, TakeFavour("extra_visitor")))
    assert st.stage == 2 and st.current_seats() == (RED,)
    assert favour_keys(st, RED) == [] and sorted(favour_keys(st, GREEN)) == ["extra_trader", "extra_visitor"]


def test_no_favours_on_display_means_no_picks_and_the_card_goes_to_the_front():
    st = deal(new(4), favours=FOUR)
    st.fav_gone |= st.fav_display  # the favour deck ran out: nothing to choose from
    st.fav_display = 0
    play(st, (YELLOW, Pass()), (RED, Place(3, "villa")), (BLUE, Place(6, "villa")), (GREEN, Pass()),
         (RED, Pass()), (BLUE, Pass()))
    assert st.stage == 2 and st.starting == BLUE


def test_extra_pick_reading_keeps_the_card_in_the_display():
    st = issue_line(start_card="extra-pick")
    play(st, (YELLOW, TakeFavour("rank_boost")), (RED, TakeFavour("legionnaire")),
         (BLUE, TakeFavour("extra_trader")), (GREEN, TakeFavour("extra_visitor")))
    # one more pick: Green's rank-1 trader must take the card
    assert st.resolving and st.current_seats() == (GREEN,)
    assert st.legal_actions(GREEN) == [TakeStart()]
    play(st, (GREEN, TakeStart()))
    assert st.stage == 2 and st.starting == GREEN


def test_option_is_checked_and_named():
    assert GAME.parse_options({}).start_card == "instead"
    with pytest.raises(InvalidOptions):
        GAME.parse_options({"start_card": "sometimes"})
    names = {o.name for o in GAME.describe_options()}
    assert "start_card" in names


OLD_RECORD = Path(__file__).with_name("record_before_start_card_option.json")


def test_an_old_record_without_the_option_replays_under_the_earlier_reading():
    """A seeded bot game saved by the engine before the option existed (its options lack the
    key, and a trader took the card after the favours ran out) replays with its result."""
    record = records.load(OLD_RECORD)
    assert "start_card" not in record.options
    final = records.replay(record, get_game)
    assert final.is_terminal() and final.options.start_card == "extra-pick"
    # read with today's default instead, its moves are refused
    with pytest.raises(RecordError, match=r"starting-player card|illegal"):
        records.replay(replace(record, options={**record.options, "start_card": "instead"}), get_game)


def test_a_record_names_the_option_and_replays_either_reading(tmp_path):
    for reading in ("instead", "extra-pick"):
        path = tmp_path / f"{reading}.json"
        assert main(["play", "circus-maximus", "--seat", "none", "--seed", "5", "--start-card", reading,
                     "--save", str(path)]) == 0
        record = records.load(path)
        assert record.options["start_card"] == reading
        assert records.replay(record, get_game).is_terminal()


def test_the_start_card_option_survives_a_position_round_trip():
    st = issue_line(start_card="extra-pick")
    back = GAME.state_from_json(st.to_json())
    assert back.options.start_card == "extra-pick"
    all_pass(back)


def test_heuristic_at_the_front_takes_a_favour_and_gets_the_card_anyway():
    from ludus.games.circus_maximus.heuristic import CircusMaximusHeuristic, villa_prizes

    st = issue_line()
    action = CircusMaximusHeuristic(YELLOW).act(st.view(YELLOW))
    assert isinstance(action, TakeFavour)
    assert villa_prizes([2.0, 3.0], True, "instead") == [4.0, 2.0]
    assert villa_prizes([2.0, 3.0], True, "extra-pick") == [3.0, 2.0, 1.0]
    assert villa_prizes([], True, "instead") == [1.0]
