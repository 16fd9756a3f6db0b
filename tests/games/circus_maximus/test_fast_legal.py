"""Legal moves generated directly give exactly the old lists, in the same order.

Before issue #17 the engine built a superset of candidate moves and kept those its refusal
checks (``_check``, the path that explains illegal moves) passed. That generator is kept here,
as it was, as the reference: over thousands of positions of random seeded games in every
option combination, the engine's ``legal_actions`` must equal it, and the engine's cheap
"can this seat do more than pass" must agree with asking the reference.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from ludus.core.game import CHANCE, Action
from ludus.core.rng import Rng
from ludus.games.circus_maximus.actions import (
    LINE_KEYS,
    Done,
    Pass,
    Place,
    PlaceVisitor,
    PlayExtraVisitor,
    PlayMoveAhead,
    PlayReplay,
    PlayTicketVisitor,
    Sell,
    Skip,
    TakeFavour,
    TakeStart,
    TakeTicket,
)
from ludus.games.circus_maximus.cards import FAVOUR_KEYS, VENUE_KEYS
from ludus.games.circus_maximus.game import GAME
from ludus.games.circus_maximus.heuristic import CircusMaximusHeuristic
from ludus.games.circus_maximus.rules import (
    F_DOUBLE_SALE,
    F_DOUBLE_TICKET,
    F_EXTRA_TRADER,
    F_EXTRA_VISITOR,
    F_LEGIONNAIRE,
    F_MOVE_AHEAD,
    F_RANK_BOOST,
    F_REPLAY,
    F_TICKET_VISITOR,
    CircusMaximusState,
    _phase_lines,
)

OPTIONS = [{"players": p, "caesar": c, "start_card": s}
           for p, c, s in itertools.product((3, 4, 5), (False, True), ("instead", "extra-pick"))]


def old_candidates(self: CircusMaximusState, seat: int) -> list[Action]:
    """The engine's candidate moves before issue #17 (a superset of the legal ones), verbatim."""
    d = self.data
    kind = self._decision()
    out: list[Action] = []
    if kind == "place":
        hand = self.hands[seat]
        lines = [LINE_KEYS[li] for li in _phase_lines(self.stage)]
        extras = (False, True) if self._held(seat, F_EXTRA_TRADER) else (False,)
        boosts = (False, True) if self._held(seat, F_RANK_BOOST) else (False,)
        for rank in range(1, 9):
            if hand >> (rank - 1) & 1:
                for line in lines:
                    for e in extras:
                        for b in boosts if rank == 1 else (False,):
                            out.append(Place(rank, line, e, b))
        if self.extra:
            out.append(Done())
            return out
        out.append(Pass())
        if self._held(seat, F_EXTRA_VISITOR):
            out.append(PlayExtraVisitor())
        if self._held(seat, F_REPLAY):
            for rank in range(1, 9):
                for line in lines:
                    out.append(PlayReplay(rank, line))
        if self._held(seat, F_TICKET_VISITOR):
            out.append(PlayTicketVisitor())
        if self._held(seat, F_MOVE_AHEAD):
            for li in _phase_lines(self.stage):
                for s, r, _e in self.lines[li][1:]:
                    if s == seat:
                        out.append(PlayMoveAhead(r))
    elif kind == "visitor":
        out.extend(PlaceVisitor(v) for v in VENUE_KEYS)
    elif kind == "villa":
        for k in range(len(d.favours)):
            if self.fav_display & d.favour_masks[k]:
                out.append(TakeFavour(FAVOUR_KEYS[k]))
        out.append(TakeStart())
    elif kind == "forum":
        doubles = (False, True) if self._held(seat, F_DOUBLE_TICKET) else (False,)
        for k, t in enumerate(d.tickets):
            if self.forum & d.ticket_masks[k]:
                for dbl in doubles:
                    out.append(TakeTicket(t.key, dbl))
    elif kind == "venue":
        v = self.res_line - 2
        sellers: list[tuple[str | None, str | None]] = []
        for k, t in enumerate(d.tickets):
            if t.venue == v and self.tickets[seat] & d.ticket_masks[k]:
                sellers.append((t.key, None))
        if self._caesar_here(v):
            for k in range(len(d.favours)):
                if self.favours[seat] & d.favour_masks[k]:
                    sellers.append((None, FAVOUR_KEYS[k]))
        legions = (False, True) if self._held(seat, F_LEGIONNAIRE) else (False,)
        doubles = (False, True) if self._held(seat, F_DOUBLE_SALE) else (False,)
        for k, vk in enumerate(d.visitors):
            if self._sellable(v) & d.visitor_masks[k]:
                for ticket, favour in sellers:
                    for lg in legions if k == d.legionnaire_kind else (False,):
                        for dbl in doubles:
                            out.append(Sell(vk.key, ticket, favour, lg, dbl))
        out.append(Skip())
    return out


