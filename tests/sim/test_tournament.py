"""The tournament engine: seeds, seating, determinism whatever runs the games."""

from __future__ import annotations

import pytest

from ludus.agents.base import UnknownAgent
from ludus.core import records
from ludus.core.errors import InvalidOptions
from ludus.core.rng import Rng
from ludus.games import get_game
from ludus.sim import game_seed, make_spec, play_game, run_tournament, seating
from ludus.sim.backends import BackendError, run_specs
from ludus.sim.tournament import TournamentError, agent_labels, parse_agents, play_chunk


def spec4(games: int = 8, seed: int = 11, **kw):
    return make_spec("gorus-maximus", {"players": 4}, "heuristic,random*3", games, seed, **kw)


def test_game_seed_is_the_splitmix_stream_computed_directly():
    rng = Rng(42)
    stream = [rng.next_u64() >> 11 for _ in range(5)]
    assert [game_seed(42, i) for i in range(5)] == stream
    assert len({game_seed(7, i) for i in range(1000)}) == 1000
    assert all(0 <= game_seed(2**70 + 3, i) < 2**53 for i in range(50))


def test_rotation_puts_every_entry_in_every_seat_equally():
    n = 5
    counts = [[0] * n for _ in range(n)]
    for index in range(3 * n):
        lineup = seating(n, index)
        assert sorted(lineup) == list(range(n))
        for seat, entry in enumerate(lineup):
            counts[entry][seat] += 1
    assert all(c == 3 for row in counts for c in row)
    assert seating(4, 0) == (0, 1, 2, 3) and seating(4, 1) == (3, 0, 1, 2)


def test_agent_lists_and_labels():
    assert parse_agents("ISMCTS, heuristic,random*2") == ("ismcts", "heuristic", "random", "random")
    assert agent_labels(("heuristic", "random", "random")) == ("heuristic", "random#1", "random#2")
    for bad in ("", " , ", "random*0", "random*x", "*2"):
        with pytest.raises(TournamentError):
            parse_agents(bad)


def test_spec_validation_gives_clear_errors():
    with pytest.raises(TournamentError, match="4 seat"):
        make_spec("gorus-maximus", {"players": 4}, "heuristic,random", 10, 1)
    with pytest.raises(UnknownAgent, match="known agents"):
        make_spec("gorus-maximus", {"players": 2}, "heuristic,nobody", 10, 1)
    with pytest.raises(TournamentError, match="positive"):
        make_spec("gorus-maximus", {"players": 2}, "random*2", 0, 1)
    with pytest.raises(InvalidOptions):
        make_spec("gorus-maximus", {"players": 9}, "random*9", 10, 1)


def test_a_game_depends_only_on_spec_and_index():
    spec = spec4()
    alone = play_game(spec, 5)
    assert play_chunk(spec, [3, 4, 5])[2] == alone
    assert play_game(spec, 5) == alone
    assert alone.seating == seating(4, 5) and alone.seed == game_seed(11, 5)
    other = play_game(spec4(seed=12), 5)
    assert other.seed != alone.seed


def test_result_fields_are_consistent():
    spec = make_spec("gorus-maximus", {"players": 4, "teams": "2v2"}, "heuristic*2,random*2", 6, 3)
    for r in run_tournament(spec, workers=1):
        assert len(r.scores) == len(r.shares) == 4 and r.decisions > 0
        assert r.winners and abs(sum(r.shares) - 1) < 1e-9
        assert all((s in r.winners) == (r.shares[s] > 0) for s in range(4))
        assert r.metrics["rounds"] >= 1


def test_kept_records_replay_to_the_same_result():
    spec = spec4(games=3, records=True)
    for r in run_tournament(spec, workers=1):
        record = records.parse_record(r.record)
        final = records.replay(record, get_game)
        assert tuple(final.winners()) == r.winners and record.seed == r.seed
        assert record.players == [spec.labels[e] for e in r.seating]


def test_worker_processes_give_identical_results_to_one_process():
    spec = spec4(games=12, seed=2024)
    seen = []
    inline = run_tournament(spec, workers=1, progress=seen.append)
    pooled = run_tournament(spec, workers=2)
    assert pooled == inline
    assert sum(seen) == 12 and [r.index for r in inline] == list(range(12))


def test_several_specs_in_one_batch_match_separate_runs():
    a, b = spec4(games=3, seed=1), make_spec("gorus-maximus", {"players": 1}, "heuristic", 4, 9)
    both = run_specs([a, b], workers=1)
    assert both == [run_tournament(a, workers=1), run_tournament(b, workers=1)]


def test_bad_backend_settings_are_refused():
    spec = spec4(games=1)
    with pytest.raises(BackendError, match="unknown backend"):
        run_tournament(spec, backend="threads")
    with pytest.raises(BackendError, match="workers"):
        run_tournament(spec, workers=0)
    with pytest.raises(BackendError, match="address"):
        run_tournament(spec, address="127.0.0.1:6379")


class _FakeCompiled:
    """Stands in for a game's compiled agents, to see when tournaments call them."""

    agent_kinds = ("random",)

    def __init__(self, decisions: int = 5, fail: bool = False) -> None:
        self.calls = 0
        self.decisions = decisions
        self.fail = fail

    def play_agents(self, state, kinds, agent_rngs):
        from ludus.core.compiled import AgentsGame

        self.calls += 1
        if self.fail:
            raise RuntimeError("did not end")
        n = len(kinds)
        return AgentsGame((1.0,) + (0.0,) * (n - 1), (1.0,) + (0.0,) * (n - 1), self.decisions, {"rounds": 1.0})


def _with_fake(monkeypatch, fake):
    game = get_game("gorus-maximus")
    monkeypatch.setattr(type(game), "compiled_playouts", lambda self: fake)


def test_compiled_agents_play_only_what_they_can(monkeypatch):
    fake = _FakeCompiled()
    _with_fake(monkeypatch, fake)
    result = play_game(make_spec("gorus-maximus", {"players": 4}, "random*4", 2, 5), 0)
    assert fake.calls == 1
    assert (result.winners, result.shares, result.decisions, result.metrics) == (
        (0,), (1.0, 0.0, 0.0, 0.0), 5, {"rounds": 1.0})
    # a kind the compiled code does not play, or a tournament keeping records: the Python engine
    python = play_game(make_spec("gorus-maximus", {"players": 4}, "heuristic,random*3", 2, 5), 0)
    recorded = play_game(make_spec("gorus-maximus", {"players": 4}, "random*4", 2, 5, records=True), 0)
    assert fake.calls == 1
    assert python.decisions > 5 and recorded.record is not None


@pytest.mark.parametrize("fake", [_FakeCompiled(decisions=10_000), _FakeCompiled(fail=True)])
def test_a_compiled_game_past_the_limit_is_refused_as_in_python(monkeypatch, fake):
    _with_fake(monkeypatch, fake)
    spec = make_spec("gorus-maximus", {"players": 4}, "random*4", 2, 5, max_decisions=100)
    with pytest.raises(TournamentError, match="did not end within 100 decisions"):
        play_game(spec, 1)
