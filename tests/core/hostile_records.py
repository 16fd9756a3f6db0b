"""Hostile game records: valid records of every game, and many ways to spoil them.

Used by ``test_records_fuzz.py``; also runnable on its own to push every variant through
``ludus replay`` and count the ones that do not fail cleanly::

    .venv/bin/python -m tests.core.hostile_records [--api-only]

Values that cannot be built as Python objects and then written with ``json.dumps`` (nesting
deeper than the JSON reader allows, integers longer than Python converts from text) are
written as marker strings and swapped into the text by :func:`to_text`.
"""

from __future__ import annotations

import copy
import json
import os
import sys
from collections.abc import Iterator
from typing import Any

from ludus.core import records
from ludus.core.game import CHANCE, State
from ludus.core.rng import Rng
from ludus.games import game_names, get_game

# text markers, replaced in the JSON text
DEEP = "\x00deep\x00"        # 100,000 nested lists
HUGE = "\x00huge\x00"        # a 5,000-digit integer (over Python's conversion limit)
BIG = "\x00big\x00"          # a 4,000-digit integer (under it)
NAN = "\x00nan\x00"
INF = "\x00inf\x00"
_MARKERS = {
    json.dumps(DEEP): "[" * 100_000 + "]" * 100_000,
    json.dumps(HUGE): "9" * 5000,
    json.dumps(BIG): "7" * 4000,
    json.dumps(NAN): "NaN",
    json.dumps(INF): "-Infinity",
}


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


ODD: list[Any] = [
    None, True, False, 0, 1, -1, -5, 99, 2**63, 2**64, -(2**64), 10**30, 1.5, 1e308,
    "", "x", "[/]", "0", "99", [], [0], [None], [[]], ["x", "y"], {}, {"a": 1}, {"play": []},
    nested(60), DEEP, HUGE, BIG, NAN, INF,
]

# options that name a file, per game
FILE_OPTIONS = {"gorus-maximus": "cf_table", "gladius": "card_sets", "circus-maximus": "cards"}

BASE_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "gorus-maximus": [{"players": 4}, {"players": 1}, {"players": 5, "teams": "2v2v1"}],
    "gladius": [{}, {"solo": True, "fighter1": "postulati", "fighter2": "lion"}],
    "circus-maximus": [{}, {"players": 3, "caesar": True}],
    "gorus-arena": [{}, {"players": 2}],
}


def to_text(data: Any) -> str:
    text = json.dumps(data, ensure_ascii=False)
    for marker, value in _MARKERS.items():
        text = text.replace(marker, value)
    return text


def play_random(game_name: str, options: dict[str, Any], seed: int | None, rng_seed: int,
                max_steps: int | None = None) -> State:
    """A game between uniformly random players (chance drawn from ``rng_seed`` when explicit)."""
    state = get_game(game_name).new_initial_state(options, seed=seed)
    rng = Rng(rng_seed)
    steps = 0
    while not state.is_terminal() and (max_steps is None or steps < max_steps):
        seat = state.current_seats()[0]
        if seat == CHANCE:
            state.apply(state.sample_chance(rng), CHANCE)
        else:
            state.apply(rng.choice(state.legal_actions(seat)), seat)
            steps += 1
    return state


def base_records() -> list[tuple[str, dict[str, Any]]]:
    """Valid records: for each game and option set, seeded and explicit chance; one from a start."""
    out = []
    for name in game_names():
        for k, options in enumerate(BASE_OPTIONS[name]):
            st = play_random(name, options, seed=11 + k, rng_seed=3 + k)
            names = [f"Player {i + 1}" for i in range(st.num_seats())]
            out.append((f"{name}{options}-seeded", records.record_of(st, 11 + k, players=names).to_json()))
            if k == 0:
                st = play_random(name, options, seed=None, rng_seed=5)
                out.append((f"{name}{options}-explicit", records.record_of(st, None).to_json()))
                st = play_random(name, options, seed=7, rng_seed=1, max_steps=6)
                start = st.to_json()
                cut = len(st.history)
                while not st.is_terminal():
                    seat = st.current_seats()[0]
                    st.apply(Rng(len(st.history)).choice(st.legal_actions(seat)), seat)
                rec = records.Record(game=name, options=start["options"], start=start,
                                     actions=[(s, a.to_json()) for s, a in st.history[cut:] if s != CHANCE],
                                     result={"scores": st.scores(), "winners": st.winners()})
                out.append((f"{name}{options}-start", rec.to_json()))
    return out


