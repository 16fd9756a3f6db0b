"""The shipped tutorials of Circus Maximus and Gorus Arena teach what the issue lists.

Circus Maximus: line placement, the villa pick, tickets and visitors, one favour and a special
event. Gorus Arena: planning, an auction, an attack and a purchase. Each lesson is checked twice:
by the words of the step that teaches it, and by what the game does at that step (the learner's
expected move is of the right kind, and the engine shows its effect), so a script that drifts
away from a lesson fails here even while it still loads. The generic checks every tutorial gets
(loading, each expected move done, each wrong move refused) are in ``test_tutorials.py``; the
few repeated here are the ones these lessons rely on.
"""

from __future__ import annotations

from typing import Any

import pytest

from ludus import games
from ludus.core.game import CHANCE, State
from ludus.core.tutorial import Tutorial, TutorialStep
from ludus.games.circus_maximus.views import CircusMaximusObservation
from ludus.games.gorus_arena.views import GorusArenaObservation

NAMES = ("circus-maximus", "gorus-arena")


@pytest.fixture(scope="module", params=NAMES)
def tutorial(request: pytest.FixtureRequest) -> Tutorial:
    games.reload_plugins()
    return games.tutorial(request.param)


def text(step: TutorialStep) -> str:
    return " ".join((step.say, step.after, step.other, step.wrong_say)).lower()


def steps_where(t: Tutorial, **fields: Any) -> list[int]:
    """Indexes of the steps whose expected move has all these JSON fields."""
    return [i for i, s in enumerate(t.steps)
            if isinstance(s.expect, dict) and all(s.expect.get(k) == v for k, v in fields.items())]


def first_step_teaching(t: Tutorial, *words: str) -> int:
    """The first step whose texts name every one of ``words``; fails if none does."""
    for i, s in enumerate(t.steps):
        if all(w.lower() in text(s) for w in words):
            return i
    raise AssertionError(f"no step of {t.script.title!r} mentions all of {words}")


def cm_seen(state: State) -> CircusMaximusObservation:
    """What the learner (seat 0) sees of a Circus Maximus position."""
    seen = state.observation(0)
    assert isinstance(seen, CircusMaximusObservation)
    return seen


def ga_seen(state: State) -> GorusArenaObservation:
    """What the learner (seat 0) sees of a Gorus Arena position."""
    seen = state.observation(0)
    assert isinstance(seen, GorusArenaObservation)
    return seen


# ------------------------------------------------------------------ both tutorials
def test_it_is_short_and_names_every_seat(tutorial: Tutorial) -> None:
    assert 8 <= len(tutorial) <= 14
    assert tutorial.seat == 0
    assert tutorial.names() == ["You", "Marcus", "Livia"]


def test_every_expected_move_is_done_and_every_wrong_one_refused_with_a_reason(tutorial: Tutorial) -> None:
    wrongs = 0
    for i, step in enumerate(tutorial.steps):
        if step.expect is not None:
            assert tutorial.attempt(i, step.expect).kind == "done"
            assert step.after, f"step {i + 1} says nothing about what the move did"
        if step.wrong is not None:
            wrongs += 1
            answer = tutorial.attempt(i, step.wrong)
            assert answer.kind == "refused" and len(answer.message) > 15, (i, answer)
            assert step.wrong_say, f"step {i + 1} has a wrong move but does not invite the learner to try it"
    assert wrongs >= 1


def test_the_learner_is_asked_only_when_it_is_their_turn(tutorial: Tutorial) -> None:
    for i, step in enumerate(tutorial.steps):
        state = tutorial.state_at(i)
        assert not state.is_terminal()
        if step.expect is not None:
            assert tutorial.seat in state.current_seats()
            assert tutorial.expected(i) in state.legal_actions(tutorial.seat)


def test_chance_is_explicit(tutorial: Tutorial) -> None:
    """No seed: every card dealt is written in the script as a chance move."""
    state = tutorial.state_at(0)
    assert state.rng is None
    dealt = [raw for s in tutorial.steps for seat, raw in s.before if seat == CHANCE]
    assert dealt


# ------------------------------------------------------------------ Circus Maximus
def cm() -> Tutorial:
    games.reload_plugins()
    return games.tutorial("circus-maximus")


def test_circus_line_placement_and_rank_order() -> None:
    t = cm()
    first = steps_where(t, type="place", line="villa")[0]
    assert first == first_step_teaching(t, "line", "rank", "front")
    # the next step shows the order a line keeps: a higher rank in front, an equal one behind
    villa = cm_seen(t.state_at(first + 1)).lines[0]
    ranks = [(seat, rank) for seat, rank, _ in villa]
    assert ranks == [(1, 8), (0, 6), (2, 6)]
    assert "same rank" in text(t.steps[first + 1]) and "in front of you" in text(t.steps[first + 1])
    # trying a line of another phase is refused
    assert t.attempt(first, t.steps[first].wrong).kind == "refused"


