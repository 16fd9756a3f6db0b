"""Adding a game is one folder: the Three cards toy, installed as its own distribution
(``tests/plugins/ludus_toy_dist``), is found through the ``ludus.games`` entry point and
works in every layer (command line, terminal, interop suites, tournaments, analysis)
without a line of Ludus naming it.
"""

from __future__ import annotations

import csv
import importlib.metadata
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from ludus.core.errors import IllegalAction, RecordError
from ludus.core.game import CHANCE, HIDDEN, play_random
from ludus.core.rng import Rng
from ludus.games import game_names, get_game, get_plugin

from .toy import DIST, DIST_NAME, GAME, PACKAGE, Installed, build_wheel, plain_env

REPO = Path(__file__).resolve().parents[2]
SHIPPED = ("gorus-maximus", "gladius", "circus-maximus", "gorus-arena")

pytestmark = pytest.mark.usefixtures("toy")


def ludus(installed: Installed | None, *args: str, stdin: str = "", timeout: int = 300,
          cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    """``ludus ARGS`` in a subprocess, with the toy on its PYTHONPATH unless ``installed`` is None."""
    env = installed.env() if installed is not None else plain_env()
    return subprocess.run([sys.executable, "-m", "ludus.cli.main", *args], input=stdin, capture_output=True,
                          text=True, env=env, timeout=timeout, cwd=cwd)


# --------------------------------------------------------------------------- the distribution
def test_the_game_comes_from_its_own_distribution(toy):
    dist = importlib.metadata.distribution(DIST_NAME)
    eps = [ep for ep in dist.entry_points if ep.group == "ludus.games"]
    assert [(ep.name, ep.value) for ep in eps] == [(GAME, f"{PACKAGE}:PLUGIN")]
    assert dist.requires == ["ludus"]
    plugin = get_plugin(GAME)
    assert plugin.package == PACKAGE and plugin.page_script is None and plugin.terminal is None
    module_file = Path(sys.modules[PACKAGE].__file__).resolve()
    assert module_file.is_relative_to(toy.path.resolve())  # the installed copy, not the source folder
    assert game_names()[:4] == list(SHIPPED) and game_names()[-1] == GAME  # order 100: after the shipped
    assert get_game(GAME).title == "Three cards"


def test_the_hand_built_wheel_matches_the_pyproject(tmp_path):
    """The fallback wheel carries the pyproject's name, dependencies and entry point."""
    import zipfile

    with zipfile.ZipFile(build_wheel(DIST, tmp_path)) as zf:
        names = zf.namelist()
        entry_points = zf.read("ludus_three_cards-0.1.0.dist-info/entry_points.txt").decode()
        metadata = zf.read("ludus_three_cards-0.1.0.dist-info/METADATA").decode()
    assert f"{PACKAGE}/game.py" in names and "ludus_three_cards-0.1.0.dist-info/RECORD" in names
    assert entry_points == f"[ludus.games]\n{GAME} = {PACKAGE}:PLUGIN\n\n"
    assert f"Name: {DIST_NAME}\n" in metadata and "Requires-Dist: ludus\n" in metadata
    unpacked = tmp_path / "site"  # the last fallback, for an interpreter without pip
    with zipfile.ZipFile(build_wheel(DIST, tmp_path / "again")) as zf:
        zf.extractall(unpacked)
    (found,) = importlib.metadata.distributions(path=[str(unpacked)])
    assert found.metadata["Name"] == DIST_NAME
    assert [(ep.group, ep.name, ep.value) for ep in found.entry_points] == [("ludus.games", GAME, f"{PACKAGE}:PLUGIN")]


def test_no_file_outside_the_toy_names_it():
    """Ludus itself (and its packaging) knows nothing of the toy: neither its game id, nor its
    package, nor its folder (prose such as "three cards each" in a card list is not a mention)."""
    pattern = re.compile(r"three-cards|three_cards|ludus-three|ludus_toy")
    places = [REPO / "ludus", REPO / "pyproject.toml", REPO / "requirements"]
    found = []
    for place in places:
        files = [place] if place.is_file() else sorted(p for p in place.rglob("*") if p.is_file())
        for path in files:
            if path.suffix in (".pyc",) or "__pycache__" in path.parts:
                continue
            text = path.read_bytes().decode("utf-8", errors="replace")
            if pattern.search(text):
                found.append(str(path.relative_to(REPO)))
    assert not found


# --------------------------------------------------------------------------- the rules
def test_random_games_are_complete_deterministic_and_zero_sum():
    game = get_game(GAME)
    endings = set()
    for seed in range(60):
        a = play_random(game.new_initial_state({"ante": 2}, seed=seed), Rng(seed))
        b = play_random(game.new_initial_state({"ante": 2}, seed=seed), Rng(seed))
        assert a.history == b.history and a.to_json() == b.to_json()
        assert a.is_terminal() and len(a.winners()) == 1 and sum(a.scores()) == 0
        assert abs(a.scores()[0]) in (2.0, 3.0)  # the ante, plus the bet when one was called
        assert a.returns()[a.winners()[0]] == 1.0
        endings.add(tuple(a.moves))
    assert endings == {("pass", "pass"), ("pass", "bet", "fold"), ("pass", "bet", "call"),
                       ("bet", "fold"), ("bet", "call")}


def test_the_other_card_stays_hidden_until_a_showdown():
    game = get_game(GAME)
    state = game.new_initial_state(None, seed=3)
    assert state.current_seats() == (0,) and [a.to_json() for a in state.legal_actions()] == [
        {"move": "pass"}, {"move": "bet"}]
    for seat in (0, 1):
        obs = state.observation(seat).to_json()
        assert obs["your_card"] == state.cards[seat] and obs["shown"] == [None, None]
        seen = [a for actor, a in state.visible_history(seat) if actor == CHANCE]
        assert seen.count(HIDDEN) == 1 and len(seen) == 2
    assert state.observation(None).to_json()["your_card"] is None
    with pytest.raises(IllegalAction):
        state.apply(game.action_from_json({"move": "call"}))
    state.apply(game.action_from_json({"move": "bet"}))
    state.apply(game.action_from_json({"move": "fold"}))
    assert state.is_terminal() and state.winners() == [0]
    assert state.observation(1).to_json()["shown"] == [None, None]  # a fold shows nothing
    shown = game.new_initial_state(None, seed=3)
    for kind in ("pass", "pass"):
        shown.apply(game.action_from_json({"move": kind}))
    assert shown.observation(None).to_json()["shown"] == shown.cards


def test_positions_and_actions_round_trip_and_bad_ones_are_refused():
    game = get_game(GAME)
    state = game.new_initial_state(None, seed=None)
    for seed in range(10):
        state = play_random(game.new_initial_state(None, seed=seed), Rng(seed + 100))
        copy = game.state_from_json(json.loads(json.dumps(state.to_json())))
        assert copy.to_json() == state.to_json() and copy.winners() == state.winners()
        for _, action in state.history:
            assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action
    bad = [{"cards": [1, 1], "moves": []}, {"cards": [None, 2], "moves": []}, {"cards": [1, 4], "moves": []},
           {"cards": [1, 2], "moves": ["call"]}, {"cards": [1, None], "moves": ["bet"]},
           {"cards": [1, 2], "moves": ["bet", "call", "bet"]}, {"cards": [True, 2], "moves": []}]
    for position in bad:
        with pytest.raises(RecordError):
            game.state_from_json({"game": GAME, "options": {}, "rng": None, "state": position})
    for action in ({"move": "raise"}, {"deal": 2, "card": 1}, {"deal": 0, "card": True}, "pass"):
        with pytest.raises(RecordError):
            game.action_from_json(action)


def test_sample_state_keeps_what_the_seat_knows():
    game = get_game(GAME)
    rng = Rng(5)
    for seed in range(20):
        state = game.new_initial_state(None, seed=seed)
        if seed % 2:
            state.apply(game.action_from_json({"move": "pass"}))
        seat = state.current_seats()[0]
        view = state.view(seat)
        others = set()
        for _ in range(12):
            sample = game.sample_state(view, rng)
            assert sample.view(seat) == view
            assert sample.rng is not None and sample.cards[seat] == state.cards[seat]
            others.add(sample.cards[1 - seat])
        assert others == {1, 2, 3} - {state.cards[seat]}  # both unseen cards come up


# --------------------------------------------------------------------------- command line and terminal
def test_ludus_games_lists_the_toy_only_when_it_is_installed(toy):
    with_toy = ludus(toy, "games")
    assert with_toy.returncode == 0, with_toy.stderr
    for name in SHIPPED + (GAME,):
        assert f"({name}," in with_toy.stdout
    assert "Three cards (three-cards, 2-2 players)" in with_toy.stdout and "ante" in with_toy.stdout
    without = ludus(None, "games")
    assert without.returncode == 0, without.stderr
    assert all(f"({name}," in without.stdout for name in SHIPPED) and GAME not in without.stdout
    unknown = ludus(None, "games", GAME)
    assert unknown.returncode == 2 and "unknown game" in unknown.stdout


def test_a_whole_game_in_the_terminal_then_its_record_replays(toy, tmp_path):
    record = tmp_path / "game.json"
    for seat in ("1", "2"):
        done = ludus(toy, "play", GAME, "--seat", seat, "--bots", "heuristic", "--seed", "11",
                     "--save", str(record), stdin="1\n" * 5)
        assert done.returncode == 0, done.stdout + done.stderr
        out = done.stdout
        assert "Three cards" in out and "choose 1-2" in out and "Game over" in out and "winner" in out
        assert "(heuristic bot)" in out and "Record saved" in out
        data = json.loads(record.read_text())
        assert data["game"] == GAME and data["result"]["winners"] in ([0], [1])
        replay = ludus(toy, "replay", str(record))
        assert replay.returncode == 0, replay.stdout + replay.stderr
        assert "Game over" in replay.stdout


# --------------------------------------------------------------------------- OpenSpiel
def test_openspiel_suites():
    pyspiel = pytest.importorskip("pyspiel")
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from ludus.interop import openspiel as bridge

    from ..interop.test_openspiel import play_with, random_walk

    game = bridge.load(GAME)
    assert bridge.openspiel_name(GAME) in pyspiel.registered_names()
    assert game.get_parameters() == {"ante": 1} and game.num_distinct_actions() == 4
    assert game.max_chance_outcomes() == 6 and game.max_game_length() == 3
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)
    pyspiel.random_sim_test(bridge.load(GAME, ante=3), num_sims=5, serialize=True, verbose=False)

    rng = np.random.RandomState(5)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    for depth in (0, 1):
        state = random_walk(game.new_initial_state(), rng, depth)
        while state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        p = state.current_player()
        for _ in range(5):
            sample = state.resample_from_infostate(p, sampler)
            assert sample.information_state_string(p) == state.information_state_string(p)
            assert sample.legal_actions() == state.legal_actions()
            assert random_walk(sample, rng, 10**9).is_terminal()

    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(i)) for i in range(2)]
    assert play_with(game, bots, np.random.RandomState(1)).is_terminal()
    cpp = [pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, i), 2.0, 8, 50, False, i, False)
           for i in range(2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), cpp, 2)
    assert sorted(returns) == [0.0, 1.0]
    is_bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 16, random_state=np.random.RandomState(i)) for i in range(2)]
    for seed in range(4):
        assert play_with(game, is_bots, np.random.RandomState(seed)).is_terminal()


