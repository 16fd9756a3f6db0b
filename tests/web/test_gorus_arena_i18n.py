"""A whole Gorus Arena game in Spanish and in Persian, in Chromium: a person plays against a bot
by the page's own controls (hand cards and move buttons) until the game is over, asks the bot for
a hint once, reads a round's summary, the game-over view and the replay. On the way no English
text of ours is left on the page: the board, the moves and the round's events (worded by the page
from the observation's ``event_codes``, never the engine's English ``events``); the Persian page
runs right to left with Persian digits and nothing wider than a phone. Screenshots (desktop and
phone) in /tmp/i18n-shots/."""

from __future__ import annotations

import re

import pytest

from .browsing import CREATE_JS, DESKTOP, PHONE, play_by_clicks
from .test_i18n_pages import LOCALES, check_rtl, leftover_english, no_overflow, shoot, shoot_phone_and_desktop

CONTROLS = "#hand button.card.playable:enabled, #moves button.move:enabled"
PERSIAN = re.compile("[\u0600-\u06ff]")

# The round's events as the page shows them (each line's own text, its mark left out), and how
# many lines the page could not word from a code (shown as the engine's English, marked lang="en").
EVENTS_JS = """() => ({
  lines: [...document.querySelectorAll('#board .ga-events li')].map((li) => {
    const copy = li.cloneNode(true);
    copy.querySelectorAll('.log-mark').forEach((m) => m.remove());
    return copy.textContent;
  }),
  marks: [...document.querySelectorAll('#board .ga-events .log-mark')].map((m) => m.dataset.mark),
  english: document.querySelectorAll('#board [lang="en"], #moves [lang="en"]').length,
})"""


def no_english_left(page, where: str) -> None:
    left = leftover_english(page)
    assert left == [], "\n".join([where, *left])


def check_words(page, lang: str, where: str) -> dict:
    """No English text of ours, no engine English; in Persian the events, the board and the moves
    in Persian script with Persian digits (the board shows no Latin digit at all)."""
    no_english_left(page, where)
    events = page.evaluate(EVENTS_JS)
    assert events["english"] == 0, f"{where}: a line worded by the engine in English"
    if lang == "fa":
        assert all(PERSIAN.search(line) for line in events["lines"]), (where, events["lines"])
        for part in ("#board", "#moves"):
            text = page.inner_text(part)
            assert not re.search("[0-9]", text), f"{where}: a Latin digit in {part}: {text[:300]!r}"
        assert re.search("[۰-۹]", page.inner_text("#ga-round")), where
    else:  # Spanish: none of the engine's English sentences
        assert not any(re.search(r"\b(wins with strength|reveals|attacks|recruits|draws)\b", line)
                       for line in events["lines"]), (where, events["lines"])
    return events


def ask_for_a_hint(page, lang: str) -> None:
    """The hint box names the bot's move with the page's own words (moveLabel)."""
    page.click("#hint-button")
    page.wait_for_selector("#hint-box .hint-move, #hint-box .hint-error", timeout=40_000)
    move = page.inner_text("#hint-box .hint-move")
    if lang == "fa":
        assert PERSIAN.search(move) and not re.search("[A-Za-z0-9]", move), move
    no_english_left(page, "the hint")


