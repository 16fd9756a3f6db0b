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

``--database postgresql://…`` plays on PostgreSQL instead (each run in a schema of its own,
dropped afterwards), ``--workers N`` starts ``ludus serve --workers N`` (a group of workers on
that database), and ``--kill-every S`` kills one worker with SIGKILL every ``S`` seconds of the
play phase (the group starts it again; its tables move to the other worker). CPU time and
memory are then summed over the server's whole process tree (a killed worker's CPU up to its
last sample, at most half a second before its death). ``--scenario`` runs several of these
set-ups in turn, alternating ``--rounds`` times, so that they are compared under the same load:

    .venv/bin/python benchmarks/server_load.py --tables 300 --database postgresql://u:p@127.0.0.1/db \
        --scenario sqlite --scenario pg --scenario pg-2 --scenario pg-2-kill30

(``sqlite``: one process on a fresh SQLite file, the README's default; ``pg``: one process on
PostgreSQL; ``pg-N``: N workers; ``pg-N-killS``: N workers, one killed every S seconds.)

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
from collections.abc import Callable
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
    sent: list[float] = field(default_factory=list)  # when each acknowledged move was sent (perf_counter)
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


def start_server(db: str, bot_delay: float, root: Path = ROOT, profile: str | None = None,
                 workers: int = 1) -> tuple[subprocess.Popen, str, list[str]]:
    """``ludus serve`` from the checkout at ``root`` (its ``ludus`` package comes first on the path)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    prefix = [sys.executable, "-c", PROFILED, profile] if profile else [sys.executable, "-m", "ludus.cli.main"]
    proc = subprocess.Popen([*prefix, "serve", "--host", "127.0.0.1", "--port", "0",
                             "--database", db, "--bot-delay", str(bot_delay),
                             *(["--workers", str(workers)] if workers > 1 else []),
                             "--create-limit", "0"],  # every table comes from this one loopback address
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=root, env=env)
    line = proc.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:\d+", line)
    if not m:
        raise SystemExit(f"server did not start: {line}{proc.stdout.read()}")
    output: list[str] = []
    threading.Thread(target=lambda: output.extend(proc.stdout), daemon=True).start()
    return proc, m.group(0), output


def process_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (a group's supervisor, its workers, their bot processes)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children", encoding="ascii") as f:
                    todo.extend(int(c) for c in f.read().split())
        except OSError:
            continue
    return out


def group_workers(pid: int) -> list[int]:
    """The worker processes of ``ludus serve --workers`` (the supervisor's spawned children, not
    multiprocessing's resource tracker)."""
    out = []
    for child in process_tree(pid)[1:]:
        try:
            with open(f"/proc/{child}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ")
            with open(f"/proc/{child}/stat", encoding="ascii") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        if parent == pid and b"spawn_main" in cmd:
            out.append(child)
    return out


def postgres_processes(_root: int = 0) -> list[int]:
    """Every PostgreSQL server process on this machine (the benchmark's database is on loopback, and
    its commits cost CPU there rather than in the Ludus process, as SQLite's do)."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/comm", encoding="ascii", errors="replace") as f:
                    if f.read().strip() in ("postgres", "postmaster"):
                        out.append(int(name))
            except OSError:
                continue
    return out


class TreeMeter:
    """CPU time and memory of a process tree whose members may die and be replaced: each
    process's CPU counts from its first sample (or from zero if it was born after the start)
    to its last. ``members`` lists the processes (default: ``root`` and its descendants)."""

    def __init__(self, root: int, members: Callable[[int], list[int]] = process_tree) -> None:
        self.root = root
        self.members = members
        self.first: dict[int, tuple[float, float]] = {}
        self.last: dict[int, tuple[float, float]] = {}
        self.peak_rss_kib = 0
        self.sample(initial=True)

    def sample(self, initial: bool = False) -> int:
        """Read every live member once; returns the tree's resident memory now (KiB)."""
        rss = 0
        for p in self.members(self.root):
            try:
                times = cpu_times(p)
                rss += rss_kib(p)
            except OSError:
                continue
            if p not in self.first:
                self.first[p] = times if initial else (0.0, 0.0)
            self.last[p] = times
        self.peak_rss_kib = max(self.peak_rss_kib, rss)
        return rss

    def user_system(self) -> tuple[float, float]:
        return (sum(self.last[p][0] - self.first[p][0] for p in self.last),
                sum(self.last[p][1] - self.first[p][1] for p in self.last))


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
                        at = sent_at.pop(msg["id"])
                        client.rtts.append(time.perf_counter() - at)
                        client.sent.append(at)
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
            status = getattr(getattr(exc, "response", None), "status_code", None)  # a refused handshake
            client.errors.append(type(exc).__name__ + (f" {status}" if status else ""))
            await asyncio.sleep(0.5)


def audit(db: str, clients: list[Client]) -> dict[str, int]:
    """Compare what clients were told was accepted with what the database holds.

    ``lost``: acknowledged, not stored. ``duplicated``: one ply acknowledged twice, or a table
    whose plies are not 0, 1, 2, ... ``unacknowledged``: a scripted player's move stored but
    never acknowledged (the worker died between its commit and the ack; zero without kills)."""
    from sqlalchemy import text

    from ludus.server.db import make_engine

    engine = make_engine(str(db))
    lost = duplicated = unacked = gaps = bad_replays = finished = n_stored = by_bots = 0
    stuck: list[dict] = []  # where each unfinished table stopped, to tell a slow run from a stuck table
    by_table: dict[str, list[Client]] = {}
    for c in clients:
        by_table.setdefault(c.table, []).append(c)
    # plain SQL on the columns every version has: a --baseline server's schema may be older than this tree's models
    with engine.connect() as s:
        for code, cs in by_table.items():
            table = s.execute(text("SELECT game, options, seed FROM ludus_tables WHERE code = :c"), {"c": code}).one()
            rows = s.execute(text("SELECT ply, seat, action, by_bot, created_at FROM ludus_actions "
                                  "WHERE table_code = :c ORDER BY ply"), {"c": code}).all()
            n_stored += len(rows)
            by_bots += sum(1 for r in rows if r.by_bot)
            if [r.ply for r in rows] != list(range(len(rows))):
                gaps += 1
            for c in cs:
                stored = [r.ply for r in rows if r.seat == c.seat and not r.by_bot]
                lost += len(set(c.acked) - set(stored))
                duplicated += len(c.acked) - len(set(c.acked))
                unacked += len(set(stored) - set(c.acked))
            rec = records.Record(game=table.game, options=json.loads(table.options), seed=table.seed,
                                 actions=[(r.seat, json.loads(r.action)) for r in rows])
            try:
                state = records.replay(rec, get_game)
                finished += state.is_terminal()
                if not state.is_terminal():
                    stuck.append({"table": code, "plies": len(rows), "to_move": list(state.current_seats()),
                                  "last_move_at": str(rows[-1].created_at) if rows else None})
            except Exception:  # noqa: BLE001
                bad_replays += 1
    engine.dispose()
    return {"lost": lost, "duplicated": duplicated, "unacknowledged": unacked, "ply_gaps": gaps,
            "bad_replays": bad_replays, "finished_tables": finished, "stored_moves": n_stored, "bot_moves": by_bots,
            "unfinished": stuck}


COMMIT_SERIES = ("ludus_db_commit_seconds_count", "ludus_db_commit_seconds_sum", "ludus_db_commit_writes_sum")


async def server_counters(base: str) -> dict[str, float]:
    """The server's commit counters, and its move-time histogram's buckets (``move_le_SECONDS``),
    from ``/metrics`` (one process's: in a group, whichever worker answers)."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        text = (await c.get("/metrics")).text
    out: dict[str, float] = {}
    for line in text.splitlines():
        name, _, value = line.rpartition(" ")
        if name in COMMIT_SERIES:
            out[name] = float(value)
        m = re.fullmatch(r'ludus_move_seconds_bucket\{game="[^"]*",le="([^"]+)"\}', name)
        if m:
            key = f"move_le_{m.group(1)}"
            out[key] = out.get(key, 0.0) + float(value)
    return out


def server_move_quantiles(before: dict[str, float], after: dict[str, float]) -> dict[str, str]:
    """Which bucket of the server's own move time (arrival to committed and announced) holds the
    median and the 95th percentile of the play phase: where a round trip's time is spent."""
    edges = sorted((float(k[8:]), k) for k in after if k.startswith("move_le_"))
    counts = [(edge, after[k] - before.get(k, 0.0)) for edge, k in edges]
    total = counts[-1][1] if counts else 0
    out = {}
    for label, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99)):
        edge = next((e for e, n in counts if total and n >= q * total), None)
        out[label] = f"<= {edge * 1000:g} ms" if edge is not None and edge != float("inf") else "> 10 s"
    return out


