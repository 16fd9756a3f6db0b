"""Play now (quick play) in the lobby, with several browser contexts (each its own cookie jar, so
its own player): two people matched at one table, bots filling the seats of a player who allowed
them while a people-only player keeps waiting, a reload (and a server restart) keeping the place
in line, Leave at once, and the Rated switch off when logged out. Screenshots at desktop and phone
width go to artifacts/screenshots/quick-*.png."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from .browsing import PHONE

DESKTOP = {"width": 1280, "height": 800}
MATCH_MS = 15_000  # a page asks every 2 s; a table starts within a quarter second of a match
QUICK_JS = "async () => (await (await fetch('/api/quick')).json())"
TABLE_URL = re.compile(r"/t/[A-Z0-9]+$")


def _fits(page, width) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


def _lobby(browser, live, viewport):
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    page.wait_for_selector("#quick-play:enabled")
    return ctx, page, errors


def _choose(page, name: str, game: str, players: int, bots_after: int | None) -> None:
    page.fill("#quick-name", name)
    page.select_option("#quick-game", game)
    page.select_option("#quick-players", str(players))
    page.set_checked("#quick-bots", bots_after is not None)
    if bots_after is not None:
        page.fill("#quick-wait", str(bots_after))


def _play(page, name: str, game: str, players: int, bots_after: int | None) -> None:
    _choose(page, name, game, players, bots_after)
    page.click("#quick-play")
    expect(page.locator("#quick-waiting")).to_be_visible()


def _waited(page) -> int:
    return int(page.locator("#quick-waited").get_attribute("data-seconds"))


def test_two_people_meet_at_one_table(live, browser, shots):
    desk, desktop, desk_errors = _lobby(browser, live, DESKTOP)
    ctx, phone, phone_errors = _lobby(browser, live, PHONE)
    _choose(phone, "Livia", "gorus-maximus", 2, None)
    expect(phone.locator("#quick-wait")).to_be_disabled()  # people only: no wait to set
    _fits(phone, PHONE["width"])
    phone.locator("#quick").screenshot(path=str(shots / "quick-form-phone.png"))
    phone.screenshot(path=str(shots / "quick-lobby-phone.png"), full_page=True)
    _choose(desktop, "Marcus", "gorus-maximus", 2, None)
    desktop.locator("#quick").screenshot(path=str(shots / "quick-form-desktop.png"))

    phone.click("#quick-play")
    expect(phone.locator("#quick-waiting")).to_be_visible()
    expect(phone.locator("#quick-form")).to_be_hidden()
    expect(phone.locator("#quick-waiting-title")).to_have_text("Looking for a table: Gorus Maximus, 2 players")
    expect(phone.locator("#quick-waiting-title")).to_be_focused()
    expect(phone.locator("#quick-count")).to_have_text("1 player of 2 (you)")
    expect(phone.locator("#quick-bots-line")).to_have_text("People only: the game starts when 2 players are here.")
    _fits(phone, PHONE["width"])
    phone.locator("#quick").screenshot(path=str(shots / "quick-waiting-phone.png"))

    desktop.click("#quick-play")
    desktop.wait_for_url(TABLE_URL, timeout=MATCH_MS)
    phone.wait_for_url(TABLE_URL, timeout=MATCH_MS)
    assert desktop.url == phone.url
    for page, me, other in ((desktop, "Marcus", "Livia"), (phone, "Livia", "Marcus")):
        expect(page.locator("#seats .you")).to_contain_text(me)
        expect(page.locator("#seats")).to_contain_text(other)
        expect(page.locator("#seats li")).to_have_count(2)
        assert page.evaluate(QUICK_JS)["status"] == "matched"
        assert page.evaluate("() => sessionStorage.getItem('ludus-quick')") is None
    phone.screenshot(path=str(shots / "quick-table-phone.png"))

    # back in the lobby the match is not followed again: a link to it, and the form to play again
    phone.goto(live.url + "/")
    expect(phone.locator("#quick-last")).to_contain_text("Your last Play now table")
    expect(phone.locator("#quick-form")).to_be_visible()
    assert phone.url.endswith("/")
    assert not desk_errors and not phone_errors, desk_errors + phone_errors
    desk.close()
    ctx.close()


def test_bots_fill_in_for_whoever_allowed_them(live, browser, shots):
    desk, desktop, desk_errors = _lobby(browser, live, DESKTOP)
    ctx, phone, phone_errors = _lobby(browser, live, PHONE)
    _play(phone, "Flavia", "gorus-maximus", 3, None)  # the same pool, people only
    # her page's own timers stop, as a background tab's nearly do: the ticker worker keeps it asking
    for _ in range(40):
        if any(w.url.endswith("/static/quick.js") for w in phone.workers):
            break
        phone.wait_for_timeout(50)
    assert any(w.url.endswith("/static/quick.js") for w in phone.workers)
    phone.evaluate("() => { window.setTimeout = () => 0; }")
    polls: list[str] = []
    phone.on("request", lambda r: polls.append(r.url) if r.url.endswith("/api/quick") and r.method == "GET" else None)
    asked = time.monotonic()
    _play(desktop, "Quintus", "gorus-maximus", 3, 5)
    expect(desktop.locator("#quick-count")).to_have_text("2 players of 3 (you and 1 other)", timeout=4000)
    expect(desktop.locator("#quick-bots-line")).to_contain_text("After 5 s, bots fill the empty seats")
    desktop.wait_for_function("() => Number(document.getElementById('quick-waited').dataset.seconds) >= 1")
    desktop.locator("#quick").screenshot(path=str(shots / "quick-waiting-desktop.png"))
    _fits(desktop, DESKTOP["width"])

    desktop.wait_for_url(TABLE_URL, timeout=MATCH_MS)
    assert time.monotonic() - asked >= 4.5  # not before the 5 s were over
    expect(desktop.locator("#seats li")).to_have_count(3)
    expect(desktop.locator("#seats .you")).to_contain_text("Quintus")
    expect(desktop.locator("#seats li", has_text="bot:")).to_have_count(2)
    expect(desktop.locator("#seats")).not_to_contain_text("Flavia")

    # Flavia is still waiting, alone again in her line; Leave brings the form back at once
    expect(phone.locator("#quick-count")).to_have_text("1 player of 3 (you)", timeout=4000)
    assert len(polls) >= 2, polls
    assert phone.url.endswith("/")
    assert phone.evaluate(QUICK_JS)["status"] == "waiting"
    phone.click("#quick-leave")
    expect(phone.locator("#quick-form")).to_be_visible()
    expect(phone.locator("#quick-play")).to_be_focused()
    assert phone.evaluate(QUICK_JS) == {"status": "none"}
    assert not desk_errors and not phone_errors, desk_errors + phone_errors
    desk.close()
    ctx.close()


def test_a_reload_or_a_restart_keeps_the_request_and_leave_is_instant(live, browser):
    ctx, page, errors = _lobby(browser, live, PHONE)
    _play(page, "Julia", "gladius", 2, 120)
    page.wait_for_function("() => Number(document.getElementById('quick-waited').dataset.seconds) >= 2")
    before = page.evaluate(QUICK_JS)["waited"]
    page.reload()
    expect(page.locator("#quick-waiting")).to_be_visible()
    expect(page.locator("#quick-waiting-title")).to_have_text("Looking for a table: Gladius, 2 players")
    assert _waited(page) >= 2  # the same place in line, not a new one
    answer = page.evaluate(QUICK_JS)
    assert answer["status"] == "waiting" and answer["waited"] >= before and answer["bots_after"] == 120

    # a restart empties the pool: the waiting page asks again by itself, and so does a reload
    live.kill()
    live.start()
    page.wait_for_function("() => document.getElementById('quick-waited').dataset.seconds === '0'", timeout=10_000)
    assert page.evaluate(QUICK_JS)["status"] == "waiting"
    live.kill()
    live.start()
    page.reload()
    expect(page.locator("#quick-waiting")).to_be_visible()
    answer = page.evaluate(QUICK_JS)
    assert answer["status"] == "waiting" and answer["game"] == "gladius" and answer["bots_after"] == 120

    page.click("#quick-leave")
    expect(page.locator("#quick-form")).to_be_visible()
    assert page.evaluate(QUICK_JS) == {"status": "none"}
    assert page.evaluate("() => sessionStorage.getItem('ludus-quick')") is None
    expect(page.locator("#quick-game")).to_have_value("gladius")  # the choice stays in the form
    page.reload()  # and nothing is asked again
    page.wait_for_selector("#quick-play:enabled")
    page.wait_for_timeout(300)
    assert page.evaluate(QUICK_JS) == {"status": "none"}
    expect(page.locator("#quick-form")).to_be_visible()

    # leaving the lobby by one of its links (here the ratings) leaves the line too
    _play(page, "Julia", "gladius", 2, None)
    page.click("#ratings-link")
    page.wait_for_url("**/ratings")
    for _ in range(30):  # the leave was sent as the page went (keepalive): it may land just after
        if page.evaluate(QUICK_JS) == {"status": "none"}:
            break
        page.wait_for_timeout(100)
    assert page.evaluate(QUICK_JS) == {"status": "none"}
    assert not errors, errors
    ctx.close()


def test_rated_needs_an_account_and_refusals_are_sentences(live, browser, shots):
    ctx, page, errors = _lobby(browser, live, PHONE)
    page.select_option("#quick-game", "gladius")
    expect(page.locator("#quick-players option")).to_have_text(["2 players"])  # its seat count, asked
    page.select_option("#quick-game", "circus-maximus")
    expect(page.locator("#quick-players option")).to_have_text(["3 players", "4 players", "5 players"])
    page.select_option("#quick-game", "gorus-maximus")
    expect(page.locator("#quick-players option")).to_have_count(7)  # 2 to 8: no solo game
    page.select_option("#quick-players", "2")
    expect(page.locator("#quick-rated-row")).to_be_visible()
    expect(page.locator("#quick-rated")).to_be_disabled()
    login = page.locator("#quick-rated-login")
    expect(login).to_be_visible()
    expect(login.get_by_role("link")).to_have_attribute("href", "/me")
    _fits(page, PHONE["width"])
    page.locator("#quick").screenshot(path=str(shots / "quick-rated-logged-out-phone.png"))

    page.fill("#quick-name", "")  # a name is needed
    page.click("#quick-play")
    expect(page.locator("#quick-error")).to_contain_text("Type your name first")
    expect(page.locator("#quick-name")).to_be_focused()
    page.fill("#quick-name", "Titus")
    page.fill("#quick-wait", "3")  # out of range: said beside, nothing sent
    page.click("#quick-play")
    expect(page.locator("#quick-error")).to_contain_text("Choose a wait from 5 to 600 seconds")
    expect(page.locator("#quick-wait")).to_have_attribute("aria-invalid", "true")
    page.fill("#quick-wait", "30")
    page.evaluate("() => { const r = document.getElementById('quick-rated'); r.disabled = false; r.checked = true; }")
    page.click("#quick-play")  # the server refuses a rated game without an account: in words, with the link
    error = page.locator("#quick-error")
    expect(error).to_contain_text("Rated games are for players with an account")
    expect(error.get_by_role("link")).to_have_attribute("href", "/me")
    assert "{" not in error.inner_text()
    _fits(page, PHONE["width"])
    page.locator("#quick").screenshot(path=str(shots / "quick-error-phone.png"))
    expect(page.locator("#quick-form")).to_be_visible()

    page.evaluate("""async () => { await fetch('/api/account/signup', {method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({name: 'Titus_R', password: 'a long enough secret'})}); }""")
    page.reload()
    page.wait_for_selector("#quick-play:enabled")
    expect(page.locator("#quick-name")).to_have_value("Titus_R")
    page.select_option("#quick-game", "gorus-maximus")
    page.select_option("#quick-players", "3")
    expect(page.locator("#quick-rated")).to_be_enabled()
    expect(page.locator("#quick-rated-login")).to_be_hidden()
    expect(page.locator("#quick-rated-help")).to_contain_text("3 to 8 players")
    page.check("#quick-rated")
    page.click("#quick-play")
    expect(page.locator("#quick-waiting-title")).to_have_text("Looking for a table: Gorus Maximus, 3 players, rated")
    assert page.evaluate(QUICK_JS)["rated"] is True
    page.click("#quick-leave")
    expect(page.locator("#quick-form")).to_be_visible()
    assert not errors, errors
    ctx.close()
