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
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ...core.errors import IllegalAction
from ...core.game import Action, Game, SeatView
from ...core.provenance import DataValue
from ...core.terminal import TerminalAdapter
from ...i18n import N_, _, format_number, ngettext
from .actions import INCOME, Attack, Done, Draw, Income, MarketDraw, Pass, Pick, Place, Recruit
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
from .events import (
    ATTACK_EV,
    AUCTION,
    DOWN,
    DRAWS,
    GAME_OVER,
    GUARDED,
    GUARDS,
    INCOME_EV,
    MARKET,
    NO_ATTACK,
    NO_RECRUIT,
    PASSES,
    RECRUITS,
    RESHUFFLE,
    REVEAL,
    ROUND,
    TIE,
    Event,
)
from .options import AUCTIONS, REFILLS, USED_CARDS
from .rules import COINS_PER_POINT, REFUSAL
from .views import GorusArenaObservation

__all__ = [
    "ACTION_STYLE", "ACTION_WORDS", "ADAPTER", "EVENT_LINES", "KIND_WORDS", "OURS_LEGEND", "OURS_MARK", "PHASE_TEXT",
    "TITLE", "GorusArenaAdapter", "card_label", "card_name", "card_text", "cards_text", "event_line", "kind_counts",
    "refusal_text",
]

ACTION_STYLE = {"attack": "red", "defence": "blue", "recruit": "magenta", "income": "yellow"}
ACTION_WORDS = {"attack": N_("attack"), "defence": N_("defence"), "recruit": N_("recruit"), "income": N_("income")}
"""The four actions as a card shows them."""
PHASE_TEXT = {"plan": N_("planning"), "exec": N_("execution"), "draw": N_("drawing"), "over": N_("game over")}
EVENT_LINES = 14
OURS_MARK = "✱"
_OURS_LEGEND = N_("{mark} a value the source text does not give (chosen by Ludus): it has no card list, and gives "
                  "only the Tired Fighter's defence {defence} and the Professional Gladiator's cost {cost}, in its "
                  "examples. 'ludus games gorus-arena' lists every such value.")
OURS_LEGEND = _OURS_LEGEND.format(mark=OURS_MARK, defence=2, cost=3)
"""The legend under the market, in English (the terminal shows it in the reader's language)."""
TITLE = N_("Gorus Arena")
"""The game's title (``GorusArenaGame.title``), shown through ``_()`` where a player reads it."""
KIND_WORDS = (
    N_("Tired Fighter"), N_("Slave"), N_("Professional Gladiator"), N_("Retiarius"), N_("Eques"), N_("Provocator"),
    N_("Thraex"), N_("Murmillo"), N_("Hoplomachus"), N_("Secutor"), N_("Rudiarius"), N_("Dimachaerus"),
    N_("Champion of the Arena"), N_("Ambush"), N_("Thumbs Down"), N_("Shield Wall"), N_("Testudo"),
    N_("Lanista's Favour"), N_("Patron's Purse"),
)
"""The card kinds' names as the card file writes them (data/cards.toml), for the catalogs; each is
shown through ``_()`` (a test checks the list is complete)."""


FIELD_WORDS = {"name": N_("name"), "cost": N_("cost"), "defence": N_("defence"), "points": N_("points"),
               "strength": N_("strength"), "actions": N_("actions"), "market": N_("copies in the market"),
               "armoury": N_("copies in the armoury")}
"""The fields a card kind's unprinted values name ("Eques: cost", ``CARD_FIELDS``), for ``ludus games``."""


def card_name(card: int) -> str:
    """A card's name ("Tired Fighter") in the language in use."""
    return _(NAME[card])


def kind_name(key: str) -> str:
    """A card kind's name by its key, in the language in use."""
    return _(KIND_BY_KEY[key].name)


def _acts(actions: Sequence[str]) -> str:
    return "/".join(_(ACTION_WORDS[a]) if a in ACTION_WORDS else a for a in actions)