# --------------------------------------------------------------------------- PettingZoo and Gymnasium
def test_pettingzoo_api_and_seed_tests():
    pytest.importorskip("pettingzoo")
    import numpy as np
    from pettingzoo.test import api_test, seed_test

    from ludus.interop.pettingzoo_env import env

    from ..interop.test_pettingzoo import EXPECTED_WARNINGS

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(GAME, {}, render_mode="ansi"), num_cycles=150)
        seed_test(lambda: env(GAME, {"ante": 2}), num_cycles=60)
    assert not {str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)}

    e = env(GAME, {})
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert obs["action_mask"].sum() == 2  # pass/bet or fold/call
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(total.values()) == [0.0, 1.0]


def test_gymnasium_check_env_and_an_episode():
    pytest.importorskip("gymnasium")
    import numpy as np
    from gymnasium.utils.env_checker import check_env

    from ludus.interop.gymnasium_env import LudusSingleAgentEnv

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(LudusSingleAgentEnv(GAME, {}, seat=1, opponents="heuristic", render_mode="ansi"),
                  skip_render_check=False)
    e = LudusSingleAgentEnv(GAME, {}, seat=0, opponents="random")
    obs, _ = e.reset(seed=9)
    done, reward = False, 0.0
    while not done:
        obs, reward, done, truncated, _ = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert not truncated
    assert reward == e.state.returns()[0] and e.state.is_terminal()


