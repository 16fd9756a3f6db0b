"""Terminal view of Gladius: both fighters' hit points, your hand with what each card may do
now (and why not), the card on the table, the last attack and defence, and card counting."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ...core.errors import LudusError
from ...core.game import CHANCE, Action, SeatView
from ...core.terminal import TerminalAdapter
from .actions import (
    AdversaryAttack,
    AdversaryDefend,
    Attack,
    Defend,
    Discard,
    DrawCard,
    FirstPlayer,
    MiniDraw,
    Reshuffle,
    SkipTurn,
    card_label,
)
from .cards import OURS_SETS, SHARED_ID, Card
from .game import GAME
from .rules import Setup
from .views import GladiusObservation

__all__ = ["ADAPTER", "OURS_MARK", "GladiusAdapter", "card_text", "hp_bar", "ours_legend"]

_HELP = "Type a number or a move's name; 'c' lists the deck and what is still unaccounted for."
OURS_MARK = "✱"
"""Marks a fighter or card that the rulebook does not print (the Lion: Ludus's own example)."""


def hp_bar(hp: int, max_hp: int, width: int = 20) -> Text:
    filled = 0 if max_hp <= 0 else round(width * min(hp, max_hp) / max_hp)
    style = "green" if hp * 2 > max_hp else "yellow" if hp * 4 > max_hp else "red"
    out = Text("█" * filled, style=style)
    out.append("░" * (width - filled), style="dim")
    out.append(f" {hp}/{max_hp}", style="bold")
    return out


def card_text(setup: Setup | None, key: str) -> Text:
    if setup is None or key not in setup.index:
        return Text(card_label(key), style="bold")
    c: Card = setup.kinds[setup.index[key]]
    style = "bold red" if c.is_attack else "bold cyan"
    out = Text(card_label(key), style=style)
    if c.set_id in OURS_SETS:
        out.append(OURS_MARK, style="blue")
    out.append(f" [{c.effect()}]", style="dim")
    return out


def ours_legend(fighters: tuple[str, ...] | list[str], names: tuple[str, ...] | list[str]) -> Text | None:
    """One line explaining the mark, when a fighter in play is not from the rulebook."""
    ours = [names[i] for i, f in enumerate(fighters) if f in OURS_SETS]
    if not ours:
        return None
    return Text(f"{OURS_MARK} {' and '.join(dict.fromkeys(ours))}: not in the rulebook; its cards and numbers "
                "are Ludus's own (see 'ludus rules gladius').", style="dim")


class GladiusAdapter(TerminalAdapter):
    game_name = "gladius"

    def __init__(self) -> None:
        self._names: list[str] = []
        self._setup: Setup | None = None

    def _setup_for(self, obs: GladiusObservation) -> Setup | None:
        """The card tables for a spectator's observation (which does not carry the options)."""
        if self._setup is not None and tuple(s.id for s in self._setup.sides) == obs.fighters:
            return self._setup
        try:
            return GAME.setup({"fighter1": obs.fighters[0], "fighter2": obs.fighters[1]})
        except LudusError:
            return None

    # ----------------------------------------------------------------- flags
    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--me", metavar="TYPE",
                            help="your fighter type: secutor, retiarius (default), thracian, murmillo, "
                                 "dimachaeri, samnite, postulati, lion, or one from --card-set")
        parser.add_argument("--opponent", metavar="TYPE", help="the other fighter's type (default secutor)")
        parser.add_argument("--solo", action="store_true",
                            help="solo rules: you against the automated opponent's mini-hands")
        parser.add_argument("--card-set", action="append", metavar="FILE",
                            help="load a card-set file (a new fighter or animal); may be repeated")

    def options_from_args(self, args: argparse.Namespace) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if getattr(args, "me", None):
            out["fighter1"] = args.me.strip().lower()
        if getattr(args, "opponent", None):
            out["fighter2"] = args.opponent.strip().lower()
        if getattr(args, "solo", False):
            out["solo"] = True
        if getattr(args, "card_set", None):
            out["card_sets"] = ",".join(args.card_set)
        return out

    # ----------------------------------------------------------------- choices
    def choices(self, view: SeatView) -> list[tuple[Action, bool]]:
        """Every distinct card in hand as this phase's move (legal or not), then the pass."""
        obs: GladiusObservation = view.observation
        legal = set(view.legal_actions)
        keys = list(dict.fromkeys(obs.hand))
        out: list[tuple[Action, bool]] = []
        if obs.phase == "discard":
            return [(Discard(k), Discard(k) in legal) for k in keys]
        if obs.phase == "attack":
            out = [(Attack(k), Attack(k) in legal) for k in keys]
            out.append((Attack(None), Attack(None) in legal))  # not with option attack = compulsory and a card to play
        elif obs.phase == "defend":
            out = [(Defend(k), Defend(k) in legal) for k in keys]
            out.append((Defend(None), True))
        else:
            out = [(a, True) for a in view.legal_actions]
        return out

    # ----------------------------------------------------------------- rendering
    def _side_name(self, obs: GladiusObservation, side: int, names: list[str]) -> str:
        if obs.solo and side == 1:
            return f"the {obs.names[1]}"
        if side < len(names):
            return names[side]
        return obs.names[side]

    def _fighters(self, console: Console, obs: GladiusObservation, names: list[str], you: bool = True) -> None:
        grid = Table.grid(padding=(0, 2))
        for side in (0, 1):
            name = Text(self._side_name(obs, side, names), style="bold")
            if obs.fighters[side] in OURS_SETS:
                name.append(OURS_MARK, style="blue")
            if obs.seat == side:
                name.append(" (you)" if you else " (this view)", style="bold green")
            notes = []
            if obs.skip[side]:
                notes.append("immobilized: loses the next turn")
            lock = obs.locked[side]
            if lock is not None:
                notes.append(f"no attack next turn ({card_label(lock).split(' (')[0]})")
            if side == obs.active and obs.barred is not None and obs.phase not in ("over",):
                notes.append("may not attack this turn")
            hand = "" if obs.solo and side == 1 else f"{obs.hand_sizes[side]} cards"
            grid.add_row(name, hp_bar(obs.hit_points[side], obs.max_hit_points[side]), Text(hand, style="dim"),
                         Text("; ".join(notes), style="yellow"))
        console.print(grid)
        legend = ours_legend(obs.fighters, obs.names)
        if legend is not None:
            console.print(legend)

    def _exchange(self, obs: GladiusObservation, setup: Setup | None, names: list[str]) -> Text | None:
        if obs.last_attack is None:
            if obs.last_result == "skipped":
                return Text("Last turn was lost to an Immobilize.", style="dim")
            return None
        side, key = obs.last_attack
        who = self._side_name(obs, side, names)
        if key is None:
            return Text(f"Last turn: {who} did not attack.", style="dim")
        out = Text(f"Last attack: {who} played ")
        out.append_text(card_text(setup, key))
        if obs.last_defence is not None:
            dside, dkey = obs.last_defence
            dwho = self._side_name(obs, dside, names)
            if dkey is None:
                out.append(f" — {dwho} did not defend", style="")
                if setup is not None:
                    out.append(": " + setup.kinds[setup.index[key]].effect().split(";")[0], style="bold red")
            else:
                out.append(f" — {dwho} answered with ")
                out.append_text(card_text(setup, dkey))
                out.append(f" ({obs.last_result})")
        return out

    def _table_line(self, obs: GladiusObservation) -> Text:
        out = Text(f"Turn {obs.turn}", style="bold")
        if obs.turn_limit:
            out.append(f"/{obs.turn_limit}", style="dim")
        out.append(f"   Deck {obs.draw_pile}   Discards {sum(n for _, n in obs.discard)}")
        if obs.reshuffles:
            out.append(f"   (reshuffled {obs.reshuffles}×)")
        return out

    def render(self, console: Console, view: SeatView, seat_names: list[str], *, you: bool = True) -> None:
        obs: GladiusObservation = view.observation
        self._names = list(seat_names)
        setup = self._setup = GAME.setup(view.options)
        console.rule(f"[bold]Gladius[/] — {self._side_name(obs, 0, seat_names)} vs "
                     f"{self._side_name(obs, 1, seat_names)}")
        self._fighters(console, obs, seat_names, you)
        me = view.seat
        mine = self._side_name(obs, me, seat_names)  # the seat's name when the reader is someone else
        console.print(self._table_line(obs))
        ex = self._exchange(obs, setup, seat_names)
        if (ex is not None and obs.last_defence is not None) or obs.last_result in ("no attack", "skipped"):
            console.print(ex)
        if obs.table is not None and obs.phase == "defend":
            atk = Text("Incoming attack: ", style="bold")
            atk.append_text(card_text(setup, obs.table))
            if setup.kinds[setup.index[obs.table]].immobilize:
                atk.append("  — only an Evade stops it", style="yellow")
            console.print(atk)
        if not obs.solo and (obs.opponent_known or obs.opponent_unknown):
            known = Text("You know they hold: " if you else
                         f"{mine} knows {self._side_name(obs, 1 - me, seat_names)} holds: ", style="dim")
            known.append(", ".join(card_label(k) for k in obs.opponent_known) or "nothing for sure", style="dim")
            known.append(f" (+{obs.opponent_unknown} unknown)", style="dim")
            console.print(known)
        hand = Table(title="Your hand" if you else f"Hand of {mine}", show_header=True, header_style="bold",
                     title_justify="left")
        hand.add_column("card")
        hand.add_column("now")
        for key in obs.hand:
            reason = GAME.explain(view, self._phase_action(obs, key)) if obs.to_act == me else None
            k = setup.index[key]
            if k not in setup.usable[me]:
                c = setup.kinds[k]
                owner = f"a shared card {'you' if you else 'it'} may not use" if c.set_id == SHARED_ID else \
                    f"a {setup.set_name(c.set_id)} card"
                status = Text(f"{'not yours' if you else 'not its own'} ({owner})", style="dim")
            elif obs.to_act != me:
                status = Text("")
            elif reason is None:
                status = Text("playable", style="green")
            else:
                status = Text(reason, style="dim")
            hand.add_row(card_text(setup, key), status)
        console.print(hand)
        if not you:  # a replay: the prompt is for the person deciding, not for the reader
            return
        pass_reason = GAME.explain(view, Attack(None)) if obs.phase == "attack" and obs.to_act == me else None
        console.print(Text(self._prompt(obs, pass_reason), style="bold"))

    @staticmethod
    def _phase_action(obs: GladiusObservation, key: str) -> Action:
        if obs.phase == "discard":
            return Discard(key)
        if obs.phase == "defend":
            return Defend(key)
        return Attack(key)

    @staticmethod
    def _prompt(obs: GladiusObservation, pass_reason: str | None = None) -> str:
        """The line under the hand; ``pass_reason`` says why "no attack" is refused, if it is."""
        if obs.phase == "discard":
            return f"Maneuver: you hold {len(obs.hand)} cards; discard down to {obs.hand_limit}."
        if obs.phase == "attack":
            if pass_reason is not None:
                return f"Attack phase: play an attack card. No attack is not allowed: {pass_reason}."
            return "Attack phase: play an attack card, or no attack."
        if obs.phase == "defend":
            return "Defence phase: answer with a Block or an Evade, or take the blow."
        return ""

    def render_spectator(self, console: Console, observation: Any, seat_names: list[str]) -> None:
        obs: GladiusObservation = observation
        self._names = list(seat_names)
        setup = self._setup_for(obs)
        self._fighters(console, obs, seat_names)
        console.print(self._table_line(obs))
        ex = self._exchange(obs, setup, seat_names)
        if ex is not None:
            console.print(ex)

    def handle_command(self, console: Console, text: str, view: SeatView, seat_names: list[str]) -> bool:
        t = text.strip().lower()
        if t in ("?", "h", "help"):
            console.print(_HELP)
            return True
        if t in ("c", "cards"):
            self._card_table(console, view)
            return True
        return False

    def _card_table(self, console: Console, view: SeatView) -> None:
        """Every kind in the deck: its owner, effect, count, and how many are unaccounted for."""
        obs: GladiusObservation = view.observation
        setup = GAME.setup(view.options)
        seen = setup.counts()
        for key in obs.hand + obs.mini_hand + obs.opponent_known:
            seen[setup.index[key]] -= 1
        if obs.table is not None:
            seen[setup.index[obs.table]] -= 1
        for key, n in obs.discard:
            seen[setup.index[key]] -= n
        table = Table(title=f"The deck ({setup.n_cards} cards)", header_style="bold")
        for col in ("card", "owner", "effect", "in deck", "unaccounted"):
            table.add_column(col)
        for k, c in enumerate(setup.kinds):
            owner = "both" if c.set_id == SHARED_ID else setup.set_name(c.set_id)
            if c.set_id in OURS_SETS:
                owner += f" {OURS_MARK}"
            table.add_row(c.name, owner, c.effect(), str(c.count), str(seen[k]))
        console.print(table)
        sizes = ", ".join(f"{s.name} {s.size}" for s in setup.sides)
        console.print(Text(f"Set sizes: shared {setup.catalogue.shared.size}, {sizes}", style="dim"))
        legend = ours_legend(setup.fighters, [s.name for s in setup.sides])
        if legend is not None:
            console.print(legend)

    def show_chance(self, action: Action) -> bool:
        return True

    def describe_action(self, seat_name: str, action: Action) -> str:
        names = self._names
        t = type(action)

        def fighter(seat: int) -> str:
            if seat < len(names):
                return names[seat]
            if len(names) == 1:  # solo: the automated opponent
                return f"The {self._setup.sides[seat].name}" if self._setup is not None else "The opponent"
            return f"Fighter {seat + 1}"

        if t is DrawCard:
            who = fighter(action.seat)  # type: ignore[attr-defined]
            return f"{who} {_verb(who, 'draws', 'draw')} {card_label(action.card)}"  # type: ignore[attr-defined]
        if t is SkipTurn:
            who = fighter(action.seat)  # type: ignore[attr-defined]
            return f"{who} {_verb(who, 'is immobilized and loses', 'are immobilized and lose')} the turn"
        if t is FirstPlayer:
            who = fighter(action.seat)  # type: ignore[attr-defined]
            return f"{who} {_verb(who, 'moves', 'move')} first"
        foe = f"The {self._setup.sides[1].name}" if self._setup is not None else "The opponent"
        if t is MiniDraw:
            return f"{foe}'s mini-hand: {card_label(action.card)}"  # type: ignore[attr-defined]
        if t is AdversaryAttack:
            card = action.card  # type: ignore[attr-defined]
            return f"{foe} cannot attack" if card is None else f"{foe} attacks: {card_label(card)}"
        if t is AdversaryDefend:
            card = action.card  # type: ignore[attr-defined]
            return f"{foe} has no defence" if card is None else f"{foe} defends: {card_label(card)}"
        if t is Reshuffle:
            return action.label
        if t is Attack and action.card is None:  # type: ignore[attr-defined]
            return f"{seat_name} {_verb(seat_name, 'does', 'do')} not attack"
        if t is Defend and action.card is None:  # type: ignore[attr-defined]
            return f"{seat_name} {_verb(seat_name, 'takes', 'take')} the blow"
        return f"{seat_name}: {action.label}"

    def narrate(self, before: Any, after: Any, entries: Sequence[tuple[int, Action | str]],
                seat_names: list[str]) -> list[str]:
        """One line per exchange settled in ``entries``: the attack, the answer and the outcome
        (blocked, evaded, damage, immobilized), both fighters' hit points, and who falls.

        Attacks and answers are public, so this tells nothing a reader may not see. The attack
        of an exchange settled here was played here or is the card on the table in ``before``;
        hit points are followed from ``before`` with the cards' printed effects.
        """
        b: GladiusObservation = before
        a: GladiusObservation = after
        names = list(seat_names)
        self._names = names
        setup = self._setup_for(a)
        if setup is not None:
            self._setup = setup  # for describe_action's next lines (the solo opponent's name)
        hp = list(b.hit_points)
        attack: tuple[int, str] | None = None if b.table is None else (b.active, b.table)
        lines: list[str] = []
        told = 0
        for actor, action in entries:
            t = type(action)
            if t is Attack and action.card is not None:  # type: ignore[union-attr]
                attack = (actor, action.card)  # type: ignore[union-attr]
            elif t is AdversaryAttack and action.card is not None:  # type: ignore[union-attr]
                attack = (1, action.card)  # type: ignore[union-attr]
            elif (t is Defend and actor != CHANCE) or t is AdversaryDefend:
                if attack is None:  # pragma: no cover - an answer always follows an attack
                    continue
                defender = actor if t is Defend else 1
                lines.append(self._outcome(a, setup, names, attack, defender,
                                           action.card, hp))  # type: ignore[union-attr]
                attack = None
                told += 1
        if a.exchanges - b.exchanges > told and a.settled is not None:
            # settled by chance between the moves shown (a record keeps only the decisions of a
            # seeded game: the solo opponent's defence happens out of sight of ``entries``)
            side, key, defence = a.settled
            lines.append(self._outcome(a, setup, names, (side, key), 1 - side, defence, hp))
        return lines

    def _outcome(self, obs: GladiusObservation, setup: Setup | None, names: list[str],
                 attack: tuple[int, str], defender: int, defence: str | None, hp: list[int]) -> str:
        """The line for one settled exchange; updates ``hp`` (followed through the entries)."""
        attacker, key = attack
        foe, me = self._side_name(obs, defender, names), self._side_name(obs, attacker, names)
        card = setup.kinds[setup.index[key]] if setup is not None and key in setup.index else None
        out = f"→ [bold]{escape(card_label(key))}[/] "
        if defence is not None:
            answer = setup.kinds[setup.index[defence]] if setup is not None and defence in setup.index else None
            if answer is not None and answer.is_evade:
                out += (f"[cyan]evaded[/] with [bold]{escape(card_label(defence))}[/] ({foe} may not attack "
                        "on the next turn)")
            elif answer is not None:
                out += f"[cyan]blocked[/] by [bold]{escape(card_label(defence))}[/]"
            else:
                out += f"stopped by [bold]{escape(card_label(defence))}[/]"
        else:
            out += "not answered: "
            effects = []
            if card is None:
                hp[:] = list(obs.hit_points)
                effects.append("it hits")
            else:
                if card.damage:
                    hp[defender] = max(0, hp[defender] - card.damage)
                    effects.append(f"[red]{card.damage} damage[/] to {foe}")
                if card.immobilize:
                    effects.append(f"[yellow]{foe} {_verb(foe, 'is', 'are')} immobilized[/] and "
                                   f"{_verb(foe, 'loses', 'lose')} the next turn")
            out += ", ".join(effects)
        if card is not None and card.no_attack_next_turn:
            out += f"; {me} may not attack on the next turn"
        out += (f". Hit points: {self._side_name(obs, 0, names)} {hp[0]}/{obs.max_hit_points[0]}, "
                f"{self._side_name(obs, 1, names)} {hp[1]}/{obs.max_hit_points[1]}.")
        if hp[defender] == 0:
            out += f" [bold]{foe} {_verb(foe, 'falls', 'fall')}: {me} {_verb(me, 'wins', 'win')}.[/]"
        return out

    def render_final(self, console: Console, observation: Any, scores: list[float],
                     winners: list[int], seat_names: list[str]) -> None:
        obs: GladiusObservation = observation
        console.rule("Game over")
        why = {"knockout": "down to 0 hit points", "deck": "the deck ran out",
               "turn-limit": "the turn limit was reached"}.get(obs.end, obs.end)
        for side in (0, 1):
            name = self._side_name(obs, side, seat_names)
            mark = "  [bold green]winner[/]" if side in obs.winners and len(obs.winners) == 1 else ""
            console.print(f"{name}: {obs.hit_points[side]}/{obs.max_hit_points[side]} hit points{mark}")
        if len(obs.winners) == 2:
            console.print(f"A draw ({why}).")
        else:
            console.print(f"{self._side_name(obs, obs.winners[0], seat_names)} wins ({why}).")


def _verb(name: str, one: str, you: str) -> str:
    """``one`` after a seat's name ("Ann draws"), ``you`` after "You" (a seat the game or a
    lesson calls "You": "You draw")."""
    return you if name == "You" or name.startswith("You ") else one


ADAPTER = GladiusAdapter()
