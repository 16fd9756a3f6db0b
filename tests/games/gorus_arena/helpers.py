"""Build Gorus Arena positions with chosen cards, and drive them through the public protocol."""

from __future__ import annotations

from ludus.core.bits import bits_list
from ludus.core.game import CHANCE
from ludus.games.gorus_arena.actions import PLACE, Draw
from ludus.games.gorus_arena.cards import KEY, KIND_MASK
from ludus.games.gorus_arena.game import GAME
from ludus.games.gorus_arena.rules import GorusArenaState


def free_card(state: GorusArenaState, kind: str) -> int:
    """An id of ``kind`` that nobody owns yet (taken out of the market if it was there)."""
    used = state.dead
    for s in range(state.n):
        used |= state.owned(s)
    for card in bits_list(KIND_MASK[kind] & ~used):
        if card not in state.taken:  # type: ignore[attr-defined]
            state.taken.add(card)  # type: ignore[attr-defined]
            state.market &= ~(1 << card)
            return card
    raise AssertionError(f"no free {kind} left")


def table(hands: dict[int, list[str]], players: int = 2, coins: dict[int, int] | None = None,
          decks: dict[int, list[str]] | None = None, **options) -> GorusArenaState:
    """A round-1 planning position (explicit chance) where seat s holds ``hands[s]``."""
    state = GAME.new_initial_state({"players": players, **options}, seed=None)
    state.taken = set()  # type: ignore[attr-defined]
    state.log.clear()
    for s in range(players):
        state.hand[s] = 0
    for s, kinds in hands.items():
        for kind in kinds:
            state.hand[s] |= 1 << free_card(state, kind)
    for s, kinds in (decks or {}).items():
        for kind in kinds:
            state.deck[s] |= 1 << free_card(state, kind)
    for s, c in (coins or {}).items():
        state.coins[s] = c
    state._begin_planning()
    state._advance()
    return state


def plan(state: GorusArenaState, seat: int, *kinds: str) -> GorusArenaState:
    """Place cards for ``seat`` in this order (stopping if the rest was placed automatically)."""
    for kind in kinds:
        if state.phase != "plan" or state.ready[seat]:
            break
        state.apply(PLACE[kind], seat)
    return state


def card_of(state: GorusArenaState, seat: int, kind: str) -> int:
    """The (first) id of ``kind`` that ``seat`` owns."""
    for c in bits_list(state.owned(seat)):
        if KEY[c] == kind:
            return c
    raise AssertionError(f"seat {seat} owns no {kind}")


def draw(state: GorusArenaState, kind: str) -> None:
    """Settle the next chance node by drawing a card of ``kind``."""
    for action, _ in state.chance_outcomes():
        if KEY[action.card] == kind:
            state.apply(action, CHANCE)
            return
    raise AssertionError(f"no {kind} can be drawn now")


def draw_any(state: GorusArenaState) -> None:
    """Settle every pending chance node with its first outcome."""
    while state.is_chance_node():
        state.apply(state.chance_outcomes()[0][0], CHANCE)


__all__ = ["Draw", "card_of", "draw", "draw_any", "free_card", "plan", "table"]
