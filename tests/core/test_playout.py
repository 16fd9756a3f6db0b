"""The reference playout that search bots (and compiled playouts) follow."""

from __future__ import annotations

import warnings

import pytest

from ludus.core import compiled
from ludus.core.game import CHANCE
from ludus.core.playout import Playout, playout
from ludus.core.rng import Rng
from ludus.games import get_game

GAMES = ["gorus-maximus", "gladius", "circus-maximus", "gorus-arena"]


def _manual(state, rng, limit=None):  # type: ignore[no-untyped-def]
    """The contract written out step by step, to hold playout() to it."""
    decisions = 0
    while True:
        seats = state.current_seats()
        if seats and seats[0] == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
            continue
        if not seats or (limit is not None and decisions >= limit):
            return decisions, not seats
        legal = state.legal_actions(seats[0])
        state.apply(legal[0] if len(legal) == 1 else legal[rng.below(len(legal))], seats[0])
        decisions += 1


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seeded", [True, False])
def test_playout_follows_the_contract(name: str, seeded: bool) -> None:
    game = get_game(name)
    for seed in range(5):
        start = game.new_initial_state(None, seed=seed if seeded else None)
        a, b = start.clone(), start.clone()
        ra, rb = Rng(seed + 100), Rng(seed + 100)
        result = playout(a, ra)
        decisions, finished = _manual(b, rb)
        assert result == Playout(tuple(b.scores()), tuple(b.returns()), decisions, finished)
        assert finished and a.is_terminal() and ra.state == rb.state
        assert sum(result.returns) == pytest.approx(1.0)


@pytest.mark.parametrize("name", GAMES)
def test_a_cut_playout_is_unfinished_with_the_scores_at_the_cut(name: str) -> None:
    game = get_game(name)
    state = game.new_initial_state(None, seed=3)
    reference = state.clone()
    result = playout(state, Rng(1), max_decisions=5)
    decisions, finished = _manual(reference, Rng(1), 5)
    assert (result.decisions, result.finished) == (decisions, finished) == (5, False)
    assert result.scores == tuple(reference.scores())
    assert result.returns == (0.0,) * state.num_seats()


def test_a_policy_is_asked_only_with_a_choice() -> None:
    game = get_game("gladius")
    asked: list[int] = []

    def first(state, seat, legal):  # type: ignore[no-untyped-def]
        asked.append(len(legal))
        return legal[0]

    result = playout(game.new_initial_state(None, seed=4), Rng(0), first)
    assert result.finished and asked and min(asked) >= 2


def test_without_numba_bots_fall_back_with_one_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compiled, "_numba", None)
    monkeypatch.setattr(compiled, "_warned", False)
    with pytest.warns(RuntimeWarning, match="numba is not installed"):
        assert not compiled.available()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not compiled.available()  # warned once only


def test_compiled_playouts_can_be_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDUS_COMPILED", "0")
    assert not compiled.available()


@pytest.mark.parametrize("name", GAMES)
def test_each_game_names_compiled_playouts_of_its_own(name: str) -> None:
    pytest.importorskip("numba")
    playouts = get_game(name).compiled_playouts()
    assert playouts is not None and playouts.game_name == name
    assert "random" in playouts.policies


def test_warm_up_readies_every_policy_and_is_nothing_without_compiled_playouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("numba")
    game = get_game("gladius")
    assert compiled.warm_up(game) > 0.0
    assert set(compiled.compile_report()) >= {"gladius"}
    monkeypatch.setenv("LUDUS_COMPILED", "0")
    assert compiled.warm_up(game) == 0.0
