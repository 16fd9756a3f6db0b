"""The account page (/me) in a browser: a game played without an account is still listed after
signing up, another browser logs in and finds the same seat, and the lobby seats a logged-in
player under the account's name. Screenshots at desktop and phone width go to
artifacts/screenshots/account-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .browsing import CREATE_JS, DESKTOP, PHONE

SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
PASSWORD = "a long enough secret"


def _fits(page, width) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("viewport", SIZES)
def test_sign_up_keeps_the_game_and_another_browser_logs_in_to_its_seat(live, browser, shots, viewport):
    width = "desktop" if viewport["width"] >= 1000 else "phone"
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    page.wait_for_selector("#create:enabled")
    code = page.evaluate(CREATE_JS, {"game": "gorus-maximus", "options": {"players": 2}, "name": "Livia",
                                     "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    page.click("#account-link")
    page.wait_for_url("**/me")
    expect(page.locator("#anonymous")).to_be_visible()
    row = page.locator(f"#games tr[data-code='{code}']")
    expect(row).to_contain_text("Gorus Maximus")
    expect(row).to_contain_text("Livia (you)")
    expect(row.get_by_role("link", name="Continue")).to_be_visible()
    _fits(page, viewport["width"])
    page.screenshot(path=str(shots / f"account-anonymous-{width}.png"), full_page=True)

    page.fill("#signup-name", "Livia_R")
    page.fill("#signup-password", "short")
    page.click("#signup-form button[type=submit]")
    expect(page.locator("#anonymous")).to_be_visible()  # refused: minlength 8
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    expect(page.locator("#signed-in")).to_be_visible()
    expect(page.locator("#account-name")).to_have_text("Livia_R")
    expect(page.locator("#account-link")).to_have_text("Livia_R")
    expect(page.locator(f"#games tr[data-code='{code}']")).to_be_visible()
    _fits(page, viewport["width"])
    page.screenshot(path=str(shots / f"account-signed-in-{width}.png"), full_page=True)

    other = browser.new_context(viewport=viewport)
    laptop = other.new_page()
    laptop.goto(live.url + "/me")
    expect(laptop.locator("#anonymous")).to_be_visible()
    laptop.fill("#login-name", "livia_r")
    laptop.fill("#login-password", "wrong password here")
    laptop.click("#login-form button[type=submit]")
    expect(laptop.locator("#notice")).to_have_text("wrong name or password")
    laptop.fill("#login-password", PASSWORD)
    laptop.click("#login-form button[type=submit]")
    expect(laptop.locator("#signed-in")).to_be_visible()
    laptop.locator(f"#games tr[data-code='{code}']").get_by_role("link", name="Continue").click()
    laptop.wait_for_url(f"**/t/{code}")
    laptop.wait_for_function("() => document.querySelector('#seats .you') !== null")
    expect(laptop.locator("#seats .you")).to_contain_text("Livia")

    laptop.goto(live.url + "/")  # a new table: the lobby fills in the account's name and keeps it
    expect(laptop.locator("#name")).to_have_value("Livia_R")
    assert laptop.locator("#name").evaluate("(n) => n.readOnly")

    laptop.goto(live.url + "/me")
    laptop.click("#logout")
    expect(laptop.locator("#anonymous")).to_be_visible()
    expect(laptop.locator("#games")).to_contain_text("no games yet")
    assert not errors, errors
    ctx.close()
    other.close()


def test_delete_account_from_the_page(live, browser, shots):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    page.goto(live.url + "/me")
    page.fill("#signup-name", "Gaius")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    expect(page.locator("#signed-in")).to_be_visible()
    page.click("text=Delete account")
    page.fill("#delete-password", "not my password")
    page.click("#delete-form button[type=submit]")
    expect(page.locator("#notice")).to_have_text("that is not your current password")
    expect(page.locator("#signed-in")).to_be_visible()
    page.screenshot(path=str(shots / "account-delete-phone.png"), full_page=True)
    page.fill("#delete-password", PASSWORD)
    page.click("#delete-form button[type=submit]")
    expect(page.locator("#notice")).to_have_text("Your account is deleted.")
    expect(page.locator("#anonymous")).to_be_visible()
    page.fill("#login-name", "Gaius")
    page.fill("#login-password", PASSWORD)
    page.click("#login-form button[type=submit]")
    expect(page.locator("#notice")).to_have_text("wrong name or password")
    ctx.close()
