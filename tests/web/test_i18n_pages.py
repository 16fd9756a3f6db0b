"""The pages in Spanish and Persian, in Chromium: the language comes from Accept-Language or the
switcher's cookie, no English text of ours is left on the page, and the Persian page is laid out
right to left without running off a phone's screen. Screenshots (desktop and phone, each language)
go to /tmp/i18n-shots/ to be looked at."""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path

import pytest

from ludus import games
from ludus.i18n import catalogs, use_language
from ludus.i18n.data import translate_text

from .browsing import CLOSE_ROUND_SUMMARY_JS, CREATE_JS, DESKTOP, PHONE

SHOTS = Path("/tmp/i18n-shots")
LOCALES = {"es": "es-ES", "fa": "fa-IR"}

# Every text a person reads on the page: each text node's own text (of an element that is shown)
# and the attributes read aloud or shown on hover, with the element they belong to.
TEXTS_JS = """() => {
  const out = [];
  const shown = (el) => !!el && !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    // code and an option's value are typed as they are (-o schools=random), in every language
    // and a text the page marks as English (a game's own words it has no translation of) is known
    const skip = 'script, style, [translate="no"], svg, code, [data-shown], [lang="en"]';
    if (!el || el.closest(skip) || !shown(el)) continue;
    const text = node.textContent.replace(/\\s+/g, ' ').trim();
    if (text) out.push([text, el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')]);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (el.closest('[translate="no"]')) continue;
    for (const name of ['aria-label', 'title', 'placeholder']) {
      const value = el.getAttribute(name);
      if (value) out.push([value.trim(), `${el.tagName.toLowerCase()}[${name}]`]);
    }
  }
  out.push([document.title, 'title']);
  return out;
}"""

