"""Every game opens from the lobby in a browser, shows its page, and takes a move; screenshots saved."""

from __future__ import annotations

import pytest

from ludus.games import game_names

from .browsing import PHONE

# what each game's page must show (the list of markers), as CSS selectors and how many
MARKERS = {
    "gorus-maximus": [("#preferred", 1), ("#initiating", 1), ("#previous-bout", 1), ("#hand .hand-row", 1)],
    "gladius": [("#fighter-0 .hp", 1), ("#fighter-1 .hp", 1), ("#last-exchange", 1)],
    "circus-maximus": [("#lines [data-line]", 5)],
    "gorus-arena": [("#players .coins", 3), ("#hand-cards .gcard", 1)],
}


def test_every_game_page_from_the_lobby(live, browser, shots):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for name in game_names():
        page.goto(live.url + "/")
        page.fill("#name", "Tess")
        page.select_option("#game", name)
        page.wait_for_selector("#seat-0-kind")
        page.wait_for_selector("#create:enabled")
        page.click("#create")
        page.wait_for_url(lambda url: "/t/" in url)
        page.wait_for_selector("#board h2")
        # wait until it is this seat's turn (bots move first in some games), then make one move
        page.wait_for_function("() => document.getElementById('status').textContent === 'Your turn.'",
                               timeout=30_000)
        page.screenshot(path=str(shots / f"{name}-page-phone.png"), full_page=True)
        for selector, at_least in MARKERS.get(name, []):
            assert page.locator(selector).count() >= at_least, (name, selector)
        before = page.evaluate("() => document.querySelectorAll('#log li').length")
        moves = page.locator("#hand button.card.playable, #moves button.move")
        assert moves.count() > 0, name
        moves.first.click()
        page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}", timeout=30_000)
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("width", [320])
def test_lobby_fits_a_small_phone(live, browser, width):
    ctx = browser.new_context(viewport={"width": width, "height": 640})
    page = ctx.new_page()
    page.goto(live.url + "/")
    page.wait_for_selector("#seat-0-kind")
    page.wait_for_selector("#create:enabled")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    # every game's options, unfolded, fit too (long help text wraps)
    for name in game_names():
        page.select_option("#game", name)
        page.wait_for_selector("#create:enabled")
        if page.locator("#options details:not([open]) summary").count():
            page.click("#options summary")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, name
    ctx.close()
