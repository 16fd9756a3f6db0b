"""Gorus Maximus observations: what one seat (or a spectator) may see of the table.

The observation is the only thing agents, clients and the sampler get from a state, so what
it reveals (one hand, hand sizes, the cards played face up) and its JSON form are kept here,
apart from the rules that change the state. :func:`observation_of` builds it (with
:func:`~ludus.core.frozen.frozen_builder`, not the frozen ``__init__``: observations are built on
every decision of every search rollout); the State's ``observation`` method delegates to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.frozen import frozen_builder
from ...core.game import Observation
from .cards import SCHOOLS, CrowdFavourTable, _bits, card, card_code

if TYPE_CHECKING:
    from .rules import GorusMaximusState

__all__ = ["GorusObservation", "RoundSummary", "favour_so_far", "new_observation", "observation_of"]


class RoundSummary(NamedTuple):
    """What happened at the end of a round, for every side (a tuple: built every round)."""

    round: int
    preferred: int
    crowd_favour: tuple[int, ...]
    collected_counts: tuple[int, ...]
    support_gained: tuple[int, ...]
    preferred_zero_side: int | None
    no_eight: bool  # solo: the player collected no 8 and lost the round outright

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "preferred": SCHOOLS[self.preferred].code,
            "crowd_favour": list(self.crowd_favour),
            "collected_counts": list(self.collected_counts),
            "support_gained": list(self.support_gained),
            "preferred_zero_side": self.preferred_zero_side,
            "no_eight": self.no_eight,
        }


@dataclass(frozen=True)
class GorusObservation(Observation):
    """One seat's view of the table (``seat`` None: a spectator's).

    ``collected`` holds each side's won cards this round. They lie face down on the table,
    but every one was played face up in a bout, so a player with perfect memory knows
    them; giving them here keeps bots honest about what memory allows. People see only the
    previous bout, as the rules ask: the JSON sent to clients carries the collected cards and
    each side's Crowd Favour so far (``favour_so_far``, with this table's CF table) only when
    the table chose ``memory-aids``, and then to every seat alike. ``cf_table`` is the table's
    CF table, so that a page prints on each card the value this table scores.
    """

    seat: int | None
    players: int
    solo: bool
    side_of_seat: tuple[int, ...]
    side_names: tuple[str, ...]
    targets: tuple[int, ...]
    support: tuple[int, ...]
    round: int
    dealer: int
    phase: str
    to_move: tuple[int, ...]
    hand: int | None
    hand_sizes: tuple[int, ...]
    stock_size: int
    schools_in_play: tuple[int, ...]
    bout: tuple[tuple[int, int], ...]
    initiating: int
    preferred: int
    previous_bout: tuple[tuple[int, int], ...]
    previous_winner: int | None
    collected_counts: tuple[int, ...]
    collected: tuple[int, ...]
    last_round: RoundSummary | None
    winners: tuple[int, ...]
    cf_table: CrowdFavourTable
    memory_aids: bool

    def to_json(self) -> dict[str, Any]:
        def bout(b: tuple[tuple[int, int], ...]) -> list[list[Any]]:
            return [[actor, card_code(c)] for actor, c in b]

        return {
            "game": "gorus-maximus",
            "seat": self.seat,
            "players": self.players,
            "solo": self.solo,
            "side_of_seat": list(self.side_of_seat),
            "side_names": list(self.side_names),
            "targets": list(self.targets),
            "support": list(self.support),
            "round": self.round,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_move": list(self.to_move),
            "hand": None if self.hand is None else [card_code(c) for c in _bits(self.hand)],
            "hand_sizes": list(self.hand_sizes),
            "stock_size": self.stock_size,
            "schools_in_play": [SCHOOLS[s].code for s in self.schools_in_play],
            "bout": bout(self.bout),
            "initiating": None if self.initiating < 0 else SCHOOLS[self.initiating].code,
            "preferred": None if self.preferred < 0 else SCHOOLS[self.preferred].code,
            "previous_bout": bout(self.previous_bout),
            "previous_winner": self.previous_winner,
            "collected_counts": list(self.collected_counts),
            "last_round": None if self.last_round is None else self.last_round.to_json(),
            "winners": list(self.winners),
            "cf_table": self.cf_table.to_json(),
            "memory_aids": self.memory_aids,
            **({
                "collected": [[card_code(c) for c in _bits(m)] for m in self.collected],
                "favour_so_far": favour_so_far(self),
            } if self.memory_aids else {}),
        }


def favour_so_far(obs: GorusObservation) -> list[int]:
    """Each side's Crowd Favour if the round ended now, by the table's own CF table (the
    preferred school's 0 counts as the table says): the memory aid some tables allow."""
    cf = obs.cf_table
    preferred_zero = card(obs.preferred, 0) if obs.preferred >= 0 else -1
    totals = []
    for mask in obs.collected:
        total = 0
        for c in _bits(mask):
            total += cf.preferred_zero if c == preferred_zero else cf.by_rank[c & 15]
        totals.append(total)
    return totals


new_observation = frozen_builder(GorusObservation)
"""The observation with exactly these field values (every field, in declaration order), without the
frozen ``__init__``'s guarded attribute writes; the tests check it equals the constructor's."""


def observation_of(state: GorusMaximusState, seat: int | None) -> GorusObservation:
    """``seat``'s observation of a state (``seat`` None: a spectator's)."""
    return new_observation({
        "seat": seat,
        "players": state.n,
        "solo": state.solo,
        "side_of_seat": state.side_of_seat,
        "side_names": state.side_names(),
        "targets": state.targets,
        "support": tuple(state.support),
        "round": state.round,
        "dealer": state.dealer,
        "phase": state.phase,
        "to_move": state.current_seats(),
        "hand": None if seat is None else state.hands[seat],
        "hand_sizes": tuple(h.bit_count() for h in state.hands),
        "stock_size": state.stock.bit_count(),
        "schools_in_play": state.schools,
        "bout": tuple(state.bout),
        "initiating": state.initiating,
        "preferred": state.preferred,
        "previous_bout": state.previous_bout,
        "previous_winner": state.previous_winner,
        "collected_counts": tuple(state.collected_count),
        "collected": tuple(state.collected),
        "last_round": state.last_round,
        "winners": tuple(state.winners()),
        "cf_table": state.cf,
        "memory_aids": state.options.memory_aids,
    })