def card_label(card: int) -> str:
    """A card with its action(s) and strength ("Tired Fighter (income 2)"), in the language in use."""
    return f"{card_name(card)} ({_acts(ACTIONS[card])} {format_number(STRENGTH[card])})"


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
    text.append(card_name(card), style="strike dim" if dead else ("dim" if acted else "bold"))
    text.append(" [")
    for i, a in enumerate(acts):
        if i:
            text.append("/")
        text.append(_(ACTION_WORDS[a]), style=ACTION_STYLE[a])
    text.append(f" {format_number(STRENGTH[card])}]")
    if CARD[card].gladiator:
        text.append(" " + _("def {defence} · {points} pts", defence=DEFENCE[card], points=POINTS[card]), style="dim")
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
        counts.append(f"{kind_name(key)}{f' ×{format_number(n)}' if n > 1 else ''}")
    return _(", ").join(counts) or "—"


def _seat(s: int) -> str:
    """A seat as the log names it ("Seat 2"), in the language in use."""
    return _("Seat {number}", number=s + 1)


def _who(seat: str, card: int) -> str:
    return _("{seat}'s {card}", seat=seat, card=card_name(card))


def event_line(event: Event, seat: Callable[[int], str] = _seat) -> str:
    """A log line in the language in use (the English is :func:`.events.event_text`), seats named
    by ``seat``; a line read back from a position as text stays as it is."""
    if isinstance(event, str):
        return event
    code, *v = event
    if code == ROUND:
        return _("— Round {round} of {rounds}: {seat} starts —", round=v[0], rounds=v[1], seat=seat(v[2]))
    if code == REVEAL:
        return _("{seat} reveals: {cards}", seat=seat(v[0]),
                 cards=_(", ").join(card_label(c) for c in v[1]) or _("nothing"))
    if code == GUARDED:
        return _("{seat}'s gladiators are guarded: defence at least {shield}", seat=seat(v[0]), shield=v[1])
    if code == AUCTION:
        if v[0]:
            return _("Auction {number}: {seat} wins with strength {strength}", number=v[0], seat=seat(v[1]),
                     strength=v[2])
        return _("Auction: {seat} wins with strength {strength}", seat=seat(v[1]), strength=v[2])
    if code == TIE:
        if v[0]:
            return _("Auction {number}: tie at strength {strength}, nobody wins; turn order", number=v[0],
                     strength=v[1])
        return _("Auction: tie at strength {strength}, nobody wins; turn order", strength=v[1])
    if code == DOWN:
        return _("{card} is down but still acts: the auction was tied", card=_who(seat(v[0]), v[1]))
    if code == INCOME_EV:
        return _("{card}: income, +{count} coins", card=_who(seat(v[0]), v[1]), count=INCOME)
    if code == GUARDS:
        return _("{card} guards: defence at least {shield} for the rest of the round", card=_who(seat(v[0]), v[1]),
                 shield=v[2])
    if code == NO_RECRUIT:
        who = _who(seat(v[0]), v[1])
        return _("{card}: no recruit (hand full)", card=who) if v[2] else \
            _("{card}: no recruit (cannot afford anything)", card=who)
    if code == NO_ATTACK:
        return _("{card}: nobody to attack", card=_who(seat(v[0]), v[1]))
    if code == GAME_OVER:
        return _("Game over: {scores}",
                 scores=_(", ").join(f"{seat(s)} {format_number(x)}" for s, x in enumerate(v[0])))
    if code == RESHUFFLE:
        return _("{seat} turns the discard pile into a new draw pile", seat=seat(v[0]))
    if code == DRAWS:
        return ngettext("{seat} draws {count} card", "{seat} draws {count} cards", v[1], seat=seat(v[0]), count=v[1])
    if code == MARKET:
        if v[2]:
            return _("{seat}'s hand is empty: picks {card} from the market", seat=seat(v[0]), card=card_name(v[1]))
        return _("{seat}'s hand is empty: takes {card} from the market", seat=seat(v[0]), card=card_name(v[1]))
    if code == RECRUITS:
        return _("{card} recruits {kind} for {cost} coins", card=_who(seat(v[0]), v[1]), kind=kind_name(v[2]),
                 cost=v[3])
    if code == PASSES:
        return _("{card} passes", card=_who(seat(v[0]), v[1]))
    if code == ATTACK_EV:
        s, card, victim, target, guard, killed = v
        attacker, defender = _who(seat(s), card), _who(seat(victim), target)
        if killed:
            return _("{attacker} (strength {strength}) attacks {defender} (defence {guard}): killed",
                     attacker=attacker, strength=STRENGTH[card], defender=defender, guard=guard)
        return _("{attacker} (strength {strength}) attacks {defender} (defence {guard}): the attack fails",
                 attacker=attacker, strength=STRENGTH[card], defender=defender, guard=guard)
    return str(event)


