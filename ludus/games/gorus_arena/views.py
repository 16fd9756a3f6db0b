"""Gorus Arena observations: what one seat sees, and building it from a state.

A seat sees every public fact (coins, the arena, the market, the dead, the auction and the
log) and, of the cards out of sight, only its own; of the rivals' it sees counts and which
cards they own. :func:`observe` is the whole of the State's ``observation`` method, kept
here beside the class it fills; the sampler reads these fields back to deal the unknowns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.bits import bits_list
from ...core.frozen import frozen_builder
from ...core.game import Observation

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
    observation knows which of ``events`` are new (the terminal's narration).
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
    events: tuple[str, ...]
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
            "step_events": self.step_events,
            "event_count": self.event_count,
        }


_build = frozen_builder(GorusArenaObservation)
"""``GorusArenaObservation(**values)`` without the frozen ``__init__`` (see :mod:`ludus.core.frozen`)."""


def observe(st: GorusArenaState, seat: int | None) -> GorusArenaObservation:
    """What ``seat`` sees of ``st`` (``None`` or an out-of-range seat: a spectator, no own cards)."""
    n = st.n
    me = seat if seat is not None and 0 <= seat < n else None  # the seat whose own cards are shown
    # every field, in declaration order (test_properties checks it with same_as_constructed)
    return _build({
        "seat": seat,
        "players": n,
        "round": st.round,
        "rounds": st.options.rounds,
        "phase": st.phase,
        "start": st.start,
        "coins": tuple(st.coins),
        "held": tuple(h.bit_count() for h in st.hand),
        "planned": tuple(len(p) for p in st.plan),
        "deck_count": tuple(d.bit_count() for d in st.deck),
        "reserve": tuple(
            tuple(sorted(bits_list(st.hand[s] | st.deck[s]) + st.plan[s])) for s in range(n)
        ),
        "discard": tuple(tuple(bits_list(d)) for d in st.discard),
        "ready": tuple(st.ready),
        "arena": tuple(tuple(a) for a in st.arena),
        "acted": tuple(bits_list(st.acted)),
        "shield": tuple(st.shield),
        "market": tuple(bits_list(st.market)),
        "dead": tuple(bits_list(st.dead)),
        "slot": st.slot,
        "order": tuple(st.order),
        "round_tied": st.round_tied,
        "tied": st.tied,
        "queue": tuple(st.queue),
        "pending": st.pending,
        "draws": tuple(tuple(t) for t in st.draws),
        "scores": tuple(st.score(s) for s in range(n)),
        "hand": tuple(bits_list(st.hand[me])) if me is not None else (),
        "plan": tuple(st.plan[me]) if me is not None else (),
        "deck": tuple(bits_list(st.deck[me])) if me is not None else (),
        "events": tuple(st.events[-EVENTS_SHOWN:]),
        "step_events": min(len(st.events) - st.step_from, EVENTS_SHOWN),
        "event_count": len(st.events),
    })

