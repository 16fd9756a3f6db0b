"""Circus Maximus determinization: the full state behind a seat's view, for search.

Nothing in this game is hidden (see :mod:`.rules`): every card's kind and place is in the
observation and decks are unordered, so a "sample" is the state itself, rebuilt from the
observation, with only the future draws left to chance (the ``rng`` given).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.errors import RecordError
from ...core.rng import Rng
from .actions import LINE_KEYS
from .cards import FAVOUR_KEYS
from .rules import CircusMaximusState, _low
from .views import CircusMaximusObservation

if TYPE_CHECKING:
    from .game import CircusMaximusGame

__all__ = ["state_from_observation"]


def state_from_observation(game: CircusMaximusGame, options: Any, obs: CircusMaximusObservation,
                           rng: Rng | None) -> CircusMaximusState:
    """A state matching ``obs`` exactly (card ids of one kind assigned lowest first)."""
    options = game.parse_options(options)
    d = game.cards(options)
    st = CircusMaximusState(game, options, rng, d)
    free = {"f": d.all_favours, "t": d.all_tickets, "v": d.all_visitors}
    masks = {"f": d.favour_masks, "t": d.ticket_masks, "v": d.visitor_masks}

    def take(kind: str, k: int) -> int:
        card = _low(free[kind] & masks[kind][k])
        if card < 0:
            raise RecordError("the observation holds more cards of a kind than exist")
        free[kind] &= ~(1 << card)
        return card

    def fav(keys: tuple[str, ...]) -> int:
        return sum(1 << take("f", FAVOUR_KEYS.index(k)) for k in keys)

    def tkt_index(key: str) -> int:
        k = d.ticket_index(key)
        if k is None:
            raise RecordError(f"unknown ticket {key!r}")
        return k

    def vis_index(key: str) -> int:
        k = d.visitor_index(key)
        if k is None:
            raise RecordError(f"unknown visitor {key!r}")
        return k

    def tkt(keys: tuple[str, ...]) -> int:
        return sum(1 << take("t", tkt_index(k)) for k in keys)

    def vis(keys: tuple[str, ...]) -> int:
        return sum(1 << take("v", vis_index(k)) for k in keys)

    st.day, st.stage, st.resolving = obs.day, obs.phase, obs.resolving
    st.starting, st.sp_at_villa, st.turn = obs.starting, obs.start_card_at_villa, obs.turn
    st.passed = sum(1 << s for s, p in enumerate(obs.passed) if p)
    st.extra = obs.extra_traders
    st.res_line = LINE_KEYS.index(obs.resolving_line) if obs.resolving_line else 0
    st.res_pos = max(0, obs.resolving_index)
    st.res_again = obs.second_pick
    st.lines = [list(line) for line in obs.lines]
    st.hands = [sum(1 << (r - 1) for r in h) for h in obs.hands]
    st.favours = [fav(f) for f in obs.favours]
    st.tickets = [tkt(t) for t in obs.tickets]
    st.sales = []
    for seat_sales in obs.sales:
        rows = []
        for what, visitor, coins in seat_sales:
            if what.startswith("favour:"):
                rows.append((1, take("f", FAVOUR_KEYS.index(what[7:])), take("v", vis_index(visitor)), coins))
            else:
                rows.append((0, take("t", tkt_index(what)), take("v", vis_index(visitor)), coins))
        st.sales.append(rows)
    st.fav_display = fav(obs.favour_display)
    st.forum = tkt(obs.forum)
    st.venue_vis = [vis(v) for v in obs.venues]
    st.bonus = list(obs.bonus)
    st.caesar_used = obs.caesar_used
    st.fav_deck = fav(obs.favour_deck)
    st.tkt_deck = tkt(obs.ticket_deck)
    st.vis_deck = vis(obs.visitor_deck)
    st.fav_gone = fav(obs.favours_out)
    st.vis_box = vis(obs.visitors_out)
    st.pending_visitor = take("v", vis_index(obs.pending_visitor)) if obs.pending_visitor else -1
    # a visitor waits to be placed only after the move that drew it, so the turn is then done:
    # after the placement the turn passes on, exactly as in the real state
    st.turn_done = st.pending_visitor >= 0
    st.vis_aside = free["v"] & d.caesar_mask if obs.caesar_used else 0
    st.draws = [tuple(t) for t in obs.draws]  # type: ignore[misc]
    st.setup_counts = list(obs.setup_tickets)
    st.totals = list(obs.scores)
    st.day_scores = [list(x) for x in obs.day_scores]
    st.past_sales = list(obs.past_sales)
    st.favour_coins = None if obs.favour_coins is None else list(obs.favour_coins)
    return st
