"""Terminal view of Circus Maximus: the five locations with their lines, and every player's cards."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...core.errors import IllegalAction
from ...core.game import Action, Game, SeatView
from ...core.provenance import EXAMPLE, OURS, SOURCE_TEXT, DataValue, Source
from ...core.terminal import TerminalAdapter, data_text
from ...i18n import N_, _, format_number, join_and, ngettext
from .actions import (
    LINE_KEYS,
    Done,
    DrawFavour,
    DrawTicket,
    DrawVisitor,
    Pass,
    Place,
    PlaceVisitor,
    PlayExtraVisitor,
    PlayMoveAhead,
    PlayReplay,
    PlayTicketVisitor,
    Sell,
    Skip,
    TakeFavour,
    TakeStart,
    TakeTicket,
)
from .cards import FAVOUR_NAMES, MARKS, VENUE_KEYS, CardData, source_of, ticket_key_name
from .game import GAME
from .narration import (
    SEAT_WORDS,
    favour_label,
    line_at,
    line_label,
    narrate_any,
    phase_label,
    ticket_label,
    visitor_label,
)
from .options import START_CARD_READINGS
from .rules import REFUSAL
from .views import CircusMaximusObservation

__all__ = ["ADAPTER", "SEAT_STYLES", "TITLE", "CircusMaximusAdapter", "refusal_text", "seat_text", "trader_text"]

TITLE = N_("Circus Maximus")
"""The game's title (``CircusMaximusGame.title``, also the venue's name), shown through ``_()``."""

SEAT_STYLES = ("bold yellow", "bold red", "bold blue", "bold green", "bold magenta")


def seat_text(seat: int, names: list[str]) -> Text:
    return Text(names[seat], style=SEAT_STYLES[seat % len(SEAT_STYLES)])


def trader_text(seat: int, rank: int, eff: int, names: list[str], current: bool = False) -> Text:
    colour = names[seat].split(" (")[0]
    label = f"{colour} {format_number(rank)}" + (f"→{format_number(eff)}" if eff != rank else "")
    style = SEAT_STYLES[seat % len(SEAT_STYLES)] + (" reverse" if current else "")
    return Text(label, style=style)


class _Marker:
    """Marks the card values the rulebook does not print (° ours, * from its worked example) as
    the shipped card file says, and remembers which marks a drawing used for its footnote. A
    player's own card file is theirs: nothing of it is marked."""

    def __init__(self, shipped: bool) -> None:
        self.shipped = shipped
        self.used: set[Source] = set()

    def __call__(self, sources: Any, field: str) -> str:
        source = source_of(sources, field) if self.shipped else "printed"
        if source not in MARKS:
            return ""
        self.used.add(source)
        return MARKS[source]

    def footnote(self) -> str:
        """One line: each mark used and what it means."""
        said = " · ".join(f"{MARKS[m]} {_(SOURCE_TEXT[m])}" for m in (OURS, EXAMPLE) if m in self.used)
        return _("{marks} (ludus games circus-maximus lists them with the reasons)", marks=said)


def _lines(keys: list[str], word: str) -> str:
    """Several locations as one phrase ("the Circus Maximus or the Colosseum")."""
    names = [line_at(k) for k in keys]
    return (" " + word + " ").join(names)


