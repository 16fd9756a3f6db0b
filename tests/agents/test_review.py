"""Post-game analysis: view-only (invariant to unseen cards), marks only what noise cannot explain, bounded."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import pytest

from ludus.agents.review import MIN_MARK_SAMPLES, MIN_SAMPLES, THRESHOLDS, ReviewError, Z, mark_for, review_game, z_for
from ludus.core.agent import RandomAgent
from ludus.core.errors import IllegalAction, LudusError, RecordError
from ludus.core.game import CHANCE, Action, Game, Observation, State
from ludus.core.records import Record, loads, record_of
from ludus.core.rng import Rng
from ludus.games import get_game

# --------------------------------------------------------------------------- a toy with known odds
# Seat 0 picks a door; then chance says whether seat 0 or seat 1 wins, with the door's odds.
ODDS = {"good": 0.9, "bad": 0.1, "near": 0.84}


@dataclass(frozen=True)
class Door(Action):
    name: str

    @property
    def label(self) -> str:
        return f"door {self.name}"

    def to_json(self) -> Any:
        return self.name


@dataclass(frozen=True)
class Outcome(Action):
    winner: int

    @property
    def label(self) -> str:
        return f"seat {self.winner + 1} wins"

    def to_json(self) -> Any:
        return {"winner": self.winner}


@dataclass(frozen=True)
class DoorsObservation(Observation):
    door: str | None

    def to_json(self) -> dict[str, Any]:
        return {"door": self.door}


class DoorsState(State[Any]):
    def __init__(self, game: Game, options: Any, rng: Rng | None) -> None:
        super().__init__(game, options, rng)
        self.door: str | None = None
        self.winner: int | None = None

    def current_seats(self) -> tuple[int, ...]:
        if self.door is None:
            return (0,)
        return (CHANCE,) if self.winner is None else ()

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        return [Door(n) for n in ODDS] if self._acting_seat(seat) == 0 else []

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.current_seats() != (CHANCE,):
            raise IllegalAction("this is not a chance node")
        assert self.door is not None
        p = ODDS[self.door]
        return [(Outcome(0), p), (Outcome(1), 1 - p)]

    def observation(self, seat: int | None) -> DoorsObservation:
        return DoorsObservation(self.door)

    def scores(self) -> list[float]:
        return [float(self.winner == s) for s in (0, 1)]

    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    def _apply(self, seat: int, action: Action) -> None:
        if isinstance(action, Door):
            self.door = action.name
        else:
            assert isinstance(action, Outcome)
            self.winner = action.winner

    def clone(self) -> DoorsState:
        other = DoorsState(self.game, self.options, None if self.rng is None else Rng(self.rng.state))
        other.door, other.winner, other.history = self.door, self.winner, list(self.history)
        return other

    def _position(self) -> dict[str, Any]:
        return {"door": self.door, "winner": self.winner}


@dataclass(frozen=True)
class NoOptions:
    pass


class DoorsGame(Game):
    name = "doors"
    title = "Doors"
    Options = NoOptions
    min_seats = max_seats = 2

    def num_seats(self, options: Any) -> int:
        return 2

    def _new_state(self, options: Any, rng: Rng | None) -> DoorsState:
        return DoorsState(self, options, rng)

    def _state_from_position(self, options: Any, rng: Rng | None, data: Any) -> DoorsState:
        raise RecordError("doors has no positions")

    def action_from_json(self, data: Any) -> Action:
        if data in ODDS:
            return Door(data)
        if isinstance(data, dict) and data.get("winner") in (0, 1):
            return Outcome(data["winner"])
        raise RecordError(f"not a doors action: {data!r}")

    def sample_state(self, view: Any, rng: Rng) -> DoorsState:
        return DoorsState(self, view.options, Rng(rng.next_u64()))


DOORS = DoorsGame()


def doors_record(door: str) -> Record:
    return Record(game="doors", options={}, actions=[(0, door)], seed=1)


def find(name: str) -> Game:
    return DOORS if name == "doors" else get_game(name)


# --------------------------------------------------------------------------- marks
def test_the_mark_rule_needs_both_the_threshold_and_the_standard_errors():
    assert mark_for(0.0, 0.0) == "best"
    assert mark_for(0.5, 0.3) == "fine"  # a big drop, but within Z standard errors
    assert mark_for(0.04, 0.001) == "fine"  # certain, but below every threshold
    assert mark_for(0.3, float("inf")) == "fine"
    for name, threshold in THRESHOLDS:
        assert mark_for(threshold + 1e-9, threshold / (Z + 1)) == name
    assert mark_for(0.3, 0.12) == "blunder" and mark_for(0.3, 0.12, z=z_for(8)) == "fine"
    assert z_for(2) == pytest.approx(1.96, abs=0.01) and z_for(8) == pytest.approx(2.69, abs=0.01)


def test_a_clearly_bad_move_is_marked():
    review = review_game(doors_record("bad"), 0, samples=40, find_game=find)
    (decision,) = review.decisions
    assert decision.best == "door good" and decision.played == "door bad"
    assert decision.mark == "blunder"
    assert decision.drop > 0.5 and decision.drop > decision.z * decision.std_error
    assert review.totals["blunder"] == 1
    assert review.curve == [(1, decision.played_value)]


def test_a_small_drop_within_noise_is_not_called_a_mistake():
    # 'near' is 6 points worse than 'good': above the inaccuracy threshold, but 6 deals cannot show it
    review = review_game(doors_record("near"), 0, samples=6, find_game=find)
    (decision,) = review.decisions
    assert decision.mark in ("fine", "best")
    if decision.drop > THRESHOLDS[-1][1]:
        assert decision.drop <= decision.z * decision.std_error


def test_too_few_deals_never_mark_a_move():
    (decision,) = review_game(doors_record("bad"), 0, samples=MIN_MARK_SAMPLES - 1, find_game=find).decisions
    assert decision.mark == "fine" and decision.samples == MIN_MARK_SAMPLES - 1


def test_the_best_move_is_marked_best():
    (decision,) = review_game(doors_record("good"), 0, samples=20, find_game=find).decisions
    assert decision.mark == "best" and decision.drop == 0


# --------------------------------------------------------------------------- view only
def _gorus_position(seed: int = 3) -> State:
    game = get_game("gorus-maximus")
    state = game.new_initial_state({"players": 4}, seed=seed)
    rng = Rng(1)
    while state.current_seats() != (0,) or len(state.legal_actions(0)) < 2:
        seat = state.current_seats()[0]
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


def test_the_analysis_is_the_same_when_only_unseen_cards_differ():
    state = _gorus_position()
    game = state.game
    first = state.to_json()
    second = json.loads(json.dumps(first))
    hands = second["state"]["hands"]
    hands[1], hands[2] = hands[2], hands[1]  # two opponents' hands swapped
    second["rng"] = (first["rng"] + 12345) % 2**64  # and other chance to come
    a, b = game.state_from_json(first), game.state_from_json(second)
    assert a.observation(1) != b.observation(1)  # the positions really differ...
    assert a.view(0) == b.view(0)  # ...but not for seat 0
    played = state.legal_actions(0)[-1].to_json()
    reviews = [review_game(Record(game=game.name, options={}, actions=[(0, played)], start=pos), 0,
                           samples=6, seed=9).to_json()
               for pos in (first, second)]
    for r in reviews:
        r.pop("seconds")
    assert reviews[0] == reviews[1]
    assert reviews[0]["decisions"][0]["samples"] == 6
    # and the search does depend on what the seat sees: another hand of its own, another answer
    third = json.loads(json.dumps(first))
    hands = third["state"]["hands"]
    hands[0], hands[3] = hands[3], hands[0]
    mine = game.state_from_json(third).legal_actions(0)[0].to_json()
    other = review_game(Record(game=game.name, options={}, actions=[(0, mine)], start=third), 0,
                        samples=6, seed=9).to_json()
    assert other["decisions"][0]["candidates"] != reviews[0]["decisions"][0]["candidates"]


# --------------------------------------------------------------------------- whole games
def _played(name: str, seed: int | None, options: dict[str, Any] | None = None) -> Record:
    game = get_game(name)
    state = game.new_initial_state(options, seed=seed)
    rng = Rng(7)
    agents = [RandomAgent(i) for i in range(state.num_seats())]
    while not state.is_terminal():
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            state.apply(agents[seat].act(state.view(seat)), seat)
    return record_of(state, seed)


def test_a_seeded_game_is_reviewed_deterministically():
    # attacks optional: with 3 hit points a compulsory attack leaves seat 1 almost no real choice
    record = _played("gladius", seed=4, options={"hit_points": 3, "attack": "optional"})
    runs = [review_game(record, 1, samples=3, seed=2).to_json() for _ in range(2)]
    for r in runs:
        r.pop("seconds")
    assert runs[0] == runs[1]
    plies = [d["ply"] for d in runs[0]["decisions"]]
    assert plies == sorted(plies) and all(record.actions[p - 1][0] == 1 for p in plies)
    assert runs[0]["totals"]["analysed"] == len(plies) > 0
    assert runs[0]["totals"]["analysed"] + runs[0]["totals"]["forced"] == sum(1 for s, _ in record.actions if s == 1)
    assert len(runs[0]["curve"]) == len(plies)


def test_a_record_with_explicit_chance_is_reviewed():
    record = _played("gladius", seed=None, options={"hit_points": 3})
    assert any(seat == CHANCE for seat, _ in record.actions)
    review = review_game(loads(record.dumps()), 0, samples=2, max_moves=3)
    assert review.decisions and all(d.samples == 2 for d in review.decisions)
    assert all(d.legal_moves <= 3 or len(d.candidates) <= 3 for d in review.decisions)


def test_progress_is_reported_for_every_decision():
    record = _played("gladius", seed=5)
    seen: list[tuple[int, int]] = []
    review = review_game(record, 0, samples=2, progress=lambda done, total: seen.append((done, total)))
    total = len(review.decisions)
    assert seen == [(k, total) for k in range(total + 1)]


# --------------------------------------------------------------------------- bounds and errors
def test_a_passed_deadline_leaves_every_decision_listed_as_not_analysed():
    record = _played("gladius", seed=4)
    review = review_game(record, 0, samples=50, deadline=time.monotonic())
    assert review.decisions == () and review.stopped_at_deadline
    assert review.to_json()["not_analysed"] == list(review.not_analysed) and review.not_analysed


def test_a_tiny_time_per_decision_cuts_every_search_to_the_minimum():
    record = _played("gladius", seed=4)
    review = review_game(record, 0, samples=10_000, seconds_per_decision=1e-9)
    assert review.decisions and all(d.samples == MIN_SAMPLES for d in review.decisions)


@pytest.mark.parametrize("seat", [-1, 2, 7])
def test_a_bad_seat_is_refused(seat):
    with pytest.raises(ReviewError, match="not a seat"):
        review_game(_played("gladius", seed=4), seat, samples=2)


def test_a_malformed_record_is_refused_with_a_clear_error():
    with pytest.raises(RecordError):
        review_game(loads('{"format": "ludus-record", "version": 1, "game": "gladius", "actions": [[0, "nonsense"]]}'),
                    0)
    with pytest.raises(LudusError):
        review_game(Record(game="no-such-game", options={}, actions=[]), 0)
    with pytest.raises(ReviewError, match="samples"):
        review_game(doors_record("good"), 0, samples=1, find_game=find)


def test_simultaneous_decisions_are_reviewed():
    record = _played("gorus-arena", seed=3)
    review = review_game(record, 1, samples=2, max_moves=3)
    assert review.decisions
    assert all(d.samples == 2 and len(d.candidates) <= 3 for d in review.decisions)
    assert all(record.actions[d.ply - 1][0] == 1 for d in review.decisions)