# --------------------------------------------------------------------------- tournaments and analysis
def test_tournament_command(toy, tmp_path):
    out = tmp_path / "t"
    done = ludus(toy, "tournament", "--game", GAME, "--agents", "heuristic,random", "--games", "40",
                 "--seed", "3", "--workers", "2", "--out", str(out), "--no-plots", "--records")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Three cards" in done.stdout and "tournament" in done.stdout
    with (out / "games.csv").open() as f:
        games = list(csv.DictReader(f))
    assert len(games) == 40 and sorted(int(g["game"]) for g in games) == list(range(40))
    assert len(list((out / "records").glob("game-*.json"))) == 40
    meta = json.loads((out / "tournament.json").read_text())
    summary = meta["summary"]
    assert summary["games"] == 40 and 2 <= summary["mean_decisions"] <= 3
    agents = {a["agent"]: a for a in summary["agents"]}
    assert {name: a["games"] for name, a in agents.items()} == {"heuristic": 40, "random": 40}
    assert sum(a["wins"] for a in agents.values()) == 40  # every game finished with one winner
    assert all([s["games"] for s in a["seats"]] == [20, 20] for a in agents.values())  # seats rotated
    assert sum(a["mean_score"] for a in agents.values()) == pytest.approx(0.0)  # chips change hands


def test_tournament_api_with_an_ismcts_level():
    from ludus.sim import make_spec, run_tournament

    spec = make_spec(GAME, {}, "ismcts-easy,heuristic", 8, 21)
    results = run_tournament(spec, workers=1)
    assert [r.index for r in results] == list(range(8))
    for r in results:
        assert len(r.winners) == 1 and sorted(r.shares) == [0.0, 1.0] and sum(r.scores) == 0
        assert 2 <= r.decisions <= 3
    again = run_tournament(spec, workers=2)
    assert [(r.seed, r.scores, r.winners) for r in again] == [(r.seed, r.scores, r.winners) for r in results]


def test_analyze_command_with_the_default_profile(toy, tmp_path):
    listed = ludus(toy, "analyze", "--game", GAME, "--list")
    assert listed.returncode == 0 and "Three cards scenarios" in listed.stdout
    out = tmp_path / "a"
    done = ludus(toy, "analyze", "--game", GAME, "--games", "30", "--seed", "1", "--workers", "1",
                 "--out", str(out), "--no-plots")
    assert done.returncode == 0, done.stdout + done.stderr
    report = (out / "report.md").read_text()
    assert "Three cards" in report and "heuristic" in report