def refusal_text(code: str | None, params: dict[str, Any]) -> str | None:
    """A Circus Maximus refusal (its code and params, :mod:`ludus.games.circus_maximus.rules`) in
    the language in use; None for a code that is not this game's."""
    if not code or not code.startswith(REFUSAL):
        return None
    p = params
    key = code[len(REFUSAL):]
    either = _("or")
    line = line_at(p["line"]) if p.get("line") in VENUE_KEYS + ("villa", "forum") else p.get("line", "")
    favour = favour_label(p["favour"]) if "favour" in p else ""
    ticket = ticket_label(p["ticket"]) if "ticket" in p else ""
    visitor = visitor_label(p["visitor"]) if "visitor" in p else ""
    if key == "not-your-turn":
        return _("it is not your turn")
    if key == "not-a-draw":
        return _("not a possible draw now")
    if key == "not-a-move":
        return _("{action} is not a Circus Maximus move", action=p["action"])
    if key == "finish-extra-trader":
        return _("first finish your {favour} turn: place a second trader or end the turn",
                 favour=favour_label("extra_trader"))
    if key == "placing":
        return _("phase {phase} is open: place a trader, play a favour or pass", phase=phase_label(p["stage"]))
    if key == "place-visitor-first":
        return _("first choose a venue for the visitor you drew")
    if key == "choose-at-villa":
        return _("now you choose a favour (or the starting-player card) at Caesar's Villa")
    if key == "choose-at-forum":
        return _("now you choose a ticket at the Forum Romanum")
    if key == "selling":
        return _("now you sell at {line}", line=line)
    if key == "not-now":
        return _("that is not possible now")
    if key == "no-favour":
        return _("you hold no {favour} favour", favour=favour)
    if key == "no-such-line":
        return _("there is no line {line!r}", line=p["line"])
    if key == "wrong-line":
        number, _sep, title = phase_label(p["stage"]).partition(": ")
        return _("in phase {number} ({title}) traders go to {lines}, not {line}", number=number, title=title,
                 lines=_lines(p["lines"], either), line=line)
    if key == "rank-range":
        return _("traders have ranks {low} to {high}", low=p["low"], high=p["high"])
    if key == "trader-not-in-hand":
        return _("your trader {rank} is not in your hand (it stands at {line} today)", rank=p["rank"],
                 line=line or _("the game"))
    if key == "boost-rank-one":
        return _("{favour} only works with your rank-{rank} trader", favour=favour_label("rank_boost"),
                 rank=p["rank"])
    if key == "extra-trader-needs-second":
        return _("{favour} needs a second trader in your hand", favour=favour_label("extra_trader"))
    if key == "nothing-to-decline":
        return _("there is no second trader from {favour} to decline; pass to stop placing",
                 favour=favour_label("extra_trader"))
    if key == "second-trader-from-hand":
        return _("the second trader of {favour} must be a trader from your hand", favour=favour_label("extra_trader"))
    if key == "visitor-deck-empty":
        return _("the visitor deck is empty")
    if key == "no-drawn-visitor":
        return _("there is no drawn visitor to place")
    if key == "visitors-go-to-venues":
        return _("visitors go to {lines}", lines=_(", ").join(line_label(k) for k in p["lines"]))
    if key == "replay-in-phase-one":
        return _("{favour} needs an earlier phase today; in phase I there is none",
                 favour=favour_label("replay_trader"))
    if key == "replay-where":
        where = (" " + either + " ").join(line_label(k) for k in p["lines"])
        return _("the trader must be played again now, at {lines}", lines=where)
    if key == "replay-not-earlier":
        return _("your trader {rank} is not in a line of an earlier phase today", rank=p["rank"])
    if key == "ticket-visitor-phase":
        return _("{favour} can only be played in phase II (tickets)", favour=favour_label("ticket_and_visitor"))
    if key == "ticket-deck-empty":
        return _("the ticket deck is empty")
    if key == "not-in-this-phase":
        return _("your trader {rank} is not in a line of this phase", rank=p["rank"])
    if key == "already-first":
        return _("your trader {rank} is already first in line", rank=p["rank"])
    if key == "no-favour-at-villa":
        return _("there is no {favour} favour left at the villa", favour=favour)
    if key == "start-card-taken":
        return _("the starting-player card has already been taken")
    if key == "no-ticket-at-forum":
        return _("there is no {ticket} ticket left at the forum", ticket=ticket)
    if key == "double-ticket-needs-two":
        return _("{favour} needs two tickets left at the forum", favour=favour_label("double_ticket"))
    if key == "caesar-buys-nothing":
        return _("Caesar buys no ticket; he only offers the seat beside him")
    if key == "no-visitor-waiting":
        return _("no {visitor} is waiting at {line}", visitor=visitor, line=line)
    if key == "sell-one-thing":
        return _("sell either a ticket or (beside Caesar) a favour card")
    if key == "no-such-ticket":
        return _("there is no ticket kind {ticket!r}", ticket=p["ticket"])
    if key == "wrong-venue":
        return _("that ticket is for {venue}, not {line}", venue=line_at(p["venue"]), line=line)
    if key == "no-unsold-ticket":
        return _("you hold no unsold {ticket} ticket", ticket=ticket)
    if key == "favour-seat-caesar":
        return _("a favour card can be sold as a seat only beside Caesar, once a day")
    if key == "no-such-favour":
        return _("there is no favour {favour!r}", favour=p["favour"])
    if key == "legion-only":
        return _("{favour} works only when selling to a {visitor}", favour=favour_label("legionnaire"),
                 visitor=visitor_label("legionnaire"))
    if key == "not-enough-favours":
        return ngettext("this needs {count} {favour} favour card and you hold {held}",
                        "this needs {count} {favour} favour cards and you hold {held}", p["count"],
                        count=p["count"], favour=favour, held=p["held"])
    if key == "double-sale-visitors":
        return _("{favour} needs two visitors left at {line}", favour=favour_label("double_sale"), line=line)
    if key == "double-sale-ticket":
        return _("{favour} needs a second ticket for {line}", favour=favour_label("double_sale"), line=line)
    if key == "must-sell":
        return _("you hold a ticket for {line}, so your trader must sell it", line=line)
    return None


