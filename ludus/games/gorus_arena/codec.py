"""Gorus Arena positions: a state as position JSON, and the checking reader of untrusted ones.

A position ("state" in :meth:`State.to_json`) lists every card where it lies, hidden ones
included. Positions come from outside (records, the web, the interop bridges), so the reader
checks every field and that the whole is a position the rules reach, and refuses anything
else with a RecordError naming the field; the writer and the reader sit together so that
they stay each other's inverse.
"""

from __future__ import annotations

from typing import Any

from ...core.bits import bits_list, mask_of
from ...core.errors import RecordError
from ...core.fields import required
from ...core.game import Game
from ...core.rng import Rng
from .actions import Income, read_int
from .cards import ARMOURY_MASK, GLADIATOR_MASK, MARKET_MASK, NUM_CARDS, STRENGTH, basics_of
from .events import event_codes, event_from_code, texts
from .options import GorusArenaOptions
from .rules import (
    DRAW,
    DRAW_COUNT,
    EXEC,
    HAND_LIMIT,
    MARKET_DRAW,
    OVER,
    PLAN,
    PLAN_SIZE,
    START_COINS,
    GorusArenaState,
)

__all__ = ["position_of", "position_to_state"]


def position_of(st: GorusArenaState) -> dict[str, Any]:
    """The game-specific part of the position JSON (``GorusArenaState._position``): every field,
    hidden ones included; ``event_codes`` where the log has events (a log read back as text only
    writes as it was read)."""
    out = {
        "round": st.round,
        "phase": st.phase,
        "start": st.start,
        "coins": st.coins[:],
        "hand": [bits_list(m) for m in st.hand],
        "deck": [bits_list(m) for m in st.deck],
        "discard": [bits_list(m) for m in st.discard],
        "plan": [p[:] for p in st.plan],
        "ready": st.ready[:],
        "arena": [a[:] for a in st.arena],
        "acted": bits_list(st.acted),
        "shield": st.shield[:],
        "market": bits_list(st.market),
        "dead": bits_list(st.dead),
        "slot": st.slot,
        "order": st.order[:],
        "round_tied": st.round_tied,
        "tied": st.tied,
        "queue": [list(q) for q in st.queue],
        "pending": None if st.pending is None else list(st.pending),
        "draws": [t[:] for t in st.draws],
        "secret": st.secret,
        "events": texts(st.log),
        "step": st.step_from,
    }
    codes = event_codes(st.log)
    if any(code is not None for code in codes):
        out["event_codes"] = codes
    return out



def _cards(value: Any, what: str) -> list[int]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list of card ids")
    cards = [read_int(c, 0, NUM_CARDS, f"a card id in {what}") for c in value]
    if len(set(cards)) != len(cards):
        raise RecordError(f"{what} lists a card twice")
    return cards


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"{what} must be true or false, got {value!r:.40}")
    return value


