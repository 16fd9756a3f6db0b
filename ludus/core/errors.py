"""Errors raised by the engine; every one carries a message a player can read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["DataError", "IllegalAction", "InvalidOptions", "LudusError", "RecordError", "Refusal"]


class LudusError(Exception):
    """Base class of every error the project raises on purpose."""


class Refusal(str):
    """A reason a move is refused: the English sentence (it *is* that string, so every caller that
    reads reasons as text keeps working), plus a language-neutral ``code`` and ``params`` from
    which a client writes the reason in its reader's language (docs/i18n.md).

    ``params`` hold codes and numbers only (a card's code, a school's code, a rank), never words:
    a refusal sent to a client or kept in a log reads the same in every language.
    """

    code: str
    params: dict[str, Any]

    def __new__(cls, text: str, code: str, params: Mapping[str, Any] | None = None) -> Refusal:
        self = super().__new__(cls, text)
        self.code = code
        self.params = dict(params or {})
        return self

    def __reduce__(self) -> Any:  # a str subclass pickles by its text only; keep the code too
        return (Refusal, (str(self), self.code, self.params))


class IllegalAction(LudusError):
    """An action that the rules do not allow now; the state is left unchanged.

    ``str()`` is the English reason. ``code`` and ``params`` say the same language-neutrally when
    the rules give them (a :class:`Refusal` as the message, or given here), else ``code`` is None.
    """

    def __init__(self, message: object = "", *args: object, code: str | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(message, *args)
        if code is None and isinstance(message, Refusal):
            code, params = message.code, message.params
        self.code = code
        self.params: dict[str, Any] = dict(params or {})


class InvalidOptions(LudusError):
    """Game options that do not describe a playable game."""


class RecordError(LudusError):
    """A game record or position that cannot be read or replayed."""


class DataError(LudusError):
    """A card-data file (shipped or user-supplied) that is malformed."""
