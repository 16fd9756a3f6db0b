"""What one Gorus Arena observation places of each seat's cards out of sight, by kind.

An observation lists each seat's hidden cards (hand, face-down plan and draw pile) as one set
(``reserve``) with the three counts (``held``, ``planned``, ``deck_count``). Its log (the last
:data:`~.views.EVENTS_SHOWN` lines, public like the rest) says a little more: a recruit and a
market refill go to the recruiter's hand, and without ``free_plan`` a reveal empties the
revealing seat's hand and plan, so its hidden cards are then its draw pile, and later draws
come from that known pile. :func:`placed` turns that into certain counts per seat and kind:
how many of the seat's hidden cards of the kind lie in its hand or plan for certain, and how
many in its draw pile for certain. Copies of one kind owned by one seat are alike in every
rule (strength, defence, points, actions; a placement and a recruit name a kind), so the
counts say all that matters about which copy lies where.

How the counts are found, for each seat ``s``, reading the log from its newest line back:

* every recruit and every refill of ``s`` read before the stop is a card of that kind in its
  hand or plan now, unless a later line may have taken it away again: a reveal by ``s`` of a
  card of that kind (with ``free_plan``, where a reveal does not stop the reading) or a kill of
  a card of ``s`` of that kind (``attack_targets=team``, the only way a hidden card dies). Each
  such line cancels one earlier card of its kind, whichever copy it really took;
* the reading stops at ``s``'s latest reveal without ``free_plan`` (its hand and plan were
  empty just after it), or at the first line of the game ("Round 1"), where the hand was the
  three basics (counted like recruits) and the draw pile empty;
* the hidden cards of ``s`` these lines do not account for (``rest``) hold its other cards in
  hand or plan (``g``: ``held + planned`` less those known) and its ``deck_count`` draw pile
  cards (``d``), in any split as far as the counts go. Of kind ``k`` with ``rest_k`` cards
  there, ``max(0, rest_k - d)`` are in hand or plan for certain and ``max(0, rest_k - g)`` in
  the draw pile. The pair of bounds per kind describes that set of splits exactly, so equal
  counts mean equal knowledge.

Every count is sound: the true position satisfies it (the tests check this over random games).
Without ``free_plan`` or ``attack_targets=team``, when the window still shows the seat's latest
reveal and the seat has not turned its discard pile over since, the counts are all that can be known from the whole
game (the draw pile since the reveal is a known set drawn from at random). What they leave out
is in ``docs/games/gorus-arena.md`` ("Observation encoding"). Lines read back as text (a
position loaded from JSON) place the same cards as the event tuples the rules write; a text
line naming a card this card list does not have places nothing, and where such a line could
have taken a card away (a reveal with ``free_plan``, a kill) the reading of that seat stops.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .cards import CARD, KINDS, MAX_SEATS, basics_of, cards_of
from .events import ATTACK_EV, MARKET, RECRUITS, REVEAL, ROUND, EventLines

__all__ = ["KIND_INDEX", "kind_keys", "placed"]

KIND_INDEX: tuple[int, ...] = tuple(KINDS.index(kind) for kind in CARD)
"""Card id -> the index of its kind in :data:`~.cards.KINDS`."""

_BY_KEY = {kind.key: i for i, kind in enumerate(KINDS)}
_BY_NAME = {kind.name: i for i, kind in enumerate(KINDS)}
_BASICS = tuple(tuple(KIND_INDEX[c] for c in cards_of(basics_of(s))) for s in range(MAX_SEATS))

# the lines that matter, as the rules word them (events.py)
_ROUND = re.compile(r"— Round 1 of \d+: Seat \d+ starts —")
_REVEAL = re.compile(r"Seat (\d+) reveals: (.*)")
_RECRUIT = re.compile(r"Seat (\d+)'s .+ recruits (.+) for \d+ coins")
_MARKET = re.compile(r"Seat (\d+)'s hand is empty: (?:takes|picks) (.+) from the market")
_KILL = re.compile(r"Seat \d+'s .+ \(strength \d\) attacks Seat (\d+)'s (.+) \(defence \d+\): killed")
_LABEL = re.compile(r"(?:^|, )(.+?) \([a-z/]+ \d\)")


def kind_keys(options: Any) -> tuple[str, ...]:
    """The kinds that can be in a game with ``options``, in catalogue order (action cards only
    with the armoury): kind slot ``i`` of the placement pieces is kind ``kind_keys(options)[i]``."""
    return tuple(kind.key for kind in KINDS if kind.gladiator or options.armoury)


def _read(line: str) -> tuple[int, int, tuple[int, ...] | None] | None:
    """A text line as ``(code, seat, kind indices)``, or None for a line that places nothing. The
    kinds are None where a name is not one of this card list's (a hand-edited position)."""
    m = _REVEAL.fullmatch(line)
    if m:
        text = m.group(2)
        labels = [] if text == "nothing" else _LABEL.findall(text)
        return REVEAL, int(m.group(1)) - 1, _kinds_named(labels)
    for code, pattern in _ONE_CARD:
        m = pattern.fullmatch(line)
        if m:
            return code, int(m.group(1)) - 1, _kinds_named([m.group(2)])
    if _ROUND.fullmatch(line):
        return ROUND, -1, ()
    return None


_ONE_CARD = ((RECRUITS, _RECRUIT), (MARKET, _MARKET), (ATTACK_EV, _KILL))


def _kinds_named(names: Sequence[str]) -> tuple[int, ...] | None:
    kinds = tuple(_BY_NAME.get(name, -1) for name in names)
    return None if -1 in kinds else kinds


