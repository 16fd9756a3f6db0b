"""The exact observation encoder of Gladius, for the interop bridges and learning agents.

Every slot means one thing (``docs/games/gladius.md``, "Observation encoding"). Cards are
counted per kind, in the setup's deck order: an observation lists a seat's cards by key in
that order, so the counts give the lists back exactly. Fields that are fixed by the options
(fighters, names, maximum hit points, hand limit, turn limit, solo) are not encoded, nor the
hand notes, which follow from the seat, phase, acting seat, hand, barred card and table card
(:func:`~ludus.games.gladius.views.hand_notes`), nor the history-only log fields.

Encoding runs once per agent step, so :meth:`GladiusEncoder.encode_into` writes the nonzero
slots straight into the row through a memoryview, with slot numbers looked up in tables built
once, instead of filling named numpy views piece by piece.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.encoding import Piece, RowEncoder
from ...core.game import Observation
from .rules import build_setup
from .views import END_REASONS, PHASES

__all__ = ["RESULTS", "GladiusEncoder"]

RESULTS = ("hit", "evaded", "blocked", "no attack", "skipped")
"""The values of ``last_result`` besides "" (no result yet), one slot each."""

_DRAWS_PER_TURN = 4
"""Most cards drawn in one turn: the Maneuver draw plus, in solo, the opponent's defence
mini-hand (up to 3); the solo opponent's own turn draws only its attack mini-hand (up to 3)."""


