"""What a seat (or a spectator) is sent: built only from the game's per-seat view.

Nothing here reads a state's private fields: observations come from
``State.observation(seat)``, the log from ``State.visible_history(seat)``, so a game's own
rules decide what is hidden and the server cannot leak more than the game allows.
"""

from __future__ import annotations

import time
from collections.abc import Set
from typing import TYPE_CHECKING, Any

from ..core.game import CHANCE, HIDDEN, Action, SeatView, State
from .protocol import dumps

__all__ = [
    "ViewerLog", "history_entries", "history_entry", "seat_payload", "seat_view", "stable_visibility", "view_for",
    "view_text", "viewer_record",
]

if TYPE_CHECKING:
    from .live import Connection, Table


def history_entry(actor: int, action: Action | str, auto: bool = False) -> list[Any]:
    """One log line as sent: [actor, action JSON, label], or [actor, "hidden", None].

    A move the player's page played by itself (a forced move) gets a fourth element
    ``{"auto": true}``. Callers pass ``auto`` only for the player's own view: that a move was
    forced says something about a hand (no card could attack), which the others may not see."""
    if isinstance(action, str) or not isinstance(action, Action):
        return [actor, HIDDEN, None]
    if auto:
        return [actor, action.to_json(), action.label, {"auto": True}]
    return [actor, action.to_json(), action.label]


def history_entries(state: State, viewer: int | None, start: int = 0,
                    auto_played: Set[int] = frozenset()) -> list[list[Any]]:
    """The viewer's log from ``start``, every move it may not see replaced by "hidden"."""
    return [history_entry(actor, action, actor == viewer and start + i in auto_played)
            for i, (actor, action) in enumerate(state.visible_history(viewer)[start:])]


_STABLE: dict[type, bool] = {}


def stable_visibility(state: State) -> bool:
    """Whether the state's game keeps the core's visibility rule, under which whether a viewer may
    see a move is settled when it is played (``State._visible`` and ``State.visible_history``
    not overridden); then a viewer's log can be extended move by move instead of rebuilt."""
    cls = type(state)
    stable = _STABLE.get(cls)
    if stable is None:
        stable = _STABLE[cls] = cls._visible is State._visible and cls.visible_history is State.visible_history
    return stable


class ViewerLog:
    """A viewer's log, each entry serialized once and reused while the move behind it is unchanged.

    ``pairs`` is the viewer's visible history, exactly what ``State.visible_history(viewer)``
    returns. Under the core's visibility rule (:func:`stable_visibility`) only the moves played
    since the last look are examined, each through the game's own ``_visible`` for this viewer;
    any other game's history is asked for anew from ``visible_history`` and compared by identity
    with the previous one, so a game that later reveals (or hides) an earlier move gets that
    entry rebuilt and resent.

    Each update that changes the entries adds a version; ``lows`` holds, per version, the first
    entry it changed, so :meth:`first_missing` tells a connection what it lacks without
    comparing the whole log.
    """

    __slots__ = ("entries", "lows", "marked", "pairs", "seen", "stale", "version")

    def __init__(self) -> None:
        self.pairs: list[tuple[int, Action | str]] = []
        self.entries: list[list[Any]] = []
        self.seen: Any = None  # the state's last history item looked at (by identity)
        self.stale = 0  # entries from here on may be out of date with ``pairs``
        self.marked: frozenset[int] = frozenset()  # the auto-played marks known at the last update
        self.version = 0
        self.lows: list[int] = []  # lows[v]: the first entry that version v + 1 changed

    def visible(self, state: State, viewer: int | None) -> list[tuple[int, Action | str]]:
        """The viewer's visible history now (read-only: it is shared until the next change)."""
        history = state.history
        old = self.pairs
        n = len(old)
        if stable_visibility(state) and n <= len(history) and (n == 0 or history[n - 1] is self.seen):
            # the same history plus new moves (a game's history only grows): look at the new ones only
            if n < len(history):
                shown = state._visible
                self.pairs = old + [(actor, action if shown(i, actor, action, viewer) else HIDDEN)
                                    for i, (actor, action) in enumerate(history[n:], n)]
            low = n
        else:
            new = state.visible_history(viewer)
            low, limit = 0, min(n, len(new))
            while low < limit and new[low][1] is old[low][1] and new[low][0] == old[low][0]:
                low += 1
            self.pairs = new
        self.stale = min(self.stale, low)
        self.seen = history[-1] if history else None
        return self.pairs

    def update(self, state: State, viewer: int | None, auto_played: Set[int] = frozenset()) -> None:
        pairs = self.visible(state, viewer)
        low = self.stale
        if len(auto_played) != len(self.marked):  # marks are only ever added
            added = [i for i in auto_played if i not in self.marked and i < len(pairs)]
            low = min([low, *added])
            self.marked = frozenset(auto_played)
        old = self.entries
        n = len(old)
        self.stale = len(pairs)
        if low >= n and len(pairs) == n:
            return
        low = min(low, n)
        # the mark only in the player's own log (see history_entry), never on a hidden move
        self.entries = old[:low] + [
            history_entry(actor, action, actor == viewer and i in auto_played and isinstance(action, Action))
            for i, (actor, action) in enumerate(pairs[low:], low)]
        self.version += 1
        self.lows.append(low)

    def first_missing(self, version: int, length: int) -> int:
        """The first entry a connection lacks that was sent ``length`` entries at ``version`` (0: none yet)."""
        if version <= 0:
            return 0
        return min(length, len(self.entries), *self.lows[version:])


