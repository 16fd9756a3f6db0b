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
from ...i18n import N_, _, format_number, ngettext
from .actions import (
    LINE_KEYS,
    PlaceVisitor,
    PlayTicketVisitor,
    Sell,
    Skip,
    TakeFavour,
    TakeStart,
    TakeTicket,
)
from .cards import FAVOUR_NAMES, RANK_BOOST, VENUE_KEYS, CardData
from .views import CircusMaximusObservation

__all__ = ["COLOUR_WORDS", "FAVOUR_WORDS", "LINE_AT", "LINE_WORDS", "PHASE_WORDS", "SEAT_WORDS", "VISITOR_WORDS",
           "coins_text", "favour_label", "line_at", "line_label", "narrate", "narrate_any", "phase_label",
           "ticket_label", "visitor_label"]

LINE_WORDS = {"villa": N_("Caesar's Villa"), "forum": N_("Forum Romanum"), "circus": N_("Circus Maximus"),
              "colosseum": N_("Colosseum"), "theatre": N_("Pompeius Theatre")}
"""The five locations' names (``LINE_NAMES``), as a table or a move label shows them."""
LINE_AT = {"villa": N_("Caesar's Villa"), "forum": N_("the Forum Romanum"), "circus": N_("the Circus Maximus"),
           "colosseum": N_("the Colosseum"), "theatre": N_("the Pompeius Theatre")}
"""The same names as a sentence uses them ("at the Forum Romanum", but "at Caesar's Villa")."""
VISITOR_WORDS = {"senator": N_("Senator"), "merchant": N_("Merchant"), "student": N_("Student"),
                 "legionnaire": N_("Legionnaire"), "pleb": N_("Pleb"), "caesar": N_("Caesar")}
"""The visitor kinds of the shipped card file; a kind from a player's own file keeps its name."""
SEAT_WORDS = {"box": N_("box"), "arena": N_("arena"), "balcony": N_("balcony")}
"""The ticket seats."""
FAVOUR_WORDS = {"extra_visitor": N_("+Visitor"), "extra_trader": N_("+Trader"),
                "legionnaire": N_("Ticket→Legionnaire"), "double_ticket": N_("II +Ticket"),
                "double_sale": N_("III +Ticket"), "replay_trader": N_("↓ Trader"),
                "ticket_and_visitor": N_("II +Ticket +Visitor"), "rank_boost": N_("Rank {low}→{high}"),
                "move_ahead": N_("← Trader")}
"""The nine favours' short names as the cards print them (``FAVOUR_NAMES``); the ranks of Rank 1→8
are parameters (a msgid holds no digit)."""
PHASE_WORDS = (N_("Dealing"), N_("I: Caesar's favour"), N_("II: Tickets"), N_("III: Events"), N_("Game over"))
"""The phases' names (``PHASE_NAMES``), by phase number."""
COLOUR_WORDS = (N_("Yellow"), N_("Red"), N_("Blue"), N_("Green"), N_("Purple"))
"""The seats' colours (``COLOURS``, the seats' names), translated where the terminal names a seat."""


def line_label(key: str) -> str:
    """A location's name in the language in use ("Forum Romanum")."""
    return _(LINE_WORDS[key]) if key in LINE_WORDS else key


def line_at(key: str) -> str:
    """A location as a sentence names it ("the Forum Romanum", "Caesar's Villa")."""
    return _(LINE_AT[key]) if key in LINE_AT else key


def visitor_label(key: str) -> str:
    """A visitor kind's name ("Senator"), in the language in use."""
    return _(VISITOR_WORDS[key]) if key in VISITOR_WORDS else key.replace("_", " ").title()


def favour_label(key: str) -> str:
    """A favour's short name ("+Trader", "Rank 1→8"), in the language in use."""
    if key == RANK_BOOST:
        return _(FAVOUR_WORDS[key], low=1, high=8)
    return _(FAVOUR_WORDS[key]) if key in FAVOUR_WORDS else FAVOUR_NAMES.get(key, key)


def ticket_label(key: str) -> str:
    """A ticket by its key ("colosseum:box" → "Colosseum box"), in the language in use."""
    venue, _sep, seat = key.partition(":")
    return _("{venue} {seat}", venue=line_label(venue), seat=_(SEAT_WORDS[seat]) if seat in SEAT_WORDS else seat)


def phase_label(phase: int) -> str:
    """A phase's name ("II: Tickets"), in the language in use."""
    return _(PHASE_WORDS[phase]) if 0 <= phase < len(PHASE_WORDS) else str(phase)


def coins_text(n: int) -> str:
    """An amount of coins ("1 coin", "3 coins")."""
    return ngettext("{count} coin", "{count} coins", n, count=n)