def commit_figures(before: dict[str, float], after: dict[str, float], seconds: float) -> dict[str, float] | None:
    """Commits a second, writes per commit and mean commit time over the play phase."""
    if not all(k in before and k in after for k in COMMIT_SERIES):
        return None
    commits = after[COMMIT_SERIES[0]] - before[COMMIT_SERIES[0]]
    if commits <= 0:
        return None
    return {"commits_per_s": round(commits / seconds, 1),
            "writes_per_commit": round((after[COMMIT_SERIES[2]] - before[COMMIT_SERIES[2]]) / commits, 2),
            "mean_commit_ms": round(1000 * (after[COMMIT_SERIES[1]] - before[COMMIT_SERIES[1]]) / commits, 2)}


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


@dataclass(frozen=True)
class Scenario:
    """Where the server keeps its tables and how many workers it runs: ``sqlite``, ``pg``,
    ``pg-N`` or ``pg-N-killS`` (see the module's docstring)."""

    name: str
    postgres: bool = False
    workers: int = 1
    kill_every: float = 0.0

    @classmethod
    def parse(cls, name: str) -> Scenario:
        m = re.fullmatch(r"sqlite|pg(?:-(\d+)(?:-kill(\d+(?:\.\d+)?))?)?", name)
        if not m:
            raise SystemExit(f"--scenario {name!r}: expected sqlite, pg, pg-N or pg-N-killS (e.g. pg-2-kill30)")
        if name == "sqlite":
            return cls(name)
        workers = int(m.group(1) or 1)
        if workers < 1 or (m.group(2) and workers < 2):
            raise SystemExit(f"--scenario {name!r}: killing a worker needs at least two")
        return cls(name, True, workers, float(m.group(2) or 0))


