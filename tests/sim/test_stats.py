"""Statistics: Wilson intervals, shares, per-seat tallies and OpenSkill ratings."""

from __future__ import annotations

import pytest

from ludus.sim import make_spec, run_tournament, summarize, wilson
from ludus.sim.tournament import GameResult


def test_wilson_matches_known_values():
    lo, hi = wilson(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(50, 100)
    assert (lo, hi) == (pytest.approx(0.4038, abs=1e-4), pytest.approx(0.5962, abs=1e-4))
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1) and lo == pytest.approx(0.7225, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def fake(index: int, seating, winners, scores) -> GameResult:
    n = len(seating)
    shares = tuple(1 / len(winners) if s in winners else 0.0 for s in range(n))
    return GameResult(index=index, seed=index, seating=tuple(seating), scores=tuple(scores),
                      winners=tuple(winners), shares=shares, decisions=10)


def test_shared_wins_count_fractionally_and_win_rate_fully():
    results = [fake(0, (0, 1), (0, 1), (2, 2)), fake(1, (1, 0), (0,), (3, 1))]
    s = summarize(results, ("a", "b"), ("a", "b"))
    a, b = s.agents["a"], s.agents["b"]
    assert a.share == 0.5 and a.wins == 1 and a.win_share == 0.25
    assert b.share == 1.5 and b.wins == 2 and b.win_rate == 1.0
    assert s.seats[0].share == 1.5 and s.agent_seats[("b", 0)].games == 1
    assert s.ranked() == ["b", "a"]


def test_ratings_reward_the_winner_and_ignore_arrival_order():
    # x wins every game wherever it sits; y and z always lose
    results = [fake(i, (0, 1, 2) if i % 2 else (2, 0, 1), (0,) if i % 2 else (1,), (3, 1, 0)) for i in range(20)]
    forward = summarize(results, ("x", "y", "z"), ("x", "y", "z"))
    backward = summarize(list(reversed(results)), ("x", "y", "z"), ("x", "y", "z"))
    assert forward.ratings.final == backward.ratings.final
    final = forward.ratings.final
    assert final["x"].mu > 25 > max(final["y"].mu, final["z"].mu)
    assert final["x"].sigma < 25 / 3
    assert [h[0] for h in forward.ratings.history] == sorted(h[0] for h in forward.ratings.history)


def test_a_real_tournament_summary_adds_up():
    spec = make_spec("gorus-maximus", {"players": 3}, "heuristic,random*2", 9, 5)
    s = summarize(run_tournament(spec, workers=1), spec.agents, spec.labels)
    assert sum(t.share for t in s.agents.values()) == pytest.approx(9)
    assert all(t.games == 9 for t in s.agents.values())
    assert all(t.games == 3 for t in s.agent_seats.values())
    data = s.to_json()
    assert [a["agent"] for a in data["agents"]] == ["heuristic", "random#1", "random#2"]
    assert all(len(a["seats"]) == 3 for a in data["agents"])