# Whether anything reaches past the page's edges (sideways scrolling on a phone), and what does.
OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (!r.width || getComputedStyle(el).position === 'fixed' || el.closest('dialog:not([open])')) continue;
    let clipped = false;  // inside a box that scrolls or clips sideways: that box is what must fit
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') { clipped = true; break; }
    }
    if (clipped) continue;
    if (r.right > width + 1 || r.left < -1) wide.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className}`);
  }
  // a box that has to scroll sideways to show its content (a table too wide for a phone) counts too
  const boxes = [...document.querySelectorAll('section, .panel, dialog[open], details')]
    .filter((el) => el.offsetWidth && el.scrollWidth > el.clientWidth + 1 && !el.closest('dialog:not([open])'))
    .map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className} ${el.scrollWidth}>${el.clientWidth}`);
  return { scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 10), boxes };
}"""


def english_messages() -> list[re.Pattern[str]]:
    """Patterns of the English msgids of the pages (placeholders match anything), each needing at
    least one English word of three letters outside its placeholders that the Spanish translation
    does not have too (so "Ludus", "Bot" and "bot: {level}" are left out)."""
    patterns = []
    for message in catalogs.load("es", catalogs.WEB_DOMAIN):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        string = " ".join(message.string if isinstance(message.string, tuple) else (message.string,))
        for msgid in ids:
            plain = re.sub(r"\{\w+\}", "", re.sub(r"<[^>]+>", "", msgid))
            words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", plain)}
            if not words or all(w in string.lower() for w in words):  # nothing to tell the two apart by
                continue
            parts = re.split(r"(\{\w+\})", re.sub(r"<[^>]+>", "", msgid))
            body = "".join(".+?" if re.fullmatch(r"\{\w+\}", p) else re.escape(p) for p in parts if p)
            patterns.append(re.compile(rf"^{body}$"))
    return patterns


ENGLISH = english_messages()


def leftover_english(page) -> list[str]:
    """Our English texts still on the page (a text node or an attribute equal to an English msgid)."""
    found = []
    for text, where in page.evaluate(TEXTS_JS):
        for pattern in ENGLISH:
            if pattern.match(text):
                found.append(f"{text!r} at {where}")
                break
    return found


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def shoot_phone_and_desktop(page, name: str) -> None:
    """``name``-phone at the phone width the page is at, ``name``-desktop, and back to the phone."""
    shoot(page, f"{name}-phone")
    page.set_viewport_size(DESKTOP)
    shoot(page, f"{name}-desktop")
    page.set_viewport_size(PHONE)


def check_rtl(page) -> None:
    """The Persian page: <html lang="fa" dir="rtl">, and the header and a form row flow right to left."""
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["fa", "rtl"]
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    # the header's first item (the name) sits at the right, the language switcher at the left
    order = page.evaluate("""() => {
      const h1 = document.querySelector('header.top h1').getBoundingClientRect();
      const sw = document.querySelector('header.top .lang-switch').getBoundingClientRect();
      return [h1.right, sw.left, document.documentElement.clientWidth];
    }""")
    assert order[0] > order[2] / 2 and order[1] < order[2] / 2, order


def no_overflow(page) -> None:
    found = page.evaluate(OVERFLOW_JS)
    assert found["scroll"] <= found["width"] + 1 and not found["wide"] and not found["boxes"], found


@pytest.mark.parametrize("lang", ["es", "fa"])
def test_lobby_speaks_the_browsers_language(live, browser, lang):
    errors: list[str] = []
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        ctx = browser.new_context(viewport=viewport, locale=LOCALES[lang])
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(live.url + "/")
        page.wait_for_function("() => !document.getElementById('create').disabled")
        page.wait_for_selector("#tables table, #tables p")
        assert page.evaluate("document.documentElement.lang") == lang
        if size == "desktop":
            page.click("#options summary")  # the folded options too
        assert leftover_english(page) == []
        if lang == "fa":
            check_rtl(page)
            assert re.search("[۰-۹]", page.inner_text("#quick-players")), "player counts in Persian digits"
        if size == "phone":
            no_overflow(page)
        shoot(page, f"lobby-{lang}-{size}")
        assert not errors, errors
        ctx.close()


def test_switcher_sets_the_cookie_and_bad_cookies_fall_back(live, browser):
    """The switcher is a link per language at the end of every header: by keyboard it reloads the
    page in the chosen language and remembers it; a cookie naming no language Ludus speaks is
    ignored (Accept-Language decides, then English)."""
    ctx = browser.new_context(viewport=DESKTOP, locale="en-US")
    page = ctx.new_page()
    page.goto(live.url + "/ratings")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.get_attribute('.lang-switch a[hreflang="en"]', "aria-current") == "true"
    page.focus('.lang-switch a[hreflang="es"]')
    page.keyboard.press("Enter")
    page.wait_for_function("document.documentElement.lang === 'es'")
    assert page.url.endswith("/ratings")  # back on the same page
    assert page.inner_text("#board-title") == "Clasificaciones"
    assert {c["name"]: c["value"] for c in ctx.cookies()}["ludus_lang"] == "es"
    page.goto(live.url + "/")
    assert page.evaluate("document.documentElement.lang") == "es"  # remembered
    page.click('.lang-switch a[hreflang="fa"]')
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    ctx.add_cookies([{"name": "ludus_lang", "value": "de", "url": live.url}])
    page.goto(live.url + "/")
    assert page.evaluate("document.documentElement.lang") == "en"  # en-US decides
    ctx.close()


def play_until(page, done_js: str, seconds: float = 300) -> None:  # a loaded machine plays slowly
    """Plays the first playable card whenever it is this page's turn, until ``done_js`` holds."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if page.evaluate(done_js):
            return
        page.evaluate(CLOSE_ROUND_SUMMARY_JS)
        card = page.evaluate("() => { const b = document.querySelector('#hand button.card.playable:not([disabled])');"
                             " return b ? b.dataset.card : null; }")
        if card:
            try:
                page.click(f'#hand button[data-card="{card}"]', timeout=5_000)
                page.wait_for_selector(f'#hand button[data-card="{card}"]', state="detached", timeout=10_000)
            except Exception:  # noqa: BLE001 - a summary opened just then: next time round
                pass
        else:
            time.sleep(0.05)
    raise AssertionError(f"not reached in {seconds} s: {done_js}")


