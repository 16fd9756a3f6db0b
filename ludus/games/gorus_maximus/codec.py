"""Gorus Maximus position codec: a state as position JSON, and the validating reader back.

Positions come from users and other programs, so the reader trusts nothing: every field is
checked, and the position as a whole must be one the rules can reach. Kept apart from the
rules because it is long and only the edges of the program (records, the server, interop)
use it.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from ...core.errors import RecordError
from ...core.fields import required, show, whole_number
from ...core.rng import Rng
from .cards import (
    CONTENDER,
    HAND_SIZE,
    NUM_SCHOOLS,
    PHASE_DEAL,
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_REVEAL,
    PHASE_SCHOOLS,
    SCHOOL_BY_CODE,
    SCHOOLS,
    _bits,
    _deck,
    card_code,
    parse_card,
    setup_for,
)
from .options import GorusMaximusOptions
from .rules import GorusMaximusState
from .views import RoundSummary

if TYPE_CHECKING:
    from .game import GorusMaximusGame

__all__ = ["position_to_state", "state_to_position"]


def state_to_position(state: GorusMaximusState) -> dict[str, Any]:
    """The game-specific part of a state's position JSON (``GorusMaximusState._position``)."""

    def cards(mask: int) -> list[str]:
        return [card_code(c) for c in _bits(mask)]

    return {
        "phase": state.phase,
        "round": state.round,
        "dealer": state.dealer,
        "schools": [SCHOOLS[s].code for s in state.schools],
        "support": list(state.support),
        "hands": [cards(h) for h in state.hands],
        "stock": cards(state.stock),
        "dealt": state.dealt,
        "collected": [cards(m) for m in state.collected],
        "collected_count": list(state.collected_count),
        "bout": [[a, card_code(c)] for a, c in state.bout],
        "turn": state.turn,
        "initiating": state.initiating,
        "preferred": state.preferred,
        "previous_bout": [[a, card_code(c)] for a, c in state.previous_bout],
        "previous_winner": state.previous_winner,
        "drawer": state.drawer,
        "last_round": None if state.last_round is None else state.last_round.to_json(),
        "winning_sides": list(state.winning_sides),
    }


_PHASES = (PHASE_SCHOOLS, PHASE_DEAL, PHASE_PLAY, PHASE_DRAW, PHASE_REVEAL, PHASE_OVER)
_MAX_ROUND = 100_000
"""Rounds a position may have reached (a play-on final tie can add rounds, but not without end)."""


def _int_in(value: Any, what: str, lo: int, hi: int) -> int:
    return whole_number(value, f"position field {what!r}", lo, hi)


def _list_of(value: Any, what: str, size: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"position field {what!r} must be a list, not {show(value, 40)}")
    if size is not None and len(value) != size:
        raise RecordError(f"position field {what!r} must have {size} entries, not {len(value)}")
    return value


def _school_in(value: Any, what: str) -> int:
    school = SCHOOL_BY_CODE.get(value) if isinstance(value, str) else None
    if school is None:
        raise RecordError(f"position field {what!r}: {show(value, 40)} is not a school code")
    return school.index


def _card_in(value: Any, what: str, deck: int) -> int:
    try:
        c = parse_card(value)
    except ValueError:
        raise RecordError(f"position field {what!r}: {show(value, 40)} is not a card") from None
    if card_code(c) != value:
        raise RecordError(f"position field {what!r}: write the card {show(value, 40)} as {card_code(c)}")
    if not deck >> c & 1:
        raise RecordError(f"position field {what!r}: {value} is not in this game's deck")
    return c


def _cards_in(value: Any, what: str, deck: int) -> int:
    mask = 0
    for code in _list_of(value, what):
        c = _card_in(code, what, deck)
        if mask >> c & 1:
            raise RecordError(f"position field {what!r} lists {code} twice")
        mask |= 1 << c
    return mask


