"""Building frozen dataclass values (observations) without the frozen ``__init__``'s cost.

A frozen dataclass's ``__init__`` writes each field through ``object.__setattr__``; for an
observation of thirty or forty fields, built on every decision of every search rollout, that
costs as much as computing the values. :func:`frozen_builder` returns a function that makes
the same object by filling its ``__dict__`` at once. It refuses classes where that would not
be the same object (``__slots__``, ``__post_init__``, field defaults) so the shortcut can
never skip a check; :func:`same_as_constructed` lets tests prove equality on real values.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["frozen_builder", "same_as_constructed"]

T = TypeVar("T")


def frozen_builder(cls: type[T]) -> Callable[[dict[str, Any]], T]:
    """A function ``values -> cls(**values)`` for a frozen dataclass with no defaults or post-init.

    ``values`` must name every field, in declaration order (the tests of each game check it
    with :func:`same_as_constructed`); the dict is used as the object's ``__dict__``, so the
    caller must not keep or change it.
    """
    if not dataclasses.is_dataclass(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__} is not a frozen dataclass")
    if hasattr(cls, "__slots__") or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has __slots__ or __post_init__: build it with its constructor")
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name} has a default: build it with its constructor")
    new = object.__new__
    set_dict = object.__setattr__

    def build(values: dict[str, Any]) -> T:
        obj = new(cls)
        set_dict(obj, "__dict__", values)
        return obj

    build.__doc__ = f"A {cls.__name__} with exactly these field values (see ludus.core.frozen)."
    return build


def same_as_constructed(obj: Any) -> bool:
    """Whether ``obj`` equals, field for field and in field order, the constructor's object."""
    cls = type(obj)
    names = [f.name for f in dataclasses.fields(cls)]
    if list(vars(obj)) != names:
        return False
    return bool(obj == cls(**{n: getattr(obj, n) for n in names}))