def play_to_the_end(page, lang: str) -> dict:
    """Clicks a control (a hand card or a move button) until the game is over, asks for a hint
    once, checks the words every 8 moves and when the plans are first revealed, and the first
    round's summary."""
    seen = {"checked": 0, "summaries": 0, "hint": False, "arena": False, "marks": set()}

    def on_summary(page, before: int) -> None:
        if not before:
            no_english_left(page, "the first round's summary")
            if lang == "fa":
                assert not re.search("[0-9]", page.inner_text("#summary-dialog")), "summary digits"
            shoot(page, f"gorus-arena-{lang}-summary-phone")
        seen["summaries"] += 1

    def before_click(page, clicks: int) -> None:
        if not seen["hint"]:
            ask_for_a_hint(page, lang)
            seen["hint"] = True
        arena = page.evaluate("() => document.querySelectorAll('#board .ga-arena .ga-card').length") > 0
        if clicks % 8 == 0 or (arena and not seen["arena"]):
            events = check_words(page, lang, f"before move {clicks}")
            seen["marks"].update(events["marks"])
            no_overflow(page)
            seen["checked"] += 1
            if arena and not seen["arena"]:  # the revealed plans, the auctions and the choice of a card's action
                seen["arena"] = True
                shoot_phone_and_desktop(page, f"gorus-arena-{lang}-arena")

    seen["moves"] = play_by_clicks(page, CONTROLS, seed=11, seconds=90, on_summary=on_summary,
                                   before_click=before_click)
    return seen


@pytest.mark.parametrize("lang", ["es", "fa"])
def test_a_whole_gorus_arena_game_in_the_language(live, browser, lang):
    ctx = browser.new_context(viewport=PHONE, locale=LOCALES[lang])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    code = page.evaluate(CREATE_JS, {"game": "gorus-arena", "options": {"players": 2, "rounds": 2}, "name": "Livia",
                                     "hints": True, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    page.goto(f"{live.url}/t/{code}")
    page.wait_for_selector("#ga-round")
    page.wait_for_function("() => document.getElementById('conn').textContent.length > 0")
    page.wait_for_function(f"() => document.querySelectorAll({CONTROLS!r}).length > 0", timeout=30_000)
    page.locator("#log-box summary").click()
    check_words(page, lang, "the table at the start")
    if lang == "fa":
        check_rtl(page)
        assert page.evaluate("getComputedStyle(document.getElementById('board')).direction") == "rtl"
    no_overflow(page)
    shoot_phone_and_desktop(page, f"gorus-arena-{lang}-start")

    seen = play_to_the_end(page, lang)
    assert seen["moves"] >= 5 and seen["checked"] >= 2 and seen["arena"] and seen["summaries"] >= 1, seen
    assert "round" in seen["marks"] and seen["marks"] & {"winner", "tie"}, seen  # kinds from the codes

    page.wait_for_function("() => document.getElementById('summary-dialog').open")
    no_english_left(page, "the game-over view")
    if lang == "fa":
        for part in ("#summary", "#ga-scoring", "#log"):
            text = page.inner_text(part)
            assert re.search("[۰-۹]", text) and not re.search("[0-9]", text), (part, text[:300])
    no_overflow(page)
    shoot(page, f"gorus-arena-{lang}-over-phone")
    page.set_viewport_size(DESKTOP)
    shoot(page, f"gorus-arena-{lang}-over-desktop")
    page.keyboard.press("Escape")
    check_words(page, lang, "the board at the end")
    shoot(page, f"gorus-arena-{lang}-board-over-desktop")

    # the replay: its step line names each move in the language, its board as the table drew it
    page.click("#replay-link")
    page.wait_for_function("() => document.getElementById('step').textContent.length > 0")
    page.wait_for_selector("#ga-round")
    last = int(page.get_attribute("#slider", "max"))
    assert last >= 6, last
    for step in range(1, last + 1):  # every move of the game (a short one), each frame drawn by the page
        page.keyboard.press("ArrowLeft" if lang == "fa" else "ArrowRight")  # forward, the way the text goes
        page.wait_for_function("(n) => document.getElementById('slider').value === String(n)", arg=step, timeout=5_000)
        if step == last // 2:
            no_english_left(page, f"the replay at move {step}")
    no_english_left(page, "the replay")
    if lang == "fa":
        line = page.inner_text("#step")
        assert PERSIAN.search(line) and not re.search("[0-9]", line), line
    page.set_viewport_size(PHONE)
    no_overflow(page)
    shoot(page, f"gorus-arena-{lang}-replay-phone")
    assert not errors, errors
    ctx.close()