def _bout_in(value: Any, what: str, deck: int, actors: frozenset[int]) -> list[tuple[int, int]]:
    out = []
    for entry in _list_of(value, what):
        if not isinstance(entry, list) or len(entry) != 2:
            raise RecordError(f"position field {what!r}: each card is [actor, card], not {show(entry, 40)}")
        actor = entry[0]
        if not isinstance(actor, int) or isinstance(actor, bool) or actor not in actors:
            raise RecordError(f"position field {what!r}: {show(actor, 40)} is not an actor of this game")
        out.append((actor, _card_in(entry[1], what, deck)))
    if len({c for _, c in out}) != len(out):
        raise RecordError(f"position field {what!r} holds a card twice")
    return out


def _round_summary(lr: Any, st: GorusMaximusState, deck: int) -> RoundSummary:
    if not isinstance(lr, dict):
        raise RecordError("position field 'last_round' must be an object or null")
    sides = st.num_sides
    rnd = _int_in(required(lr, "round"), "last_round.round", 1, _MAX_ROUND)
    preferred = _school_in(required(lr, "preferred"), "last_round.preferred")
    if preferred not in st.schools:
        raise RecordError("position field 'last_round.preferred' is not a school in play")
    cf = tuple(_int_in(x, "last_round.crowd_favour", -(10**6), 10**6)
               for x in _list_of(required(lr, "crowd_favour"), "last_round.crowd_favour", sides))
    counts = tuple(_int_in(x, "last_round.collected_counts", 0, NUM_SCHOOLS * 16)
                   for x in _list_of(required(lr, "collected_counts"), "last_round.collected_counts", sides))
    if sum(counts) != deck.bit_count():
        raise RecordError("position field 'last_round.collected_counts' does not add up to the deck")
    gained = tuple(_int_in(x, "last_round.support_gained", 0, 1)
                   for x in _list_of(required(lr, "support_gained"), "last_round.support_gained", sides))
    pz = required(lr, "preferred_zero_side")
    if pz is not None:
        _int_in(pz, "last_round.preferred_zero_side", 0, sides - 1)
    no_eight = required(lr, "no_eight")
    if not isinstance(no_eight, bool) or (no_eight and not st.solo):
        raise RecordError("position field 'last_round.no_eight' must be true or false (always false "
                          "outside solo play)")
    return RoundSummary(rnd, preferred, cf, counts, gained, pz, no_eight)


