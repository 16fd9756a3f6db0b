"""Fixed-size numeric views of a seat's observation, for OpenSpiel tensors and RL spaces.

Needs numpy (the ``interop`` extra); nothing in the rules imports this module. It is in
``core`` so that a game package can ship an exact encoder without depending on the
interop layer.

An encoder turns one :class:`~ludus.core.game.Observation` (never the full state, so a
tensor cannot leak what the seat may not see) into a flat float32 vector made of named
pieces. Two kinds exist:

* :class:`HashedEncoder`, which works for every game: each leaf of the observation's JSON
  becomes a token such as ``support[2]=1`` or ``hand[]=GA10#1`` and sets one of ``size``
  slots chosen by a stable hash. Values are 0/1; distinct tokens can share a slot, so the
  vector is a lossy but deterministic summary.
* exact encoders written per game (a game's plugin names one in its ``InteropSpec``), where
  every slot means one thing.

:func:`ludus.interop.specs.encoder_for` picks the one a game uses.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .game import Observation

__all__ = ["EncoderFactory", "HashedEncoder", "ObservationEncoder", "Piece", "RowEncoder", "set_bits"]


@dataclass(frozen=True)
class Piece:
    """A named block of the vector, with its shape and value bounds."""

    name: str
    shape: tuple[int, ...]
    high: float = 1.0

    @property
    def size(self) -> int:
        return math.prod(self.shape)  # not np.prod: encoders ask for it per piece per step


class ObservationEncoder:
    """Base class: pieces laid out one after another in a flat vector."""

    pieces: tuple[Piece, ...] = ()
    _layout: tuple[tuple[Piece, ...], dict[str, int], int] | None = None

    def offsets(self) -> dict[str, int]:
        """Where each piece starts in the flat vector (worked out once per ``pieces``)."""
        return self._laid_out()[1]

    @property
    def size(self) -> int:
        return self._laid_out()[2]

    def _laid_out(self) -> tuple[tuple[Piece, ...], dict[str, int], int]:
        # encoders ask for the size on every step: summing the pieces each time costs more than the encoding
        layout = self._layout
        if layout is None or layout[0] is not self.pieces:
            at: dict[str, int] = {}
            offset = 0
            for p in self.pieces:
                at[p.name] = offset
                offset += p.size
            layout = self._layout = (self.pieces, at, offset)
        return layout

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Lower and upper bound of every slot (for Gymnasium ``Box`` spaces)."""
        low = np.zeros(self.size, np.float32)
        high = np.concatenate([np.full(p.size, p.high, np.float32) for p in self.pieces])
        return low, high

    def views(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """Named, reshaped views into ``flat`` (which must have :attr:`size` entries)."""
        out: dict[str, np.ndarray] = {}
        at = 0
        for p in self.pieces:
            out[p.name] = flat[at:at + p.size].reshape(p.shape)
            at += p.size
        return out

    def write(self, obs: Observation, views: dict[str, np.ndarray]) -> None:
        """Fill the (already zeroed) views from ``obs``."""
        raise NotImplementedError

    def encode(self, obs: Observation) -> np.ndarray:
        flat = np.zeros(self.size, np.float32)
        self.write(obs, self.views(flat))
        return flat


class RowEncoder(ObservationEncoder):
    """An encoder that fills one flat row directly (:meth:`encode_into`), the fast path of the
    vector environment; ``encode`` and the named-views ``write`` (OpenSpiel's observer) follow
    from it."""

    def encode_into(self, obs: Observation, row: np.ndarray) -> None:
        """Fill ``row``, a zeroed flat float32 array of :attr:`size` entries, from ``obs``."""
        raise NotImplementedError

    def encode(self, obs: Observation) -> np.ndarray:
        flat = np.zeros(self.size, np.float32)
        self.encode_into(obs, flat)
        return flat

    def write(self, obs: Observation, views: dict[str, np.ndarray]) -> None:
        for name, part in self.views(self.encode(obs)).items():
            views[name][...] = part


# --------------------------------------------------------------------------- generic
def _tokens(value: Any, path: str, out: list[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _tokens(v, f"{path}.{k}", out)
    elif isinstance(value, (list, tuple)):
        counts: dict[str, int] = {}
        for i, v in enumerate(value):
            if isinstance(v, str):  # lists of names are sets (hands, piles): order does not matter
                counts[v] = counts.get(v, 0) + 1
                out.append(f"{path}[]={v}#{counts[v]}")
            else:
                _tokens(v, f"{path}[{i}]", out)
    else:
        out.append(f"{path}={value!r}")


class HashedEncoder(ObservationEncoder):
    """Feature hashing of the observation JSON into ``size`` 0/1 slots (lossy, stable)."""

    def __init__(self, size: int = 1024) -> None:
        self.pieces = (Piece("hashed", (size,)),)
        self._slots = size

    def write(self, obs: Observation, views: dict[str, np.ndarray]) -> None:
        tokens: list[str] = []
        _tokens(obs.to_json(), "", tokens)
        v = views["hashed"]
        n = self._slots
        for t in tokens:
            v[zlib.crc32(t.encode()) % n] = 1.0


def set_bits(row: np.ndarray, mask: int) -> None:
    """Set ``row[i] = 1`` for every set bit ``i`` of a card bitmask."""
    while mask:
        low = mask & -mask
        row[low.bit_length() - 1] = 1
        mask ^= low


EncoderFactory = Callable[[Any], ObservationEncoder]
