"""Circus Maximus views: the observation class and building a seat's observation from a state.

Everything on the table is public, so every seat (and a spectator) sees the same fields; the
``seat`` field only says who is looking. Card sets are shown as tuples of card-kind keys,
never card ids. :func:`observe` is the State's ``observation`` method; the lookup tables it
uses for speed are in :mod:`.fast`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.frozen import frozen_builder
from ...core.game import Observation
from ...core.memo import derived
from .actions import LINE_KEYS
from .fast import ObsKeys, hand_ranks, passed_flags

if TYPE_CHECKING:
    from .rules import CircusMaximusState

__all__ = ["PHASE_NAMES", "CircusMaximusObservation", "observe"]

PHASE_NAMES = ("Dealing", "I: Caesar's favour", "II: Tickets", "III: Events", "Game over")


@dataclass(frozen=True)
class CircusMaximusObservation(Observation):
    """The table as everyone sees it (nothing in this game is secret, see the module doc)."""

    seat: int | None
    players: int
    caesar_variant: bool
    start_card: str  # the start_card option: how the starting-player card is won at the villa
    cards: str  # the card-data option ("" = shipped file), so a viewer can look up card values
    day: int
    phase: int  # 0 dealing, 1-3 placement/resolution phases, 4 over
    phase_name: str
    resolving: bool
    to_act: tuple[int, ...]
    starting: int
    start_card_at_villa: bool
    turn: int
    passed: tuple[bool, ...]
    extra_traders: int
    pending_visitor: str | None
    resolving_line: str | None
    resolving_index: int
    second_pick: bool
    lines: tuple[tuple[tuple[int, int, int], ...], ...]  # per line: (seat, rank, effective rank)
    hands: tuple[tuple[int, ...], ...]
    favours: tuple[tuple[str, ...], ...]
    tickets: tuple[tuple[str, ...], ...]
    sales: tuple[tuple[tuple[str, str, int], ...], ...]  # (ticket key or "favour:key", visitor, coins)
    past_sales: tuple[tuple[tuple[tuple[str, str, int], ...], ...], ...]  # each finished day's sales
    favour_display: tuple[str, ...]
    forum: tuple[str, ...]
    venues: tuple[tuple[str, ...], ...]
    bonus: tuple[int, ...]
    caesar_used: bool
    favour_deck: tuple[str, ...]
    ticket_deck: tuple[str, ...]
    visitor_deck: tuple[str, ...]
    favours_out: tuple[str, ...]
    visitors_out: tuple[str, ...]
    draws: tuple[tuple[str, int], ...]
    setup_tickets: tuple[int, ...]
    scores: tuple[int, ...]
    day_scores: tuple[tuple[int, ...], ...]
    favour_coins: tuple[int, ...] | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            out[name] = _jsonable(getattr(self, name))
        return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


# The observation with exactly these field values, without the frozen ``__init__``'s forty
# guarded attribute writes (see ludus.core.frozen); ``observe`` names every field, in
# declaration order (the tests check both).
_new_observation = frozen_builder(CircusMaximusObservation)


def observe(st: CircusMaximusState, seat: int | None) -> CircusMaximusObservation:
    """What ``seat`` (None: a spectator) sees of the state: the whole table (see the module doc).

    The State's ``observation`` method is this function itself (no extra call on the hot path).
    """
    keys = derived(st.data, ObsKeys)
    fav_keys, tkt_keys, vis_keys = keys.fav, keys.tkt, keys.vis
    n = st.n
    return _new_observation({
        "seat": seat,
        "players": n,
        "caesar_variant": st.options.caesar,
        "start_card": st.options.start_card,
        "cards": st.options.cards,
        "day": st.day,
        "phase": st.stage,
        "phase_name": PHASE_NAMES[st.stage],
        "resolving": st.resolving,
        "to_act": st.current_seats(),
        "starting": st.starting,
        "start_card_at_villa": st.sp_at_villa,
        "turn": st.turn,
        "passed": passed_flags(st.passed, n),
        "extra_traders": st.extra,
        "pending_visitor": None if st.pending_visitor < 0 else keys.visitor_of[st.pending_visitor],
        "resolving_line": LINE_KEYS[st.res_line] if st.resolving else None,
        "resolving_index": st.res_pos if st.resolving else -1,
        "second_pick": st.res_again,
        "lines": tuple(map(tuple, st.lines)),
        "hands": tuple(map(hand_ranks, st.hands)),
        "favours": tuple(map(fav_keys, st.favours)),
        "tickets": tuple(map(tkt_keys, st.tickets)),
        "sales": st._sales_keys() if any(st.sales) else ((),) * len(st.sales),
        "past_sales": tuple(st.past_sales),
        "favour_display": fav_keys(st.fav_display),
        "forum": tkt_keys(st.forum),
        "venues": tuple(map(vis_keys, st.venue_vis)),
        "bonus": tuple(st.bonus),
        "caesar_used": st.caesar_used,
        "favour_deck": fav_keys(st.fav_deck),
        "ticket_deck": tkt_keys(st.tkt_deck),
        "visitor_deck": vis_keys(st.vis_deck),
        "favours_out": fav_keys(st.fav_gone),
        "visitors_out": vis_keys(st.vis_box),
        "draws": tuple(st.draws),
        "setup_tickets": tuple(st.setup_counts),
        "scores": tuple(st.totals),
        "day_scores": tuple(map(tuple, st.day_scores)),
        "favour_coins": None if st.favour_coins is None else tuple(st.favour_coins),
    })