class Database:
    """A fresh database for one run: a SQLite file, or a schema of its own in ``--database``'s
    PostgreSQL (dropped afterwards)."""

    def __init__(self, scenario: Scenario, postgres_url: str | None) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="ludus-load-"))
        self.schema = ""
        if not scenario.postgres:
            self.url = str(self.tmp / "load.db")
            return
        if not postgres_url:
            raise SystemExit(f"--scenario {scenario.name} needs --database postgresql://...")
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        from ludus.server.db import normalize_url

        self.admin_url = normalize_url(postgres_url)
        self.schema = f"ludus_load_{os.getpid()}_{random.randrange(16**6):06x}"
        admin = create_engine(self.admin_url)
        with admin.begin() as c:
            c.execute(text(f"CREATE SCHEMA {self.schema}"))
        admin.dispose()
        self.url = make_url(self.admin_url).update_query_dict(
            {"options": f"-csearch_path={self.schema}"}).render_as_string(hide_password=False)

    def drop(self) -> None:
        if self.schema:
            from sqlalchemy import create_engine, text

            admin = create_engine(self.admin_url)
            with admin.begin() as c:
                c.execute(text(f"DROP SCHEMA {self.schema} CASCADE"))
            admin.dispose()


async def kill_workers(proc: subprocess.Popen, every: float, killed: list[dict]) -> None:
    """Every ``every`` seconds SIGKILL one of the group's workers, taking turns by age (the
    oldest first); the supervisor starts a new one."""
    t0 = time.monotonic()
    while True:
        await asyncio.sleep(every)
        workers = sorted(group_workers(proc.pid))
        if not workers:
            continue
        victim = workers[0]  # pids grow, so the lowest is the one that has lived longest
        try:
            os.kill(victim, signal.SIGKILL)
        except ProcessLookupError:
            continue  # it died by itself meanwhile
        killed.append({"pid": victim, "at_s": round(time.monotonic() - t0, 1)})


