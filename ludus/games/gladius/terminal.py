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

from ...core.errors import IllegalAction, LudusError
from ...core.game import CHANCE, Action, SeatView
from ...core.terminal import GENERIC_REFUSALS, TerminalAdapter
from ...i18n import DEFAULT_LANGUAGE, N_, _, format_number, get_language, join_and, ngettext
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
)
from .cards import OURS_SETS, SHARED_ID, Card
from .game import GAME
from .rules import (
    ATTACK_PHASE,
    BLOCK_CANNOT_STOP,
    COSTS_NEXT_ATTACK,
    DEFENDING,
    EVADED_LAST_TURN,
    MUST_ATTACK,
    MUST_DISCARD,
    NO_DECISION,
    NO_SUCH_CARD,
    NOT_A_DEFENCE,
    NOT_A_MOVE,
    NOT_AN_ATTACK,
    NOT_HELD,
    NOT_USABLE,
    NOT_YOUR_DECISION,
    SHARED_NOT_USABLE,
    Setup,
)
from .views import GladiusObservation

__all__ = ["ADAPTER", "CARD_WORDS", "FIGHTER_WORDS", "OURS_MARK", "GladiusAdapter", "card_label", "card_name",
           "card_text", "effect_text", "fighter_name", "hp_bar", "ours_legend", "refusal_text"]

_HELP = N_("Type a number or a move's name; 'c' lists the deck and what is still unaccounted for.")
OURS_MARK = "✱"
"""Marks a fighter or card that the rulebook does not print (the Lion: Ludus's own example)."""

FIGHTER_WORDS = (N_("Secutor"), N_("Retiarius"), N_("Thracian"), N_("Murmillo"), N_("Dimachaeri"), N_("Samnite"),
                 N_("Postulati"), N_("Lion"))
"""The fighter types' names as the card files write them (data/*.toml), for the catalogs: each is
shown through ``_()``; a type from a player's own card file keeps its name."""
CARD_WORDS = (
    N_("Pommel"), N_("Kick"), N_("Disarm"), N_("Knockdown"), N_("Sand in the eyes"), N_("Grapple"), N_("Duck"),
    N_("Leap"), N_("Dodge"), N_("Parry"),
    N_("Sword Flurry"), N_("Crossed Swords"), N_("Sidestep"), N_("Double Thrust"),
    N_("Claw"), N_("Bite"), N_("Maul"), N_("Pounce"), N_("Spring Aside"), N_("Thick Mane"),
    N_("Sword Swipe"), N_("Stunning Blow"), N_("Shield"), N_("Armor"), N_("Wild Swing"), N_("Overhead Swing"),
    N_("Thrust & Crush"), N_("Slash & Smash"), N_("Sword"), N_("Lead Mace"), N_("Full Armor"), N_("Double Parry"),
    N_("Wide Swing"),
    N_("Trident Thrust"), N_("Cast Net"), N_("Withdraw"), N_("Dagger"),
    N_("Impale"), N_("Cut"), N_("Passive Shield"),
    N_("Sword Stab"), N_("Shield Block"), N_("Shield Bash"),
    N_("Sword Slash"), N_("Buckler"), N_("Fleet Footed"),
)
"""The printed card names of the shipped card files, for the catalogs (a test checks the list is
complete); shown through ``_()``, so a card from a player's own file keeps its name."""
TITLE = N_("Gladius")
"""The game's title (``GladiusGame.title``), shown through ``_()`` where a player reads it."""
RESULT_WORDS = {"hit": N_("hit"), "evaded": N_("evaded"), "blocked": N_("blocked")}
"""How the last exchange ended (``GladiusObservation.last_result``), in a word."""
END_WORDS = {"knockout": N_("down to {count} hit points"), "deck": N_("the deck ran out"),
             "turn-limit": N_("the turn limit was reached")}
"""Why the game ended (``GladiusObservation.end``)."""


def fighter_name(english: str) -> str:
    """A fighter's name (a type's, "Thracian", or a mirror match's "Thracian 2") in the language in use."""
    base, _sep, number = english.rpartition(" ")
    if base and number.isdigit():
        return f"{_(base)} {format_number(int(number))}"
    return _(english) if english else english


