"""No message to a seat or spectator ever carries a card another seat still holds."""

from __future__ import annotations

import json
import logging
import re

import pytest

from ludus.core import records
from ludus.games import get_game

from .helpers import Player, gm_table, is_view, play_until_done

CARD = re.compile(r"\b(BF|BS|GA|PA|YS)\d{1,2}\b")


def hands_at(record, plies: set[int]) -> dict[int, list[set[str]]]:
    """Every seat's hand (as card codes) after each listed number of recorded moves."""
    game = get_game(record.game)
    state = records.initial_state(record, get_game)
    out = {}
    for p in range(len(record.actions) + 1):
        if p in plies:
            out[p] = [set(state.observation(s).to_json()["hand"]) for s in range(state.num_seats())]
        if p < len(record.actions):
            seat, raw = record.actions[p]
            state.apply(game.action_from_json(raw), seat)
    return out


@pytest.mark.parametrize("memory_aids", [False, True], ids=["plain", "memory-aids"])
def test_seat_and_spectator_messages_hold_no_hidden_card(player, server, caplog, memory_aids):
    """With memory aids the views also carry each side's won cards and Favour so far: still no card
    another seat holds (won cards were all played face up)."""
    caplog.set_level(logging.DEBUG)
    options = {"target": 2, "memory_aids": True} if memory_aids else {"target": 2}
    code = gm_table(player, ["human", "bot", "bot", "bot"], options=options)["code"]
    watcher = Player(server)
    spec = watcher.ws(code)
    ws = player.ws(code)
    ws.until(is_view)
    play_until_done(ws)
    spec.until(lambda m: is_view(m) and m["terminal"])
    record = records.parse_record(player.get(f"/api/tables/{code}/record").json())
    checked = 0
    for who, client in ((0, ws), (None, spec)):
        views = [m for m in client.seen if m["type"] == "view"]
        hands = hands_at(record, {m["ply"] for m in views})
        for msg in views:
            # the log names cards of earlier rounds (the deck is dealt anew each round), so it is checked below
            body = json.dumps({k: v for k, v in msg.items() if k != "history"})
            hidden = set().union(*(h for s, h in enumerate(hands[msg["ply"]]) if s != who))
            if not msg["terminal"]:
                tokens = set(re.findall(r'"([A-Z]{2}\d{1,2})"', body))
                assert not tokens & hidden, (who, msg["ply"], tokens & hidden)
            assert ("favour_so_far" in msg["observation"]) == memory_aids
            assert ("collected" in msg["observation"]) == memory_aids
            if who == 0:
                assert set(msg["observation"]["hand"]) == hands[msg["ply"]][0]
            else:
                assert msg["observation"]["hand"] is None
            checked += 1
        deals = [a for actor, a, *_ in client.history if actor == -1 and (a == "hidden" or "deal" in a)]
        assert len(deals) >= 40
        for a in deals:  # a deal is shown only to the seat that receives it
            assert a == "hidden" if who is None else (a == "hidden" or a["to"] == who)
        assert sum(1 for a in deals if a != "hidden") == (0 if who is None else len(deals) // 4)
    assert checked > 40
    # and the server's own log never names a card (the test's own client logs are left out)
    server_logs = [r for r in caplog.records if r.name.split(".")[0] in ("ludus", "uvicorn", "sqlalchemy", "alembic")]
    assert any(r.name == "ludus.server" for r in server_logs)
    assert not any(CARD.search(r.getMessage()) for r in server_logs)
    ws.close()
    spec.close()
    watcher.close()


def test_gladius_hand_notes_reach_only_their_seat(player, server):
    """Gladius's ``hand_notes`` (why each card in hand cannot be used now) go to their own seat
    only: the seat's messages carry exactly the game's observation for that seat (whose notes
    tests/games/gladius/test_hand_notes.py checks against hidden cards), the spectator's carry no
    hand and no notes."""
    r = player.post("/api/tables", {"game": "gladius", "options": {}, "name": "Ann",
                                    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    watcher = Player(server)
    spec = watcher.ws(code)
    ws = player.ws(code)
    ws.until(is_view)
    play_until_done(ws, pick=lambda legal: legal[0])
    spec.until(lambda m: is_view(m) and m["terminal"])
    record = records.parse_record(player.get(f"/api/tables/{code}/record").json())
    game = get_game("gladius")
    state = records.initial_state(record, get_game)
    truth = {0: state.observation(0).to_json()}
    for p, (seat, raw) in enumerate(record.actions, 1):
        state.apply(game.action_from_json(raw), seat)
        truth[p] = state.observation(0).to_json()
    views = [m for m in ws.seen if is_view(m) and m["table"]["status"] != "open"]
    noted = 0
    for msg in views:
        obs = msg["observation"]
        assert obs == truth[msg["ply"]]
        assert len(obs["hand_notes"]) == len(obs["hand"])
        noted += sum(1 for n in obs["hand_notes"] if n)
    assert noted, "the game never showed a card the seat could not use"
    for msg in (m for m in spec.seen if is_view(m)):
        assert msg["observation"]["hand"] == [] and msg["observation"]["hand_notes"] == []
    ws.close()
    spec.close()
    watcher.close()
