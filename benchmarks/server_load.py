"""Load on the game server: many Gorus Maximus tables at once, on loopback only.

Starts ``ludus serve`` as a separate process on 127.0.0.1 with a fresh SQLite file, then
opens ``--tables`` tables, each with two scripted WebSocket players (who think for a
moment before each move) and two server bots. It reports the round trip of each move
(sent -> acknowledged, i.e. checked, written to the database and applied), the server's
memory, its CPU time per accepted move (user + system seconds of the server process during
the play phase, divided by the moves stored then: the players' and the bots'), and audits the
database afterwards: every acknowledged move must be stored exactly once and every table's
record must replay to the end.

    .venv/bin/python benchmarks/server_load.py                 # 100 tables
    .venv/bin/python benchmarks/server_load.py --tables 10 --json out.json

``--baseline DIR`` runs the same load against the server of another checkout too (``DIR``
holds its ``ludus`` package, e.g. ``git archive HEAD ludus | tar -x -C /tmp/base``),
alternating the two ``--rounds`` times, and prints the ratio of CPU per move (this tree over
the baseline): the machine's other load then weighs on both alike. ``--profile FILE`` runs
this tree's server under cProfile and writes its statistics to FILE.

Bounded: each run stops after ``--max-seconds`` even if games are still running.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ludus.core import records
from ludus.games import get_game


@dataclass
class Client:
    table: str
    seat: int
    cookie: str
    rtts: list[float] = field(default_factory=list)
    acked: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    done: bool = False


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_times(pid: int) -> tuple[float, float]:
    """User and system CPU time of a process (all its threads), from /proc."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, from /proc."""
    return sum(cpu_times(pid))


ROOT = Path(__file__).resolve().parents[1]

# ``--profile``: the server under cProfile, every thread too (the writer's, the bots'), not only the event loop's
PROFILED = """
import cProfile, pstats, sys, threading, time
out = sys.argv.pop(1)
done = []
run = threading.Thread.run
def profiled(self):
    prof = cProfile.Profile()
    prof.enable()
    try:
        run(self)
    finally:
        prof.disable()
        done.append(prof)
threading.Thread.run = profiled
from ludus.cli.main import main
prof = cProfile.Profile()
try:
    prof.runcall(main, sys.argv[1:])
finally:
    time.sleep(1.0)  # let the pools' threads end
    stats = pstats.Stats(prof)
    for other in list(done):
        stats.add(other)
    stats.dump_stats(out)
"""


def start_server(db: Path, bot_delay: float, root: Path = ROOT,
                 profile: str | None = None) -> tuple[subprocess.Popen, str, list[str]]:
    """``ludus serve`` from the checkout at ``root`` (its ``ludus`` package comes first on the path)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    prefix = [sys.executable, "-c", PROFILED, profile] if profile else [sys.executable, "-m", "ludus.cli.main"]
    proc = subprocess.Popen([*prefix, "serve", "--host", "127.0.0.1", "--port", "0",
                             "--database", str(db), "--bot-delay", str(bot_delay),
                             "--create-limit", "0"],  # every table comes from this one loopback address
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=root, env=env)
    line = proc.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:\d+", line)
    if not m:
        raise SystemExit(f"server did not start: {line}{proc.stdout.read()}")
    output: list[str] = []
    threading.Thread(target=lambda: output.extend(proc.stdout), daemon=True).start()
    return proc, m.group(0), output


async def open_table(base: str, target: int) -> list[Client]:
    """One table: the first player creates it, the second joins; two bots fill it."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as a, httpx.AsyncClient(base_url=base, timeout=60) as b:
        r = await a.post("/api/tables", json={
            "game": "gorus-maximus", "options": {"players": 4, "target": target}, "name": "Ann",
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]})
        r.raise_for_status()
        code = r.json()["code"]
        r = await b.post(f"/api/tables/{code}/join", json={"name": "Bob"})
        r.raise_for_status()
        return [Client(code, 0, a.cookies["ludus_player"]), Client(code, 1, b.cookies["ludus_player"])]


