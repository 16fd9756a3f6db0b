"""Whole games of Gladius and Circus Maximus in Spanish and in Persian, in Chromium: a person plays
against a bot by the page's move buttons until the game is over, and on the way (the first move,
a summary, the game-over view, the replay) no English text of ours is left on the page; the
Persian page runs right to left with Persian digits and nothing wider than a phone. Gorus Maximus
is played the same way in test_i18n_pages.py and Gorus Arena in test_gorus_arena_i18n.py.
Screenshots in /tmp/i18n-shots/."""

from __future__ import annotations

import re

import pytest

from .browsing import CREATE_JS, PHONE, play_by_clicks
from .test_i18n_pages import LOCALES, check_rtl, leftover_english, no_overflow, shoot, shoot_phone_and_desktop

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


def play_to_the_end(page, lang: str, game: str) -> dict:
    """Clicks the move buttons until the game is over; the first summary and, every 15 moves, the
    board, the choice and the moves are checked for English, and for fitting a phone."""
    seen = {"summaries": 0, "checked": 0}

    def on_summary(page, before: int) -> None:
        if not before:
            english_left(page, f"{game}: the first summary")
            shoot(page, f"{game}-{lang}-summary-phone")
        seen["summaries"] += 1

    def before_click(page, clicks: int) -> None:
        if clicks % 15 == 0:
            english_left(page, f"{game}: before move {clicks}")
            no_overflow(page)
            seen["checked"] += 1

    seen["moves"] = play_by_clicks(page, "#moves button.move:enabled", seed=7, seconds=240, on_summary=on_summary,
                                   before_click=before_click)
    return seen


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
    shoot_phone_and_desktop(page, f"{game}-{lang}-start")

    seen = play_to_the_end(page, lang, game)
    assert seen["moves"] >= 5 and seen["checked"] >= 1, seen
    page.wait_for_function("() => document.getElementById('summary-dialog').open")
    english_left(page, f"{game}: the game-over view")
    if lang == "fa":
        persian_digits(page, "#summary")
        assert not re.search("[0-9]", page.inner_text("#log")), "move numbers in Persian digits"
    no_overflow(page)
    shoot_phone_and_desktop(page, f"{game}-{lang}-over")
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