def position_to_state(game: Game, options: GorusArenaOptions, rng: Rng | None, data: Any) -> GorusArenaState:
    """Inverse of :func:`position_of`. Every field is checked, and the whole must be a
    position the rules reach: each card in one place, plans, arena and draws that fit the phase,
    and the card about to act at the head of the queue; anything else raises RecordError."""
    if not isinstance(data, dict):
        raise RecordError("position 'state' must be an object")
    n = options.players
    st = GorusArenaState(game, options, rng)

    def per_seat(key: str) -> list:
        value = required(data, key)
        if not isinstance(value, list) or len(value) != n:
            raise RecordError(f"position '{key}' must have one entry per seat ({n})")
        return value

    st.round = read_int(required(data, "round"), 1, options.rounds + 1, "round")
    st.phase = required(data, "phase")
    if not isinstance(st.phase, str) or st.phase not in (PLAN, EXEC, DRAW, OVER):
        raise RecordError(f"unknown phase {st.phase!r:.40} (one of {PLAN}, {EXEC}, {DRAW}, {OVER})")
    st.start = read_int(required(data, "start"), 0, n, "position 'start'")
    st.coins = [read_int(c, 0, 10_000, "position 'coins'") for c in per_seat("coins")]
    st.hand = [mask_of(_cards(h, "position 'hand'")) for h in per_seat("hand")]
    st.deck = [mask_of(_cards(h, "position 'deck'")) for h in per_seat("deck")]
    st.discard = [mask_of(_cards(h, "position 'discard'")) for h in per_seat("discard")]
    st.plan = [_cards(p, "position 'plan'") for p in per_seat("plan")]
    st.ready = [_flag(r, "position 'ready'") for r in per_seat("ready")]
    st.arena = [_cards(a, "position 'arena'") for a in per_seat("arena")]
    st.acted = mask_of(_cards(required(data, "acted"), "position 'acted'"))
    st.shield = [read_int(s, 0, max(STRENGTH) + 1, "position 'shield'") for s in per_seat("shield")]
    st.market = mask_of(_cards(required(data, "market"), "position 'market'"))
    st.dead = mask_of(_cards(required(data, "dead"), "position 'dead'"))
    st.slot = read_int(required(data, "slot"), -1, PLAN_SIZE, "position 'slot'")
    order = required(data, "order")
    if not isinstance(order, list):
        raise RecordError("position 'order' must be a list of seats")
    st.order = [read_int(s, 0, n, "position 'order'") for s in order]
    st.round_tied = _flag(required(data, "round_tied"), "position 'round_tied'")
    st.tied = _flag(required(data, "tied"), "position 'tied'")
    queue = required(data, "queue")
    if not isinstance(queue, list) or not all(isinstance(q, list) and len(q) == 2 for q in queue):
        raise RecordError("position 'queue' must be a list of [seat, card]")
    st.queue = [(read_int(s, 0, n, "position 'queue' seat"), read_int(c, 0, NUM_CARDS, "position 'queue' card"))
                for s, c in queue]
    pending = required(data, "pending")
    if pending is not None and not (isinstance(pending, list) and len(pending) == 2):
        raise RecordError("position 'pending' must be [seat, card] or null")
    st.pending = None if pending is None else (read_int(pending[0], 0, n, "position 'pending' seat"),
                                                read_int(pending[1], 0, NUM_CARDS, "position 'pending' card"))
    draws = required(data, "draws")
    if not isinstance(draws, list) or not all(isinstance(t, list) and len(t) == 4 for t in draws):
        raise RecordError("position 'draws' must be a list of [seat, source, still to draw, drawn]")
    st.draws = []
    for seat, source, left, drawn in draws:
        if source not in ("own", "market"):
            raise RecordError(f"position 'draws': unknown draw source {source!r:.40}")
        most = DRAW_COUNT if source == "own" else MARKET_DRAW
        st.draws.append([read_int(seat, 0, n, "position 'draws' seat"), source,
                         read_int(left, 0, most + 1, "position 'draws' count"), read_int(drawn, 0, most + 1, "drawn")])
        if st.draws[-1][2] + st.draws[-1][3] > most:
            raise RecordError(f"position 'draws': a draw from the {source} pile takes at most {most} cards")
    st.secret = read_int(required(data, "secret"), 0, n * (PLAN_SIZE + 1) + 1, "position 'secret'")
    events = required(data, "events")
    if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
        raise RecordError("position 'events' must be a list of text lines")
    # the same lines language-neutrally, entry by entry (optional: older positions have text only);
    # a line without an entry, or whose entry does not word exactly as the line, stays text
    codes = data.get("event_codes", [])
    if not isinstance(codes, list):
        raise RecordError("position 'event_codes' must be a list, one entry per line of 'events'")
    st.log = [event_from_code(codes[i], line) if i < len(codes) else line for i, line in enumerate(events)]
    # where the latest choice's log lines begin; optional (older positions): then nothing is "latest"
    step = data.get("step", len(st.log))
    st.step_from = read_int(step, 0, len(st.log) + 1, "position 'step'")
    _check_cards(st)
    _check_phase(st)
    _check_setup(st)
    return st


