"""The lobby in a browser (issue 14): options from lists, option names and help as on the command line,
a disabled Create button that says why, and seat labels that follow every edit. Screenshots at desktop
and phone width go to artifacts/screenshots/lobby-*.png."""

from __future__ import annotations

import json

import httpx
import pytest
from playwright.sync_api import expect

from .browsing import DESKTOP, PHONE

SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


def _width_name(viewport) -> str:
    return "desktop" if viewport["width"] >= 1000 else "phone"


def _open(browser, live, viewport, game=None):
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e) + (e.stack or "")))
    page.goto(live.url + "/")
    page.wait_for_selector("#create:enabled")
    if game:
        page.select_option("#game", game)
        page.wait_for_selector(f"#opt-{_first_option(live, game)}")
        page.wait_for_selector("#create:enabled")
    return ctx, page, errors


_GAMES: dict[str, list] = {}


def _games(live) -> list:
    if live.url not in _GAMES:
        _GAMES[live.url] = httpx.get(live.url + "/api/games").json()
    return _GAMES[live.url]


def _first_option(live, game) -> str:
    return next(g for g in _games(live) if g["name"] == game)["options"][0]["name"]


def _fits(page, width) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


def _wait_for(page, held: list) -> None:
    """Until the page's held request reaches the test (route handlers run while Playwright waits)."""
    for _ in range(500):
        if held:
            return
        page.wait_for_timeout(20)
    raise AssertionError("the request never came")


def _more_options(page) -> None:
    if page.locator("#options details").count() and not page.eval_on_selector("#options details", "d => d.open"):
        page.click("#options summary")


