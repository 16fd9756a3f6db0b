"""What a seat (or a spectator) is sent: built only from the game's per-seat view.

Nothing here reads a state's private fields: observations come from
``State.observation(seat)``, the log from ``State.visible_history(seat)``, so a game's own
rules decide what is hidden and the server cannot leak more than the game allows.
"""

from __future__ import annotations

import time
from collections.abc import Set
from typing import TYPE_CHECKING, Any

from ..core.game import CHANCE, HIDDEN, Action, State

__all__ = ["ViewerLog", "history_entries", "history_entry", "seat_payload", "view_for", "viewer_record"]

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


class ViewerLog:
    """A viewer's log, each entry serialized once and reused while the move behind it is unchanged.

    The comparison is by identity with the previous visible history, so a game that later
    reveals (or hides) an earlier move gets that entry rebuilt and resent.
    """

    __slots__ = ("entries", "raw")

    def __init__(self) -> None:
        self.raw: list[Any] = []
        self.entries: list[list[Any]] = []

    def update(self, state: State, viewer: int | None, auto_played: Set[int] = frozenset()) -> None:
        old_raw, old_entries = self.raw, self.entries
        raw: list[Any] = []
        entries: list[list[Any]] = []
        for i, (actor, action) in enumerate(state.visible_history(viewer)):
            raw.append(action)
            # the mark only in the player's own log (see history_entry), never on a hidden move
            auto = actor == viewer and i in auto_played and isinstance(action, Action)
            if i < len(old_raw) and old_raw[i] is action and (len(old_entries[i]) == 4) == auto:
                entries.append(old_entries[i])
            else:
                entries.append(history_entry(actor, action, auto))
        self.raw, self.entries = raw, entries


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


def view_for(table: Table, conn: Connection) -> dict[str, Any]:
    """The view ``conn`` is sent now: the per-seat part is cached on the table until it changes,
    and of the log only the entries this connection has not been sent yet."""
    key = ("view", conn.seat)
    base = table.cache.get(key)
    if base is None:
        now = time.monotonic()
        base = seat_payload(table.state, conn.seat)
        base.update({
            "type": "view",
            "table": table.public(),
            "you": conn.seat,
            "names": table.names(),
            "ply": len(table.recorded),
            "moves": None if conn.seat is None else table.moves[conn.seat],
            "clock": {str(seat): round(max(0.0, deadline - now), 1)
                      for seat, (_, deadline, _) in table.deadlines.items()},
        })
        table.cache[key] = base
    hkey = ("history", conn.seat)
    entries = table.cache.get(hkey)
    if entries is None:
        log_ = table.logs.setdefault(conn.seat, ViewerLog())
        log_.update(table.state, conn.seat, table.auto_played)
        entries = table.cache[hkey] = log_.entries
    sent = conn.sent
    start = 0
    limit = min(len(sent), len(entries))
    while start < limit and sent[start] is entries[start]:
        start += 1
    conn.sent = list(entries)
    return {**base, "history": {"from": start, "entries": entries[start:]}}
