"""The registry of games: every game is a plugin (see :mod:`ludus.core.plugin`).

Games shipped with Ludus are the subpackages of this package, each exporting ``PLUGIN`` from
its ``__init__``; games from other distributions name their ``GamePlugin`` in the
``ludus.games`` entry point group. Nothing here knows any game by name, so adding one is
adding a folder (or installing a package).
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from functools import cache
from typing import TYPE_CHECKING, Any

from ..core.encoding import HashedEncoder, ObservationEncoder
from ..core.errors import LudusError
from ..core.game import Game
from ..core.plugin import ENTRY_POINT_GROUP, GamePlugin, InteropSpec, PluginError

__all__ = [
    "UnknownGame", "game_names", "get_game", "get_plugin", "how_to_play", "observation_encoder", "plugins",
    "reload_plugins", "translated_how_to_play", "tutorial",
]

if TYPE_CHECKING:
    from ..core.tutorial import Tutorial

log = logging.getLogger("ludus.games")


class UnknownGame(LudusError):
    pass


def _builtin() -> list[GamePlugin]:
    found = []
    for info in pkgutil.iter_modules(__path__, prefix=f"{__name__}."):
        if not info.ispkg:
            continue
        try:
            plugin = importlib.import_module(info.name).PLUGIN
        except Exception:  # one broken game must not take the others down
            log.exception("game package %s has no usable PLUGIN; skipped", info.name)
            continue
        if not isinstance(plugin, GamePlugin):
            log.error("%s.PLUGIN is not a GamePlugin; skipped", info.name)
            continue
        found.append(plugin)
    return found


def entry_points(group: str) -> Any:
    """The installed entry points of ``group`` (importlib.metadata is imported only when asked)."""
    from importlib.metadata import entry_points as installed

    return installed(group=group)


def _installed() -> list[GamePlugin]:
    found = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            plugin = ep.load()
        except Exception:
            log.exception("game plugin %r (%s) could not be loaded; skipped", ep.name, ep.value)
            continue
        if isinstance(plugin, GamePlugin) and plugin.name != ep.name:
            log.warning("entry point %r names game %r; the game is listed as %r", ep.name, plugin.name, plugin.name)
        found.append(plugin)
    return found


@cache
def _shipped() -> dict[str, GamePlugin]:
    return {p.name: p for p in _builtin()}


@cache
def plugins() -> dict[str, GamePlugin]:
    """Every game found, by name, in list order. Shipped games win a name clash."""
    out: dict[str, GamePlugin] = {}
    for plugin in list(_shipped().values()) + _installed():
        if not isinstance(plugin, GamePlugin):
            log.error("%r is not a GamePlugin; skipped", plugin)
            continue
        if plugin.name in out:
            if out[plugin.name].package != plugin.package:
                log.error("game %r from %s clashes with %s; skipped", plugin.name, plugin.package,
                          out[plugin.name].package)
            continue
        out[plugin.name] = plugin
    return dict(sorted(out.items(), key=lambda item: (item[1].order, item[0])))


def reload_plugins() -> None:
    """Look for games again (after installing one in a running process, e.g. in tests)."""
    importlib.invalidate_caches()  # so importlib.metadata sees a distribution installed since start-up
    _shipped.cache_clear()
    plugins.cache_clear()
    _game.cache_clear()
    tutorial.cache_clear()


def game_names() -> list[str]:
    """Names of the installed games, in list order."""
    return list(plugins())


def get_plugin(name: str) -> GamePlugin:
    # a shipped game is found without reading the installed distributions' metadata (faster start-up)
    plugin = _shipped().get(name) or plugins().get(name)
    if plugin is None:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(game_names())}")
    return plugin


@cache
def _game(name: str) -> Game:
    plugin = get_plugin(name)
    try:
        game = plugin.load("game")
    except PluginError as exc:
        raise UnknownGame(f"game {name!r} cannot be loaded ({exc})") from exc
    if not isinstance(game, Game) or game.name != name:
        raise UnknownGame(f"game {name!r}: its plugin's 'game' is not a Game named {name!r}")
    return game


def get_game(name: str) -> Game:
    return _game(name)


def _shipped_text(name: str, part: str, what: str) -> tuple[GamePlugin, str]:
    """A text file the game's plugin names (``part``: "how_to_play" or "tutorial"), read from its package."""
    plugin = get_plugin(name)
    try:
        text = plugin.how_to_play_text() if part == "how_to_play" else plugin.tutorial_text()
    except PluginError as exc:
        raise UnknownGame(f"the {what} of {name!r} cannot be read ({exc})") from exc
    if text is None:
        raise UnknownGame(f"game {name!r} has no {what} (its plugin names no {part} file)")
    return plugin, text


def how_to_play(name: str) -> str:
    """The game's rules for players (Markdown), as its package ships them."""
    return _shipped_text(name, "how_to_play", "rules text")[1]


def translated_how_to_play(name: str, lang: str) -> str | None:
    """The game's rules for players in ``lang`` (Markdown), when its package ships a translation
    (``how-to-play.<lang>.md``, with its own section of the values the rulebook does not print);
    None otherwise (English, or no translation yet)."""
    return get_plugin(name).translated_how_to_play_text(lang)


@cache
def tutorial(name: str) -> Tutorial:
    """The game's guided first game, checked against its rules (the script is played once here)."""
    from ..core.tutorial import load_tutorial

    plugin, text = _shipped_text(name, "tutorial", "tutorial")
    return load_tutorial(get_game(name), text, f"{plugin.package}:{plugin.tutorial}")


def observation_encoder(game: Game, options: Any) -> ObservationEncoder:
    """The game's exact observation encoder for ``options`` if it has one, else the generic
    hashed one: what the learning bridges feed a learner, and what a trained policy reads back.
    Raises PluginError when the plugin's interop part is broken."""
    own = getattr(game, "observation_encoder", None)
    if callable(own):
        encoder: ObservationEncoder = own(options)
        return encoder
    try:
        spec = get_plugin(game.name).load("interop")
    except UnknownGame:  # a Game made outside the registry (tests, notebooks)
        spec = None
    if spec is not None and not isinstance(spec, InteropSpec):
        raise PluginError(f"{game.title}: its plugin's interop part is not an InteropSpec")
    if spec is None or spec.encoder is None:
        return HashedEncoder()
    encoder = spec.encoder(options)
    return encoder
