"""Gorus Arena in the terminal: the table, the market, your hand and plan, drawn with rich.

Everything comes from a seat's view: rivals' hands, draw piles and unrevealed plans are
shown as counts only. During execution every card in the market is offered for a recruit,
the ones you cannot take greyed out, so that picking one explains why not. Card values
that the source text does not give are marked ✱ (see :func:`.cards.ours_fields`).

The move log never names a planned card: a placement reads "lays a card face down" for
everyone, and the reveal (told by :meth:`GorusArenaAdapter.narrate` from the public log)
shows every plan at once. The log is printed when the game moves on, which may be after the
reveal, when the engine already shows placements to all; naming the card then would show one
seat's plan in the clear beside the others' "chose in secret".
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ...core.game import Action, Game, SeatView
from ...core.terminal import TerminalAdapter
from .actions import Done, Draw, MarketDraw, Pass, Pick, Place, Recruit
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
    CardKind,
    kinds_in,
    ours_fields,
)
from .options import AUCTIONS, REFILLS, USED_CARDS
from .rules import COINS_PER_POINT
from .views import GorusArenaObservation

__all__ = [
    "ACTION_STYLE", "ADAPTER", "EVENT_LINES", "OURS_LEGEND", "OURS_MARK", "PHASE_TEXT", "GorusArenaAdapter",
    "card_text", "cards_text", "kind_counts",
]

ACTION_STYLE = {"attack": "red", "defence": "blue", "recruit": "magenta", "income": "yellow"}
PHASE_TEXT = {"plan": "planning", "exec": "execution", "draw": "drawing", "over": "game over"}
EVENT_LINES = 14
OURS_MARK = "✱"
OURS_LEGEND = (f"{OURS_MARK} a value the source text does not give (chosen by Ludus): it has no card list, and "
               "gives only the Tired Fighter's defence 2 and the Professional Gladiator's cost 3, in its examples. "
               "'ludus games gorus-arena' lists every such value.")


def _ours(kind: CardKind, field: str, value: str) -> Text:
    """``value`` with the ✱ mark when that value of ``kind`` is ours."""
    text = Text(value)
    if field in ours_fields(kind):
        text.append(OURS_MARK, style="dim")
    return text


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
    if ours_fields(CARD[card]):  # some of these values are ours (the key is under the market)
        text.append(f" {OURS_MARK}", style="dim")
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
        parser.add_argument("--used-cards", choices=USED_CARDS,
                            help="used cards go to the discard pile (default) or leave play for good")
        parser.add_argument("--refill", choices=REFILLS,
                            help="an empty hand takes 3 market gladiators at random (default) or chosen")

    def options_from_args(self, args: argparse.Namespace) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if getattr(args, "rounds", None) is not None:
            out["rounds"] = args.rounds
        if getattr(args, "auction", None) is not None:
            out["auction"] = args.auction
        if getattr(args, "free_plan", None):
            out["free_plan"] = True
        for key in ("used_cards", "refill"):
            if getattr(args, key, None) is not None:
                out[key] = getattr(args, key)
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
            acts = _ours(kind, "actions", "/".join(kind.actions))
            acts.stylize(ACTION_STYLE[kind.actions[0]], 0, len("/".join(kind.actions)))
            name = _ours(kind, "name", kind.name)
            name.stylize(style)
            table.add_row(name, str(left), _ours(kind, "cost", str(kind.cost)), acts,
                          _ours(kind, "strength", str(kind.strength)),
                          _ours(kind, "defence", str(kind.defence)) if kind.gladiator else "–",
                          _ours(kind, "points", str(kind.points)) if kind.gladiator else "–")
        table.caption = OURS_LEGEND
        table.caption_justify = "left"
        return table

    def _prompt(self, view: SeatView, name: str | None = None) -> str:
        """What the seat decides now; ``name`` (a replay) says whose decision it is instead of "you"."""
        obs: GorusArenaObservation = view.observation
        seat = view.seat
        if obs.phase == "plan" and not obs.ready[seat]:
            who = "Plan in secret" if name is None else f"{name} plans in secret"
            return (f"{who}: the card to play in position {len(obs.plan) + 1} "
                    "(position 1 is carried out first; higher strength acts earlier in each auction).")
        if obs.phase == "exec" and obs.pending is not None and obs.pending[0] == seat:
            card = obs.pending[1]
            whose, has = ("Your", "You have") if name is None else (f"{name}'s", f"{name} has")
            return (f"{whose} {NAME[card]} acts (auction {obs.slot + 1}): "
                    f"{' or '.join(ACTIONS[card])}, or pass. {has} {obs.coins[seat]} coins.")
        if any(isinstance(a, Pick) for a in view.legal_actions):
            left = obs.draws[0][2] if obs.draws else 0
            whose = "Your" if name is None else f"{name}'s"
            return (f"{whose} hand is empty: take a gladiator from the market, free "
                    f"({left} still to take).")
        return "Waiting for the others."

    def render(self, console: Console, view: SeatView, seat_names: list[str], *, you: bool = True) -> None:
        obs: GorusArenaObservation = view.observation
        self._header(console, obs, seat_names)
        console.print(self._seat_table(obs, seat_names))
        console.print(self._market_table(obs))
        seat = view.seat
        whose = "Your" if you else f"{seat_names[seat]}'s"
        discard = "discard" if view.options.used_cards == "discard" else "used cards (out of play)"
        mine = Table.grid(padding=(0, 2))
        mine.add_column(style="bold")
        mine.add_column()
        mine.add_row(f"{whose} hand", cards_text(obs.hand))
        if obs.phase == "plan":
            mine.add_row(f"{whose} plan", cards_text(obs.plan))
        mine.add_row(f"{whose} draw pile", Text(kind_counts(obs.deck)))
        mine.add_row(f"{whose} {discard}", Text(kind_counts(obs.discard[seat])))
        console.print(mine)
        self._events(console, obs)
        console.print(Text(self._prompt(view, None if you else seat_names[seat]), style="bold"))

    def render_spectator(self, console: Console, observation: Any, seat_names: list[str]) -> None:
        obs: GorusArenaObservation = observation
        self._header(console, obs, seat_names)
        console.print(self._seat_table(obs, seat_names))
        self._events(console, obs)

    def _header(self, console: Console, obs: GorusArenaObservation, seat_names: list[str]) -> None:
        console.rule(f"[bold]Gorus Arena[/] · round {obs.round}/{obs.rounds} · {PHASE_TEXT[obs.phase]} · "
                     f"★ starts: {seat_names[obs.start]}")
        if obs.dead:
            console.print(Text("Dead pile: ", style="red").append(kind_counts(obs.dead)))

    def _events(self, console: Console, obs: GorusArenaObservation) -> None:
        for line in obs.events[-EVENT_LINES:]:
            console.print(Text("  " + line, style="dim"))

    def show_chance(self, action: Action) -> bool:
        return isinstance(action, (Draw, MarketDraw))

    def describe_secret(self, seat_name: str) -> str:
        """The only secret move is a placement: worded as the placements the log may show."""
        return f"[dim]{seat_name} lays a card face down[/]"

    def describe_action(self, seat_name: str, action: Action) -> str:
        if isinstance(action, Place):  # never the card: see the module's docstring
            return f"{seat_name} lays a card face down"
        if isinstance(action, Done):
            return f"{seat_name} finishes the plan"
        if isinstance(action, Draw):  # shown only to the drawer, or in a replay that shows everything
            return f"Seat {action.seat + 1} draws {NAME[action.card]}"
        if isinstance(action, MarketDraw):
            return f"Seat {action.seat + 1} takes {NAME[action.card]} from the market (empty hand)"
        return f"{seat_name}: {action.label}"

    def narrate(self, before: Any, after: Any, entries: Sequence[tuple[int, Action | str]],
                seat_names: list[str]) -> list[str]:
        """The public log lines the moves set off (reveals, guards, auctions, attacks and their
        outcome, automatic actions, draws, round breaks), from the observations alone.

        The lines that only repeat a move printed just above (a recruit, a pass, a pick) are
        left out; an auction line also names the winning card, read from the reveal."""
        b: GorusArenaObservation = before
        a: GorusArenaObservation = after
        new = a.event_count - b.event_count
        if new <= 0:
            return []
        lines = list(a.events[-new:])
        out = ["[dim]…[/]"] if new > len(a.events) else []
        revealed = _reveals(lines, b, a)
        for line in lines:
            if _ECHO.search(line):
                continue
            out.append(_styled(_auction_text(line, revealed), seat_names))
        return out

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


_ECHO = re.compile(r" recruits .+ for \d+ coins$| passes$|: picks .+ from the market$")
"""Log lines that only repeat the move printed above them."""
_SEAT = re.compile(r"\bSeat (\d+)\b")
_REVEAL = re.compile(r"^Seat (\d+) reveals: (.*)$")
_AUCTION = re.compile(r"^Auction (\d+): Seat (\d+) wins with strength (\d+)$")
_ROUND_AUCTION = re.compile(r"^Auction: Seat (\d+) wins with strength (\d+)$")
_TIE = re.compile(r"^Auction (\d+): tie at strength (\d+), nobody wins; turn order$")


def _reveals(lines: list[str], before: GorusArenaObservation, after: GorusArenaObservation) -> dict[int, list[str]]:
    """Each seat's revealed cards this round (labels), from the new reveal lines or else the arena."""
    out: dict[int, list[str]] = {}
    for obs in (before, after):
        for s, cards in enumerate(obs.arena):
            if cards:
                out[s] = [NAME[c] for c in cards]
    for line in lines:
        m = _REVEAL.match(line)
        if m:
            labels = [] if m.group(2) == "nothing" else m.group(2).split(", ")
            out[int(m.group(1)) - 1] = [label.rsplit(" (", 1)[0] for label in labels]  # the name only
    return out