@pytest.mark.parametrize("viewport", SIZES)
def test_options_with_known_values_are_lists(live, browser, shots, viewport):
    ctx, page, errors = _open(browser, live, viewport)
    listed = 0
    for game in _games(live):
        page.select_option("#game", game["name"])
        page.wait_for_selector(f"#opt-{game['options'][0]['name']}")
        page.wait_for_selector("#create:enabled")
        _more_options(page)
        for info in game["options"]:
            control = page.locator(f"[data-option='{info['name']}']")
            tag = control.evaluate("e => e.tagName.toLowerCase()")
            if info["suggestions"] and not info["choices"]:
                continue  # a list of suggestions plus "Other…": test_suggestions_are_offered_but_restrict_nothing
            if info["choices"]:
                expected = [str(c) for c in info["choices"]]
            elif info["kind"] == "int" and info["min"] is not None and info["max"] is not None \
                    and info["max"] - info["min"] < 12:
                expected = [str(n) for n in range(info["min"], info["max"] + 1)]
            else:
                assert tag == "input", (game["name"], info["name"])
                continue
            listed += 1
            assert tag == "select", (game["name"], info["name"])
            values = control.evaluate("s => Array.from(s.options, o => o.value)")
            assert values == expected, (game["name"], info["name"])
            assert control.input_value() == str(info["default"]), (game["name"], info["name"])
        _fits(page, viewport["width"])
        if game["name"] == "gorus-arena":
            page.screenshot(path=str(shots / f"lobby-options-{_width_name(viewport)}.png"), full_page=True)
    assert listed >= 10  # Gladius's first/mirror/hands, Circus Maximus's players, Gorus Arena's rules…

    # a value picked from a list reaches the server: five players of Circus Maximus get five seats
    page.select_option("#game", "circus-maximus")
    page.wait_for_selector("#seat-3-kind")
    page.select_option("#opt-players", "5")
    page.wait_for_selector("#seat-4-kind")
    expect(page.locator("#seat-list .seat-row")).to_have_count(5)
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("viewport", SIZES)
def test_disabled_create_looks_disabled_and_says_why(live, browser, shots, viewport):
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e) + (e.stack or "")))
    held: list = []
    page.route("**/api/games/*/options", lambda route: held.append(route))
    page.goto(live.url + "/")

    # the seats are on their way: the button is disabled, looks it, and says so
    page.wait_for_function("() => document.getElementById('create-why').textContent === 'Loading seats…'")
    assert page.locator("#create").is_disabled()
    assert page.evaluate("() => document.getElementById('create').getAttribute('aria-describedby')") == "create-why"
    off = page.eval_on_selector("#create", "b => { const s = getComputedStyle(b); "
                                "return [s.backgroundColor, s.cursor, s.borderStyle]; }")
    assert off[1] == "not-allowed" and off[2] == "dashed", off
    page.screenshot(path=str(shots / f"lobby-loading-seats-{_width_name(viewport)}.png"))
    _wait_for(page, held)
    for route in held:
        route.continue_()
    page.unroute("**/api/games/*/options")
    page.wait_for_selector("#create:enabled")
    expect(page.locator("#create-why")).to_be_hidden()
    on = page.eval_on_selector("#create", "b => { const s = getComputedStyle(b); "
                               "return [s.backgroundColor, s.cursor, s.borderStyle]; }")
    assert on != off and on[1] == "pointer" and on[2] == "solid", on

    # a value the page can check itself (at most 20): marked in red, with a sentence, before any request
    _more_options(page)
    page.fill("#opt-target", "25")
    expect(page.locator("#create-why")).to_have_text("Fix the options marked in red.")
    assert page.locator("#create").is_disabled()
    row = page.locator("[data-opt-row='target']")
    expect(row).to_have_class("opt invalid")
    expect(row.locator(".opt-error")).to_contain_text("from 1 to 20")
    assert page.get_attribute("#opt-target", "aria-invalid") == "true"
    page.screenshot(path=str(shots / f"lobby-bad-option-{_width_name(viewport)}.png"), full_page=True)
    page.fill("#opt-target", "4")
    page.wait_for_selector("#create:enabled")
    expect(row).to_have_class("opt")

    # a combination only the rules can refuse: the server's sentence beside both options it names
    page.select_option("#game", "gladius")
    page.wait_for_selector("#opt-fighter1")
    page.wait_for_selector("#create:enabled")
    _more_options(page)
    page.select_option("#opt-starting_hand", "7")
    expect(page.locator("#create-why")).to_have_text("Fix the options marked in red.")
    for name in ("starting_hand", "hand_limit"):
        expect(page.locator(f"[data-opt-row='{name}'] .opt-error")).to_contain_text("cannot exceed hand-limit")
    assert page.locator(".opt.invalid").count() == 2
    page.locator("[data-opt-row='hand_limit']").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"lobby-refused-options-{_width_name(viewport)}.png"), full_page=True)
    page.select_option("#opt-hand_limit", "8")
    page.wait_for_selector("#create:enabled")
    assert page.locator(".opt.invalid").count() == 0
    assert not errors, errors
    ctx.close()


def test_create_says_why_while_games_load_and_when_there_are_none(live, browser):
    ctx = browser.new_context(viewport=PHONE)
    page = ctx.new_page()
    held: list = []
    page.route("**/api/games", lambda route: held.append(route))
    page.goto(live.url + "/")
    expect(page.locator("#create-why")).to_have_text("Loading games…")
    assert page.locator("#create").is_disabled()
    _wait_for(page, held)
    held[0].fulfill(status=200, content_type="application/json", body=json.dumps([]))
    expect(page.locator("#create-why")).to_have_text("No games are installed on this server.")
    assert page.locator("#create").is_disabled()
    ctx.close()


