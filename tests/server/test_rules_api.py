"""The rules endpoint: each game's how-to-play text as safe HTML, and its options explained for the
values a lobby form or a table has set (``/api/games/{name}/rules``, ``ludus.server.rules``)."""

from __future__ import annotations

import re

import pytest

from ludus.games import game_names, get_game, how_to_play
from ludus.server.rules import render_markdown, safe_link, shown_value

SHIPPED = ["gorus-maximus", "gladius", "circus-maximus", "gorus-arena"]


# ------------------------------------------------------------------ the renderer
def test_raw_html_in_the_markdown_is_shown_as_text_never_as_markup():
    html = render_markdown('Hi <script>alert(1)</script> <img src=x onerror="alert(2)"> <b>bold</b>\n\n'
                           "<div onclick='x()'>block</div>\n")
    assert "<script" not in html and "<img" not in html and "<b>" not in html and "<div" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;div onclick" in html


@pytest.mark.parametrize("url, ok", [
    ("https://example.org/a", True), ("http://example.org", True), ("/learn/gladius", True), ("#options", True),
    ("rules.html", True), ("javascript:alert(1)", False), ("JavaScript:alert(1)", False),
    ("data:text/html,<b>x</b>", False), ("vbscript:x", False), ("file:///etc/passwd", False),
    ("//evil.example/x", False), ("mailto:a@b.c", False),
])
def test_links_are_web_or_local_only(url, ok):
    assert safe_link(url) is ok
    html = render_markdown(f"[go]({url}) and ![pic]({url})")
    assert ("<a " in html) is ok and ("<img" in html) is ok  # a refused link stays as its Markdown text


def test_links_to_other_sites_carry_noopener():
    assert 'rel="noopener noreferrer"' in render_markdown("[site](https://example.org)")


def test_the_panel_drops_the_title_and_puts_sections_under_the_panels_heading():
    html = render_markdown("# Game: how to play\n\nIntro\n\n## In one minute\n\n### Detail\n", panel=True)
    assert "<h1" not in html and "Game: how to play" not in html
    assert "<h3>In one minute</h3>" in html and "<h4>Detail</h4>" in html and "<p>Intro</p>" in html
    plain = render_markdown("# Title\n\n## Part\n")
    assert "<h1>Title</h1>" in plain and "<h2>Part</h2>" in plain


def test_tables_render_with_alignment():
    html = render_markdown("| a | b |\n|:--|--:|\n| 1 | 2 |\n")
    assert "<table>" in html and "<td" in html and "text-align:right" in html


def test_values_read_as_a_player_reads_them():
    infos = {i.name: i for i in get_game("gorus-maximus").describe_options()}
    assert shown_value(infos["memory_aids"], True) == "on" and shown_value(infos["memory_aids"], False) == "off"
    assert shown_value(infos["teams"], "") == "none"
    assert shown_value(infos["teams"], "2v2") == "2 v 2: two teams of two"  # the suggestion's own words
    assert shown_value(infos["teams"], "ABAB") == "ABAB"
    assert shown_value(infos["players"], 5) == "5"


# ------------------------------------------------------------------ the endpoint
@pytest.mark.parametrize("name", [g for g in SHIPPED if g in game_names()])
def test_each_game_serves_its_own_text_as_html_with_its_sections(player, name):
    r = player.get(f"/api/games/{name}/rules")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["game"] == name and body["title"] == get_game(name).title
    headings = re.findall(r"^## (.+?)\s*$", how_to_play(name), re.M)
    assert re.findall(r"<h3>(.+?)</h3>", body["html"]) == headings
    assert "<script" not in body["html"]
    lobby = next(g for g in player.get("/api/games").json() if g["name"] == name)["options"]
    assert [o["name"] for o in body["options"]] == [o["name"] for o in lobby]  # host-file options left out
    assert not any(o["changed"] for o in body["options"])
    for o in body["options"]:
        assert o["value"] == o["default"] and o["shown"] == o["default_shown"] and o["help"]
        assert o["label"] == o["name"].replace("_", "-")


