"""The compiled generators draw exactly the stream of ludus.core.rng.Rng."""

from __future__ import annotations

import pytest

from ludus.core import compiled
from ludus.core.rng import Rng

np = pytest.importorskip("numpy")
pytest.importorskip("numba")


def _rngs(seed: int) -> object:
    return np.array([Rng(seed).state, Rng(seed + 1).state], dtype=np.uint64)


@pytest.mark.parametrize("seed", [0, 1, 2**63 + 5, 2**64 - 1, 123456789])
def test_next_matches(seed: int) -> None:
    ref, rngs = Rng(seed), _rngs(seed)
    for _ in range(200):
        assert int(compiled.rng_next(rngs, 0)) == ref.next_u64()
    assert int(rngs[0]) == ref.state
    assert int(rngs[1]) == Rng(seed + 1).state  # the other generator is untouched


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 10, 13, 64, 100, 2**31 - 1, 2**32, 2**62 + 3, 2**63 - 1])
def test_below_matches(n: int) -> None:
    for seed in range(40):
        ref, rngs = Rng(seed), _rngs(seed)
        for _ in range(20):
            assert compiled.rng_below(rngs, 0, n) == ref.below(n)
        assert int(rngs[0]) == ref.state


def test_random_matches() -> None:
    ref, rngs = Rng(99), _rngs(99)
    for _ in range(500):
        assert compiled.rng_random(rngs, 0) == ref.random()


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 6, 17, 20, 21, 34, 35, 36, 52, 64, 65, 98, 100, 128, 200, 256])
def test_shuffle_matches(n: int) -> None:
    for seed in range(30):
        ref, rngs = Rng(seed * 7919 + n), _rngs(seed * 7919 + n)
        expected = list(range(n))
        ref.shuffle(expected)
        got = np.arange(n + 3, dtype=np.int64)  # only the first n are shuffled
        compiled.rng_shuffle(rngs, 0, got, n)
        assert got[:n].tolist() == expected
        assert got[n:].tolist() == [n, n + 1, n + 2]
        assert int(rngs[0]) == ref.state


def test_shuffle_uses_the_named_generator() -> None:
    ref = Rng(5)
    rngs = np.array([Rng(4).state, Rng(5).state], dtype=np.uint64)
    seq = list(range(40))
    ref.shuffle(seq)
    got = np.arange(40, dtype=np.int64)
    compiled.rng_shuffle(rngs, 1, got, 40)
    assert got.tolist() == seq
    assert int(rngs[0]) == Rng(4).state and int(rngs[1]) == ref.state


def test_shuffle_refuses_what_its_tables_do_not_cover() -> None:
    rngs = _rngs(1)
    with pytest.raises(ValueError, match="at most 256"):
        compiled.rng_shuffle(rngs, 0, np.arange(300, dtype=np.int64), 257)
