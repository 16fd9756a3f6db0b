"""What the balance analysis compares for Gladius: the two-player duel and the solo game."""

from __future__ import annotations

from ...core.plugin import SOLO, AnalysisProfile, Scenario

__all__ = ["PROFILE"]

PROFILE = AnalysisProfile(
    variants=(Scenario("solo", "Solo against the rule-driven opponent", SOLO, {"solo": True}),),
    notes=("Seat 1 fights as fighter 1 (default Retiarius), seat 2 as fighter 2 (default Secutor).",),
)
