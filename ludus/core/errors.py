"""Errors raised by the engine; every one carries a message a player can read."""

from __future__ import annotations

__all__ = ["DataError", "IllegalAction", "InvalidOptions", "LudusError", "RecordError"]


class LudusError(Exception):
    """Base class of every error the project raises on purpose."""


class IllegalAction(LudusError):
    """An action that the rules do not allow now; the state is left unchanged."""


class InvalidOptions(LudusError):
    """Game options that do not describe a playable game."""


class RecordError(LudusError):
    """A game record or position that cannot be read or replayed."""


class DataError(LudusError):
    """A card-data file (shipped or user-supplied) that is malformed."""
