"""Terminal view of Circus Maximus: the five locations with their lines, and every player's cards."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...core.game import Action, Game, SeatView
from ...core.provenance import EXAMPLE, OURS, SOURCE_TEXT, Source
from ...core.terminal import TerminalAdapter
from .actions import (
    LINE_KEYS,
    LINE_NAMES,
    DrawFavour,
    DrawTicket,
    DrawVisitor,
    Pass,
    Place,
    Skip,
    favour_name,
    visitor_name,
)
from .cards import MARKS, VENUE_KEYS, CardData, source_of, ticket_key_name
from .game import GAME
from .narration import narrate_any
from .options import START_CARD_READINGS
from .views import CircusMaximusObservation

__all__ = ["ADAPTER", "SEAT_STYLES", "CircusMaximusAdapter", "seat_text", "trader_text"]

SEAT_STYLES = ("bold yellow", "bold red", "bold blue", "bold green", "bold magenta")


def seat_text(seat: int, names: list[str]) -> Text:
    return Text(names[seat], style=SEAT_STYLES[seat % len(SEAT_STYLES)])


def trader_text(seat: int, rank: int, eff: int, names: list[str], current: bool = False) -> Text:
    colour = names[seat].split(" (")[0]
    label = f"{colour} {rank}" + (f"→{eff}" if eff != rank else "")
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
        said = " · ".join(f"{MARKS[m]} {SOURCE_TEXT[m]}" for m in (OURS, EXAMPLE) if m in self.used)
        return f"{said} (ludus games circus-maximus lists them with the reasons)"


class CircusMaximusAdapter(TerminalAdapter):
    game_name = "circus-maximus"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--caesar", action="store_true",
                            help="experienced variant: Caesar among the visitors (a favour may be sold as a seat)")
        parser.add_argument("--start-card", choices=START_CARD_READINGS, default=None,
                            help="the starting-player card at the villa: taken 'instead' of a favour "
                                 "(the rulebook; unchosen it goes to the first trader in line) or an "
                                 "'extra-pick' after the favours")
        parser.add_argument("--cards", metavar="FILE", help="card-data TOML file instead of the shipped one")

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

    def describe_action(self, seat_name: str, action: Action) -> str:
        return f"{seat_name}: {action.label}"

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
        head = Text(f"Day {obs.day} of 3 · Phase {obs.phase_name}", style="bold")
        if obs.resolving:
            head.append(f" · choosing at {LINE_NAMES[LINE_KEYS.index(obs.resolving_line)]}")
        head.append("  starting player: ")
        head.append_text(seat_text(obs.starting, names))
        if obs.caesar_variant:
            head.append("  (Caesar variant" + (", his seat is taken" if obs.caesar_used else "") + ")")
        console.rule(head)

        where = Table(show_header=True, header_style="bold", expand=False, box=None, padding=(0, 1))
        where.add_column("Cards at the location", overflow="fold")
        where.add_column("Location", style="bold")
        where.add_column("Line (front first)", overflow="fold")
        for li, key in enumerate(LINE_KEYS):
            stock = Text()
            if li == 0:
                parts = [favour_name(k) + f" ({self._fcoins(cards, k, mark)})" for k in obs.favour_display]
                if obs.start_card_at_villa:
                    parts.append("starting-player card")
                stock.append(", ".join(parts) or "—")
            elif li == 1:
                stock.append(", ".join(f"{ticket_key_name(t)} ({self._tcoins(cards, t, mark)})"
                                       for t in obs.forum) or "—")
            else:
                v = li - 2
                names_here = [self._vname(cards, k, mark)
                              + ("" if k == "caesar" else f" {self._vcoins(cards, k, mark)}")
                              for k in obs.venues[v]]
                stock.append(", ".join(names_here) or "—")
                if obs.bonus[v]:
                    stock.append(f"  +{obs.bonus[v]} coin each (special event)", style="bold green")
            row = Text()
            for i, (s, r, e) in enumerate(obs.lines[li]):
                if i:
                    row.append("  ")
                current = obs.resolving and obs.resolving_line == key and i == obs.resolving_index
                row.append_text(trader_text(s, r, e, names, current))
            where.add_row(stock, LINE_NAMES[li], row or Text("—", style="dim"))
        console.print(where)
        if obs.pending_visitor:
            console.print(f"Drawn with +Visitor, waiting for a venue: [bold]{visitor_name(obs.pending_visitor)}[/]")

        people = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
        for col in ("Player", "Traders in hand", "Favours", "Tickets", "Sold today", "Coins"):
            people.add_column(col, overflow="fold")
        for s in range(obs.players):
            name = seat_text(s, names)
            if s == me:
                name.append(" (you)" if you else " (this view)")
            if obs.phase in (1, 2, 3) and not obs.resolving and obs.passed[s]:
                name.append(" passed", style="dim")
            hand = " ".join(str(r) for r in obs.hands[s]) or "—"
            favs = ", ".join(f"{favour_name(k)} ({self._fcoins(cards, k, mark)})" for k in obs.favours[s]) or "—"
            tickets = ", ".join(f"{ticket_key_name(t)} ({self._tcoins(cards, t, mark)})" for t in obs.tickets[s]) or "—"
            sold = ", ".join(f"{self._what(w)}→{visitor_name(v)} {c}" for w, v, c in obs.sales[s]) or "—"
            coins = str(obs.scores[s])
            if obs.day_scores:
                coins += " (" + " + ".join(str(d[s]) for d in obs.day_scores) + ")"
            people.add_row(name, hand, favs, tickets, sold, coins)
        console.print(people)
        if mark.used:
            console.print(Text(mark.footnote(), style="dim"))

    @staticmethod
    def _what(what: str) -> str:
        return favour_name(what[7:]) + " as seat" if what.startswith("favour:") else ticket_key_name(what)

    @staticmethod
    def _fcoins(cards: CardData, key: str, mark: _Marker) -> str:
        f = cards.favours[cards.favour_index(key)]  # type: ignore[index]
        return f"{f.coins}{mark(f.sources, 'coins')}"

    @staticmethod
    def _tcoins(cards: CardData, key: str, mark: _Marker) -> str:
        i = cards.ticket_index(key)
        if i is None:
            return "0"
        return f"{cards.tickets[i].coins}{mark(cards.tickets[i].sources, 'coins')}"

    @staticmethod
    def _vcoins(cards: CardData, key: str, mark: _Marker) -> str:
        i = cards.visitor_index(key)
        if i is None:
            return "0"
        return f"{cards.visitors[i].coins}{mark(cards.visitors[i].sources, 'coins')}"

    @staticmethod
    def _vname(cards: CardData, key: str, mark: _Marker) -> str:
        i = cards.visitor_index(key)
        return visitor_name(key) + ("" if i is None else mark(cards.visitors[i].sources, "name"))

    def render_final(self, console: Console, observation: Any, scores: list[float],
                     winners: list[int], seat_names: list[str]) -> None:
        obs: CircusMaximusObservation = observation
        console.rule("Game over")
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
        for col in ("Player", "Day 1", "Day 2", "Day 3", "Favours", "Total", ""):
            table.add_column(col)
        for s in range(len(seat_names)):
            days = [str(d[s]) for d in obs.day_scores] + ["—"] * (3 - len(obs.day_scores))
            favours = str(obs.favour_coins[s]) if obs.favour_coins is not None else "—"
            mark = Text("winner", style="bold green") if s in winners else Text("")
            table.add_row(seat_text(s, seat_names), *days, favours, f"{scores[s]:g}", mark)
        console.print(table)


ADAPTER = CircusMaximusAdapter()
