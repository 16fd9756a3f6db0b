"""Gorus Arena in the terminal: the table, the market, your hand and plan, drawn with rich.

Everything comes from a seat's view: rivals' hands, draw piles and unrevealed plans are
shown as counts only. During execution every card in the market is offered for a recruit,
the ones you cannot take greyed out, so that picking one explains why not.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...core.game import Action, Game, SeatView
from ...core.terminal import TerminalAdapter
from .actions import Draw, MarketDraw, Pass, Recruit
from .cards import (
    ACTIONS,
    CARD,
    DEFENCE,
    GLADIATOR_MASK,
    KIND_BY_KEY,
    KINDS,
    NAME,
    POINTS,
    STRENGTH,
    kinds_in,
)
from .options import AUCTIONS
from .rules import COINS_PER_POINT
from .views import GorusArenaObservation

__all__ = [
    "ACTION_STYLE", "ADAPTER", "EVENT_LINES", "PHASE_TEXT", "GorusArenaAdapter",
    "card_text", "cards_text", "kind_counts",
]

ACTION_STYLE = {"attack": "red", "defence": "blue", "recruit": "magenta", "income": "yellow"}
PHASE_TEXT = {"plan": "planning", "exec": "execution", "draw": "drawing", "over": "game over"}
EVENT_LINES = 14


def card_text(card: int, *, dead: bool = False, acted: bool = False, acting: bool = False) -> Text:
    """A card as coloured text: name, action(s) and strength, with defence/points for gladiators."""
    acts = ACTIONS[card]
    text = Text()
    if acting:
        text.append("▶ ", style="bold green")
    text.append(NAME[card], style="strike dim" if dead else ("dim" if acted else "bold"))
    text.append(" [")
    for i, a in enumerate(acts):
        if i:
            text.append("/")
        text.append(a, style=ACTION_STYLE[a])
    text.append(f" {STRENGTH[card]}]")
    if CARD[card].gladiator:
        text.append(f" def {DEFENCE[card]} · {POINTS[card]} pts", style="dim")
    if dead:
        text.append(" ✝", style="red")
    elif acted:
        text.append(" ✓", style="green")
    return text


def cards_text(cards: list[int] | tuple[int, ...], obs: GorusArenaObservation | None = None,
               acting: int | None = None) -> Text:
    if not cards:
        return Text("—", style="dim")
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append("\n")
        dead = obs is not None and c in obs.dead
        acted = obs is not None and c in obs.acted
        out.append_text(card_text(c, dead=dead, acted=acted, acting=c == acting))
    return out


def kind_counts(cards: tuple[int, ...]) -> str:
    mask = 0
    for c in cards:
        mask |= 1 << c
    counts = []
    for key in kinds_in(mask):
        n = sum(1 for c in cards if CARD[c].key == key)
        counts.append(f"{KIND_BY_KEY[key].name}{f' ×{n}' if n > 1 else ''}")
    return ", ".join(counts) or "—"


class GorusArenaAdapter(TerminalAdapter):
    game_name = "gorus-arena"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--rounds", type=int, help="number of rounds (default 6)")
        parser.add_argument("--auction", choices=AUCTIONS, help="one auction per plan position or per round")
        parser.add_argument("--free-plan", action="store_true", default=None,
                            help="plan any 1-5 cards and keep the others in hand")

    def options_from_args(self, args: argparse.Namespace) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if getattr(args, "rounds", None) is not None:
            out["rounds"] = args.rounds
        if getattr(args, "auction", None) is not None:
            out["auction"] = args.auction
        if getattr(args, "free_plan", None):
            out["free_plan"] = True
        return out

    def default_human_seats(self, args: argparse.Namespace, game: Game, options: Any) -> list[int]:
        return [0]

    # ------------------------------------------------------------- choices
    def choices(self, view: SeatView) -> list[tuple[Action, bool]]:
        legal = list(view.legal_actions)
        obs: GorusArenaObservation = view.observation
        if obs.phase != "exec" or obs.pending is None or obs.pending[0] != view.seat:
            return [(a, True) for a in legal]
        out = [(a, True) for a in legal if not isinstance(a, Pass)]
        if "recruit" in ACTIONS[obs.pending[1]]:
            legal_set = set(legal)
            for key in kinds_in(sum(1 << c for c in obs.market)):
                action = Recruit(key)
                if action not in legal_set:
                    out.append((action, False))
        out.extend((a, True) for a in legal if isinstance(a, Pass))
        return out

    # ------------------------------------------------------------- drawing
    def _seat_table(self, obs: GorusArenaObservation, seat_names: list[str]) -> Table:
        table = Table(title=None, expand=False, show_lines=True)
        table.add_column("seat")
        table.add_column("coins", justify="right")
        table.add_column("score", justify="right")
        table.add_column("hand · plan · pile · discard", justify="center")
        table.add_column("arena (this round)")
        table.add_column("team out of sight")
        acting = obs.pending[1] if obs.pending is not None else None
        for s in range(obs.players):
            name = Text(seat_names[s], style="bold cyan" if s == obs.seat else "")
            if s == obs.start:
                name.append(" ★", style="yellow")
            if obs.phase == "plan":
                name.append("\n(plan ready)" if obs.ready[s] else "\n(planning…)", style="dim")
            if obs.shield[s]:
                name.append(f"\nguard {obs.shield[s]}", style="blue")
            piles = f"{obs.held[s]} · {obs.planned[s]} · {obs.deck_count[s]} · {len(obs.discard[s])}"
            hidden = tuple(c for c in obs.reserve[s] if GLADIATOR_MASK >> c & 1)
            table.add_row(name, str(obs.coins[s]), str(obs.scores[s]), piles,
                          cards_text(obs.arena[s], obs, acting), kind_counts(hidden) if hidden else "—")
        return table

    def _market_table(self, obs: GorusArenaObservation) -> Table:
        table = Table(title="Market (gladiators) and armoury (action cards)", show_edge=False)
        for col in ("card", "left", "cost", "action", "str", "def", "pts"):
            table.add_column(col, justify="left" if col in ("card", "action") else "right")
        market = sum(1 << c for c in obs.market)
        for kind in KINDS:
            if kind.basic:
                continue
            left = sum(1 for c in obs.market if CARD[c].key == kind.key)
            if not left and not (market or kind.gladiator):
                continue
            style = "" if left else "dim"
            acts = Text("/".join(kind.actions), style=ACTION_STYLE[kind.actions[0]])
            table.add_row(Text(kind.name, style=style), str(left), str(kind.cost), acts, str(kind.strength),
                          str(kind.defence) if kind.gladiator else "–",
                          str(kind.points) if kind.gladiator else "–")
        return table

    def _prompt(self, obs: GorusArenaObservation, seat: int) -> str:
        if obs.phase == "plan" and not obs.ready[seat]:
            return (f"Plan in secret: pick the card to play in position {len(obs.plan) + 1} "
                    "(position 1 is carried out first; higher strength acts earlier in each auction).")
        if obs.phase == "exec" and obs.pending is not None and obs.pending[0] == seat:
            card = obs.pending[1]
            return (f"Your {NAME[card]} acts (auction {obs.slot + 1}): "
                    f"{' or '.join(ACTIONS[card])}, or pass. You have {obs.coins[seat]} coins.")
        return "Waiting for the others."

    def render(self, console: Console, view: SeatView, seat_names: list[str], *, you: bool = True) -> None:
        obs: GorusArenaObservation = view.observation
        self._header(console, obs)
        console.print(self._seat_table(obs, seat_names))
        console.print(self._market_table(obs))
        seat = view.seat
        mine = Table.grid(padding=(0, 2))
        mine.add_column(style="bold")
        mine.add_column()
        mine.add_row("Your hand", cards_text(obs.hand))
        if obs.phase == "plan":
            mine.add_row("Your plan", cards_text(obs.plan))
        mine.add_row("Your draw pile", Text(kind_counts(obs.deck)))
        mine.add_row("Your discard", Text(kind_counts(obs.discard[seat])))
        console.print(mine)
        self._events(console, obs)
        console.print(f"[bold]{self._prompt(obs, seat)}[/]")

    def render_spectator(self, console: Console, observation: Any, seat_names: list[str]) -> None:
        obs: GorusArenaObservation = observation
        self._header(console, obs)
        console.print(self._seat_table(obs, seat_names))
        self._events(console, obs)

    def _header(self, console: Console, obs: GorusArenaObservation) -> None:
        console.rule(f"[bold]Gorus Arena[/] · round {obs.round}/{obs.rounds} · {PHASE_TEXT[obs.phase]} · "
                     f"★ starts: Seat {obs.start + 1}")
        if obs.dead:
            console.print(Text("Dead pile: ", style="red").append(kind_counts(obs.dead)))

    def _events(self, console: Console, obs: GorusArenaObservation) -> None:
        for line in obs.events[-EVENT_LINES:]:
            console.print(f"  [dim]{line}[/]")

    def show_chance(self, action: Action) -> bool:
        return isinstance(action, (Draw, MarketDraw))

    def describe_action(self, seat_name: str, action: Action) -> str:
        if isinstance(action, Draw):
            return f"You draw {NAME[action.card]}"
        if isinstance(action, MarketDraw):
            return f"Seat {action.seat + 1} takes {NAME[action.card]} from the market (empty hand)"
        return f"{seat_name}: {action.label}"

    def render_final(self, console: Console, observation: Any, scores: list[float],
                     winners: list[int], seat_names: list[str]) -> None:
        obs: GorusArenaObservation = observation
        console.rule("Game over")
        table = Table("seat", "living gladiators", "gladiator pts", "coins", "coin pts", "total")
        for s in range(obs.players):
            team = [c for c in obs.reserve[s] + obs.discard[s] + obs.arena[s]
                    if GLADIATOR_MASK >> c & 1 and c not in obs.dead]
            pts = sum(POINTS[c] for c in team)
            mark = " [bold green]winner[/]" if s in winners else ""
            table.add_row(seat_names[s] + mark, kind_counts(tuple(team)), str(pts), str(obs.coins[s]),
                          str(obs.coins[s] // COINS_PER_POINT), f"{scores[s]:g}")
        console.print(table)


ADAPTER = GorusArenaAdapter()
