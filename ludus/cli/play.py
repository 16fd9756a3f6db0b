"""The generic terminal game loop: people and bots at one table, any game.

Everything shown to a person comes from a :class:`~ludus.core.game.SeatView` (or a
spectator observation), never from the full state. In hot-seat play with several people,
a simultaneous secret choice is taken behind a "pass the keyboard" screen.
"""

from __future__ import annotations

import argparse
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

__all__ = ["QuitGame", "TerminalGame", "build_options", "make_bots", "parse_option_pairs", "parse_seats", "run_play"]


class QuitGame(Exception):
    """The person typed q: they chose to leave (exit status 0), unlike Ctrl-C or the end of input."""


def parse_option_pairs(pairs: list[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise LudusError(f"--option expects NAME=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def build_options(game: Game, adapter: TerminalAdapter, args: argparse.Namespace) -> Any:
    values = parse_option_pairs(args.option)
    option_names = {o.name for o in game.describe_options()}
    if getattr(args, "players", None) is not None:
        if "players" not in option_names:
            raise LudusError(f"{game.title} has no player-count option")
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
            raise LudusError(f"--seat must be seat numbers from 1 to {n}, or 'none'; got {part!r}")
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


def match_choice(answer: str, choices: list[tuple[Action, bool]]) -> Action | None:
    """The move a player typed: its number in the list (from 1) or its label, in any case; else None."""
    if answer.isdigit() and 1 <= int(answer) <= len(choices):
        return choices[int(answer) - 1][0]
    lowered = answer.lower()
    for action, _legal in choices:
        if action.label.lower() == lowered:
            return action
    return None


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
    lines = [adapter.describe_action("Chance", action) for _actor, action in entries
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
        self.names = game.seat_names(options)
        for seat, bot in bots.items():
            self.names[seat] = f"{self.names[seat]} ({bot.name} bot)"
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
        return "Chance" if actor == CHANCE else self.names[actor]

    def human_turn(self, seat: int) -> None:
        state = self.state
        hot_seat = len(self.humans) > 1
        if hot_seat:
            self.console.rule(f"{self.names[seat]}: your turn (others look away)")
            Prompt.ask("Press Enter when ready", default="", show_default=False, console=self.console)
        redraw = True
        while True:
            view = state.view(seat)
            choices = self.adapter.choices(view)
            if redraw:
                self.adapter.render(self.console, view, self.names)
                for i, (action, legal) in enumerate(choices, 1):
                    style = "bold" if legal else "dim"
                    mark = "" if legal else "  (not allowed now)"
                    self.console.print(f"  [{style}]{i:>2}. {action.label}{mark}[/]")
            # after an answer that changes nothing (a hint, a typo, a refused move) the table and the
            # move list stay where they are, just above: one line says why, and the prompt comes again
            redraw = False
            answer = Prompt.ask(
                f"{self.names[seat]}, choose 1-{len(choices)} (h for a hint, q to quit)", console=self.console
            ).strip()
            if answer.lower() in ("q", "quit", "exit"):
                raise QuitGame
            if answer.lower() in ("h", "hint"):
                self.show_hint(view, choices)
                continue
            if self.adapter.handle_command(self.console, answer, view, self.names):
                redraw = True  # a command prints more than a line (e.g. the previous bout): show the table again
                continue
            chosen = match_choice(answer, choices)
            if chosen is None:
                self.console.print(f"[red]Type a number from 1 to {len(choices)} or a move's name.[/]")
                continue
            try:
                state.apply(chosen, seat)
            except IllegalAction as exc:
                self.console.print(f"[bold red]Not allowed:[/] {escape(str(exc))}")
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

        self.console.print("[dim]The bot is thinking…[/]")
        try:
            hint = suggest(view, seconds=self.hint_seconds)
        except LudusError as exc:
            self.console.print(f"[red]No hint:[/] {escape(str(exc))}")
            return
        numbers = {action: i for i, (action, _legal) in enumerate(choices, 1)}

        def named(move: Any) -> str:
            n = numbers.get(move.action)
            return escape(f"{n}. {move.label}" if n is not None else move.label)

        def worth(move: Any) -> str:
            if move.chance is None:
                return ""
            return f"{100 * move.chance:.0f}% ± {100 * move.error:.0f}%"

        if hint.forced:
            self.console.print(f"[bold]Hint:[/] your only move is {named(hint.best)}.")
            return
        what = "estimated win chance" if hint.measure == WIN else "estimated share of the win (wins and score)"
        self.console.print(f"[bold]Hint:[/] the bot would play [bold]{named(hint.best)}[/] — {what} {worth(hint.best)}")
        others = [f"{named(m)} ({worth(m)})" for m in hint.moves[1:]]
        if others:
            self.console.print("  Next best: " + "; ".join(others))
        self.console.print(f"  [dim]{hint.samples} simulated games in {hint.seconds:.1f} s, "
                           "from what you can see only[/]")

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
        return record_of(self.state, self.seed, players=self.names)


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

        with console.status("Readying the search bots (compiled the first time Ludus runs them, then cached)…"):
            warm_up(game)
    console.print(f"[bold]{game.title}[/] — seed {seed}")
    tg = TerminalGame(game, adapter, options, seed, humans, bots, console)
    try:
        tg.play()
    except QuitGame:
        # typing q is a choice, not a failure: exit status 0, the unfinished game saved when asked
        if args.save:
            tg.record().save(args.save)
            console.print(f"You left the game. The unfinished game is saved to {escape(args.save)}.")
        else:
            console.print("You left the game (not saved: --save FILE keeps a record).")
        return 0
    except (EOFError, KeyboardInterrupt):
        console.print("\nGame abandoned.")
        if args.save:
            tg.record().save(args.save)
            console.print(f"Unfinished game saved to {escape(args.save)}")
        return 1
    if args.save:
        tg.record().save(args.save)
        console.print(f"Record saved to {args.save}")
    return 0
