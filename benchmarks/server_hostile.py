"""A longer hostile run against the game server, on loopback only.

The same generated cases as ``tests/server/test_hostile.py`` (bad WebSocket messages of every
kind, garbage actions for every game, odd HTTP requests), with larger counts and a time cap.
It prints the counts: messages tried, server errors, state changes from refused input.

    .venv/bin/python benchmarks/server_hostile.py                      # 20000 WebSocket, 10000 HTTP
    .venv/bin/python benchmarks/server_hostile.py --ws 5000 --http 2000 --seed 7 --seconds 120
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ludus.server.config import ServerConfig
from tests.server import hostile
from tests.server.helpers import LiveServer


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ws", type=int, default=20000, help="WebSocket messages (default 20000)")
    ap.add_argument("--http", type=int, default=10000, help="HTTP requests (default 10000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=300, help="stop generating after this long (default 300)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(database=f"sqlite:///{Path(tmp) / 'hostile.db'}", bot_delay=0.0,
                              rate_per_second=1e6, rate_burst=10**6)
        server = LiveServer(config)  # 127.0.0.1, a free port
        start = time.time()
        try:
            counts = hostile.run(server, args.ws, args.http, seed=args.seed, seconds=args.seconds)
        finally:
            server.stop()
    print(counts.summary())
    print(f"time: {time.time() - start:.1f} s")
    for problem in counts.problems[:20]:
        print("PROBLEM:", problem)
    return 1 if counts.problems or counts.server_errors or counts.refused_changes else 0


if __name__ == "__main__":
    raise SystemExit(main())