def refusal_text(code: str | None, params: dict[str, Any]) -> str | None:
    """A Gorus Arena refusal (its code and params, :mod:`ludus.games.gorus_arena.rules`) in the
    language in use; None for a code that is not this game's."""
    if not code or not code.startswith(REFUSAL):
        return None
    key, p = code[len(REFUSAL):], params
    if key == "planning-over":
        return _("planning is over for this round; now the revealed cards are carried out")
    if key == "not-your-turn":
        return _("it is not your turn")
    if key == "cannot-income":
        return _("your {card} cannot take income (it can: {actions})", card=card_name(p["card"]),
                 actions=_acts(ACTIONS[p["card"]]))
    if key == "not-a-move":
        return _("{action} is not a move a player makes", action=p["action"])
    if key == "plan-complete":
        return _("your plan for this round is already complete")
    if key == "not-in-hand":
        return _("you have no {kind} in your hand", kind=kind_name(p["kind"]))
    if key == "plan-all":
        return _("every card in your hand goes into your plan: a hand holds at most {limit} cards, so you always "
                 "play them all (the free-plan option allows stopping early)", limit=p["limit"])
    if key == "plan-empty":
        return _("put at least one card in your plan first")
    if key == "planning":
        return _("it is the planning phase: put the cards of your hand into your plan, in the order to play them")
    if key == "not-picking":
        return _("only a player whose hand is empty after drawing takes cards from the market, and not now")
    if key == "pick-first":
        return _("your hand is empty: take a gladiator from the market first (it is free)")
    if key == "pick-gladiator":
        return _("only gladiators refill an empty hand, not action cards")
    if key == "none-left":
        return _("there is no {kind} left in the market", kind=kind_name(p["kind"]))
    if key == "cannot-recruit":
        return _("your {card} cannot recruit (it can: {actions})", card=card_name(p["card"]),
                 actions=_acts(ACTIONS[p["card"]]))
    if key == "no-armoury":
        return _("{kind} is an action card and this game has no armoury", kind=kind_name(p["kind"]))
    if key == "hand-full":
        return _("your hand is full ({limit} cards); a recruit joins your hand", limit=p["limit"])
    if key == "too-dear":
        return _("{kind} costs {cost} coins and you have {coins}", kind=kind_name(p["kind"]), cost=p["cost"],
                 coins=p["coins"])
    if key == "cannot-attack":
        return _("your {card} cannot attack (it can: {actions})", card=card_name(p["card"]),
                 actions=_acts(ACTIONS[p["card"]]))
    if key == "no-such-card":
        return _("there is no such card")
    if key == "already-dead":
        return _("that {card} is already dead", card=card_name(p["target"]))
    if key == "not-a-gladiator":
        return _("{card} is an action card, not a gladiator; only gladiators can be attacked",
                 card=card_name(p["target"]))
    if key == "own-gladiator":
        return _("you cannot attack your own gladiator")
    if key == "not-in-auction":
        return _("that {card} is not in this auction; a card can only attack the rival cards planned at the same "
                 "position (position {position})", card=card_name(p["target"]), position=p["position"])
    if key == "not-in-arena":
        return _("that {card} is not in the arena this round; only revealed gladiators can be attacked",
                 card=card_name(p["target"]))
    if key == "not-an-opponents":
        return _("that {card} belongs to no opponent", card=card_name(p["target"]))
    return None