def position_to_state(game: GorusMaximusGame, options: GorusMaximusOptions, rng: Rng | None,
                       data: Any) -> GorusMaximusState:
    """Inverse of :func:`state_to_position`: every field is checked, and the position as
    a whole must be one the rules can reach (each card in one place, hand sizes that fit the
    bouts played, a bout that fits the phase); anything else raises RecordError."""
    if not isinstance(data, dict):
        raise RecordError("position 'state' must be an object")
    st = GorusMaximusState(game, options, rng)
    n, sides, solo = st.n, st.num_sides, st.solo
    phase = required(data, "phase")
    if not isinstance(phase, str) or phase not in _PHASES:
        raise RecordError(f"position field 'phase' must be one of {', '.join(_PHASES)}, not {show(phase, 40)}")
    st.phase = phase
    st.round = _int_in(required(data, "round"), "round", 1, _MAX_ROUND)
    st.dealer = _int_in(required(data, "dealer"), "dealer", 0, n - 1)
    first_dealer = options.first_dealer if options.first_dealer >= 0 else n - 1
    if st.dealer != (first_dealer + st.round - 1) % n:
        raise RecordError(f"position field 'dealer': in round {st.round} the dealer is seat "
                          f"{(first_dealer + st.round - 1) % n}, not {st.dealer}")
    fixed = options.school_indices()
    codes = _list_of(required(data, "schools"), "schools")
    schools = tuple(sorted(_school_in(c, "schools") for c in codes))
    if len(set(schools)) != len(schools):
        raise RecordError("position field 'schools' lists a school twice")
    if phase == PHASE_SCHOOLS:
        if fixed is not None:
            raise RecordError("position phase 'schools': these options fix the schools in play")
        if schools:
            raise RecordError("position field 'schools' must be empty before the schools are chosen")
    elif len(schools) != setup_for(n).schools:
        raise RecordError(f"position field 'schools' must list {setup_for(n).schools} schools for {n} "
                          f"player(s), not {len(schools)}")
    elif fixed is not None and schools != fixed:
        raise RecordError("position field 'schools' differs from the schools the options fix")
    st.schools = schools
    deck = _deck(schools, st.ranks) if schools else 0
    st.support = [_int_in(x, "support", 0, _MAX_ROUND) for x in _list_of(required(data, "support"), "support", sides)]
    st.hands = [_cards_in(h, "hands", deck) for h in _list_of(required(data, "hands"), "hands", n)]
    st.stock = _cards_in(required(data, "stock"), "stock", deck)
    total = HAND_SIZE if solo else HAND_SIZE * n
    st.dealt = _int_in(required(data, "dealt"), "dealt", 0, total)
    st.collected = [_cards_in(m, "collected", deck) for m in _list_of(required(data, "collected"), "collected", sides)]
    st.collected_count = [_int_in(x, "collected_count", 0, NUM_SCHOOLS * 16)
                          for x in _list_of(required(data, "collected_count"), "collected_count", sides)]
    if st.collected_count != [m.bit_count() for m in st.collected]:
        raise RecordError("position field 'collected_count' must give the number of cards in each 'collected' pile")
    actors = frozenset((0, CONTENDER) if solo else range(n))
    st.bout = _bout_in(required(data, "bout"), "bout", deck, actors)
    st.turn = _int_in(required(data, "turn"), "turn", -1, n - 1)
    st.initiating = _int_in(required(data, "initiating"), "initiating", -1, NUM_SCHOOLS - 1)
    st.preferred = _int_in(required(data, "preferred"), "preferred", -1, NUM_SCHOOLS - 1)
    st.previous_bout = tuple(_bout_in(required(data, "previous_bout"), "previous_bout", deck, actors))
    pw = required(data, "previous_winner")
    if pw is not None and (not isinstance(pw, int) or isinstance(pw, bool) or pw not in actors):
        raise RecordError(f"position field 'previous_winner': {show(pw, 40)} is not an actor of this game")
    st.previous_winner = pw
    st.drawer = _int_in(required(data, "drawer"), "drawer", -1, n - 1)
    lr = required(data, "last_round")
    st.last_round = None if lr is None else _round_summary(lr, st, deck)
    winning = _list_of(required(data, "winning_sides"), "winning_sides")
    st.winning_sides = tuple(_int_in(x, "winning_sides", 0, sides - 1) for x in winning)
    _check_position(st, deck, total)
    return st


