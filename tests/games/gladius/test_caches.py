"""The setup and catalogue caches are bounded and drop their oldest entry, never all at once."""

from __future__ import annotations

from pathlib import Path

from ludus.core.memo import BoundedMemo
from ludus.games.gladius import cards, rules
from ludus.games.gladius.cards import load_catalogue
from ludus.games.gladius.options import GladiusOptions
from ludus.games.gladius.rules import build_setup

from .test_cards import HOPLOMACHUS


def test_setups_are_kept_until_they_are_the_oldest():
    memo = rules._SETUPS
    assert isinstance(memo, BoundedMemo) and memo.maxsize == 256
    options = [GladiusOptions(turn_limit=1000 + i) for i in range(memo.maxsize + 10)]
    setups = [build_setup(o) for o in options]
    assert len(memo) == memo.maxsize
    assert all(build_setup(o) is s for o, s in zip(options[10:], setups[10:], strict=True))  # all still held
    assert build_setup(options[0]) is not setups[0]  # the oldest went first, and is made again
    assert build_setup(options[0]).kinds == setups[0].kinds


def test_catalogues_are_kept_until_they_are_the_oldest(tmp_path: Path):
    memo = cards._CATALOGUES
    assert isinstance(memo, BoundedMemo) and memo.maxsize == 64
    paths = []
    for i in range(memo.maxsize + 2):
        path = tmp_path / f"set{i}.toml"
        path.write_text(HOPLOMACHUS.replace('"hoplomachus"', f'"hoplo{i}"'), encoding="utf-8")
        paths.append(str(path))
    cats = [load_catalogue([p]) for p in paths]
    assert len(memo) == memo.maxsize
    assert all(load_catalogue([p]) is c for p, c in zip(paths[2:], cats[2:], strict=True))
    assert load_catalogue([paths[0]]) is not cats[0]
    assert load_catalogue([paths[0]]).fighters["hoplo0"] == cats[0].fighters["hoplo0"]