_TICKET_KEYS = {ticket_key_name(f"{venue}:{seat}"): f"{venue}:{seat}" for venue in VENUE_KEYS for seat in SEAT_WORDS}
"""A ticket's key by the English name a data value's subject gives it ("Colosseum box")."""
_FAVOUR_KEYS = {name: key for key, name in FAVOUR_NAMES.items()}


def data_subject(head: str) -> str:
    """What an unprinted value belongs to ("Trader 4", "Colosseum box ticket", "+Visitor favour",
    a visitor kind), in the language in use."""
    if head.startswith("Trader ") and head.removeprefix("Trader ").isdigit():
        return _("Trader {rank}", rank=int(head.removeprefix("Trader ")))
    if head.endswith(" ticket") and head.removesuffix(" ticket") in _TICKET_KEYS:
        return _("{ticket} ticket", ticket=ticket_label(_TICKET_KEYS[head.removesuffix(" ticket")]))
    if head.endswith(" favour") and head.removesuffix(" favour") in _FAVOUR_KEYS:
        return _("{favour} favour", favour=favour_label(_FAVOUR_KEYS[head.removesuffix(" favour")]))
    return data_text(head)


class CircusMaximusAdapter(TerminalAdapter):
    game_name = "circus-maximus"

    def describe_data_value(self, value: DataValue) -> tuple[str, str, str]:
        """Subjects built from a card's name and a field ("Trader 4: coins if kept in hand"): both
        parts translated (the fields and notes are marked in ``cards.py``)."""
        head, sep, field = value.subject.partition(": ")
        subject = _("{name}: {field}", name=data_subject(head), field=data_text(field)) if sep else data_subject(head)
        return subject, data_text(value.value), data_text(value.note)

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--caesar", action="store_true",
                            help=_("experienced variant: Caesar among the visitors (a favour may be sold as a seat)"))
        parser.add_argument("--start-card", choices=START_CARD_READINGS, default=None,
                            help=_("the starting-player card at the villa: taken 'instead' of a favour "
                                 "(the rulebook; unchosen it goes to the first trader in line) or an "
                                 "'extra-pick' after the favours"))
        parser.add_argument("--cards", metavar="FILE", help=_("card-data TOML file instead of the shipped one"))

    def options_from_args(self, args: argparse.Namespace) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if getattr(args, "caesar", False):
            out["caesar"] = True
        if getattr(args, "start_card", None):
            out["start_card"] = args.start_card
        if getattr(args, "cards", None):
            out["cards"] = args.cards
        return out

    def default_human_seats(self, args: argparse.Namespace, game: Game, options: Any) -> list[int]:
        return [0]

    # ----------------------------------------------------------------- choices
    def choices(self, view: SeatView) -> list[tuple[Action, bool]]:
        """Legal moves first; then, greyed out, the traders no longer in hand and other tempting moves."""
        legal = list(view.legal_actions)
        out = [(a, True) for a in legal]
        obs: CircusMaximusObservation = view.observation
        if obs.resolving or obs.pending_visitor is not None or obs.phase not in (1, 2, 3):
            if obs.resolving and obs.resolving_line in VENUE_KEYS and Skip() not in legal:
                out.append((Skip(), False))
            return out
        if obs.phase in (1, 2):
            line = LINE_KEYS[obs.phase - 1]
            hand = set(obs.hands[view.seat])
            out += [(Place(r, line), False) for r in range(1, 9) if r not in hand]
        if Pass() not in legal:
            out.append((Pass(), False))
        return out

    def show_chance(self, action: Action) -> bool:
        # dealing is shown on the table itself; the log would drown in draws
        return not isinstance(action, (DrawFavour, DrawTicket, DrawVisitor))

    def label(self, action: Action) -> str:
        """A move as the move list names it, in the language in use (the English label may be typed too)."""
        a: Any = action
        if isinstance(action, Place):
            text = _("Trader {rank} → {line}", rank=a.rank, line=line_label(a.line))
            withs = [favour_label(k) for flag, k in ((a.boost, "rank_boost"), (a.extra, "extra_trader")) if flag]
            return text + (" " + _("with {favours}", favours=join_and(withs)) if withs else "")
        if isinstance(action, Pass):
            return _("Pass")
        if isinstance(action, Done):
            return _("End turn without a second trader")
        if isinstance(action, (PlayExtraVisitor, PlayTicketVisitor)):
            key = "extra_visitor" if isinstance(action, PlayExtraVisitor) else "ticket_and_visitor"
            return _("Play {favour}", favour=favour_label(key))
        if isinstance(action, PlaceVisitor):
            return _("Place the drawn visitor at {line}", line=line_label(a.venue))
        if isinstance(action, PlayReplay):
            return _("Play {favour}: trader {rank} again → {line}", favour=favour_label("replay_trader"),
                     rank=a.rank, line=line_label(a.line))
        if isinstance(action, PlayMoveAhead):
            return _("Play {favour}: move trader {rank} ahead one place", favour=favour_label("move_ahead"),
                     rank=a.rank)
        if isinstance(action, TakeFavour):
            return _("Take favour {favour}", favour=favour_label(a.favour))
        if isinstance(action, TakeStart):
            return _("Take the starting-player card")
        if isinstance(action, TakeTicket):
            text = _("Take ticket {ticket}", ticket=ticket_label(a.ticket))
            return text + (_(", then a second with {favour}", favour=favour_label("double_ticket")) if a.double else "")
        if isinstance(action, Sell):
            if a.ticket is not None:
                text = _("Sell {ticket} to a {visitor}", ticket=ticket_label(a.ticket),
                         visitor=visitor_label(a.visitor))
            else:
                text = _("Sell favour {favour} as a seat beside Caesar to a {visitor}",
                         favour=favour_label(a.favour or "?"), visitor=visitor_label(a.visitor))
            if a.legion:
                text += " " + _("with {favours}", favours=favour_label("legionnaire"))
            if a.double:
                text += _(", then sell again with {favour}", favour=favour_label("double_sale"))
            return text
        if isinstance(action, Skip):
            return _("Sell nothing here")
        if isinstance(action, DrawFavour):
            return _("Favour {favour} turned up", favour=favour_label(a.favour))
        if isinstance(action, DrawTicket):
            return _("Ticket {ticket} drawn", ticket=ticket_label(a.ticket))
        if isinstance(action, DrawVisitor):
            return _("Visitor {visitor} drawn", visitor=visitor_label(a.visitor))
        return action.label

    def describe_refusal(self, error: IllegalAction) -> str:
        return refusal_text(error.code, error.params) or super().describe_refusal(error)

    def describe_action(self, seat_name: str, action: Action) -> str:
        return f"{seat_name}: {self.label(action)}"

    def narrate(self, before: Any, after: Any, entries: Sequence[tuple[int, Action | str]],
                seat_names: list[str]) -> list[str]:
        """Picks and what they are worth, sales and what they earned, the villa's outcome, the
        lines being worked off, each day's deal and scoring (see :mod:`.narration`)."""
        if not isinstance(after, CircusMaximusObservation):
            return []
        return narrate_any(before, after, entries, seat_names, self._cards(after))

    # ----------------------------------------------------------------- drawing
    def render(self, console: Console, view: SeatView, seat_names: list[str], *, you: bool = True) -> None:
        self._table(console, view.observation, seat_names, view.seat, GAME.cards(view.options), you=you)

    def render_spectator(self, console: Console, observation: Any, seat_names: list[str]) -> None:
        self._table(console, observation, seat_names, None, None)

    @staticmethod
    def _cards(obs: CircusMaximusObservation) -> CardData:
        return GAME.cards(GAME.parse_options({"players": obs.players, "cards": obs.cards}))

    def _table(self, console: Console, obs: CircusMaximusObservation, names: list[str], me: int | None,
               cards: CardData | None, *, you: bool = True) -> None:
        cards = cards or self._cards(obs)
        mark = _Marker(shipped=not obs.cards)
        head = Text(_("Day {day} of {days} · Phase {phase}", day=obs.day, days=3, phase=phase_label(obs.phase)),
                    style="bold")
        if obs.resolving:
            key = obs.resolving_line or LINE_KEYS[0]
            head.append(" · " + _("choosing at {line}", line=line_label(key)))
        head.append("  " + _("starting player: "))
        head.append_text(seat_text(obs.starting, names))
        if obs.caesar_variant:
            head.append("  " + (_("(Caesar variant, his seat is taken)") if obs.caesar_used else _("(Caesar variant)")))
        console.rule(head)

        comma = _(", ")
        where = Table(show_header=True, header_style="bold", expand=False, box=None, padding=(0, 1))
        where.add_column(_("Cards at the location"), overflow="fold")
        where.add_column(_("Location"), style="bold")
        where.add_column(_("Line (front first)"), overflow="fold")
        for li, key in enumerate(LINE_KEYS):
            stock = Text()
            if li == 0:
                parts = [favour_label(k) + f" ({self._fcoins(cards, k, mark)})" for k in obs.favour_display]
                if obs.start_card_at_villa:
                    parts.append(_("starting-player card"))
                stock.append(comma.join(parts) or "—")
            elif li == 1:
                stock.append(comma.join(f"{ticket_label(t)} ({self._tcoins(cards, t, mark)})"
                                        for t in obs.forum) or "—")
            else:
                v = li - 2
                names_here = [self._vname(cards, k, mark)
                              + ("" if k == "caesar" else f" {self._vcoins(cards, k, mark)}")
                              for k in obs.venues[v]]
                stock.append(comma.join(names_here) or "—")
                if obs.bonus[v]:
                    stock.append("  " + ngettext("+{count} coin each (special event)",
                                                 "+{count} coin each (special event)", obs.bonus[v],
                                                 count=obs.bonus[v]), style="bold green")
            row = Text()
            for i, (s, r, e) in enumerate(obs.lines[li]):
                if i:
                    row.append("  ")
                current = obs.resolving and obs.resolving_line == key and i == obs.resolving_index
                row.append_text(trader_text(s, r, e, names, current))
            where.add_row(stock, line_label(key), row or Text("—", style="dim"))
        console.print(where)
        if obs.pending_visitor:
            console.print(_("Drawn with {favour}, waiting for a venue: [bold]{visitor}[/]",
                            favour=favour_label("extra_visitor"), visitor=visitor_label(obs.pending_visitor)))

        people = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
        for col in (_("Player"), _("Traders in hand"), _("Favours"), _("Tickets"), _("Sold today"), _("Coins")):
            people.add_column(col, overflow="fold")
        for s in range(obs.players):
            name = seat_text(s, names)
            if s == me:
                name.append(" " + (_("(you)") if you else _("(this view)")))
            if obs.phase in (1, 2, 3) and not obs.resolving and obs.passed[s]:
                name.append(" " + _("passed"), style="dim")
            hand = " ".join(format_number(r) for r in obs.hands[s]) or "—"
            favs = comma.join(f"{favour_label(k)} ({self._fcoins(cards, k, mark)})" for k in obs.favours[s]) or "—"
            tickets = comma.join(f"{ticket_label(t)} ({self._tcoins(cards, t, mark)})" for t in obs.tickets[s]) or "—"
            sold = comma.join(f"{self._what(w)}→{visitor_label(v)} {format_number(c)}"
                              for w, v, c in obs.sales[s]) or "—"
            coins = format_number(obs.scores[s])
            if obs.day_scores:
                coins += " (" + " + ".join(format_number(d[s]) for d in obs.day_scores) + ")"
            people.add_row(name, hand, favs, tickets, sold, coins)
        console.print(people)
        if mark.used:
            console.print(Text(mark.footnote(), style="dim"))

    @staticmethod
    def _what(what: str) -> str:
        if what.startswith("favour:"):
            return _("{favour} as seat", favour=favour_label(what[7:]))
        return ticket_label(what)

    @staticmethod
    def _fcoins(cards: CardData, key: str, mark: _Marker) -> str:
        f = cards.favours[cards.favour_index(key)]  # type: ignore[index]
        return f"{format_number(f.coins)}{mark(f.sources, 'coins')}"

    @staticmethod
    def _tcoins(cards: CardData, key: str, mark: _Marker) -> str:
        i = cards.ticket_index(key)
        if i is None:
            return format_number(0)
        return f"{format_number(cards.tickets[i].coins)}{mark(cards.tickets[i].sources, 'coins')}"

    @staticmethod
    def _vcoins(cards: CardData, key: str, mark: _Marker) -> str:
        i = cards.visitor_index(key)
        if i is None:
            return format_number(0)
        return f"{format_number(cards.visitors[i].coins)}{mark(cards.visitors[i].sources, 'coins')}"

    @staticmethod
    def _vname(cards: CardData, key: str, mark: _Marker) -> str:
        i = cards.visitor_index(key)
        return visitor_label(key) + ("" if i is None else mark(cards.visitors[i].sources, "name"))

    def render_final(self, console: Console, observation: Any, scores: list[float],
                     winners: list[int], seat_names: list[str]) -> None:
        obs: CircusMaximusObservation = observation
        console.rule(_("Game over"))
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
        for col in (_("Player"), *(_("Day {number}", number=d) for d in (1, 2, 3)), _("Favours"), _("Total"), ""):
            table.add_column(col)
        for s in range(len(seat_names)):
            days = [format_number(d[s]) for d in obs.day_scores] + ["—"] * (3 - len(obs.day_scores))
            favours = format_number(obs.favour_coins[s]) if obs.favour_coins is not None else "—"
            mark = Text(_("winner"), style="bold green") if s in winners else Text("")
            total = int(scores[s]) if float(scores[s]).is_integer() else scores[s]
            table.add_row(seat_text(s, seat_names), *days, favours, format_number(total), mark)
        console.print(table)


ADAPTER = CircusMaximusAdapter()