def test_options_are_explained_for_the_chosen_values(player):
    r = player.post("/api/games/gorus-maximus/rules",
                    {"options": {"players": 4, "teams": "2v2", "memory-aids": "true", "final_tie": "play-on"}})
    assert r.status_code == 200, r.text
    opts = {o["name"]: o for o in r.json()["options"]}
    assert opts["players"]["changed"] is False and opts["players"]["shown"] == "4"
    assert opts["teams"] == {**opts["teams"], "value": "2v2", "shown": "2 v 2: two teams of two", "default": "",
                             "default_shown": "none", "changed": True}
    assert opts["memory_aids"]["value"] is True and opts["memory_aids"]["shown"] == "on"
    assert opts["memory_aids"]["default_shown"] == "off" and opts["memory_aids"]["changed"] is True
    assert opts["final_tie"]["shown"] == "play-on" and opts["final_tie"]["changed"] is True
    assert {n for n, o in opts.items() if o["changed"]} == {"teams", "memory_aids", "final_tie"}


def test_a_tables_own_options_are_explained(player):
    r = player.post("/api/tables", {"game": "gladius", "options": {"hit_points": 7, "solo": False},
                                    "seats": [{"kind": "bot", "bot": "random"}] * 2, "name": None})
    assert r.status_code == 201, r.text
    table = player.get(f"/api/tables/{r.json()['code']}").json()
    r = player.post("/api/games/gladius/rules", {"options": table["options"]})  # what the table page sends
    assert r.status_code == 200, r.text
    opts = {o["name"]: o for o in r.json()["options"]}
    assert opts["hit_points"]["value"] == 7 and opts["hit_points"]["changed"] is True
    assert [n for n, o in opts.items() if o["changed"]] == ["hit_points"]


def test_unknown_game_is_a_404_in_the_error_shape(player):
    for r in (player.get("/api/games/no-such-game/rules"),
              player.post("/api/games/no-such-game/rules", {"options": {}})):
        assert r.status_code == 404
        assert r.json()["code"] == "no_game" and "no-such-game" in r.json()["error"]


@pytest.mark.parametrize("options, words", [
    ({"players": 9}, "1 to 8 players"),
    ({"colour": "red"}, "unknown option"),
    ({"memory_aids": "maybe"}, "true or false"),
    ({"cf_table": "/etc/passwd"}, "names a file"),
])
def test_bad_options_get_the_same_400_as_the_options_check(player, options, words):
    r = player.post("/api/games/gorus-maximus/rules", {"options": options})
    check = player.post("/api/games/gorus-maximus/options", {"options": options})
    assert r.status_code == check.status_code == 400
    assert r.json() == check.json() and r.json()["code"] == "bad_options" and words in r.json()["error"]


def test_a_body_that_is_not_an_options_object_is_refused(player):
    assert player.post("/api/games/gladius/rules", {"options": [1, 2]}).status_code == 422
    assert player.post("/api/games/gladius/rules", {"options": {}, "extra": 1}).status_code == 422


# ------------------------------------------------------------------ values the rulebook does not print
def test_the_rules_carry_the_unprinted_values_for_the_chosen_options(player, monkeypatch):
    from ludus.core.provenance import EXAMPLE, OURS, PRINTED, SOURCE_TEXT, DataValue

    game = get_game("gladius")
    asked: list[object] = []

    def data_values(options=None):
        asked.append(options)
        return [DataValue("Hit points of a Murmillo", str(options.hit_points), EXAMPLE, "from the example"),
                DataValue("Deck size", "52", OURS, "ours"), DataValue("Printed one", "1", PRINTED)]

    monkeypatch.setattr(game, "data_values", data_values)
    r = player.post("/api/games/gladius/rules", {"options": {"hit_points": 7}})
    assert r.status_code == 200, r.text
    assert r.json()["data_values"] == [
        {"subject": "Hit points of a Murmillo", "value": "7", "source": "example", "note": "from the example",
         "source_text": SOURCE_TEXT[EXAMPLE]},
        {"subject": "Deck size", "value": "52", "source": "ours", "note": "ours", "source_text": SOURCE_TEXT[OURS]},
    ]  # for the options asked about; printed values left out
    assert asked[-1].hit_points == 7
    monkeypatch.setattr(game, "data_values", lambda options=None: [])
    assert player.get("/api/games/gladius/rules").json()["data_values"] == []


@pytest.mark.parametrize("name", [g for g in SHIPPED if g in game_names()])
def test_each_games_unprinted_values_are_served(player, name):
    body = player.get(f"/api/games/{name}/rules").json()
    game = get_game(name)
    expected = [v for v in game.data_values(game.parse_options({})) if v.provisional]
    assert [v["subject"] for v in body["data_values"]] == [v.subject for v in expected]
    assert all(v["source"] in ("example", "ours") and v["source_text"] for v in body["data_values"])
