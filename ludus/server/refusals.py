"""A rule's refusal in the reader's language, for the clients that show the server's words.

The protocol's ``illegal`` error carries the refusal language-neutrally (``reason``: code and
params) and a ``message`` for people. The server writes that message in the language of the
connection (the browser's cookie or Accept-Language, sent with the WebSocket's handshake), with
the same translation the terminal uses: the game's terminal adapter's ``describe_refusal``
(docs/i18n.md). English, a game without an adapter, or a code the adapter does not know: the
English reason, as before.
"""

from __future__ import annotations

import logging
from typing import Any

from ..core.errors import IllegalAction
from ..core.terminal import TerminalAdapter
from ..games import plugins
from ..i18n import DEFAULT_LANGUAGE, use_language

__all__ = ["refusal_text"]

log = logging.getLogger("ludus.server")
_GENERIC = TerminalAdapter()


def _adapter(game: str) -> TerminalAdapter:
    plugin = plugins().get(game)
    try:
        adapter = plugin.load("terminal") if plugin is not None else None
    except Exception:  # a broken adapter must not break play: the generic words serve
        log.exception("terminal adapter of %s failed to load", game)
        adapter = None
    return adapter if isinstance(adapter, TerminalAdapter) else _GENERIC


def refusal_text(game: str, english: str, reason: dict[str, Any] | None, lang: str) -> str:
    """The refusal ``reason`` of ``game`` said in ``lang``; ``english`` when it cannot be."""
    if lang == DEFAULT_LANGUAGE or not reason or not reason.get("code"):
        return english
    error = IllegalAction(english, code=str(reason["code"]), params=reason.get("params") or {})
    try:
        with use_language(lang):
            return _adapter(game).describe_refusal(error) or english
    except Exception:  # params the adapter did not expect: the English reason, never a traceback
        log.exception("refusal %s of %s could not be said in %s", reason.get("code"), game, lang)
        return english
