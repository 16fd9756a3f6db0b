"""Bounded caches for values derived from immutable inputs.

Lookup tables are rebuilt cheaply but asked for on every decision or observation, so they
are kept; a long tournament over many option sets must not grow them without end, and a
cache that is emptied when full makes every table cold at once. Both helpers here evict
the oldest entries one at a time instead (``functools.lru_cache`` does the same for plain
functions and is used where it fits).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["BoundedMemo", "derived"]

_T = TypeVar("_T")
_K = TypeVar("_K")
_V = TypeVar("_V")


class BoundedMemo(dict[_K, _V], Generic[_K, _V]):
    """``memo[key]`` is ``make(key)``, made once and kept while at most ``maxsize`` are held.

    A hit is a plain dict lookup (no Python code runs); a miss makes the value and, when full,
    drops the oldest entry. Meant for hot paths where ``lru_cache``'s call overhead shows.
    """

    def __init__(self, make: Callable[[_K], _V], maxsize: int) -> None:
        super().__init__()
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.make = make
        self.maxsize = maxsize

    def __missing__(self, key: _K) -> _V:
        value = self.make(key)
        if len(self) >= self.maxsize:
            del self[next(iter(self))]
        self[key] = value
        return value


_DERIVED_MAX = 128
_DERIVED: OrderedDict[tuple[int, Callable[[Any], Any]], tuple[Any, Any]] = OrderedDict()


def derived(source: Any, build: Callable[[Any], _T]) -> _T:
    """``build(source)``, made once per ``source`` object and kept (least recently used goes first).

    Agents and views ask for lookup tables derived from card data or a game setup on every
    decision or observation; keying them by the object's identity (the cache holds the object,
    so its id cannot be reused) skips hashing, or comparing, the whole source.
    """
    key = (id(source), build)
    hit = _DERIVED.get(key)
    if hit is None:
        hit = _DERIVED[key] = (source, build(source))
        if len(_DERIVED) > _DERIVED_MAX:
            _DERIVED.popitem(last=False)
    else:
        _DERIVED.move_to_end(key)
    return hit[1]
