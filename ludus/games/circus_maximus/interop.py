"""Circus Maximus for the interop bridges: every player action and chance outcome, as JSON, and
bounds on the length of a game (see :class:`ludus.core.plugin.InteropSpec`)."""

from __future__ import annotations

from typing import Any

from ...core.plugin import InteropSpec
from .encoding import CircusMaximusEncoder

__all__ = ["SPEC", "CircusMaximusEncoder"]

Json = Any


def _actions(o: Any) -> tuple[list[Json], list[Json]]:
    from .actions import LINE_KEYS
    from .cards import FAVOUR_KEYS, VENUE_KEYS
    from .game import GAME

    d = GAME.cards(o)
    tickets = [t.key for t in d.tickets]
    visitors = [v.key for v in d.visitors]
    legion = d.visitors[d.legionnaire_kind].key
    player: list[Json] = []
    for rank in range(1, 9):
        for line in LINE_KEYS:
            for extra in (False, True):
                for boost in ((False, True) if rank == 1 else (False,)):
                    a: dict[str, Any] = {"type": "place", "rank": rank, "line": line}
                    if extra:
                        a["extra"] = True
                    if boost:
                        a["boost"] = True
                    player.append(a)
    player += [{"type": t} for t in ("pass", "done", "extra_visitor", "ticket_and_visitor", "take_start", "skip")]
    player += [{"type": "place_visitor", "venue": v} for v in VENUE_KEYS]
    player += [{"type": "replay_trader", "rank": r, "line": line} for r in range(1, 9) for line in LINE_KEYS]
    player += [{"type": "move_ahead", "rank": r} for r in range(1, 9)]
    player += [{"type": "take_favour", "favour": f} for f in FAVOUR_KEYS]
    player += [{"type": "take_ticket", "ticket": t, "double": dbl} for t in tickets for dbl in (False, True)]
    sellers = [("ticket", t) for t in tickets] + [("favour", f) for f in FAVOUR_KEYS]
    for v in visitors:
        for field, key in sellers:
            for lg in ((False, True) if v == legion else (False,)):
                for dbl in (False, True):
                    player.append({"type": "sell", "visitor": v, field: key, "legion": lg, "double": dbl})
    chance: list[Json] = [{"type": "draw_favour", "favour": f} for f in FAVOUR_KEYS]
    chance += [{"type": "draw_ticket", "ticket": t} for t in tickets]
    chance += [{"type": "draw_visitor", "visitor": v} for v in visitors]
    return player, chance


def _length(o: Any) -> tuple[int, int]:
    """A day gives each player at most 8 placements, 3 passes and 8 picks, and each favour card
    played adds at most three decisions (its own, a second trader's or ``Done``, and a visitor's
    venue or an extra sale); doubled as a margin. Chance: each deck is drawn through at most
    once a day."""
    from .game import GAME
    from .rules import DAYS

    d = GAME.cards(o)
    favours = sum(f.count for f in d.favours)
    cards = favours + sum(t.count for t in d.tickets) + sum(v.count for v in d.visitors)
    return 2 * (DAYS * o.players * 19 + 3 * favours), DAYS * cards


SPEC = InteropSpec(_actions, _length, CircusMaximusEncoder)
