"""The narration hook (``TerminalAdapter.narrate``) as ``ludus play`` and ``ludus replay`` call it:
with the reader's observations just before and just after the entries, the entries as the reader
may see them, and its lines printed after the move lines they follow from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from rich.console import Console

from ludus.cli import adapters as adapters_module
from ludus.cli import play as play_module
from ludus.cli.adapters import get_adapter
from ludus.cli.main import build_parser, cmd_replay, main
from ludus.core import records
from ludus.core.game import CHANCE, HIDDEN, Action
from ludus.games import get_game


def stub_of(name: str) -> Any:
    """The game's own adapter, with narrate and describe_action replaced by markers."""
    real = get_adapter(name)

    class Stub(type(real)):  # type: ignore[misc]
        calls: list[tuple[Any, Any, list[tuple[int, Any]]]]

        def describe_action(self, seat_name: str, action: Action) -> str:
            return f"MOVE {seat_name}: {action.label}"

        def describe_secret(self, seat_name: str) -> str:
            return f"SECRET {seat_name}"

        def narrate(self, before: Any, after: Any, entries: Sequence[tuple[int, Action | str]],
                    seat_names: list[str]) -> list[str]:
            self.calls.append((before, after, list(entries)))
            return [f"NARR {len(self.calls)} a", f"NARR {len(self.calls)} b"]

    stub = Stub()
    stub.calls = []
    return stub


def check_printed_after_the_moves(text: str, stub: Any, shown: Any) -> None:
    """Each call's two lines come after the move lines of its own entries, before the next call's."""
    lines = [line.strip() for line in text.splitlines()]
    moves_since = 0
    call = 0
    for line in lines:
        word = line.split(". ", 1)[-1] if line[:1].isdigit() else line
        if word.startswith(("MOVE ", "SECRET ")):  # a hidden move has a line of its own
            moves_since += 1
        elif line.startswith("NARR ") and line.endswith(" a"):
            call += 1
            assert line == f"NARR {call} a"
            assert moves_since == sum(1 for entry in stub.calls[call - 1][2] if shown(entry)), (call, moves_since)
            moves_since = 0
        elif line.startswith("NARR "):
            assert line == f"NARR {call} b"
    assert call == len(stub.calls) and moves_since == 0


def assert_same_entries(logged: list[tuple[int, Any]], final: list[tuple[int, Any]]) -> None:
    """The entries as they were logged and as the reader sees them at the end: the same actors in the
    same order; an entry hidden when logged may have been revealed since (a secret plan turned up),
    never the other way round."""
    assert [actor for actor, _a in logged] == [actor for actor, _a in final]
    for (actor, then), (_actor, now) in zip(logged, final, strict=True):
        assert then == now or (then == HIDDEN and actor != CHANCE) or (then == HIDDEN and now == HIDDEN), (then, now)


def watch(name: str, options: dict[str, Any], humans: list[int], seed: int) -> tuple[Any, Any, str]:
    game = get_game(name)
    stub = stub_of(name)
    opts = game.parse_options(options)
    console = Console(record=True, width=120)
    state0 = game.new_initial_state(opts, seed=seed)
    bots = play_module.make_bots(game, state0, humans, None, seed)
    tg = play_module.TerminalGame(game, stub, opts, seed, humans, bots, console)
    return tg, stub, console


@pytest.mark.parametrize("name, options", [("gorus-maximus", {"players": 3}), ("gorus-arena", {}),
                                           ("gladius", {}), ("circus-maximus", {})])
def test_watching_bots_narrates_every_entry_once_from_the_spectators_observations(name, options):
    tg, stub, console = watch(name, options, [], seed=11)
    # a seeded opening (the deal) is narrated first, from the table as it stood before any chance
    opening = bool(tg.state.visible_history(None))
    initial = (get_game(name).new_initial_state(tg.options, seed=None) if opening else tg.state).observation(None)
    initial = initial.to_json()
    start = 0
    final = tg.play()
    assert stub.calls
    # the observations chain: each call starts where the one before ended, from the start to the end
    assert stub.calls[0][0].to_json() == initial
    assert stub.calls[-1][1].to_json() == final.observation(None).to_json()
    for (_b, after, _e), (before, _a, _e2) in zip(stub.calls, stub.calls[1:], strict=False):
        assert after.to_json() == before.to_json()
    # every entry of the spectator's history, once, in order, as visible when it was logged
    assert_same_entries([e for _b, _a, entries in stub.calls for e in entries], final.visible_history(None)[start:])

    def shown(entry: tuple[int, Any]) -> bool:
        actor, action = entry
        if isinstance(action, str):
            return actor != CHANCE  # a secret move is a line of its own (describe_secret)
        return actor != CHANCE or tg.adapter.show_chance(action)

    text = console.export_text()
    check_printed_after_the_moves(text, stub, shown)


def test_a_players_narration_sees_only_that_players_observations(monkeypatch):
    tg, stub, _console = watch("gorus-arena", {}, [0], seed=4)

    def first_legal(prompt: str, **kwargs: Any) -> str:
        if "Press Enter" in prompt:
            return ""
        choices = tg.adapter.choices(tg.state.view(0))
        return str(next(i for i, (_a, ok) in enumerate(choices, 1) if ok))

    monkeypatch.setattr(play_module.Prompt, "ask", staticmethod(first_legal))
    start = len(tg.state.history)
    final = tg.play()
    assert stub.calls[-1][1].to_json() == final.observation(0).to_json()
    entries = [e for _b, _a, es in stub.calls for e in es]
    assert_same_entries(entries, final.visible_history(0)[start:])
    assert any(action == HIDDEN for _actor, action in entries)  # the others' secret choices stayed secret


@pytest.fixture(scope="module")
def arena_record(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("narr") / "arena.json"
    assert main(["play", "gorus-arena", "--seat", "none", "--seed", "6", "--save", str(path)]) == 0
    return str(path)


@pytest.mark.parametrize("seat", [None, 2])
def test_replay_narrates_each_step_with_the_readers_observations(monkeypatch, arena_record, seat):
    stub = stub_of("gorus-arena")
    monkeypatch.setattr(adapters_module, "get_adapter", lambda name: stub)
    console = Console(record=True, width=120)
    argv = ["replay", arena_record] + ([] if seat is None else ["--seat", str(seat)])
    assert cmd_replay(build_parser().parse_args(argv), console) == 0
    viewer = None if seat is None else seat - 1
    record = records.load(arena_record)
    expected = []
    for state, actor, action in records.iter_replay(record, get_game):
        before = state.observation(viewer).to_json()
        after_state = state.clone()
        after_state.apply(action, actor)
        visible = viewer is None or actor == viewer or action.visible_to(viewer, actor)
        expected.append((before, after_state.observation(viewer).to_json(), [(actor, action if visible else HIDDEN)]))
    got = [(b.to_json(), a.to_json(), entries) for b, a, entries in stub.calls]
    assert got == expected
    if viewer is not None:
        assert any(entries[0][1] == HIDDEN for _b, _a, entries in got)
        assert "SECRET " in console.export_text(clear=False)  # another seat's secret, said as such

    def shown(entry: tuple[int, Any]) -> bool:
        actor, action = entry
        if action == HIDDEN:
            return actor != CHANCE  # a line of its own (describe_secret)
        return actor != CHANCE or stub.show_chance(action)

    check_printed_after_the_moves(console.export_text(), stub, shown)
