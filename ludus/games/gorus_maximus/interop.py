"""Gorus Maximus for the interop bridges: every player action and chance outcome, as JSON, and
bounds on the length of a game (see :class:`ludus.core.plugin.InteropSpec`)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from ...core.encoding import Piece, RowEncoder, set_bits
from ...core.game import Observation
from ...core.plugin import InteropSpec
from .cards import NUM_CARDS, NUM_SCHOOLS

__all__ = ["SPEC", "GorusMaximusEncoder"]

Json = Any


def _actions(o: Any) -> tuple[list[Json], list[Json]]:
    from .cards import NUM_CARDS, SCHOOLS, card_code, setup_for

    codes = [card_code(c) for c in range(NUM_CARDS)]
    player = [{"play": code} for code in codes]  # number = card index (school * 16 + rank)
    chance: list[Json] = [{"deal": code, "to": seat} for seat in range(o.players) for code in codes]
    if o.solo:
        chance += [{"reveal": code} for code in codes]
    if o.school_indices() is None:
        k = setup_for(o.players).schools
        chance += [{"schools": [SCHOOLS[s].code for s in combo]} for combo in combinations(range(len(SCHOOLS)), k)]
    return player, chance


def _rounds(o: Any) -> int:
    """Most rounds: every round gives at least one side a point of Crowd Support.

    With shared final ties a game ends once a side reaches its target, so rounds are at
    most one more than the points all sides can hold below their targets. ``play-on`` can
    in principle go on for ever; there the bound is four times that (a practical cap).
    """
    n = o.players
    team = o.team_of_seat()
    if n == 1:
        targets = [o.target, o.target]
    elif team is not None:
        sizes = [team.count(t) for t in range(max(team) + 1)]
        targets = [o.team_target or size + 1 for size in sizes]
    else:
        targets = [o.target] * n
    rounds = 1 + sum(t - 1 for t in targets)
    return rounds * 4 if o.final_tie == "play-on" else rounds


def _length(o: Any) -> tuple[int, int]:
    from .cards import setup_for

    row = setup_for(o.players)
    deck = row.schools * len(row.ranks)  # each card is played, and dealt or drawn, at most once a round
    rounds = _rounds(o)
    return rounds * deck, rounds * deck + 1  # + the choice of schools


class GorusMaximusEncoder(RowEncoder):
    """Exact encoding of a Gorus Maximus observation; every card is one of 80 slots.

    Seats are absolute (``seat`` says whose view it is). In solo play the contenders are an
    extra actor row after the seats in the bout pieces.
    """

    def __init__(self, options: Any) -> None:
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
            # the summary of the round that ended last (absent in round 1); CF split into its
            # positive and negative part so that every slot stays non-negative
            Piece("last_round", (1,)),
            Piece("last_round_preferred", (NUM_SCHOOLS,)),
            Piece("last_round_cf_plus", (sides,), big),
            Piece("last_round_cf_minus", (sides,), big),
            Piece("last_round_collected", (sides,), float(cards)),
            Piece("last_round_gained", (sides,)),
            Piece("last_round_zero_side", (sides,)),
            Piece("last_round_no_eight", (1,)),
        )
        self._flat = np.zeros(self.size, np.float32)
        self._views = self.views(self._flat)  # made once: encode_into writes here, then copies

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
            set_bits(v["hand"], o.hand)
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
            set_bits(v["collected"][side], mask)
        v["collected_counts"][:] = o.collected_counts
        v["support"][:] = o.support
        v["targets"][:] = o.targets
        for s in o.winners:
            v["winners"][s] = 1
        lr = o.last_round
        if lr is not None:
            v["last_round"][0] = 1
            v["last_round_preferred"][lr.preferred] = 1
            for side, cf in enumerate(lr.crowd_favour):
                if cf >= 0:
                    v["last_round_cf_plus"][side] = cf
                else:
                    v["last_round_cf_minus"][side] = -cf
            v["last_round_collected"][:] = lr.collected_counts
            v["last_round_gained"][:] = lr.support_gained
            if lr.preferred_zero_side is not None:
                v["last_round_zero_side"][lr.preferred_zero_side] = 1
            v["last_round_no_eight"][0] = 1 if lr.no_eight else 0

    def encode_into(self, obs: Observation, row: np.ndarray) -> None:
        """Fill ``row`` (a zeroed flat row of a batch) through views made once, not per call."""
        flat = self._flat
        flat[:] = 0
        self.write(obs, self._views)
        row[:] = flat


_PHASES = ("schools", "deal", "play", "draw", "reveal", "over")


SPEC = InteropSpec(_actions, _length, GorusMaximusEncoder)
