"""Fixed-size numeric views of a seat's observation, for OpenSpiel tensors and RL spaces.

An encoder turns one :class:`~ludus.core.game.Observation` (never the full state, so a
tensor cannot leak what the seat may not see) into a flat float32 vector made of named
pieces. Two kinds exist:

* :class:`HashedEncoder`, which works for every game: each leaf of the observation's JSON
  becomes a token such as ``support[2]=1`` or ``hand[]=GA10#1`` and sets one of ``size``
  slots chosen by a stable hash. Values are 0/1; distinct tokens can share a slot, so the
  vector is a lossy but deterministic summary.
* exact encoders written per game (Gorus Maximus below), where every slot means one thing.

:mod:`ludus.interop.specs` says which one a game uses.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.game import Observation


@dataclass(frozen=True)
class Piece:
    """A named block of the vector, with its shape and value bounds."""

    name: str
    shape: tuple[int, ...]
    high: float = 1.0

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


class ObservationEncoder:
    """Base class: pieces laid out one after another in a flat vector."""

    pieces: tuple[Piece, ...] = ()

    @property
    def size(self) -> int:
        return sum(p.size for p in self.pieces)

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


# --------------------------------------------------------------------------- Gorus Maximus
class GorusMaximusEncoder(ObservationEncoder):
    """Exact encoding of a Gorus Maximus observation; every card is one of 80 slots.

    Seats are absolute (``seat`` says whose view it is). In solo play the contenders are an
    extra actor row after the seats in the bout pieces.
    """

    def __init__(self, options: Any) -> None:
        from ..games.gorus_maximus.cards import NUM_CARDS, NUM_SCHOOLS

        n = options.players
        team = options.team_of_seat()
        sides = 2 if n == 1 else (max(team) + 1 if team is not None else n)
        actors = n + 1 if n == 1 else n
        self.n, self.sides, self.actors = n, sides, actors
        cards = NUM_CARDS
        big = 1000.0
        self.pieces = (
            Piece("seat", (n,)),
            Piece("phase", (len(_PHASES),)),
            Piece("round", (1,), big),
            Piece("dealer", (n,)),
            Piece("to_move", (n,)),
            Piece("hand", (cards,)),
            Piece("hand_sizes", (n,), float(cards)),
            Piece("stock_size", (1,), float(cards)),
            Piece("schools_in_play", (NUM_SCHOOLS,)),
            Piece("initiating", (NUM_SCHOOLS,)),
            Piece("preferred", (NUM_SCHOOLS,)),
            Piece("bout", (actors, cards)),
            Piece("bout_last", (cards,)),
            Piece("previous_bout", (actors, cards)),
            Piece("previous_winner", (actors,)),
            Piece("collected", (sides, cards)),
            Piece("collected_counts", (sides,), float(cards)),
            Piece("support", (sides,), big),
            Piece("targets", (sides,), big),
            Piece("winners", (n,)),
        )

    def _actor_row(self, actor: int) -> int:
        return self.n if actor < 0 else actor  # the contender (solo) sits after the seats

    def write(self, obs: Observation, v: dict[str, np.ndarray]) -> None:
        o: Any = obs
        if o.seat is not None:
            v["seat"][o.seat] = 1
        v["phase"][_PHASES.index(o.phase)] = 1
        v["round"][0] = o.round
        v["dealer"][o.dealer] = 1
        for s in o.to_move:
            if s >= 0:
                v["to_move"][s] = 1
        if o.hand is not None:
            _set_bits(v["hand"], o.hand)
        v["hand_sizes"][:] = o.hand_sizes
        v["stock_size"][0] = o.stock_size
        for s in o.schools_in_play:
            v["schools_in_play"][s] = 1
        if o.initiating >= 0:
            v["initiating"][o.initiating] = 1
        if o.preferred >= 0:
            v["preferred"][o.preferred] = 1
        for actor, c in o.bout:
            v["bout"][self._actor_row(actor), c] = 1
        if o.bout:
            v["bout_last"][o.bout[-1][1]] = 1
        for actor, c in o.previous_bout:
            v["previous_bout"][self._actor_row(actor), c] = 1
        if o.previous_winner is not None:
            v["previous_winner"][self._actor_row(o.previous_winner)] = 1
        for side, mask in enumerate(o.collected):
            _set_bits(v["collected"][side], mask)
        v["collected_counts"][:] = o.collected_counts
        v["support"][:] = o.support
        v["targets"][:] = o.targets
        for s in o.winners:
            v["winners"][s] = 1


_PHASES = ("schools", "deal", "play", "draw", "reveal", "over")


def _set_bits(row: np.ndarray, mask: int) -> None:
    while mask:
        low = mask & -mask
        row[low.bit_length() - 1] = 1
        mask ^= low


EncoderFactory = Callable[[Any], ObservationEncoder]
