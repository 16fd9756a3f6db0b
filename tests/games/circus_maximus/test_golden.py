"""Seeded games replay exactly as before the speed work: same moves, legal moves in the same
order, same observations, positions, refusal reasons and scores (see :mod:`.golden`)."""

from __future__ import annotations

import pytest

from .golden import OPTION_SETS, load, play

GOLDEN = load()["games"]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_golden_games_replay(options) -> None:
    games = [g for g in GOLDEN if g["options"] == options]
    assert len(games) >= 2 and any(g["heuristic"] for g in games)
    for old in games:
        new = play(old["options"], old["seed"], full="full_moves" in old, heuristic=old["heuristic"])
        where = f"seed {old['seed']} {options} (heuristic: {old['heuristic']})"
        if "full_moves" in old:  # the readable copy first, so a difference shows where it starts
            assert new["full_moves"] == old["full_moves"], where
            for i, (a, b) in enumerate(zip(new["full_samples"], old["full_samples"], strict=True)):
                assert a == b, f"{where}, sample {i}"
        assert new == old, where


def test_golden_covers_every_option() -> None:
    from ludus.games.circus_maximus.options import START_CARD_READINGS

    seen = {(o["players"], o["caesar"], o["start_card"]) for o in (g["options"] for g in GOLDEN)}
    assert seen == {(p, c, s) for p in (3, 4, 5) for c in (False, True) for s in START_CARD_READINGS}
