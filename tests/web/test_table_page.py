"""The table page: the move log as players see it, summaries in a dialog, the game-over view.

Tables are made through the API (the lobby has its own tests), then played in Chromium by
clicking the first move offered, against bots.
"""

from __future__ import annotations

import re
import time

import httpx

from .browsing import CLOSE_ROUND_SUMMARY_JS

LOG_ENTRIES = "Number(document.getElementById('log').dataset.entries || 0)"
STATUS = "document.getElementById('status').textContent"


def new_table(page, url: str, game: str, bot: str = "random") -> str:
    """A table with Tess in the first seat and bots in the others; the page's cookie holds her seat."""
    seats = httpx.post(url + f"/api/games/{game}/options", json={"options": {}}, timeout=10).json()["seats"]
    page.goto(url + "/")
    answer = page.request.post(url + "/api/tables", data={
        "game": game, "options": {}, "clock": None, "listed": False, "name": "Tess",
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": bot}] * (seats - 1)})
    assert answer.ok, answer.text()
    code = answer.json()["code"]
    page.goto(url + f"/t/{code}")
    return code


def play_to_the_end(page, limit: float = 150) -> int:
    """Click the first move offered whenever it is Tess's turn; returns how many moves she made."""
    deadline = time.monotonic() + limit
    clicks = 0
    while True:
        assert time.monotonic() < deadline, f"not over after {clicks} moves"
        status = page.evaluate(f"() => {STATUS}")
        if status == "The game is over.":
            return clicks
        if page.evaluate(CLOSE_ROUND_SUMMARY_JS):  # a round's summary: Tess reads it and plays on
            continue
        moves = page.locator("#hand button.card.playable:enabled, #moves button.move:enabled")
        if status == "Your turn." and moves.count():
            logged = page.evaluate(f"() => {LOG_ENTRIES}")
            moves.first.click()
            clicks += 1
            page.wait_for_function(f"() => {LOG_ENTRIES} > {logged} || {STATUS} !== 'Your turn.'"
                                   " || document.getElementById('notice').textContent !== ''", timeout=20_000)
        else:
            page.wait_for_timeout(50)


def log_lines(page) -> list[dict]:
    return page.evaluate("""() => [...document.querySelectorAll('#log li')].map((li) => {
        const n = li.querySelector('.n'), log = document.getElementById('log');
        return {cls: li.className, n: n.textContent, text: li.querySelector('.text').textContent,
                cut: n.scrollWidth > n.clientWidth + 1 || li.scrollWidth > li.clientWidth + 1
                     || n.getBoundingClientRect().left < log.getBoundingClientRect().left - 1};
    })""")


def test_log_game_over_and_summary_dialog(live, browser, shots):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    code = new_table(page, live.url, "gorus-arena")
    assert play_to_the_end(page) > 0

    # the game over: a dialog that stays open, with the winners, the standings and what comes next
    dialog = page.locator("#summary-dialog")
    dialog.wait_for(state="visible")
    assert page.evaluate("() => document.getElementById('summary-dialog').open")
    winners = page.inner_text("#winners")
    assert re.match(r"(You won! )?(Winners?: .+\.|Nobody won this game\.)$", winners), winners
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 3
    names = rows.locator("th").all_inner_texts()
    assert any(n.startswith("Tess") for n in names) and not any(re.search(r"\bSeat \d", n) for n in names), names
    assert rows.locator("td").first.inner_text() == "1."
    for button in ("#rematch", "#record", "#replay-link"):
        assert dialog.locator(button).is_visible(), button
    body = page.inner_text("body")
    assert "Your turn" not in body and "Not your turn" not in body
    events = page.locator("ol.events li, .ga-events li").all_inner_texts()  # the board's own event list: names too
    assert events and not [e for e in events if re.search(r"\bSeat \d", e)], events
    assert "Your turn" not in page.title()
    assert page.evaluate("() => document.activeElement.id") == "summary-close"  # the keyboard starts in the dialog
    page.screenshot(path=str(shots / "table-game-over-dialog-desktop.png"), full_page=True)

    # dismissed by keyboard, it stays closed; the game-over view stays on the page with its buttons
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.getElementById('summary-dialog').open")
    page.locator("#summary-home #summary #standings").wait_for(state="visible")  # back on the page once closed
    assert page.locator("#summary-home #summary #rematch").is_visible()

    # the log: moves numbered 1, 2, 3… as players saw them, names not seat numbers, nothing cut off
    page.click("#log-box summary")
    lines = log_lines(page)
    numbers = [int(line["n"].rstrip(".")) for line in lines if "move" in line["cls"].split()]
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    entries = page.evaluate(f"() => {LOG_ENTRIES}")
    assert len(numbers) < entries  # chance steps (draws, hidden deals) took no number
    assert not [line for line in lines if re.search(r"\b[Ss]eat \d", line["text"])]
    assert not [line for line in lines if line["cut"]]
    assert any("Tess" in line["text"] for line in lines)
    page.locator("#log").evaluate("(log) => { log.scrollTop = log.scrollHeight; }")
    page.screenshot(path=str(shots / "table-log-desktop.png"), full_page=True)

    # the log reopens the summary; Close (by keyboard) dismisses it again
    again = page.locator('#log button[data-summary="game-over"]')
    again.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('summary-dialog').open")
    assert page.locator("#summary-dialog #winners").inner_text() == winners
    page.keyboard.press("Enter")  # Close has the focus
    page.wait_for_function("() => !document.getElementById('summary-dialog').open")
    page.wait_for_function("() => document.activeElement.dataset.summary === 'game-over'")  # focus back on the log

    # a refresh does not bring back a dismissed summary
    page.reload()
    page.wait_for_function(f"() => {STATUS} === 'The game is over.'")
    assert not page.evaluate("() => document.getElementById('summary-dialog').open")
    assert not errors, errors

    # at phone width: a spectator gets the same dialog, and nothing is wider than the screen
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    p2 = phone.new_page()
    p2.on("pageerror", lambda e: errors.append(str(e)))
    p2.goto(live.url + f"/t/{code}")
    p2.locator("#summary-dialog").wait_for(state="visible")
    assert p2.inner_text("#winners") == re.sub(r"^You won! ", "", winners)
    assert p2.evaluate("() => document.documentElement.scrollWidth") <= 390
    p2.screenshot(path=str(shots / "table-game-over-dialog-phone.png"), full_page=True)
    p2.keyboard.press("Escape")
    p2.click("#log-box summary")
    assert not [line for line in log_lines(p2) if line["cut"]]
    p2.screenshot(path=str(shots / "table-log-phone.png"), full_page=True)
    assert not errors, errors
    phone.close()
    ctx.close()