def _check_setup(st: GorusArenaState) -> None:
    """Round 1 before anything was carried out is the setup the text fixes: every seat with 5
    coins and its own three basic gladiators (in hand or laid in its plan), empty piles, nobody
    dead and the whole market. Later the round's own checks apply, and a draw pile can only
    exist once a round has ended."""
    if st.round != 1 or st.phase not in (PLAN, EXEC):
        return
    n, o = st.n, st.options
    for s in range(n):
        if st.deck[s]:
            raise RecordError(f"position 'deck': seat {s + 1} has a draw pile in round 1 (every seat starts "
                              "with its three basic cards in hand and nothing to draw)")
        if st.discard[s]:
            raise RecordError(f"position 'discard': seat {s + 1} has discards in round 1 (cards are discarded "
                              "only at the end of a round)")
    if st.phase != PLAN:
        return
    for s in range(n):
        if st.hand[s] | mask_of(st.plan[s]) != basics_of(s):
            raise RecordError(f"position 'hand': seat {s + 1}'s hand and plan must be its three basic "
                              "gladiators (two Tired Fighters and a Slave) in round 1")
        if st.coins[s] != START_COINS:
            raise RecordError(f"position 'coins': seat {s + 1} has {st.coins[s]} coins, but every seat starts "
                              f"with {START_COINS}")
    if st.dead:
        raise RecordError("position 'dead': nobody is dead before round 1 is carried out")
    market = MARKET_MASK | (ARMOURY_MASK if o.armoury else 0)
    if st.market != market:
        raise RecordError(f"position 'market': round 1's planning starts with the whole market "
                          f"({market.bit_count()} cards in a game with armoury={str(o.armoury).lower()}), "
                          f"not {st.market.bit_count()}")


def _check_cards(st: GorusArenaState) -> None:
    """Each card of this game in exactly one place; a dead card nowhere but the arena it fell in."""
    n, o = st.n, st.options
    in_game = MARKET_MASK | (ARMOURY_MASK if o.armoury else 0)
    for s in range(n):
        in_game |= basics_of(s)
    places = [("market", st.market)]
    for s in range(n):
        places += [(f"seat {s + 1}'s hand", st.hand[s]), (f"seat {s + 1}'s draw pile", st.deck[s]),
                   (f"seat {s + 1}'s discards", st.discard[s]), (f"seat {s + 1}'s plan", mask_of(st.plan[s])),
                   (f"seat {s + 1}'s arena", mask_of(st.arena[s]))]
    seen = 0
    for name, mask in places:
        if mask & ~in_game:
            raise RecordError(f"position: {name} holds a card that is not in this game")
        if seen & mask:
            raise RecordError(f"position holds a card in two places ({name} and elsewhere)")
        seen |= mask
        if name.endswith("arena"):
            continue
        if mask & st.dead:
            raise RecordError(f"position: {name} holds a dead card")
    if st.dead & ~GLADIATOR_MASK or st.dead & ~in_game:
        raise RecordError("position 'dead' lists a card that is no gladiator of this game")
    if (seen | st.dead) != in_game:
        raise RecordError("position cards do not add up (a card of the game is nowhere)")
    for s in range(n):
        others = 0
        for t in range(n):
            if t != s:
                others |= basics_of(t)
        if st.owned(s) & others:
            raise RecordError(f"position: seat {s + 1} holds another seat's basic card")
        if st.hand[s].bit_count() > HAND_LIMIT:
            raise RecordError(f"position: seat {s + 1} holds more than {HAND_LIMIT} cards")