class GladiusEncoder(RowEncoder):
    """Exact encoding of a Gladius observation (a seat's or a spectator's); sides are 0 and 1.

    The layout depends on the options: the card kinds in play (fighters, mirror, card sets),
    and solo (mini-hand pieces) or not (card-counting pieces).
    """

    omitted: tuple[str, ...] = ()
    """Top-level observation keys whose information the vector lacks: none. The keys it does not
    encode are fixed by the options or follow from encoded ones (the hand notes)."""

    def __init__(self, options: Any) -> None:
        setup = build_setup(options)
        nk = len(setup.kinds)
        self.nk = nk
        self.solo = bool(options.solo)
        copies = float(max(setup.kind_counts))
        n_cards = float(setup.n_cards)
        deal = options.starting_hand * (1 if self.solo else 2)
        if options.turn_limit:
            turns = float(options.turn_limit)
            reshuffles = float(deal + _DRAWS_PER_TURN * options.turn_limit)  # each reshuffle precedes a draw
        else:  # no turn limit: turns and reshuffles have no bound but float32's own (not inf,
            # which Gymnasium's checker warns about)
            turns = reshuffles = float(np.finfo(np.float32).max)
        pieces = [
            Piece("seat", (2,)),
            Piece("hit_points", (2,), float(max(setup.hit_points))),
            Piece("phase", (len(PHASES),)),
            Piece("active", (2,)),
            Piece("to_act", (2,)),
            Piece("first", (2,)),
            Piece("turn", (1,), turns),
            Piece("dealt", (1,), float(deal)),
            Piece("hand", (nk,), copies),
            Piece("hand_sizes", (2,), n_cards),
            Piece("draw_pile", (1,), n_cards),
            Piece("discard", (nk,), copies),
            Piece("table", (nk,)),
        ]
        if self.solo:
            mini = float(max(setup.mini_def, setup.mini_atk))
            pieces += [Piece("mini_hand", (nk,), copies), Piece("mini_left", (1,), mini)]
        pieces += [
            Piece("locked", (2, nk)),
            Piece("barred", (nk,)),
            Piece("skip", (2,)),
            Piece("resume", (len(PHASES),)),
            Piece("reshuffles", (1,), reshuffles),
            Piece("last_attack", (2, nk + 1)),
            Piece("last_defence", (2, nk + 1)),
            Piece("last_result", (len(RESULTS),)),
        ]
        if not self.solo:
            pieces += [
                Piece("opponent_known", (nk,), copies),
                Piece("opponent_unknown", (1,), n_cards),
                Piece("known_by_opponent", (nk,), copies),
                Piece("unknown_to_opponent", (1,), n_cards),
            ]
        pieces += [Piece("end", (len(END_REASONS) - 1,)), Piece("winners", (2,))]
        self.pieces = tuple(pieces)
        at = self.offsets()
        self._size = self.size
        index = setup.index

        def kinds(piece: str, row: int = 0) -> dict[str, int]:
            base = at[piece] + row
            return {key: base + k for key, k in index.items()}

        def pairs(piece: str) -> dict[tuple[int, str | None], int]:
            """(side, card or None) -> slot: a row of nk kinds then "no card" per side."""
            base = at[piece]
            out: dict[tuple[int, str | None], int] = {}
            for side in (0, 1):
                for key, k in index.items():
                    out[(side, key)] = base + side * (nk + 1) + k
                out[(side, None)] = base + side * (nk + 1) + nk
            return out

        self._hand = kinds("hand")
        self._discard = kinds("discard")
        self._table = kinds("table")
        self._mini = kinds("mini_hand") if self.solo else {}
        self._locked = (kinds("locked"), kinds("locked", nk))
        self._barred = kinds("barred")
        self._opp_known = {} if self.solo else kinds("opponent_known")
        self._by_opp = {} if self.solo else kinds("known_by_opponent")
        self._last_attack = pairs("last_attack")
        self._last_defence = pairs("last_defence")
        self._phase = {name: at["phase"] + i for i, name in enumerate(PHASES)}
        self._resume = {name: at["resume"] + i for i, name in enumerate(PHASES)}
        self._result = {name: at["last_result"] + i for i, name in enumerate(RESULTS)}
        self._end = {name: at["end"] + i for i, name in enumerate(END_REASONS[1:])}

    def encode_into(self, obs: Observation, flat: np.ndarray) -> None:
        """Fill ``flat`` (zeroed, :attr:`size` slots: a vector env's row) from ``obs``.

        Slots are written one at a time through a memoryview of the row, which is cheaper for
        some 30 nonzero slots than numpy item writes or gathering them for one scatter.
        """
        o: Any = obs
        at = self.offsets()
        m: Any = flat.data
        if o.seat is not None:
            m[at["seat"] + o.seat] = 1.0
        hp0, hp1 = o.hit_points
        m[at["hit_points"]] = hp0
        m[at["hit_points"] + 1] = hp1
        m[self._phase[o.phase]] = 1.0
        m[at["active"] + o.active] = 1.0
        if o.to_act is not None:
            m[at["to_act"] + o.to_act] = 1.0
        if o.first is not None:
            m[at["first"] + o.first] = 1.0
        m[at["turn"]] = o.turn
        m[at["dealt"]] = o.dealt
        slot = self._hand
        for key in o.hand:
            m[slot[key]] += 1
        s0, s1 = o.hand_sizes
        m[at["hand_sizes"]] = s0
        m[at["hand_sizes"] + 1] = s1
        m[at["draw_pile"]] = o.draw_pile
        slot = self._discard
        for key, n in o.discard:
            m[slot[key]] = n
        if o.table is not None:
            m[self._table[o.table]] = 1.0
        if self.solo:
            slot = self._mini
            for key in o.mini_hand:
                m[slot[key]] += 1
            m[at["mini_left"]] = o.mini_left
        l0, l1 = o.locked
        if l0 is not None:
            m[self._locked[0][l0]] = 1.0
        if l1 is not None:
            m[self._locked[1][l1]] = 1.0
        if o.barred is not None:
            m[self._barred[o.barred]] = 1.0
        k0, k1 = o.skip
        if k0:
            m[at["skip"]] = 1.0
        if k1:
            m[at["skip"] + 1] = 1.0
        if o.resume is not None:
            m[self._resume[o.resume]] = 1.0
        m[at["reshuffles"]] = o.reshuffles
        if o.last_attack is not None:
            m[self._last_attack[o.last_attack]] = 1.0
        if o.last_defence is not None:
            m[self._last_defence[o.last_defence]] = 1.0
        if o.last_result:
            m[self._result[o.last_result]] = 1.0
        if not self.solo:
            slot = self._opp_known
            for key in o.opponent_known:
                m[slot[key]] += 1
            m[at["opponent_unknown"]] = o.opponent_unknown
            slot = self._by_opp
            for key in o.known_by_opponent:
                m[slot[key]] += 1
            m[at["unknown_to_opponent"]] = o.unknown_to_opponent
        if o.end:
            m[self._end[o.end]] = 1.0
        for side in o.winners:
            m[at["winners"] + side] = 1.0
