"""Whole games of Gladius and Circus Maximus in Spanish and in Persian, in Chromium: a person plays
against a bot by the page's move buttons until the game is over, and on the way (the first move,
a summary, the game-over view, the replay) no English text of ours is left on the page; the
Persian page runs right to left with Persian digits and nothing wider than a phone. Gorus Maximus
is played the same way in test_i18n_pages.py and Gorus Arena in test_gorus_arena_i18n.py.
Screenshots in /tmp/i18n-shots/."""

from __future__ import annotations

import contextlib
import random
import re
import time

import pytest

from .browsing import CLOSE_ROUND_SUMMARY_JS, CREATE_JS, DESKTOP, PHONE
from .test_i18n_pages import LOCALES, check_rtl, leftover_english, no_overflow, shoot

OVER_JS = "() => !document.getElementById('summary').classList.contains('hidden')"
MOVES = "document.querySelectorAll('#moves button.move:enabled').length"

GAMES = {
    # the default match, Retiarius against Secutor: each deals the other's cards too
    "gladius": ({}, [{"kind": "human"}, {"kind": "bot", "bot": "random"}]),
    "circus-maximus": ({"players": 3}, [{"kind": "human"}, {"kind": "bot", "bot": "random"},
                                        {"kind": "bot", "bot": "random"}]),
}


def english_left(page, where: str) -> None:
    left = leftover_english(page)
    assert left == [], "\n".join([where, *left])


def persian_digits(page, selector: str) -> None:
    text = page.inner_text(selector)
    assert re.search("[۰-۹]", text), f"{selector}: no Persian digit in {text[:200]!r}"
    assert not re.search("[0-9]", text), f"{selector}: a Latin digit in {text[:200]!r}"


def play_to_the_end(page, lang: str, game: str, seconds: float = 240) -> dict:
    """Clicks a move button (chosen by a fixed random sequence) whenever one is offered, closes the
    summaries between rounds or days, and checks the page's words now and then."""
    choose = random.Random(7)
    seen = {"moves": 0, "summaries": 0, "checked": 0}
    deadline = time.time() + seconds  # a loaded machine plays slowly
    while time.time() < deadline:
        if page.evaluate(OVER_JS):
            return seen
        if page.evaluate("() => document.getElementById('summary-dialog').open"):
            if not seen["summaries"]:
                english_left(page, f"{game}: the first summary")
                shoot(page, f"{game}-{lang}-summary-phone")
            seen["summaries"] += 1
            page.evaluate(CLOSE_ROUND_SUMMARY_JS)
            continue
        count = page.evaluate(f"() => {MOVES}")
        if not count:
            time.sleep(0.05)
            continue
        if seen["moves"] % 15 == 0:  # the board, the choice and the moves at several moments of the game
            english_left(page, f"{game}: before move {seen['moves']}")
            no_overflow(page)
            seen["checked"] += 1
        pick = choose.randrange(count)
        with contextlib.suppress(Exception):  # the bot moved first and the moves were redrawn: next time round
            page.locator("#moves button.move:enabled").nth(pick).click(timeout=5_000)
            seen["moves"] += 1
        page.wait_for_timeout(150)
    raise AssertionError(f"{game} not over in {seconds} s after {seen['moves']} moves")


@pytest.mark.parametrize("lang", ["es", "fa"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_in_the_language(live, browser, game, lang):
    options, seats = GAMES[game]
    ctx = browser.new_context(viewport=PHONE, locale=LOCALES[lang])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    code = page.evaluate(CREATE_JS, {"game": game, "options": options, "name": "Livia", "seats": seats})
    page.goto(f"{live.url}/t/{code}")
    page.wait_for_function("() => document.getElementById('conn').textContent.length > 0")
    page.wait_for_function(f"() => {MOVES} > 0 || document.getElementById('summary-dialog').open", timeout=30_000)
    page.locator("#log-box summary").click()
    english_left(page, f"{game}: the table at the start")
    if lang == "fa":
        check_rtl(page)
        assert page.evaluate("getComputedStyle(document.getElementById('log')).direction") == "rtl"
    no_overflow(page)
    shoot(page, f"{game}-{lang}-start-phone")
    page.set_viewport_size(DESKTOP)
    shoot(page, f"{game}-{lang}-start-desktop")
    page.set_viewport_size(PHONE)

    seen = play_to_the_end(page, lang, game)
    assert seen["moves"] >= 5 and seen["checked"] >= 1, seen
    page.wait_for_function("() => document.getElementById('summary-dialog').open")
    english_left(page, f"{game}: the game-over view")
    if lang == "fa":
        persian_digits(page, "#summary")
        assert not re.search("[0-9]", page.inner_text("#log")), "move numbers in Persian digits"
    no_overflow(page)
    shoot(page, f"{game}-{lang}-over-phone")
    page.set_viewport_size(DESKTOP)
    shoot(page, f"{game}-{lang}-over-desktop")
    page.set_viewport_size(PHONE)
    # what the summary folds (Circus Maximus: the last day's table) fits too, once unfolded
    if page.evaluate("() => { const all = document.querySelectorAll('#summary details');"
                     " all.forEach((d) => { d.open = true; }); return all.length; }"):
        no_overflow(page)
        shoot(page, f"{game}-{lang}-over-unfolded-phone")
    page.keyboard.press("Escape")

    # the replay: its step line names each move in the language
    page.click("#replay-link")
    page.wait_for_function("() => document.getElementById('step').textContent.length > 0")
    for _ in range(4):
        page.keyboard.press("ArrowLeft" if lang == "fa" else "ArrowRight")  # forward, the way the text goes
    assert page.input_value("#slider") == "4"
    english_left(page, f"{game}: the replay")
    page.set_viewport_size(PHONE)
    no_overflow(page)
    shoot(page, f"{game}-{lang}-replay-phone")
    assert not errors, errors
    ctx.close()