def _name(seat: int, names: Sequence[str]) -> str:
    """A seat's colour, as the log's move lines name it (without "(heuristic bot)")."""
    return escape(names[seat].split(" (")[0])


def _at(line: int) -> str:
    return line_at(LINE_KEYS[line])


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
        return _("the {favour} favour card as the seat beside Caesar", favour=favour_label(what[7:]))
    return _("a {ticket} ticket", ticket=ticket_label(what))


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
    traders = [f"{_name(s, names)} {format_number(r)}" + (f"→{format_number(e)}" if e != r else "")
               for s, r, e in obs.lines[line]]
    return _(", ").join(traders) or _("nobody")


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
            out.append(_("{name} takes the {favour} favour card (worth {coins} at the end unless played)",
                         name=who, favour=favour_label(action.favour),
                         coins=coins_text(_favour_coins(cards, action.favour))))
        elif isinstance(action, TakeStart):
            out.append(_("{name} takes the starting-player card instead of a favour: {name} begins the next phases",
                         name=who))
        elif isinstance(action, TakeTicket):
            out.append(_("{name} takes a {ticket} ticket ({coins} if sold)", name=who,
                         ticket=ticket_label(action.ticket), coins=coins_text(_ticket_coins(cards, action.ticket))))
        elif isinstance(action, Sell) and sales.get(actor):
            what, visitor, coins = sales[actor].pop(0)
            venue = before.resolving_line
            bonus = before.bonus[VENUE_KEYS.index(venue)] if venue in VENUE_KEYS else 0
            seat = _favour_coins(cards, what[7:]) if what.startswith("favour:") else _ticket_coins(cards, what)
            parts = [_("{count} for the seat", count=seat),
                     _("{count} from the {visitor}", count=coins - seat - bonus, visitor=visitor_label(visitor))]
            if bonus:
                parts.append(_("{count} special-event bonus", count=bonus))
            out.append(_("{name} sells {what} to a {visitor}: {sum} = [bold]{coins}[/]", name=who, what=_what(what),
                         visitor=visitor_label(visitor), sum=" + ".join(parts), coins=coins_text(coins)))
        elif isinstance(action, Skip):
            out.append(_("{name}'s trader sells nothing at {line}", name=who,
                         line=_at(LINE_KEYS.index(before.resolving_line or "circus"))))
        elif isinstance(action, PlaceVisitor) and before.pending_visitor:
            kind = before.pending_visitor
            venue = line_at(action.venue)
            if kind == "caesar":
                out.append(_("The visitor {name} drew is a {visitor}: {name} sends him to {venue}", name=who,
                             visitor=visitor_label(kind), venue=venue))
            else:
                out.append(_("The visitor {name} drew is a {visitor}, who pays {coins}: {name} sends him to {venue}",
                             name=who, visitor=visitor_label(kind), coins=coins_text(_visitor_coins(cards, kind)),
                             venue=venue))
        elif isinstance(action, PlayTicketVisitor):
            got = list(after.tickets[actor])
            for t in before.tickets[actor]:
                if t in got:
                    got.remove(t)
            for t in got:
                out.append(_("{name} draws a {ticket} ticket straight into hand ({coins} if sold), and a visitor "
                             "joins its venue", name=who, ticket=ticket_label(t),
                             coins=coins_text(_ticket_coins(cards, t))))
    out += _changes(before, after, entries, names, cards)
    return out


