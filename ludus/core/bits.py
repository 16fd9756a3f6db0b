"""Helpers for card sets kept as integer bitmasks (bit i set = card i present)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

__all__ = ["bits_list", "iter_bits", "mask_of", "nth_bit", "popcount"]


def popcount(mask: int) -> int:
    return mask.bit_count()


def iter_bits(mask: int) -> Iterator[int]:
    """Indices of the set bits, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def bits_list(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(indices: Iterable[int]) -> int:
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def nth_bit(mask: int, n: int) -> int:
    """Index of the n-th set bit (0-based, lowest first)."""
    for _ in range(n):
        mask &= mask - 1
    if not mask:
        raise IndexError("mask has fewer set bits")
    return (mask & -mask).bit_length() - 1
