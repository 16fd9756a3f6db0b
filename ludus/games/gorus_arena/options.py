"""Gorus Arena options: the player count and every reading of the source text a table may prefer.

Each choice the short source text leaves open is an option; the default is the reading the
rules document argues for (see ``docs/games/gorus-arena.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.errors import InvalidOptions, Message
from ...core.options import option
from ...i18n import N_

__all__ = [
    "ATTACK_TARGETS", "AUCTIONS", "DEFENCE_TIMINGS", "REFILLS", "STARTS", "TIE_BREAKS", "TIE_RESOLUTIONS",
    "USED_CARDS", "GorusArenaOptions",
]

AUCTIONS = ("per-card", "per-round")
DEFENCE_TIMINGS = ("reveal", "execution")
ATTACK_TARGETS = ("bout", "arena", "team")
TIE_BREAKS = ("coins", "shared")
TIE_RESOLUTIONS = ("simultaneous", "turn-order")
STARTS = ("rotate", "trailing", "fixed")
USED_CARDS = ("discard", "leave")
REFILLS = ("random", "choose")


@dataclass(frozen=True)
class GorusArenaOptions:
    players: int = option(3, "number of players", min=2, max=5)
    rounds: int = option(6, "rounds before the game ends (the text says 6)", min=1, max=20)
    auction: str = option(
        "per-card",
        "per-card: one auction for each position of the plan (first cards, then second cards…); "
        "per-round: one auction on each player's strongest card fixes the order for the whole round",
        choices=AUCTIONS,
    )
    defence_timing: str = option(
        "reveal",
        "reveal: a planned defence card guards from the moment plans are revealed; "
        "execution: only from its turn in the execution order",
        choices=DEFENCE_TIMINGS,
    )
    attack_targets: str = option(
        "bout",
        "bout: a card attacks only the rival cards planned at the same position (they meet in one auction); "
        "arena: any rival gladiator revealed this round; team: any living rival gladiator, wherever it is",
        choices=ATTACK_TARGETS,
    )
    free_plan: bool = option(
        False,
        "let players plan any 1-5 cards and keep the rest in hand (the text: all cards when under 5)",
    )
    starting_player: str = option(
        "rotate",
        "who starts each round after the first (and so wins ties): rotate: the next seat in turn; "
        "trailing: the player with the fewest points (ties: the next of them in turn); fixed: always the same seat",
        choices=STARTS,
    )
    first_player: int = option(1, "seat number of the first round's starting player", min=1, max=5)
    tie_resolution: str = option(
        "simultaneous",
        "simultaneous: in a tied auction nobody strikes first, so a card killed during that auction "
        "still carries out its action; turn-order: a card killed before its turn does nothing",
        choices=TIE_RESOLUTIONS,
    )
    tie_break: str = option(
        "coins",
        "coins: among players tied on points, the one with more coins left wins; shared: all tied players win",
        choices=TIE_BREAKS,
    )
    armoury: bool = option(True, "action cards can be bought with a recruit action beside the gladiators")
    # two readings added after games were stored: stored games (without the key) keep today's rule
    used_cards: str = option(
        "discard",
        "discard: used cards go to their owner's discard pile, which becomes the draw pile again when that "
        "runs out; leave: used cards are put away for good (never drawn again), still alive and scoring",
        choices=USED_CARDS, legacy="discard",
    )
    refill: str = option(
        "random",
        "a player whose hand stays empty after drawing takes 3 gladiators from the (face-up) market: "
        "random: 3 at random; choose: the player picks them, one at a time",
        choices=REFILLS, legacy="random",
    )

    def __post_init__(self) -> None:
        if self.first_player > self.players:
            raise InvalidOptions(Message(
                N_("first-player must be a seat from {first} to {players} in a {players}-player game, not {seat}"),
                first=1, players=self.players, seat=self.first_player))