class GorusArenaAdapter(TerminalAdapter):
    game_name = "gorus-arena"

    def describe_data_value(self, value: DataValue) -> tuple[str, str, str]:
        """A card kind's value: its name and field translated, its actions ("attack or income") too."""
        subject, shown, note = super().describe_data_value(value)
        words = value.value.split(" or ")
        if all(w in ACTION_WORDS for w in words):
            if len(words) == 1:
                shown = _(ACTION_WORDS[words[0]])
            elif len(words) == 2:
                shown = _("{first} or {second}", first=_(ACTION_WORDS[words[0]]), second=_(ACTION_WORDS[words[1]]))
        return subject, shown, note

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--rounds", type=int, help=_("number of rounds (default 6)"))
        parser.add_argument("--auction", choices=AUCTIONS, help=_("one auction per plan position or per round"))
        parser.add_argument("--free-plan", action="store_true", default=None,
                            help=_("plan any 1-5 cards and keep the others in hand"))
        parser.add_argument("--used-cards", choices=USED_CARDS,
                            help=_("used cards go to the discard pile (default) or leave play for good"))
        parser.add_argument("--refill", choices=REFILLS,
                            help=_("an empty hand takes 3 market gladiators at random (default) or chosen"))

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

    def label(self, action: Action) -> str:
        """A move as the move list names it, in the language in use (the English label may be typed too)."""
        a: Any = action
        if isinstance(action, Place):
            kind = KIND_BY_KEY[a.card]
            return _("plan {kind} ({actions} {strength})", kind=_(kind.name), actions=_acts(kind.actions),
                     strength=kind.strength)
        if isinstance(action, Done):
            return _("finish plan")
        if isinstance(action, Attack):
            return _("attack {card} #{number}", card=card_name(a.target), number=a.target)
        if isinstance(action, Recruit):
            kind = KIND_BY_KEY[a.card]
            return ngettext("recruit {kind} ({count} coin)", "recruit {kind} ({count} coins)", kind.cost,
                            kind=_(kind.name), count=kind.cost)
        if isinstance(action, Income):
            return _("take income ({count} coins)", count=INCOME)
        if isinstance(action, Pass):
            return _("pass")
        if isinstance(action, Pick):
            return _("take {kind} from the market (free: your hand is empty)", kind=kind_name(a.card))
        if isinstance(action, Draw):
            return _("{seat} draws {card}", seat=_seat(a.seat), card=card_name(a.card))
        if isinstance(action, MarketDraw):
            return _("{seat} takes {card} from the market", seat=_seat(a.seat), card=card_name(a.card))
        return action.label

    def describe_refusal(self, error: IllegalAction) -> str:
        return refusal_text(error.code, error.params) or super().describe_refusal(error)

    # ------------------------------------------------------------- drawing
    def _seat_table(self, obs: GorusArenaObservation, seat_names: list[str]) -> Table:
        table = Table(title=None, expand=False, show_lines=True)
        table.add_column(_("seat"))
        table.add_column(_("coins"), justify="right")
        table.add_column(_("score"), justify="right")
        table.add_column(_("hand · plan · pile · discard"), justify="center")
        table.add_column(_("arena (this round)"))
        table.add_column(_("team out of sight"))
        acting = obs.pending[1] if obs.pending is not None else None
        for s in range(obs.players):
            name = Text(seat_names[s], style="bold cyan" if s == obs.seat else "")
            if s == obs.start:
                name.append(" ★", style="yellow")
            if obs.phase == "plan":
                name.append("\n" + (_("(plan ready)") if obs.ready[s] else _("(planning…)")), style="dim")
            if obs.shield[s]:
                name.append("\n" + _("guard {shield}", shield=obs.shield[s]), style="blue")
            piles = " · ".join(format_number(n) for n in (obs.held[s], obs.planned[s], obs.deck_count[s],
                                                            len(obs.discard[s])))
            hidden = tuple(c for c in obs.reserve[s] if GLADIATOR_MASK >> c & 1)
            table.add_row(name, format_number(obs.coins[s]), format_number(obs.scores[s]), piles,
                          cards_text(obs.arena[s], obs, acting), kind_counts(hidden) if hidden else "—")
        return table

    def _market_table(self, obs: GorusArenaObservation) -> Table:
        table = Table(title=_("Market (gladiators) and armoury (action cards)"), show_edge=False)
        for col, words in (("card", _("card")), ("left", _("left")), ("cost", _("cost")), ("action", _("action")),
                           ("str", _("str")), ("def", _("def")), ("pts", _("pts"))):
            table.add_column(words, justify="left" if col in ("card", "action") else "right")
        market = sum(1 << c for c in obs.market)
        for kind in KINDS:
            if kind.basic:
                continue
            left = sum(1 for c in obs.market if CARD[c].key == kind.key)
            if not left and not (market or kind.gladiator):
                continue
            style = "" if left else "dim"
            words = _acts(kind.actions)
            acts = _ours(kind, "actions", words)
            acts.stylize(ACTION_STYLE[kind.actions[0]], 0, len(words))
            name = _ours(kind, "name", _(kind.name))
            name.stylize(style)
            table.add_row(name, format_number(left), _ours(kind, "cost", format_number(kind.cost)), acts,
                          _ours(kind, "strength", format_number(kind.strength)),
                          _ours(kind, "defence", format_number(kind.defence)) if kind.gladiator else "–",
                          _ours(kind, "points", format_number(kind.points)) if kind.gladiator else "–")
        table.caption = _(_OURS_LEGEND, mark=OURS_MARK, defence=2, cost=3)
        table.caption_justify = "left"
        return table

    def _prompt(self, view: SeatView, name: str | None = None) -> str:
        """What the seat decides now; ``name`` (a replay) says whose decision it is instead of "you"."""
        obs: GorusArenaObservation = view.observation
        seat = view.seat
        if obs.phase == "plan" and not obs.ready[seat]:
            if name is None:
                return _("Plan in secret: the card to play in position {position} (position {first} is carried out "
                         "first; higher strength acts earlier in each auction).", position=len(obs.plan) + 1, first=1)
            return _("{name} plans in secret: the card to play in position {position} (position {first} is carried "
                     "out first; higher strength acts earlier in each auction).", name=name,
                     position=len(obs.plan) + 1, first=1)
        if obs.phase == "exec" and obs.pending is not None and obs.pending[0] == seat:
            card = obs.pending[1]
            either = _("or")
            actions = (" " + either + " ").join(_(ACTION_WORDS[a]) for a in ACTIONS[card])
            if name is None:
                return _("Your {card} acts (auction {number}): {actions}, or pass. You have {coins} coins.",
                         card=card_name(card), number=obs.slot + 1, actions=actions, coins=obs.coins[seat])
            return _("{name}'s {card} acts (auction {number}): {actions}, or pass. {name} has {coins} coins.",
                     name=name, card=card_name(card), number=obs.slot + 1, actions=actions, coins=obs.coins[seat])
        if any(isinstance(a, Pick) for a in view.legal_actions):
            left = obs.draws[0][2] if obs.draws else 0
            if name is None:
                return _("Your hand is empty: take a gladiator from the market, free ({count} still to take).",
                         count=left)
            return _("{name}'s hand is empty: take a gladiator from the market, free ({count} still to take).",
                     name=name, count=left)
        return _("Waiting for the others.")

    def render(self, console: Console, view: SeatView, seat_names: list[str], *, you: bool = True) -> None:
        obs: GorusArenaObservation = view.observation
        self._header(console, obs, seat_names)
        console.print(self._seat_table(obs, seat_names))
        console.print(self._market_table(obs))
        seat = view.seat
        used = view.options.used_cards == "discard"
        mine = Table.grid(padding=(0, 2))
        mine.add_column(style="bold")
        mine.add_column()
        if you:
            rows = [_("Your hand"), _("Your plan"), _("Your draw pile"),
                    _("Your discard") if used else _("Your used cards (out of play)")]
        else:
            who = seat_names[seat]
            rows = [_("{name}'s hand", name=who), _("{name}'s plan", name=who), _("{name}'s draw pile", name=who),
                    _("{name}'s discard", name=who) if used else _("{name}'s used cards (out of play)", name=who)]
        mine.add_row(rows[0], cards_text(obs.hand))
        if obs.phase == "plan":
            mine.add_row(rows[1], cards_text(obs.plan))
        mine.add_row(rows[2], Text(kind_counts(obs.deck)))
        mine.add_row(rows[3], Text(kind_counts(obs.discard[seat])))
        console.print(mine)
        self._events(console, obs)
        console.print(Text(self._prompt(view, None if you else seat_names[seat]), style="bold"))

    def render_spectator(self, console: Console, observation: Any, seat_names: list[str]) -> None:
        obs: GorusArenaObservation = observation
        self._header(console, obs, seat_names)
        console.print(self._seat_table(obs, seat_names))
        self._events(console, obs)

    def _header(self, console: Console, obs: GorusArenaObservation, seat_names: list[str]) -> None:
        console.rule(_("[bold]{title}[/] · round {round}/{rounds} · {phase} · ★ starts: {name}", title=_(TITLE),
                       round=obs.round, rounds=obs.rounds, phase=_(PHASE_TEXT[obs.phase]),
                       name=seat_names[obs.start]))
        if obs.dead:
            console.print(Text(_("Dead pile: "), style="red").append(kind_counts(obs.dead)))

    def _events(self, console: Console, obs: GorusArenaObservation) -> None:
        for event in _raw(obs)[-EVENT_LINES:]:
            console.print(Text("  " + event_line(event), style="dim"))

    def show_chance(self, action: Action) -> bool:
        return isinstance(action, (Draw, MarketDraw))

    def describe_secret(self, seat_name: str) -> str:
        """The only secret move is a placement: worded as the placements the log may show."""
        return "[dim]" + _("{name} lays a card face down", name=seat_name) + "[/]"

    def describe_action(self, seat_name: str, action: Action) -> str:
        if isinstance(action, Place):  # never the card: see the module's docstring
            return _("{name} lays a card face down", name=seat_name)
        if isinstance(action, Done):
            return _("{name} finishes the plan", name=seat_name)
        if isinstance(action, Draw):  # shown only to the drawer, or in a replay that shows everything
            return _("{seat} draws {card}", seat=_seat(action.seat), card=card_name(action.card))
        if isinstance(action, MarketDraw):
            return _("{seat} takes {card} from the market (empty hand)", seat=_seat(action.seat),
                     card=card_name(action.card))
        return f"{seat_name}: {self.label(action)}"

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
        events = list(_raw(a)[-new:])
        out = ["[dim]…[/]"] if new > len(a.events) else []

        def seat(s: int) -> str:
            label = seat_names[s] if 0 <= s < len(seat_names) else ""
            own = label and not label.startswith(("Seat " + str(s + 1), _seat(s)))
            return label if own else _seat(s)

        revealed = _reveals(events, b, a)
        for event in events:
            if isinstance(event, str):  # a line read back from a position: English, as it was written
                if not _ECHO.search(event):
                    out.append(_styled(_auction_text(event, {s: [NAME[c] for c in cs] for s, cs in revealed.items()}),
                                       seat_names))
                continue
            code = event[0]
            if code in (RECRUITS, PASSES) or (code == MARKET and event[3]):
                continue  # only repeats the move printed above
            text = escape(_auction_line(event, revealed, seat) or event_line(event, seat))
            if code in (ROUND, GAME_OVER):
                out.append(f"[bold]{text}[/]")
            elif code == ATTACK_EV and event[6]:
                out.append(f"[red]{text}[/]")
            elif code in (AUCTION, TIE):
                out.append(f"[yellow]{text}[/]")
            elif code == REVEAL:
                out.append(f"[cyan]{text}[/]")
            else:
                out.append(f"[dim]{text}[/]")
        return out

    def render_final(self, console: Console, observation: Any, scores: list[float],
                     winners: list[int], seat_names: list[str]) -> None:
        obs: GorusArenaObservation = observation
        console.rule(_("Game over"))
        table = Table(_("seat"), _("living gladiators"), _("gladiator pts"), _("coins"), _("coin pts"), _("total"))
        for s in range(obs.players):
            team = [c for c in obs.reserve[s] + obs.discard[s] + obs.arena[s]
                    if GLADIATOR_MASK >> c & 1 and c not in obs.dead]
            pts = sum(POINTS[c] for c in team)
            mark = " " + _("[bold green]winner[/]") if s in winners else ""
            total = int(scores[s]) if float(scores[s]).is_integer() else scores[s]
            table.add_row(seat_names[s] + mark, kind_counts(tuple(team)), format_number(pts),
                          format_number(obs.coins[s]), format_number(obs.coins[s] // COINS_PER_POINT),
                          format_number(total))
        console.print(table)


def _raw(obs: GorusArenaObservation) -> Sequence[Event]:
    """The observation's log as events (tuples), or as the text it holds when read from a position."""
    return getattr(obs.events, "raw", obs.events)


def _auction_line(event: Event, revealed: dict[int, list[int]], seat: Callable[[int], str]) -> str | None:
    """An auction line saying which card won (or which cards tied), and what winning means; None
    for any other event."""
    if isinstance(event, str):
        return None
    code, *v = event
    if code == AUCTION:
        k, s, best = v
        if not k:
            return _("Auction: {seat} wins with strength {strength}; it acts first at every position this round",
                     seat=seat(s), strength=best)
        cards = revealed.get(s, [])
        if k - 1 < len(cards):
            return _("Auction {number}: {seat} wins with {card} (strength {strength}) and acts first", number=k,
                     seat=seat(s), card=card_name(cards[k - 1]), strength=best)
        return _("Auction {number}: {seat} wins (strength {strength}) and acts first", number=k, seat=seat(s),
                 strength=best)
    if code == TIE and v[0]:
        k, best = v
        tied = [_who(seat(s), cards[k - 1]) for s, cards in sorted(revealed.items())
                if k - 1 < len(cards) and STRENGTH[cards[k - 1]] == best]
        if tied:
            return _("Auction {number}: tie at strength {strength} ({cards}): nobody wins; the cards act in turn "
                     "order", number=k, strength=best, cards=_(", ").join(tied))
        return _("Auction {number}: tie at strength {strength}: nobody wins; the cards act in turn order", number=k,
                 strength=best)
    return None


def _reveals(events: Sequence[Event], before: GorusArenaObservation,
             after: GorusArenaObservation) -> dict[int, list[int]]:
    """Each seat's revealed cards this round, from the new reveal events or else the arena."""
    out: dict[int, list[int]] = {}
    for obs in (before, after):
        for s, cards in enumerate(obs.arena):
            if cards:
                out[s] = list(cards)
    for event in events:
        if not isinstance(event, str) and event[0] == REVEAL:
            out[event[1]] = list(event[2])
    return out


_ECHO = re.compile(r" recruits .+ for \d+ coins$| passes$|: picks .+ from the market$")
"""Log lines that only repeat the move printed above them (a line read back as text)."""
_SEAT = re.compile(r"\bSeat (\d+)\b")
_AUCTION = re.compile(r"^Auction (\d+): Seat (\d+) wins with strength (\d+)$")
_ROUND_AUCTION = re.compile(r"^Auction: Seat (\d+) wins with strength (\d+)$")
_TIE = re.compile(r"^Auction (\d+): tie at strength (\d+), nobody wins; turn order$")


def _strength_of(name: str) -> int | None:
    kind = next((k for k in KINDS if k.name == name), None)
    return None if kind is None else kind.strength


def _auction_text(line: str, revealed: dict[int, list[str]]) -> str:
    """An auction line (read back as English text) saying which card won or tied, and what winning means."""
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
    """A log line read back as text, as rich markup: seats by name (where a seat has a name of its
    own), and a colour for what matters most (kills, auctions, reveals, round breaks)."""
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