def _check_phase(st: GorusArenaState) -> None:
    """What the phase requires of the plans, the arena, the auction and the draws."""
    n, o, phase = st.n, st.options, st.phase
    first = o.first_player - 1
    if (o.starting_player == "fixed" and st.start != first) or (
            o.starting_player == "rotate" and st.start != (first + st.round - 1) % n):
        raise RecordError("position 'start' is not this round's starting player")
    if (phase == OVER and st.round != o.rounds) or (phase == DRAW and st.round >= o.rounds):
        raise RecordError("position 'round' does not fit the phase (the game ends after the last round)")
    if phase != EXEC:
        if any(st.arena) or st.acted or any(st.shield) or st.queue or st.order or st.pending is not None:
            raise RecordError(f"position phase {phase!r}: the arena, queue and auction must be empty")
        if st.slot != -1 or st.round_tied or st.tied:
            raise RecordError(f"position phase {phase!r}: 'slot' must be -1 and 'tied', 'round_tied' false")
    if phase != PLAN and (any(st.plan) or not all(st.ready) or st.secret):
        raise RecordError(f"position phase {phase!r}: plans are revealed ('plan' empty, 'ready' all true, "
                          "'secret' 0)")
    if phase != DRAW and st.draws:
        raise RecordError(f"position phase {phase!r}: 'draws' must be empty")
    if phase == PLAN:
        if all(st.ready):
            raise RecordError("position phase 'plan': some seat must still be planning")
        for s in range(n):
            held, planned = st.hand[s].bit_count(), len(st.plan[s])
            if held + planned > HAND_LIMIT:
                raise RecordError(f"position: seat {s + 1} has more than {HAND_LIMIT} cards in hand and plan")
            full = not held or planned >= PLAN_SIZE
            if st.ready[s] and not full and not (o.free_plan and planned):
                raise RecordError(f"position 'ready': seat {s + 1} has not finished its plan")
            if not st.ready[s] and (full or (not o.free_plan and held == 1)):
                raise RecordError(f"position 'ready': seat {s + 1}'s plan is complete")
        if st.secret > sum(map(len, st.plan)) + n:
            raise RecordError("position 'secret' counts more placements than were made")
    elif phase == EXEC:
        _check_exec(st)
    elif phase == DRAW:
        if not st.draws:
            raise RecordError("a drawing position needs pending draws")
        seat, source, left, _drawn = st.draws[0]
        pile = st.deck[seat] if source == "own" else st.market & GLADIATOR_MASK
        if not left or not pile:
            raise RecordError("position 'draws': the first draw must have a card to take")
        own = [t[0] for t in st.draws if t[1] == "own"]
        if len(set(own)) != len(own):
            raise RecordError("position 'draws': a seat draws from its own pile once a round")
        for i, (seat, source, left, drawn) in enumerate(st.draws):
            held = st.hand[seat].bit_count()
            if source == "own" and held + left > HAND_LIMIT:
                raise RecordError(f"position 'draws': seat {seat + 1} would hold more than {HAND_LIMIT} cards "
                                  f"({held} in hand and {left} still to draw)")
            if source == "market" and (i or held != drawn):
                raise RecordError(f"position 'draws': seat {seat + 1} takes from the market only with an empty "
                                  "hand, before anyone else draws")


def _check_exec(st: GorusArenaState) -> None:
    n, o = st.n, st.options
    if st.pending is None or not st.queue or st.queue[0] != st.pending:
        raise RecordError("position phase 'exec': 'pending' must be the card at the head of the queue")
    longest = max(len(a) for a in st.arena)
    if not 0 <= st.slot < longest:
        raise RecordError("position 'slot' must be a position of the revealed plans")
    seats = [s for s, _ in st.queue]
    if len(set(seats)) != len(seats):
        raise RecordError("position 'queue' lists a seat twice")
    for s, c in st.queue:
        if len(st.arena[s]) <= st.slot or st.arena[s][st.slot] != c:
            raise RecordError("position 'queue': each card must be its seat's card at the current slot")
    arena = 0
    for a in st.arena:
        arena |= mask_of(a)
    if st.acted & ~arena:
        raise RecordError("position 'acted' lists a card that is not in the arena")
    seat, card = st.pending
    if st.acted >> card & 1 or (st.dead >> card & 1 and not st.tied):
        raise RecordError("position 'pending': that card has acted already or is dead")
    if not any(type(a) is not Income for a in st.choices(seat, card)):
        raise RecordError("position 'pending': that card has no choice to make (it acts by itself)")
    if o.auction == "per-round":
        if sorted(st.order) != [s for s in range(n) if st.arena[s]]:
            raise RecordError("position 'order' must list each seat with revealed cards once")
    elif st.order or st.round_tied:
        raise RecordError("position 'order' and 'round_tied' belong to the per-round auction")
    if st.tied and (o.tie_resolution != "simultaneous" or (o.auction == "per-round" and not st.round_tied)):
        raise RecordError("position 'tied' does not fit the options")

