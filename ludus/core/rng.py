"""A small, fully deterministic random generator whose whole state is one integer.

Why not :mod:`random`: its Mersenne Twister state is 2.5 kB, slow to clone for every
search node and awkward in a JSON position. SplitMix64 is tiny, fast enough in pure
Python, and gives the same stream on every platform and Python version.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

__all__ = ["Rng"]

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_FACTORIALS = [1]


def _factorial(n: int) -> int:
    while len(_FACTORIALS) <= n:
        _FACTORIALS.append(_FACTORIALS[-1] * len(_FACTORIALS))
    return _FACTORIALS[n]


class Rng:
    """SplitMix64 generator. ``Rng(seed)`` for any int seed; ``state`` round-trips."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK64

    def next_u64(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def below_big(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` for any positive ``n``, by rejection on whole words."""
        if n <= 0:
            raise ValueError("below_big() needs a positive bound")
        bits = (n - 1).bit_length()
        words = (bits + 63) // 64 or 1
        extra = words * 64 - bits
        state = self.state
        while True:
            x = 0
            for _ in range(words):  # next_u64 inlined: this runs for every shuffle
                state = z = (state + 0x9E3779B97F4A7C15) & _MASK64
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                x = (x << 64) | z ^ (z >> 31)
            x >>= extra
            if x < n:
                self.state = state
                return x

    def random(self) -> float:
        """Uniform float in ``[0, 1)`` with 53 bits of precision."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Uniform shuffle: Fisher-Yates driven by the mixed-radix digits of one draw below n!.

        One big draw plus cheap divmods is several times faster in pure Python than a
        bounded draw per position, and just as exactly uniform.
        """
        n = len(seq)
        if n < 2:
            return
        x = self.below_big(_factorial(n))
        for i in range(n - 1, 0, -1):
            x, j = divmod(x, i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def weighted(self, weights: Sequence[float]) -> int:
        """Index drawn with probability proportional to ``weights``."""
        total = sum(weights)
        x = self.random() * total
        acc = 0.0
        for i, w in enumerate(weights):
            acc += w
            if x < acc:
                return i
        return len(weights) - 1

    def spawn(self) -> Rng:
        """An independent generator derived from this one (advances this one)."""
        return Rng(self.next_u64())

    def clone(self) -> Rng:
        return Rng(self.state)

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"