async def run_one(args: argparse.Namespace, root: Path = ROOT, profile: str | None = None,
                  scenario: Scenario = Scenario("sqlite")) -> dict:
    """One load run against the server of the checkout at ``root``, set up as ``scenario`` says."""
    database = Database(scenario, args.database)
    try:
        return await _run_one(args, root, profile, scenario, database)
    finally:
        database.drop()


async def _run_one(args: argparse.Namespace, root: Path, profile: str | None, scenario: Scenario,
                   database: Database) -> dict:
    load_before = os.getloadavg()
    proc, base, output = start_server(database.url, args.bot_delay, root, profile, scenario.workers)
    ws_base = base.replace("http", "ws")
    killed: list[dict] = []
    try:
        for _ in range(300):
            try:
                httpx.get(base + "/api/games", timeout=1)
                if scenario.workers <= 1 or len(group_workers(proc.pid)) >= scenario.workers:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        time.sleep(1.0 if scenario.workers > 1 else 0.0)  # every worker listening, not only the first
        idle_rss = TreeMeter(proc.pid).peak_rss_kib  # its first sample: the whole tree at rest
        t0 = time.monotonic()
        tables = await asyncio.gather(*(open_table(base, args.target) for _ in range(args.tables)))
        setup_s = time.monotonic() - t0
        clients = [c for pair in tables for c in pair]
        rng = random.Random(args.seed)
        deadline = time.monotonic() + args.max_seconds

        async def sample() -> None:
            while True:
                meter.sample()
                if pg_meter:
                    pg_meter.sample()
                await asyncio.sleep(0.5)

        lags: list[float] = []

        async def lag() -> None:
            """How late this load generator's own event loop wakes (its share of a round trip's time)."""
            while True:
                before = time.perf_counter()
                await asyncio.sleep(0.05)
                lags.append(1000 * (time.perf_counter() - before - 0.05))

        meter = TreeMeter(proc.pid)  # the play phase only
        pg_meter = TreeMeter(0, postgres_processes) if scenario.postgres else None
        own_cpu0 = time.process_time()
        counters0 = await server_counters(base) if scenario.workers == 1 else {}
        sampler = asyncio.create_task(sample())
        lagger = asyncio.create_task(lag())
        killer = asyncio.create_task(kill_workers(proc, scenario.kill_every, killed)) if scenario.kill_every else None
        t1 = time.monotonic()
        t1_perf = time.perf_counter()
        await asyncio.gather(*(play(c, ws_base, args.think, deadline, random.Random(rng.random())) for c in clients))
        play_s = time.monotonic() - t1
        for task in (sampler, lagger, killer):
            if task:
                task.cancel()
        counters1 = await server_counters(base) if counters0 else {}
        commits = commit_figures(counters0, counters1, play_s) if counters0 else None
        server_moves = server_move_quantiles(counters0, counters1) if counters0 else None
        end_rss = meter.sample()
        user, system = meter.user_system()
        clients_cpu = time.process_time() - own_cpu0
        if pg_meter:
            pg_meter.sample()
        pg_cpu = sum(pg_meter.user_system()) if pg_meter else 0.0
        server_cpu = user + system
        load_after = os.getloadavg()
    finally:
        # uvicorn raises a caught SIGTERM again once it has stopped, which would end a profile unwritten
        proc.send_signal(signal.SIGINT if profile else signal.SIGTERM)
        proc.wait(timeout=60)
    rtts = [r * 1000 for c in clients for r in c.rtts]
    # the round trips by when their move was sent, in windows of 10 s: the start's rush, a kill's dent
    windows: dict[int, list[float]] = {}
    for c in clients:
        for at, r in zip(c.sent, c.rtts):
            windows.setdefault(int((at - t1_perf) // 10), []).append(r * 1000)
    errors: dict[str, int] = {}
    for c in clients:
        for e in c.errors:
            errors[e] = errors.get(e, 0) + 1
    checked = audit(database.url, clients)
    moves = checked["stored_moves"]  # every stored move was accepted during the play phase
    result = {
        "server": str(root), "scenario": scenario.name, "workers": scenario.workers,
        "database": "postgresql" if scenario.postgres else "sqlite",
        "tables": args.tables, "scripted_clients": len(clients), "bots": 2 * args.tables,
        "think_s": args.think, "bot_delay_s": args.bot_delay, "target": args.target,
        "cpus": os.cpu_count(), "setup_s": round(setup_s, 2), "play_s": round(play_s, 2),
        "client_moves": len(rtts), "moves_per_s": round(len(rtts) / play_s, 1) if play_s else 0,
        "all_moves_per_s": round(moves / play_s, 1) if play_s else 0,
        "rtt_ms": {"p50": round(pct(rtts, 50), 2), "p95": round(pct(rtts, 95), 2), "p99": round(pct(rtts, 99), 2),
                   "max": round(max(rtts), 2) if rtts else None,
                   "mean": round(statistics.fmean(rtts), 2) if rtts else None},
        "load_generator_loop_lag_ms": {"p50": round(pct(lags, 50), 1), "p95": round(pct(lags, 95), 1),
                                       "max": round(max(lags), 1) if lags else None},
        "rtt_p95_ms_by_10s": [round(pct(windows[w], 95), 1) for w in sorted(windows)],
        "server_cpu_s": round(server_cpu, 2),
        "server_cpu_user_s": round(user, 2), "server_cpu_system_s": round(system, 2),
        "postgres_cpu_s": round(pg_cpu, 2), "load_generator_cpu_s": round(clients_cpu, 2),
        "accepted_moves": moves,
        "database_commits": commits,  # one process only (in a group /metrics is one worker's)
        "server_move_seconds": server_moves,  # the same: buckets of ludus_move_seconds
        "server_cpu_ms_per_move": round(1000 * server_cpu / moves, 3) if moves else None,
        "server_and_postgres_cpu_ms_per_move": round(1000 * (server_cpu + pg_cpu) / moves, 3) if moves else None,
        "load_average": {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in load_after]},
        "server_rss_mib": {"idle": round(idle_rss / 1024, 1), "peak": round(meter.peak_rss_kib / 1024, 1),
                           "end": round(end_rss / 1024, 1)},
        "killed_workers": killed,
        # what the server logged at WARNING and above (its log goes to the captured output)
        "server_log_problems": sum(1 for line in output if re.search(r"WARNING|ERROR|Traceback", line)),
        "server_log_sample": [line.rstrip()[:300] for line in output
                              if re.search(r"WARNING|ERROR|Traceback|Error", line)][:20],
        "client_errors": errors,
        "audit": checked,
        "unfinished_clients": sum(1 for c in clients if not c.done),
    }
    return result


def _line(label: str, res: dict) -> str:
    rtt = res["rtt_ms"]
    return (f"{label}: {res['server_cpu_ms_per_move']} ms CPU/move ({res['server_cpu_s']} s, of which system "
            f"{res['server_cpu_system_s']} s, / {res['accepted_moves']} moves), {res['moves_per_s']} player moves/s, "
            f"rtt p50/p95/p99 {rtt['p50']}/{rtt['p95']}/{rtt['p99']} ms (p95 by 10 s: {res['rtt_p95_ms_by_10s']}), "
            f"peak {res['server_rss_mib']['peak']} MiB, "
            f"postgres {res['postgres_cpu_s']} s, load generator {res['load_generator_cpu_s']} s, "
            f"{len(res['killed_workers'])} kills, unfinished {res['unfinished_clients']}, "
            f"lost/dup {res['audit']['lost']}/{res['audit']['duplicated']}, load {res['load_average']['after'][0]}")


def _median(runs: list[dict], key: str, sub: str | None = None) -> float:
    values = [r[key][sub] if sub else r[key] for r in runs]
    return round(statistics.median(values), 3)


async def run(args: argparse.Namespace) -> dict:
    """This tree's server alone, or alternating with ``--baseline``'s, and the ratio of their CPU per move;
    or several ``--scenario`` set-ups of this tree's server in turn."""
    scenarios = [Scenario.parse(n) for n in args.scenario] or [Scenario("sqlite")]
    if args.baseline and len(scenarios) > 1:
        raise SystemExit("--baseline compares two servers in one scenario: give at most one --scenario")
    if not args.baseline and len(scenarios) == 1:
        return await run_one(args, ROOT, args.profile, scenarios[0])
    if not args.baseline:
        by_name: dict[str, list[dict]] = {s.name: [] for s in scenarios}
        for i in range(args.rounds):
            order = scenarios if i % 2 == 0 else scenarios[::-1]
            for sc in order:
                res = await run_one(args, ROOT, None, sc)
                print(_line(f"round {i + 1} {sc.name}", res), file=sys.stderr, flush=True)
                by_name[sc.name].append(res)
        summary = {name: {"cpu_ms_per_move": _median(rs, "server_cpu_ms_per_move"),
                          "moves_per_s": _median(rs, "moves_per_s"),
                          "all_moves_per_s": _median(rs, "all_moves_per_s"),
                          "rtt_ms": {q: _median(rs, "rtt_ms", q) for q in ("p50", "p95", "p99")},
                          "peak_rss_mib": _median(rs, "server_rss_mib", "peak")}
                   for name, rs in by_name.items()}
        first = scenarios[0].name
        for name in summary:
            summary[name]["cpu_ratio_to_" + first] = round(
                summary[name]["cpu_ms_per_move"] / summary[first]["cpu_ms_per_move"], 3)
        return {"runs": by_name, "median": summary}
    baseline = Path(args.baseline).resolve()
    if not (baseline / "ludus" / "server").is_dir():
        raise SystemExit(f"--baseline {baseline}: no ludus/server package there")
    runs: dict[str, list[dict]] = {"current": [], "baseline": []}
    for i in range(args.rounds):
        order = [("current", ROOT), ("baseline", baseline)]
        if i % 2:
            order.reverse()  # alternate who goes first
        for label, root in order:
            res = await run_one(args, root, args.profile if label == "current" else None, scenarios[0])
            print(_line(f"round {i + 1} {label}", res), file=sys.stderr, flush=True)
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
    ap.add_argument("--rounds", type=int, default=2,
                    help="with --baseline or several --scenario: runs of each (default 2)")
    ap.add_argument("--database", metavar="URL", help="a PostgreSQL database for the pg scenarios (each run makes "
                    "a schema of its own there and drops it afterwards)")
    ap.add_argument("--scenario", action="append", default=[], metavar="NAME",
                    help="sqlite (default), pg, pg-N (N workers) or pg-N-killS (N workers, one killed every S "
                         "seconds); repeat to compare several in turn")
    ap.add_argument("--profile", metavar="FILE", help="run this tree's server under cProfile, statistics to FILE")
    args = ap.parse_args()
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    if args.baseline:
        results = result["current"] + result["baseline"]
    elif "runs" in result:
        results = [r for rs in result["runs"].values() for r in rs]
    else:
        results = [result]
    ok = all(a["lost"] == 0 and a["duplicated"] == 0 and a["ply_gaps"] == 0 and a["bad_replays"] == 0
             and a["finished_tables"] == r["tables"] for r in results for a in [r["audit"]])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
