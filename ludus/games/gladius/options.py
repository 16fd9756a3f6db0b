"""Gladius options: the dataclass every game is set up from, and its validation.

Options are checked when they are made (unknown fighter types, a card-set file that cannot
be read, a starting hand over the hand limit), so every later layer can trust them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.errors import InvalidOptions, Message
from ...core.options import option
from ...i18n import N_
from .cards import builtin_catalogue, load_catalogue, split_paths

__all__ = ["FIGHTER_SUGGESTIONS", "GladiusOptions"]


def _fighter_suggestions() -> list[dict[str, Any]]:
    """The shipped fighter types, for the lobby's list; card-set files may add more, so the option
    stays free text. The lion is the project's own example animal, not the rulebook's, and says so."""
    out: list[dict[str, Any]] = []
    for set_id, card_set in builtin_catalogue().fighters.items():
        if card_set.kind == "animal":
            out.append({"value": set_id, "message": ANIMAL_LABEL, "words": {"name": card_set.name}})
        else:
            out.append({"value": set_id, "label": card_set.name})
    return out


ANIMAL_LABEL = N_("{name} (an animal; the Ludus project's own example, not in the rulebook)")


FIGHTER_SUGGESTIONS = _fighter_suggestions()


@dataclass(frozen=True)
class GladiusOptions:
    fighter1: str = option("retiarius", "fighter type of seat 1 (what --me picks)", suggestions=FIGHTER_SUGGESTIONS)
    fighter2: str = option("secutor", "fighter type of seat 2, or of the automated opponent in solo play",
                           suggestions=FIGHTER_SUGGESTIONS)
    solo: bool = option(False, "solo rules: one person against the rule-driven opponent and its mini-hands")
    first: str = option("auto", "who moves first: auto = the Retiarius if exactly one fighter is one, "
                                "otherwise fighter 1", choices=("auto", "fighter1", "fighter2", "random"))
    mirror: str = option("twice", "mirror match (same type twice): its card set enters the deck twice "
                                  "(one per fighter) or once", choices=("twice", "once"))
    attack: str = option("compulsory", "the attack step: compulsory = a fighter holding an attack card it may "
                                       "play must play one (the rulebook's wording); optional = it may always "
                                       "pass", choices=("compulsory", "optional"), legacy="optional")
    reshuffle: bool = option(True, "when the deck runs out, shuffle the discards into a new deck; if off, "
                                   "the game ends then and more hit points wins")
    hit_points: int = option(0, "starting hit points of both fighters; 0 = each type's own (10 for gladiators)",
                             min=0, max=99)
    starting_hand: int = option(2, "cards each fighter starts with", min=0, max=10)
    hand_limit: int = option(5, "most cards kept after the Maneuver draw", min=1, max=10)
    solo_defence_hand: int = option(0, "solo: cards in the opponent's defence mini-hand; 0 = its type's own",
                                    min=0, max=3)
    solo_attack_hand: int = option(0, "solo: cards in the opponent's attack mini-hand; 0 = its type's own",
                                   min=0, max=3)
    turn_limit: int = option(500, "the game ends after this many turns in all (0 = never); more hit points wins",
                             min=0, max=100_000)
    card_sets: str = option("", "extra card-set files (TOML), comma-separated paths: new fighters or animals",
                            host_path=True)

    def __post_init__(self) -> None:
        cat = load_catalogue(split_paths(self.card_sets))  # raises CardSetError (an InvalidOptions)
        cat.fighter(self.fighter1)
        cat.fighter(self.fighter2)
        if self.starting_hand > self.hand_limit:
            raise InvalidOptions(Message(N_("starting-hand ({hand}) cannot exceed hand-limit ({limit})"),
                                         hand=self.starting_hand, limit=self.hand_limit))
