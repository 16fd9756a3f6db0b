"""The terminal adapter of each game, as its plugin names it (``terminal.py`` in its package)."""

from __future__ import annotations

import logging

from ..core.plugin import PluginError
from ..core.terminal import TerminalAdapter
from ..games import plugins

__all__ = ["get_adapter"]

log = logging.getLogger("ludus.cli")
_GENERIC = TerminalAdapter()


def get_adapter(game_name: str) -> TerminalAdapter:
    """The game's own adapter, or the generic one (JSON views, every legal move offered)."""
    plugin = plugins().get(game_name)
    if plugin is None:
        return _GENERIC
    try:
        adapter = plugin.load("terminal")
    except PluginError:
        log.exception("terminal adapter of %s failed to load; using the generic one", game_name)
        return _GENERIC
    if adapter is None:
        return _GENERIC
    if not isinstance(adapter, TerminalAdapter):
        log.error("terminal adapter of %s is not a TerminalAdapter; using the generic one", game_name)
        return _GENERIC
    return adapter
