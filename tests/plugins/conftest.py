"""Fixtures that install the Three cards toy as a separate distribution (see ``toy.py``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from ludus.games import game_names

from .toy import GAME, PACKAGE, Installed, install, on_sys_path


@pytest.fixture(scope="session")
def toy_dist(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The toy, installed once per session into a temporary folder (not yet on ``sys.path``)."""
    return install(tmp_path_factory.mktemp("three-cards"))


@pytest.fixture(scope="module")
def toy(toy_dist: Installed) -> Iterator[Installed]:
    """The toy on ``sys.path`` and in Ludus's registry for one test module, removed afterwards
    so that the tests of other modules (which loop over every game) never see it."""
    with on_sys_path(toy_dist):
        yield toy_dist
    assert GAME not in game_names() and PACKAGE not in sys.modules, "the toy outlived its tests"