@pytest.mark.parametrize("viewport", SIZES)
def test_option_names_as_on_the_command_line_with_help_beside(live, browser, shots, viewport):
    ctx, page, errors = _open(browser, live, viewport)
    for game in _games(live):
        page.select_option("#game", game["name"])
        page.wait_for_selector(f"#opt-{game['options'][0]['name']}")
        _more_options(page)
        for info in game["options"]:
            row = page.locator(f"[data-opt-row='{info['name']}']")
            name = row.locator(".opt-name")
            assert name.inner_text().strip() == info["name"].replace("_", "-")
            assert "_" not in name.inner_text()
            # the name is the control's label (clicking it focuses the control)
            assert name.get_attribute("for") == f"opt-{info['name']}"
            help_ = row.locator(".opt-help")
            assert help_.inner_text().strip() == info["help"]
            assert help_.is_visible()
            # nothing cut off: the help wraps inside the page
            box = help_.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 0.5, (game["name"], info["name"])
        _fits(page, viewport["width"])
        if game["name"] == "gorus-maximus":
            row = page.locator("[data-opt-row='team_target']")
            expect(row.locator(".opt-name")).to_have_text("team-target")
            control, help_ = row.locator("[data-option]").bounding_box(), row.locator(".opt-help").bounding_box()
            if viewport is DESKTOP:  # beside: on the same line, to the right of the control
                assert help_["x"] >= control["x"] + control["width"]
                assert help_["y"] < control["y"] + control["height"]
            else:  # on a phone, right under it
                assert help_["y"] >= control["y"] + control["height"] - 1
            page.screenshot(path=str(shots / f"lobby-names-help-{_width_name(viewport)}.png"), full_page=True)
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("viewport", SIZES)
def test_seat_labels_follow_edits(live, browser, shots, viewport):
    ctx, page, errors = _open(browser, live, viewport, game="gladius")
    page.fill("#name", "Tess")
    expect(page.locator("#seat-0-who")).to_have_text("Tess (you)")
    expect(page.locator("[data-seat='0'] .seat-name strong")).to_have_text("Retiarius")
    expect(page.locator("#seat-1-who")).to_have_text("bot, good (plays by rules of thumb)")

    # the name as typed, letter by letter
    page.fill("#name", "")
    expect(page.locator("#seat-0-who")).to_have_text("you (type your name above)")
    page.locator("#name").press_sequentially("Marcus")
    expect(page.locator("#seat-0-who")).to_have_text("Marcus (you)")

    # the bot level
    page.select_option("#seat-1-bot", "random")
    expect(page.locator("#seat-1-who")).to_have_text("bot, beginner (random moves)")

    # who plays: a second person, then the creator's seat handed to a bot (the creator moves over)
    page.select_option("#seat-1-kind", "human")
    expect(page.locator("#seat-1-who")).to_have_text("a person you invite (open seat)")
    page.select_option("#seat-0-kind", "bot")
    expect(page.locator("#seat-0-who")).to_have_text("bot, good (plays by rules of thumb)")
    expect(page.locator("#seat-1-who")).to_have_text("Marcus (you)")

    # an option that renames the seat: the fighter type; who plays stays as chosen
    _more_options(page)
    page.select_option("#opt-fighter2", "murmillo")
    expect(page.locator("[data-seat='1'] .seat-name strong")).to_have_text("Murmillo")
    expect(page.locator("#seat-1-who")).to_have_text("Marcus (you)")
    assert page.get_attribute("#seat-1-kind", "aria-label") == "Murmillo: who plays"
    page.wait_for_selector("#create:enabled")
    _fits(page, viewport["width"])
    page.screenshot(path=str(shots / f"lobby-seats-{_width_name(viewport)}.png"), full_page=True)
    assert not errors, errors
    ctx.close()


def test_create_right_after_typing_an_option_waits_for_it(live, browser):
    """Typing a value and clicking Create at once: the click is not lost to the re-check, and the
    table gets the value typed (its change event fires only as the button takes focus)."""
    ctx, page, errors = _open(browser, live, PHONE, game="gladius")
    page.fill("#name", "Tess")
    _more_options(page)
    page.fill("#opt-hit_points", "12")
    page.click("#create")
    page.wait_for_url(lambda url: "/t/" in url)
    code = page.url.rsplit("/", 1)[1]
    info = httpx.get(f"{live.url}/api/tables/{code}").json()
    assert info["options"]["hit_points"] == 12
    assert not errors, errors
    ctx.close()