def _strength_of(name: str) -> int | None:
    kind = next((k for k in KINDS if k.name == name), None)
    return None if kind is None else kind.strength


def _auction_text(line: str, revealed: dict[int, list[str]]) -> str:
    """An auction line saying which card won (or which cards tied), and what winning means."""
    m = _AUCTION.match(line)
    if m:
        slot, seat = int(m.group(1)) - 1, int(m.group(2)) - 1
        cards = revealed.get(seat, [])
        card = f" with {cards[slot]}" if slot < len(cards) else ""
        return f"Auction {slot + 1}: Seat {seat + 1} wins{card} (strength {m.group(3)}) and acts first"
    m = _ROUND_AUCTION.match(line)
    if m:
        return (f"Auction: Seat {m.group(1)} wins with strength {m.group(2)}; it acts first at every position "
                "this round")
    m = _TIE.match(line)
    if m:
        slot = int(m.group(1)) - 1
        strength = int(m.group(2))
        tied = [f"Seat {s + 1}'s {cards[slot]}" for s, cards in sorted(revealed.items())
                if slot < len(cards) and _strength_of(cards[slot]) == strength]
        who = f" ({', '.join(tied)})" if tied else ""
        return (f"Auction {slot + 1}: tie at strength {m.group(2)}{who}: nobody wins; the cards act in turn order")
    return line


def _styled(line: str, seat_names: list[str]) -> str:
    """A log line as rich markup: seats by name (where a seat has a name of its own), and a
    colour for what matters most (kills, auctions, reveals, round breaks)."""
    def name(m: re.Match[str]) -> str:
        s = int(m.group(1)) - 1
        label = seat_names[s] if 0 <= s < len(seat_names) else ""
        return label if label and not label.startswith(f"Seat {s + 1}") else "\x00" + m.group(1)

    text = escape(line)
    text = _SEAT.sub(name, text).replace("\x00", "Seat ")  # names come as markup already
    if line.startswith("— Round") or line.startswith("Game over"):
        return f"[bold]{text}[/]"
    if line.endswith(": killed"):
        return f"[red]{text}[/]"
    if line.startswith("Auction"):
        return f"[yellow]{text}[/]"
    if " reveals: " in line:
        return f"[cyan]{text}[/]"
    return f"[dim]{text}[/]"


ADAPTER = GorusArenaAdapter()
