"""The WebSocket protocol: each bad message gets an error for that client alone and changes nothing."""

from __future__ import annotations

import json

import pytest
from websockets.exceptions import InvalidStatus, WebSocketException

from .helpers import gm_table, is_view


@pytest.fixture
def duel(player, other):
    """A two-person Gorus Maximus table, both connected; returns (code, ws0, ws1)."""
    code = gm_table(player, ["human", "human"], options={"schools": "BF,GA,PA"})["code"]
    other.post(f"/api/tables/{code}/join", {"name": "Bob"})
    ws0, ws1 = player.ws(code), other.ws(code)
    for ws in (ws0, ws1):
        ws.until(lambda m: is_view(m) and m["table"]["status"] == "playing")
    yield code, ws0, ws1
    ws0.close()
    ws1.close()


def mover(ws0, ws1):
    """(ws of the seat to move, the other ws)."""
    seat = ws0.view["to_move"][0]
    return (ws0, ws1) if seat == 0 else (ws1, ws0)


def stored_moves(server, code) -> int:
    return server.call(lambda: len(server.hub.tables[code].recorded))


BAD = [
    ("not json", "bad_message", "not valid JSON"),
    ("[1, 2]", "bad_message", "JSON object"),
    (json.dumps({"type": "dance"}), "bad_message", "unknown message type"),
    (json.dumps({"type": "act", "moves": 0}), "bad_message", "needs the field 'action'"),
    (json.dumps({"type": "act", "action": {"play": "BF4"}, "moves": "0"}), "bad_message", "'moves'"),
    (json.dumps({"type": "act", "action": {"play": "BF4"}, "moves": 0, "seat": 1}), "bad_message", "unexpected field"),
    (json.dumps({"type": "ping", "id": "x" * 100}), "bad_message", "'id'"),
    (json.dumps({"type": "act", "action": "x" * 5000, "moves": 0}), "too_large", "larger than 4096"),
    (b"\x00\x01", "bad_message", "binary"),
]


@pytest.mark.parametrize("raw, code_, words", BAD)
def test_malformed_messages(duel, server, raw, code_, words):
    code, ws0, _ws1 = duel
    before = stored_moves(server, code)
    ws0.send(raw)
    err = ws0.error()
    assert err["code"] == code_ and words in err["message"]
    ws0.send({"type": "ping", "id": 7})
    assert ws0.until(lambda m: m["type"] == "pong")["id"] == 7  # still connected and answering
    assert stored_moves(server, code) == before


def test_game_rule_refusals_name_the_reason(duel, server):
    code, ws0, ws1 = duel
    me, them = mover(ws0, ws1)
    view = me.view
    hand = view["observation"]["hand"]
    moves = view["moves"]

    them.send({"type": "act", "action": {"play": them.view["observation"]["hand"][0]}, "moves": 0, "id": 1})
    assert them.error()["code"] == "not_your_turn"
    me.send({"type": "act", "action": {"play": "XX99"}, "moves": moves, "id": 2})
    err = me.error()
    assert err["code"] == "bad_action" and err["id"] == 2
    me.send({"type": "act", "action": {"fly": True}, "moves": moves})
    assert me.error()["code"] == "bad_action"
    missing = next(c for c in ("BF4", "GA4", "PA4", "BF5", "GA5") if c not in hand)
    me.send({"type": "act", "action": {"play": missing}, "moves": moves})
    err = me.error()
    assert err["code"] == "illegal" and "do not hold" in err["message"]
    # the same refusal, language-neutral, for a client that writes it in its reader's language
    assert err["reason"] == {"code": "gorus-maximus.not-held", "params": {"card": missing}}
    me.send({"type": "act", "action": {"play": hand[0]}, "moves": moves + 3})
    assert me.error()["code"] == "stale"
    assert stored_moves(server, code) == 0
    # and a good move after all that is accepted once, even if sent twice
    me.send({"type": "act", "action": view["legal"][0]["action"], "moves": moves, "id": "ok"})
    ack = me.until(lambda m: m["type"] in ("ack", "error"))
    assert ack == {"type": "ack", "id": "ok", "ply": 0}
    me.send({"type": "act", "action": view["legal"][0]["action"], "moves": moves, "id": "again"})
    assert me.error()["code"] in ("stale", "not_your_turn")
    assert stored_moves(server, code) == 1


def test_following_rule_refusal_explains_what_to_play(player, server):
    """Find a position where the mover holds the initiating school and tries another one."""
    code = gm_table(player, ["human", "bot"], options={"schools": "BF,GA,PA"})["code"]
    ws = player.ws(code)
    for _ in range(60):
        ws.until(lambda m: is_view(m) and m["legal"])
        view = ws.view
        legal = {m["action"]["play"] for m in view["legal"]}
        refused = [c for c in view["observation"]["hand"] if c not in legal]
        if refused and view["observation"]["bout"]:
            ws.send({"type": "act", "action": {"play": refused[0]}, "moves": view["moves"]})
            err = ws.error()
            assert err["code"] == "illegal" and "follow" in err["message"]
            ws.close()
            return
        ws.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"]})
    pytest.fail("never had a card to refuse")


def test_spectator_cannot_act_or_take_seats(duel, server):
    code, _ws0, _ws1 = duel
    from .helpers import Player

    watcher = Player(server)
    spec = watcher.ws(code)
    view = spec.until(is_view)
    assert view["you"] is None and view["legal"] == [] and view["observation"]["hand"] is None
    spec.send({"type": "act", "action": {"play": "BF4"}, "moves": 0})
    assert spec.error()["code"] == "not_seated"
    spec.send({"type": "resume"})
    assert spec.error()["code"] == "not_seated"
    assert stored_moves(server, code) == 0
    spec.close()
    watcher.close()


def test_flooding_is_rate_limited(duel, server):
    _code, ws0, _ws1 = duel
    for i in range(server.config.rate_burst + 10):
        ws0.send({"type": "ping", "id": i})
    err = ws0.error()
    assert err["code"] == "rate_limited"


def test_frames_beyond_the_protocol_limit_close_the_connection(duel):
    _code, ws0, _ws1 = duel
    ws0.send("x" * 70_000)
    with pytest.raises(WebSocketException):
        for _ in range(50):
            ws0.recv(timeout=5)


def test_cross_site_and_unknown_tables_are_refused(player, server):
    code = gm_table(player, ["human", "bot"])["code"]
    with pytest.raises(WebSocketException):
        ws = player.ws(code, Origin="http://evil.example")
        ws.recv(timeout=5)
    same = player.ws(code, Origin=server.url)
    assert same.until(is_view)["you"] == 0
    same.close()
    with pytest.raises((InvalidStatus, WebSocketException)):
        ws = player.ws("ZZZZZZ")
        ws.recv(timeout=5)


def test_moves_before_the_start_are_refused(player):
    code = gm_table(player, ["human", "human"])["code"]
    ws = player.ws(code)
    view = ws.until(is_view)
    assert view["table"]["status"] == "open"
    ws.send({"type": "act", "action": {"play": "BF4"}, "moves": 0})
    assert ws.error()["code"] == "not_started"
    ws.close()
