"""Forced moves a player's page plays by itself: the `auto` flag on `act`, and its log mark."""

from __future__ import annotations

import json

import pytest

from .helpers import is_view


def gladius_table(player, seats=("human", "bot")):
    r = player.post("/api/tables", {"game": "gladius", "options": {}, "seats": [{"kind": k} for k in seats],
                                    "name": "Ann"})
    assert r.status_code == 201, r.text
    return r.json()["code"]


def auto_marks(entries):
    return [i for i, e in enumerate(entries) if len(e) > 3 and e[3] == {"auto": True}]


@pytest.mark.parametrize("value", ["yes", 1, 0, None, [], {}])
def test_a_hostile_auto_value_is_refused_clearly(player, server, value):
    code = gladius_table(player)
    ws = player.ws(code)
    view = ws.until(lambda m: is_view(m) and m["legal"])
    ws.send({"type": "act", "action": view["legal"][0]["action"], "moves": view["moves"], "id": 3, "auto": value})
    err = ws.error()
    assert err["code"] == "bad_message"
    assert "'auto' must be true or false" in err["message"]
    assert server.call(lambda: len(server.hub.tables[code].recorded)) == 0


def test_auto_is_accepted_only_for_the_single_legal_move_and_marked_for_the_player_only(player, other, server):
    code = gladius_table(player)
    ws = player.ws(code)
    watcher = other.ws(code)
    refused = marked = False
    view: dict = {"terminal": False, "legal": []}
    for _ in range(400):
        # the view that counted our last move may already be our next turn (the bot answered at once)
        if not (view["terminal"] or view["legal"]):
            view = ws.until(lambda m: is_view(m) and (m["terminal"] or bool(m["legal"])))
        if view["terminal"]:
            break
        legal = view["legal"]
        if len(legal) > 1 and not refused:
            # a choice is not a forced move: marking it "played automatically" would be a lie
            ws.send({"type": "act", "action": legal[0]["action"], "moves": view["moves"], "id": "c", "auto": True})
            err = ws.error()
            assert err["code"] == "not_forced" and "single legal move" in err["message"]
            refused = True
        if len(legal) == 1 and not marked:
            ws.send({"type": "act", "action": legal[0]["action"], "moves": view["moves"], "id": "f", "auto": True})
            ack = ws.until(lambda m: m["type"] in ("ack", "error"))
            assert ack["type"] == "ack", ack
            forced = legal[0]
            marked = True
        else:
            ws.send({"type": "act", "action": legal[0]["action"], "moves": view["moves"]})
        if refused and marked:
            break
        made = view["moves"]
        view = ws.until(lambda m, made=made: is_view(m) and m["moves"] > made)
    assert refused and marked, "the game never offered both a choice and a forced move"
    # The seat's own log (read afresh): exactly one entry carries the mark, the forced move itself.
    fresh = player.ws(code)
    first = fresh.until(is_view)
    marks = auto_marks(first["history"]["entries"])
    assert len(marks) == 1
    entry = first["history"]["entries"][marks[0]]
    assert entry[:3] == [0, forced["action"], forced["label"]]
    # ...and no other entry has a fourth element at all
    assert all(len(e) == 3 for i, e in enumerate(first["history"]["entries"]) if i != marks[0])
    # A spectator sees the move but not the mark: that it was forced says the hand held no attack.
    seen = other.ws(code).until(is_view)
    assert auto_marks(seen["history"]["entries"]) == []
    assert json.dumps(seen["history"]["entries"][marks[0]]) == json.dumps(entry[:3])
    for w in (ws, watcher, fresh):
        w.close()


def test_the_mark_is_only_in_the_players_own_log_and_never_on_a_hidden_move():
    """Only the mover's own log shows "played automatically": for anyone else it would tell that
    the hand held no other move, and a hidden move stays `[actor, "hidden", None]` (leak rule)."""
    from ludus.core.game import HIDDEN
    from ludus.games import get_game
    from ludus.server.views import ViewerLog

    game = get_game("gladius")
    state = game.new_initial_state(game.parse_options({}), seed=5)
    while len({actor for actor, _ in state.history if actor >= 0}) < 2:  # both fighters have moved
        seat = state.current_seats()[0]  # a seeded state settles chance by itself
        state.apply(state.legal_actions(seat)[0], seat)
    marks = set(range(len(state.history)))  # pretend every step was played automatically
    for viewer in (None, 0, 1):
        log_ = ViewerLog()
        log_.update(state, viewer, marks)
        for (actor, action), entry in zip(state.visible_history(viewer), log_.entries, strict=True):
            if action == HIDDEN:
                assert entry == [actor, HIDDEN, None]
            else:
                assert (len(entry) == 4) == (actor == viewer), (viewer, actor, entry)
    seat0 = ViewerLog()
    seat0.update(state, 0, marks)
    # a rebuilt log reuses the very same entries, so a connection is not sent its log again
    before = list(seat0.entries)
    seat0.update(state, 0, marks)
    assert all(a is b for a, b in zip(before, seat0.entries, strict=True))