async def play(client: Client, ws_base: str, think: float, deadline: float, rng: random.Random) -> None:
    """Answer each turn after a short think; measure send -> ack. Reconnects if the socket drops."""
    while not client.done and time.monotonic() < deadline:
        try:
            async with connect(f"{ws_base}/ws/tables/{client.table}", additional_headers={
                    "Cookie": f"ludus_player={client.cookie}"}, max_size=2**22, open_timeout=30) as ws:
                sent_at: dict[int, float] = {}
                acted = -1
                while time.monotonic() < deadline:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=max(1.0, deadline - time.monotonic())))
                    kind = msg["type"]
                    if kind == "ack" and msg["id"] in sent_at:
                        client.rtts.append(time.perf_counter() - sent_at.pop(msg["id"]))
                        client.acked.append(msg["ply"])
                    elif kind == "error":
                        client.errors.append(msg["code"])
                        sent_at.clear()
                        if msg["code"] == "rate_limited":
                            acted = -1
                    elif kind == "view":
                        if msg["terminal"]:
                            client.done = True
                            return
                        if msg["legal"] and msg["moves"] != acted:
                            acted = msg["moves"]
                            await asyncio.sleep(think * (0.5 + rng.random()))
                            move = rng.choice(msg["legal"])["action"]
                            sent_at[acted] = time.perf_counter()
                            await ws.send(json.dumps({"type": "act", "action": move, "moves": acted, "id": acted}))
        except (TimeoutError, OSError, Exception) as exc:  # noqa: BLE001 - count it and reconnect
            client.errors.append(type(exc).__name__)
            await asyncio.sleep(0.5)


