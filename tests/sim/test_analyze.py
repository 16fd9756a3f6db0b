"""Balance analysis: scenarios, seeds per scenario, side tallies and report rendering."""

from __future__ import annotations

import pytest

from ludus.games import get_game
from ludus.sim.analyze import AnalysisError, analyze, plan, render_html, render_markdown, report_blocks, scenario_seed
from ludus.sim.scenarios import SOLO, TEAMS, default_scenarios, scenarios_for, sides_of


def test_gorus_maximus_scenarios_cover_counts_solo_and_team_presets():
    game = get_game("gorus-maximus")
    scenarios = scenarios_for(game)
    keys = [s.key for s in scenarios]
    assert keys[:8] == ["solo"] + [f"players-{n}" for n in range(2, 9)]
    assert {"teams-2v2", "teams-2v2v1", "teams-3v2", "teams-4v4"} <= set(keys)
    assert len(set(keys)) == len(keys)
    for s in scenarios:
        options = game.parse_options(s.options)
        sides = sides_of(game, options)
        assert len(sides) == game.num_seats(options)
        if s.mode == TEAMS:
            assert len(set(sides)) < len(sides)
        if s.mode == SOLO:
            assert sides == (0,)


def test_default_scenarios_follow_the_player_option():
    game = get_game("gorus-maximus")
    assert [s.options["players"] for s in default_scenarios(game)] == list(range(1, 9))


def test_scenario_seeds_depend_on_the_key_not_the_position():
    assert scenario_seed(1, "players-4") == scenario_seed(1, "players-4")
    assert scenario_seed(1, "players-4") != scenario_seed(1, "players-5") != scenario_seed(2, "players-5")
    _, _, only = plan("gorus-maximus", 2, 7, keys=["players-4"])
    _, _, several = plan("gorus-maximus", 2, 7, keys=["solo", "players-4"])
    assert only[0][1] == several[1][1]


def test_plan_validates_before_playing():
    with pytest.raises(AnalysisError, match="positive"):
        plan("gorus-maximus", 0, 1)
    with pytest.raises(AnalysisError, match="unknown scenario"):
        plan("gorus-maximus", 2, 1, keys=["teams-9v9"])
    _, kind, planned = plan("gorus-maximus", 2, 1, agent="random", keys=["players-3"])
    assert kind == "random" and planned[0][1].agents == ("random",) * 3


def test_team_and_solo_tallies():
    a = analyze("gorus-maximus", games=4, seed=3, keys=["solo", "teams-2v2"], workers=1)
    solo, teams = a.scenarios
    assert solo.even is None and len(solo.side_tallies) == 1 and solo.players == 1
    assert teams.teams and teams.even == 0.5 and teams.side_name(0) == "Team A (seats 1,3)"
    assert sum(t.wins for t in teams.side_tallies) == 4 + teams.shared - teams.no_winner
    for seat, side in enumerate(teams.sides):  # team-mates win together
        assert teams.seats[seat].wins == teams.side_tallies[side].wins
    assert len(teams.metrics["rounds"]) == 4 == len(teams.decisions)
    again = analyze("gorus-maximus", games=4, seed=3, keys=["teams-2v2"], workers=1)
    assert again.scenarios[0].results == teams.results


def test_markdown_and_html_render_the_same_blocks():
    a = analyze("gorus-maximus", games=2, seed=5, keys=["players-2"], workers=1)
    blocks = report_blocks(a, {"seat_advantage": "seat_advantage.png"})
    md, page = render_markdown(blocks), render_html(blocks)
    assert md.startswith("# Gorus Maximus: balance report")
    assert "| Seat 1 |" in md and "<td>Seat 1</td>" in page
    assert "![Win rate by seat, with 95% intervals](seat_advantage.png)" in md
    assert "<code>ludus analyze --game gorus-maximus" in page and "<script" not in page