def _set(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """A deep copy of ``data`` with the item at ``path`` replaced (``...`` deletes it)."""
    out = copy.deepcopy(data)
    target = out
    for key in path[:-1]:
        target = target[key]
    if value is ...:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


def variants(label: str, data: dict[str, Any], tmp_dir: str) -> Iterator[tuple[str, str | bytes]]:
    """(label, file content) for many spoiled versions of one valid record."""
    game = get_game(data["game"])
    n = game.num_seats(game.parse_options(data["options"]))
    # top-level fields
    for key in ("format", "version", "game", "options", "seed", "start", "players", "result", "actions"):
        if key in data:
            yield f"{label}: delete {key}", to_text(_set(data, (key,), ...))
        for i, v in enumerate(ODD):
            yield f"{label}: {key} = odd[{i}]", to_text({**data, key: v})
    # options
    for info in game.describe_options():
        for i, v in enumerate(ODD):
            yield f"{label}: option {info.name} = odd[{i}]", to_text(_set(data, ("options", info.name), v))
    yield f"{label}: unknown option", to_text(_set(data, ("options", "colour"), "red"))
    if data["game"] in FILE_OPTIONS and "start" not in data:
        key = FILE_OPTIONS[data["game"]]
        fifo = os.path.join(tmp_dir, "fifo")
        if not os.path.exists(fifo):
            os.mkfifo(fifo)
        big = os.path.join(tmp_dir, "big.toml")
        if not os.path.exists(big):
            with open(big, "w") as f:
                f.write("# padding\n" * 300_000)
        for path in ("/dev/zero", "/dev/null", "/", tmp_dir, "/nonexistent/x.toml", fifo, big, "\x00", "a," * 200):
            yield f"{label}: option {key} = {path[:30]!r}", to_text(_set(data, ("options", key), path))
    # players
    players = data.get("players") or [f"P{i}" for i in range(n)]
    for what, value in [("short", players[:-1]), ("long", [*players, "Extra"]), ("empty", []),
                        ("markup", ["[/]", "[bold red]x", *players][:n]), ("long name", ["x" * 100_000] * n),
                        ("numbers", list(range(n))), ("nested", [players]), ("control", ["\x1b[2J"] * n)]:
        yield f"{label}: players {what}", to_text({**data, "players": value})
    # result
    result = data.get("result") or {"scores": [0.0] * n, "winners": [0]}
    for key in ("scores", "winners"):
        yield f"{label}: result without {key}", to_text({**data, "result": _set(result, (key,), ...)})
        for i, v in enumerate(ODD):
            yield f"{label}: result {key} = odd[{i}]", to_text({**data, "result": {**result, key: v}})
    scores = list(result["scores"])
    for what, value in [
        ("scores short", {**result, "scores": scores[:-1]}),
        ("scores long", {**result, "scores": [*scores, 0.0]}),
        ("scores off by one", {**result, "scores": [scores[0] + 1, *scores[1:]]}),
        ("scores text", {**result, "scores": [str(s) for s in scores]}),
        ("winners 99", {**result, "winners": [99]}),
        ("winners -1", {**result, "winners": [-1]}),
        ("winners twice", {**result, "winners": [0, 0]}),
        ("winners bool", {**result, "winners": [True]}),
        ("winners all", {**result, "winners": list(range(n))}),
        ("winners none", {**result, "winners": []}),
        ("extra key", {**result, "champion": 1}),
    ]:
        yield f"{label}: result {what}", to_text({**data, "result": value})
    # actions
    actions = data["actions"]
    half = len(actions) // 2
    for what, value in [
        ("cut in half", actions[:half]), ("none", []), ("last dropped", actions[:-1]),
        ("repeated", [*actions, actions[-1]]), ("first twice", [actions[0], *actions]),
        ("swapped", [actions[1], actions[0], *actions[2:]]), ("reversed", actions[::-1]),
    ]:
        yield f"{label}: actions {what}", to_text({**data, "actions": value})
    for pos in sorted({0, half, len(actions) - 1}):
        seat, action = actions[pos]
        for i, v in enumerate(ODD):
            yield f"{label}: action {pos} seat = odd[{i}]", to_text(_set(data, ("actions", pos, 0), v))
            yield f"{label}: action {pos} = odd[{i}]", to_text(_set(data, ("actions", pos, 1), v))
            yield f"{label}: action entry {pos} = odd[{i}]", to_text(_set(data, ("actions", pos), v))
        for s in range(-2, n + 1):
            if s != seat:
                yield f"{label}: action {pos} by seat {s}", to_text(_set(data, ("actions", pos, 0), s))
        yield f"{label}: action {pos} short", to_text(_set(data, ("actions", pos), [seat]))
        yield f"{label}: action {pos} long", to_text(_set(data, ("actions", pos), [seat, action, 1]))
        if isinstance(action, dict):
            for key in list(action):
                yield f"{label}: action {pos} without {key}", to_text(_set(data, ("actions", pos, 1, key), ...))
                for i, v in enumerate(ODD):
                    yield (f"{label}: action {pos} {key} = odd[{i}]",
                           to_text(_set(data, ("actions", pos, 1, key), v)))
            yield f"{label}: action {pos} extra key", to_text(_set(data, ("actions", pos, 1, "zz"), 1))
    # whole files
    yield f"{label}: not JSON", to_text(data)[:-1]
    yield f"{label}: not UTF-8", to_text(data).encode("utf-8") + b"\xff\xfe"
    yield f"{label}: a list", to_text([data])
    yield f"{label}: nested deep", "[" * 100_000 + to_text(data) + "]" * 100_000


FILE_VARIANTS = [("empty file", ""), ("deep object", '{"a":' * 50_000 + "1" + "}" * 50_000),
                 ("huge number", "9" * 5000), ("bare string", '"ludus"'), ("null", "null")]


def all_variants(tmp_dir: str) -> Iterator[tuple[str, str | bytes]]:
    yield from FILE_VARIANTS
    for label, data in base_records():
        yield from variants(label, data, tmp_dir)


class Hang(BaseException):
    """Raised by the alarm: not an OSError, so that no reader can take it for a read error."""


def _alarm(timeout: int) -> Any:
    import signal

    def alarm(*_: Any) -> None:
        raise Hang(f"no answer in {timeout} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(timeout)
    return old


def _no_alarm(old: Any) -> None:
    import signal

    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def run_cli(path: str, *extra: str, timeout: int = 30) -> tuple[int | None, str, str | None]:
    """``ludus replay PATH`` in this process: (exit status, output, the exception that escaped)."""
    import contextlib
    import io
    import traceback

    from ludus.cli.main import main

    out = io.StringIO()
    old = _alarm(timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            rc = main(["replay", path, *extra])
        return rc, out.getvalue(), None
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1, out.getvalue(), None
    except BaseException:  # noqa: BLE001 - this is what we are looking for
        return None, out.getvalue(), traceback.format_exc(limit=-3)
    finally:
        _no_alarm(old)


def run_api(path: str, timeout: int = 30) -> str | None:
    """``records.replay(records.load(PATH))``: None if it returned or raised LudusError, else the error."""
    old = _alarm(timeout)
    try:
        records.replay(records.load(path), get_game)
    except records.LudusError:
        pass
    except BaseException as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {str(exc)[:150]}"
    finally:
        _no_alarm(old)
    return None


def main() -> int:
    """Options: --api-only (no CLI), --every N (one variant in N), --list-ok (name the files replayed)."""
    import resource
    import tempfile
    import time

    api_only = "--api-only" in sys.argv
    every = int(sys.argv[sys.argv.index("--every") + 1]) if "--every" in sys.argv else 1
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, hard))
    tried = clean = 0
    exits: dict[Any, int] = {}
    bad: dict[str, list[str]] = {}
    slow: list[tuple[float, str]] = []
    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "record.json")
        for k, (label, content) in enumerate(all_variants(tmp)):
            if k % every:
                continue
            with open(path, "wb") as f:
                f.write(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
            tried += 1
            t1 = time.time()
            if api_only:
                why = run_api(path)
                ok = why is None
                rc: Any = "api"
            else:
                rc, output, exc = run_cli(path)
                ok = exc is None and rc in (0, 2) and "Traceback" not in output
                why = exc.strip().splitlines()[-1][:200] if exc else f"rc={rc}"
            if time.time() - t1 > 2:
                slow.append((time.time() - t1, label))
            if ok:
                clean += 1
                exits[rc] = exits.get(rc, 0) + 1
                if rc == 0 and "--list-ok" in sys.argv:
                    print(f"replayed: {label}")
            else:
                bad.setdefault(why or "", []).append(label)
            if tried % 1000 == 0:
                print(f"... {tried} tried, {tried - clean} not clean, {time.time() - t0:.0f} s", file=sys.stderr,
                      flush=True)
        if not api_only:  # --seat on a valid record
            label, data = base_records()[0]
            with open(path, "w") as f:
                f.write(to_text(data))
            for seat in ("0", "-3", "99", "5", "x"):
                tried += 1
                rc, output, exc = run_cli(path, "--seat", seat)
                if exc is None and rc == 2 and "Traceback" not in output:
                    clean += 1
                    exits[rc] = exits.get(rc, 0) + 1
                else:
                    bad.setdefault(f"--seat {seat}: rc={rc} {exc and exc.strip().splitlines()[-1]}", []).append(label)
    for why, labels in sorted(bad.items(), key=lambda kv: -len(kv[1])):
        print(f"{len(labels):5}  {why}\n       e.g. {labels[0]}" + (f" | {labels[-1]}" if len(labels) > 1 else ""))
    for t, label in sorted(slow, reverse=True)[:10]:
        print(f"slow: {t:.1f} s {label}")
    print(f"clean ones by exit status: {exits}")
    print(f"tried {tried}, clean {clean}, not clean {tried - clean} ({time.time() - t0:.0f} s)")
    return 0 if tried == clean else 1


if __name__ == "__main__":
    sys.exit(main())
