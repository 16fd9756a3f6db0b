"""``/api/tables/{code}/analysis``: finished games only, valid seats only, a bounded job with a result."""

from __future__ import annotations

import time

from ludus.server.analysis_jobs import AnalysisJobs

from .helpers import Player, gm_table, is_view, play_until_done


def _bot_game(player: Player, game: str = "gladius") -> str:
    r = player.post("/api/tables", {"game": game, "seats": [{"kind": "bot"}, {"kind": "bot"}]})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    end = time.time() + 120
    while player.get(f"/api/tables/{code}").json()["status"] != "finished":
        assert time.time() < end, "the bots did not finish"
        time.sleep(0.1)
    return code


def _wait(player: Player, code: str, seat: int) -> dict:
    end = time.time() + 120
    while True:
        body = player.get(f"/api/tables/{code}/analysis?seat={seat}").json()
        if body["status"] not in ("running", "queued"):
            return body
        assert {"done", "total"} <= set(body)
        assert time.time() < end, "the analysis did not finish"
        time.sleep(0.1)


def test_an_unfinished_game_is_refused(player):
    code = gm_table(player, ["human", "bot"])["code"]
    r = player.post(f"/api/tables/{code}/analysis", {"seat": 0})
    assert r.status_code == 409 and r.json()["code"] == "not_finished"
    assert player.get(f"/api/tables/{code}/analysis?seat=0").status_code == 409
    assert player.post("/api/tables/NOPE99/analysis", {"seat": 0}).status_code == 404


def test_a_finished_game_is_analysed_for_one_seat(player, server):
    server.app.state.analysis = AnalysisJobs(samples=2, seconds_per_decision=0.5, max_seconds=60)
    code = _bot_game(player)
    for bad in ({"seat": 2}, {"seat": -1}, {"seat": "0"}, {"seat": True}, {"seat": 0, "x": 1}, {}):
        r = player.post(f"/api/tables/{code}/analysis", bad)
        assert r.status_code in (400, 422), (bad, r.text)
    assert player.get(f"/api/tables/{code}/analysis?seat=5").status_code == 400
    assert player.get(f"/api/tables/{code}/analysis?seat=1").json()["status"] == "none"
    first = player.post(f"/api/tables/{code}/analysis", {"seat": 1})
    assert first.status_code == 200 and first.json()["status"] in ("running", "done")
    body = _wait(player, code, 1)
    assert body["status"] == "done", body
    review = body["review"]
    assert review["game"] == "gladius" and review["seat"] == 1
    assert review["totals"]["analysed"] == len(review["decisions"]) == len(review["curve"])
    record = player.get(f"/api/tables/{code}/record").json()
    for d in review["decisions"]:
        assert record["actions"][d["ply"] - 1][0] == 1  # the seat's own moves
        assert d["mark"] in ("best", "fine", "inaccuracy", "mistake", "blunder")
        assert d["samples"] >= 2
    # asked again: the kept result, at once
    again = player.post(f"/api/tables/{code}/analysis", {"seat": 1}).json()
    assert again["status"] == "done" and again["review"] == review


def test_the_server_says_busy_beyond_its_limits(player, server):
    jobs = AnalysisJobs(max_running=0, max_waiting=1, samples=2)
    server.app.state.analysis = jobs
    code = _bot_game(player)
    assert player.post(f"/api/tables/{code}/analysis", {"seat": 0}).json()["status"] == "queued"
    r = player.post(f"/api/tables/{code}/analysis", {"seat": 1})
    assert r.status_code == 503 and r.json()["code"] == "busy"


def test_a_human_game_is_analysed_after_it_ends(player, server):
    server.app.state.analysis = AnalysisJobs(samples=2, seconds_per_decision=0.2, max_seconds=0.001)
    code = gm_table(player, ["human", "bot"])["code"]
    ws = player.ws(code)
    ws.until(is_view)
    play_until_done(ws)
    ws.close()
    player.post(f"/api/tables/{code}/analysis", {"seat": 0})
    body = _wait(player, code, 0)
    assert body["status"] == "done"
    assert body["review"]["stopped_at_deadline"]  # the total time limit bounds the job


def _record() -> dict:
    from ludus.core.agent import RandomAgent
    from ludus.core.records import record_of
    from ludus.games import get_game

    state = get_game("gladius").new_initial_state({"hit_points": 3}, seed=2)
    agents = [RandomAgent(0), RandomAgent(1)]
    while not state.is_terminal():
        seat = state.current_seats()[0]
        state.apply(agents[seat].act(state.view(seat)), seat)
    return record_of(state, 2).to_json()


def _settle(jobs: AnalysisJobs, code: str, seat: int) -> dict:
    end = time.time() + 60
    while (job := jobs.get(code, seat)) is not None and job.status in ("queued", "running"):
        assert time.time() < end
        time.sleep(0.05)
    assert job is not None
    return job.to_json()


def test_a_worker_past_the_hard_limit_is_stopped_and_the_next_job_starts():
    jobs = AnalysisJobs(max_running=1, samples=2, max_seconds=0.0001, grace=0.0)
    record = _record()
    jobs.start("AAAA", 0, record)
    second = jobs.start("AAAA", 1, record)
    assert second.status == "queued"
    first = _settle(jobs, "AAAA", 0)
    assert first == {"status": "error", "seat": 0, "error": "the analysis took too long and was stopped"}
    assert _settle(jobs, "AAAA", 1)["status"] == "error"  # it ran after the first, and hit the same limit
    assert not jobs.running
    jobs.close()


def test_a_failed_job_is_started_again_and_a_malformed_record_says_why():
    jobs = AnalysisJobs(samples=2)
    bad = dict(_record(), actions=[[0, "nonsense"]])
    jobs.start("BBBB", 0, bad)
    failed = _settle(jobs, "BBBB", 0)
    assert failed["status"] == "error" and "action 1" in failed["error"]
    again = jobs.start("BBBB", 0, _record())
    assert again.status == "running"
    assert _settle(jobs, "BBBB", 0)["status"] == "done"
    jobs.close()
