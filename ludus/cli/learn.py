"""``ludus learn GAME``: the game's guided first game (its tutorial script) in the terminal.

Nothing is played here: each step's position comes from :meth:`Tutorial.state_at`, and every
move the learner types is judged by :meth:`Tutorial.attempt`, so the terminal, the browser and
the tests all follow the same checked script. The table is drawn by the game's own terminal
adapter from the learner's view only, as ``ludus play`` draws it for a person.
"""

from __future__ import annotations

import argparse
import secrets
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.prompt import Prompt
from rich.text import Text

from ..core.errors import IllegalAction
from ..i18n import N_, _, format_number
from ..i18n.data import translate_text
from .play import display_name, match_choice

if TYPE_CHECKING:
    from ..core.game import Action, State
    from ..core.terminal import TerminalAdapter
    from ..core.tutorial import Tutorial

__all__ = ["QuitLesson", "add_command", "cmd_learn", "play_command", "run_lesson"]

QUIT_WORDS = ("q", "quit", "exit")
TRY_WORDS = ("t", "try")
YES_WORDS = ("y", "yes")
# TRANSLATORS: the one-letter answer "yes" to "(y/N)" in the learner's language (y also works)
YES_LETTER = N_("y")
# TRANSLATORS: the word "yes" as a learner may type it (yes also works)
YES_WORD = N_("yes")


class QuitLesson(Exception):
    """The learner typed q (or the input ended)."""


def add_command(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("learn", help=_("learn a game: a short guided game that shows one rule at a time"))
    p.add_argument("game", metavar="GAME", help=_("the game, as 'ludus games' lists it"))
    p.set_defaults(run=cmd_learn)


def play_command(tutorial: Tutorial) -> str:
    """The ``ludus play`` command line for a real game with the tutorial's options."""
    parts = ["ludus", "play", tutorial.game.name]
    for name, value in tutorial.play_options.items():
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, list):
            text = ",".join(str(v) for v in value)
        else:
            text = str(value)
        parts += ["-o", f"{name.replace('_', '-')}={text}"]
    return " ".join(parts)


def cmd_learn(args: argparse.Namespace, console: Console) -> int:
    from ..games import tutorial
    from .adapters import get_adapter

    lesson = tutorial(args.game)  # unknown game, no tutorial, broken script: a LudusError, said plainly
    adapter = get_adapter(lesson.game.name)
    try:
        run_lesson(lesson, adapter, console)
        again = _ask(console, _("Play a real game now, against bots? (y/N)"))
    except QuitLesson:
        command = f"ludus learn {lesson.game.name}"
        console.print("\n" + _("Lesson stopped. Run [bold]{command}[/] to start again.", command=command))
        return 1
    if again.lower() in {*YES_WORDS, _(YES_LETTER).lower(), _(YES_WORD).lower()}:
        return _play_real_game(lesson, adapter, console)
    console.print(Text(_("To play a real game later: ")) + Text(play_command(lesson), style="bold"))
    return 0


def run_lesson(lesson: Tutorial, adapter: TerminalAdapter, console: Console) -> None:
    """Show every step in turn, and wait for the expected move at each; QuitLesson on q."""
    script = lesson.script
    names = [display_name(name) for name in lesson.names()]
    console.rule(Text(translate_text(script.title), style="bold"))
    _say(console, script.intro)
    _ask(console, _("Press Enter to begin (q to quit)"))
    logged = 0  # entries of the learner's visible history already shown
    for i, step in enumerate(lesson.steps):
        state = lesson.state_at(i)
        # the opening deal is on the table the learner is about to see: no log line per card
        logged = _show_log(console, adapter, state, lesson.seat, names, logged, deal=i == 0)
        view = state.view(lesson.seat)
        adapter.render(console, view, names)
        _say(console, step.say, _("Step {number} of {total}", number=i + 1, total=len(lesson)))
        if step.expect is None:
            _ask(console, _("Press Enter to go on (q to quit)"))
            logged = len(state.history)
            continue
        _play_step(lesson, i, adapter, console, state, names)
        logged = len(state.history) + 1  # the learner's own move needs no log line
    _show_log(console, adapter, lesson.final_state(), lesson.seat, names, logged)
    console.rule(Text(_("Well done"), style="bold green"))
    _say(console, script.outro)


