"""The game server: lobby, tables, seats and per-seat views over WebSockets.

It is generic over games. A table holds a :class:`~ludus.core.game.State`; everything sent
to a connection is built from that state's per-seat observation and visible history, so
the server never needs to know what a game hides. The database holds each table's record
(options + seed + actions), which is enough to rebuild it exactly after a restart.
"""
