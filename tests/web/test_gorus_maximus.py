"""Gorus Maximus in Chromium: two people and two bots to the end through a refresh and a crash;
a whole game checking the card table's markers (Crowd Favour on every card, no running Favour
without memory aids, round summaries that stay, log marks that agree with the engine); and the
memory-aids column, shown with the values the server computed."""

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

from .browsing import CLOSE_ROUND_SUMMARY_JS, CREATE_JS, DESKTOP, LAST_ENTRY, NOTICE, PHONE

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
            page.evaluate(CLOSE_ROUND_SUMMARY_JS)  # a round's summary waits to be dismissed; this test looks elsewhere
            st = page.evaluate(STATE_JS)
            if not st["playable"]:
                continue
            if who == "bob" and not refused_reason and st["unplayable"] and st["bout"]:
                page.click(f'#hand button[data-card="{st["unplayable"][0]}"]')
                page.wait_for_function("() => document.getElementById('notice').textContent.length > 0")
                refused_reason = page.inner_text("#notice")
                continue
            card = st["playable"][0]
            try:
                if who == "ann":  # Ann plays by keyboard
                    page.focus(f'#hand button[data-card="{card}"]')
                    page.keyboard.press("Enter")
                else:  # a round summary that opened since the check above blocks the click: next time round
                    page.click(f'#hand button[data-card="{card}"]', timeout=5_000)
                page.wait_for_selector(f'#hand button[data-card="{card}"]', state="detached", timeout=10_000)
                moves[who] += 1
                progressed = True
            except Exception:  # noqa: BLE001 - a summary opened, or the connection dropped just then: retried
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


# ----------------------------------------------------------------- the card table's markers


# as text: a 64-bit seed does not survive as a JS number
RECORD_JS = """async (code) => (await fetch(`/api/tables/${code}/record`)).text()"""

# every card on the page (troupe, bout, previous bout): its code, its CF text, whether it is marked ours
CARDS_JS = """() => [...document.querySelectorAll('#board [data-card], #board [data-face]')].map((c) => {
  const cf = c.querySelector('.cf');
  const ours = c.querySelector('.cf-ours');
  return { card: c.dataset.card || c.dataset.face, cf: cf ? cf.dataset.cf : null,
           ours: ours ? { title: ours.title, hidden: ours.querySelector('.visually-hidden').textContent } : null,
           label: c.getAttribute('aria-label') || c.textContent };
})"""

LOG_JS = """() => [...document.querySelectorAll('#log li')].map((li) => ({
  entry: li.dataset.entry === undefined ? null : Number(li.dataset.entry),
  brk: li.dataset.break || null,
  marks: [...li.querySelectorAll('.log-mark')].map((m) => [m.dataset.mark, m.textContent]),
  text: li.textContent,
}))"""


def create_table(page, live, options: dict, name: str = "Tess") -> str:
    page.goto(live.url + "/")
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * (options["players"] - 1)
    code = page.evaluate(CREATE_JS, {"game": "gorus-maximus", "options": options, "seats": seats, "name": name,
                                     "listed": False})
    page.goto(f"{live.url}/t/{code}")
    page.wait_for_selector("#board h2")
    return code


def expected_cf(card: str) -> tuple[str, str | None]:
    """What the shipped CF table prints on a card: the text, and where the value comes from when
    the rulebook does not print it ("example" or "ours"; None when printed). A value of 0 shows
    only when it is not printed (then "0" with its mark)."""
    from ludus.games.gorus_maximus.cards import load_cf_table

    cf = load_cf_table("")
    rank = int(card[2:])
    if rank == 0:
        return f"★{cf.preferred_zero}", None
    value = cf.by_rank[rank]
    origin = None if cf.origins[rank] == "printed" else cf.origins[rank]
    text = ("+" if value > 0 else "−" if value < 0 else "") + str(abs(value))
    return ("" if text == "0" and origin is None else text), origin


