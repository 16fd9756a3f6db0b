"""What the balance analysis compares for Gorus Arena: every player count, and at three
players each alternative reading of the rules the Persian text leaves open (docs/gorus-arena.md),
so a designer can see how much each choice moves the win rates."""

from __future__ import annotations

from ...core.plugin import VARIANT, AnalysisProfile, Scenario

__all__ = ["PROFILE"]

PROFILE = AnalysisProfile(
    variants=(
        Scenario("per-round-auction", "3 players, one auction per round", VARIANT, {"auction": "per-round"}),
        Scenario("execution-defence", "3 players, defence only from its turn", VARIANT,
                 {"defence_timing": "execution"}),
        Scenario("arena-targets", "3 players, attacks on any revealed gladiator", VARIANT,
                 {"attack_targets": "arena"}),
        Scenario("trailing-start", "3 players, the trailing player starts", VARIANT,
                 {"starting_player": "trailing"}),
    ),
    notes=("Our reading of an incomplete text: the variants are the other readings we offer as options.",),
)
