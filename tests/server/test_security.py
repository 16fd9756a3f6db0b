"""Seat tokens only the server issued; cross-origin requests, form posts and foreign Host names refused."""

from __future__ import annotations

import pytest

from ludus.server.config import ServerConfig

from .helpers import LiveServer, Player, gm_table, is_view

COOKIE = "ludus_player"


def ws_handshake(port: int, code: str, host: str, origin: str | None = None, full: bool = False) -> str:
    """The status line (or the whole answer) a WebSocket upgrade with this exact Host header gets."""
    import base64
    import os
    import socket

    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET /ws/tables/{code} HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if origin:
        lines.append(f"Origin: {origin}")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        data = b""
        while b"\r\n" not in data or (full and not data.endswith(b"}")):
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    return data.decode() if full else data.split(b"\r\n", 1)[0].decode()


# ------------------------------------------------------------------ session fixation
def planted(chosen: str) -> dict[str, str]:
    return {"cookie": f"{COOKIE}={chosen}"}


def set_cookie(r) -> str | None:
    for value in r.headers.get_list("set-cookie"):
        if value.startswith(COOKIE + "="):
            return value.split(";", 1)[0].split("=", 1)[1]
    return None


@pytest.mark.parametrize("chosen", ["a", "x" * 43, "x" * 43 + "." + "y" * 43])
def test_a_client_chosen_cookie_is_never_adopted_as_a_seat_token(server, chosen):
    import httpx

    with httpx.Client(base_url=server.url, timeout=20) as c:
        body = {"game": "gorus-maximus", "options": {"players": 2}, "seats": [{"kind": "human"}] * 2, "name": "Ann"}
        r = c.post("/api/tables", json=body, headers=planted(chosen))
        assert r.status_code == 201 and r.json()["you"] == 0
        issued = set_cookie(r)
        assert issued and issued != chosen
        code = r.json()["code"]
        # the attacker who planted the value does not hold the seat
        assert c.get(f"/api/tables/{code}", headers=planted(chosen)).json()["you"] is None
        assert c.post(f"/api/tables/{code}/leave", headers=planted(chosen)).status_code == 403
        assert c.get(f"/api/tables/{code}", headers=planted(issued)).json()["you"] == 0
        # joining with a planted value also gets a fresh token
        r = c.post(f"/api/tables/{code}/join", json={"name": "Cy"}, headers=planted(chosen))
        assert r.status_code == 200 and r.json()["you"] == 1
        assert set_cookie(r) not in (None, chosen, issued)
        assert c.get(f"/api/tables/{code}", headers=planted(chosen)).json()["you"] is None


def test_an_issued_token_holds_its_seat_across_a_restart_and_a_forged_one_does_not(config):
    first = LiveServer(config)
    p = Player(first)
    code = gm_table(p, ["human", "human"])["code"]
    token = p.http.cookies.get(COOKIE)
    rand, _, mac = token.partition(".")
    assert rand and mac
    first.stop()
    second = LiveServer(config)  # the secret is in the database: the token still holds the seat
    p.http.base_url = second.url
    assert p.get(f"/api/tables/{code}").json()["you"] == 0
    forged = Player(second)
    forged.http.cookies.set(COOKIE, rand + "." + ("A" if mac[0] != "A" else "B") + mac[1:])
    assert forged.get(f"/api/tables/{code}").json()["you"] is None
    ws = forged.ws(code)
    assert ws.until(is_view)["you"] is None
    ws.close()
    forged.close()
    p.close()
    second.stop()


def test_a_planted_cookie_gets_no_seat_on_the_websocket(player, server):
    code = gm_table(player, ["human", "bot"])["code"]
    good = player.http.cookies.get(COOKIE)
    ws = player.ws(code)
    assert ws.until(is_view)["you"] == 0
    ws.close()
    player.http.cookies.clear()
    player.http.cookies.set(COOKIE, good.split(".")[0])
    ws = player.ws(code)
    assert ws.until(is_view)["you"] is None
    ws.close()


