"""What a seat sees of a Gladius game: the phases' names, the observation, and building it.

The phases are here because observations (and positions) show them by name; the rules
step through the same numbers. :func:`build_observation` is ``GladiusState.observation``
itself (the class binds it, no extra call): it runs for every decision of every
heuristic rollout, so it is written for speed, and ``tests/games/gladius/test_heuristic_speedup.py``
checks it against a field-by-field construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...core.frozen import frozen_builder
from ...core.game import CHANCE, Observation
from ...core.memo import BoundedMemo

if TYPE_CHECKING:
    from .rules import GladiusState

__all__ = [
    "ADV_ATK", "ADV_DEF", "ATTACK", "CHANCE_SEATS", "DEAL", "DECISIONS", "DEFEND", "DISCARD", "DRAW",
    "DRAW_PHASES", "END_REASONS", "FIRST", "MINI_ATK", "MINI_DEF", "NOT_CHANCE", "OBS_FIELDS", "OVER",
    "PHASES", "PHASE_OF", "RESHUFFLE", "SKIP", "GladiusObservation", "build_observation", "hand_notes",
    "new_observation",
]

# ----------------------------------------------------------------------------- phases
(FIRST, DEAL, DRAW, DISCARD, ATTACK, DEFEND, SKIP, RESHUFFLE, MINI_DEF, ADV_DEF, MINI_ATK, ADV_ATK,
 OVER) = range(13)
PHASES = ("first", "deal", "draw", "discard", "attack", "defend", "skip", "reshuffle", "mini-defence",
          "adversary-defence", "mini-attack", "adversary-attack", "over")
PHASE_OF = {name: i for i, name in enumerate(PHASES)}
DRAW_PHASES = (DEAL, DRAW, MINI_DEF, MINI_ATK)
CHANCE_SEATS = (CHANCE,)
DECISIONS = frozenset((ATTACK, DISCARD, DEFEND))
NOT_CHANCE = DECISIONS | {OVER}
END_REASONS = ("", "knockout", "deck", "turn-limit")


@dataclass(frozen=True)
class GladiusObservation(Observation):
    """What one seat (or a spectator, ``seat=None``) sees; sides are 0 and 1, the opponent in solo is 1."""

    seat: int | None
    solo: bool
    fighters: tuple[str, str]
    names: tuple[str, str]
    hit_points: tuple[int, int]
    max_hit_points: tuple[int, int]
    phase: str
    active: int
    to_act: int | None
    first: int | None
    turn: int
    turn_limit: int
    dealt: int
    hand: tuple[str, ...]
    hand_notes: tuple[str | None, ...]
    """For each card of ``hand`` (same order), why this seat cannot use it now, in the rules' own
    words (a :class:`~ludus.core.errors.Refusal`: JSON gives its code and params as
    ``hand_reasons``), or None. Only the seat's own hand and public facts go into it (see
    :func:`hand_notes`)."""
    hand_sizes: tuple[int, int]
    hand_limit: int
    draw_pile: int
    discard: tuple[tuple[str, int], ...]
    table: str | None
    mini_hand: tuple[str, ...]
    mini_left: int
    locked: tuple[str | None, str | None]
    barred: str | None
    skip: tuple[bool, bool]
    resume: str | None
    reshuffles: int
    last_attack: tuple[int, str | None] | None
    last_defence: tuple[int, str | None] | None
    last_result: str
    exchanges: int = field(compare=False)
    """Exchanges settled in the state's history (public), for the terminal log, which compares
    two observations' counts. Like ``settled`` it comes from the history, not the position: it
    is left out of comparisons and of :meth:`to_json` (an information state, a position and a
    determinization do not depend on it)."""
    settled: tuple[int, str, str | None] | None = field(compare=False)
    """The last exchange settled in the history: (attacker, attack card, defence card or None);
    it stays after the next attack is played, unlike ``last_attack`` and ``last_defence``."""
    opponent_known: tuple[str, ...]
    opponent_unknown: int
    known_by_opponent: tuple[str, ...]
    unknown_to_opponent: int
    end: str
    winners: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            if name in LOG_FIELDS:
                continue
            v = getattr(self, name)
            if isinstance(v, tuple):
                v = [list(x) if isinstance(x, tuple) else x for x in v]
            out[name] = v
        # the notes language-neutrally too (each note is a Refusal: its code and params, card keys
        # and fighter ids), for a client that says them in its reader's language
        out["hand_reasons"] = [None if n is None else {"code": getattr(n, "code", None),
                                                       "params": dict(getattr(n, "params", {}))}
                               for n in self.hand_notes]
        return out


LOG_FIELDS = frozenset(("exchanges", "settled"))
"""Observation fields that come from the history, for the terminal log only (see ``exchanges``)."""
OBS_FIELDS = tuple(GladiusObservation.__dataclass_fields__)


new_observation = frozen_builder(GladiusObservation)
"""The observation with exactly these field values (``OBS_FIELDS``, in order), without the frozen
``__init__``'s 35 guarded attribute writes; the tests check it equals the constructor's."""


def hand_notes(setup: Any, seat: int, phase: int, acting: bool, hand: int, barred: int,
               pending: int) -> tuple[str | None, ...]:
    """Why ``seat`` cannot use each card of ``hand`` (a mask, in the order of ``Setup.keys_of``).

    Deciding an attack or a defence, a card gets the reason the rules give for refusing that
    play (:func:`~ludus.games.gladius.rules.illegal_reason`: another fighter type's card, a
    defence card in the attack phase, no attack after an Evade or a Wild Swing, a Block against
    an immobilizing attack); otherwise (discarding, or another's decision) only another type's
    card is marked, as it can never be played. Nothing else goes in: the hand is the seat's own,
    ``barred`` and ``pending`` are public. Memoized, as observations are built in every rollout.
    """
    if not acting or (phase != ATTACK and phase != DEFEND):
        return _NOTES[(setup, seat, -1, hand, -1, -1)]
    return _NOTES[(setup, seat, phase, hand, barred, pending)]


def _make_notes(key: tuple[Any, int, int, int, int, int]) -> tuple[str | None, ...]:
    from .actions import Attack, Defend
    from .rules import illegal_reason, unusable_reason

    setup, seat, phase, hand, barred, pending = key
    out: list[str | None] = []
    for card in setup.keys_of(hand):
        k = setup.index[card]
        if phase in (ATTACK, DEFEND):
            action = Attack(card) if phase == ATTACK else Defend(card)
            out.append(illegal_reason(setup, phase=phase, side=seat, held=(k,), hand_size=hand.bit_count(),
                                      hand_limit=0, barred=barred, pending=pending, action=action))
        else:
            out.append(unusable_reason(setup, seat, k))
    return tuple(out)


_NOTES: BoundedMemo[tuple[Any, int, int, int, int, int], tuple[str | None, ...]] = BoundedMemo(_make_notes, 4096)
"""Hand notes by (setup, seat, deciding phase or -1, hand, barred, pending); a setup hashes by identity."""


def build_observation(self: GladiusState, seat: int | None) -> GladiusObservation:
    # Runs for every decision of every heuristic rollout, so it avoids helper calls and
    # the frozen dataclass __init__ (see new_observation); the values are exactly those
    # of the straightforward construction, which the tests check.
    s = self.setup
    keys = s.keys
    p = self.phase
    if p in (ATTACK, DISCARD):
        to_act: int | None = self.active
    elif p == DEFEND:
        to_act = 1 - self.active
    else:  # chance nodes and the end
        to_act = None
    own = seat is not None and 0 <= seat <= 1
    opp_known: tuple[str, ...] = ()
    opp_unknown = 0
    by_opp: tuple[str, ...] = ()
    unk_opp = 0
    if own and not self.solo:
        assert seat is not None
        known = self.known
        seen = self._seen_known
        if known[0] == seen[0][0] and known[1] == seen[1][0]:
            keys0, keys1 = seen[0][1], seen[1][1]
        else:
            keys0, keys1 = s.keys_of_counts(known[0]), s.keys_of_counts(known[1])
            self._seen_known = ((list(known[0]), keys0), (list(known[1]), keys1))
        opp_known, by_opp = (keys0, keys1) if seat == 0 else (keys1, keys0)
        opp_unknown = self.unknown[seat]
        unk_opp = self.unknown[1 - seat]
    hands = self.hands
    hp = self.hp
    lock = self.lock
    options = self.options
    pending, barred, first, resume = self.pending, self.barred, self.first, self.resume
    la, ld, st = self.last_attack, self.last_defence, self.settled
    seen_discard = self._seen_discard
    if seen_discard[0] == self.discard:
        discard = seen_discard[1]
    else:
        discard = s.kind_counts_of(self.discard)
        self._seen_discard = (self.discard, discard)
    if p == OVER:
        a, b = hp
        winners: tuple[int, ...] = (0,) if a > b else (1,) if b > a else (0, 1)
    else:
        winners = ()
    return new_observation({
        "seat": seat, "solo": self.solo, "fighters": s.fighters, "names": s.names,
        "hit_points": tuple(hp), "max_hit_points": s.hit_points, "phase": PHASES[p],
        "active": self.active, "to_act": to_act, "first": None if first < 0 else first,
        "turn": self.turn, "turn_limit": options.turn_limit, "dealt": self.dealt,
        "hand": s.keys_of(hands[seat]) if own else (),  # type: ignore[index]
        "hand_notes": hand_notes(s, seat, p, to_act == seat, hands[seat], barred, pending)  # type: ignore[arg-type,index]
        if own and hands[seat] else (),  # type: ignore[index]
        "hand_sizes": (hands[0].bit_count(), hands[1].bit_count()), "hand_limit": options.hand_limit,
        "draw_pile": self.pile.bit_count(),
        "discard": discard,
        "table": None if pending < 0 else keys[pending],
        "mini_hand": s.keys_of(self.mini) if self.mini else (), "mini_left": self.mini_left,
        "locked": (None if lock[0] < 0 else keys[lock[0]], None if lock[1] < 0 else keys[lock[1]]),
        "barred": None if barred < 0 else keys[barred],
        "skip": tuple(self.skip), "resume": None if resume < 0 else PHASES[resume],
        "reshuffles": self.reshuffles,
        "last_attack": None if la is None else (la[0], None if la[1] < 0 else keys[la[1]]),
        "last_defence": None if ld is None else (ld[0], None if ld[1] < 0 else keys[ld[1]]),
        "last_result": self.last_result,
        "exchanges": self.exchanges,
        "settled": None if st is None else (st[0], keys[st[1]], None if st[2] < 0 else keys[st[2]]),
        "opponent_known": opp_known, "opponent_unknown": opp_unknown, "known_by_opponent": by_opp,
        "unknown_to_opponent": unk_opp, "end": self.end, "winners": winners,
    })
