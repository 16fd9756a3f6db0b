"""The legal moves, generated directly from memo tables, against the slow reading of the rules.

Over thousands of positions of seeded random games under random option sets, each seat's legal
moves must be exactly the moves of its phase that :meth:`why_illegal` accepts, in the order the
rules have always listed them (plans by kind in catalogue order then "finish plan"; income,
recruits in catalogue order, attacks by card id, then pass; picks in catalogue order), and in
execution the same as :meth:`choices` plus pass. Seats not deciding have none.
"""

from __future__ import annotations

import dataclasses

import pytest

from ludus.core.game import CHANCE
from ludus.core.rng import Rng
from ludus.games.gorus_arena import rules
from ludus.games.gorus_arena.actions import ATTACK, DONE, INCOME_ACTION, PASS, PICK, PLACE, RECRUIT
from ludus.games.gorus_arena.game import GAME
from ludus.games.gorus_arena.options import GorusArenaOptions
from ludus.games.gorus_arena.rules import DRAW, EXEC, PLAN

ORDER = {
    PLAN: [*PLACE.values(), DONE],
    EXEC: [INCOME_ACTION, *RECRUIT.values(), *ATTACK, PASS],
    DRAW: [*PICK.values()],
}
"""Each phase's moves in the order legal moves are listed."""


def random_options(rng: Rng) -> dict:
    """A random option set: every choice of every option may come up."""
    out: dict = {}
    for f in dataclasses.fields(GorusArenaOptions):
        info = next(o for o in GAME.describe_options() if o.name == f.name)
        if info.choices:
            out[f.name] = rng.choice(list(info.choices))
        elif info.kind == "bool":
            out[f.name] = rng.below(2) == 1
    out["players"] = 2 + rng.below(4)
    out["rounds"] = 1 + rng.below(8)
    out["first_player"] = 1 + rng.below(out["players"])
    return out


def reference(state, seat: int) -> list:
    """The legal moves by the slow path: the phase's moves that ``why_illegal`` accepts."""
    if seat not in state.current_seats():
        return []
    return [a for a in ORDER.get(state.phase, []) if state.why_illegal(a, seat) is None]


@pytest.mark.parametrize("games, memo_limit", [(160, None), (30, 3)])
def test_legal_moves_equal_the_refusal_reasons_reading(games, memo_limit, monkeypatch):
    """With the memos as shipped, and with memos so small that they restart all the time (so
    that shared and rebuilt entries are both exercised)."""
    if memo_limit is not None:
        monkeypatch.setattr(rules, "_MEMO_LIMIT", memo_limit)
    rng = Rng(17 + games)
    positions = 0
    for game_no in range(games):
        options = random_options(rng)
        state = GAME.new_initial_state(options, seed=game_no)
        while state.current_seats():
            seats = state.current_seats()
            for seat in range(-1, state.n + 1):
                legal = state.legal_actions(seat)
                if seat == CHANCE or seat == state.n:
                    assert list(legal) == ([] if seat == state.n or seats != (CHANCE,) else
                                           [a for a, _ in state.chance_outcomes()])
                    continue
                assert list(legal) == reference(state, seat), (options, game_no, seat)
                if state.phase == EXEC and seat in seats:
                    assert list(legal) == state.choices(seat, state.pending[1]) + [PASS]
            assert state.legal_actions() == (state.legal_actions(seats[0]) if len(seats) == 1 else ())
            positions += 1
            seat = seats[rng.below(len(seats))]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert positions > 30 * games
