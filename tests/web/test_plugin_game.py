"""A game from another distribution in the browser: the Three cards toy (``tests/plugins``),
installed into a temporary folder and seen by ``ludus serve`` through its PYTHONPATH only,
is offered by the lobby and played to the end on the generic page.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ..plugins.toy import GAME, Installed, install
from .conftest import ServerProcess

LAST_ENTRY = "(document.querySelector('#log li:last-child') || {value: 0}).value"


@pytest.fixture(scope="module")
def toy_site(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    return install(tmp_path_factory.mktemp("three-cards"))


@pytest.fixture
def live_with_toy(toy_site: Installed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerProcess]:
    """``ludus serve`` with the toy on its PYTHONPATH (ServerProcess passes this process's
    environment on to the server, so the variable is set here for the start only)."""
    monkeypatch.setenv("PYTHONPATH", toy_site.env()["PYTHONPATH"])
    server = ServerProcess(tmp_path / "web.db")
    monkeypatch.undo()
    yield server
    server.stop()


def test_the_toy_is_offered_and_played_on_the_generic_page(live_with_toy, browser, shots):
    live = live_with_toy
    assert GAME in [g["name"] for g in httpx.get(live.url + "/api/games", timeout=10).json()]
    assert httpx.get(live.url + "/api/pages", timeout=10).json()[GAME]["page"] is False  # no page of its own

    ctx = browser.new_context()
    page = ctx.new_page()
    errors: list[str] = []
    scripts: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    page.goto(live.url + "/")
    assert page.locator(f"#game option[value='{GAME}']").inner_text().strip() == "Three cards"
    page.fill("#name", "Tess")
    page.select_option("#game", GAME)
    page.wait_for_selector("#seat-1-kind")
    assert page.locator("#seat-1-kind").input_value() == "bot"  # the other seat goes to a bot
    assert page.locator("[data-option='ante']").count() == 1  # the toy's option, from its dataclass
    page.wait_for_selector("#create:enabled")
    page.click("#create")
    page.wait_for_url(lambda url: "/t/" in url)

    page.wait_for_function("() => document.getElementById('status').textContent === 'Your turn.'", timeout=30_000)
    assert page.locator("#moves button.move").all_inner_texts() == ["pass", "bet 1"]
    assert page.locator("text=Your view").count() == 1
    assert page.locator("th", has_text="your card").count() == 1
    page.screenshot(path=str(shots / f"{GAME}-generic-page.png"), full_page=True)
    assert any(url.endswith("/static/games/generic.js") for url in scripts)

    deadline = time.monotonic() + 60
    clicks = 0
    while True:
        assert time.monotonic() < deadline, f"not over after {clicks} moves"
        status = page.evaluate("() => document.getElementById('status').textContent")
        if status == "The game is over.":
            break
        moves = page.locator("#moves button.move")
        if status == "Your turn." and moves.count():
            logged = page.evaluate(f"() => {LAST_ENTRY}")
            moves.last.click()  # bet, then call: the game goes to a showdown or the bot folds
            clicks += 1
            page.wait_for_function(
                f"() => {LAST_ENTRY} > {logged}"
                " || !document.getElementById('status').textContent.startsWith('Your turn')",
                timeout=15_000)
        else:
            page.wait_for_timeout(50)
    assert 1 <= clicks <= 2
    assert page.locator("text=Download record").count() == 1
    page.screenshot(path=str(shots / f"{GAME}-game-over.png"), full_page=True)
    assert not errors, errors
    ctx.close()
