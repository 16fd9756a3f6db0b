"""The generic terminal game loop: people and bots at one table, any game.

Everything shown to a person comes from a :class:`~ludus.core.game.SeatView` (or a
spectator observation), never from the full state. In hot-seat play with several people,
a simultaneous secret choice is taken behind a "pass the keyboard" screen.
"""

from __future__ import annotations

import argparse
import re
import secrets
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.prompt import Prompt

from ..agents.base import Agent, make_agent
from ..agents.ismcts import ISMCTSAgent
from ..core.errors import IllegalAction, LudusError
from ..core.game import CHANCE, Action, Game, SeatView, State
from ..core.records import record_of
from ..core.terminal import TerminalAdapter
from ..i18n import DEFAULT_LANGUAGE, N_, _, format_number, get_language

__all__ = ["QuitGame", "TerminalGame", "build_options", "display_name", "make_bots", "parse_option_pairs",
           "parse_seats", "run_play"]


class QuitGame(Exception):
    """The person typed q: they chose to leave (exit status 0), unlike Ctrl-C or the end of input."""


def parse_option_pairs(pairs: list[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise LudusError(_("--option expects NAME=VALUE, got {value}", value=repr(pair)))
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def build_options(game: Game, adapter: TerminalAdapter, args: argparse.Namespace) -> Any:
    values = parse_option_pairs(args.option)
    option_names = {o.name for o in game.describe_options()}
    if getattr(args, "players", None) is not None:
        if "players" not in option_names:
            raise LudusError(_("{title} has no player-count option", title=_(game.title)))
        values["players"] = args.players
    values.update(adapter.options_from_args(args))
    return game.parse_options(values)


def parse_seats(text: str | None, n: int) -> list[int] | None:
    """``--seat`` takes 1-based seat numbers (``1,3``) or ``none`` to watch bots only."""
    if text is None:
        return None
    if text.strip().lower() in ("none", "0", ""):
        return []
    seats = []
    for part in text.split(","):
        if not part.strip().isdigit() or not 1 <= int(part) <= n:
            raise LudusError(_("--seat must be seat numbers from {first} to {n}, or 'none'; got {value}", first=1, n=n,
                               value=repr(part)))
        seats.append(int(part) - 1)
    return sorted(set(seats))


def make_bots(game: Game, state: State, humans: list[int], spec: str | None, seed: int) -> dict[int, Agent]:
    from ..agents.base import has_heuristic

    default = "heuristic" if has_heuristic(game) else "random"
    kinds = [k.strip() for k in (spec or default).split(",") if k.strip()] or [default]
    bots: dict[int, Agent] = {}
    others = [s for s in range(state.num_seats()) if s not in humans]
    for i, seat in enumerate(others):
        bots[seat] = make_agent(kinds[i % len(kinds)], game, seed=seed * 1009 + seat)
    return bots


def match_choice(answer: str, choices: list[tuple[Action, bool]],
                 adapter: TerminalAdapter | None = None) -> Action | None:
    """The move a player typed: its number in the list (from 1, in any digits: ``int`` reads
    Persian ones too) or its label, in any case (the English label, or the adapter's in the
    language in use); else None."""
    if answer.isdigit() and 1 <= int(answer) <= len(choices):
        return choices[int(answer) - 1][0]
    lowered = answer.lower()
    for action, _legal in choices:
        if action.label.lower() == lowered or (adapter is not None and adapter.label(action).lower() == lowered):
            return action
    return None


BOT_KINDS = {"random": N_("random"), "heuristic": N_("heuristic"), "trained": N_("trained"),
             "ismcts": N_("search"), "ismcts-easy": N_("search, easy"), "ismcts-medium": N_("search, medium"),
             "ismcts-hard": N_("search, hard")}
"""How a bot's kind (as typed with --bots, English in records) reads in the log, translated."""
_SEAT = re.compile(r"Seat (\d+)")
_BOT = re.compile(r"(.+) \((\S+) bot\)")


def display_name(name: str) -> str:
    """A seat's name as the language in use writes it: the engine's own names ("Seat 2", "You"),
    the terminal's bot mark ("Seat 2 (heuristic bot)") and names from a game's data (a Gladius
    fighter type) translated, any other name (a tutorial's Marcus, a server's player) as it is.
    Records keep the English names."""
    bot = _BOT.fullmatch(name)
    if bot:
        kind = _(BOT_KINDS[bot[2]]) if get_language() != DEFAULT_LANGUAGE and bot[2] in BOT_KINDS else bot[2]
        return _("{name} ({kind} bot)", name=display_name(bot[1]), kind=kind)
    seat = _SEAT.fullmatch(name)
    if seat:
        return _("Seat {number}", number=int(seat[1]))
    if name == "You":
        return _("You")
    if get_language() == DEFAULT_LANGUAGE or not name:
        return name
    # a name from a game's data (a Gladius fighter, "Thracian", or a mirror match's "Thracian 2"):
    # its translation where the catalogs have one; a person's name is in no catalog and stays
    base, _sep, number = name.rpartition(" ")
    if base and number.isdigit() and _(base) != base:
        return f"{_(base)} {format_number(int(number))}"
    return _(name)


def opening_lines(adapter: TerminalAdapter, state: State, viewer: int | None, names: list[str]) -> list[str]:
    """What a seeded game's opening deal set off, as ``viewer`` may see it (rich markup).

    A state made with a seed has settled its opening chance (deals, a first contender card)
    before anyone can log it; the adapter's narration is asked about it from the table as it
    stood before any chance. Empty for a game that starts from a position or without chance.
    """
    entries = state.visible_history(viewer)
    if not entries or state.rng is None:
        return []
    if any(actor != CHANCE for actor, _action in entries):
        return []  # not an opening: a position with moves in it
    before = state.game.new_initial_state(state.options, seed=None).observation(viewer)
    # narrated first (printed after): an adapter may learn the seat names there, to name who is dealt what
    told = adapter.narrate(before, state.observation(viewer), entries, names)
    lines = [adapter.describe_action(_("Chance"), action) for _actor, action in entries
             if not isinstance(action, str) and adapter.show_chance(action)]  # a string is HIDDEN
    return lines + told


class TerminalGame:
    """Runs one game in the terminal."""

    def __init__(self, game: Game, adapter: TerminalAdapter, options: Any, seed: int, humans: list[int],
                 bots: dict[int, Agent], console: Console, pause: bool = False, hint_seconds: float = 1.5) -> None:
        self.game = game
        self.adapter = adapter
        self.options = options
        self.seed = seed
        self.humans = humans
        self.bots = bots
        self.console = console
        self.state = game.new_initial_state(options, seed=seed)
        self.record_names = game.seat_names(options)  # English, as records keep them
        for seat, bot in bots.items():
            self.record_names[seat] = f"{self.record_names[seat]} ({bot.name} bot)"
        self.names = [display_name(name) for name in self.record_names]  # as the reader reads them
        self.logged = len(self.state.history)
        self.seen = self.state.observation(self._log_viewer())  # the log reader's view at the last flush
        self.pause = pause
        self.hint_seconds = hint_seconds  # how long "h" lets the bot think

    def _log_viewer(self) -> int | None:
        return self.humans[0] if len(self.humans) == 1 else None

    def flush_log(self) -> None:
        """Print the moves since the last flush, then what they set off (the adapter's narration)."""
        viewer = self._log_viewer()
        history = self.state.visible_history(viewer)
        entries = history[self.logged:]
        if not entries:
            return
        for actor, action in entries:
            if isinstance(action, str):  # HIDDEN, the only string a visible history holds
                if actor == CHANCE:
                    continue
                self.console.print("  " + self.adapter.describe_secret(self._actor_name(actor)))
                continue
            if actor == CHANCE and not self.adapter.show_chance(action):
                continue
            self.console.print("  " + self.adapter.describe_action(self._actor_name(actor), action))
        after = self.state.observation(viewer)
        for line in self.adapter.narrate(self.seen, after, entries, self.names):
            self.console.print("  " + line)
        self.seen = after
        self.logged = len(history)

    def _actor_name(self, actor: int) -> str:
        return _("Chance") if actor == CHANCE else self.names[actor]

    def human_turn(self, seat: int) -> None:
        state = self.state
        hot_seat = len(self.humans) > 1
        if hot_seat:
            self.console.rule(_("{name}: your turn (others look away)", name=self.names[seat]))
            Prompt.ask(_("Press Enter when ready"), default="", show_default=False, console=self.console)
        redraw = True
        while True:
            view = state.view(seat)
            choices = self.adapter.choices(view)
            if redraw:
                self.adapter.render(self.console, view, self.names)
                for i, (action, legal) in enumerate(choices, 1):
                    style = "bold" if legal else "dim"
                    mark = "" if legal else "  " + _("(not allowed now)")
                    self.console.print(f"  [{style}]{format_number(i):>2}. {self.adapter.label(action)}{mark}[/]")
            # after an answer that changes nothing (a hint, a typo, a refused move) the table and the
            # move list stay where they are, just above: one line says why, and the prompt comes again
            redraw = False
            answer = Prompt.ask(
                _("{name}, choose {first}-{last} (h for a hint, q to quit)", name=self.names[seat], first=1,
                  last=len(choices)), console=self.console
            ).strip()
            if answer.lower() in ("q", "quit", "exit"):
                raise QuitGame
            if answer.lower() in ("h", "hint"):
                self.show_hint(view, choices)
                continue
            if self.adapter.handle_command(self.console, answer, view, self.names):
                redraw = True  # a command prints more than a line (e.g. the previous bout): show the table again
                continue
            chosen = match_choice(answer, choices, self.adapter)
            if chosen is None:
                self.console.print(_("[red]Type a number from {first} to {last} or a move's name.[/]", first=1,
                                     last=len(choices)))
                continue
            try:
                state.apply(chosen, seat)
            except IllegalAction as exc:
                self.console.print(_("[bold red]Not allowed:[/] {reason}",
                                     reason=escape(self.adapter.describe_refusal(exc))))
                continue
            if hot_seat and seat in state.current_seats():
                redraw = True
                continue  # same person still deciding (e.g. a plan placed card by card): no hand-over
            break
        if hot_seat:
            self.console.clear()

    def show_hint(self, view: SeatView, choices: list[tuple[Action, bool]]) -> None:
        """What the hard bot would play from this seat's view (only the view), in the move list's numbers."""
        from ..agents.hints import WIN, suggest

        self.console.print(_("[dim]The bot is thinking…[/]"))
        try:
            hint = suggest(view, seconds=self.hint_seconds)
        except LudusError as exc:
            self.console.print(_("[red]No hint:[/] {reason}", reason=escape(str(exc))))
            return
        numbers = {action: i for i, (action, _legal) in enumerate(choices, 1)}

        def named(move: Any) -> str:
            n = numbers.get(move.action)
            label = self.adapter.label(move.action)
            return escape(f"{format_number(n)}. {label}" if n is not None else label)

        def worth(move: Any) -> str:
            if move.chance is None:
                return ""
            return _("{chance}% ± {error}%", chance=round(100 * move.chance), error=round(100 * move.error))

        if hint.forced:
            self.console.print(_("[bold]Hint:[/] your only move is {move}.", move=named(hint.best)))
            return
        what = _("estimated win chance") if hint.measure == WIN else _("estimated share of the win (wins and score)")
        self.console.print(_("[bold]Hint:[/] the bot would play [bold]{move}[/] — {what} {worth}",
                             move=named(hint.best), what=what, worth=worth(hint.best)))
        others = [f"{named(m)} ({worth(m)})" for m in hint.moves[1:]]
        if others:
            self.console.print("  " + _("Next best: ") + _("; ").join(others))
        self.console.print("  " + _("[dim]{samples} simulated games in {seconds} s, from what you can see only[/]",
                                    samples=hint.samples, seconds=float(f"{hint.seconds:.1f}")))

    def play(self) -> State:
        state = self.state
        for line in opening_lines(self.adapter, state, self._log_viewer(), self.names):
            self.console.print("  " + line)  # the deal the seeded state settled before the log began
        self.flush_log()
        while not state.is_terminal():
            seats = state.current_seats()
            for seat in seats:
                if seat in self.humans:
                    self.human_turn(seat)
                else:
                    state.apply(self.bots[seat].act(state.view(seat)), seat)
                if state.current_seats() != seats:
                    break
            if not any(s in self.humans for s in seats) or len(self.humans) <= 1:
                self.flush_log()
        self.flush_log()
        self.adapter.render_final(self.console, state.observation(self._log_viewer()), state.scores(),
                                  state.winners(), self.names)
        return state

    def record(self):
        return record_of(self.state, self.seed, players=self.record_names)


def run_play(args: argparse.Namespace, console: Console) -> int:
    from ..games import get_game
    from .adapters import get_adapter

    game = get_game(args.game)
    adapter = get_adapter(game.name)
    options = build_options(game, adapter, args)
    n = game.num_seats(options)
    humans = parse_seats(args.seat, n)
    if humans is None:
        humans = adapter.default_human_seats(args, game, options)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    state0 = game.new_initial_state(options, seed=seed)
    bots = make_bots(game, state0, humans, args.bots, seed)
    if any(isinstance(bot, ISMCTSAgent) for bot in bots.values()):
        from ..core.compiled import warm_up

        with console.status(_("Readying the search bots (compiled the first time Ludus runs them, then cached)…")):
            warm_up(game)
    console.print(_("[bold]{title}[/] — seed {seed}", title=_(game.title), seed=seed))
    tg = TerminalGame(game, adapter, options, seed, humans, bots, console)
    try:
        tg.play()
    except QuitGame:
        # typing q is a choice, not a failure: exit status 0, the unfinished game saved when asked
        if args.save:
            tg.record().save(args.save)
            console.print(_("You left the game. The unfinished game is saved to {file}.", file=escape(args.save)))
        else:
            console.print(_("You left the game (not saved: --save FILE keeps a record)."))
        return 0
    except (EOFError, KeyboardInterrupt):
        console.print("\n" + _("Game abandoned."))
        if args.save:
            tg.record().save(args.save)
            console.print(_("Unfinished game saved to {file}", file=escape(args.save)))
        return 1
    if args.save:
        tg.record().save(args.save)
        console.print(_("Record saved to {file}", file=args.save))
    return 0
