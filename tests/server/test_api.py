"""The HTTP API: lobby, tables, seats and records, with every bad request answered clearly."""

from __future__ import annotations

import json
import time

import pytest

from ludus.core import records
from ludus.games import game_names, get_game

from .helpers import Player, gm_table, is_view, play_until_done


def test_games_list_every_installed_game_with_its_lobby_options(player):
    games = {g["name"]: g for g in player.get("/api/games").json()}
    assert set(games) == set(game_names())
    gm = games["gorus-maximus"]
    assert gm["title"] == "Gorus Maximus" and "heuristic" in gm["bots"]
    names = {o["name"] for o in gm["options"]}
    assert "players" in names and "cf_table" not in names  # a file path is not a lobby option


@pytest.mark.parametrize("game, option", [("gorus-maximus", "cf_table"), ("gladius", "card_sets"),
                                          ("circus-maximus", "cards")])
def test_options_that_name_host_files_are_hidden_and_refused(player, game, option):
    if game not in game_names():
        pytest.skip(f"{game} is not installed")
    info = next(g for g in player.get("/api/games").json() if g["name"] == game)
    assert option not in {o["name"] for o in info["options"]}
    r = player.post(f"/api/games/{game}/options", {"options": {option: "/etc/passwd"}})
    assert r.status_code == 400 and "names a file" in r.json()["error"] and "root" not in r.text


def test_option_check_gives_seat_count_or_the_reason(player):
    r = player.post("/api/games/gorus-maximus/options", {"options": {"players": 5}})
    assert r.status_code == 200 and r.json()["seats"] == 5
    r = player.post("/api/games/gorus-maximus/options", {"options": {"players": 9}})
    assert r.status_code == 400 and "1 to 8 players" in r.json()["error"]


@pytest.mark.parametrize("body, code, words", [
    ({"game": "chess", "seats": [{"kind": "human"}]}, 400, "unknown game"),
    ({"game": "gorus-maximus", "options": {"players": 4}, "seats": [{"kind": "human"}]}, 400, "a game of 4 seats"),
    ({"game": "gorus-maximus", "options": {"players": 2}, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "god"}]},
     400, "unknown bot"),
    ({"game": "gorus-maximus", "options": {"players": 2}, "seats": [{"kind": "human"}, {"kind": "alien"}]},
     422, "kind"),
    ({"game": "gorus-maximus", "options": {"players": 2, "cf_table": "/etc/passwd"},
      "seats": [{"kind": "human"}, {"kind": "bot"}]}, 400, "names a file"),
    ({"game": "gorus-maximus", "options": {"players": 2, "colour": "red"},
      "seats": [{"kind": "human"}, {"kind": "bot"}]}, 400, "colour"),
    ({"game": "gorus-maximus", "options": {"players": 2}, "seats": [{"kind": "human"}, {"kind": "bot"}],
      "clock": 999999}, 400, "turn clock"),
    ({"game": "gorus-maximus", "options": {"players": 2}, "seats": [{"kind": "human"}, {"kind": "bot"}],
      "name": "\u202eevil"}, 400, "invisible"),
    ({"game": "gorus-maximus", "seats": [], "surprise": 1}, 422, "surprise"),
])
def test_bad_table_requests_are_refused_and_create_nothing(player, body, code, words):
    r = player.post("/api/tables", body)
    assert r.status_code == code, r.text
    assert words in r.json()["error"]
    assert player.get("/api/tables").json() == []


def test_malformed_and_oversized_bodies_are_refused(player):
    r = player.http.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["code"] == "bad_request"
    big = {"game": "gorus-maximus", "seats": [{"kind": "human"}], "name": "x" * 40000}
    r = player.post("/api/tables", big)
    assert r.status_code == 413 and "larger than" in r.json()["error"]
    assert player.get("/api/tables").json() == []


def test_create_join_and_the_cookie_that_proves_a_seat(player, other, server):
    info = gm_table(player, ["human", "human", "bot", "bot"])
    assert info["you"] == 0 and info["status"] == "open"
    cookie = player.http.cookies.get("ludus_player")
    assert cookie and len(cookie) >= 40
    code = info["code"]
    assert other.get(f"/api/tables/{code}").json()["you"] is None
    assert [t["code"] for t in other.get("/api/tables").json()] == [code]
    r = other.post(f"/api/tables/{code}/join", {"name": "Bob", "seat": 0})
    assert r.status_code == 409 and "not free" in r.json()["error"]
    r = other.post(f"/api/tables/{code}/join", {"name": "  "})
    assert r.status_code == 400 and "name" in r.json()["error"]
    r = other.post(f"/api/tables/{code}/join", {"name": "Bob"})
    assert r.status_code == 200 and r.json()["you"] == 1 and r.json()["status"] == "playing"
    assert other.post(f"/api/tables/{code}/join", {"name": "Bob"}).json()["you"] == 1  # same token, same seat
    third = Player(server)
    r = third.post(f"/api/tables/{code}/join", {"name": "Cy"})
    assert r.status_code == 409 and "watch" in r.json()["error"]
    third.close()
    # the database keeps only a hash of the token
    row = server.call(lambda: server.hub.tables[code].seats[0].token_hash)
    assert row != cookie and len(row) == 64


