"""The game registry: every game comes from a GamePlugin; a broken or clashing one is skipped, never fatal."""

from __future__ import annotations

import logging
import sys
import types

import pytest

import ludus.games as registry
from ludus.core.plugin import GamePlugin, PluginError, SearchBudget, resolve
from ludus.games import UnknownGame, game_names, get_game, get_plugin, reload_plugins

SHIPPED = ["gorus-maximus", "gladius", "circus-maximus", "gorus-arena"]


def test_the_shipped_games_are_found_in_their_order_with_every_part_loadable():
    assert game_names()[:4] == SHIPPED
    for name in SHIPPED:
        plugin = get_plugin(name)
        assert get_game(name).name == name
        for part in ("heuristic", "analysis", "interop", "page_data", "terminal"):
            assert plugin.load(part) is not None, (name, part)
        assert "export default" in plugin.page_script_text()
        assert set(plugin.search) == {"easy", "medium", "hard"}


@pytest.mark.parametrize("kwargs, problem", [
    ({"name": "Bad Name"}, "lower-case"),
    ({"name": ""}, "lower-case"),
    ({"page_script": "../x.js"}, "page_script"),
    ({"page_script": "page.html"}, "page_script"),
    ({"search": {"hard": 300}}, "SearchBudget"),
])
def test_a_malformed_declaration_is_refused(kwargs, problem):
    args = {"name": "toy", "package": "toy", "game": ".game:GAME", **kwargs}
    with pytest.raises(PluginError, match=problem):
        GamePlugin(**args)


def test_references_resolve_or_explain():
    assert resolve("ludus.core.plugin:SearchBudget") is SearchBudget
    assert resolve(".plugin:GamePlugin", "ludus.core") is GamePlugin
    for ref, problem in [("no-colon", "not a 'module:attribute'"), ("ludus.nowhere:X", "cannot import"),
                         ("ludus.core.plugin:Nothing", "has no attribute")]:
        with pytest.raises(PluginError, match=problem):
            resolve(ref)
    plugin = GamePlugin(name="toy", package="ludus.core", game=".plugin:Nothing", heuristic=None)
    assert plugin.load("heuristic") is None
    with pytest.raises(PluginError, match="game 'toy': its game cannot be loaded"):
        plugin.load("game")
    with pytest.raises(PluginError, match="no part"):
        plugin.load("secret")


@pytest.fixture
def fake_installed(monkeypatch):
    """Pretend these objects were found through the ``ludus.games`` entry point group."""
    def install(*found):
        monkeypatch.setattr(registry, "_installed", lambda: list(found))
        reload_plugins()
    yield install
    monkeypatch.undo()
    reload_plugins()


def test_an_installed_game_is_listed_after_the_shipped_ones_and_loads(fake_installed, monkeypatch):
    module = types.ModuleType("toy_game_for_test")
    module.GAME = get_game("gladius")  # any Game; its name is checked below
    monkeypatch.setitem(sys.modules, "toy_game_for_test", module)
    fake_installed(GamePlugin(name="toy", package="toy_game_for_test", game="toy_game_for_test:GAME", order=200))
    assert game_names() == [*SHIPPED, "toy"]
    with pytest.raises(UnknownGame, match="not a Game named 'toy'"):
        get_game("toy")  # the plugin named a Game whose name differs


def test_clashing_and_non_plugin_entries_are_skipped_with_a_log(fake_installed, caplog):
    clash = GamePlugin(name="gladius", package="someone_else", game="someone_else:GAME")
    with caplog.at_level(logging.ERROR, logger="ludus.games"):
        fake_installed(clash, "not a plugin")
        assert game_names() == SHIPPED
        assert get_plugin("gladius").package == "ludus.games.gladius"
    assert "clashes" in caplog.text and "is not a GamePlugin" in caplog.text


def test_an_entry_point_that_fails_to_load_is_skipped(monkeypatch, caplog):
    class BrokenEntryPoint:
        name, value = "broken", "broken_pkg:PLUGIN"

        def load(self):
            raise ImportError("no module named broken_pkg")

    monkeypatch.setattr(registry, "entry_points", lambda group: [BrokenEntryPoint()])
    reload_plugins()
    try:
        with caplog.at_level(logging.ERROR, logger="ludus.games"):
            assert game_names() == SHIPPED
        assert "could not be loaded" in caplog.text
    finally:
        monkeypatch.undo()
        reload_plugins()


def test_unknown_games_are_named_with_the_known_ones():
    with pytest.raises(UnknownGame, match="known games: gorus-maximus, gladius"):
        get_plugin("chess")


def test_an_entry_point_named_unlike_its_game_is_listed_under_the_game_name_with_a_warning(monkeypatch, caplog):
    class EntryPoint:
        name, value = "old-name", "toy:PLUGIN"

        def load(self):
            return GamePlugin(name="new-name", package="toy", game="toy:GAME", order=300)

    monkeypatch.setattr(registry, "entry_points", lambda group: [EntryPoint()])
    reload_plugins()
    try:
        with caplog.at_level(logging.WARNING, logger="ludus.games"):
            assert game_names() == [*SHIPPED, "new-name"]
        assert "entry point 'old-name' names game 'new-name'" in caplog.text
    finally:
        monkeypatch.undo()
        reload_plugins()


def test_rated_play_declarations_are_checked_and_find_the_pool_of_a_player_count():
    from ludus.core.plugin import RatedPlay, RatingPool

    rated = RatedPlay((RatingPool("duel", "2 players", 2, 2), RatingPool("table", "3 to 5 players", 3, 5)))
    assert [rated.pool_for(n) and rated.pool_for(n).key for n in range(1, 7)] == [None, "duel", "table", "table",
                                                                                  "table", None]
    for pools in ((), (RatingPool("a", "", 2, 3), RatingPool("b", "", 3, 4)), (RatingPool("Solo", "", 1, 1),),
                  (RatingPool("a", "", 2, 2), RatingPool("a", "", 3, 3))):
        with pytest.raises(PluginError):
            RatedPlay(pools)
    with pytest.raises(PluginError, match="RatedPlay"):
        GamePlugin(name="x", package="x", game="x:y", rated="duel")  # type: ignore[arg-type]
