"""Gorus Arena determinization: a full state consistent with what one seat sees.

Search bots (ISMCTS) play forward from whole states, but a seat knows of each rival only
which cards it owns out of sight and how many lie in its plan, its hand and its draw pile.
The sampler deals those cards among the three places uniformly at random (and the plan in
random order); everything else is public and copied from the observation.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.bits import mask_of
from ...core.game import Game, SeatView
from ...core.rng import Rng
from .events import Event, EventLines
from .rules import GorusArenaState
from .views import GorusArenaObservation

__all__ = ["sample_state"]


def sample_state(game: Game, view: SeatView, rng: Rng) -> GorusArenaState:
    """Deal the viewer's unknowns at random: which of each rival's hidden cards lie face down
    in its plan (and in which order), which in its hand and which in its draw pile."""
    obs: GorusArenaObservation = view.observation
    me = view.seat
    st = GorusArenaState(game, view.options, Rng(rng.next_u64()))
    st.round = obs.round
    st.phase = obs.phase
    st.start = obs.start
    st.coins = list(obs.coins)
    st.discard = [mask_of(d) for d in obs.discard]
    st.ready = list(obs.ready)
    st.arena = [list(a) for a in obs.arena]
    st.acted = mask_of(obs.acted)
    st.shield = list(obs.shield)
    st.market = mask_of(obs.market)
    st.dead = mask_of(obs.dead)
    st.slot = obs.slot
    st.order = list(obs.order)
    st.round_tied = obs.round_tied
    st.tied = obs.tied
    st.queue = list(obs.queue)
    st.pending = obs.pending
    st.draws = [list(t) for t in obs.draws]
    st.secret = 0  # the sampled state has no history to hide
    # the lines before the observation's window are unknown here; blanks keep the count the seat sees
    seen: Sequence[Event] = obs.events.raw if isinstance(obs.events, EventLines) else tuple(obs.events)
    st.log = [""] * (obs.event_count - len(seen))  # unknown lines; those seen are copied unworded
    st.log += seen
    st.step_from = len(st.log) - obs.step_events
    for s in range(st.n):
        if s == me:
            st.hand[s] = mask_of(obs.hand)
            st.plan[s] = list(obs.plan)
            st.deck[s] = mask_of(obs.deck)
            continue
        hidden = list(obs.reserve[s])
        rng.shuffle(hidden)
        planned, held = obs.planned[s], obs.held[s]
        st.plan[s] = hidden[:planned]
        st.hand[s] = mask_of(hidden[planned:planned + held])
        st.deck[s] = mask_of(hidden[planned + held:])
    return st
