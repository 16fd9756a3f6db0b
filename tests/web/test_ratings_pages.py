"""Ratings in a browser: the leaderboard (/ratings), a player's page with its chart and history
(/players/NAME, /bots/KIND), "Your ratings" on the account page, the lobby's Rated switch, the
table page's Rated tag, and an anonymous player refused a seat at a rated table.

A module-wide server has two accounts play rated Gladius through the HTTP API and the WebSocket
(random legal moves): Livia twice against the beginner bot, once against Marcus. Screenshots at
desktop and phone width go to artifacts/screenshots/ratings-*.png, player-*.png and rated-*.png."""

from __future__ import annotations

import json
import random
import time

import httpx
import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from .browsing import PHONE
from .conftest import ServerProcess

DESKTOP = {"width": 1280, "height": 800}
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
PASSWORD = "a long enough secret"
BOT = {"kind": "bot", "bot": "random"}


def _width_name(viewport) -> str:
    return "desktop" if viewport["width"] >= 1000 else "phone"


def _fits(page, width) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width


class Seat:
    """One seat's WebSocket, answering every turn with a random legal move."""

    def __init__(self, server: ServerProcess, client: httpx.Client, code: str, seed: int) -> None:
        cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
        self.conn = connect(f"ws://127.0.0.1:{server.port}/ws/tables/{code}", additional_headers={"Cookie": cookie},
                            open_timeout=10, max_size=2**22, legacy=True)
        self.view: dict | None = None
        self.acted = -1
        self.rng = random.Random(seed)

    def step(self) -> None:
        """Read what has come (briefly), then move if it is this seat's turn."""
        try:
            msg = json.loads(self.conn.recv(timeout=0.05))
        except TimeoutError:
            msg = None
        if msg and msg["type"] == "view":
            self.view = msg
        elif msg and msg["type"] == "error" and msg.get("code") == "rate_limited":
            time.sleep(0.2)
            self.acted = -1
        view = self.view
        if view and view["legal"] and not view["terminal"] and view["moves"] != self.acted:
            self.acted = view["moves"]
            move = self.rng.choice(view["legal"])
            self.conn.send(json.dumps({"type": "act", "action": move["action"], "moves": view["moves"],
                                       "id": self.acted}))

    @property
    def over(self) -> bool:
        return bool(self.view and self.view["terminal"])


def play(server: ServerProcess, code: str, clients: list[httpx.Client]) -> None:
    seats = [Seat(server, client, code, seed) for seed, client in enumerate(clients)]
    deadline = time.time() + 120
    try:
        while not all(s.over for s in seats):
            assert time.time() < deadline, "the rated game did not finish"
            for s in seats:
                s.step()
    finally:
        for s in seats:
            s.conn.close()


def account(server: ServerProcess, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=20)
    r = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return client


def rated_table(client: httpx.Client, seats: list[dict]) -> str:
    r = client.post("/api/tables", json={"game": "gladius", "options": {}, "seats": seats, "name": "ignored",
                                         "rated": True, "hints": False})
    assert r.status_code == 201, r.text
    table = r.json()
    assert table["rated"] is True and table["pool"] == "duel" and table["pool_label"] == "2 players", table
    return table["code"]


def play_rated_duel(server: ServerProcess, name: str) -> tuple[httpx.Client, str]:
    """A new account that plays one rated duel against the beginner bot; (its client, the table code)."""
    client = account(server, name)
    code = rated_table(client, [{"kind": "human"}, BOT])
    play(server, code, [client])
    deadline = time.time() + 20
    while not client.get(f"/api/players/{name}").json()["ratings"]:  # written once the game's end is stored
        assert time.time() < deadline, "no rating after the rated game"
        time.sleep(0.2)
    return client, code


@pytest.fixture(scope="module")
def rated(tmp_path_factory):
    """A server where Livia has played three rated duels (two against the bot, one against Marcus)."""
    server = ServerProcess(tmp_path_factory.mktemp("ratings") / "web.db")
    livia, marcus = account(server, "Livia"), account(server, "Marcus")
    codes = []
    try:
        for _ in range(2):
            code = rated_table(livia, [{"kind": "human"}, BOT])
            play(server, code, [livia])
            codes.append(code)
        code = rated_table(livia, [{"kind": "human"}, {"kind": "human"}])
        r = marcus.post(f"/api/tables/{code}/join", json={"name": "ignored", "seat": 1})
        assert r.status_code == 200, r.text
        play(server, code, [livia, marcus])
        codes.append(code)
        deadline = time.time() + 20
        while True:  # the ratings are written once each game's end is stored
            board = httpx.get(f"{server.url}/api/ratings/gladius").json()
            games = {p["name"]: p["games"] for pool in board["pools"] for p in pool["players"]}
            if games.get("Livia") == 3 and games.get("Marcus") == 1:
                break
            assert time.time() < deadline, board
            time.sleep(0.2)
        yield server, codes, board
    finally:
        livia.close()
        marcus.close()
        server.stop()


