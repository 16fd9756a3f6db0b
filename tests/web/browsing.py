"""What the browser tests share: viewport sizes, page expressions they wait on, table creation."""

from __future__ import annotations

import contextlib
import random
import time

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

# How many log entries the page has received, shown or not (the page shows at most the last 300
# lines, and chance steps take no line number, so neither counting lines nor numbers would do).
LAST_ENTRY = "Number(document.getElementById('log').dataset.entries || 0)"
NOTICE = "document.getElementById('notice').textContent"

# The forced-move switch off, for a test in which the player makes every move by hand.
AUTO_OFF = "try { localStorage.setItem('ludus-auto-forced', 'off'); } catch (_) {}"

# Create a table from inside the page (so it carries the page's session cookie); returns its code.
CREATE_JS = """async (body) => {
  const r = await fetch('/api/tables', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.error);
  return data.code;
}"""

# Dismiss an open round or day summary so that play goes on; returns whether it did. The game-over
# dialog (the one holding #summary) is left open, in one step inside the page: checking "is the
# game over?" first and closing afterwards would race the view that ends the game.
CLOSE_ROUND_SUMMARY_JS = """() => {
  const d = document.getElementById('summary-dialog');
  if (!d || !d.open || d.querySelector('#summary')) return false;
  document.getElementById('summary-close').click();
  return true;
}"""


GAME_OVER_JS = "() => !document.getElementById('summary').classList.contains('hidden')"
SUMMARY_OPEN_JS = "() => document.getElementById('summary-dialog').open"


def play_by_clicks(page, controls: str, *, seed: int, seconds: float, on_summary=None, before_click=None) -> int:
    """Plays this page's seat to the end of the game: whenever ``controls`` (a selector) offers
    enabled elements, clicks one chosen by a fixed random sequence; closes the summaries between
    rounds, calling ``on_summary(page, how_many_before)`` first; calls ``before_click(page, clicks)``
    before each click (the checks a test makes on the way). Returns how many clicks landed."""
    choose = random.Random(seed)
    clicks = summaries = 0
    deadline = time.time() + seconds  # a loaded machine plays slowly
    while time.time() < deadline:
        if page.evaluate(GAME_OVER_JS):
            return clicks
        if page.evaluate(SUMMARY_OPEN_JS):
            if on_summary is not None:
                on_summary(page, summaries)
            summaries += 1
            page.evaluate(CLOSE_ROUND_SUMMARY_JS)
            continue
        count = page.evaluate("(sel) => document.querySelectorAll(sel).length", controls)
        if not count:
            time.sleep(0.05)
            continue
        if before_click is not None:
            before_click(page, clicks)
        pick = choose.randrange(count)
        with contextlib.suppress(Exception):  # the bot moved first and the controls were redrawn: next time round
            page.locator(controls).nth(pick).click(timeout=5_000)
            clicks += 1
        page.wait_for_timeout(120)
    raise AssertionError(f"the game is not over after {seconds} s and {clicks} clicks")
