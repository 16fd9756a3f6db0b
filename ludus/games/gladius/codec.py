"""Gladius positions: a state as position JSON, and the validating reader of untrusted positions.

A position stores card counts, not physical copies (which copy of a kind sits where never
matters). The reader checks every field and then the position as a whole, so that a
hand-edited or hostile position either loads as one the rules can reach or is refused with
a RecordError naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import RecordError
from ...core.fields import required, show, whole_number
from ...core.game import Game
from ...core.rng import Rng
from .options import GladiusOptions
from .rules import GladiusState, Setup, build_setup
from .views import (
    ADV_ATK,
    ADV_DEF,
    ATTACK,
    DEAL,
    DEFEND,
    DISCARD,
    DRAW,
    DRAW_PHASES,
    END_REASONS,
    FIRST,
    MINI_ATK,
    MINI_DEF,
    OVER,
    PHASE_OF,
    PHASES,
    RESHUFFLE,
    SKIP,
)

__all__ = ["position_to_state", "state_to_position"]


# ----------------------------------------------------------------------------- writing positions
def _key(st: GladiusState, k: int) -> str | None:
    return None if k < 0 else st.setup.keys[k]


def _pair(st: GladiusState, p: tuple[int, int] | None) -> tuple[int, str | None] | None:
    return None if p is None else (p[0], _key(st, p[1]))


def _counts_json(st: GladiusState, mask: int) -> dict[str, int]:
    s = st.setup
    return {s.kinds[k].key: n for k, n in enumerate(s.count_kinds(mask)) if n}


def state_to_position(st: GladiusState) -> dict[str, Any]:
    """The position JSON of a state (``GladiusState._position``); :func:`position_to_state` reads it back."""
    s = st.setup
    return {
        "phase": PHASES[st.phase],
        "active": st.active,
        "first": None if st.first < 0 else st.first,
        "turn": st.turn,
        "dealt": st.dealt,
        "hp": list(st.hp),
        "hands": [list(s.keys_of(st.hands[0])), list(s.keys_of(st.hands[1]))],
        "pile": _counts_json(st, st.pile),
        "discard": _counts_json(st, st.discard),
        "table": _key(st, st.pending),
        "mini": list(s.keys_of(st.mini)),
        "mini_left": st.mini_left,
        "lock": [_key(st, st.lock[0]), _key(st, st.lock[1])],
        "barred": _key(st, st.barred),
        "skip": list(st.skip),
        "resume": None if st.resume < 0 else PHASES[st.resume],
        "reshuffles": st.reshuffles,
        "last_attack": None if st.last_attack is None else list(_pair(st, st.last_attack)),  # type: ignore[arg-type]
        "last_defence": None if st.last_defence is None else list(_pair(st, st.last_defence)),  # type: ignore[arg-type]
        "last_result": st.last_result,
        "known": [list(st.setup.keys_of_counts(st.known[0])), list(st.setup.keys_of_counts(st.known[1]))],
        "unknown": list(st.unknown),
        "end": st.end,
    }


# ----------------------------------------------------------------------------- reading positions
def _kind(setup: Setup, key: Any, what: str, allow_none: bool = True) -> int:
    if key is None and allow_none:
        return -1
    if not isinstance(key, str) or key not in setup.index:
        raise RecordError(f"{what}: unknown card {show(key, 40)}")
    return setup.index[key]


def _count_list(setup: Setup, keys: Any, what: str) -> list[int]:
    if not isinstance(keys, list):
        raise RecordError(f"{what} must be a list of cards")
    out = [0] * len(setup.kinds)
    for key in keys:
        out[_kind(setup, key, what, False)] += 1
    return out


def _count_map(setup: Setup, data: Any, what: str) -> list[int]:
    if not isinstance(data, Mapping):
        raise RecordError(f"{what} must be an object of card counts")
    out = [0] * len(setup.kinds)
    for key, n in data.items():
        out[_kind(setup, key, what, False)] = whole_number(n, f"{what} count of {key}", 0, 10_000)
    return out


def _pair_in(setup: Setup, v: Any, what: str) -> tuple[int, int] | None:
    if v is None:
        return None
    if not isinstance(v, list) or len(v) != 2:
        raise RecordError(f"{what} must be [side, card] or null")
    return (whole_number(v[0], f"{what} side", 0, 1), _kind(setup, v[1], what))


_RESULTS = ("", "hit", "evaded", "blocked", "no attack", "skipped")
"""Every value ``last_result`` takes."""


def position_to_state(game: Game, options: GladiusOptions, rng: Rng | None, data: Any) -> GladiusState:
    """Inverse of ``GladiusState._position``. Every field is checked, every card of the deck must be
    in one place, and the position as a whole must be one the rules stop at (see
    :func:`_check_position`); anything else raises RecordError naming the field."""
    if not isinstance(data, Mapping):
        raise RecordError("a Gladius position must be an object")
    setup = build_setup(options)
    st = GladiusState(game, options, rng, setup)
    phase = required(data, "phase")
    if not isinstance(phase, str) or phase not in PHASE_OF:
        raise RecordError(f"position field 'phase': unknown phase {show(phase, 40)}")
    st.phase = PHASE_OF[phase]
    st.active = whole_number(required(data, "active"), "active", 0, 1)
    first = data.get("first")
    st.first = -1 if first is None else whole_number(first, "first", 0, 1)
    st.turn = whole_number(required(data, "turn"), "turn", 0, 10**9)
    st.dealt = whole_number(required(data, "dealt"), "dealt", 0, 1000)
    hp = required(data, "hp")
    if not isinstance(hp, list) or len(hp) != 2:
        raise RecordError("hp must be two numbers")
    st.hp = [whole_number(hp[0], "hp", 0, 999), whole_number(hp[1], "hp", 0, 999)]
    hands = required(data, "hands")
    if not isinstance(hands, list) or len(hands) != 2:
        raise RecordError("hands must be two lists")
    counts = {
        "hand 1": _count_list(setup, hands[0], "hand 1"),
        "hand 2": _count_list(setup, hands[1], "hand 2"),
        "pile": _count_map(setup, required(data, "pile"), "pile"),
        "discard": _count_map(setup, required(data, "discard"), "discard"),
        "mini": _count_list(setup, required(data, "mini"), "mini"),
    }
    table = _kind(setup, data.get("table"), "table")
    st.pending = table
    tab = [0] * len(setup.kinds)
    if table >= 0:
        tab[table] = 1
    for k, total in enumerate(map(sum, zip(*counts.values(), tab))):
        c = setup.kinds[k]
        if total != c.count:
            raise RecordError(f"the position holds {total} of {c.key}, the deck has {c.count}")
    # hand out physical copies of each kind, lowest first: the copies of a kind are
    # consecutive bits, so each place gets a run of them (in the order of ``counts``)
    masks = dict.fromkeys(counts, 0)
    places = list(counts.items())
    table_mask = 0
    for k, km in enumerate(setup.kind_mask):
        pos = (km & -km).bit_length() - 1
        for name, place_counts in places:
            n = place_counts[k]
            if n:
                masks[name] |= ((1 << n) - 1) << pos
                pos += n
        if tab[k]:
            table_mask = 1 << pos
    st.hands = [masks["hand 1"], masks["hand 2"]]
    st.pile, st.discard, st.mini, st.table = masks["pile"], masks["discard"], masks["mini"], table_mask
    st.mini_left = whole_number(required(data, "mini_left"), "mini_left", 0, 3)
    lock = required(data, "lock")
    if not isinstance(lock, list) or len(lock) != 2:
        raise RecordError("lock must be two entries")
    st.lock = [_kind(setup, lock[0], "lock"), _kind(setup, lock[1], "lock")]
    st.barred = _kind(setup, data.get("barred"), "barred")
    skip = required(data, "skip")
    if not isinstance(skip, list) or len(skip) != 2 or not all(isinstance(x, bool) for x in skip):
        raise RecordError("skip must be two true/false values")
    st.skip = list(skip)
    resume = data.get("resume")
    if resume is not None and (not isinstance(resume, str) or resume not in PHASE_OF):
        raise RecordError(f"position field 'resume': unknown phase {show(resume, 40)}")
    st.resume = -1 if resume is None else PHASE_OF[resume]
    st.reshuffles = whole_number(required(data, "reshuffles"), "reshuffles", 0, 10**9)
    st.last_attack = _pair_in(setup, data.get("last_attack"), "last_attack")
    st.last_defence = _pair_in(setup, data.get("last_defence"), "last_defence")
    result = data.get("last_result", "")
    if result not in _RESULTS:
        raise RecordError(f"last_result must be one of {', '.join(map(repr, _RESULTS))}, not {show(result, 40)}")
    st.last_result = result
    known = required(data, "known")
    unknown = required(data, "unknown")
    if not isinstance(known, list) or len(known) != 2 or not isinstance(unknown, list) or len(unknown) != 2:
        raise RecordError("known and unknown must have one entry per fighter")
    st.known = [_count_list(setup, known[0], "known"), _count_list(setup, known[1], "known")]
    st.unknown = [whole_number(unknown[0], "unknown", 0, 1000), whole_number(unknown[1], "unknown", 0, 1000)]
    end = data.get("end", "")
    if not isinstance(end, str) or end not in END_REASONS:
        raise RecordError(f"unknown end reason {show(end, 40)}")
    st.end = end
    # consistency checks a hand-edited position might break
    if (st.end != "") != (st.phase == OVER):
        raise RecordError("'end' must be given exactly when the phase is 'over'")
    if st.solo and (st.hands[1] or any(st.known[0]) or any(st.known[1]) or any(st.unknown)):
        raise RecordError("in solo play the opponent holds no hand")
    if not st.solo and st.mini:
        raise RecordError("only solo play has a mini-hand")
    awaiting = st.phase in (DEFEND, MINI_DEF, ADV_DEF) or (st.phase == RESHUFFLE and st.resume == MINI_DEF)
    if st.phase != OVER and (st.pending >= 0) != awaiting:
        raise RecordError("an attack card is on the table exactly while a defence is awaited")
    if st.phase in (DEFEND, ADV_DEF, MINI_DEF) and not setup.kinds[st.pending].is_attack:
        raise RecordError("the card on the table must be an attack")
    if (st.phase in (FIRST,) and st.first >= 0) or (st.phase != FIRST and st.first < 0):
        raise RecordError("'first' is unset exactly while the first player is being drawn")
    if st.phase == RESHUFFLE and st.resume not in DRAW_PHASES:
        raise RecordError("a reshuffle must say which draw it resumes")
    if not st.solo:
        for v in (0, 1):
            hand = setup.count_kinds(st.hands[1 - v])
            if any(a > b for a, b in zip(st.known[v], hand)) or sum(st.known[v]) + st.unknown[v] != sum(hand):
                raise RecordError("card-counting knowledge does not match the hands")
    _check_position(st)
    return st


def _check_position(st: GladiusState) -> None:
    """Whole-position rules: who may act in each phase, hand sizes, hit points, what a chance
    node needs to draw, and how the game ended (the fields are already in range)."""
    o, s, p = st.options, st.setup, st.phase
    name = PHASES[p]
    total = st._deal_total()
    if (p == DEAL and st.dealt >= total) or (p == FIRST and st.dealt):
        raise RecordError(f"position field 'dealt' does not fit phase {name!r} ({total} cards are dealt)")
    if p != OVER and (p in (FIRST, DEAL) or (p == RESHUFFLE and st.resume == DEAL)) != (st.turn == 0):
        raise RecordError("position field 'turn' is 0 exactly until the deal is over")
    if o.turn_limit and st.turn > o.turn_limit:
        raise RecordError(f"position field 'turn' is past the turn limit ({o.turn_limit})")
    for side in (0, 1):
        if st.hp[side] > s.hit_points[side]:
            raise RecordError(f"position field 'hp': fighter {side + 1} has more than "
                              f"{s.hit_points[side]} hit points")
    if (0 in st.hp) != (st.end == "knockout"):
        raise RecordError("position field 'end' is 'knockout' exactly when a fighter has no hit points left")
    if (st.end == "deck" and o.reshuffle) or (st.end == "turn-limit" and st.turn != o.turn_limit):
        raise RecordError(f"position field 'end': the game cannot have ended by {st.end!r} with these options")
    if st.resume >= 0 and p != RESHUFFLE:
        raise RecordError("position field 'resume' is set only while the discards are reshuffled")
    if p == RESHUFFLE and (not st.discard or not o.reshuffle or st.pile):
        raise RecordError("position phase 'reshuffle' needs an empty deck, discards and the reshuffle option")
    draw = st.resume if p == RESHUFFLE else p
    if p in DRAW_PHASES and not st.pile:
        raise RecordError(f"position phase {name!r} needs a card in the deck to draw")
    if p == OVER:
        return  # an empty deck without reshuffling can end the game in the middle of anything
    if (draw in (MINI_DEF, MINI_ATK)) != (st.mini_left > 0):
        raise RecordError("position field 'mini_left' counts the mini-hand cards still to draw, only while they are")
    if st.mini and not (draw in (MINI_DEF, MINI_ATK) or p in (ADV_DEF, ADV_ATK)):
        raise RecordError("position field 'mini': the mini-hand exists only while the opponent draws and plays it")
    if st.solo:
        sides = {ATTACK: 0, DISCARD: 0, DRAW: 0, DEFEND: 1, MINI_DEF: 0, ADV_DEF: 0, MINI_ATK: 1, ADV_ATK: 1}
        if p in sides and st.active != sides[p]:
            raise RecordError(f"position field 'active' must be {sides[p]} in phase {name!r} of solo play")
        if draw in (MINI_DEF, MINI_ATK) and st.mini.bit_count() + st.mini_left > (
                s.mini_def if draw == MINI_DEF else s.mini_atk):
            raise RecordError("position field 'mini': more cards than the opponent's mini-hand holds")
    elif p in (MINI_DEF, ADV_DEF, MINI_ATK, ADV_ATK) or draw in (MINI_DEF, MINI_ATK):
        raise RecordError(f"position phase {name!r} belongs to solo play")
    if p == SKIP and not st.skip[st.active]:
        raise RecordError("position phase 'skip': the active fighter must be the one that skips a turn")
    _check_setup(st)
    limit = o.hand_limit
    if p not in (FIRST, DEAL) and not (p == RESHUFFLE and st.resume == DEAL):
        hands = [h.bit_count() for h in st.hands]
        if hands[1 - st.active] > limit or hands[st.active] > limit + 1:
            raise RecordError(f"position field 'hands': a fighter holds more than the hand limit ({limit}) allows")
        if (p == DISCARD and hands[st.active] <= limit) or (p == ATTACK and hands[st.active] > limit):
            raise RecordError(f"position phase {name!r} does not fit the active fighter's hand size")
    elif max(h.bit_count() for h in st.hands) > o.starting_hand:
        raise RecordError("position field 'hands': more cards than the deal gives")


def _check_setup(st: GladiusState) -> None:
    """What the rulebook's setup and card lists fix: who moves first (the Retiarius), how the
    opening cards are dealt (one at a time, alternately), and that every card on the table, in a
    lock-out or in the last exchange is one the fighter who played it may use. Hit points within
    each fighter's maximum, the hand limit and the deck's composition are checked elsewhere."""
    s, p = st.setup, st.phase
    by_rule = st._first_by_rule()
    if st.first >= 0 and by_rule >= 0 and st.first != by_rule:
        raise RecordError(f"position field 'first': the rules give the first turn to fighter {by_rule + 1} "
                          f"(option first = {st.options.first})")
    if p in (FIRST, DEAL) or (p == RESHUFFLE and st.resume == DEAL):
        if st.discard or st.pending >= 0:
            raise RecordError("position field 'hands': during the deal every card is in a hand or in the deck")
        sizes = [h.bit_count() for h in st.hands]
        if st.solo:
            want = [st.dealt, 0]
        else:
            lead = max(st.first, 0)
            want = [0, 0]
            want[lead], want[1 - lead] = (st.dealt + 1) // 2, st.dealt // 2
        # a draw from an empty deck is skipped (tiny user sets), so only a deck with cards left
        # proves that every card dealt so far reached its hand
        if sizes != want and (st.pile or any(a > b for a, b in zip(sizes, want))):
            raise RecordError(f"position field 'hands': {st.dealt} cards dealt one at a time from fighter "
                              f"{max(st.first, 0) + 1} give hands of {want[0]} and {want[1]}, not {sizes[0]} "
                              f"and {sizes[1]}")
    if st.pending >= 0:
        k = st.pending
        if not s.kinds[k].is_attack or k not in s.usable[st.active]:
            raise RecordError(f"position field 'table': {s.keys[k]} is not an attack the attacking fighter "
                              f"(fighter {st.active + 1}) may use")
    for field, pair, attack in (("last_attack", st.last_attack, True), ("last_defence", st.last_defence, False)):
        if pair is not None and pair[1] >= 0:
            side, k = pair
            c = s.kinds[k]
            if (c.is_attack if attack else c.is_defence) is False or k not in s.usable[side]:
                kind = "an attack" if attack else "a defence"
                raise RecordError(f"position field {field!r}: {s.keys[k]} is not {kind} fighter {side + 1} may use")
    for side, k in enumerate(st.lock):
        if k >= 0 and not _locks(s, side, k):
            raise RecordError(f"position field 'lock': {s.keys[k]} does not bar fighter {side + 1}'s next attack "
                              "(only its own Evade or a card such as Wild Swing does)")
    if st.barred >= 0 and not _locks(s, st.active, st.barred):
        raise RecordError(f"position field 'barred': {s.keys[st.barred]} does not bar fighter "
                          f"{st.active + 1}'s attack")


def _locks(s: Setup, side: int, k: int) -> bool:
    """Whether card kind ``k`` played by fighter ``side`` bars its next attack: an Evade it
    defended with, or an attack of its own with ``no_attack_next_turn``."""
    c = s.kinds[k]
    return k in s.usable[side] and (c.is_evade or (c.is_attack and c.no_attack_next_turn))