def _login(ctx, server: ServerProcess, name: str) -> None:
    r = ctx.request.post(f"{server.url}/api/account/login", data={"name": name, "password": PASSWORD})
    assert r.ok, r.text()


@pytest.mark.parametrize("viewport", SIZES)
def test_leaderboard_and_player_page(rated, browser, shots, viewport):
    server, codes, board = rated
    width = _width_name(viewport)
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    page.goto(server.url + "/")  # every page's header links to the leaderboards
    page.click("#ratings-link")
    page.wait_for_url("**/ratings")
    page.locator("#game-tabs a[data-game='gladius']").click()
    page.wait_for_url("**/ratings?game=gladius")
    expect(page.locator("#game-tabs a[data-game='gladius']")).to_have_attribute("aria-current", "page")
    pool = page.locator("#pools [data-pool='duel']")
    expect(pool.locator("h3")).to_have_text("Gladius: 2 players")
    entries = {p["name"]: p for p in board["pools"][0]["players"]}
    assert {"Livia", "Marcus"} <= set(entries)
    assert any(p["kind"] == "bot" for p in entries.values())
    for name, entry in entries.items():
        row = pool.locator("tbody tr", has=page.get_by_role("link", name=name, exact=True))
        expect(row).to_have_count(1)
        expect(row.locator(".rating-number")).to_have_text(f"{entry['rating']}? ± {entry['deviation']}")
        expect(row.locator(".badge.provisional")).to_have_text("provisional")  # fewer than 10 games each
        expect(row.locator(".games-count")).to_have_text(str(entry["games"]))
        expect(row.get_by_role("link", name=name, exact=True)).to_have_attribute("href", entry["href"])
    expect(pool.locator("tr.group")).to_contain_text("fewer than 10 rated games")
    expect(page.locator("#about-title")).to_be_visible()  # what the numbers mean
    _fits(page, viewport["width"])
    page.screenshot(path=str(shots / f"ratings-{width}.png"), full_page=True)
    page.goto(server.url + "/ratings?game=circus-maximus")  # a rated game nobody has played yet
    expect(page.locator("#pools .empty-pool").first).to_contain_text("Play one from the lobby")
    page.goto(server.url + "/ratings?game=no-such-game")
    expect(page.locator("#pools")).to_contain_text("no ratings")

    page.goto(server.url + "/ratings?game=gladius")
    page.locator("#pools").get_by_role("link", name="Livia", exact=True).click()
    page.wait_for_url("**/players/Livia")
    expect(page.locator("#player-name")).to_have_text("Livia")
    block = page.locator(".rating-block[data-game='gladius']")
    livia = entries["Livia"]
    expect(block.locator(".rating-now .rating-number")).to_have_text(f"{livia['rating']}? ± {livia['deviation']}")
    expect(block.locator(".rating-now")).to_contain_text("3 rated games")
    chart = block.locator("svg.rating-chart[role='img']")
    expect(chart).to_be_visible()
    assert "Rating history of Livia in Gladius" in chart.get_attribute("aria-label")
    assert chart.locator("path.line").count() == 1 and chart.locator("path.band").count() == 1
    assert chart.locator("circle.point").count() == 4  # the start and one point per game
    block.locator(".rating-history summary").click()
    rows = block.locator("table.history tbody tr")
    expect(rows).to_have_count(3)
    newest = rows.first
    expect(newest.get_by_role("link", name=f"Replay of table {codes[-1]}")).to_have_attribute(
        "href", f"/t/{codes[-1]}/replay")
    expect(newest).to_contain_text(" of 2")
    _fits(page, viewport["width"])
    page.screenshot(path=str(shots / f"player-{width}.png"), full_page=True)

    bot = next(p for p in entries.values() if p["kind"] == "bot")
    page.goto(server.url + bot["href"])
    expect(page.locator(".rating-block[data-game='gladius'] svg.rating-chart")).to_be_visible()
    expect(page.locator("#player-since")).to_contain_text("ratings are public")
    page.screenshot(path=str(shots / f"player-bot-{width}.png"), full_page=True)
    page.goto(server.url + "/players/Nobody")
    expect(page.locator("#notice")).to_contain_text("There is no player named “Nobody”")
    page.goto(server.url + "/bots/no-such-bot")
    expect(page.locator("#notice")).to_contain_text("There is no bot")

    _login(ctx, server, "Livia")  # the account page lists the account's own ratings
    page.goto(server.url + "/me")
    mine = page.locator("#your-ratings")
    expect(mine).to_be_visible()
    expect(mine.locator("tr[data-game='gladius'] .rating-number")).to_have_text(
        f"{livia['rating']}? ± {livia['deviation']}")
    expect(mine.locator("#public-page")).to_have_attribute("href", "/players/Livia")
    _fits(page, viewport["width"])
    page.screenshot(path=str(shots / f"ratings-account-{width}.png"), full_page=True)
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("viewport", SIZES)
def test_lobby_rated_switch_table_tag_and_anonymous_join(rated, browser, shots, viewport):
    server, _, _ = rated
    width = _width_name(viewport)
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_selector("#create:enabled")
    page.select_option("#game", "gladius")
    page.wait_for_selector("#create:enabled")
    expect(page.locator("#rated-row")).to_be_visible()  # logged out: the switch is there, but off
    expect(page.locator("#rated")).to_be_disabled()
    expect(page.locator("#rated-login")).to_be_visible()
    expect(page.locator("#rated-login a")).to_have_attribute("href", "/me")

    _login(ctx, server, "Marcus")
    page.reload()
    page.wait_for_selector("#create:enabled")
    page.select_option("#game", "gladius")
    page.wait_for_selector("#rated:enabled")
    page.click("#options summary")
    page.select_option("#opt-first", "fighter2")  # a changed option goes back to the standard one
    page.check("#hints")
    page.check("#rated")
    expect(page.locator("#rated-note")).to_contain_text("standard rules")
    expect(page.locator("#opt-first")).to_be_disabled()
    expect(page.locator("#opt-first")).to_have_value("auto")
    expect(page.locator("#opt-hit_points")).to_be_disabled()
    expect(page.locator("#hints")).to_be_disabled()
    expect(page.locator("#hints")).not_to_be_checked()
    page.select_option("#seat-1-kind", "human")  # an open seat, for the anonymous player below
    expect(page.locator("#seat-1-who")).to_contain_text("need an account")
    page.wait_for_selector("#create:enabled")
    _fits(page, viewport["width"])
    page.screenshot(path=str(shots / f"rated-lobby-{width}.png"), full_page=True)
    with page.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as sent:
        page.click("#create")
    body = json.loads(sent.value.post_data or "{}")
    assert body["rated"] is True and body["hints"] is False and body["options"] == {}, body
    page.wait_for_url("**/t/*")
    code = page.url.rstrip("/").split("/")[-1]
    expect(page.locator("#rated-tag")).to_have_text("Rated · 2 players")
    expect(page.locator("#rated-tag")).to_be_visible()
    _fits(page, viewport["width"])
    page.screenshot(path=str(shots / f"rated-table-{width}.png"), full_page=True)

    page.goto(server.url + "/")  # the lobby's list tags the table
    row = page.locator("#tables tr", has_text=code)
    expect(row.locator(".rated-tag")).to_have_text("Rated · 2 players")
    _fits(page, viewport["width"])
    page.locator("#tables").screenshot(path=str(shots / f"rated-lobby-list-{width}.png"))

    stranger = browser.new_context(viewport=viewport)
    anon = stranger.new_page()
    anon.goto(f"{server.url}/t/{code}")
    expect(anon.locator("#rated-tag")).to_have_text("Rated · 2 players")
    expect(anon.locator("#join-rated")).to_be_visible()
    anon.fill("#join-name", "Stranger")
    anon.click("#join-button")
    expect(anon.locator("#notice")).to_contain_text("account")
    expect(anon.locator("#account-needed-link")).to_have_attribute("href", "/me")
    expect(anon.locator("#join")).to_be_visible()  # not seated
    _fits(anon, viewport["width"])
    anon.screenshot(path=str(shots / f"rated-join-refused-{width}.png"), full_page=True)
    assert not errors, errors
    stranger.close()
    ctx.close()
