"""Quick play: players who ask for the same game and count are seated together, bots fill the
seats only for those who allowed it and only after their own wait, and leaving is instant."""

from __future__ import annotations

import time

import pytest

from ludus.server.config import ServerConfig

from .helpers import LiveServer, Player, is_view
from .test_accounts import signup


def ask(p: Player, name: str = "Ann", **body) -> dict:
    r = p.post("/api/quick", {"game": "gorus-maximus", "players": 2, "name": name, **body})
    assert r.status_code == 200, r.text
    return r.json()


def until_matched(p: Player, timeout: float = 10) -> dict:
    end = time.time() + timeout
    while time.time() < end:
        status = p.get("/api/quick").json()
        if status["status"] == "matched":
            return status
        time.sleep(0.1)
    raise AssertionError(f"not matched: {status}")


def test_two_players_asking_for_the_same_game_get_one_table_and_a_third_waits(server, player, other):
    first = ask(player, "Ann")
    assert (first["status"], first["waiting"], first["table"]) == ("waiting", 1, None)
    third = Player(server)
    try:
        ask(third, "Cleo", game="gladius")  # another game: another pool
        completing = ask(other, "Bo")
        assert completing["status"] == "matched"  # the player who completes the pool learns it at once
        a, b = until_matched(player), until_matched(other)
        assert a["table"] == b["table"] and a["rated"] is False
        info = player.get(f"/api/tables/{a['table']}").json()
        assert info["status"] == "playing" and sorted(info["names"]) == ["Ann", "Bo"]
        assert {player.get(f"/api/tables/{a['table']}").json()["you"],
                other.get(f"/api/tables/{a['table']}").json()["you"]} == {0, 1}
        assert info["options"] == player.get(f"/api/tables/{a['table']}").json()["options"]
        assert third.get("/api/quick").json()["status"] == "waiting"  # nobody else wants Gladius
        ws = player.ws(a["table"])  # the matched player plays at the table
        assert ws.until(is_view)["you"] in (0, 1)
        ws.close()
    finally:
        third.close()


def test_bots_fill_the_seats_only_after_the_players_own_wait(server, player, other):
    ask(player, "Ann", players=3, bots_after=5)
    ask(other, "Bo", players=3)  # people only
    time.sleep(1.0)
    assert player.get("/api/quick").json()["status"] == "waiting"  # 5 s not over yet
    hub = server.hub
    server.call(lambda: setattr(hub.quick.entries[next(iter(hub.quick.entries))], "joined", time.monotonic() - 6))
    a = until_matched(player)
    info = player.get(f"/api/tables/{a['table']}").json()
    assert [s["kind"] for s in info["seats"]].count("bot") == 2 and "Ann" in info["names"]
    assert other.get("/api/quick").json()["status"] == "waiting"  # Bo did not allow bots


def test_leaving_is_instant_and_a_reloaded_page_keeps_its_place(server, player, other):
    ask(player, "Ann")
    joined = server.call(lambda: next(iter(server.hub.quick.entries.values())).joined)
    again = ask(player, "Ann")  # the page reloaded and asked again: same place in line
    assert again["status"] == "waiting"
    assert server.call(lambda: next(iter(server.hub.quick.entries.values())).joined) == joined
    assert player.post("/api/quick/leave").json() == {"status": "none"}
    assert player.get("/api/quick").json() == {"status": "none"}
    ask(other, "Bo")
    time.sleep(0.6)
    assert other.get("/api/quick").json()["status"] == "waiting"  # Ann is gone: no table with her


def test_a_player_whose_page_stopped_asking_is_dropped(tmp_path):
    server = LiveServer(ServerConfig(database=f"sqlite:///{tmp_path / 'q.db'}", bot_delay=0.0, quick_idle=2.0))
    a, b = Player(server), Player(server)
    try:
        ask(a, "Ann")
        time.sleep(3.0)  # Ann's page is gone
        ask(b, "Bo")
        time.sleep(0.6)
        assert b.get("/api/quick").json()["status"] == "waiting"
        assert a.get("/api/quick").json() == {"status": "none"}
    finally:
        a.close()
        b.close()
        server.stop()


def test_rated_quick_play_seats_accounts_at_a_rated_table(server, player, other):
    r = player.post("/api/quick", {"game": "gladius", "players": 2, "rated": True, "name": "x"})
    assert (r.status_code, r.json()["code"]) == (401, "not_logged_in")
    signup(player)
    signup(other, "Marcus")
    ask(player, game="gladius", rated=True)
    ask(other, game="gladius")  # casual: another pool
    ask(other, game="gladius", rated=True)
    a = until_matched(player)
    info = player.get(f"/api/tables/{a['table']}").json()
    assert info["rated"] and info["pool"] == "duel" and sorted(info["names"]) == ["Livia", "Marcus"]


@pytest.mark.parametrize("body, code", [
    ({"game": "nope", "players": 2}, "bad_game"),
    ({"game": "gorus-maximus", "players": 1}, "bad_players"),
    ({"game": "gorus-maximus", "players": 9}, "bad_players"),
    ({"game": "gladius", "players": 3}, "bad_players"),
    ({"game": "circus-maximus", "players": 2}, "bad_players"),
    ({"game": "gorus-maximus", "players": 2, "bots_after": 1}, "bad_wait"),
    ({"game": "gorus-maximus", "players": 2, "bots_after": 9999}, "bad_wait"),
    ({"game": "gorus-maximus", "players": 2, "name": ""}, "bad_name"),
    ({"game": "gorus-maximus", "players": "2"}, "bad_request"),
    ({"game": "gorus-maximus", "players": 2, "bots_after": True}, "bad_request"),
    ({"game": "gorus-maximus", "players": 2, "extra": 1}, "bad_request"),
])
def test_bad_requests_are_refused_and_nobody_is_added(server, player, body, code):
    r = player.post("/api/quick", {"name": "Ann", **body})
    assert r.status_code in (400, 422) and r.json()["code"] == code, r.text
    assert player.get("/api/quick").json() == {"status": "none"}
    assert server.call(lambda: dict(server.hub.quick.entries)) == {}
