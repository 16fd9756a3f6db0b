"""The frozen-dataclass builder makes the constructor's object, and refuses classes where it could not."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field

import pytest

from ludus.core.frozen import frozen_builder, same_as_constructed


@dataclass(frozen=True)
class Obs:
    seat: int
    hand: tuple[int, ...]


def test_built_objects_equal_constructed_ones_and_stay_frozen():
    obs = frozen_builder(Obs)({"seat": 1, "hand": (3, 4)})
    assert obs == Obs(1, (3, 4)) and hash(obs) == hash(Obs(1, (3, 4)))
    assert same_as_constructed(obs)
    with pytest.raises(FrozenInstanceError):
        obs.seat = 2  # type: ignore[misc]


def test_wrong_field_order_is_caught_by_the_check():
    assert not same_as_constructed(frozen_builder(Obs)({"hand": (3,), "seat": 1}))


@dataclass(frozen=True)
class WithDefault:
    seat: int = 0


@dataclass(frozen=True)
class WithPostInit:
    seat: int

    def __post_init__(self) -> None:
        if self.seat < 0:
            raise ValueError("negative seat")


@dataclass
class NotFrozen:
    seat: int


@dataclass(frozen=True)
class WithFactory:
    hand: list[int] = field(default_factory=list)


@pytest.mark.parametrize("cls", [WithDefault, WithPostInit, NotFrozen, WithFactory])
def test_classes_the_shortcut_would_change_are_refused(cls):
    with pytest.raises(TypeError):
        frozen_builder(cls)
