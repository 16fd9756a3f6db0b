"""Helpers for the Circus Maximus tests: explicit deals, scripted turns, crafted positions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ludus.core.bits import iter_bits
from ludus.core.game import CHANCE, Action
from ludus.games.circus_maximus.actions import (
    DrawFavour,
    DrawTicket,
    DrawVisitor,
    Pass,
    Place,
    TakeTicket,
)
from ludus.games.circus_maximus.cards import FAVOUR_KEYS
from ludus.games.circus_maximus.game import GAME
from ludus.games.circus_maximus.rules import CircusMaximusState

YELLOW, RED, BLUE, GREEN, PURPLE = range(5)


def new(players: int = 4, caesar: bool = False, **opts: Any) -> CircusMaximusState:
    """A game with explicit chance (nothing dealt yet)."""
    return GAME.new_initial_state({"players": players, "caesar": caesar, **opts}, seed=None)


def deal(state: CircusMaximusState, favours: Iterable[str] = (), tickets: Iterable[str] = (),
         visitors: Iterable[str] = ()) -> CircusMaximusState:
    """Apply the given draws in the order the engine asks for them, then settle the rest.

    Favour draws come first, then tickets, then visitors (venue by venue); any draw not
    named is settled with the first possible outcome, so deals are reproducible.
    """
    queues = {DrawFavour: [DrawFavour(k) for k in favours], DrawTicket: [DrawTicket(k) for k in tickets],
              DrawVisitor: [DrawVisitor(k) for k in visitors]}
    while state.current_seats() == (CHANCE,):
        outcomes = [a for a, _ in state.chance_outcomes()]
        kind = type(outcomes[0])
        if queues[kind]:
            state.apply(queues[kind].pop(0), CHANCE)
        else:
            state.apply(outcomes[0], CHANCE)
    leftovers = [a for q in queues.values() for a in q]
    assert not leftovers, f"draws not used: {leftovers}"
    return state


def settle(state: CircusMaximusState) -> None:
    while state.current_seats() == (CHANCE,):
        state.apply(state.chance_outcomes()[0][0], CHANCE)


def play(state: CircusMaximusState, *moves: tuple[int, Action]) -> None:
    """Apply (seat, action) pairs, checking each is that seat's turn."""
    for seat, action in moves:
        assert state.current_seats() == (seat,), (
            f"expected seat {seat} to act before {action}, but {state.current_seats()} acts")
        state.apply(action, seat)


def all_pass(state: CircusMaximusState) -> None:
    """Everyone still placing passes (ends the current placement phase, nothing more)."""
    stage, day = state.stage, state.day
    while (state.stage == stage and state.day == day and not state.resolving and state.current_seats()
           and state.current_seats() != (CHANCE,)):
        state.apply(Pass())


def line(state: CircusMaximusState, key: str) -> list[tuple[int, int, int]]:
    from ludus.games.circus_maximus.actions import LINE_KEYS
    return list(state.lines[LINE_KEYS.index(key)])


def favour_keys(state: CircusMaximusState, seat: int) -> list[str]:
    d = state.data
    return [FAVOUR_KEYS[d.favour_kind_of[c]] for c in iter_bits(state.favours[seat])]


def ticket_keys(state: CircusMaximusState, seat: int) -> list[str]:
    d = state.data
    return [d.tickets[d.ticket_kind_of[c]].key for c in iter_bits(state.tickets[seat])]


def venue_visitors(state: CircusMaximusState, venue: int) -> list[str]:
    d = state.data
    return [d.visitors[d.visitor_kind_of[c]].key for c in iter_bits(state.venue_vis[venue])]


def give_favour(state: CircusMaximusState, seat: int, key: str) -> None:
    """Move one favour of kind ``key`` from the deck into ``seat``'s hand (test set-up only)."""
    d = state.data
    mask = state.fav_deck & d.favour_masks[FAVOUR_KEYS.index(key)]
    assert mask, f"no {key} left in the favour deck"
    card = mask & -mask
    state.fav_deck &= ~card
    state.favours[seat] |= card


