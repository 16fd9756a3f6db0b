"""Terminal view of Gorus Maximus: the troupe by school, the bout, both schools, support."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ...core.errors import IllegalAction
from ...core.game import CHANCE, Action, Game, SeatView
from ...core.provenance import DataValue
from ...core.terminal import TerminalAdapter, data_text
from ...i18n import N_, _, format_number, join_and, ngettext
from .actions import Play, Reveal
from .cards import CONTENDER, RANKS_PER_SCHOOL, SCHOOL_BY_CODE, SCHOOLS, CrowdFavourTable, _bits, _deck, setup_for
from .rules import MUST_FOLLOW, NOT_A_MOVE, NOT_HELD
from .views import GorusObservation

__all__ = ["ADAPTER", "STYLE", "GorusMaximusAdapter", "actor_name", "bout_text", "card_label", "card_text",
           "cf_legend", "school_name", "school_text", "side_name"]

STYLE = {"blue": "bold blue", "brown": "bold rgb(160,100,50)", "green": "bold green",
         "pink": "bold magenta", "yellow": "bold yellow"}


SCHOOL_WORDS = (N_("Blue Fists"), N_("Brown Swords"), N_("Green Arrows"), N_("Pink Axes"), N_("Yellow Shields"),
                N_("Blue"), N_("Brown"), N_("Green"), N_("Pink"), N_("Yellow"))
"""The schools' names and colour words as the card data writes them (cards.toml), for the catalogs:
each is shown through ``_()`` (glossary.<lang>.toml has the rulebooks' words for them)."""
TITLE = N_("Gorus Maximus")
"""The game's title (``GorusMaximusGame.title``), shown through ``_()`` where a player reads it."""


def school_name(school: int) -> str:
    """A school's name in the language in use ("Blue Fists")."""
    return _(SCHOOLS[school].name)


def card_label(c: int) -> str:
    """A card as players write it, in the language in use ("Green 10", "Verde 10"; Persian digits in Persian)."""
    return f"{_(SCHOOLS[c >> 4].short)} {format_number(c & 15)}"


def school_text(school: int) -> Text:
    if school < 0:
        return Text("—")
    s = SCHOOLS[school]
    return Text(f"{s.icon} {school_name(school)}", style=STYLE[s.colour])


def card_text(c: int) -> Text:
    s = SCHOOLS[c >> 4]
    return Text(f"{s.icon} {card_label(c)}", style=STYLE[s.colour])


def actor_name(actor: int, names: list[str]) -> str:
    return _("Contender") if actor == CONTENDER else names[actor]


def side_name(obs: GorusObservation, side: int, names: list[str]) -> str:
    """A side as the reader knows it: the seat's name in individual play (the names the terminal
    uses everywhere, not "Seat 2"), "Team A (Ann, Cy)" in the team variant, the contenders in solo."""
    if obs.solo:
        return names[0] if side == 0 else _("Contenders")
    if len(obs.side_names) == obs.players:
        return names[side]
    mates = _(", ").join(names[s] for s, t in enumerate(obs.side_of_seat) if t == side)
    return f"{team_name(obs.side_names[side])} ({mates})"


def team_name(name: str) -> str:
    """A team as the observation names it ("Team A"), in the language in use."""
    if name.startswith("Team "):
        return _("Team {letter}", letter=name[len("Team "):])
    return _(name)


MARK = {"example": "†", "ours": "*"}
"""The mark after a Crowd Favour value the rulebook does not print, by where it comes from."""


def cf_legend(cf: CrowdFavourTable, ranks: Sequence[int]) -> list[Text]:
    """The CF of each rank in the deck, each value not printed in the rulebook marked, and one
    line saying what the marks mean (with a player's own table: that the values are theirs)."""
    line = Text(_("Crowd Favour: "), style="dim")
    for i, r in enumerate(ranks):
        if i:
            line.append(" · ", style="dim")
        value = _("★{value} if preferred", value=cf.preferred_zero) if r == 0 else _signed(cf.by_rank[r])
        line.append(f"{format_number(r)}: {value}", style="dim")
        if not cf.own and cf.origins[r] in MARK:
            line.append(MARK[cf.origins[r]], style="bold yellow")
    if cf.own:
        note = Text("  " + _("These values are this table's own Crowd Favour table (option cf-table)."), style="dim")
    else:
        note = Text("  " + _("* our value, not in the rulebook; † not printed, follows from a rulebook example "
                             "(see ludus games gorus-maximus)"), style="dim")
    return [line, note]


def _signed(value: int) -> str:
    return f"+{format_number(value)}" if value > 0 else format_number(value)


def bout_text(bout: tuple[tuple[int, int], ...], names: list[str]) -> Text:
    out = Text()
    for i, (actor, c) in enumerate(bout):
        if i:
            out.append("  ·  ")
        out.append(f"{actor_name(actor, names)}: ")
        out.append_text(card_text(c))
        if i and (bout[i - 1][1] & 15) == (c & 15):
            out.append(" " + _("(Challenge!)"), style="bold red")
    return out or Text(_("(empty)"), style="dim")


class GorusMaximusAdapter(TerminalAdapter):
    game_name = "gorus-maximus"

    def describe_data_value(self, value: DataValue) -> tuple[str, str, str]:
        """A Crowd Favour value the rulebook does not print: its rank as a parameter, its note
        (from ``crowd_favour.toml``'s ``[note]``, extracted by ``ludus.i18n.data.extract_notes``)."""
        rank = value.subject.removeprefix("Crowd Favour of rank ")
        if rank.isdigit():
            return _("Crowd Favour of rank {rank}", rank=int(rank)), data_text(value.value), data_text(value.note)
        return super().describe_data_value(value)

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--solo", action="store_true", help=_("solo play against the contender stack"))
        parser.add_argument("--teams", help=_("team variant: a seating like ABACB, or a split such as 2v2 or 2v2v1"))
        parser.add_argument("--target", type=int,
                            help=_("Crowd Support needed to win (default 3); teams use -o team-target=N"))

    def options_from_args(self, args: argparse.Namespace) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if args.solo:
            if args.players not in (None, 1):
                from ...core.errors import InvalidOptions

                raise InvalidOptions(_("--solo is a one-player game; leave out --players"))
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

    def label(self, action: Action) -> str:
        return card_label(action.card) if isinstance(action, Play) else action.label

    def describe_refusal(self, error: IllegalAction) -> str:
        params = error.params
        if error.code == NOT_HELD:
            return _("you do not hold {card}", card=card_label(_card_of_code(params["card"])))
        if error.code == MUST_FOLLOW:
            school = SCHOOL_BY_CODE[params["school"]]
            return _("you hold a {school} gladiator: follow {school}, or Challenge with a {rank}",
                     school=_(school.short), rank=params["rank"])
        if error.code == NOT_A_MOVE:
            return _("{action} is not a move a player makes", action=params["action"])
        return super().describe_refusal(error)

    def _support_line(self, obs: GorusObservation, names: list[str], you: bool = True) -> Text:
        out = Text(_("Crowd Support: "))
        mine = obs.side_of_seat[obs.seat] if obs.seat is not None else None
        teams = len(obs.side_names) != obs.players and not obs.solo
        for side in range(len(obs.side_names)):
            if side:
                out.append("   ")
            label = team_name(obs.side_names[side]) if teams else side_name(obs, side, names)
            out.append(f"{label} {format_number(obs.support[side])}/{format_number(obs.targets[side])}",
                       style="bold" if side == mine else "")
        if mine is not None and obs.seat is not None and teams:
            mates = _(", ").join(names[s] for s, side in enumerate(obs.side_of_seat) if side == mine)
            team = team_name(obs.side_names[mine])
            who = (_("(you are {team}: {mates})", team=team, mates=mates) if you
                   else _("({name} is {team}: {mates})", name=names[obs.seat], team=team, mates=mates))
            out.append("   " + who, style="dim")
        return out

    def render(self, console: Console, view: SeatView, seat_names: list[str], *, you: bool = True) -> None:
        obs: GorusObservation = view.observation
        self._table(console, obs, seat_names, you)
        legal = {a.card for a in view.legal_actions if isinstance(a, Play)}
        hand = obs.hand or 0
        mover = seat_names[obs.seat] if obs.seat is not None else ""
        # in a replay the seat is named ("Bo's troupe"); a solo player the game itself calls "You" stays "Your"
        owner = (_("Your troupe") if you or not mover or mover.startswith(("You", _("You")))
                 else _("{name}'s troupe", name=mover))
        table = Table(title=owner, show_header=False, box=None)
        for school in range(len(SCHOOLS)):
            cards = [c for c in range(school * 16, school * 16 + 16) if hand >> c & 1]
            if not cards:
                continue
            row = Text()
            for c in cards:
                style = "reverse" if c in legal else "dim"
                row.append(f" {format_number(c & 15)} ", style=style)
                row.append(" ")
            table.add_row(school_text(school), row)
        console.print(table)
        for line in cf_legend(obs.cf_table, setup_for(obs.players).ranks):
            console.print(line)
        if you:  # a replay's board is not waiting for a move: no key to type
            console.print(Text(_("Highlighted cards may be played now; type b to see the previous bout."), style="dim"))

    def handle_command(self, console: Console, text: str, view: SeatView, seat_names: list[str]) -> bool:
        if text.lower() in ("b", "bout", "previous"):
            obs: GorusObservation = view.observation
            if not obs.previous_bout:
                console.print(_("No bout has been fought yet this round."))
            else:
                winner = actor_name(obs.previous_winner, seat_names) if obs.previous_winner is not None else "?"
                console.print(Text(_("Previous bout: ")).append_text(bout_text(obs.previous_bout, seat_names))
                              .append("  " + _("→ won by {name}", name=winner)))
            return True
        return False

    def _table(self, console: Console, obs: GorusObservation, seat_names: list[str], you: bool = True) -> None:
        if obs.last_round is not None and not obs.previous_bout and obs.last_round.round == obs.round - 1:
            self._round_summary(console, obs, seat_names)
        console.rule(_("Round {number}", number=obs.round)
                     + ("" if obs.solo else " · " + _("dealer {name}", name=seat_names[obs.dealer])))
        console.print(self._support_line(obs, seat_names, you))
        line = Text(_("Preferred: ")).append_text(school_text(obs.preferred))
        line.append("    " + _("Initiating: ")).append_text(school_text(obs.initiating))
        if obs.stock_size:
            pile = _("Contender stack") if obs.solo else _("Draw pile")
            line.append(f"    {pile}: {format_number(obs.stock_size)}")
        console.print(line)
        if obs.previous_winner is not None:
            last = obs.previous_bout[-1][1] if obs.previous_bout else -1
            console.print(Text(_("Previous bout won by {name} (last card {card}; type b to see it)",
                                 name=actor_name(obs.previous_winner, seat_names), card=card_label(last)),
                               style="dim"))
        console.print(Text(_("Bout: ")).append_text(bout_text(obs.bout, seat_names)))

    def _round_summary(self, console: Console, obs: GorusObservation, names: list[str]) -> None:
        lr = obs.last_round
        assert lr is not None
        console.rule(_("End of round {number}", number=lr.round))
        console.print(Text(_("Preferred school at the end: ")).append_text(school_text(lr.preferred)))
        if lr.no_eight:
            console.print(_("[bold red]{name} collected no {rank}: the crowd smells a fix. "
                            "The round goes to the contenders.[/]", name=names[0], rank=8))
        table = Table(_("side"), _("Crowd Favour"), _("gladiators"), _("support +"))
        for side in range(len(obs.side_names)):
            name = side_name(obs, side, names)
            zero = " " + _("(preferred {rank})", rank=0) if lr.preferred_zero_side == side else ""
            table.add_row(name, f"{format_number(lr.crowd_favour[side])}{zero}",
                          format_number(lr.collected_counts[side]), format_number(lr.support_gained[side]))
        console.print(table)

    def render_spectator(self, console: Console, observation: Any, seat_names: list[str]) -> None:
        self._table(console, observation, seat_names)
        for line in cf_legend(observation.cf_table, setup_for(observation.players).ranks):
            console.print(line)

    def show_chance(self, action: Action) -> bool:
        return isinstance(action, Reveal)  # deals would flood the log

    def describe_action(self, seat_name: str, action: Action) -> str:
        if isinstance(action, Reveal):
            return _("Contender plays {card}", card=card_label(action.card))
        if isinstance(action, Play):
            return _("{name} plays {card}", name=seat_name, card=card_label(action.card))
        return f"{seat_name}: {action.label}"

    def narrate(self, before: Any, after: Any, entries: Sequence[tuple[int, Action | str]],
                seat_names: list[str]) -> list[str]:
        """Contender cards not in the log, each round's first card (the preferred school), every
        Challenge, every bout's winner and every round's summary, from the reader's observations.

        The cards of a bout are all played face up, so the observations hold them: the bout in
        progress and the previous bout. Only the round's last bout is gone from ``after`` (a new
        round has started); it is ``before``'s bout plus the cards the entries played, and in solo
        play a last contender card that the log does not show is the one card of the deck nobody
        has seen yet (every other card was played face up or is in the player's hand).
        """
        if not isinstance(before, GorusObservation) or not isinstance(after, GorusObservation):
            return []
        names = seat_names
        lines: list[str] = []
        logged = {a.card for actor, a in entries if actor == CHANCE and isinstance(a, Reveal)}
        played = [(CONTENDER if actor == CHANCE else actor, a.card) for actor, a in entries
                  if isinstance(a, (Play, Reveal))]
        size = 3 if after.solo else after.players
        round_ended = after.last_round is not None and (
            before.last_round is None or after.last_round.round != before.last_round.round)
        start = list(before.bout)
        first = len(start)  # the cards of ``start`` told already (a seeded opening: ludus.cli.play.opening_lines)
        preferred = before.preferred
        if round_ended:
            last = start + [pc for pc in played if pc not in start][: size - len(start)]
            if after.solo and len(last) < size:
                last += _unseen_contender_cards(before, last, size - len(last))
            self._tell_bout(lines, last, first, preferred, logged, names, complete=True)
            lines += self._tell_round(after, names)
            self._tell_bout(lines, list(after.bout), 0, -1, logged, names, complete=False)
        elif after.previous_bout and after.previous_bout != before.previous_bout:
            done = list(after.previous_bout)
            if done[:len(start)] != start:
                first = 0  # the span held more than one bout: tell the one the observation keeps
            preferred = self._tell_bout(lines, done, first, preferred, logged, names, complete=True)
            self._tell_bout(lines, list(after.bout), 0, preferred, logged, names, complete=False)
        else:
            self._tell_bout(lines, list(after.bout), first, preferred, logged, names, complete=False)
        return lines

    def _tell_bout(self, lines: list[str], bout: list[tuple[int, int]], first: int, preferred: int,
                   logged: set[int], names: list[str], *, complete: bool) -> int:
        """Lines for the cards ``bout[first:]`` (a contender card the log lacks, the preferred school
        set or changed, a Challenge), then its winner when ``complete``; returns the preferred school."""
        for i, (actor, c) in enumerate(bout):
            school, rank = c >> 4, c & 15
            if i >= first:
                if actor == CONTENDER and c not in logged:
                    lines.append(_("Contender plays {card}", card=card_label(c)))
                if i == 0 and preferred < 0:
                    lines.append(_("[bold]{school}[/] are preferred (the round's first card)",
                                   school=school_name(school)))
                elif i and bout[i - 1][1] & 15 == rank:
                    before = card_label(bout[i - 1][1])
                    if school != preferred:
                        lines.append(_("[bold red]Challenge![/] {card} matches the rank of {before}: "
                                       "[bold]{school}[/] are now preferred",
                                       card=card_label(c), before=before, school=school_name(school)))
                    else:
                        lines.append(_("Challenge: {card} matches the rank of {before}, but "
                                       "{school} are already preferred",
                                       card=card_label(c), before=before, school=school_name(school)))
            if (i == 0 and preferred < 0) or (i and bout[i - 1][1] & 15 == rank and school != preferred):
                preferred = school
        if complete and bout:
            winner, card = _holder(bout, preferred)
            cards = " · ".join(f"{actor_name(a, names)} {card_label(c)}" for a, c in bout)
            lines.append(_("→ bout won by [bold]{name}[/] with {card}", name=actor_name(winner, names),
                           card=card_label(card)) + f"  [dim]({cards})[/]")
        return preferred

    def _tell_round(self, obs: GorusObservation, names: list[str]) -> list[str]:
        """The summary of the round that just ended: favour, who gained Crowd Support, the totals."""
        lr = obs.last_round
        assert lr is not None
        sides = range(len(obs.side_names))
        favour = " · ".join(
            f"{side_name(obs, s, names)} {format_number(lr.crowd_favour[s])}"
            + (" " + _("(with the preferred {rank})", rank=0) if lr.preferred_zero_side == s else "")
            + _(", ") + ngettext("{count} gladiator", "{count} gladiators", lr.collected_counts[s],
                                 count=lr.collected_counts[s]) for s in sides)
        gained = [side_name(obs, s, names) for s in sides if lr.support_gained[s]]
        out = [_("[bold]End of round {number}[/]: {school} preferred at the end", number=lr.round,
                 school=school_name(lr.preferred)),
               _("Crowd Favour: ") + favour]
        if lr.no_eight:
            out.append(_("{name} collected no {rank}: the crowd smells a fix, the round goes to the contenders",
                         name=names[0], rank=8))
        if len(gained) > 1:
            out.append(_("+{count} Crowd Support to [bold]{names}[/] each (a tie for the most Crowd Favour)",
                         count=1, names=join_and(gained)))
        else:
            out.append(_("+{count} Crowd Support to [bold]{names}[/]", count=1, names=join_and(gained)))
        out.append(_("Crowd Support: ") + " · ".join(
            f"{side_name(obs, s, names)} {format_number(obs.support[s])}/{format_number(obs.targets[s])}"
            for s in sides))
        return out

    def default_human_seats(self, args: argparse.Namespace, game: Game, options: Any) -> list[int]:
        return [0]

    def render_final(self, console: Console, observation: Any, scores: list[float], winners: list[int],
                     seat_names: list[str]) -> None:
        obs: GorusObservation = observation
        if obs.last_round is not None:
            self._round_summary(console, obs, seat_names)
        console.rule(_("Game over"))
        console.print(self._support_line(obs, seat_names))
        if obs.solo:
            if not winners:
                console.print(_("[bold red]The contenders win the crowd.[/]"))
            elif seat_names[0] in ("You", _("You")):
                console.print(_("[bold green]You are the Champion of Gorus Maximus![/]"))
            else:
                console.print(_("[bold green]{name} is the Champion of Gorus Maximus![/]", name=seat_names[0]))
        else:
            names = _(", ").join(seat_names[w] for w in winners)
            console.print(ngettext("[bold green]Champion(s) of Gorus Maximus: {names}[/]",
                                   "[bold green]Champion(s) of Gorus Maximus: {names}[/]", len(winners), names=names))


def _holder(bout: list[tuple[int, int]], preferred: int) -> tuple[int, int]:
    """Who wins a whole bout, and with which card: the highest card of the preferred school (as
    it stands after the bout's Challenges), else the highest of the initiating school."""
    for school in (preferred, bout[0][1] >> 4):
        best = [(c, a) for a, c in bout if c >> 4 == school]
        if best:
            card, actor = max(best)
            return actor, card
    raise AssertionError("a bout holds a card of the initiating school")


def _unseen_contender_cards(before: GorusObservation, bout: list[tuple[int, int]],
                            count: int) -> list[tuple[int, int]]:
    """The last contender card(s) of a solo round the log did not show: the deck's cards that no
    one has seen (not collected, not in the bout, not in the player's hand)."""
    deck = _deck(before.schools_in_play, setup_for(before.players).ranks)
    seen = (before.hand or 0) | sum(1 << c for _, c in bout)
    for mask in before.collected:
        seen |= mask
    unseen = _bits(deck & ~seen)
    return [(CONTENDER, c) for c in unseen] if len(unseen) == count else []


def _card_of_code(code: str) -> int:
    """The card a record's code names (``GA10``)."""
    return SCHOOL_BY_CODE[code[:2]].index * 16 + int(code[2:])


ADAPTER = GorusMaximusAdapter()
