"""The terminal log's story of a Circus Maximus game: what the moves set off, in words.

``ludus play`` (watching bots or playing) and ``ludus replay`` print each move's own line; this
adds what a reader could not tell from that line alone: what each pick took and is worth, what
each sale earned, the starting-player card changing hands, favour cards nobody took, a phase
or a line being worked off beginning, each day's deal, each day's scoring and the favour coins
at the end. Everything comes from the reader's observations before and after the moves (and the
moves as the reader may see them; in this game everything is public), so it can say nothing the
reader may not see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.markup import escape

from ...core.game import CHANCE, Action
from .actions import (
    LINE_KEYS,
    LINE_NAMES,
    PlaceVisitor,
    PlayTicketVisitor,
    Sell,
    Skip,
    TakeFavour,
    TakeStart,
    TakeTicket,
    favour_name,
    visitor_name,
)
from .cards import VENUE_KEYS, VENUE_NAMES, CardData, ticket_key_name
from .views import PHASE_NAMES, CircusMaximusObservation

__all__ = ["narrate"]


def _name(seat: int, names: Sequence[str]) -> str:
    """A seat's colour, as the log's move lines name it (without "(heuristic bot)")."""
    return escape(names[seat].split(" (")[0])


def _at(line: int) -> str:
    name = LINE_NAMES[line]
    return name if name.startswith("Caesar") else f"the {name}"


def _coins(n: int) -> str:
    return f"{n} coin" + ("" if n == 1 else "s")


def _ticket_coins(cards: CardData, key: str) -> int:
    i = cards.ticket_index(key)
    return cards.tickets[i].coins if i is not None else 0


def _favour_coins(cards: CardData, key: str) -> int:
    i = cards.favour_index(key)
    return cards.favours[i].coins if i is not None else 0


def _visitor_coins(cards: CardData, key: str) -> int:
    i = cards.visitor_index(key)
    return cards.visitors[i].coins if i is not None else 0


def _what(what: str) -> str:
    """A sale's seat: a ticket, or (beside Caesar) a favour card."""
    if what.startswith("favour:"):
        return f"the {favour_name(what[7:])} favour card as the seat beside Caesar"
    return f"a {ticket_key_name(what)} ticket"


def _new_sales(before: CircusMaximusObservation, after: CircusMaximusObservation,
               seat: int) -> list[tuple[str, str, int]]:
    """The sales ``seat`` made between the two observations, in order (a day may have ended)."""
    out: list[tuple[str, str, int]] = []
    start = len(before.sales[seat])
    done_before, done_after = len(before.day_scores), len(after.day_scores)
    for day in range(done_before, done_after):
        out += list(after.past_sales[day][seat][start:])
        start = 0
    if after.phase != 4:
        out += list(after.sales[seat][start:])
    return out


def _line_of_traders(obs: CircusMaximusObservation, line: int, names: Sequence[str]) -> str:
    traders = [f"{_name(s, names)} {r}" + (f"→{e}" if e != r else "") for s, r, e in obs.lines[line]]
    return ", ".join(traders) or "nobody"


def narrate(before: CircusMaximusObservation, after: CircusMaximusObservation,
            entries: Sequence[tuple[int, Action | str]], names: Sequence[str], cards: CardData) -> list[str]:
    """Rich-markup lines telling what ``entries`` set off (see the module doc)."""
    out: list[str] = []
    sales = {s: _new_sales(before, after, s) for s in range(after.players)}
    for actor, action in entries:
        if actor == CHANCE or isinstance(action, str):
            continue
        who = _name(actor, names)
        if isinstance(action, TakeFavour):
            out.append(f"{who} takes the {favour_name(action.favour)} favour card "
                       f"(worth {_coins(_favour_coins(cards, action.favour))} at the end unless played)")
        elif isinstance(action, TakeStart):
            out.append(f"{who} takes the starting-player card instead of a favour: {who} begins the next phases")
        elif isinstance(action, TakeTicket):
            out.append(f"{who} takes a {ticket_key_name(action.ticket)} ticket "
                       f"({_coins(_ticket_coins(cards, action.ticket))} if sold)")
        elif isinstance(action, Sell) and sales.get(actor):
            what, visitor, coins = sales[actor].pop(0)
            venue = before.resolving_line
            bonus = before.bonus[VENUE_KEYS.index(venue)] if venue in VENUE_KEYS else 0
            seat = _favour_coins(cards, what[7:]) if what.startswith("favour:") else _ticket_coins(cards, what)
            parts = [f"{seat} for the seat", f"{coins - seat - bonus} from the {visitor_name(visitor)}"]
            if bonus:
                parts.append(f"{bonus} special-event bonus")
            out.append(f"{who} sells {_what(what)} to a {visitor_name(visitor)}: "
                       f"{' + '.join(parts)} = [bold]{_coins(coins)}[/]")
        elif isinstance(action, Skip):
            out.append(f"{who}'s trader sells nothing at {_at(LINE_KEYS.index(before.resolving_line or 'circus'))}")
        elif isinstance(action, PlaceVisitor) and before.pending_visitor:
            kind = before.pending_visitor
            pays = "" if kind == "caesar" else f", who pays {_coins(_visitor_coins(cards, kind))}"
            out.append(f"The visitor {who} drew is a {visitor_name(kind)}{pays}: "
                       f"{who} sends him to the {VENUE_NAMES[VENUE_KEYS.index(action.venue)]}")
        elif isinstance(action, PlayTicketVisitor):
            got = list(after.tickets[actor])
            for t in before.tickets[actor]:
                if t in got:
                    got.remove(t)
            for t in got:
                out.append(f"{who} draws a {ticket_key_name(t)} ticket straight into hand "
                           f"({_coins(_ticket_coins(cards, t))} if sold), and a visitor joins its venue")
    out += _changes(before, after, entries, names, cards)
    return out