def card_name(key: str) -> str:
    """A card's printed name (no owner) in the language in use."""
    name = key.split("/", 1)[1] if "/" in key else key
    return _(name)


def card_label(key: str) -> str:
    """A card as the move list writes it, name plus owner ("Armor (Thracian)"; several types have
    an Armor), in the language in use (the English is :func:`ludus.games.gladius.actions.card_label`)."""
    owner, _sep, name = key.partition("/")
    if not name or owner == SHARED_ID:
        return _(name or key)
    return f"{_(name)} ({_(owner.replace('-', ' ').replace('_', ' ').title())})"


def effect_text(c: Card) -> str:
    """A few words on what the card does ("3 damage", "Evade"), in the language in use."""
    if c.is_defence:
        return _("Evade") if c.is_evade else _("Block") if c.defence == "block" else _(c.defence.capitalize())
    parts = []
    if c.damage:
        parts.append(ngettext("{count} damage", "{count} damage", c.damage, count=c.damage))
    if c.immobilize:
        parts.append(_("Immobilize"))
    text = " + ".join(parts)
    if c.no_attack_next_turn:
        text += _("; no attack next turn")
    return text


def hp_bar(hp: int, max_hp: int, width: int = 20) -> Text:
    filled = 0 if max_hp <= 0 else round(width * min(hp, max_hp) / max_hp)
    style = "green" if hp * 2 > max_hp else "yellow" if hp * 4 > max_hp else "red"
    out = Text("█" * filled, style=style)
    out.append("░" * (width - filled), style="dim")
    out.append(f" {format_number(hp)}/{format_number(max_hp)}", style="bold")
    return out


def card_text(setup: Setup | None, key: str) -> Text:
    if setup is None or key not in setup.index:
        return Text(card_label(key), style="bold")
    c: Card = setup.kinds[setup.index[key]]
    style = "bold red" if c.is_attack else "bold cyan"
    out = Text(card_label(key), style=style)
    if c.set_id in OURS_SETS:
        out.append(OURS_MARK, style="blue")
    out.append(f" [{effect_text(c)}]", style="dim")
    return out


def ours_legend(fighters: tuple[str, ...] | list[str], names: tuple[str, ...] | list[str]) -> Text | None:
    """One line explaining the mark, when a fighter in play is not from the rulebook."""
    ours = [fighter_name(names[i]) for i, f in enumerate(fighters) if f in OURS_SETS]
    if not ours:
        return None
    return Text(_("{mark} {names}: not in the rulebook; its cards and numbers are Ludus's own "
                  "(see 'ludus rules gladius').", mark=OURS_MARK, names=join_and(list(dict.fromkeys(ours)))),
                style="dim")


def _type_name(set_id: str) -> str:
    """A fighter type by its id ("thracian"), as its card labels name it, in the language in use."""
    return _(set_id.replace("-", " ").replace("_", " ").title())


def refusal_text(code: str | None, params: dict[str, Any]) -> str | None:
    """A Gladius refusal (its code and params, :mod:`ludus.games.gladius.rules`) in the language in
    use; None for a code that is not Gladius's own."""
    card = card_label(params["card"]) if "card" in params else ""
    if code == NOT_A_MOVE:
        return _("that is not a player's move: it belongs to the deck or to the solo opponent")
    if code == NO_DECISION:
        return _("no fighter decides anything now")
    if code == NOT_YOUR_DECISION:
        return _("it is not your decision now")
    if code == MUST_DISCARD:
        return ngettext("you hold {count} card: first discard down to {limit}",
                        "you hold {count} cards: first discard down to {limit}", params["count"],
                        count=params["count"], limit=params["limit"])
    if code == ATTACK_PHASE:
        return _("this is your attack phase: play an attack card, or no attack")
    if code == DEFENDING:
        return _("you are defending: play a defence card, or no defence")
    if code == MUST_ATTACK:
        return _("attacking is compulsory (option attack = compulsory, the rulebook's reading): "
                 "you hold {card}, which you can play", card=card)
    if code == NO_SUCH_CARD:
        return _("there is no {card} card in this game", card=card_name(params["card"]))
    if code == NOT_HELD:
        return _("you do not hold {card}", card=card)
    if code == NOT_AN_ATTACK:
        return _("{card} is a defence card, not an attack", card=card)
    if code == EVADED_LAST_TURN:
        return _("you may not attack this turn: you evaded with {card} last turn", card=card_name(params["card"]))
    if code == COSTS_NEXT_ATTACK:
        return _("you may not attack this turn: a {card} costs your next attack", card=card_name(params["card"]))
    if code == NOT_A_DEFENCE:
        return _("{card} is an attack card; to defend play a Block or an Evade", card=card)
    if code == BLOCK_CANNOT_STOP:
        return _("a Block cannot stop {card}, which immobilizes; only an Evade can", card=card_name(params["card"]))
    if code == SHARED_NOT_USABLE:
        return _("{card} is a shared card, but a {fighter} cannot use it", card=card,
                 fighter=_type_name(params["fighter"]))
    if code == NOT_USABLE:
        return _("{card} is a {owner} card; a {fighter} cannot use it", card=card, owner=_type_name(params["owner"]),
                 fighter=_type_name(params["fighter"]))
    return None


