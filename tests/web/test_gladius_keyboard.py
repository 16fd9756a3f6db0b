"""A whole Gladius game by keyboard only: Tab, Shift+Tab, Enter and Space, never the mouse, with a
visible focus ring on every control that takes focus on the way."""

from __future__ import annotations

import time

from .browsing import DESKTOP, LAST_ENTRY

MOVED = "() => {} > {} || !!document.querySelector('#summary-dialog[open]')"  # a new log entry, or the end

# What has focus now, and whether it shows a ring: an outline (style.css :focus-visible) or a box shadow.
FOCUS_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const st = getComputedStyle(el);
  const ring = (st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) >= 2) || st.boxShadow !== 'none';
  const moves = [...document.querySelectorAll('#moves button.move')];
  return { tag: el.tagName.toLowerCase(), id: el.id, text: (el.textContent || '').trim().slice(0, 40),
           ring, visible: el.matches(':focus-visible'), move: moves.indexOf(el) };
}"""


def pick(labels: list[str]) -> int:
    """Attack when possible (a shorter game), else defend, else the first move."""
    for want in ("Attack: ", "Defend: "):
        for i, label in enumerate(labels):
            if label.startswith(want):
                return i
    return 0


def test_a_whole_gladius_game_by_keyboard(live, browser, shots):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    # 12 hit points: with attacks compulsory (the default) both fighters hit every turn they can,
    # and a 6-point fight could end after one of Kim's choices, before both keys were used
    table = page.evaluate("""async () => {
      const r = await fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},
        body: JSON.stringify({game: 'gladius', options: {hit_points: 12}, name: 'Kim',
                              seats: [{kind: 'human'}, {kind: 'bot', bot: 'random'}]})});
      return await r.json();
    }""")
    page.goto(f"{live.url}/t/{table['code']}")
    page.wait_for_selector("#fighter-0 .hp")
    focused: dict[str, dict] = {}  # every control that had focus, by a readable key

    def note_focus() -> dict | None:
        f = page.evaluate(FOCUS_JS)
        if f:
            focused[f"{f['tag']}#{f['id']}:{f['text']}" if f["move"] < 0 else f"move:{f['text']}"] = f
        return f

    # The switch for forced moves is reached and toggled by keyboard too (Space), and put back.
    for _ in range(40):
        page.keyboard.press("Tab")
        f = note_focus()
        if f and f["id"] == "auto-forced":
            break
    else:
        raise AssertionError("Tab never reached the forced-move switch")
    page.keyboard.press("Space")
    assert not page.is_checked("#auto-forced")
    page.keyboard.press("Space")
    assert page.is_checked("#auto-forced")

    presses = {"Enter": 0, "Space": 0}
    deadline = time.time() + 150
    while True:
        assert time.time() < deadline, f"not over; server said {''.join(live.output[-10:])}"
        if page.locator("#summary-dialog[open]").count():
            break
        labels = page.eval_on_selector_all("#moves button.move:enabled", "bs => bs.map((b) => b.textContent)")
        if not labels:
            page.wait_for_timeout(30)
            continue
        logged = page.evaluate(LAST_ENTRY)
        if len(labels) == 1 and labels[0].startswith("No "):  # a forced pass: the page plays it by itself
            page.wait_for_function(MOVED.format(LAST_ENTRY, logged), timeout=15_000)
            continue
        target = pick(labels)
        f = note_focus()
        for _ in range(60):  # walk the focus to the chosen move: Tab forward, or Shift+Tab back
            if f and f["move"] == target:
                break
            page.keyboard.press("Shift+Tab" if f and f["move"] > target else "Tab")
            f = note_focus()
        else:
            raise AssertionError(f"the keyboard never reached the move {labels[target]!r}")
        key = "Enter" if presses["Enter"] <= presses["Space"] else "Space"
        presses[key] += 1
        page.keyboard.press(key)
        page.wait_for_function(MOVED.format(LAST_ENTRY, logged), timeout=15_000)
        assert not page.inner_text("#notice"), page.inner_text("#notice")

    # the game-over dialog takes the focus; Enter closes it, and the log's "Show summary" reopens it
    f = note_focus()
    assert f and f["id"] == "summary-close", f
    page.screenshot(path=str(shots / "gladius-keyboard-over.png"), full_page=True)
    page.keyboard.press("Enter")
    page.wait_for_selector("#summary-dialog:not([open])", state="attached")
    for _ in range(60):
        page.keyboard.press("Tab")
        f = note_focus()
        if f and f["tag"] == "summary":
            break
    assert f and f["tag"] == "summary", f
    page.keyboard.press("Enter")  # opens the move log
    assert page.eval_on_selector("#log-box", "d => d.open")
    page.locator("#log li.move").last.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "gladius-keyboard-log.png"))
    for _ in range(60):
        page.keyboard.press("Tab")
        f = note_focus()
        if f and f["text"] == "Show summary":
            break
    assert f and f["text"] == "Show summary", f
    page.keyboard.press("Space")
    page.wait_for_selector("#summary-dialog[open]")
    # and back with Shift+Tab through the page's controls after closing it
    page.keyboard.press("Enter")
    page.wait_for_selector("#summary-dialog:not([open])", state="attached")
    for _ in range(8):
        page.keyboard.press("Shift+Tab")
        note_focus()

    assert presses["Enter"] >= 1 and presses["Space"] >= 1, presses
    moves_pressed = [k for k in focused if k.startswith("move:")]
    assert moves_pressed, focused
    kinds = {v["tag"] for v in focused.values()}
    assert {"button", "input", "summary", "a"} <= kinds, kinds  # moves, the switch, the log, the links
    missing = {k: v for k, v in focused.items() if not v["ring"]}
    assert not missing, f"controls with focus but no visible ring: {missing}"
    assert not errors, errors
    ctx.close()
