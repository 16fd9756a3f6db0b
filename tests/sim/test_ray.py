"""The Ray backend on a local instance gives exactly the process backend's results."""

from __future__ import annotations

import pytest

from ludus.sim import make_spec, run_tournament
from ludus.sim.backends import BackendError


def test_ray_and_processes_agree():
    ray = pytest.importorskip("ray")
    spec = make_spec("gorus-maximus", {"players": 4, "teams": "2v2"}, "heuristic,random*3", 8, 31337)
    expected = run_tournament(spec, workers=2)
    seen = []
    try:
        got = run_tournament(spec, backend="ray", workers=2, progress=seen.append)
    except BackendError as exc:
        if "could not start" in str(exc):
            pytest.skip(f"Ray cannot start here: {exc}")
        raise
    assert got == expected
    assert sum(seen) == 8
    assert not ray.is_initialized()  # the local instance we started is shut down again