def _reason(reason: str) -> str:
    """A reason the rules or ``GladiusGame.explain`` gave (a Refusal), in the language in use."""
    code = getattr(reason, "code", None)
    params = getattr(reason, "params", {})
    if code in GENERIC_REFUSALS:
        return _(GENERIC_REFUSALS[code], **params)
    return refusal_text(code, params) or reason


def _is_you(name: str) -> bool:
    """Whether a seat's name is the game's or a lesson's "You" (as the reader's language writes it)."""
    you = ("You",) if get_language() == DEFAULT_LANGUAGE else ("You", _("You"))
    return any(name == y or name.startswith(y + " ") for y in you)


def _say(name: str, one: str, you: str, **params: Any) -> str:
    """``one`` with ``name`` filled in ("Ann draws ..."), or ``you`` after "You" ("You draw ...")."""
    return _(you if _is_you(name) else one, name=name, **params)


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
                            help=_("your fighter type: secutor, retiarius (default), thracian, murmillo, "
                                 "dimachaeri, samnite, postulati, lion, or one from --card-set"))
        parser.add_argument("--opponent", metavar="TYPE", help=_("the other fighter's type (default secutor)"))
        parser.add_argument("--solo", action="store_true",
                            help=_("solo rules: you against the automated opponent's mini-hands"))
        parser.add_argument("--card-set", action="append", metavar="FILE",
                            help=_("load a card-set file (a new fighter or animal); may be repeated"))

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

    def label(self, action: Action) -> str:
        """A move as the move list names it, in the language in use (the English label may be typed too)."""
        t = type(action)
        card = getattr(action, "card", None)
        if t is Attack:
            return _("No attack") if card is None else _("Attack: {card}", card=card_label(card))
        if t is Defend:
            return _("No defence") if card is None else _("Defend: {card}", card=card_label(card))
        if t is Discard:
            return _("Discard {card}", card=card_label(card or ""))
        if t is Reshuffle:
            return _("The discards are shuffled into a new deck")
        return action.label

    def describe_refusal(self, error: IllegalAction) -> str:
        return refusal_text(error.code, error.params) or super().describe_refusal(error)

    # ----------------------------------------------------------------- rendering
    def _side_name(self, obs: GladiusObservation, side: int, names: list[str]) -> str:
        if obs.solo and side == 1:
            return _("the {fighter}", fighter=fighter_name(obs.names[1]))
        if side < len(names):
            return names[side]
        return fighter_name(obs.names[side])

    def _fighters(self, console: Console, obs: GladiusObservation, names: list[str], you: bool = True) -> None:
        grid = Table.grid(padding=(0, 2))
        for side in (0, 1):
            name = Text(self._side_name(obs, side, names), style="bold")
            if obs.fighters[side] in OURS_SETS:
                name.append(OURS_MARK, style="blue")
            if obs.seat == side:
                name.append(" " + (_("(you)") if you else _("(this view)")), style="bold green")
            notes = []
            if obs.skip[side]:
                notes.append(_("immobilized: loses the next turn"))
            lock = obs.locked[side]
            if lock is not None:
                notes.append(_("no attack next turn ({card})", card=card_name(lock)))
            if side == obs.active and obs.barred is not None and obs.phase not in ("over",):
                notes.append(_("may not attack this turn"))
            size = obs.hand_sizes[side]
            hand = "" if obs.solo and side == 1 else ngettext("{count} card", "{count} cards", size, count=size)
            grid.add_row(name, hp_bar(obs.hit_points[side], obs.max_hit_points[side]), Text(hand, style="dim"),
                         Text(_("; ").join(notes), style="yellow"))
        console.print(grid)
        legend = ours_legend(obs.fighters, obs.names)
        if legend is not None:
            console.print(legend)

    def _exchange(self, obs: GladiusObservation, setup: Setup | None, names: list[str]) -> Text | None:
        if obs.last_attack is None:
            if obs.last_result == "skipped":
                return Text(_("Last turn was lost to an Immobilize."), style="dim")
            return None
        side, key = obs.last_attack
        who = self._side_name(obs, side, names)
        if key is None:
            return Text(_("Last turn: {name} did not attack.", name=who), style="dim")
        out = Text(_("Last attack: {name} played ", name=who))
        out.append_text(card_text(setup, key))
        if obs.last_defence is not None:
            dside, dkey = obs.last_defence
            dwho = self._side_name(obs, dside, names)
            if dkey is None:
                out.append(" — " + _("{name} did not defend", name=dwho), style="")
                if setup is not None:
                    effect = effect_text(setup.kinds[setup.index[key]]).split(_("; no attack next turn"))[0]
                    out.append(": " + effect, style="bold red")
            else:
                out.append(" — " + _("{name} answered with ", name=dwho))
                out.append_text(card_text(setup, dkey))
                result = RESULT_WORDS.get(obs.last_result)
                out.append(f" ({_(result) if result else obs.last_result})")
        return out

    def _table_line(self, obs: GladiusObservation) -> Text:
        out = Text(_("Turn {number}", number=obs.turn), style="bold")
        if obs.turn_limit:
            out.append(f"/{format_number(obs.turn_limit)}", style="dim")
        out.append("   " + _("Deck {count}", count=obs.draw_pile) + "   "
                   + _("Discards {count}", count=sum(n for _key, n in obs.discard)))
        if obs.reshuffles:
            out.append("   " + _("(reshuffled {count}×)", count=obs.reshuffles))
        return out

    def render(self, console: Console, view: SeatView, seat_names: list[str], *, you: bool = True) -> None:
        obs: GladiusObservation = view.observation
        self._names = list(seat_names)
        setup = self._setup = GAME.setup(view.options)
        console.rule(_("[bold]{title}[/] — {first} vs {second}", title=_(TITLE),
                       first=self._side_name(obs, 0, seat_names), second=self._side_name(obs, 1, seat_names)))
        self._fighters(console, obs, seat_names, you)
        me = view.seat
        mine = self._side_name(obs, me, seat_names)  # the seat's name when the reader is someone else
        console.print(self._table_line(obs))
        ex = self._exchange(obs, setup, seat_names)
        if (ex is not None and obs.last_defence is not None) or obs.last_result in ("no attack", "skipped"):
            console.print(ex)
        if obs.table is not None and obs.phase == "defend":
            atk = Text(_("Incoming attack: "), style="bold")
            atk.append_text(card_text(setup, obs.table))
            if setup.kinds[setup.index[obs.table]].immobilize:
                atk.append("  — " + _("only an Evade stops it"), style="yellow")
            console.print(atk)
        if not obs.solo and (obs.opponent_known or obs.opponent_unknown):
            known = Text(_("You know they hold: ") if you else
                         _("{name} knows {other} holds: ", name=mine, other=self._side_name(obs, 1 - me, seat_names)),
                         style="dim")
            known.append(_(", ").join(card_label(k) for k in obs.opponent_known) or _("nothing for sure"),
                         style="dim")
            known.append(" " + _("(+{count} unknown)", count=obs.opponent_unknown), style="dim")
            console.print(known)
        hand = Table(title=_("Your hand") if you else _("Hand of {name}", name=mine), show_header=True,
                     header_style="bold", title_justify="left")
        hand.add_column(_("card"))
        hand.add_column(_("now"))
        for key in obs.hand:
            reason = GAME.explain(view, self._phase_action(obs, key)) if obs.to_act == me else None
            k = setup.index[key]
            if k not in setup.usable[me]:
                c = setup.kinds[k]
                if c.set_id == SHARED_ID:
                    status = Text(_("not yours (a shared card you may not use)") if you
                                  else _("not its own (a shared card it may not use)"), style="dim")
                else:
                    owner = fighter_name(setup.set_name(c.set_id))
                    status = Text(_("not yours (a {fighter} card)", fighter=owner) if you
                                  else _("not its own (a {fighter} card)", fighter=owner), style="dim")
            elif obs.to_act != me:
                status = Text("")
            elif reason is None:
                status = Text(_("playable"), style="green")
            else:
                status = Text(_reason(reason), style="dim")
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
            return ngettext("Maneuver: you hold {count} card; discard down to {limit}.",
                            "Maneuver: you hold {count} cards; discard down to {limit}.", len(obs.hand),
                            count=len(obs.hand), limit=obs.hand_limit)
        if obs.phase == "attack":
            if pass_reason is not None:
                return _("Attack phase: play an attack card. No attack is not allowed: {reason}.",
                         reason=_reason(pass_reason))
            return _("Attack phase: play an attack card, or no attack.")
        if obs.phase == "defend":
            return _("Defence phase: answer with a Block or an Evade, or take the blow.")
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
            console.print(_(_HELP))
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
        table = Table(title=ngettext("The deck ({count} card)", "The deck ({count} cards)", setup.n_cards,
                                     count=setup.n_cards), header_style="bold")
        for col in (_("card"), _("owner"), _("effect"), _("in deck"), _("unaccounted")):
            table.add_column(col)
        for k, c in enumerate(setup.kinds):
            owner = _("both") if c.set_id == SHARED_ID else fighter_name(setup.set_name(c.set_id))
            if c.set_id in OURS_SETS:
                owner += f" {OURS_MARK}"
            table.add_row(_(c.name), owner, effect_text(c), format_number(c.count), format_number(seen[k]))
        console.print(table)
        sizes = _(", ").join(f"{fighter_name(s.name)} {format_number(s.size)}" for s in setup.sides)
        console.print(Text(_("Set sizes: shared {count}, {sizes}", count=setup.catalogue.shared.size, sizes=sizes),
                           style="dim"))
        legend = ours_legend(setup.fighters, [s.name for s in setup.sides])
        if legend is not None:
            console.print(legend)

    def show_chance(self, action: Action) -> bool:
        return True

    def describe_action(self, seat_name: str, action: Action) -> str:
        names = self._names
        t = type(action)

        def foe_name() -> str:
            """The solo opponent, as a sentence starts with it ("The Lion")."""
            if self._setup is not None:
                return _("The {fighter}", fighter=fighter_name(self._setup.sides[1].name))
            return _("The opponent")

        def fighter(seat: int) -> str:
            if seat < len(names):
                return names[seat]
            if len(names) == 1:  # solo: the automated opponent
                return foe_name()
            return _("Fighter {number}", number=seat + 1)

        if t is DrawCard:
            who = fighter(action.seat)  # type: ignore[attr-defined]
            return _say(who, N_("{name} draws {card}"), N_("{name} draw {card}"),
                        card=card_label(action.card))  # type: ignore[attr-defined]
        if t is SkipTurn:
            who = fighter(action.seat)  # type: ignore[attr-defined]
            return _say(who, N_("{name} is immobilized and loses the turn"),
                        N_("{name} are immobilized and lose the turn"))
        if t is FirstPlayer:
            who = fighter(action.seat)  # type: ignore[attr-defined]
            return _say(who, N_("{name} moves first"), N_("{name} move first"))
        foe = foe_name()
        if t is MiniDraw:
            return _("{name}'s mini-hand: {card}", name=foe, card=card_label(action.card))  # type: ignore[attr-defined]
        if t is AdversaryAttack:
            card = action.card  # type: ignore[attr-defined]
            return (_("{name} cannot attack", name=foe) if card is None
                    else _("{name} attacks: {card}", name=foe, card=card_label(card)))
        if t is AdversaryDefend:
            card = action.card  # type: ignore[attr-defined]
            return (_("{name} has no defence", name=foe) if card is None
                    else _("{name} defends: {card}", name=foe, card=card_label(card)))
        if t is Reshuffle:
            return self.label(action)
        if t is Attack and action.card is None:  # type: ignore[attr-defined]
            return _say(seat_name, N_("{name} does not attack"), N_("{name} do not attack"))
        if t is Defend and action.card is None:  # type: ignore[attr-defined]
            return _say(seat_name, N_("{name} takes the blow"), N_("{name} take the blow"))
        return f"{seat_name}: {self.label(action)}"

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
        shown = escape(card_label(key))
        if defence is not None:
            answer = setup.kinds[setup.index[defence]] if setup is not None and defence in setup.index else None
            answered = escape(card_label(defence))
            if answer is not None and answer.is_evade:
                out = _("→ [bold]{card}[/] [cyan]evaded[/] with [bold]{defence}[/] ({name} may not attack "
                        "on the next turn)", card=shown, defence=answered, name=foe)
            elif answer is not None:
                out = _("→ [bold]{card}[/] [cyan]blocked[/] by [bold]{defence}[/]", card=shown, defence=answered)
            else:
                out = _("→ [bold]{card}[/] stopped by [bold]{defence}[/]", card=shown, defence=answered)
        else:
            effects = []
            if card is None:
                hp[:] = list(obs.hit_points)
                effects.append(_("it hits"))
            else:
                if card.damage:
                    hp[defender] = max(0, hp[defender] - card.damage)
                    effects.append(ngettext("[red]{count} damage[/] to {name}", "[red]{count} damage[/] to {name}",
                                            card.damage, count=card.damage, name=foe))
                if card.immobilize:
                    effects.append(_say(foe, N_("[yellow]{name} is immobilized[/] and loses the next turn"),
                                        N_("[yellow]{name} are immobilized[/] and lose the next turn")))
            out = _("→ [bold]{card}[/] not answered: {effects}", card=shown, effects=_(", ").join(effects))
        if card is not None and card.no_attack_next_turn:
            out += _("; {name} may not attack on the next turn", name=me)
        out += _(". Hit points: {first} {first_hp}/{first_max}, {second} {second_hp}/{second_max}.",
                 first=self._side_name(obs, 0, names), first_hp=hp[0], first_max=obs.max_hit_points[0],
                 second=self._side_name(obs, 1, names), second_hp=hp[1], second_max=obs.max_hit_points[1])
        if hp[defender] == 0:
            if _is_you(foe):
                out += " " + _("[bold]{loser} fall: {winner} wins.[/]", loser=foe, winner=me)
            elif _is_you(me):
                out += " " + _("[bold]{loser} falls: {winner} win.[/]", loser=foe, winner=me)
            else:
                out += " " + _("[bold]{loser} falls: {winner} wins.[/]", loser=foe, winner=me)
        return out

    def render_final(self, console: Console, observation: Any, scores: list[float],
                     winners: list[int], seat_names: list[str]) -> None:
        obs: GladiusObservation = observation
        console.rule(_("Game over"))
        end = END_WORDS.get(obs.end)
        why = _(end, count=0) if end else obs.end
        for side in (0, 1):
            name = self._side_name(obs, side, seat_names)
            mark = "  " + _("[bold green]winner[/]") if side in obs.winners and len(obs.winners) == 1 else ""
            console.print(_("{name}: {hp}/{max} hit points", name=name, hp=obs.hit_points[side],
                            max=obs.max_hit_points[side]) + mark)
        if len(obs.winners) == 2:
            console.print(_("A draw ({why}).", why=why))
        else:
            console.print(_("{name} wins ({why}).", name=self._side_name(obs, obs.winners[0], seat_names), why=why))


ADAPTER = GladiusAdapter()
