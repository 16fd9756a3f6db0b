"""Errors raised by the engine; every one carries a message a player can read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["DataError", "IllegalAction", "InvalidOptions", "LudusError", "Message", "RecordError", "Refusal"]


class Message(str):
    """An English sentence made from a ``template`` (a gettext msgid, marked ``N_()`` where it is
    written) and its ``params``: it *is* the English text, so every caller that reads it as text
    keeps working, and a client can write it in its reader's language from the template
    (``_(message.template, **message.params)``, docs/i18n.md). Params are codes, numbers and
    text typed by a person (shown as typed), never English words."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Message:
        self = super().__new__(cls, template.format(**params))
        self.template = template
        self.params = params
        return self

    def __reduce__(self) -> Any:  # pickles as the template and its params, like Refusal
        return (_message, (self.template, self.params))


def _message(template: str, params: dict[str, Any]) -> Message:
    return Message(template, **params)


class LudusError(Exception):
    """Base class of every error the project raises on purpose.

    Raised with a :class:`Message`, it keeps the message's ``template`` and ``params``
    (``message_template``, ``message_params``) for a client that writes errors in its reader's
    language; ``str()`` is always the English sentence."""

    message_template: str | None
    message_params: dict[str, Any]

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        first = args[0] if args else None
        self.message_template = first.template if isinstance(first, Message) else None
        self.message_params = dict(first.params) if isinstance(first, Message) else {}


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