def engine_bouts(record) -> tuple[list[int], list[int], list[int]]:
    """Replaying the record (individual play): each bout's winner, the history indices of the
    Challenges and of each round's first card; the log's marks must say the same."""
    game = get_game(record.game)
    state = records.initial_state(record, get_game)
    winners: list[int] = []
    challenges: list[int] = []
    round_starts: list[int] = []
    bout: list[int] = []
    last_round = 0
    for seat, raw in record.actions:
        rank = int(raw["play"][2:])
        if state.round != last_round:
            round_starts.append(len(state.history))
            last_round = state.round
        if bout and bout[-1] == rank:
            challenges.append(len(state.history))
        bout.append(rank)
        won_before = list(state.collected_count)
        state.apply(game.action_from_json(raw), seat)
        if len(bout) == state.num_seats():
            if state.previous_bout:  # the bout's winner leads the next one
                winners.append(state.previous_winner)
            else:  # the round's last bout: the winner's pile grew by it
                counts = state.last_round.collected_counts
                winners.append(max(range(len(counts)), key=lambda s: counts[s] - won_before[s]))
            bout = []
    return winners, challenges, round_starts


# Whether a move was logged after a summary's line (the game went on behind its dialog).
MOVED_AFTER_SUMMARY_JS = """(id) => {
  const button = document.querySelector(`#log button[data-summary="${id}"]`);
  let line = button && button.closest('li');
  while (line && (line = line.nextElementSibling)) if (line.classList.contains('move')) return true;
  return false;
}"""


