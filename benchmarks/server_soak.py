"""Soak under SIGKILL: the game server is killed again and again mid-game; nothing may be lost.

Starts ``ludus serve`` (loopback, ``--bot-delay 0``) as a child process on a fresh SQLite
file and, with ``--postgres URL``, then again on PostgreSQL (in a schema of its own, dropped
afterwards). Scripted WebSocket players sit at ``--tables`` Gorus Maximus tables (two
players and two server bots each; a finished table is followed by a new one) and move after
a short think. At random moments the server is killed with SIGKILL, ``--kills`` times, and
started again on the same database and port; the players reconnect and go on. After each
restart the next kill waits until some move has been acknowledged again.

At the end it compares what the players were told with the database:

- lost: a move acknowledged but not stored (goal 0);
- duplicated: a stored player move that the player did not send for that turn, e.g. one move
  stored twice (goal 0);
- told_failed_but_stored: a stored move whose player was told it failed (goal 0);
- bad_records: tables whose stored record has a gap or does not replay through the rules.

    .venv/bin/python benchmarks/server_soak.py --kills 25
    .venv/bin/python benchmarks/server_soak.py --kills 10 --postgres postgresql://u:pw@127.0.0.1/db

Bounded: ``--kills`` kills and ``--max-seconds`` per database; it stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ludus.core import records  # noqa: E402
from ludus.games import get_game  # noqa: E402

ACK, FAILED, UNCONFIRMED, NO_REPLY = "ack", "failed", "unconfirmed", "no_reply"


# --------------------------------------------------------------------------- the server process
class Server:
    """``ludus serve`` as a child process; kill it with SIGKILL and start it again on the same port."""

    def __init__(self, database: str) -> None:
        self.database = database
        self.port = 0
        self.proc: subprocess.Popen | None = None
        self.output: list[str] = []
        self.starts = 0

    def start(self) -> None:
        proc = subprocess.Popen([sys.executable, "-m", "ludus.cli.main", "serve", "--host", "127.0.0.1", "--port",
                                 str(self.port), "--database", self.database, "--bot-delay", "0"],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 60
        while True:  # the port may still be held for a moment by the killed process
            line = proc.stdout.readline()
            m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if m:
                break
            if not line or time.monotonic() > deadline:
                rest = "" if proc.poll() is None else proc.stdout.read()
                raise SystemExit(f"server did not start: {line}{rest}")
        self.port = int(m.group(1))
        self.proc = proc
        self.starts += 1
        threading.Thread(target=lambda: self.output.extend(proc.stdout), daemon=True).start()
        for _ in range(300):
            try:
                httpx.get(f"{self.url}/api/games", timeout=1)
                return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise SystemExit("server started but does not answer")

    def start_retrying(self) -> None:
        for attempt in range(20):
            try:
                self.start()
                return
            except SystemExit:
                if attempt == 19:
                    raise
                time.sleep(0.5)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# --------------------------------------------------------------------------- the players
@dataclass
class Send:
    table: str
    seat: int
    k: int  # the player's move count: the k-th move of this seat
    ply: int
    action: Any
    outcome: str = NO_REPLY


@dataclass
class Seat:
    table: str
    seat: int
    cookie: str
    sends: dict[str, Send] = field(default_factory=dict)  # by message id
    done: bool = False


@dataclass
class Tally:
    acks_after_start: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    tables: list[str] = field(default_factory=list)

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


ids = itertools.count()


async def open_table(server: Server, stop: asyncio.Event, tally: Tally) -> tuple[Seat, Seat] | None:
    """A new table: one player creates it, the other joins; two bots fill it. Retries across kills."""
    while not stop.is_set():
        try:
            async with httpx.AsyncClient(base_url=server.url, timeout=20) as a, \
                    httpx.AsyncClient(base_url=server.url, timeout=20) as b:
                r = await a.post("/api/tables", json={
                    "game": "gorus-maximus", "options": {"players": 4, "target": 1}, "name": "Ann",
                    "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]})
                r.raise_for_status()
                code = r.json()["code"]
                for _ in range(50):
                    r = await b.post(f"/api/tables/{code}/join", json={"name": "Bob"})
                    if r.status_code == 200:
                        break
                    await asyncio.sleep(0.2)
                r.raise_for_status()
                tally.tables.append(code)
                return Seat(code, 0, a.cookies["ludus_player"]), Seat(code, 1, b.cookies["ludus_player"])
        except (httpx.HTTPError, KeyError):
            # killed mid-way: a table may exist half-joined; it is counted only once both seats are taken
            await asyncio.sleep(0.3)
    return None


async def play_seat(seat: Seat, server: Server, think: float, stop: asyncio.Event, rng: random.Random,
                    tally: Tally) -> None:
    """Move after a think whenever it is this seat's turn; reconnect whenever the socket drops."""
    while not seat.done and not stop.is_set():
        try:
            async with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{seat.table}",
                               additional_headers={"Cookie": f"ludus_player={seat.cookie}"}, max_size=2**22,
                               open_timeout=10) as ws:
                acted = None  # the (moves, ply) this connection last sent from
                view: dict[str, Any] | None = None
                while not stop.is_set():
                    try:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=0.5))
                    except TimeoutError:
                        continue
                    kind = msg["type"]
                    if kind in ("ack", "error"):
                        send = seat.sends.get(msg["id"]) if msg.get("id") is not None else None
                        if send is None:  # settled late (id unknown to the server): the unconfirmed move of that ply
                            send = next((s for s in seat.sends.values() if s.outcome == UNCONFIRMED
                                         and (msg.get("ply") is None or s.ply == msg.get("ply"))), None)
                        if kind == "ack":
                            tally.acks_after_start += 1
                            if send is not None:
                                send.outcome = ACK
                        else:
                            code = msg["code"]
                            tally.error(code)
                            if send is not None:
                                send.outcome = {"server_error": FAILED, "unconfirmed": UNCONFIRMED}.get(code, code)
                            if code != "unconfirmed":  # refused: play again from the newest view
                                acted = None
                            if code == "rate_limited":
                                await asyncio.sleep(0.2)
                    elif kind == "view":
                        view = msg
                        if msg["terminal"]:
                            seat.done = True
                            return
                    if view is not None and view["legal"] and (view["moves"], view["ply"]) != acted:
                        acted = (view["moves"], view["ply"])
                        await asyncio.sleep(think * (0.5 + rng.random()))
                        move = rng.choice(view["legal"])["action"]
                        mid = f"m{next(ids)}"
                        seat.sends[mid] = Send(seat.table, seat.seat, view["moves"], view["ply"], move)
                        await ws.send(json.dumps({"type": "act", "action": move, "moves": view["moves"], "id": mid}))
        except Exception:  # noqa: BLE001 - the server was killed: reconnect
            tally.reconnects += 1
            await asyncio.sleep(0.1 + 0.2 * rng.random())