OTHER = "\u2026other"


def _option_entries(page, name):
    return page.eval_on_selector(f"#opt-{name}", "s => Array.from(s.options, o => [o.value, o.textContent])")


@pytest.mark.parametrize("viewport", SIZES)
def test_suggestions_are_offered_but_restrict_nothing(live, browser, shots, viewport):
    ctx, page, errors = _open(browser, live, viewport, game="gladius")
    _more_options(page)
    # Gladius: the shipped fighter types with their names, the default picked, then "Other…"
    entries = _option_entries(page, "fighter1")
    assert entries[0] == ["secutor", "Secutor"] and ["retiarius", "Retiarius (default)"] in entries
    assert [v for v, _ in entries] == ["secutor", "retiarius", "thracian", "murmillo", "dimachaeri", "samnite",
                                       "postulati", "lion", OTHER]
    assert entries[-1][1] == "Other…"
    lion = dict(entries)["lion"]
    assert "Lion" in lion and "not in the rulebook" in lion  # the project's own fighter says so
    assert page.input_value("#opt-fighter1") == "retiarius"
    assert page.is_hidden("#opt-fighter1-other")
    # a suggestion reaches the seats (the seat is named after the fighter type)
    page.select_option("#opt-fighter1", "thracian")
    expect(page.locator("[data-seat='0'] .seat-name strong")).to_have_text("Thracian")
    # "Other…" opens a text box, focused; a type no file defines is refused by the server, beside the option
    page.select_option("#opt-fighter1", OTHER)
    expect(page.locator("#opt-fighter1-other")).to_be_visible()
    expect(page.locator("#opt-fighter1-other")).to_be_focused()
    page.fill("#opt-fighter1-other", "gaul")
    page.locator("#opt-fighter1-other").dispatch_event("change")
    expect(page.locator("[data-opt-row='fighter1'] .opt-error")).to_contain_text("gaul")
    expect(page.locator("#create")).to_be_disabled()
    page.screenshot(path=str(shots / f"lobby-suggestions-{_width_name(viewport)}.png"), full_page=True)
    # a known type typed by hand is accepted, and the table gets it
    page.fill("#opt-fighter1-other", "samnite")
    page.locator("#opt-fighter1-other").dispatch_event("change")
    expect(page.locator("[data-seat='0'] .seat-name strong")).to_have_text("Samnite")
    page.wait_for_selector("#create:enabled")
    _fits(page, viewport["width"])

    # Gorus Maximus: team splits follow the player count (those for 4 players, then for 5)
    page.select_option("#game", "gorus-maximus")
    page.wait_for_selector("#opt-players")
    page.wait_for_selector("#create:enabled")
    _more_options(page)
    assert page.input_value("#opt-players") == "4"
    teams = _option_entries(page, "teams")
    assert [v for v, _ in teams] == ["", "2v2", OTHER]
    assert teams[0][1] == "none (default)" and teams[1][1] == "2 v 2: two teams of two"
    page.select_option("#opt-teams", "2v2")
    page.wait_for_selector("#create:enabled")
    page.select_option("#opt-players", "5")
    # 2v2 does not fit five players: back to the default, and the five-player splits offered
    expect(page.locator("#opt-teams")).to_have_value("")
    assert [v for v, _ in _option_entries(page, "teams")] == ["", "2v2v1", "3v2", OTHER]
    page.select_option("#opt-teams", "3v2")
    page.wait_for_selector("#seat-4-kind")
    page.wait_for_selector("#create:enabled")
    page.fill("#name", "Tess")
    page.click("#create")
    page.wait_for_url(lambda url: "/t/" in url)
    code = page.url.rsplit("/", 1)[1]
    info = httpx.get(f"{live.url}/api/tables/{code}").json()
    assert info["options"]["teams"] == "3v2" and info["options"]["players"] == 5
    assert not errors, errors
    ctx.close()