def test_a_whole_game_shows_cf_on_cards_round_summaries_and_log_marks(live, browser, shots):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    code = create_table(page, live, {"players": 4, "target": 2})
    page.click("#log-box summary")  # open the move log, as a player following the marks would
    seen_cf: set[str] = set()
    ours_notes: set[str] = set()
    summary_checked = pictured = False
    moves = 0
    deadline = time.monotonic() + 50
    while True:
        assert time.monotonic() < deadline, f"not over after {moves} moves"
        # no running Favour without memory aids, ever
        assert page.locator("#favour-so-far, [data-favour]").count() == 0
        for c in page.evaluate(CARDS_JS):
            text, origin = expected_cf(c["card"])
            assert (c["cf"] or "") == text, c
            assert (c["ours"] is not None) == (origin is not None), c
            if c["cf"]:
                seen_cf.add(c["cf"])
            if origin is not None:  # the mark says where the value comes from, per value
                assert "rulebook" in c["ours"]["title"] and "own Crowd Favour table" in c["ours"]["title"]
                assert ("our choice" if origin == "ours" else "worked examples") in c["ours"]["hidden"]
                assert "rulebook" in c["label"]
                ours_notes.add(f'{c["card"][2:]}:{origin}')
        # the status and the dialog read in one step: the game may end between two separate reads
        status, title = page.evaluate("""() => { const d = document.getElementById('summary-dialog');
          return [document.getElementById('status').textContent, d.open ? d.getAttribute('aria-label') : null]; }""")
        if status == "The game is over.":
            break
        if title is not None:
            assert title.startswith("Round ") and "the crowd" in title, title
            body = page.inner_text("#summary-dialog-body")
            assert "Crowd Favour" in body and "Crowd Support now" in body and " of 2" in body
            if not summary_checked:
                # it stays while the game goes on (the next round is dealt and the bots play up to
                # Tess's turn; they may be done before this test looks, so wait for either)...
                round_id = title.split(":")[0].lower().replace(" ", "-")
                page.wait_for_function(MOVED_AFTER_SUMMARY_JS, arg=round_id, timeout=15_000)
                assert page.evaluate("() => document.getElementById('summary-dialog').open")
                page.screenshot(path=str(shots / "gorus-maximus-round-summary-desktop.png"))
                # ...until dismissed, and the log reopens it
                page.click("#summary-close")
                assert not page.evaluate("() => document.getElementById('summary-dialog').open")
                page.click(f'#log button[data-summary="{round_id}"]')
                assert page.get_attribute("#summary-dialog", "aria-label") == title
                summary_checked = True
            page.click("#summary-close")
            continue
        playable = page.locator("#hand button.card.playable:enabled")
        if status == "Your turn." and playable.count():
            logged = page.evaluate(f"() => {LAST_ENTRY}")
            playable.first.click()
            moves += 1
            page.wait_for_function(f"() => {LAST_ENTRY} > {logged} || {NOTICE} !== ''", timeout=15_000)
            if moves == 6 and not pictured:
                page.screenshot(path=str(shots / "gorus-maximus-mid-desktop.png"), full_page=True)
                page.set_viewport_size(PHONE)
                page.screenshot(path=str(shots / "gorus-maximus-mid-phone.png"), full_page=True)
                page.set_viewport_size(DESKTOP)
                pictured = True
        else:
            page.wait_for_timeout(30)
    assert summary_checked and pictured
    assert {"−4", "+2", "+1", "★5"} <= seen_cf, seen_cf
    # a 4-player deck has 11s, whose value is ours, and 4s, whose value follows from an example
    assert {"11:ours", "4:example"} <= ours_notes, ours_notes
    # the game-over view holds the last round in words
    page.wait_for_selector("#champions")
    assert "The last round" in page.inner_text("#summary")
    page.screenshot(path=str(shots / "gorus-maximus-end-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / "gorus-maximus-end-phone.png"), full_page=True)

    # the log: a winner mark for each bout, Challenges and round breaks, where the engine puts them
    record = records.parse_record(json.loads(page.evaluate(RECORD_JS, code)))
    winners, challenges, round_starts = engine_bouts(record)
    lines = page.evaluate(LOG_JS)
    names = page.evaluate("() => [...document.querySelectorAll('#seats li')].map((li) => li.firstChild.textContent)")
    won = [m[1] for line in lines for m in line["marks"] if m[0] == "winner"]
    assert len(won) >= min(len(winners), 60)
    assert won == [f"{names[w]} wins the bout" for w in winners][-len(won):]
    first_logged = min(line["entry"] for line in lines if line["entry"] is not None)
    assert [line["entry"] for line in lines if any(m[0] == "challenge" for m in line["marks"])] == \
        [i for i in challenges if i >= first_logged]
    breaks = [line["brk"] for line in lines if line["brk"]]
    assert len(round_starts) >= 2 and breaks[-1] == f"Round {len(round_starts)}"
    assert breaks == [f"Round {n}" for n in range(len(round_starts) - len(breaks) + 1, len(round_starts) + 1)]
    assert not errors, errors
    ctx.close()


def test_memory_aids_show_everyone_the_favour_the_server_computed(live, browser, shots):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    frames: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))))
    code = create_table(page, live, {"players": 4, "memory_aids": True})
    deadline = time.monotonic() + 40
    while True:
        assert time.monotonic() < deadline
        views = [f for f in frames if f.get("type") == "view"]
        obs = views[-1]["observation"] if views else None
        if obs and sum(obs["collected_counts"]) >= 12 and page.inner_text("#status") != "Your turn.":
            break
        page.evaluate(CLOSE_ROUND_SUMMARY_JS)
        playable = page.locator("#hand button.card.playable:enabled")
        if page.inner_text("#status") == "Your turn." and playable.count():
            logged = page.evaluate(f"() => {LAST_ENTRY}")
            playable.first.click()
            page.wait_for_function(f"() => {LAST_ENTRY} > {logged}", timeout=15_000)
        else:
            page.wait_for_timeout(30)
    page.wait_for_function("(n) => document.querySelectorAll('#sides td[data-favour]').length === n", arg=4)

    def shown() -> list[str]:
        return page.evaluate("() => [...document.querySelectorAll('#sides td[data-favour]')].map((t) => t.textContent)")

    def signed(v: int) -> str:
        return f"+{v}" if v > 0 else f"−{-v}" if v < 0 else "0"

    latest = [f for f in frames if f.get("type") == "view"][-1]["observation"]
    assert latest["memory_aids"] is True and shown() == [signed(v) for v in latest["favour_so_far"]]
    assert page.locator("#favour-so-far").inner_text() == "Favour so far"
    assert "memory aid" in page.inner_text("#sides caption")
    page.screenshot(path=str(shots / "gorus-maximus-memory-aids-phone.png"), full_page=True)
    # a spectator sees the same column
    watcher = browser.new_context(viewport=DESKTOP).new_page()
    watcher.goto(f"{live.url}/t/{code}")
    watcher.wait_for_selector("#sides td[data-favour]")
    assert watcher.locator("#favour-so-far").count() == 1
    watcher.context.close()
    ctx.close()
