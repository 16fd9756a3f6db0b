"""Records and replays of a table, as one viewer may see them.

Both are read-only and built from the table's seed, options and recorded actions: the
record (the full one once the game is over, before that only what the viewer has seen)
and, for a finished game, the frames of a move-by-move replay, cached on the table per
viewer. The live view a connection is sent is :func:`.views.view_for`.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import Message
from ..core.records import record_of
from ..i18n import N_
from .live import Table
from .protocol import ProtocolError
from .views import viewer_record

__all__ = ["record_for", "replay_frames"]


def record_for(table: Table, viewer: int | None) -> dict[str, Any]:
    """The full record once the game is over; before that, only what ``viewer`` has seen."""
    names = table.names()
    if table.state.is_terminal():
        return record_of(table.state, table.seed, players=names).to_json()
    return viewer_record(table.state, viewer, names, table.options_json)


def replay_frames(table: Table, viewer: int | None) -> list[dict[str, Any]]:
    """The finished game move by move, each frame the table as ``viewer`` saw it after that move."""
    if not table.state.is_terminal():
        raise ProtocolError("not_finished", Message(N_("the replay opens when the game is over")))
    key = viewer
    frames = table.replays.get(key)
    if frames is not None:
        return frames
    state = table.game.new_initial_state(table.game.parse_options(table.options_json), seed=table.seed)
    names = table.names()
    frames = [{"ply": 0, "actor": None, "action": None, "label": "Start",
               "observation": state.observation(viewer).to_json()}]
    for ply, (seat, raw) in enumerate(table.recorded):
        action = table.game.action_from_json(raw)
        state.apply(action, seat)
        frames.append({"ply": ply + 1, "actor": seat, "action": raw, "label": f"{names[seat]}: {action.label}",
                       "observation": state.observation(viewer).to_json()})  # action: for the page's own words
    table.replays[key] = frames
    return frames
