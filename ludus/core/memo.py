"""Tables derived from an immutable object, built once per object."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")
_DERIVED: dict[tuple[int, Callable[[Any], Any]], tuple[Any, Any]] = {}


def derived(source: Any, build: Callable[[Any], _T]) -> _T:
    """``build(source)``, made once per ``source`` object and kept for the next call.

    Agents and views ask for lookup tables derived from card data or a game setup on every
    decision or observation; keying them by the object's identity (the cache holds the object,
    so its id cannot be reused) skips hashing, or comparing, the whole source.
    """
    key = (id(source), build)
    hit = _DERIVED.get(key)
    if hit is None:
        if len(_DERIVED) > 128:
            _DERIVED.clear()
        hit = _DERIVED[key] = (source, build(source))
    return hit[1]