# ------------------------------------------------------------------ cross-origin and content type
def test_cross_origin_state_changes_are_refused(player, other, server):
    code = gm_table(player, ["human", "human"])["code"]
    leave = f"/api/tables/{code}/leave"
    form = {"content-type": "application/x-www-form-urlencoded"}
    for headers in ({"origin": "http://evil.example", **form}, {"origin": "null"},
                    {"referer": "http://evil.example/page", **form},
                    {"origin": f"http://127.0.0.1:{server.port + 1}"}):
        r = player.http.post(leave, headers=headers)
        assert r.status_code == 403 and r.json()["code"] == "cross_origin", (headers, r.text)
    r = player.http.post("/api/tables", json={"game": "gorus-maximus", "options": {"players": 2},
                                              "seats": [{"kind": "bot"}, {"kind": "bot"}]},
                         headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    assert player.get(f"/api/tables/{code}").json()["seats"][0]["taken"] is True
    assert len(player.get("/api/tables").json()) == 1
    # the same site, or no browser at all, may
    assert player.http.post(leave, headers={"origin": server.url}).status_code == 200
    gm_table(other, ["human", "human"])
    r = other.http.post("/api/tables", json={"game": "gorus-maximus", "options": {"players": 2},
                                             "seats": [{"kind": "bot"}, {"kind": "bot"}]},
                        headers={"referer": server.url + "/"})
    assert r.status_code == 201


@pytest.mark.parametrize("path", ["/api/tables", "/api/games/gorus-maximus/options"])
def test_json_endpoints_refuse_form_posts(player, path):
    for ctype, content in [("application/x-www-form-urlencoded", b"game=gorus-maximus"),
                           ("text/plain", b'{"game": "gorus-maximus", "seats": [{"kind": "bot"}]}'),
                           ("multipart/form-data; boundary=x", b"--x--")]:
        r = player.http.post(path, content=content, headers={"content-type": ctype})
        assert r.status_code == 415 and r.json()["code"] == "bad_content_type", r.text
    r = player.http.post(path, content=b"{}", headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code != 415
    assert player.get("/api/tables").json() == []


def test_join_refuses_a_form_post(player, other):
    code = gm_table(player, ["human", "human"])["code"]
    r = other.http.post(f"/api/tables/{code}/join", content=b"name=Bob",
                        headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    assert other.get(f"/api/tables/{code}").json()["seats"][1]["taken"] is False


# ------------------------------------------------------------------ DNS rebinding
@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8000", "[::1]:9000", "::1", "10.1.2.3:80", "localhost",
                                  "LOCALHOST:1234"])
def test_ip_literals_and_localhost_are_served(player, host):
    r = player.http.get("/api/games", headers={"host": host})
    assert r.status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.evil",
                                  "", "[::1", "a b"])
def test_other_host_names_are_refused(player, server, host):
    r = player.http.get("/api/games", headers={"host": host})
    assert r.status_code == 421 and r.json()["code"] == "bad_host", r.text
    r = player.http.post("/api/tables", json={"game": "gorus-maximus", "seats": [{"kind": "bot"}] * 4},
                         headers={"host": host})
    assert r.status_code == 421
    r = player.http.get("/", headers={"host": host})
    assert r.status_code == 421
    code = gm_table(player, ["human", "bot"])["code"]
    answer = ws_handshake(server.port, code, host, full=True)
    assert answer.startswith("HTTP/1.1 421") and '"code": "bad_host"' in answer, answer
    assert ws_handshake(server.port, code, f"127.0.0.1:{server.port}").startswith("HTTP/1.1 101")


def test_allowed_host_names_are_served(tmp_path):
    config = ServerConfig(database=f"sqlite:///{tmp_path / 'h.db'}", bot_delay=0.0, allowed_hosts=["games.example"])
    server = LiveServer(config)
    try:
        p = Player(server)
        assert p.http.get("/api/games", headers={"host": "games.example:8443"}).status_code == 200
        assert p.http.get("/api/games", headers={"host": "Games.Example"}).status_code == 200
        assert p.http.get("/api/games", headers={"host": "other.example"}).status_code == 421
        code = gm_table(p, ["human", "bot"])["code"]
        reply = ws_handshake(server.port, code, "games.example", origin="http://games.example")
        assert reply.startswith("HTTP/1.1 101")
        assert ws_handshake(server.port, code, "games.example", origin="http://evil.example").startswith("HTTP/1.1 4")
        p.close()
    finally:
        server.stop()