def old_legal(state: CircusMaximusState, seat: int) -> list[Action]:
    """``legal_actions`` before issue #17: the candidates the refusal checks let through."""
    if state._acting_seat(seat) is None:
        return []
    return [a for a in old_candidates(state, seat) if state.why_illegal(a, seat) is None]


def _favour_rich(state: CircusMaximusState, rng: Rng) -> CircusMaximusState:
    """A copy where the seat to act also holds favour cards still in the deck (some of every kind
    when the deck has them), so the favour moves and their combinations come up often."""
    copy = state.clone()
    seat = copy.current_seats()[0]
    for mask in copy.data.favour_masks:
        cards = copy.fav_deck & mask
        while cards and rng.below(3):
            card = cards & -cards
            copy.fav_deck &= ~card
            copy.favours[seat] |= card
            cards &= ~card
    assert copy.check_cards() is None
    return copy


def _positions(options: dict, games: int, heuristic: bool = False):
    """Every player decision of seeded games (random moves, or heuristic bots in every seat)."""
    for g in range(games):
        seed = 7_000 + 97 * g + options["players"]
        state = GAME.new_initial_state(options, seed=seed)
        rng = Rng(seed)
        bots = [CircusMaximusHeuristic(seed + s) for s in range(state.n)] if heuristic else []
        while seats := state.current_seats():
            seat = seats[0]
            assert seat != CHANCE
            yield state, seat
            legal = state.legal_actions(seat)
            state.apply(bots[seat].act(state.view(seat)) if bots else rng.choice(legal), seat)


def _kind(a: Action) -> str:
    """The move's class, "+" with any favour played along, "/favour" for a seat beside Caesar."""
    played = any(getattr(a, f, False) for f in ("double", "legion", "extra", "boost"))
    return type(a).__name__ + ("+" if played else "") + ("/favour" if isinstance(a, Sell) and a.favour else "")


def _same(state: CircusMaximusState, seat: int, kinds: Counter) -> None:
    new = state.legal_actions(seat)
    old = old_legal(state, seat)
    assert new == old, (state.to_json(), seat)
    assert isinstance(new, list)
    kinds.update(_kind(a) for a in new)
    for other in range(state.n):  # a seat not to act has no moves, by both ways
        if other != seat:
            assert state.legal_actions(other) == old_legal(state, other) == []


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_legal_moves_match_the_old_generator(options) -> None:
    kinds: Counter = Counter()
    rng = Rng(options["players"])
    positions = 0
    for state, seat in itertools.chain(_positions(options, 12), _positions(options, 2, heuristic=True)):
        _same(state, seat, kinds)
        positions += 1
        if positions % 3 == 0:
            rich = _favour_rich(state, rng)
            _same(rich, seat, kinds)
    assert positions > 1500
    # the comparison saw every kind of move, the favour variants included
    expected = {"Place", "Place+", "Pass", "Done", "PlayExtraVisitor", "PlaceVisitor", "PlayReplay",
                "PlayTicketVisitor", "PlayMoveAhead", "TakeFavour", "TakeStart", "TakeTicket", "TakeTicket+",
                "Sell", "Sell+"}
    if options["caesar"]:  # only beside Caesar can a trader holding no ticket for the venue stop there
        expected |= {"Skip", "Sell/favour", "Sell+/favour"}
    assert expected <= set(kinds), expected - set(kinds)


@pytest.mark.parametrize("options", OPTIONS[::3], ids=lambda o: "-".join(map(str, o.values())))
def test_can_do_more_matches_the_old_question(options) -> None:
    """``_seek_turn`` asks ``_can_do_more``; before, it asked whether the legal moves held
    anything but Pass. Both answers agree for every seat still in the phase."""
    rng = Rng(11)
    asked = Counter()
    for state, _seat in _positions(options, 8):
        if state.resolving or state.pending_visitor >= 0 or state.extra:
            continue
        for base in (state, _favour_rich(state, rng)):
            for s in range(base.n):
                if base.passed >> s & 1:
                    continue
                copy = base.clone()
                copy.turn = s
                old = any(not isinstance(a, Pass) for a in old_legal(copy, s))
                assert copy._can_do_more(s) == old
                asked[old] += 1
    assert asked[True] > 100 and asked[False] > 10
