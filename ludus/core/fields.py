"""Reading fields of untrusted JSON (records, positions) with messages a person can act on.

Shared by the record reader and every game's position reader, so that a refused value is
named the same way everywhere and showing it can never fail itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import RecordError


def clip(text: str, limit: int = 300) -> str:
    """``text`` cut to ``limit`` characters, so a hostile file cannot flood the terminal."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show(value: Any, limit: int = 300) -> str:
    """``repr(value)`` for a message, cut short; never fails (a huge or deep value is named instead)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int past Python's conversion limit, or deep nesting
        text = f"<{type(value).__name__} too large to show>"
    return clip(text, limit)


def required(data: Mapping[str, Any], name: str) -> Any:
    """``data[name]``, or a RecordError saying the position lacks it."""
    if name not in data:
        raise RecordError(f"position has no field {name!r}")
    return data[name]


def whole_number(value: Any, what: str, lo: int, hi: int) -> int:
    """``value`` if it is an int (not a bool) from ``lo`` to ``hi`` inclusive; else a RecordError."""
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise RecordError(f"{what} must be a whole number from {lo} to {hi}, not {show(value, 40)}")
    return value


__all__ = ["clip", "required", "show", "whole_number"]
