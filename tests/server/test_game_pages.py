"""Each game's page script is served from its own package, under its plugin's name only."""

from __future__ import annotations

import httpx
import pytest

from ludus.games import game_names, get_plugin
from ludus.server.config import ServerConfig
from ludus.web.app import create_web_app

from .helpers import LiveServer


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("pages") / "ludus.db"
    server = LiveServer(ServerConfig(database=f"sqlite:///{db}"), make_app=create_web_app)
    with httpx.Client(base_url=server.url, timeout=10) as http:
        yield http
    server.stop()


@pytest.mark.parametrize("part, file, flag, media", [("page_script", "page.js", "page", "text/javascript"),
                                                     ("page_style", "page.css", "style", "text/css")])
def test_every_game_serves_its_page_files_from_its_package(client, part, file, flag, media):
    pages = client.get("/api/pages").json()
    assert list(pages)[:4] == game_names()[:4]
    for name in game_names():
        plugin = get_plugin(name)
        r = client.get(f"/games/{name}/{file}")
        if getattr(plugin, part) is None:
            assert r.status_code == 404 and not pages[name][flag]
            continue
        assert pages[name][flag] is True
        assert r.status_code == 200
        assert r.headers["content-type"].startswith(media)
        text = plugin.page_script_text() if part == "page_script" else plugin.page_style_text()
        assert r.text == text


@pytest.mark.parametrize("path", ["/games/chess/page.js", "/games/..%2F..%2Fetc/page.js", "/games/gladius/page.py",
                                  "/games/gladius/game.py", "/games/gladius/data/cards.toml"])
def test_nothing_else_in_a_game_package_is_served(client, path):
    r = client.get(path)
    assert r.status_code == 404
    assert r.json()["code"] == "not_found"
