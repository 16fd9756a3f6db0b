"""A whole Gorus Maximus game in Chromium by keyboard alone: Tab, Shift+Tab, Enter and Space, no
mouse. The table is made through the API (that is setup, not play); from then on every card played,
every round summary dismissed and reopened, and the end are reached with those four keys."""

from __future__ import annotations

import time

from .browsing import CREATE_JS, DESKTOP, LAST_ENTRY, NOTICE

FOCUS_JS = """() => {
  const a = document.activeElement;
  const dialog = document.getElementById('summary-dialog');
  return {
    card: a && a.dataset ? a.dataset.card || null : null,
    playable: !!a && a.classList.contains('playable') && !a.disabled,
    id: (a && a.id) || '',
    summary: a && a.dataset ? a.dataset.summary || null : null,
    logToggle: !!a && a.tagName === 'SUMMARY' && !!a.closest('#log-box'),
    dialog: dialog.open ? dialog.getAttribute('aria-label') : null,
    status: document.getElementById('status').textContent,
    mine: document.querySelectorAll('#hand button.card.playable:enabled').length,
    logOpen: document.getElementById('log-box').open,
  };
}"""


def test_a_whole_game_by_keyboard_alone(live, browser, shots):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 3
    code = page.evaluate(CREATE_JS, {"game": "gorus-maximus", "options": {"players": 4, "target": 2},
                                     "seats": seats, "name": "Kay", "listed": False})
    page.goto(f"{live.url}/t/{code}")
    page.wait_for_selector("#board h2")

    def state() -> dict:
        return page.evaluate(FOCUS_JS)

    def tab_to(test, limit: int = 120, back: bool = False) -> dict:
        """Tab (or Shift+Tab) until ``test`` holds for the focused element."""
        for _ in range(limit):
            st = state()
            if test(st):
                return st
            page.keyboard.press("Shift+Tab" if back else "Tab")
        raise AssertionError(f"focus never got there; at {state()}")

    # open the move log with Space, as its disclosure button
    tab_to(lambda st: st["logToggle"])
    page.keyboard.press("Space")
    assert state()["logOpen"]

    moves = tabs_back_checked = 0
    reopened = False
    deadline = time.monotonic() + 55
    while True:
        assert time.monotonic() < deadline, f"not over after {moves} moves by keyboard"
        st = state()
        if st["dialog"] is not None:
            if st["status"] == "The game is over.":
                break
            title = st["dialog"]
            tab_to(lambda s: s["id"] == "summary-close")
            page.keyboard.press("Enter" if moves % 2 else "Space")
            page.wait_for_function("() => !document.getElementById('summary-dialog').open")
            if not reopened:  # the log's button for that summary reopens it, by keyboard too
                round_id = title.split(":")[0].lower().replace(" ", "-")
                for _attempt in range(5):  # the log is redrawn as the bots play, which can take the focus away
                    tab_to(lambda s, rid=round_id: s["summary"] == rid)
                    page.keyboard.press("Enter")
                    try:
                        page.wait_for_function("(t) => { const d = document.getElementById('summary-dialog');"
                                               " return d.open && d.getAttribute('aria-label') === t; }",
                                               arg=title, timeout=3_000)
                        break
                    except Exception:  # noqa: BLE001 - focus was lost to a redraw: go round again
                        continue
                else:
                    raise AssertionError("the log's button never reopened the summary")
                tab_to(lambda s: s["id"] == "summary-close")
                page.keyboard.press("Enter")
                page.wait_for_function("() => !document.getElementById('summary-dialog').open")
                reopened = True
            continue
        if st["status"] == "The game is over.":
            page.wait_for_function("() => document.getElementById('summary-dialog').open")
            continue
        if st["status"] == "Your turn." and st["mine"]:
            st = tab_to(lambda s: s["playable"] or s["dialog"] is not None)
            if st["dialog"] is not None:
                continue
            if not tabs_back_checked:  # Shift+Tab comes back to the same card
                page.keyboard.press("Tab")
                page.keyboard.press("Shift+Tab")
                assert state()["card"] == st["card"]
                tabs_back_checked = 1
            logged = page.evaluate(f"() => {LAST_ENTRY}")
            page.keyboard.press("Space" if moves % 2 else "Enter")
            moves += 1
            page.wait_for_function(f"() => {LAST_ENTRY} > {logged} || {NOTICE} !== ''", timeout=15_000)
            assert page.inner_text("#notice") == ""
        else:
            page.wait_for_timeout(30)

    assert moves >= 20 and reopened and tabs_back_checked  # two rounds at least: ten cards each
    assert "Champion" in page.inner_text("#champions")
    page.screenshot(path=str(shots / "gorus-maximus-keyboard-end.png"), full_page=True)
    tab_to(lambda s: s["id"] == "summary-close")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.getElementById('summary-dialog').open")
    assert not errors, errors
    ctx.close()
