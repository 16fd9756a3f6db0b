"""Every game, played to the end in a real browser by clicking its first playable move, against bots."""

from __future__ import annotations

import time

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from ludus.games import game_names

from .browsing import CLOSE_ROUND_SUMMARY_JS, LAST_ENTRY  # every log entry received, shown or not


def test_every_game_plays_to_the_end_in_the_browser(live, browser, shots):
    for name in game_names():
        ctx = browser.new_context()
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))  # noqa: B023 - this page lives one iteration
        page.goto(live.url + "/")
        page.fill("#name", "Tess")
        page.select_option("#game", name)
        page.wait_for_selector("#seat-0-kind")
        page.wait_for_selector("#create:enabled")
        page.click("#create")
        page.wait_for_url(lambda url: "/t/" in url)
        deadline = time.monotonic() + 120
        clicks = 0
        while True:
            assert time.monotonic() < deadline, f"{name}: not over after {clicks} moves"
            status = page.evaluate("() => document.getElementById('status').textContent")
            if status == "The game is over.":
                break
            if page.evaluate(CLOSE_ROUND_SUMMARY_JS):  # a round's summary: read, and play on
                continue
            # only enabled moves: while a move is on its way the page disables them, and a click on
            # a disabled button would wait for it (the flaky timeout after a Gladius click)
            moves = page.locator("#hand button.card.playable:enabled, #moves button.move:enabled")
            if status == "Your turn." and moves.count():
                logged = page.evaluate(f"() => {LAST_ENTRY}")
                try:
                    moves.first.click(timeout=5_000)
                except PlaywrightTimeout:  # the page played a forced move by itself meanwhile (its switch is on)
                    continue
                clicks += 1
                page.wait_for_function(
                    f"() => {LAST_ENTRY} > {logged}"
                    " || !document.getElementById('status').textContent.startsWith('Your turn')"
                    " || document.getElementById('notice').textContent !== ''",  # a refused move says why
                    timeout=15_000)
            else:
                page.wait_for_timeout(50)
        assert clicks > 0, name
        assert page.locator("text=Download record").count() == 1
        page.screenshot(path=str(shots / f"{name}-game-over.png"), full_page=True)
        assert not errors, (name, errors)
        ctx.close()
