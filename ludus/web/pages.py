"""What the lobby and table pages learn about each game: whether it has its own page
script and stylesheet, and the data the script needs. All come from the game's plugin
(``page.js``, ``page.css`` and ``page.py`` in its package); a game without a script gets the
generic page.
"""

from __future__ import annotations

import logging
from typing import Any

from ..games import plugins

__all__ = ["page_file", "pages"]

log = logging.getLogger("ludus.web")


def page_file(name: str, kind: str) -> str | None:
    """A game's page ``"script"`` or ``"style"``, or None if the game is unknown or has none."""
    plugin = plugins().get(name)
    if plugin is None:
        return None
    try:
        return plugin.page_script_text() if kind == "script" else plugin.page_style_text()
    except Exception:  # a broken page must not take the server down; the generic page serves
        log.exception("page %s of %s failed to load", kind, name)
        return None


def pages() -> dict[str, dict[str, Any]]:
    """For every installed game: whether it has its own page, that page's data, and whether it
    has a guided first game (``tutorial``)."""
    out = {}
    for name, plugin in plugins().items():
        try:
            data_fn = plugin.load("page_data")
            data = data_fn() if data_fn else {}
        except Exception:  # a game still being changed must not take the lobby down
            log.exception("page data for %s failed; its page falls back to the generic one", name)
            out[name] = {"page": False, "data": {}, "tutorial": plugin.tutorial is not None}
            continue
        out[name] = {"page": plugin.page_script is not None, "style": plugin.page_style is not None, "data": data,
                     "tutorial": plugin.tutorial is not None}  # the lobby links to /learn/<name> only then
    return out
