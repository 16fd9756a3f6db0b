"""Per-game facts the bridges need that the core protocol does not give: the full action
lists, bounds on game length, and which observation encoder to use.

Each enumerator writes actions in the game's JSON action format (the one records use) and
lets ``game.action_from_json`` parse them, so it depends on a documented format rather
than on engine internals. A game that defines ``action_space(options)`` and
``max_game_length(options)`` itself needs no entry here (see :mod:`.action_space`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ..core.game import Game
from .action_space import InteropError
from .encoding import GorusMaximusEncoder, HashedEncoder, ObservationEncoder

Json = Any


@dataclass(frozen=True)
class GameSpec:
    """What the interop layer knows about one game."""

    actions: Callable[[Any], tuple[list[Json], list[Json]]]
    """options -> (player actions, chance outcomes), as JSON."""
    max_length: Callable[[Any], tuple[int, int]]
    """options -> (most decisions, most chance nodes) in one game."""
    encoder: Callable[[Any], ObservationEncoder] = lambda options: HashedEncoder()


# --------------------------------------------------------------------------- Gorus Maximus
def _gm_actions(o: Any) -> tuple[list[Json], list[Json]]:
    from ..games.gorus_maximus.cards import NUM_CARDS, SCHOOLS, card_code, setup_for

    codes = [card_code(c) for c in range(NUM_CARDS)]
    player = [{"play": code} for code in codes]  # number = card index (school * 16 + rank)
    chance: list[Json] = [{"deal": code, "to": seat} for seat in range(o.players) for code in codes]
    if o.solo:
        chance += [{"reveal": code} for code in codes]
    if o.school_indices() is None:
        k = setup_for(o.players).schools
        chance += [{"schools": [SCHOOLS[s].code for s in combo]} for combo in combinations(range(len(SCHOOLS)), k)]
    return player, chance


def _gm_rounds(o: Any) -> int:
    """Most rounds: every round gives at least one side a point of Crowd Support.

    With shared final ties a game ends once a side reaches its target, so rounds are at
    most one more than the points all sides can hold below their targets. ``play-on`` can
    in principle go on for ever; there the bound is four times that (a practical cap).
    """
    n = o.players
    team = o.team_of_seat()
    if n == 1:
        targets = [o.target, o.target]
    elif team is not None:
        sizes = [team.count(t) for t in range(max(team) + 1)]
        targets = [o.team_target or size + 1 for size in sizes]
    else:
        targets = [o.target] * n
    rounds = 1 + sum(t - 1 for t in targets)
    return rounds * 4 if o.final_tie == "play-on" else rounds


def _gm_length(o: Any) -> tuple[int, int]:
    from ..games.gorus_maximus.cards import setup_for

    row = setup_for(o.players)
    deck = row.schools * len(row.ranks)  # each card is played, and dealt or drawn, at most once a round
    rounds = _gm_rounds(o)
    return rounds * deck, rounds * deck + 1  # + the choice of schools


# --------------------------------------------------------------------------- Gladius
def _gl_actions(o: Any) -> tuple[list[Json], list[Json]]:
    from ..games.gladius.game import build_setup

    keys = [c.key for c in build_setup(o).kinds]
    player: list[Json] = [{"attack": k} for k in keys] + [{"attack": None}]
    player += [{"defend": k} for k in keys] + [{"defend": None}]
    player += [{"discard": k} for k in keys]
    chance: list[Json] = [{"draw": k, "seat": seat} for seat in (0, 1) for k in keys]
    chance += [{"first": 0}, {"first": 1}, {"reshuffle": True}, {"skip": 0}, {"skip": 1}]
    chance += [{"mini": k} for k in keys]
    chance += [{"adversary_attack": k} for k in keys] + [{"adversary_attack": None}]
    chance += [{"adversary_defend": k} for k in keys] + [{"adversary_defend": None}]
    return player, chance


GLADIUS_UNLIMITED_TURNS = 10_000
"""Turns assumed for ``turn_limit=0`` (no limit): a practical cap, not a proof."""


def _gl_length(o: Any) -> tuple[int, int]:
    """Per turn at most one discard (a hand is at the limit before its one-card draw), one
    attack and one defence; chance per turn at most a draw with its reshuffle, a skipped turn,
    and in solo two mini-hands of up to 3 draws (each with a reshuffle) and two forced plays."""
    turns = o.turn_limit or GLADIUS_UNLIMITED_TURNS
    return 3 * turns, 20 * turns + 2 * o.starting_hand + 1


# --------------------------------------------------------------------------- Circus Maximus
def _cm_actions(o: Any) -> tuple[list[Json], list[Json]]:
    from ..games.circus_maximus.actions import LINE_KEYS
    from ..games.circus_maximus.data import FAVOUR_KEYS, VENUE_KEYS
    from ..games.circus_maximus.game import GAME

    d = GAME.cards(o)
    tickets = [t.key for t in d.tickets]
    visitors = [v.key for v in d.visitors]
    legion = d.visitors[d.legionnaire_kind].key
    player: list[Json] = []
    for rank in range(1, 9):
        for line in LINE_KEYS:
            for extra in (False, True):
                for boost in ((False, True) if rank == 1 else (False,)):
                    a: dict[str, Any] = {"type": "place", "rank": rank, "line": line}
                    if extra:
                        a["extra"] = True
                    if boost:
                        a["boost"] = True
                    player.append(a)
    player += [{"type": t} for t in ("pass", "done", "extra_visitor", "ticket_and_visitor", "take_start", "skip")]
    player += [{"type": "place_visitor", "venue": v} for v in VENUE_KEYS]
    player += [{"type": "replay_trader", "rank": r, "line": line} for r in range(1, 9) for line in LINE_KEYS]
    player += [{"type": "move_ahead", "rank": r} for r in range(1, 9)]
    player += [{"type": "take_favour", "favour": f} for f in FAVOUR_KEYS]
    player += [{"type": "take_ticket", "ticket": t, "double": dbl} for t in tickets for dbl in (False, True)]
    sellers = [("ticket", t) for t in tickets] + [("favour", f) for f in FAVOUR_KEYS]
    for v in visitors:
        for field, key in sellers:
            for lg in ((False, True) if v == legion else (False,)):
                for dbl in (False, True):
                    player.append({"type": "sell", "visitor": v, field: key, "legion": lg, "double": dbl})
    chance: list[Json] = [{"type": "draw_favour", "favour": f} for f in FAVOUR_KEYS]
    chance += [{"type": "draw_ticket", "ticket": t} for t in tickets]
    chance += [{"type": "draw_visitor", "visitor": v} for v in visitors]
    return player, chance


def _cm_length(o: Any) -> tuple[int, int]:
    """A day gives each player at most 8 placements, 3 passes and 8 picks, and each favour card
    played adds at most three decisions (its own, a second trader's or ``Done``, and a visitor's
    venue or an extra sale); doubled as a margin. Chance: each deck is drawn through at most
    once a day."""
    from ..games.circus_maximus.game import DAYS, GAME

    d = GAME.cards(o)
    favours = sum(f.count for f in d.favours)
    cards = favours + sum(t.count for t in d.tickets) + sum(v.count for v in d.visitors)
    return 2 * (DAYS * o.players * 19 + 3 * favours), DAYS * cards


# --------------------------------------------------------------------------- Gorus Arena
def _ga_actions(o: Any) -> tuple[list[Json], list[Json]]:
    from ..games.gorus_arena.cards import KINDS, NUM_CARDS

    player: list[Json] = [{"do": "place", "card": k.key} for k in KINDS]
    player += [{"do": "done"}, {"do": "income"}, {"do": "pass"}]
    player += [{"do": "recruit", "card": k.key} for k in KINDS]
    player += [{"do": "attack", "target": c} for c in range(NUM_CARDS)]
    chance: list[Json] = [{"do": "draw", "seat": s, "card": c} for s in range(o.players) for c in range(NUM_CARDS)]
    chance += [{"do": "market-draw", "seat": s, "card": c} for s in range(o.players) for c in range(NUM_CARDS)]
    return player, chance


def _ga_length(o: Any) -> tuple[int, int]:
    """A round gives each seat at most a full plan plus ``done`` and one decision per planned
    card; chance per round and seat at most its draw and a market draw."""
    from ..games.gorus_arena.game import DRAW_COUNT, MARKET_DRAW, PLAN_SIZE

    return o.rounds * o.players * (2 * PLAN_SIZE + 1), o.rounds * o.players * (DRAW_COUNT + MARKET_DRAW)


# --------------------------------------------------------------------------- registry
SPECS: dict[str, GameSpec] = {
    "gorus-maximus": GameSpec(_gm_actions, _gm_length, GorusMaximusEncoder),
    "gladius": GameSpec(_gl_actions, _gl_length),
    "circus-maximus": GameSpec(_cm_actions, _cm_length),
    "gorus-arena": GameSpec(_ga_actions, _ga_length),
}


def spec_for(game: Game) -> GameSpec:
    spec = SPECS.get(game.name)
    if spec is None:
        raise InteropError(
            f"{game.title} has no interop spec: give the game action_space(options) and "
            "max_game_length(options), or add an entry to ludus.interop.specs.SPECS"
        )
    return spec


def encoder_for(game: Game, options: Any) -> ObservationEncoder:
    """The game's exact encoder if it has one, else the generic hashed encoder."""
    own = getattr(game, "observation_encoder", None)
    if callable(own):
        return own(options)
    spec = SPECS.get(game.name)
    return spec.encoder(options) if spec is not None else HashedEncoder()