def seat_payload(state: State, viewer: int | None) -> dict[str, Any]:
    """Observation, legal moves and result for ``viewer``; the log is added per connection."""
    to_move = [s for s in state.current_seats() if s != CHANCE]
    legal: list[dict[str, Any]] = []
    if viewer is not None and viewer in to_move:
        legal = [{"action": a.to_json(), "label": a.label} for a in state.legal_actions(viewer)]
    out: dict[str, Any] = {
        "observation": state.observation(viewer).to_json(),
        "legal": legal,
        "to_move": to_move,
        "terminal": state.is_terminal(),
        "result": None,
    }
    if state.is_terminal():
        out["result"] = {"scores": state.scores(), "winners": state.winners()}
    return out


def viewer_record(state: State, viewer: int | None, players: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """A record of an unfinished game as ``viewer`` saw it: no seed, hidden moves left hidden.

    It shares the record format's fields so tools can read it, but it cannot be replayed:
    ``complete`` is false and each action the viewer may not see is the string "hidden".
    """
    actions = []
    for actor, action in state.visible_history(viewer):
        actions.append([actor, HIDDEN if action == HIDDEN or not isinstance(action, Action) else action.to_json()])
    return {
        "format": "ludus-record",
        "version": 1,
        "game": state.game.name,
        "options": options,
        "complete": False,
        "viewer": viewer,
        "actions": actions,
        "players": players,
    }


def _shared(table: Table) -> tuple[dict[str, Any], list[str], dict[str, float]]:
    """What every viewer of the table is sent alike (no seat's view in it), built once per change."""
    hit = table.cache.get("shared")
    if hit is None:
        now = time.monotonic()
        hit = table.cache["shared"] = (table.public(), table.names(), {
            str(seat): round(max(0.0, deadline - now), 1) for seat, (_, deadline, _) in table.deadlines.items()})
    return hit


def _base(table: Table, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator) but its log: once per change, shared by its connections."""
    key = ("view", seat)
    base = table.cache.get(key)
    if base is None:
        public, names, clock = _shared(table)
        base = seat_payload(table.state, seat)
        base.update({
            "type": "view",
            "table": public,
            "you": seat,
            "names": names,
            "ply": len(table.recorded),
            "moves": None if seat is None else table.moves[seat],
            "clock": clock,
        })
        table.cache[key] = base
    return base


def _log(table: Table, seat: int | None) -> ViewerLog:
    """``seat``'s log, brought up to date once per change."""
    log_ = table.logs.get(seat)
    if log_ is None:
        log_ = table.logs[seat] = ViewerLog()
    key = ("history", seat)
    if key not in table.cache:
        log_.update(table.state, seat, table.auto_played)
        table.cache[key] = True
    return log_


def _history_from(log_: ViewerLog, conn: Connection) -> int:
    """The first log entry ``conn`` has not been sent; from now on it counts as sent the whole log."""
    had, version, length = conn.log_sent
    start = log_.first_missing(version, length) if had is log_ else 0
    conn.log_sent = (log_, log_.version, len(log_.entries))
    return start


def view_for(table: Table, conn: Connection) -> dict[str, Any]:
    """The view ``conn`` is sent now: the per-seat part is cached on the table until it changes,
    and of the log only the entries this connection has not been sent yet."""
    base = _base(table, conn.seat)
    log_ = _log(table, conn.seat)
    start = _history_from(log_, conn)
    return {**base, "history": {"from": start, "entries": log_.entries[start:]}}


def view_text(table: Table, conn: Connection) -> str:
    """:func:`view_for` as the JSON text sent, serialized once per change for all the connections
    of one seat (or all spectators) that lack the same part of the log."""
    seat = conn.seat
    log_ = _log(table, seat)
    start = _history_from(log_, conn)
    key = ("text", seat, start)
    text = table.cache.get(key)
    if text is None:
        head = table.cache.get(("head", seat))
        if head is None:  # the view but its log, without the closing brace: the log is its last field
            head = table.cache[("head", seat)] = dumps(_base(table, seat))[:-1]
        tail = dumps({"from": start, "entries": log_.entries[start:]})
        text = table.cache[key] = f'{head},"history":{tail}}}'
    return text


def seat_view(table: Table, seat: int) -> SeatView:
    """``table.state.view(seat)`` (what a bot is given), with the seat's visible history kept
    up to date move by move in its :class:`ViewerLog` rather than rebuilt for every move."""
    state = table.state
    if type(state).view is not State.view:  # a game that builds its own view
        return state.view(seat)
    log_ = table.logs.get(seat)
    if log_ is None:
        log_ = table.logs[seat] = ViewerLog()
    return SeatView(game=state.game, options=state.options, seat=seat, observation=state.observation(seat),
                    legal_actions=tuple(state.legal_actions(seat)), history=tuple(log_.visible(state, seat)))
