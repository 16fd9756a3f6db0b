"""What the balance analysis compares for Circus Maximus: every player count and the Caesar variant."""

from __future__ import annotations

from ...core.plugin import VARIANT, AnalysisProfile, Scenario

__all__ = ["PROFILE"]

PROFILE = AnalysisProfile(
    variants=(Scenario("caesar-4", "4 players, Caesar variant", VARIANT, {"players": 4, "caesar": True}),),
)