async def table_loop(server: Server, think: float, stop: asyncio.Event, rng: random.Random, tally: Tally,
                     seats: list[Seat]) -> None:
    """One table after another until told to stop."""
    while not stop.is_set():
        pair = await open_table(server, stop, tally)
        if pair is None:
            return
        seats.extend(pair)
        await asyncio.gather(*(play_seat(s, server, think, stop, random.Random(rng.random()), tally) for s in pair))


# --------------------------------------------------------------------------- the audit
def audit(database: str, tables: list[str], seats: list[Seat]) -> dict[str, Any]:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from ludus.server.db import ActionRow, TableRow, make_engine

    engine = make_engine(database)
    acked = lost = duplicated = told_failed_but_stored = bad_records = finished = 0
    stored_total = stored_by_players = 0
    by_key = {(s.table, s.seat): s for s in seats}
    with Session(engine) as db:
        for code in tables:
            table = db.get(TableRow, code)
            rows = db.scalars(select(ActionRow).where(ActionRow.table_code == code).order_by(ActionRow.ply)).all()
            stored_total += len(rows)
            if table is None or [r.ply for r in rows] != list(range(len(rows))):
                bad_records += 1
                continue
            try:
                state = records.replay(records.Record(game=table.game, options=json.loads(table.options),
                                                      seed=table.seed,
                                                      actions=[(r.seat, json.loads(r.action)) for r in rows]),
                                       get_game)
                finished += state.is_terminal()
            except Exception:  # noqa: BLE001 - a record that does not replay
                bad_records += 1
            count: dict[int, int] = {}
            by_ply = {r.ply: r for r in rows}
            for r in rows:  # each stored player move must be one the player sent for that turn
                k = count.get(r.seat, 0)
                count[r.seat] = k + 1
                seat = by_key.get((code, r.seat))
                if seat is None or r.by_bot:
                    continue
                stored_by_players += 1
                action = json.loads(r.action)
                sends = [s for s in seat.sends.values() if s.k == k and s.action == action and s.ply == r.ply]
                if not sends:
                    duplicated += 1
                elif all(s.outcome == FAILED for s in sends):
                    told_failed_but_stored += 1
            for seat in (by_key.get((code, 0)), by_key.get((code, 1))):
                if seat is None:
                    continue
                for s in seat.sends.values():
                    if s.outcome != ACK:
                        continue
                    acked += 1
                    r = by_ply.get(s.ply)
                    if r is None or r.seat != s.seat or json.loads(r.action) != s.action:
                        lost += 1
    engine.dispose()
    return {"moves_acknowledged": acked, "moves_stored": stored_total, "moves_stored_by_players": stored_by_players,
            "lost": lost, "duplicated": duplicated, "told_failed_but_stored": told_failed_but_stored,
            "bad_records": bad_records, "tables": len(tables), "tables_finished": finished}


