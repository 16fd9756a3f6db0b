"""The Rules panel (rules.js) in a real browser: on the lobby for each game, with the options as the
form has them; on a table, with the table's own options; the keyboard (Escape closes it, the focus
goes back to the button); a phone-sized screen; and the lobby's Learn link, shown only for a game
that has a guided first game."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from ludus.games import game_names, get_game, how_to_play

from .browsing import AUTO_OFF, CREATE_JS, DESKTOP, PHONE

LOADED = "#rules-dialog[open][data-loaded=true]"
CLOSED = "() => !document.getElementById('rules-dialog').open"
FOCUSED_ID = "() => document.activeElement && document.activeElement.id"


def sections(name: str) -> list[str]:
    """The panel's sections: the game's how-to-play text, then the list of values it does not print."""
    return [*re.findall(r"^## (.+?)\s*$", how_to_play(name), re.M), "Values not printed in the rulebook"]


def shown(page, option: str) -> str:
    return page.inner_text(f"#rules-dialog [data-rules-option={option}] [data-shown]").strip()


def changed(page, option: str) -> bool:
    return "changed" in (page.get_attribute(f"#rules-dialog [data-rules-option={option}]", "class") or "").split()


def open_lobby(live, browser, viewport):
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    page.wait_for_selector("#create:enabled")
    return ctx, page, errors


def open_rules(page) -> None:
    page.click("#rules-button")
    page.wait_for_selector(LOADED)


def close_with_escape(page) -> None:
    page.keyboard.press("Escape")
    page.wait_for_function(CLOSED)
    assert page.evaluate(FOCUSED_ID) == "rules-button"  # back where the player was


def test_lobby_rules_for_each_game_with_the_forms_options(live, browser, shots):
    ctx, page, errors = open_lobby(live, browser, DESKTOP)
    games = {g["name"]: g for g in httpx.get(live.url + "/api/games", timeout=10).json()}
    for name in game_names():
        page.select_option("#game", name)
        page.wait_for_selector("#create:enabled")
        page.focus("#rules-button")
        page.keyboard.press("Enter")  # a keyboard user opens it as well as a mouse user
        page.wait_for_selector(LOADED)
        assert page.inner_text("#rules-title") == f"How to play {get_game(name).title}"
        assert page.eval_on_selector_all("#rules-dialog .rules-text h3", "hs => hs.map(h => h.textContent)") \
            == sections(name)
        assert page.inner_text("#rules-options-title") == "Options as set in the form"
        listed = page.eval_on_selector_all("#rules-dialog [data-rules-option]",
                                           "xs => xs.map(x => x.dataset.rulesOption)")
        assert listed == [o["name"] for o in games[name]["options"]]
        assert not page.query_selector("#rules-dialog .rules-opt.changed")  # the form is at the defaults
        assert page.evaluate("() => document.getElementById('rules-dialog').contains(document.activeElement)")
        close_with_escape(page)

    # options changed in the form are the ones the panel shows, marked as changed
    page.select_option("#game", "gorus-maximus")
    page.wait_for_selector("#create:enabled")
    page.select_option("#opt-players", "5")
    page.click("#options summary")
    page.check("#opt-memory_aids")
    page.wait_for_selector("#create:enabled")
    open_rules(page)
    assert shown(page, "players") == "5" and changed(page, "players")
    assert shown(page, "memory_aids") == "on" and changed(page, "memory_aids")
    assert shown(page, "target") == "3" and not changed(page, "target")
    assert "default 4" in page.inner_text("#rules-dialog [data-rules-option=players]")
    assert "2 of" in page.inner_text("#rules-dialog .rules-options")
    # the section list takes the reader (and the focus) to a section
    page.click("#rules-dialog .rules-nav button:has-text('Where the rules leave a choice')")
    assert page.evaluate("() => document.activeElement.textContent") == "Where the rules leave a choice"
    page.screenshot(path=str(shots / "rules-lobby-desktop.png"))
    page.click("#rules-close")
    page.wait_for_function(CLOSED)
    assert page.evaluate(FOCUSED_ID) == "rules-button"

    # options the server refuses: the panel says so and shows the rules with the defaults
    page.fill("#opt-schools", "ZZZ")
    page.keyboard.press("Tab")
    page.wait_for_selector("[data-opt-row=schools].invalid")
    open_rules(page)
    assert "unknown school code" in page.inner_text("#rules-dialog .rules-problem")
    assert shown(page, "players") == "4" and page.query_selector("#rules-dialog .rules-text h3")
    close_with_escape(page)
    assert not errors, errors
    ctx.close()


def test_lobby_rules_fit_a_phone(live, browser, shots):
    ctx, page, errors = open_lobby(live, browser, PHONE)
    page.select_option("#game", "circus-maximus")  # the widest text: a table of card values
    page.wait_for_selector("#create:enabled")
    open_rules(page)
    box = page.eval_on_selector("#rules-dialog", "d => { const r = d.getBoundingClientRect(); "
                                "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, "
                                "scroll: d.scrollWidth, client: d.clientWidth}; }")
    assert box["left"] >= 0 and box["right"] <= PHONE["width"], box
    assert box["top"] >= 0 and box["bottom"] <= PHONE["height"], box
    assert box["scroll"] <= box["client"], box  # nothing makes the reader scroll sideways
    page.screenshot(path=str(shots / "rules-lobby-phone.png"))
    # the Close button stays in reach while reading further down
    page.eval_on_selector("#rules-dialog", "d => { d.scrollTop = d.scrollHeight; }")
    close = page.eval_on_selector("#rules-close", "b => b.getBoundingClientRect().top")
    assert 0 <= close < PHONE["height"]
    page.click("#rules-close")
    page.wait_for_function(CLOSED)
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_table_rules_show_the_tables_own_options(live, browser, shots, viewport):
    ctx = browser.new_context(viewport=viewport)
    ctx.add_init_script(AUTO_OFF)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    code = page.evaluate(CREATE_JS, {"game": "gladius", "options": {"hit_points": 7, "fighter1": "thracian"},
                                     "name": "Ann", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    page.goto(f"{live.url}/t/{code}")
    page.wait_for_selector("#rules-button:not(.hidden)")
    page.wait_for_function("() => document.getElementById('status').textContent === 'Your turn.'", timeout=30_000)
    open_rules(page)
    assert page.inner_text("#rules-options-title") == "Options at this table"
    assert shown(page, "hit_points") == "7" and changed(page, "hit_points")
    assert shown(page, "fighter1") == "Thracian" and changed(page, "fighter1")
    assert shown(page, "fighter2") == "Secutor" and not changed(page, "fighter2")
    assert page.eval_on_selector_all("#rules-dialog .rules-text h3", "hs => hs.map(h => h.textContent)") \
        == sections("gladius")
    width = page.evaluate("() => document.documentElement.clientWidth")
    right = page.eval_on_selector("#rules-dialog", "d => d.getBoundingClientRect().right")
    assert right <= width
    page.screenshot(path=str(shots / f"rules-table-{'phone' if viewport == PHONE else 'desktop'}.png"))
    close_with_escape(page)
    assert not errors, errors
    ctx.close()


def test_learn_link_only_for_games_with_a_tutorial(live, browser):
    pages = httpx.get(live.url + "/api/pages", timeout=10).json()
    assert all(isinstance(p["tutorial"], bool) for p in pages.values())
    ctx, page, errors = open_lobby(live, browser, DESKTOP)
    page.wait_for_selector("#learn-link[data-checked=true]", state="attached")  # the lobby has read /api/pages
    for name in game_names():
        page.select_option("#game", name)
        assert page.is_visible("#learn-link") is pages[name]["tutorial"], name
    ctx.close()

    # a server whose gladius has a tutorial (the answer changed on its way to the page)
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()

    def with_tutorial(route) -> None:
        data = route.fetch().json()
        for name in data:
            data[name]["tutorial"] = name == "gladius"
        route.fulfill(status=200, content_type="application/json", body=json.dumps(data))

    page.route("**/api/pages", with_tutorial)
    page.goto(live.url + "/")
    page.wait_for_selector("#create:enabled")
    page.select_option("#game", "gladius")
    page.wait_for_selector("#learn-link:not(.hidden)")
    assert page.get_attribute("#learn-link", "href") == "/learn/gladius"
    assert "Gladius" in (page.get_attribute("#learn-link", "aria-label") or "")
    page.select_option("#game", "gorus-maximus")
    assert not page.is_visible("#learn-link")
    assert not errors, errors
    ctx.close()


def test_no_serious_accessibility_violation_with_the_panel_open(live, browser):
    pytest.importorskip("axe_playwright_python.sync_playwright")
    from .test_accessibility import scan

    ctx, page, _ = open_lobby(live, browser, DESKTOP)
    open_rules(page)
    scan(page, "the lobby with the Rules panel open")
    ctx.close()