def audit(db: Path, clients: list[Client]) -> dict[str, int]:
    """Compare what clients were told was accepted with what the database holds."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from ludus.server.db import ActionRow, TableRow, make_engine

    engine = make_engine(str(db))
    lost = duplicated = gaps = bad_replays = finished = n_stored = by_bots = 0
    by_table: dict[str, list[Client]] = {}
    for c in clients:
        by_table.setdefault(c.table, []).append(c)
    with Session(engine) as s:
        for code, cs in by_table.items():
            table = s.get(TableRow, code)
            rows = s.scalars(select(ActionRow).where(ActionRow.table_code == code).order_by(ActionRow.ply)).all()
            n_stored += len(rows)
            by_bots += sum(1 for r in rows if r.by_bot)
            if [r.ply for r in rows] != list(range(len(rows))):
                gaps += 1
            for c in cs:
                stored = [r.ply for r in rows if r.seat == c.seat and not r.by_bot]
                lost += len(set(c.acked) - set(stored))
                duplicated += len(c.acked) - len(set(c.acked)) + len(set(stored) - set(c.acked))
            rec = records.Record(game=table.game, options=json.loads(table.options), seed=table.seed,
                                 actions=[(r.seat, json.loads(r.action)) for r in rows])
            try:
                state = records.replay(rec, get_game)
                finished += state.is_terminal()
            except Exception:  # noqa: BLE001
                bad_replays += 1
    engine.dispose()
    return {"lost": lost, "duplicated": duplicated, "ply_gaps": gaps, "bad_replays": bad_replays,
            "finished_tables": finished, "stored_moves": n_stored, "bot_moves": by_bots}


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


async def run_one(args: argparse.Namespace, root: Path = ROOT, profile: str | None = None) -> dict:
    """One load run against the server of the checkout at ``root``."""
    tmp = Path(tempfile.mkdtemp(prefix="ludus-load-"))
    db = tmp / "load.db"
    load_before = os.getloadavg()
    proc, base, _output = start_server(db, args.bot_delay, root, profile)
    ws_base = base.replace("http", "ws")
    try:
        for _ in range(100):
            try:
                httpx.get(base + "/api/games", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        idle_rss = rss_kib(proc.pid)
        t0 = time.monotonic()
        tables = await asyncio.gather(*(open_table(base, args.target) for _ in range(args.tables)))
        setup_s = time.monotonic() - t0
        clients = [c for pair in tables for c in pair]
        rng = random.Random(args.seed)
        deadline = time.monotonic() + args.max_seconds
        peak = [idle_rss]

        async def sample() -> None:
            while True:
                peak[0] = max(peak[0], rss_kib(proc.pid))
                await asyncio.sleep(0.5)

        sampler = asyncio.create_task(sample())
        user0, sys0 = cpu_times(proc.pid)
        t1 = time.monotonic()
        await asyncio.gather(*(play(c, ws_base, args.think, deadline, random.Random(rng.random())) for c in clients))
        play_s = time.monotonic() - t1
        sampler.cancel()
        user1, sys1 = cpu_times(proc.pid)
        server_cpu = (user1 - user0) + (sys1 - sys0)
        end_rss = rss_kib(proc.pid)
        load_after = os.getloadavg()
    finally:
        # uvicorn raises a caught SIGTERM again once it has stopped, which would end a profile unwritten
        proc.send_signal(signal.SIGINT if profile else signal.SIGTERM)
        proc.wait(timeout=60)
    rtts = [r * 1000 for c in clients for r in c.rtts]
    errors: dict[str, int] = {}
    for c in clients:
        for e in c.errors:
            errors[e] = errors.get(e, 0) + 1
    checked = audit(db, clients)
    moves = checked["stored_moves"]  # every stored move was accepted during the play phase
    result = {
        "server": str(root),
        "tables": args.tables, "scripted_clients": len(clients), "bots": 2 * args.tables,
        "think_s": args.think, "bot_delay_s": args.bot_delay, "target": args.target,
        "cpus": os.cpu_count(), "setup_s": round(setup_s, 2), "play_s": round(play_s, 2),
        "client_moves": len(rtts), "moves_per_s": round(len(rtts) / play_s, 1) if play_s else 0,
        "rtt_ms": {"p50": round(pct(rtts, 50), 2), "p95": round(pct(rtts, 95), 2), "p99": round(pct(rtts, 99), 2),
                   "max": round(max(rtts), 2) if rtts else None,
                   "mean": round(statistics.fmean(rtts), 2) if rtts else None},
        "server_cpu_s": round(server_cpu, 2),
        "server_cpu_user_s": round(user1 - user0, 2), "server_cpu_system_s": round(sys1 - sys0, 2),
        "accepted_moves": moves,
        "server_cpu_ms_per_move": round(1000 * server_cpu / moves, 3) if moves else None,
        "load_average": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in load_after]},
        "server_rss_mib": {"idle": round(idle_rss / 1024, 1), "peak": round(peak[0] / 1024, 1),
                           "end": round(end_rss / 1024, 1)},
        "client_errors": errors,
        "audit": checked,
        "unfinished_clients": sum(1 for c in clients if not c.done),
    }
    return result


async def run(args: argparse.Namespace) -> dict:
    """This tree's server alone, or alternating with ``--baseline``'s, and the ratio of their CPU per move."""
    if not args.baseline:
        return await run_one(args, ROOT, args.profile)
    baseline = Path(args.baseline).resolve()
    if not (baseline / "ludus" / "server").is_dir():
        raise SystemExit(f"--baseline {baseline}: no ludus/server package there")
    runs: dict[str, list[dict]] = {"current": [], "baseline": []}
    for i in range(args.rounds):
        order = [("current", ROOT), ("baseline", baseline)]
        if i % 2:
            order.reverse()  # alternate who goes first
        for label, root in order:
            res = await run_one(args, root, args.profile if label == "current" else None)
            print(f"round {i + 1} {label}: {res['server_cpu_ms_per_move']} ms CPU/move "
                  f"({res['server_cpu_s']} s, of which system {res['server_cpu_system_s']} s, / "
                  f"{res['accepted_moves']} moves), load {res['load_average']['after'][0]}",
                  file=sys.stderr, flush=True)
            runs[label].append(res)

    def per_move(label: str) -> float:
        return statistics.median(r["server_cpu_ms_per_move"] for r in runs[label])

    cur, old = per_move("current"), per_move("baseline")
    return {"current": runs["current"], "baseline": runs["baseline"],
            "cpu_ms_per_move": {"current": round(cur, 3), "baseline": round(old, 3),
                                "ratio": round(cur / old, 3) if old else None}}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--think", type=float, default=0.3, help="mean seconds a scripted player waits before moving")
    ap.add_argument("--bot-delay", type=float, default=0.3, help="the server's pause before each bot move")
    ap.add_argument("--target", type=int, default=2, help="Crowd Support to win (shorter games with 1)")
    ap.add_argument("--max-seconds", type=float, default=240)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("--baseline", metavar="DIR", help="also run another checkout's server (DIR holds its ludus "
                    "package), alternating, and print the ratio of CPU per move")
    ap.add_argument("--rounds", type=int, default=2, help="with --baseline: runs of each server (default 2)")
    ap.add_argument("--profile", metavar="FILE", help="run this tree's server under cProfile, statistics to FILE")
    args = ap.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    results = result["current"] + result["baseline"] if args.baseline else [result]
    ok = all(a["lost"] == 0 and a["duplicated"] == 0 and a["ply_gaps"] == 0 and a["bad_replays"] == 0
             for a in (r["audit"] for r in results))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