@pytest.mark.parametrize("lang", ["es", "fa"])
def test_a_table_played_to_the_end_in_the_language(live, browser, lang):
    """A game of Gorus Maximus against a bot: the table, a refusal, a round's summary, the log and
    the game-over view, in the language; in Persian right to left, with Persian digits."""
    ctx = browser.new_context(viewport=PHONE, locale=LOCALES[lang])
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    page.evaluate("try { localStorage.setItem('ludus-name', 'Quintus'); } catch (_) {}")
    code = page.evaluate(CREATE_JS, {"game": "gorus-maximus", "options": {"players": 2, "target": 2}, "name": "Quintus",
                                     "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    page.goto(f"{live.url}/t/{code}")
    page.wait_for_selector("#hand")
    page.wait_for_function("() => document.getElementById('conn').textContent.length > 0")
    page.locator("#log-box summary").click()
    assert leftover_english(page) == []
    if lang == "fa":
        check_rtl(page)
    no_overflow(page)
    shoot(page, f"table-{lang}-phone")

    # a card that may not be played: the refusal is said in the language
    refused = False
    deadline = time.time() + 60
    while not refused and time.time() < deadline:
        page.evaluate(CLOSE_ROUND_SUMMARY_JS)
        state = page.evaluate("""() => ({
          bad: [...document.querySelectorAll('#hand button.card.unplayable:not([disabled])')].map(b => b.dataset.card),
          good: [...document.querySelectorAll('#hand button.card.playable:not([disabled])')].map(b => b.dataset.card),
          bout: document.querySelectorAll('#board .bout figure').length })""")
        if state["good"] and state["bad"] and state["bout"]:
            page.click(f'#hand button[data-card="{state["bad"][0]}"]')
            page.wait_for_function("() => document.getElementById('notice').textContent.length > 0")
            notice = page.inner_text("#notice")
            assert not re.search(r"\b(you|follow|hold)\b", notice), notice
            refused = True
        elif state["good"]:
            page.click(f'#hand button[data-card="{state["good"][0]}"]')
            time.sleep(0.2)
        else:
            time.sleep(0.05)

    # the first round's summary, as a dialog
    page.set_viewport_size(DESKTOP)
    play_until(page, "() => document.getElementById('summary-dialog').open || "
                     "!document.getElementById('summary').classList.contains('hidden')")
    assert leftover_english(page) == []
    shoot(page, f"table-{lang}-summary-desktop")
    play_until(page, "() => !document.getElementById('summary').classList.contains('hidden')", seconds=180)
    page.wait_for_selector("#standings")
    assert leftover_english(page) == []
    if lang == "fa":
        assert re.search("[۰-۹]", page.inner_text("#standings")), "scores in Persian digits"
        assert not re.search("[0-9]", page.inner_text("#log")), "move numbers in Persian digits"
    shoot(page, f"table-{lang}-over-desktop")
    page.keyboard.press("Escape")
    page.set_viewport_size(PHONE)
    no_overflow(page)
    shoot(page, f"table-{lang}-over-phone")

    # the replay of the game: its controls and steps in the language
    page.click("#replay-link")
    page.wait_for_function("() => document.getElementById('step').textContent.length > 0")
    for _ in range(3):
        page.keyboard.press("ArrowLeft" if lang == "fa" else "ArrowRight")  # forward, the way the text goes
    assert page.input_value("#slider") == "3"
    assert leftover_english(page) == []
    no_overflow(page)
    shoot(page, f"replay-{lang}-phone")
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("lang", ["es", "fa"])
def test_the_other_pages_in_the_language(live, browser, lang):
    """The account, ratings, a bot's page and a game's Rules panel, by the switcher's cookie."""
    errors: list[str] = []
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        ctx = browser.new_context(viewport=viewport, locale="en-US")
        ctx.add_cookies([{"name": "ludus_lang", "value": lang, "url": live.url}])
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        for path, ready in (("/me", "#games a"), ("/ratings", "#pools section"),
                            ("/bots/heuristic", "#ratings section, #notice:not(:empty)")):
            page.goto(live.url + path)
            page.wait_for_selector(ready)
            assert page.evaluate("document.documentElement.lang") == lang
            left = leftover_english(page)
            assert left == [], "\n".join([path, *left])
            if path == "/ratings":  # the game's own note on its rated play, translated (not marked English)
                page.wait_for_function("() => document.getElementById('game-note').textContent.length > 0")
                assert page.query_selector_all("#game-note [lang=en]") == []
            if size == "phone":
                no_overflow(page)
            shoot(page, f"{path.strip('/').replace('/', '-')}-{lang}-{size}")
        page.goto(live.url + "/")
        page.wait_for_function("() => !document.getElementById('rules-button').disabled")
        page.click("#rules-button")
        page.wait_for_selector('#rules-dialog[data-loaded="true"]')
        left = leftover_english(page)
        assert left == [], "\n".join(left)
        shoot(page, f"rules-{lang}-{size}")
        ctx.close()
    assert not errors, errors


def test_a_gladius_table_in_persian(live, browser):
    """Gladius's page in Persian at phone width: the fighters, the exchange, the hand, the moves, the
    rules' reasons on the cards that cannot be used now (from their codes) and the log in Persian."""
    ctx = browser.new_context(viewport=PHONE, locale="fa-IR")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    code = page.evaluate(CREATE_JS, {"game": "gladius", "options": {}, "name": "Ann",
                                     "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    page.goto(f"{live.url}/t/{code}")
    page.wait_for_selector("#fighter-0 .hp")
    reasons: list[str] = []  # the rules' reasons shown on cards that cannot be used, as the moves go on
    english_reasons = 0
    for turn in range(30):
        if turn >= 6 and reasons:
            break
        reasons += page.eval_on_selector_all(".gl-why, #blocked-moves li", "els => els.map(e => e.textContent)")
        english_reasons += len(page.query_selector_all(".gl-why [lang=en], #blocked-moves [lang=en]"))
        button = page.query_selector("#moves button.move:not([disabled])")
        if button:
            # the bot may move first and the page redraw its moves: then next time round
            with contextlib.suppress(Exception):
                button.click(timeout=5_000)
            page.wait_for_timeout(600)
        else:
            page.wait_for_timeout(300)
    page.locator("#log-box summary").click()
    assert re.search("[۰-۹]", page.inner_text("#fighter-0 .hp"))
    assert leftover_english(page) == []
    # the default match (Retiarius against Secutor) deals each the other's cards as well
    assert reasons and all(re.search("[\u0600-\u06ff]", r) for r in reasons), reasons
    assert english_reasons == 0
    check_rtl(page)
    no_overflow(page)
    shoot(page, "gladius-fa-phone")
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("lang", ["es", "fa"])
def test_a_lesson_in_the_language(live, browser, lang):
    """The learn page of Gorus Maximus: the lesson's texts, the wrong move it offers, the rules'
    refusal of it and the seats, in the language (Persian right to left at phone width)."""
    errors: list[str] = []
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        ctx = browser.new_context(viewport=viewport, locale=LOCALES[lang])
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(live.url + "/learn/gorus-maximus?step=3")  # the step that offers a wrong move
        page.wait_for_function("() => document.getElementById('say').textContent.length > 0")
        page.wait_for_selector("#try-wrong")
        page.click("#try-wrong")
        page.wait_for_selector("#answer[data-kind=refused]")
        said = {part: page.inner_text(part) for part in ("#say", "#try-wrong", "#answer", "#seats")}
        with use_language(lang):  # the script's text as `ludus learn` says it
            lesson = translate_text(games.tutorial("gorus-maximus").steps[2].say)
        assert " ".join(said["#say"].split()) == " ".join(lesson.split()) != " ".join(
            games.tutorial("gorus-maximus").steps[2].say.split())
        if lang == "fa":
            assert all(re.search("[\u0600-\u06ff]", text) for text in said.values()), said
            check_rtl(page)
        else:
            assert "Try the wrong move" not in said["#try-wrong"] and "Not allowed" not in said["#answer"], said
        assert leftover_english(page) == []
        if size == "phone":
            no_overflow(page)
        shoot(page, f"learn-{lang}-{size}")
        ctx.close()
    assert not errors, errors