# --------------------------------------------------------------------------- one run
async def soak(database: str, args: argparse.Namespace, label: str) -> dict[str, Any]:
    server = Server(database)
    server.start()
    rng = random.Random(args.seed)
    stop = asyncio.Event()
    tally = Tally()
    seats: list[Seat] = []
    t0 = time.monotonic()
    loops = [asyncio.create_task(table_loop(server, args.think, stop, random.Random(rng.random()), tally, seats))
             for _ in range(args.tables)]
    kills = survived = 0
    recovery: list[float] = []
    try:
        while kills < args.kills and time.monotonic() - t0 < args.max_seconds:
            await asyncio.sleep(rng.uniform(args.min_gap, args.max_gap))
            server.kill()
            kills += 1
            killed = time.monotonic()
            await asyncio.to_thread(server.start_retrying)
            restarted = time.monotonic()
            before = tally.acks_after_start
            while tally.acks_after_start == before and time.monotonic() - restarted < 60:
                await asyncio.sleep(0.05)
            if tally.acks_after_start > before:
                survived += 1
                recovery.append(time.monotonic() - killed)
            back = tally.acks_after_start > before
            print(f"[{label}] kill {kills}: {'moves acknowledged again' if back else 'NO PROGRESS'}"
                  f" {time.monotonic() - killed:.2f} s after the kill (restart took {restarted - killed:.2f} s)",
                  file=sys.stderr, flush=True)
        await asyncio.sleep(args.settle)  # a last stretch without kills
    finally:
        stop.set()
        await asyncio.gather(*loops, return_exceptions=True)
        server.stop()
    result = {"database": label, "kills": kills, "kills_survived": survived,
              "kill_to_next_ack_s": {"median": round(sorted(recovery)[len(recovery) // 2], 2),
                                     "max": round(max(recovery), 2)} if recovery else None,
              "seconds": round(time.monotonic() - t0, 1), "reconnect_attempts": tally.reconnects,
              "client_errors": tally.errors}
    result.update(audit(database, tally.tables, seats))
    result["server_starts"] = server.starts
    result["server_tracebacks"] = sum(1 for line in server.output if line.startswith("Traceback"))
    return result


def postgres_schema_url(url: str, schema: str) -> str:
    """``url`` with its search path set to ``schema``: the run gets tables of its own."""
    from sqlalchemy.engine import make_url

    from ludus.server.db import normalize_url

    u = make_url(normalize_url(url))
    return u.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)


def run_postgres(url: str, args: argparse.Namespace) -> dict[str, Any]:
    from sqlalchemy import create_engine, text

    from ludus.server.db import normalize_url

    schema = f"ludus_soak_{os.getpid()}"
    admin = create_engine(normalize_url(url))
    with admin.begin() as c:
        c.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        return asyncio.run(soak(postgres_schema_url(url, schema), args, "postgresql"))
    finally:
        if not args.keep:
            with admin.begin() as c:
                c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=25, help="SIGKILLs per database (default 25)")
    ap.add_argument("--tables", type=int, default=4, help="tables played at once (two scripted players each)")
    ap.add_argument("--think", type=float, default=0.05, help="mean seconds a scripted player waits before moving")
    ap.add_argument("--min-gap", type=float, default=0.3, help="shortest time from a restart to the next kill")
    ap.add_argument("--max-gap", type=float, default=2.5, help="longest time from a restart to the next kill")
    ap.add_argument("--settle", type=float, default=3.0, help="seconds played after the last kill")
    ap.add_argument("--max-seconds", type=float, default=300, help="stop killing after this long (per database)")
    ap.add_argument("--postgres", metavar="URL", help="also soak PostgreSQL at URL (in a schema of its own)")
    ap.add_argument("--only-postgres", action="store_true", help="skip the SQLite run")
    ap.add_argument("--keep", action="store_true", help="keep the SQLite file / PostgreSQL schema afterwards")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args()
    results = []
    if not args.only_postgres:
        tmp = Path(tempfile.mkdtemp(prefix="ludus-soak-"))
        db = tmp / "soak.db"
        results.append(asyncio.run(soak(str(db), args, "sqlite")))
        if args.keep:
            results[-1]["file"] = str(db)
        else:
            for f in tmp.iterdir():
                f.unlink()
            tmp.rmdir()
    if args.postgres:
        results.append(run_postgres(args.postgres, args))
    print(json.dumps(results, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    ok = all(r["lost"] == 0 and r["duplicated"] == 0 and r["told_failed_but_stored"] == 0 and r["bad_records"] == 0
             and r["kills_survived"] == r["kills"] for r in results)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