def craft(players: int = 4, caesar: bool = False, *, hands: dict[int, list[int]] | None = None,
          favours: dict[int, list[str]] | None = None, tickets: dict[int, list[str]] | None = None,
          lines: dict[str, list[tuple[int, int, int]]] | None = None, venues: list[list[str]] | None = None,
          forum: list[str] = (), display: list[str] = (), **fields: Any) -> CircusMaximusState:
    """A position built from explicit zones and loaded through ``state_from_json``.

    Every card not placed anywhere goes to its deck; traders not in a line are in hand
    unless ``hands`` says otherwise. Scalars (stage, resolving, res_line, ...) pass through.
    """
    from ludus.games.circus_maximus.actions import LINE_KEYS
    base = new(players, caesar)
    d = base.data
    pos = base.to_json()
    st = pos["state"]
    free = {"f": d.all_favours & ~st["fav_gone"], "t": d.all_tickets, "v": d.all_visitors & ~st["vis_box"]}
    masks = {"f": d.favour_masks, "t": d.ticket_masks, "v": d.visitor_masks}
    index = {"f": FAVOUR_KEYS.index, "t": lambda k: d.ticket_index(k), "v": lambda k: d.visitor_index(k)}

    def take(kind: str, keys: Iterable[str]) -> int:
        out = 0
        for key in keys:
            m = free[kind] & masks[kind][index[kind](key)]
            assert m, f"no {key} card left to place"
            free[kind] &= ~(m & -m)
            out |= m & -m
        return out

    st["draws"] = []
    st["lines"] = [[list(e) for e in (lines or {}).get(k, [])] for k in LINE_KEYS]
    placed = [0] * players
    for ln in st["lines"]:
        for seat, rank, _eff in ln:
            placed[seat] |= 1 << (rank - 1)
    st["hands"] = [0xFF & ~placed[s] for s in range(players)]
    for seat, ranks in (hands or {}).items():
        st["hands"][seat] = sum(1 << (r - 1) for r in ranks)
    st["favours"] = [take("f", (favours or {}).get(s, [])) for s in range(players)]
    st["tickets"] = [take("t", (tickets or {}).get(s, [])) for s in range(players)]
    st["venue_vis"] = [take("v", v) for v in (venues or [[], [], []])]
    st["forum"] = take("t", forum)
    st["fav_display"] = take("f", display)
    st["fav_deck"], st["tkt_deck"], st["vis_deck"] = free["f"], free["t"], free["v"]
    st["stage"] = 1
    st.update(fields)
    _fit_the_setup(st, d, players, fields)
    days_done = 3 if st["stage"] == 4 else st["day"] - 1  # earlier days scored nothing, unless given
    if "day_scores" not in fields:
        st["day_scores"] = [[0] * players for _ in range(days_done)]
    if "past_sales" not in fields:
        st["past_sales"] = [[[] for _ in range(players)] for _ in range(days_done)]
    return GAME.state_from_json(pos)


def _fit_the_setup(st: dict[str, Any], d: Any, n: int, fields: dict[str, Any]) -> None:
    """Complete a crafted position to what the setup table fixes for its day (positions are
    checked against it): the regular and special-event ticket counts, and a favour deck holding
    what the days dealt leave, today's other favours on display in phase I or out of the game."""
    from ludus.core.bits import popcount

    stage = st["stage"]
    if "day" not in fields and stage == 1 and not st.get("resolving") and any(st["favours"]):
        st["day"] = 2  # favour cards in hand while the villa is open: taken on an earlier day
    day = st["day"]
    if "setup_counts" not in fields:
        st["setup_counts"] = [min(2 * n, popcount(d.all_tickets)), 0, 0]
    if "bonus" not in fields:
        st["bonus"] = [min(day, 3) - 1 if stage else 0, 0, 0]
    if "sp_at_villa" not in fields and not (stage == 1 and st.get("resolving")):
        st["sp_at_villa"] = stage <= 1
    if "fav_deck" in fields or "fav_gone" in fields:
        return
    start = popcount(d.all_favours & ~st["fav_gone"])
    before = min(start, (day - 1) * n)
    today = min(n, start - before)
    want = start - before - today
    assert popcount(st["fav_deck"]) >= want, "more favour cards handed out than the days dealt"
    showing = stage == 1 and not st.get("resolving")
    while popcount(st["fav_deck"]) > want:
        card = st["fav_deck"] & -st["fav_deck"]
        st["fav_deck"] -= card
        if showing and popcount(st["fav_display"]) < today:
            st["fav_display"] |= card
        else:
            st["fav_gone"] |= card


CIRCUS_HEAVY = ["circus:box", "circus:arena", "circus:balcony", "colosseum:box", "colosseum:arena", "theatre:box"]


def start(*favours: tuple[int, str], players: int = 3, **deal_args) -> object:
    """A dealt game (3 players unless said) in phase I with the given (seat, favour) cards in hand."""
    st = new(players)
    for seat, key in favours:
        give_favour(st, seat, key)
    return deal(st, **deal_args)


def at_circus_sale(*favours, tickets_for_0=("circus:box",), visitors=("legionnaire", "senator")):
    """Seat 0 holds ``tickets_for_0`` and stands first at the Circus; resolution is waiting for it."""
    st = start(*favours, tickets=CIRCUS_HEAVY, visitors=list(visitors))
    all_pass(st)
    for i, _t in enumerate(tickets_for_0):
        play(st, (0, Place(8 - i, "forum")))
        if i == 0:
            play(st, (1, Pass()), (2, Pass()))
    all_pass(st)
    for t in tickets_for_0:
        play(st, (0, TakeTicket(t)))
    play(st, (0, Place(3, "circus")))
    all_pass(st)
    assert st.current_seats() == (0,) and st.res_line == 2
    return st
