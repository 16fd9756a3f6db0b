"""Terminal view of Gorus Maximus: the troupe by school, the bout, both schools, support."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...core.game import Action, Game, SeatView
from ...core.terminal import TerminalAdapter
from .actions import Play, Reveal
from .cards import CONTENDER, RANKS_PER_SCHOOL, SCHOOLS, card_label
from .views import GorusObservation

__all__ = ["ADAPTER", "STYLE", "GorusMaximusAdapter", "actor_name", "bout_text", "card_text", "school_text"]

STYLE = {"blue": "bold blue", "brown": "bold rgb(160,100,50)", "green": "bold green",
         "pink": "bold magenta", "yellow": "bold yellow"}


def school_text(school: int) -> Text:
    if school < 0:
        return Text("—")
    s = SCHOOLS[school]
    return Text(f"{s.icon} {s.name}", style=STYLE[s.colour])


def card_text(c: int) -> Text:
    s = SCHOOLS[c >> 4]
    return Text(f"{s.icon} {s.short} {c & 15}", style=STYLE[s.colour])


def actor_name(actor: int, names: list[str]) -> str:
    return "Contender" if actor == CONTENDER else names[actor]


def bout_text(bout: tuple[tuple[int, int], ...], names: list[str]) -> Text:
    out = Text()
    for i, (actor, c) in enumerate(bout):
        if i:
            out.append("  ·  ")
        out.append(f"{actor_name(actor, names)}: ")
        out.append_text(card_text(c))
        if i and (bout[i - 1][1] & 15) == (c & 15):
            out.append(" (Challenge!)", style="bold red")
    return out or Text("(empty)", style="dim")


class GorusMaximusAdapter(TerminalAdapter):
    game_name = "gorus-maximus"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--solo", action="store_true", help="solo play against the contender stack")
        parser.add_argument("--teams", help="team variant: a split such as 2v2 or 2v2v1, or a seating like ABACB")
        parser.add_argument("--target", type=int, help="Crowd Support needed to win (default 3)")

    def options_from_args(self, args: argparse.Namespace) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if args.solo:
            if args.players not in (None, 1):
                from ...core.errors import InvalidOptions

                raise InvalidOptions("--solo is a one-player game; leave out --players")
            out["players"] = 1
        if args.teams:
            out["teams"] = args.teams
        if args.target is not None:
            out["target"] = args.target
        return out

    def choices(self, view: SeatView) -> list[tuple[Action, bool]]:
        obs: GorusObservation = view.observation
        legal = {a.card for a in view.legal_actions if isinstance(a, Play)}
        hand = obs.hand or 0
        return [(Play(c), c in legal) for c in range(len(SCHOOLS) * RANKS_PER_SCHOOL) if hand >> c & 1]

    def _support_line(self, obs: GorusObservation) -> Text:
        out = Text("Crowd Support: ")
        mine = obs.side_of_seat[obs.seat] if obs.seat is not None else None
        for side, name in enumerate(obs.side_names):
            if side:
                out.append("   ")
            out.append(f"{name} {obs.support[side]}/{obs.targets[side]}", style="bold" if side == mine else "")
        if mine is not None and len(obs.side_names) != obs.players and not obs.solo:
            mates = [str(s + 1) for s, side in enumerate(obs.side_of_seat) if side == mine]
            out.append(f"   (you are {obs.side_names[mine]}: seats {', '.join(mates)})", style="dim")
        return out

    def render(self, console: Console, view: SeatView, seat_names: list[str], *, you: bool = True) -> None:
        obs: GorusObservation = view.observation
        self._table(console, obs, seat_names)
        legal = {a.card for a in view.legal_actions if isinstance(a, Play)}
        hand = obs.hand or 0
        table = Table(title="Your troupe", show_header=False, box=None)
        for school in range(len(SCHOOLS)):
            cards = [c for c in range(school * 16, school * 16 + 16) if hand >> c & 1]
            if not cards:
                continue
            row = Text()
            for c in cards:
                style = "reverse" if c in legal else "dim"
                row.append(f" {c & 15} ", style=style)
                row.append(" ")
            table.add_row(school_text(school), row)
        console.print(table)
        console.print(Text("Highlighted cards may be played now; type b to see the previous bout.", style="dim"))

    def handle_command(self, console: Console, text: str, view: SeatView, seat_names: list[str]) -> bool:
        if text.lower() in ("b", "bout", "previous"):
            obs: GorusObservation = view.observation
            if not obs.previous_bout:
                console.print("No bout has been fought yet this round.")
            else:
                winner = actor_name(obs.previous_winner, seat_names) if obs.previous_winner is not None else "?"
                console.print(Text("Previous bout: ").append_text(bout_text(obs.previous_bout, seat_names))
                              .append(f"  → won by {winner}"))
            return True
        return False

    def _table(self, console: Console, obs: GorusObservation, seat_names: list[str]) -> None:
        if obs.last_round is not None and not obs.previous_bout and obs.last_round.round == obs.round - 1:
            self._round_summary(console, obs)
        console.rule(f"Round {obs.round}" + ("" if obs.solo else f" · dealer {seat_names[obs.dealer]}"))
        console.print(self._support_line(obs))
        line = Text("Preferred: ").append_text(school_text(obs.preferred))
        line.append("    Initiating: ").append_text(school_text(obs.initiating))
        if obs.stock_size:
            line.append(f"    {'Contender stack' if obs.solo else 'Draw pile'}: {obs.stock_size}")
        console.print(line)
        if obs.previous_winner is not None:
            last = obs.previous_bout[-1][1] if obs.previous_bout else -1
            console.print(Text(f"Previous bout won by {actor_name(obs.previous_winner, seat_names)}"
                               f" (last card {card_label(last)}; type b to see it)", style="dim"))
        console.print(Text("Bout: ").append_text(bout_text(obs.bout, seat_names)))

    def _round_summary(self, console: Console, obs: GorusObservation) -> None:
        lr = obs.last_round
        assert lr is not None
        console.rule(f"End of round {lr.round}")
        console.print(Text("Preferred school at the end: ").append_text(school_text(lr.preferred)))
        if lr.no_eight:
            console.print("[bold red]You collected no 8: the crowd smells a fix. The round goes to the contenders.[/]")
        table = Table("side", "Crowd Favour", "gladiators", "support +")
        for side, name in enumerate(obs.side_names):
            zero = " (preferred 0)" if lr.preferred_zero_side == side else ""
            table.add_row(name, f"{lr.crowd_favour[side]}{zero}", str(lr.collected_counts[side]),
                          str(lr.support_gained[side]))
        console.print(table)

    def render_spectator(self, console: Console, observation: Any, seat_names: list[str]) -> None:
        self._table(console, observation, seat_names)

    def show_chance(self, action: Action) -> bool:
        return isinstance(action, Reveal)  # deals would flood the log

    def describe_action(self, seat_name: str, action: Action) -> str:
        if isinstance(action, Reveal):
            return f"Contender plays {card_label(action.card)}"
        if isinstance(action, Play):
            return f"{seat_name} plays {action.label}"
        return f"{seat_name}: {action.label}"

    def default_human_seats(self, args: argparse.Namespace, game: Game, options: Any) -> list[int]:
        return [0]

    def render_final(self, console: Console, observation: Any, scores: list[float], winners: list[int],
                     seat_names: list[str]) -> None:
        obs: GorusObservation = observation
        if obs.last_round is not None:
            self._round_summary(console, obs)
        console.rule("Game over")
        console.print(self._support_line(obs))
        if obs.solo:
            console.print("[bold green]You are the Champion of Gorus Maximus![/]" if winners
                          else "[bold red]The contenders win the crowd.[/]")
        else:
            names = ", ".join(seat_names[w] for w in winners)
            console.print(f"[bold green]Champion(s) of Gorus Maximus: {names}[/]")
ADAPTER = GorusMaximusAdapter()
