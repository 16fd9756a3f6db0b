"""Build Gorus Maximus states with chosen hands through the public protocol (explicit chance)."""

from __future__ import annotations

from ludus.core.game import CHANCE
from ludus.games.gorus_maximus.actions import PLAY, Deal, Reveal
from ludus.games.gorus_maximus.cards import parse_card
from ludus.games.gorus_maximus.game import GAME


def dealt(options: dict, hands: dict[int, str]):
    """A state right after the deal, where seat s holds the cards listed in ``hands[s]``."""
    state = GAME.new_initial_state(options, seed=None)
    want = {seat: [parse_card(c) for c in cards.split()] for seat, cards in hands.items()}
    while state.phase == "deal":
        outcomes = state.chance_outcomes()
        seat = outcomes[0][0].seat
        state.apply(Deal(want[seat].pop(0), seat), CHANCE)
    return state


def play(state, *codes: str):
    """Play cards in turn order; a code prefixed with ! is a contender reveal (solo)."""
    for code in codes:
        if code.startswith("!"):
            state.apply(Reveal(parse_card(code[1:])), CHANCE)
        elif state.phase == "draw":
            state.apply(Deal(parse_card(code), state.drawer), CHANCE)
        else:
            state.apply(PLAY[parse_card(code)])
    return state


def card_mask(codes: str) -> int:
    return sum(1 << parse_card(c) for c in codes.split())
