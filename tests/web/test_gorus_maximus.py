"""Two people and two bots play Gorus Maximus to the end in Chromium, through a refresh and a crash."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from ludus.core import records
from ludus.games import get_game
from ludus.server.db import ActionRow, make_engine

PHONE = {"width": 390, "height": 844}

STATE_JS = """() => {
  const s = document.getElementById('summary');
  return {
    playable: [...document.querySelectorAll('#hand button.card.playable:not([disabled])')].map(b => b.dataset.card),
    unplayable: [...document.querySelectorAll('#hand button.card.unplayable:not([disabled])')].map(b => b.dataset.card),
    bout: document.querySelectorAll('.bout[aria-label="Current bout"] figure').length,
    over: !!s && !s.classList.contains('hidden'),
    conn: document.getElementById('conn').textContent,
    notice: document.getElementById('notice').textContent,
  };
}"""


def hands_by_ply(record) -> dict[int, list[set[str]]]:
    game = get_game(record.game)
    state = records.initial_state(record, get_game)
    out = {0: [set(state.observation(s).to_json()["hand"]) for s in range(state.num_seats())]}
    for p, (seat, raw) in enumerate(record.actions, 1):
        state.apply(game.action_from_json(raw), seat)
        out[p] = [set(state.observation(s).to_json()["hand"]) for s in range(state.num_seats())]
    return out


def test_two_browsers_two_bots_refresh_crash_and_finish(live, browser, shots, tmp_path):
    ann_ctx = browser.new_context(viewport=PHONE, accept_downloads=True)
    bob_ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    errors: list[str] = []
    for page in (ann, bob):
        page.on("pageerror", lambda e: errors.append(str(e)))

    # Ann creates the table in the lobby: two people, two heuristic bots, two Crowd Support to win
    ann.goto(live.url + "/")
    ann.fill("#name", "Ann")
    ann.click("#options summary")
    ann.fill("#opt-target", "2")
    ann.locator("#opt-target").dispatch_event("change")
    ann.wait_for_selector("#seat-3-kind")
    ann.select_option("#seat-1-kind", "human")
    ann.screenshot(path=str(shots / "lobby-phone.png"), full_page=True)
    ann.click("#create")
    ann.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    table_url = ann.url
    code = table_url.rsplit("/", 1)[1]
    ann.wait_for_selector("#share-link")  # the creator is told what to share while seats are free
    assert code in ann.inner_text("#banner")

    # Bob opens the shared link and joins
    bob.goto(table_url)
    bob.fill("#join-name", "Bob")
    bob.click("#join-button")
    bob.wait_for_selector("#hand")
    ann.wait_for_selector("#hand")

    moves = {"ann": 0, "bob": 0}
    refused_reason = ""
    refreshed = crashed = pictured = False
    spectator = None
    spectator_frames: list[str] = []
    deadline = time.time() + 150
    while time.time() < deadline:
        progressed = False
        for who, page in (("ann", ann), ("bob", bob)):
            st = page.evaluate(STATE_JS)
            if not st["playable"]:
                continue
            if who == "bob" and not refused_reason and st["unplayable"] and st["bout"]:
                page.click(f'#hand button[data-card="{st["unplayable"][0]}"]')
                page.wait_for_function("() => document.getElementById('notice').textContent.length > 0")
                refused_reason = page.inner_text("#notice")
                continue
            card = st["playable"][0]
            if who == "ann":  # Ann plays by keyboard
                page.focus(f'#hand button[data-card="{card}"]')
                page.keyboard.press("Enter")
            else:
                page.click(f'#hand button[data-card="{card}"]')
            try:
                page.wait_for_selector(f'#hand button[data-card="{card}"]', state="detached", timeout=10_000)
                moves[who] += 1
                progressed = True
            except Exception:  # noqa: BLE001 - e.g. the connection dropped just then; the page will catch up
                pass
        total = moves["ann"] + moves["bob"]
        if total >= 4 and not pictured:
            ann.screenshot(path=str(shots / "gorus-maximus-table-phone.png"), full_page=True)
            bob.screenshot(path=str(shots / "gorus-maximus-table-desktop.png"), full_page=True)
            pictured = True
        if total >= 6 and spectator is None:
            spec_ctx = browser.new_context(viewport=PHONE)
            spectator = spec_ctx.new_page()
            spectator.on("websocket", lambda ws: ws.on("framereceived", lambda payload: spectator_frames.append(
                payload if isinstance(payload, str) else payload.decode())))
            spectator.goto(table_url)
            spectator.wait_for_selector("#board h2")
            assert spectator.locator("#hand").count() == 0 and spectator.locator("[data-card]").count() == 0
            assert "watching" in spectator.inner_text("#banner")
            spectator.screenshot(path=str(shots / "gorus-maximus-spectator.png"), full_page=True)
        if total >= 10 and not refreshed:
            ann.reload()
            ann.wait_for_selector("#board h2")
            refreshed = True
        if total >= 16 and refreshed and not crashed:
            live.kill()
            ann.wait_for_function("() => document.getElementById('conn').textContent.includes('reconnecting')")
            live.start()
            for page in (ann, bob):
                page.wait_for_function("() => document.getElementById('conn').textContent === 'connected'",
                                       timeout=20_000)
            crashed = True
        if ann.evaluate(STATE_JS)["over"] and bob.evaluate(STATE_JS)["over"]:
            break
        if not progressed:
            time.sleep(0.05)
    else:
        raise AssertionError(f"the game did not finish; moves {moves}; server said {''.join(live.output[-20:])}")

    assert refreshed and crashed and spectator is not None
    assert not errors, errors
    assert "follow" in refused_reason or "Challenge" in refused_reason, refused_reason
    champions = ann.inner_text("#champions")
    assert "Champion" in champions and champions == bob.inner_text("#champions")
    ann.screenshot(path=str(shots / "gorus-maximus-game-over.png"), full_page=True)

    # the record: every move of both people is there once, played by them, and it replays to the same end
    with ann.expect_download() as download:
        ann.click("#record")
    record = records.parse_record(json.loads(Path(download.value.path()).read_text(encoding="utf-8")))
    final = records.replay(record, get_game)
    assert final.is_terminal() and record.players[:2] == ["Ann", "Bob"]
    engine = make_engine(str(live.db))
    with Session(engine) as s:
        rows = s.scalars(select(ActionRow).where(ActionRow.table_code == code).order_by(ActionRow.ply)).all()
    engine.dispose()
    assert [r.ply for r in rows] == list(range(len(record.actions)))
    assert all(not r.by_bot for r in rows if r.seat in (0, 1)) and all(r.by_bot for r in rows if r.seat in (2, 3))
    assert sum(1 for r in rows if r.seat in (0, 1)) >= moves["ann"] + moves["bob"]

    # the spectator was never sent a card that any seat still held
    hands = hands_by_ply(record)
    views = [json.loads(f) for f in spectator_frames]
    views = [v for v in views if v.get("type") == "view" and not v["terminal"]]
    assert views
    for v in views:
        body = json.dumps({k: x for k, x in v.items() if k != "history"})
        held = set().union(*hands[v["ply"]])
        assert not set(re.findall(r'"([A-Z]{2}\d{1,2})"', body)) & held
        assert all(e[1] == "hidden" or "deal" not in e[1] for e in v["history"]["entries"] if e[0] == -1)

    # the replay viewer steps through the finished game by keyboard
    ann.click("#replay-link")
    ann.wait_for_selector("#step")
    ann.wait_for_function("() => document.getElementById('step').textContent.startsWith('Move 0')")
    for _ in range(3):
        ann.keyboard.press("ArrowRight")
    assert ann.inner_text("#step").startswith(f"Move 3 of {len(record.actions)}")
    ann.screenshot(path=str(shots / "gorus-maximus-replay.png"), full_page=True)

    # a rematch seats both people again; Bob is offered the link
    bob.click("#rematch")
    bob.wait_for_url(lambda url: url != table_url)
    bob.wait_for_selector("#hand")
    ann.goto(table_url)
    ann.wait_for_selector("#rematch-link:not(.hidden)")
    for ctx in (ann_ctx, bob_ctx):
        ctx.close()
    spectator.context.close()
