"""Hints in the browser: chosen in the lobby, shown to everyone, asked for on your turn, never played."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from .browsing import DESKTOP, LAST_ENTRY, PHONE

STATUS = "document.getElementById('status').textContent"


def _create_from_lobby(browser, live):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    page.wait_for_selector("#create:enabled")
    page.select_option("#game", "gorus-maximus")
    page.wait_for_selector("#create:enabled")
    page.fill("#name", "Tess")
    hints = page.get_by_label("Hints", exact=True)
    assert not hints.is_checked()  # off unless chosen
    hints.check()
    page.click("#create")
    page.wait_for_url(lambda url: "/t/" in url)
    return ctx, page, errors, page.url.rsplit("/", 1)[1]


def test_hint_on_your_turn_shown_not_played(live, browser, shots):
    ctx, page, errors, code = _create_from_lobby(browser, live)
    assert httpx.get(f"{live.url}/api/tables/{code}").json()["hints"] is True
    expect(page.locator("#hint-on")).to_be_visible()
    expect(page.locator("#hint-on")).to_contain_text("Hints are on at this table")
    page.wait_for_function(f"() => {STATUS} === 'Your turn.'", timeout=30_000)
    button = page.get_by_role("button", name="What would the bot play?")
    expect(button).to_be_visible()
    logged = page.evaluate(f"() => {LAST_ENTRY}")
    button.click()
    box = page.locator("#hint-box")
    assert box.get_attribute("role") == "status"
    expect(button).to_be_disabled()  # busy while the bot thinks
    expect(box.locator(".hint-move")).to_be_visible(timeout=20_000)
    expect(box).to_contain_text("The bot would play")
    expect(box).to_contain_text("estimated win chance")
    assert box.get_attribute("aria-busy") is None
    assert page.evaluate(f"() => {LAST_ENTRY}") == logged  # shown, not played
    assert page.evaluate(f"() => {STATUS}") == "Your turn."
    page.screenshot(path=str(shots / "hints-table-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    box.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "hints-table-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    # the suggestion clears once the position changes
    page.locator("#hand button.card.playable:enabled, #moves button.move:enabled").first.click()
    page.wait_for_function("() => document.getElementById('hint-box').childElementCount === 0", timeout=20_000)

    # a watcher sees that hints are on, and has no button
    watch = browser.new_context(viewport=PHONE)
    wpage = watch.new_page()
    wpage.goto(f"{live.url}/t/{code}")
    expect(wpage.locator("#hint-on")).to_be_visible(timeout=15_000)
    expect(wpage.locator("#hint-button")).to_be_hidden()
    # and the lobby says so in its list
    wpage.goto(live.url + "/")
    expect(wpage.locator(f"#tables tr:has-text('{code}') .hints-tag")).to_contain_text("hints on")
    wpage.screenshot(path=str(shots / "hints-lobby-phone.png"), full_page=True)
    watch.close()
    assert not errors, errors
    ctx.close()


def test_no_hint_row_without_hints(live, browser):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(live.url + "/")
    answer = page.request.post(live.url + "/api/tables", data={
        "game": "gorus-maximus", "options": {"players": 2}, "listed": False, "name": "Tess",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    assert answer.ok, answer.text()
    page.goto(f"{live.url}/t/{answer.json()['code']}")
    page.wait_for_function(f"() => {STATUS} !== ''", timeout=15_000)
    expect(page.locator("#hint-row")).to_be_hidden()
    expect(page.locator("#hint-button")).to_be_hidden()
    ctx.close()
