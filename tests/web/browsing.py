"""What the browser tests share: viewport sizes, page expressions they wait on, table creation."""

from __future__ import annotations

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