def _changes(before: CircusMaximusObservation, after: CircusMaximusObservation,
             entries: Sequence[tuple[int, Action | str]], names: Sequence[str], cards: CardData) -> list[str]:
    """What follows from the rules rather than from a move: the villa's outcome, phases, days."""
    out: list[str] = []
    took_start = any(isinstance(a, TakeStart) for _s, a in entries)
    villa_done = before.phase == 1 and (after.phase != 1 or after.day != before.day)
    if villa_done:
        first = _name(after.starting, names)
        if before.start_card_at_villa and not took_start and after.starting != before.starting:
            out.append(_("Nobody chose the starting-player card: it goes to {name}, whose trader stood first at "
                         "Caesar's Villa", name=first))
        elif before.start_card_at_villa and not took_start and before.lines[0]:
            out.append(_("Nobody chose the starting-player card: {name}, first in line, keeps the start", name=first))
        elif not before.lines[0]:
            out.append(_("Nobody queued at Caesar's Villa: {name} stays the starting player", name=first))
        left = len(after.favours_out) - len(before.favours_out)
        if left > 0:
            gone = list(after.favours_out)
            for k in before.favours_out:
                gone.remove(k)
            out.append(_("Favour cards nobody took leave the game: {favours}",
                         favours=_(", ").join(favour_label(k) for k in gone)))
    # a seat that can only pass passes without a recorded move
    if after.phase == before.phase and after.day == before.day and not after.resolving:
        movers = {s for s, _a in entries}
        for s in range(after.players):
            if after.passed[s] and not before.passed[s] and s not in movers:
                out.append(_("{name} has nothing left to place and passes", name=_name(s, names)))
    if not before.resolving and after.resolving and after.resolving_line is not None:
        li = LINE_KEYS.index(after.resolving_line)
        out.append(_("Everyone has passed: {line} is worked off from the front ({traders})", line=_at(li),
                     traders=_line_of_traders(after, li, names)))
    elif after.resolving and before.resolving and after.resolving_line != before.resolving_line \
            and after.resolving_line is not None:
        li = LINE_KEYS.index(after.resolving_line)
        out.append(_("Next {line} is worked off ({traders})", line=_at(li), traders=_line_of_traders(after, li, names)))
    days_scored = range(len(before.day_scores), len(after.day_scores))
    for day in days_scored:
        out += _day_summary(after, day, names)
    if after.favour_coins is not None and before.favour_coins is None:
        parts = [f"{_name(s, names)} {format_number(c)}" for s, c in enumerate(after.favour_coins)]
        out.append(_("Favour cards still in hand add their coins: {coins}", coins=_(", ").join(parts)))
        totals = [f"{_name(s, names)} {format_number(c)}" for s, c in enumerate(after.scores)]
        out.append(_("[bold]Final coins:[/] {coins}", coins=_(", ").join(totals)))
    if after.phase in (1, 2, 3) and (after.phase != before.phase or after.day != before.day):
        if after.phase == 1:
            out += _deal(after, names, cards)
        out.append(_("[bold]Day {day}, phase {phase}[/]: {name} begins", day=after.day,
                     phase=escape(phase_label(after.phase)), name=_name(after.starting, names)))
    return out


def _day_summary(after: CircusMaximusObservation, day: int, names: Sequence[str]) -> list[str]:
    """One line per seat: the day's sales and traders kept, the day's coins and the total so far."""
    lines = [_("[bold]Day {day} is scored[/] (sales, plus the coins of traders kept in hand):", day=day + 1)]
    so_far = [sum(d[s] for d in after.day_scores[:day + 1]) for s in range(after.players)]
    for s in range(after.players):
        sold = sum(c for _w, _v, c in after.past_sales[day][s])
        today = after.day_scores[day][s]
        lines.append("  " + _("{name}: {count} sold for {sold}, traders kept {kept}: {coins} today, {total} so far",
                              name=_name(s, names), count=len(after.past_sales[day][s]), sold=sold,
                              kept=today - sold, coins=coins_text(today), total=so_far[s]))
    return lines


def _deal(obs: CircusMaximusObservation, names: Sequence[str], cards: CardData) -> list[str]:
    """The day's deal as it lies on the table when phase I opens (a seeded game's first deal is
    told by the terminal's opening narration, from the table before any chance)."""
    comma = _(", ")
    favours = comma.join(f"{favour_label(k)} ({format_number(_favour_coins(cards, k))})"
                         for k in obs.favour_display) or _("none")
    tickets = comma.join(f"{ticket_label(k)} ({format_number(_ticket_coins(cards, k))})"
                         for k in obs.forum) or _("none")
    venues = _("; ").join(
        f"{line_label(VENUE_KEYS[v])}: " + (comma.join(
            visitor_label(k) + ("" if k == "caesar" else f" ({format_number(_visitor_coins(cards, k))})")
            for k in obs.venues[v]) or _("nobody"))
        for v in range(3))
    lines = [_("[bold]Day {day} is dealt.[/] At Caesar's Villa: {favours}, and the starting-player card",
               day=obs.day, favours=favours),
             "  " + _("At the Forum Romanum: {tickets}", tickets=tickets),
             "  " + _("Visitors: {venues}", venues=venues)]
    events = [_("{venue} (+{count} a visitor)", venue=line_label(VENUE_KEYS[v]), count=b)
              for v, b in enumerate(obs.bonus) if b]
    if events:
        lines.append("  " + _("Special event today: {events}", events=comma.join(events)))
    return lines


def narrate_any(before: Any, after: Any, entries: Sequence[tuple[int, Action | str]], names: Sequence[str],
                cards: CardData) -> list[str]:
    """:func:`narrate` for whatever the terminal hands over (nothing when it is not this game's)."""
    if not isinstance(before, CircusMaximusObservation) or not isinstance(after, CircusMaximusObservation):
        return []
    return narrate(before, after, entries, names, cards)