def _changes(before: CircusMaximusObservation, after: CircusMaximusObservation,
             entries: Sequence[tuple[int, Action | str]], names: Sequence[str], cards: CardData) -> list[str]:
    """What follows from the rules rather than from a move: the villa's outcome, phases, days."""
    out: list[str] = []
    took_start = any(isinstance(a, TakeStart) for _s, a in entries)
    villa_done = before.phase == 1 and (after.phase != 1 or after.day != before.day)
    if villa_done:
        if before.start_card_at_villa and not took_start and after.starting != before.starting:
            out.append(f"Nobody chose the starting-player card: it goes to {_name(after.starting, names)}, "
                       "whose trader stood first at Caesar's Villa")
        elif before.start_card_at_villa and not took_start and before.lines[0]:
            out.append(f"Nobody chose the starting-player card: {_name(after.starting, names)}, first in line, "
                       "keeps the start")
        elif not before.lines[0]:
            out.append(f"Nobody queued at Caesar's Villa: {_name(after.starting, names)} stays the starting player")
        left = len(after.favours_out) - len(before.favours_out)
        if left > 0:
            gone = list(after.favours_out)
            for k in before.favours_out:
                gone.remove(k)
            out.append("Favour cards nobody took leave the game: " + ", ".join(favour_name(k) for k in gone))
    # a seat that can only pass passes without a recorded move
    if after.phase == before.phase and after.day == before.day and not after.resolving:
        movers = {s for s, _a in entries}
        for s in range(after.players):
            if after.passed[s] and not before.passed[s] and s not in movers:
                out.append(f"{_name(s, names)} has nothing left to place and passes")
    if not before.resolving and after.resolving and after.resolving_line is not None:
        li = LINE_KEYS.index(after.resolving_line)
        out.append(f"Everyone has passed: {_at(li)} is worked off from the front "
                   f"({_line_of_traders(after, li, names)})")
    elif after.resolving and before.resolving and after.resolving_line != before.resolving_line \
            and after.resolving_line is not None:
        li = LINE_KEYS.index(after.resolving_line)
        out.append(f"Next {_at(li)} is worked off ({_line_of_traders(after, li, names)})")
    days_scored = range(len(before.day_scores), len(after.day_scores))
    for day in days_scored:
        out += _day_summary(after, day, names)
    if after.favour_coins is not None and before.favour_coins is None:
        parts = [f"{_name(s, names)} {c}" for s, c in enumerate(after.favour_coins)]
        out.append("Favour cards still in hand add their coins: " + ", ".join(parts))
        totals = [f"{_name(s, names)} {c}" for s, c in enumerate(after.scores)]
        out.append("[bold]Final coins:[/] " + ", ".join(totals))
    if after.phase in (1, 2, 3) and (after.phase != before.phase or after.day != before.day):
        if after.phase == 1:
            out += _deal(after, names, cards)
        out.append(f"[bold]Day {after.day}, phase {escape(PHASE_NAMES[after.phase])}[/]: "
                   f"{_name(after.starting, names)} begins")
    return out


def _day_summary(after: CircusMaximusObservation, day: int, names: Sequence[str]) -> list[str]:
    """One line per seat: the day's sales and traders kept, the day's coins and the total so far."""
    lines = [f"[bold]Day {day + 1} is scored[/] (sales, plus the coins of traders kept in hand):"]
    so_far = [sum(d[s] for d in after.day_scores[:day + 1]) for s in range(after.players)]
    for s in range(after.players):
        sold = sum(c for _w, _v, c in after.past_sales[day][s])
        today = after.day_scores[day][s]
        lines.append(f"  {_name(s, names)}: {len(after.past_sales[day][s])} sold for {sold}, traders kept "
                     f"{today - sold}: {_coins(today)} today, {so_far[s]} so far")
    return lines


def _deal(obs: CircusMaximusObservation, names: Sequence[str], cards: CardData) -> list[str]:
    """The day's deal as it lies on the table when phase I opens (a seeded game's first deal is
    told by the terminal's opening narration, from the table before any chance)."""
    favours = ", ".join(f"{favour_name(k)} ({_favour_coins(cards, k)})" for k in obs.favour_display) or "none"
    tickets = ", ".join(f"{ticket_key_name(k)} ({_ticket_coins(cards, k)})" for k in obs.forum) or "none"
    venues = "; ".join(
        f"{VENUE_NAMES[v]}: " + (", ".join(visitor_name(k) + ("" if k == "caesar" else f" ({_visitor_coins(cards, k)})")
                                           for k in obs.venues[v]) or "nobody")
        for v in range(3))
    dealt = f"Day {obs.day} is dealt."
    lines = [f"[bold]{dealt}[/] At Caesar's Villa: {favours}, and the starting-player card",
             f"  At the Forum Romanum: {tickets}",
             f"  Visitors: {venues}"]
    events = [f"{VENUE_NAMES[v]} (+{b} a visitor)" for v, b in enumerate(obs.bonus) if b]
    if events:
        lines.append("  Special event today: " + ", ".join(events))
    return lines


def narrate_any(before: Any, after: Any, entries: Sequence[tuple[int, Action | str]], names: Sequence[str],
                cards: CardData) -> list[str]:
    """:func:`narrate` for whatever the terminal hands over (nothing when it is not this game's)."""
    if not isinstance(before, CircusMaximusObservation) or not isinstance(after, CircusMaximusObservation):
        return []
    return narrate(before, after, entries, names, cards)
