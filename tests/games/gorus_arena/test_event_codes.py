"""The observation's ``event_codes`` (for the browser, which words the log in its reader's language)
say the same lines as its English ``events``: one entry per line, each made of the event's kind
and its values only (seats, card ids, numbers, a card kind's key, true/false: never words), enough
to word the line again exactly as the engine does, and the same for every seat (the log is public)."""

from __future__ import annotations

import json

import pytest

from ludus.core.errors import RecordError
from ludus.core.rng import Rng
from ludus.games.gorus_arena.cards import KIND_BY_KEY
from ludus.games.gorus_arena.events import EVENT_KINDS, event_codes, event_text
from ludus.games.gorus_arena.game import GAME

CODE_OF = {kind: code for code, kind in EVENT_KINDS.items()}

OPTIONS = (
    {"players": 2},
    {"players": 3},
    {"players": 4, "auction": "per-round", "defence_timing": "execution"},
    {"players": 3, "used_cards": "leave", "refill": "choose", "attack_targets": "arena"},
    {"players": 5, "free_plan": True, "attack_targets": "team", "rounds": 3},
)


def worded(entry: list) -> str:
    """The English line of a code entry, as the engine words the event it came from."""
    kind, *values = entry
    return event_text((CODE_OF[kind], *(tuple(v) if isinstance(v, list) else v for v in values)))


def only_ids_and_numbers(entry: list) -> bool:
    kind, *values = entry
    if kind not in CODE_OF:
        return False
    for v in values:
        items = v if isinstance(v, list) else [v]
        for x in items:
            if isinstance(x, str):  # the one text a code carries: a card kind's key ("secutor")
                if kind != "recruits" or x not in KIND_BY_KEY:
                    return False
            elif not isinstance(x, (bool, int)):
                return False
    return True


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_observation_says_its_lines_twice(options, seed):
    state = GAME.new_initial_state(options, seed=seed)
    rng = Rng(seed * 31 + len(options))
    kinds: set[str] = set()
    while True:
        views = [state.observation(s).to_json() for s in [*range(state.n), None]]
        for view in views:
            assert len(view["event_codes"]) == len(view["events"])
            assert json.loads(json.dumps(view["event_codes"])) == view["event_codes"]
            for line, entry in zip(view["events"], view["event_codes"], strict=True):
                assert entry is not None and only_ids_and_numbers(entry), entry
                assert worded(entry) == line, (entry, line)
                kinds.add(entry[0])
        # public: every seat and a spectator get the very same codes (and lines)
        assert all(v["event_codes"] == views[0]["event_codes"] for v in views)
        seats = state.current_seats()
        if not seats:
            break
        seat = seats[rng.below(len(seats))]
        if seat < 0:
            state.apply(state.sample_chance(rng), seat)
        else:
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert {"round", "reveal", "auction", "game-over"} <= kinds, kinds


def test_a_position_keeps_its_log_language_neutral():
    """A position written and read back keeps its log's events (``event_codes`` beside the text),
    so its observations are the same, codes included; an older position (text only), a line whose
    code does not word as it, or a hand-written line has no code (the page shows its text); a
    malformed ``event_codes`` is refused and a hostile entry is only text."""
    state = GAME.new_initial_state({"players": 3}, seed=9)
    while state.phase != "exec":
        seat = state.current_seats()[0]
        state.apply(state.legal_actions(seat)[0], seat)
    pos = json.loads(json.dumps(state.to_json()))
    copy = GAME.state_from_json(pos)
    assert copy.log == list(state.log)
    assert copy.observation(0).to_json() == state.observation(0).to_json()

    codes = pos["state"]["event_codes"]
    assert codes[0][0] == "round" and len(codes) == len(pos["state"]["events"])
    wrong = [["round", 9, 9, 0], *codes[1:-1], ["reveal", 0, [10**12]]]  # a round that is not the line's
    for changed, text_only in ((None, len(codes)), (wrong, 2), (codes[:3], len(codes) - 3),
                               ([["nonsense"], "x", 5, {"a": 1}, ["attack", "0"]], len(codes))):
        edited = json.loads(json.dumps(pos))
        if changed is None:
            del edited["state"]["event_codes"]
        else:
            edited["state"]["event_codes"] = changed
        view = GAME.state_from_json(edited).observation(0).to_json()
        assert view["events"] == state.observation(0).to_json()["events"]
        assert view["event_codes"].count(None) == text_only, changed
    bad = json.loads(json.dumps(pos))
    bad["state"]["event_codes"] = {"round": 1}
    with pytest.raises(RecordError, match="event_codes"):
        GAME.state_from_json(bad)
    assert event_codes(("a line", "another")) == [None, None]


def test_every_kind_is_named():
    assert len(set(EVENT_KINDS.values())) == len(EVENT_KINDS) == 17
    assert sorted(EVENT_KINDS) == list(range(17))