def test_leave_before_the_start_frees_the_seat(player, other):
    code = gm_table(player, ["human", "human"])["code"]
    assert player.post(f"/api/tables/{code}/leave").json()["seats"][0]["taken"] is False
    assert other.post(f"/api/tables/{code}/leave").status_code == 403


def test_unknown_table_is_a_clear_404(player):
    r = player.get("/api/tables/NOPE99")
    assert r.status_code == 404 and "no table" in r.json()["error"]
    assert player.get("/api/tables/..%2F..%2Fetc").status_code == 404


def test_record_before_the_end_holds_only_what_the_seat_saw(player, server):
    code = gm_table(player, ["human", "bot", "bot", "bot"])["code"]
    ws = player.ws(code)
    ws.until(is_view)
    partial = player.get(f"/api/tables/{code}/record")
    assert partial.status_code == 200 and "attachment" in partial.headers["content-disposition"]
    data = partial.json()
    assert data["complete"] is False and "seed" not in data and data["viewer"] == 0
    state = server.call(lambda: server.hub.tables[code].state.clone())
    others = {c for s in (1, 2, 3) for c in state.observation(s).to_json()["hand"]}
    text = json.dumps(data)
    assert not any(f'"{c}"' in text for c in others)
    assert sum(1 for _, a in data["actions"] if a == "hidden") == 30
    assert player.get(f"/api/tables/{code}/replay").status_code == 409
    play_until_done(ws)
    ws.close()
    full = records.parse_record(player.get(f"/api/tables/{code}/record").json())
    assert full.seed is not None and full.result is not None
    final = records.replay(full, get_game)
    assert final.is_terminal()
    replay = player.get(f"/api/tables/{code}/replay?seat=2").json()
    assert len(replay["frames"]) == len(full.actions) + 1 and replay["viewer"] == 2
    assert replay["frames"][-1]["observation"]["winners"] == final.winners()
    assert player.get(f"/api/tables/{code}/replay?seat=9").status_code == 400


def test_rematch_seats_the_same_players_at_a_new_table(player, server):
    code = gm_table(player, ["human", "bot"])["code"]
    assert player.post(f"/api/tables/{code}/rematch").status_code == 409
    ws = player.ws(code)
    ws.until(is_view)
    play_until_done(ws)
    stranger = Player(server)
    assert stranger.post(f"/api/tables/{code}/rematch").status_code == 403
    stranger.close()
    new = player.post(f"/api/tables/{code}/rematch").json()
    assert new["code"] != code and new["you"] == 0 and new["status"] == "playing" and new["rematch_of"] == code
    assert player.post(f"/api/tables/{code}/rematch").json()["code"] == new["code"]  # asked twice, one rematch
    msg = ws.until(lambda m: is_view(m) and m["table"]["rematch"] == new["code"])
    assert msg["table"]["rematch"] == new["code"]
    ws.close()


def test_every_game_can_be_created_and_played_by_bots(player):
    for name in game_names():
        game = get_game(name)
        n = game.num_seats(game.parse_options({}))
        r = player.post("/api/tables", {"game": name, "seats": [{"kind": "bot"}] * n})
        assert r.status_code == 201, (name, r.text)
        assert r.json()["status"] == "playing"


def test_a_trained_bot_sits_at_a_table_and_plays_it_to_the_end(player):
    if "gladius" not in game_names():
        pytest.skip("gladius is not installed")
    info = next(g for g in player.get("/api/games").json() if g["name"] == "gladius")
    assert info["bots"].index("trained") < info["bots"].index("heuristic")  # weakest first
    r = player.post("/api/tables", {"game": "gladius", "seats": [{"kind": "bot", "bot": "trained"},
                                                                 {"kind": "bot", "bot": "heuristic"}]})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    end = time.time() + 60
    while player.get(f"/api/tables/{code}").json()["status"] != "finished":
        assert time.time() < end, "the bots did not finish the game"
        time.sleep(0.2)
    record = player.get(f"/api/tables/{code}/record").json()
    assert record["actions"]
