from dataclasses import dataclass

import pytest

from ludus.core.bits import bits_list, iter_bits, mask_of, nth_bit, popcount
from ludus.core.errors import InvalidOptions
from ludus.core.options import describe_options, option, options_to_json, parse_options, with_legacy_values
from ludus.core.rng import Rng


def test_rng_is_reproducible_and_clonable():
    a, b = Rng(42), Rng(42)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]
    c = a.clone()
    assert a.below(1000) == c.below(1000)
    assert Rng(1).next_u64() != Rng(2).next_u64()


def test_rng_below_covers_range_uniformly_enough():
    r = Rng(7)
    counts = [0] * 5
    for _ in range(5000):
        counts[r.below(5)] += 1
    assert all(800 < c < 1200 for c in counts)
    with pytest.raises(ValueError):
        r.below(0)


def test_rng_shuffle_is_a_permutation():
    r = Rng(3)
    items = list(range(20))
    r.shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))


def test_bits_helpers():
    m = mask_of([0, 3, 9])
    assert popcount(m) == 3
    assert list(iter_bits(m)) == bits_list(m) == [0, 3, 9]
    assert nth_bit(m, 2) == 9
    with pytest.raises(IndexError):
        nth_bit(m, 3)


@dataclass(frozen=True)
class Opts:
    players: int = option(4, "players", min=2, max=5)
    mode: str = option("a", "mode", choices=("a", "b"))
    fast: bool = option(False, "fast")


def test_parse_options_coerces_and_validates():
    o = parse_options(Opts, {"players": "3", "mode": "b", "fast": "yes"})
    assert (o.players, o.mode, o.fast) == (3, "b", True)
    assert options_to_json(o) == {"players": 3, "mode": "b", "fast": True}
    assert [i.name for i in describe_options(Opts)] == ["players", "mode", "fast"]
    with pytest.raises(InvalidOptions, match="at most 5"):
        parse_options(Opts, {"players": 9})
    with pytest.raises(InvalidOptions, match="one of a, b"):
        parse_options(Opts, {"mode": "c"})
    with pytest.raises(InvalidOptions, match=r"unknown option 'colour'.*known options"):
        parse_options(Opts, {"colour": 1})
    with pytest.raises(InvalidOptions, match="whole number"):
        parse_options(Opts, {"players": "many"})


@dataclass(frozen=True)
class _Evolved:
    players: int = option(2, "players", min=2, max=4)
    attack: str = option("compulsory", "added later", choices=("compulsory", "optional"), legacy="optional")


def test_stored_options_without_a_later_option_get_its_legacy_value():
    # a game stored before 'attack' existed keeps the reading it was played under ...
    assert with_legacy_values(_Evolved, {"players": 3}) == {"players": 3, "attack": "optional"}
    assert parse_options(_Evolved, with_legacy_values(_Evolved, {})).attack == "optional"
    # ... one that names it (in either spelling) keeps what it names, and new games get the default
    assert with_legacy_values(_Evolved, {"attack": "compulsory"})["attack"] == "compulsory"
    assert parse_options(_Evolved, with_legacy_values(_Evolved, {"attack": "compulsory"})).attack == "compulsory"
    assert parse_options(_Evolved, {}).attack == "compulsory"
    assert with_legacy_values(_Evolved, None) == {"attack": "optional"}