def _play_step(lesson: Tutorial, i: int, adapter: TerminalAdapter, console: Console, state: State,
               names: list[str]) -> None:
    step = lesson.steps[i]
    view = state.view(lesson.seat)
    choices = adapter.choices(view)
    wrong: Action | None = None if step.wrong is None else lesson.game.action_from_json(step.wrong)
    _list_choices(console, adapter, choices, wrong, step.wrong_say)
    while True:
        if wrong is not None:
            prompt = _("Your move: choose {first}-{last}, t to try the wrong move (q to quit)", first=1,
                       last=len(choices))
        else:
            prompt = _("Your move: choose {first}-{last} (q to quit)", first=1, last=len(choices))
        answer = _ask(console, prompt)
        if wrong is not None and answer.lower() in TRY_WORDS:
            action: Action | None = wrong
        elif adapter.handle_command(console, answer, view, names):
            continue
        else:
            action = match_choice(answer, choices, adapter)
        if action is None:
            console.print(_("[red]Type a number from {first} to {last} or a move's name.[/]", first=1,
                            last=len(choices)))
            continue
        result = lesson.attempt(i, action.to_json())
        if result.kind == "done":
            if result.message:
                _say(console, result.message, style="green")
            return
        if result.kind == "refused":
            reason = adapter.describe_refusal(IllegalAction(result.message))
            console.print(_("[bold red]Not allowed:[/] {reason}", reason=escape(reason)))
        else:
            console.print(Text(translate_text(result.message), style="yellow"))
        if action == wrong:
            console.print(Text(_("Now make the move the step asks for."), style="dim"))


def _list_choices(console: Console, adapter: TerminalAdapter, choices: list[tuple[Action, bool]],
                  wrong: Action | None, wrong_say: str) -> None:
    for n, (action, legal) in enumerate(choices, 1):
        style = "bold" if legal else "dim"
        mark = "" if legal else "  " + _("(not allowed now)")
        console.print(Text(f"  {format_number(n):>2}. {adapter.label(action)}{mark}", style=style))
    if wrong is not None:
        if wrong_say:
            console.print(Text(translate_text(wrong_say), style="italic"))
        console.print(Text("   t. " + _("Try: {move}", move=adapter.label(wrong)), style="bold magenta"))


def _show_log(console: Console, adapter: TerminalAdapter, state: State, seat: int, names: list[str],
              logged: int, deal: bool = False) -> int:
    """Print the moves since ``logged`` that the learner may see (no chance ones if ``deal``); return the new count."""
    from ..core.game import CHANCE

    history = state.visible_history(seat)
    for actor, action in history[logged:]:
        if isinstance(action, str):  # HIDDEN: a move the learner may not see
            if actor != CHANCE:
                console.print(Text.from_markup("  " + adapter.describe_secret(escape(names[actor]))))
            continue
        if actor == CHANCE and (deal or not adapter.show_chance(action)):
            continue
        who = _("Chance") if actor == CHANCE else names[actor]
        console.print(Text("  " + adapter.describe_action(who, action)))
    return len(history)


def _say(console: Console, text: str, title: str | None = None, style: str = "") -> None:
    """A text of the script in the language in use: its paragraphs (never read as rich markup)."""
    body = Text(translate_text(text), style=style)
    console.print(Panel(body, title=title, title_align="left", expand=False) if title else body)


def _ask(console: Console, prompt: str) -> str:
    try:
        answer = Prompt.ask(prompt, default="", show_default=False, console=console).strip()
    except (EOFError, KeyboardInterrupt):
        raise QuitLesson from None
    if answer.lower() in QUIT_WORDS:
        raise QuitLesson
    return answer


def _play_real_game(lesson: Tutorial, adapter: TerminalAdapter, console: Console) -> int:
    """Hand over to ``ludus play``'s loop: the learner's seat against bots, with the tutorial's play options."""
    from .play import QuitGame, TerminalGame, make_bots

    game = lesson.game
    seed = secrets.randbelow(2**31)
    humans = [lesson.seat]
    options = game.parse_options(lesson.play_options)
    bots = make_bots(game, game.new_initial_state(options, seed=seed), humans, None, seed)
    command = f"{play_command(lesson)} --seed {seed}"
    console.print(_("[bold]{title}[/] — seed {seed}  (the same game: {command})", title=_(game.title), seed=seed,
                    command=command))
    table: Any = TerminalGame(game, adapter, options, seed, humans, bots, console)
    try:
        table.play()
    except QuitGame:  # q is the learner's choice, as in ludus play: not a failure
        console.print(_("You left the game."))
        return 0
    except (EOFError, KeyboardInterrupt):
        console.print("\n" + _("Game abandoned."))
        return 1
    return 0