def test_circus_villa_pick() -> None:
    t = cm()
    (pick,) = steps_where(t, type="take_favour")
    assert all(w in text(t.steps[pick]) for w in ("villa", "starting-player card", "favour", "pick"))
    before = cm_seen(t.state_at(pick))
    # Marcus, first in line, took a favour: the starting-player card waits to be chosen
    assert before.resolving_line == "villa" and before.start_card_at_villa
    assert "extra_visitor" in cm_seen(t.state_at(pick + 1)).favours[0]
    assert "choose a favour" in t.attempt(pick, t.steps[pick].wrong).message
    # nobody chose it, so once the favours are gone it goes to the first trader in line (Marcus)
    after = cm_seen(t.state_at(pick + 1))
    assert after.phase == 2 and after.starting == 1 and not after.start_card_at_villa
    assert "went to marcus" in text(t.steps[pick + 1])


def test_circus_tickets_and_visitors() -> None:
    t = cm()
    (buy,) = steps_where(t, type="take_ticket")
    (sell,) = [i for i in steps_where(t, type="sell") if t.steps[i].expect.get("ticket")]
    assert buy < sell
    assert first_step_teaching(t, "ticket", "forum") <= buy
    assert "visitor" in text(t.steps[sell]) and "senator" in text(t.steps[sell])
    assert "colosseum:box" in cm_seen(t.state_at(buy + 1)).tickets[0]
    refusal = t.attempt(sell, t.steps[sell].wrong).message
    assert "must sell" in refusal
    after = cm_seen(t.state_at(sell + 1))
    assert after.day == 2 and after.day_scores[0][0] == 13  # the sale's 9 coins and 4 for traders at home


def test_circus_one_favour_played() -> None:
    t = cm()
    (play,) = steps_where(t, type="extra_visitor")
    (place,) = steps_where(t, type="place_visitor")
    assert place == play + 1
    assert "+visitor" in text(t.steps[play])
    assert cm_seen(t.state_at(place)).pending_visitor == "senator"
    assert "senator" in cm_seen(t.final_state()).venues[0]


def test_circus_special_event() -> None:
    t = cm()
    i = first_step_teaching(t, "special event")
    seen = cm_seen(t.state_at(i))
    assert seen.day == 2 and seen.bonus == (1, 0, 0)  # the Circus Maximus pays 1 coin more today
    assert len(seen.forum) == 7 and "seven" in text(t.steps[i])
    assert "circus maximus" in text(t.steps[i])


# ------------------------------------------------------------------ Gorus Arena
def ga() -> Tutorial:
    games.reload_plugins()
    return games.tutorial("gorus-arena")


def test_arena_planning_is_secret_and_simultaneous() -> None:
    t = ga()
    plan = steps_where(t, do="place")
    assert plan and plan[0] == first_step_teaching(t, "plan", "secret", "order")
    state = t.state_at(plan[0])
    assert len(state.current_seats()) > 1  # Livia is planning at the same time as the learner
    view = state.view(t.seat)
    assert [entry for _seat, entry in view.history] == ["hidden", "hidden"]  # Marcus's cards stay face down
    assert view.observation.ready == (False, True, False)


def test_arena_auction_won_and_tied() -> None:
    t = ga()
    i = first_step_teaching(t, "auction", "strength", "tie", "turn order")
    events = ga_seen(t.state_at(i)).events
    assert "Auction 1: Seat 1 wins with strength 2" in events
    assert "Auction 2: tie at strength 2, nobody wins; turn order" in events


def test_arena_purchase() -> None:
    t = ga()
    (buy,) = steps_where(t, do="recruit")
    assert "recruit" in text(t.steps[buy]) and "coins" in text(t.steps[buy])
    assert "costs 10 coins and you have 7" in t.attempt(buy, t.steps[buy].wrong).message
    assert 15 in ga_seen(t.state_at(buy + 1)).hand  # a Professional Gladiator, id 15


def test_arena_attack() -> None:
    t = ga()
    (hit,) = steps_where(t, do="attack")
    assert hit == first_step_teaching(t, "attack", "defence", "win the auction")
    assert "not in this auction" in t.attempt(hit, t.steps[hit].wrong).message
    end = ga_seen(t.final_state())
    assert end.dead == (3,)  # Marcus's Tired Fighter
    assert any("attacks Seat 2's Tired Fighter (defence 2): killed" in e for e in end.events)
