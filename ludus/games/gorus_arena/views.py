"""Gorus Arena observations: what one seat sees, and building it from a state.

A seat sees every public fact (coins, the arena, the market, the dead, the auction and the
log) and, of the cards out of sight, only its own; of the rivals' it sees counts and which
cards they own. :func:`observe` is the whole of the State's ``observation`` method, kept
here beside the class it fills; the sampler reads these fields back to deal the unknowns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.frozen import frozen_builder
from ...core.game import Observation
from .cards import COINS_PER_POINT, GLADIATOR_MASK, cards_of, points_of
from .events import EventLines, event_codes

if TYPE_CHECKING:
    from .rules import GorusArenaState

__all__ = ["EVENTS_SHOWN", "GorusArenaObservation", "observe"]

EVENTS_SHOWN = 40
"""How many of the last log lines an observation carries."""


@dataclass(frozen=True)
class GorusArenaObservation(Observation):
    """One seat's view. Card lists hold card ids (look them up in :mod:`.cards`).

    ``reserve`` is each seat's cards out of sight (hand, face-down plan and draw pile) as a
    set: who owns which card is public, only where it lies is not. ``held`` counts the hand,
    ``planned`` the face-down plan (cards are laid down in view) and ``deck_count`` the draw
    pile. ``hand``, ``plan`` and ``deck`` are filled for the viewing seat only. The last
    ``step_events`` lines of ``events`` are what the latest choice set off (with everything
    carried out automatically after it), public like the rest of the log. ``event_count`` is
    how many lines the log has had since the game began, so that a reader holding an older
    observation knows which of ``events`` are new (the terminal's narration). ``events`` reads
    as a tuple of text, worded on first read (:class:`~.events.EventLines`); JSON gives the same
    lines language-neutrally too, as ``event_codes`` (:func:`event_codes`), for a client that words
    them in its reader's language.
    """

    seat: int | None
    players: int
    round: int
    rounds: int
    phase: str
    start: int
    coins: tuple[int, ...]
    held: tuple[int, ...]
    planned: tuple[int, ...]
    deck_count: tuple[int, ...]
    reserve: tuple[tuple[int, ...], ...]
    discard: tuple[tuple[int, ...], ...]
    ready: tuple[bool, ...]
    arena: tuple[tuple[int, ...], ...]
    acted: tuple[int, ...]
    shield: tuple[int, ...]
    market: tuple[int, ...]
    dead: tuple[int, ...]
    slot: int
    order: tuple[int, ...]
    round_tied: bool
    tied: bool
    queue: tuple[tuple[int, int], ...]
    pending: tuple[int, int] | None
    draws: tuple[tuple[int, str, int, int], ...]
    scores: tuple[int, ...]
    hand: tuple[int, ...]
    plan: tuple[int, ...]
    deck: tuple[int, ...]
    events: Sequence[str]
    step_events: int
    event_count: int

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "round": self.round,
            "rounds": self.rounds,
            "phase": self.phase,
            "start": self.start,
            "coins": list(self.coins),
            "held": list(self.held),
            "planned": list(self.planned),
            "deck_count": list(self.deck_count),
            "reserve": [list(r) for r in self.reserve],
            "discard": [list(d) for d in self.discard],
            "ready": list(self.ready),
            "arena": [list(a) for a in self.arena],
            "acted": list(self.acted),
            "shield": list(self.shield),
            "market": list(self.market),
            "dead": list(self.dead),
            "slot": self.slot,
            "order": list(self.order),
            "round_tied": self.round_tied,
            "tied": self.tied,
            "queue": [list(q) for q in self.queue],
            "pending": None if self.pending is None else list(self.pending),
            "draws": [list(d) for d in self.draws],
            "scores": list(self.scores),
            "hand": list(self.hand),
            "plan": list(self.plan),
            "deck": list(self.deck),
            "events": list(self.events),
            "event_codes": event_codes(self.events),
            "step_events": self.step_events,
            "event_count": self.event_count,
        }


_build = frozen_builder(GorusArenaObservation)
"""``GorusArenaObservation(**values)`` without the frozen ``__init__`` (see :mod:`ludus.core.frozen`)."""


def observe(st: GorusArenaState, seat: int | None) -> GorusArenaObservation:
    """What ``seat`` sees of ``st`` (``None`` or an out-of-range seat: a spectator, no own cards).

    Built on every step of a search's heuristic rollouts, so card lists come from the shared
    :func:`~.cards.cards_of` tuples and the log is left unworded."""
    n = st.n
    me = seat if seat is not None and 0 <= seat < n else None  # the seat whose own cards are shown
    hand, deck, plan, log, discard, arena, coins = st.hand, st.deck, st.plan, st.log, st.discard, st.arena, st.coins
    reserve: list[tuple[int, ...]] = []
    scores: list[int] = []
    alive = GLADIATOR_MASK & ~st.dead
    for s in range(n):
        hidden = hand[s] | deck[s]
        for c in plan[s]:
            hidden |= 1 << c
        reserve.append(cards_of(hidden))  # ids are unique, so the mask's order is the sorted order
        owned = hidden | discard[s]
        for c in arena[s]:
            owned |= 1 << c
        scores.append(points_of(owned & alive) + coins[s] // COINS_PER_POINT)  # as GorusArenaState.score
    # every field, in declaration order (test_properties checks it with same_as_constructed)
    return _build({
        "seat": seat,
        "players": n,
        "round": st.round,
        "rounds": st.options.rounds,
        "phase": st.phase,
        "start": st.start,
        "coins": tuple(coins),
        "held": tuple([h.bit_count() for h in hand]),
        "planned": tuple(map(len, plan)),
        "deck_count": tuple([d.bit_count() for d in deck]),
        "reserve": tuple(reserve),
        "discard": tuple(map(cards_of, discard)),
        "ready": tuple(st.ready),
        "arena": tuple(map(tuple, arena)),
        "acted": cards_of(st.acted),
        "shield": tuple(st.shield),
        "market": cards_of(st.market),
        "dead": cards_of(st.dead),
        "slot": st.slot,
        "order": tuple(st.order),
        "round_tied": st.round_tied,
        "tied": st.tied,
        "queue": tuple(st.queue),
        "pending": st.pending,
        "draws": tuple(map(tuple, st.draws)),
        "scores": tuple(scores),
        "hand": cards_of(hand[me]) if me is not None else (),
        "plan": tuple(plan[me]) if me is not None else (),
        "deck": cards_of(deck[me]) if me is not None else (),
        "events": EventLines.of_slice(log[-EVENTS_SHOWN:]),
        "step_events": min(len(log) - st.step_from, EVENTS_SHOWN),
        "event_count": len(log),
    })