def placed(obs: Any, free_plan: bool, team: bool) -> list[dict[int, tuple[int, int]]]:
    """Per seat, kind index -> (cards certainly in hand or plan, cards certainly in the draw pile),
    for the kinds with a nonzero count (shared dicts: do not change them). ``free_plan`` and
    ``team`` (``attack_targets=team``) are the game's options. Reads ``obs`` only (its log,
    ``reserve`` and the counts)."""
    n = len(obs.reserve)
    up: list[dict[int, int]] = [{} for _ in range(n)]  # kind -> cards known to be up
    gone: list[dict[int, int]] = [{} for _ in range(n)]  # kind -> later lines that may have taken one away
    open_ = [True] * n
    left = n
    events = obs.events
    raw: Sequence[Any] = events.raw if isinstance(events, EventLines) else events
    relevant = _RELEVANT
    for e in reversed(raw):
        kinds: tuple[int, ...] | None
        if type(e) is str:
            got = _read(e)
            if got is None or got[1] >= n:
                continue
            code, s, kinds = got
        else:
            code = e[0]
            if code not in relevant:
                continue
            if code == RECRUITS:
                s, kinds = e[1], (_BY_KEY[e[3]],)
            elif code == MARKET:
                s, kinds = e[1], (KIND_INDEX[e[2]],)
            elif code == REVEAL:  # the kinds matter only where a reveal does not stop the reading
                s, kinds = e[1], tuple([KIND_INDEX[c] for c in e[2]]) if free_plan else ()
            elif code == ATTACK_EV:
                if not (team and e[6]):
                    continue
                s, kinds = e[3], (KIND_INDEX[e[4]],)
            elif code == ROUND:
                if e[1] != 1:
                    continue
                s, kinds = -1, ()
            else:
                continue
        if code == ROUND:  # the game's first line: every hand was its seat's basics, every pile empty
            for s in range(n):
                if open_[s]:
                    _add(up[s], gone[s], _BASICS[s])
            break
        if not open_[s]:
            continue
        if code in (RECRUITS, MARKET):
            if kinds is not None:
                _add(up[s], gone[s], kinds)
            continue
        if code == REVEAL and not free_plan:  # the whole hand was planned and is now turned over: nothing was up
            stop = True
        elif code == REVEAL or team:  # a kill: with attack_targets=team it may have taken a hidden card
            stop = kinds is None  # a card this list does not name may have taken any: read no further back
            for k in kinds or ():
                gone[s][k] = gone[s].get(k, 0) + 1
        else:
            stop = False
        if stop:
            open_[s] = False
            left -= 1
            if not left:
                break
    out: list[dict[int, tuple[int, int]]] = []
    held, planned, deck_count, reserve = obs.held, obs.planned, obs.deck_count, obs.reserve
    for s in range(n):
        known = up[s]
        ups, d = held[s] + planned[s], deck_count[s]
        if not known:  # the counts alone: the same few answers again and again
            memo = (reserve[s], ups, d)
            row = _ROWS.get(memo)
            if row is None:
                if len(_ROWS) >= _MEMO_LIMIT:
                    _ROWS.clear()
                row = _ROWS[memo] = _row(_counts(reserve[s]), known, ups, d)
            out.append(row)
        else:
            out.append(_row(_counts(reserve[s]), known, ups, d))
    return out


_RELEVANT = frozenset((ROUND, REVEAL, RECRUITS, MARKET, ATTACK_EV))
"""The event codes that can place a card (the others are skipped unread)."""
_MEMO_LIMIT = 1 << 14
_COUNTS: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}
_ROWS: dict[tuple[tuple[int, ...], int, int], dict[int, tuple[int, int]]] = {}
"""Memos: a seat's hidden cards (shared tuples) -> (kind, copies); and the row placed by the counts alone.
The rows are shared: callers must not change them."""


def _counts(cards: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """``(kind index, copies)`` of ``cards``, per kind present."""
    got = _COUNTS.get(cards)
    if got is None:
        if len(_COUNTS) >= _MEMO_LIMIT:
            _COUNTS.clear()
        counted: dict[int, int] = {}
        for c in cards:
            k = KIND_INDEX[c]
            counted[k] = counted.get(k, 0) + 1
        got = _COUNTS[cards] = tuple(counted.items())
    return got


def _row(hidden: tuple[tuple[int, int], ...], known: dict[int, int], ups: int, d: int) -> dict[int, tuple[int, int]]:
    """Kind -> (certainly up, certainly in the draw pile), from the cards known up and the counts:
    ``ups`` cards in hand and plan, ``d`` in the draw pile."""
    total = 0
    for k, h in hidden:
        x = known.get(k, 0)
        total += x if x < h else h
    if total > ups:  # cannot happen in a game; a hand-made position: trust only the counts
        known, total = {}, 0
    g = ups - total
    row: dict[int, tuple[int, int]] = {}
    for k, h in hidden:
        x = known.get(k, 0)
        if x > h:
            x = h
        rest = h - x
        a = x + (rest - d if rest > d else 0)
        b = rest - g if rest > g else 0
        if a or b:
            row[k] = (a, b)
    return row


def _add(up: dict[int, int], gone: dict[int, int], kinds: Sequence[int]) -> None:
    """Cards of ``kinds`` went up; each later line that may have taken one away cancels one."""
    for k in kinds:
        if gone.get(k):
            gone[k] -= 1
        else:
            up[k] = up.get(k, 0) + 1