def _check_position(st: GorusMaximusState, deck: int, total: int) -> None:
    """The whole-position rules of :func:`position_to_state` (fields are already in range)."""
    n, solo, phase = st.n, st.solo, st.phase
    over = phase == PHASE_OVER
    # every card of the deck in exactly one place
    seen = st.stock
    bout_mask = sum(1 << c for _, c in st.bout)
    for m in [*st.hands, *st.collected, bout_mask]:
        if seen & m:
            raise RecordError("position holds a card in two places")
        seen |= m
    if seen != deck:  # the setup table's deck for this player count, less what is elsewhere
        missing = " ".join(card_code(c) for c in _bits(deck & ~seen))
        raise RecordError(f"position field 'stock': the stock, hands, collected piles and bout do not add up "
                          f"to the deck for {n} player(s): {missing} is in none of them")
    # the score
    done = st.round if over else st.round - 1
    if any(x > done for x in st.support):
        raise RecordError(f"position field 'support': no side can have gained more than {done} after "
                          f"{done} round(s)")
    if (st.last_round is None) != (done == 0):
        raise RecordError("position field 'last_round' is null exactly before the first round ends")
    if st.last_round is not None and st.last_round.round != done:
        raise RecordError(f"position field 'last_round.round' must be {done}")
    if over:
        if not st.winning_sides or list(st.winning_sides) != sorted(set(st.winning_sides)):
            raise RecordError("position field 'winning_sides' must list the winners once each, in order")
        if any(st.support[s] < st.targets[s] for s in st.winning_sides):
            raise RecordError("position field 'winning_sides' names a side short of its target")
    else:
        if st.winning_sides:
            raise RecordError("position field 'winning_sides' must be empty before the game is over")
        if st.options.final_tie == "shared" and any(x >= t for x, t in zip(st.support, st.targets)):
            raise RecordError("position field 'support': a side has reached its target, so the game is over")
    if phase != PHASE_DRAW and st.drawer != -1:
        raise RecordError("position field 'drawer' must be -1 except while a card is drawn")
    played = sum(st.collected_count)
    if phase in (PHASE_SCHOOLS, PHASE_DEAL):
        if played or st.bout or st.previous_bout or st.previous_winner is not None:
            raise RecordError(f"position phase {phase!r}: no card can have been played yet this round")
        if st.initiating != -1 or st.preferred != -1:
            raise RecordError(f"position phase {phase!r}: fields 'initiating' and 'preferred' must be -1")
        dealt = sum(h.bit_count() for h in st.hands)
        if st.dealt != dealt or dealt >= total:
            raise RecordError("position field 'dealt' must count the cards in the hands (fewer than a full deal)")
        if phase == PHASE_SCHOOLS and (dealt or st.round != 1):
            raise RecordError("position phase 'schools' comes only before the first deal")
        if not solo:
            for k in range(n):
                seat = (st.dealer + 1 + k) % n
                if st.hands[seat].bit_count() != dealt // n + (k < dealt % n):
                    raise RecordError(f"position field 'hands': seat {seat} holds the wrong number of cards "
                                      f"for {dealt} dealt")
        return
    if st.dealt != total:
        raise RecordError(f"position field 'dealt' must be {total} once the deal is over")
    size = st._bout_size()
    if over:
        if any(st.hands) or st.stock or st.bout:
            raise RecordError("position phase 'over': every card must be collected")
        if st.turn != -1:
            raise RecordError("position phase 'over': field 'turn' must be -1")
        assert st.last_round is not None
        if st.preferred != st.last_round.preferred or st.initiating != -1:
            raise RecordError("position phase 'over': 'preferred' must be the last round's, 'initiating' -1")
    if played % size:
        raise RecordError("position field 'collected' must hold whole bouts")
    bouts = played // size
    # the bout in progress and the one before it
    if (st.previous_bout and not bouts) or (st.previous_winner is None) != (not st.previous_bout):
        raise RecordError("position fields 'previous_bout' and 'previous_winner' give the last bout "
                          "(if any was played this round) and who won it")
    if st.previous_bout:
        _check_bout_order(st, list(st.previous_bout), "previous_bout", complete=True)
        pw = st.previous_winner
        if pw not in [a for a, _ in st.previous_bout]:
            raise RecordError("position field 'previous_winner' did not play in the previous bout")
        side = 1 if pw == CONTENDER else st.side_of_seat[pw]
        if sum(1 << c for _, c in st.previous_bout) & ~st.collected[side]:
            raise RecordError("position field 'previous_bout': its cards must be in the winner's collected pile")
    if over:
        return
    if not played and not st.bout:
        if st.preferred != -1:
            raise RecordError("position field 'preferred' must be -1 before the round's first card")
    elif st.preferred not in st.schools:
        raise RecordError("position field 'preferred' must be a school in play once a card is played")
    if st.bout:
        if st.initiating != st.bout[0][1] >> 4:
            raise RecordError("position field 'initiating' must be the school of the bout's first card")
    elif st.initiating != -1:
        raise RecordError("position field 'initiating' must be -1 between bouts")
    _check_bout_order(st, st.bout, "bout", complete=False)
    in_bout = {a for a, _ in st.bout}
    if solo:
        shape = [a for a, _ in st.bout]
        if phase == PHASE_PLAY and shape != [CONTENDER]:
            raise RecordError("position phase 'play' (solo): the bout holds exactly the contender's first card")
        if phase == PHASE_REVEAL and shape not in ([], [CONTENDER, 0]):
            raise RecordError("position phase 'reveal' (solo): the bout is empty or holds a contender "
                              "card and yours")
        if phase == PHASE_DRAW:
            raise RecordError("position phase 'draw' happens only with 2 players")
        if phase == PHASE_PLAY and st.turn != 0:
            raise RecordError("position field 'turn' must be 0 in solo play")
        if st.hands[0].bit_count() != HAND_SIZE - bouts - (0 in in_bout):
            raise RecordError("position field 'hands' does not fit the bouts played")
        if phase == PHASE_REVEAL and not st.stock:
            raise RecordError("position phase 'reveal' needs a contender card in the stock")
    else:
        if phase == PHASE_REVEAL:
            raise RecordError("position phase 'reveal' happens only in solo play")
        # who leads: the last bout's winner, the dealer's left-hand neighbour in the first bout,
        # or (a position written without its previous bout) whoever played first
        leader = st.previous_winner if st.previous_bout else (st.dealer + 1) % n if not bouts else None
        if st.bout:
            leader = st.bout[0][0] if leader is None else leader
            if st.bout[0][0] != leader:
                raise RecordError(f"position field 'bout': seat {leader} leads this bout")
        if phase == PHASE_PLAY:
            next_seat = st.turn if leader is None else (leader + len(st.bout)) % n
            if len(st.bout) >= n or st.turn != next_seat:
                raise RecordError(f"position field 'turn' must be seat {next_seat}, the next in the bout")
        else:  # a 2-player draw after a card
            if not st.two_player or not st.bout or not st.stock:
                raise RecordError("position phase 'draw' needs 2 players, a card in the bout and a stock")
            if st.turn != st.bout[-1][0] or st.drawer != st.turn:
                raise RecordError("position fields 'turn' and 'drawer' must be the seat that played last")
        for s in range(n):
            played_s = bouts + (s in in_bout)
            held = HAND_SIZE - played_s
            if st.two_player:  # a card drawn after each of the first 10 played, while the stock lasts
                held += min(played_s, 5) - (phase == PHASE_DRAW and s == st.drawer)
            if st.hands[s].bit_count() != held:
                raise RecordError(f"position field 'hands': seat {s} must hold {held} cards after the bouts played")
    if phase == PHASE_PLAY and not st.hands[st.turn]:
        raise RecordError("position phase 'play': the seat to move has no card")
    if st.bout:
        st.top_actor, st.top = st._bout_winner()


def _check_bout_order(st: GorusMaximusState, bout: list[tuple[int, int]], what: str, complete: bool) -> None:
    """Actors of a bout in playing order: contender, player, contender in solo play; otherwise
    seats one after another round the table."""
    actors = [a for a, _ in bout]
    if complete and len(actors) != st._bout_size():
        raise RecordError(f"position field {what!r} must hold a whole bout")
    if st.solo:
        if actors != [CONTENDER, 0, CONTENDER][: len(actors)]:
            raise RecordError(f"position field {what!r}: a solo bout is contender, you, contender")
    elif any(b != (a + 1) % st.n for a, b in itertools.pairwise(actors)) or len(actors) > st.n:
        raise RecordError(f"position field {what!r}: seats play in turn round the table")

