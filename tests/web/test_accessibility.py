"""Accessibility: an axe-core scan (axe-playwright-python) of every kind of page.

The lobby (also while it waits for a "Play now" table), each game's table mid-game (a person and
bots), a finished game's table page with its game-over dialog, and the replay of a finished game.
No "serious" or "critical" violation may remain; the lesser ones are printed (run with -s to see
them), so they can be fixed over time.
"""

from __future__ import annotations

import time

import httpx
import pytest

from ludus.games import game_names

from .browsing import DESKTOP
from .test_ratings_pages import play_rated_duel

axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

BLOCKING = ("serious", "critical")


def scan(page, what: str) -> None:
    """Run axe on the page as it is now; fail on serious or critical violations, print the rest."""
    results = axe_playwright.Axe().run(page)
    violations = results.response["violations"]
    lines = []
    for v in violations:
        targets = "; ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:6])
        lines.append(f"  [{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])}×: {targets})")
    if lines:
        print(f"\naxe, {what}:\n" + "\n".join(lines))
    blocking = [line for v, line in zip(violations, lines, strict=True) if v["impact"] in BLOCKING]
    assert not blocking, f"{what}: serious or critical accessibility violations:\n" + "\n".join(blocking)


def create(page, body) -> dict:
    return page.evaluate("""async (body) => {
      const r = await fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},
        body: JSON.stringify(body)});
      return await r.json();
    }""", body)


def test_lobby(live, browser):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(live.url + "/")
    page.wait_for_selector("#create:enabled")
    scan(page, "the lobby")
    page.select_option("#game", "gladius")  # the options with suggestions, the "More options" opened
    page.wait_for_selector("#opt-fighter1")
    page.click("#options summary")
    page.select_option("#opt-fighter1", "\u2026other")
    scan(page, "the lobby with Gladius options open")
    ctx.close()


def test_lobby_waiting_to_play_now(live, browser):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(live.url + "/")
    page.wait_for_selector("#quick-play:enabled")
    page.fill("#quick-name", "Axe")
    page.select_option("#quick-game", "gorus-maximus")
    page.select_option("#quick-players", "3")
    page.click("#quick-play")
    page.wait_for_selector("#quick-waiting:not(.hidden)")
    scan(page, "the lobby waiting for a Play now table")
    page.click("#quick-leave")
    page.wait_for_selector("#quick-form:not(.hidden)")
    ctx.close()


def test_account_page(live, browser):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(live.url + "/me")
    page.wait_for_selector("#anonymous:not(.hidden)")
    scan(page, "the account page, logged out")
    page.fill("#signup-name", "Axe")
    page.fill("#signup-password", "a long enough secret")
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#signed-in:not(.hidden)")
    page.click("text=Delete account")
    scan(page, "the account page, logged in, deletion open")
    ctx.close()


@pytest.mark.parametrize("game", game_names())
def test_each_game_mid_game(live, browser, game):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(live.url + "/")
    count = httpx.post(f"{live.url}/api/games/{game}/options", json={"options": {}}).json()["seats"]
    table = create(page, {"game": game, "options": {}, "name": "Ann",
                          "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (count - 1)})
    page.goto(f"{live.url}/t/{table['code']}")
    # mid-game: Ann's turn has come (the moves are shown), after at least one move or deal
    page.wait_for_function("() => document.getElementById('status').textContent === 'Your turn.'", timeout=30_000)
    page.wait_for_timeout(200)
    page.click("#log-box summary")  # the log open, so its lines are scanned too
    scan(page, f"the {game} table mid-game")
    ctx.close()


def finished_table(live, page, game: str = "gladius") -> str:
    """A game between two bots, watched to its end; returns the table code."""
    table = create(page, {"game": game, "options": {"hit_points": 3}, "name": None,
                          "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
    code = table["code"]
    deadline = time.time() + 60
    while httpx.get(f"{live.url}/api/tables/{code}").json()["status"] != "finished":
        assert time.time() < deadline, "the bots did not finish"
        time.sleep(0.2)
    return code


def test_finished_table_and_its_replay(live, browser):
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(live.url + "/")
    code = finished_table(live, page)
    page.goto(f"{live.url}/t/{code}")
    page.wait_for_selector("#summary-dialog[open]")  # the game-over dialog, as it first opens
    scan(page, "a finished game's table page, game-over dialog open")
    page.click("#summary-close")
    page.click("#log-box summary")
    scan(page, "a finished game's table page")
    page.goto(f"{live.url}/t/{code}/replay")
    page.wait_for_selector("#board h2")
    page.click("#next")
    scan(page, "the replay of a finished game")
    ctx.close()


def test_ratings_and_player_pages(live, browser):
    client, _ = play_rated_duel(live, "Axe")
    client.close()
    ctx = browser.new_context(viewport=DESKTOP)
    page = ctx.new_page()
    page.goto(live.url + "/ratings?game=gladius")
    page.wait_for_selector("#pools table.leaderboard")
    scan(page, "the ratings page")
    page.goto(live.url + "/players/Axe")
    page.wait_for_selector(".rating-block svg.rating-chart")
    page.click(".rating-history summary")
    scan(page, "a player's page, the history open")
    ctx.close()
