"""Build Gladius positions for rule tests: choose hands, hit points, the table and the phase."""

from __future__ import annotations

from typing import Any

from ludus.core.game import CHANCE
from ludus.core.options import options_to_json
from ludus.games.gladius.game import GAME
from ludus.games.gladius.rules import GladiusState

SS = "secutor/Sword Stab"
SHIELD_BLOCK = "secutor/Shield Block"
ARMOR_S = "secutor/Armor"
BASH = "secutor/Shield Bash"
TRIDENT = "retiarius/Trident Thrust"
NET = "retiarius/Cast Net"
WITHDRAW = "retiarius/Withdraw"
DAGGER = "retiarius/Dagger"
DUCK = "both/Duck"
PARRY = "both/Parry"
KICK = "both/Kick"
DISARM = "both/Disarm"
WILD = "murmillo/Wild Swing"
SWIPE = "murmillo/Sword Swipe"
OVERHEAD = "murmillo/Overhead Swing"
SHIELD_M = "murmillo/Shield"


def position(options: dict[str, Any] | None = None, *, phase: str = "attack", active: int = 0,
             hands: tuple[list[str], list[str]] = ([], []), hp: tuple[int, int] | None = None,
             discard: list[str] | None = None, table: str | None = None, pile: list[str] | None = None,
             lock: tuple[str | None, str | None] = (None, None), barred: str | None = None,
             skip: tuple[bool, bool] = (False, False), mini: list[str] | None = None, mini_left: int = 0,
             first: int = 0, turn: int = 3, seed: int | None = None, end: str = "",
             last_attack: list | None = None, known: tuple[list[str], list[str]] | None = None
             ) -> GladiusState:
    """A position; every card not placed elsewhere is in the draw pile (or, if ``pile`` is
    given, the rest goes to the discards). ``known[v]`` lists cards seat v knows the other holds;
    by default nobody knows anything about the other's hand."""
    opts = GAME.parse_options(options or {})
    setup = GAME.setup(opts)
    left = {c.key: c.count for c in setup.kinds}
    placed = list(hands[0]) + list(hands[1]) + list(discard or []) + list(mini or []) + ([table] if table else [])
    placed += list(pile or [])
    for key in placed:
        left[key] -= 1
        assert left[key] >= 0, f"too many {key}"
    disc: dict[str, int] = {}
    for key in discard or []:
        disc[key] = disc.get(key, 0) + 1
    if pile is None:
        pile_counts = {k: n for k, n in left.items() if n}
    else:
        pile_counts = {}
        for key in pile:
            pile_counts[key] = pile_counts.get(key, 0) + 1
        for k, n in left.items():
            if n:
                disc[k] = disc.get(k, 0) + n
    solo = opts.solo
    data = {
        "phase": phase, "active": active, "first": first, "turn": turn, "dealt": 2 * opts.starting_hand,
        "hp": list(hp or setup.hit_points), "hands": [list(hands[0]), list(hands[1])], "pile": pile_counts,
        "discard": disc, "table": table, "mini": list(mini or []), "mini_left": mini_left,
        "lock": list(lock), "barred": barred, "skip": list(skip), "resume": None, "reshuffles": 0,
        "last_attack": last_attack, "last_defence": None, "last_result": "",
        "known": [list(k) for k in (known or ([], []))],
        "unknown": [0, 0] if solo else [len(hands[1]) - len((known or ([], []))[0]),
                                        len(hands[0]) - len((known or ([], []))[1])],
        "end": end,
    }
    return GAME.state_from_json({"game": "gladius", "options": options_to_json(opts), "rng": seed,
                                 "state": data})  # type: ignore[return-value]


def draw(state: GladiusState, key: str) -> None:
    """Apply the chance outcome 'the next card drawn is ``key``' (explicit chance only)."""
    for action, _p in state.chance_outcomes():
        if getattr(action, "card", None) == key:
            state.apply(action, CHANCE)
            return
    raise AssertionError(f"{key} cannot be drawn now")


def settle(state: GladiusState) -> None:
    """Apply forced (single-outcome) chance steps: skips, reshuffles, solo plays."""
    while state.is_chance_node() and len(state.chance_outcomes()) == 1:
        state.apply(state.chance_outcomes()[0][0], CHANCE)


def count(state: GladiusState, mask: int) -> int:
    return mask.bit_count()
