"""Terminal view of Circus Maximus: the five locations with their lines, and every player's cards."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...core.game import Action, Game, SeatView
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
from .cards import VENUE_KEYS, CardData, ticket_key_name
from .game import GAME
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


class CircusMaximusAdapter(TerminalAdapter):
    game_name = "circus-maximus"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--caesar", action="store_true",
                            help="experienced variant: Caesar among the visitors (a favour may be sold as a seat)")
        parser.add_argument("--cards", metavar="FILE", help="card-data TOML file instead of the shipped one")

    def options_from_args(self, args: argparse.Namespace) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if getattr(args, "caesar", False):
            out["caesar"] = True
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

    # ----------------------------------------------------------------- drawing
    def render(self, console: Console, view: SeatView, seat_names: list[str], *, you: bool = True) -> None:
        self._table(console, view.observation, seat_names, view.seat, GAME.cards(view.options))

    def render_spectator(self, console: Console, observation: Any, seat_names: list[str]) -> None:
        self._table(console, observation, seat_names, None, None)

    def _table(self, console: Console, obs: CircusMaximusObservation, names: list[str], me: int | None,
               cards: CardData | None) -> None:
        cards = cards or GAME.cards(GAME.parse_options({"players": obs.players, "cards": obs.cards}))
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
                parts = [favour_name(k) + f" ({self._fcoins(cards, k)})" for k in obs.favour_display]
                if obs.start_card_at_villa:
                    parts.append("starting-player card")
                stock.append(", ".join(parts) or "—")
            elif li == 1:
                stock.append(", ".join(f"{ticket_key_name(t)} ({self._tcoins(cards, t)})" for t in obs.forum) or "—")
            else:
                v = li - 2
                names_here = [visitor_name(k) + ("" if k == "caesar" else f" {self._vcoins(cards, k)}")
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
                name.append(" (you)")
            if obs.phase in (1, 2, 3) and not obs.resolving and obs.passed[s]:
                name.append(" passed", style="dim")
            hand = " ".join(str(r) for r in obs.hands[s]) or "—"
            favs = ", ".join(f"{favour_name(k)} ({self._fcoins(cards, k)})" for k in obs.favours[s]) or "—"
            tickets = ", ".join(f"{ticket_key_name(t)} ({self._tcoins(cards, t)})" for t in obs.tickets[s]) or "—"
            sold = ", ".join(f"{self._what(w)}→{visitor_name(v)} {c}" for w, v, c in obs.sales[s]) or "—"
            coins = str(obs.scores[s])
            if obs.day_scores:
                coins += " (" + " + ".join(str(d[s]) for d in obs.day_scores) + ")"
            people.add_row(name, hand, favs, tickets, sold, coins)
        console.print(people)

    @staticmethod
    def _what(what: str) -> str:
        return favour_name(what[7:]) + " as seat" if what.startswith("favour:") else ticket_key_name(what)

    @staticmethod
    def _fcoins(cards: CardData, key: str) -> int:
        return cards.favours[cards.favour_index(key)].coins  # type: ignore[index]

    @staticmethod
    def _tcoins(cards: CardData, key: str) -> int:
        i = cards.ticket_index(key)
        return cards.tickets[i].coins if i is not None else 0

    @staticmethod
    def _vcoins(cards: CardData, key: str) -> int:
        i = cards.visitor_index(key)
        return cards.visitors[i].coins if i is not None else 0

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
