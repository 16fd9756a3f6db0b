"""``ludus serve``: start the game server and the browser client, and print where to open it."""

from __future__ import annotations

import argparse
import contextlib
from typing import Any

from rich.console import Console
from rich.markup import escape

from ..i18n import _

__all__ = ["add_command", "check_advertise", "run_serve"]


def add_command(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help=_("play in the browser: start the game server"))
    p.add_argument("--host", default="127.0.0.1",
                   help=_("address to listen on (default 127.0.0.1; use 0.0.0.0 to let other machines join)"))
    p.add_argument("--port", type=int, default=8000, help=_("port (default 8000; 0 picks a free one)"))
    p.add_argument("--database", metavar="URL",
                   help=_("a SQLite file or URL, or postgresql://user:pass@host/db (default: a file in your data "
                          "folder)"))
    p.add_argument("--bot-delay", type=float, default=0.8, metavar="SECONDS",
                   help=_("pause before each bot move, so people can follow (default 0.8)"))
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help=_("a host name browsers may use to reach this server, e.g. games.example.org "
                        "(repeatable; IP addresses and localhost always work)"))
    p.add_argument("--create-limit", type=float, default=None, metavar="PER_MINUTE",
                   help=_("tables one browser may create per minute, with bursts of twice that; one address "
                        "may create three times as many (default 4; 0 turns the limit off)"))
    p.add_argument("--log-json", action="store_true",
                   help=_("write the server's log as JSON lines (one object per line: time, level, logger, message "
                        "and extra fields), for log collectors"))
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help=_("worker processes sharing the port, each playing its share of the tables (needs PostgreSQL; "
                        "a worker that dies is started again and its tables are played on by the others)"))
    p.add_argument("--advertise", metavar="URL",
                   help=_("with several servers on one PostgreSQL database: the address the others reach this one at "
                        "(default: http://HOST:PORT as it listens)"))
    p.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace, console: Console) -> int:
    try:
        return _serve(args, console)
    except KeyboardInterrupt:  # Ctrl+C, whether during start-up or while serving
        console.print("Ludus server stopped.", style="dim")
        return 0


def _config(args: argparse.Namespace) -> Any:
    """The server's settings from the command line."""
    import ipaddress

    from ..server.config import ServerConfig

    config = ServerConfig(bot_delay=max(0.0, args.bot_delay))
    names = [n.strip() for n in args.allowed_host if n.strip()]
    try:
        ipaddress.ip_address(args.host)
    except ValueError:
        names.append(args.host)  # listening on a name: browsers will use that name
    config.allowed_hosts = names
    if args.create_limit is not None:
        rate = max(0.0, args.create_limit)
        config.create_per_minute_client, config.create_burst_client = rate, max(1, round(2 * rate))
        config.create_per_minute_address, config.create_burst_address = 3 * rate, max(1, round(6 * rate))
    if args.database:
        config.database = args.database
    config.log_json = bool(getattr(args, "log_json", False))
    return config


def check_advertise(url: str) -> str:
    """``--advertise``: an ``http(s)://host:port`` base URL (no path but ``/``, no query, no user), as
    given less any trailing ``/``; ValueError with a sentence saying what is wrong."""
    from urllib.parse import urlsplit

    text = url.strip()
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise ValueError(f"--advertise {url!r} is not a URL of the form http://HOST:PORT (the port must be a "
                         "number from 0 to 65535)") from None
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"--advertise {url!r} must start with http:// or https://, e.g. http://10.0.0.5:8000")
    if not parts.hostname:
        raise ValueError(f"--advertise {url!r} names no host; give http://HOST:PORT, e.g. http://10.0.0.5:8000")
    if port is None or port == 0:
        raise ValueError(f"--advertise {url!r} names no port; give http://HOST:PORT, e.g. http://10.0.0.5:8000")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"--advertise {url!r} may not hold a user name or password")
    if parts.path not in ("", "/") or parts.query or parts.fragment or text.endswith(("?", "#")):
        raise ValueError(f"--advertise {url!r} must be a bare http://HOST:PORT, without a path, query or fragment "
                         "(requests are forwarded to the same paths the client asked for)")
    return f"{parts.scheme}://{parts.netloc}"


def _listen(host: str, port: int, shared: bool = False) -> Any:
    import socket

    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if shared:  # several worker processes accept on one port; the kernel spreads the connections
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    return sock


def _run_uvicorn(app: Any, config: Any, sockets: list[Any]) -> None:
    import uvicorn

    from ..server.app import UVICORN_SETTINGS, quiet_collector
    from ..server.observability import configure_logging

    configure_logging(config.log_json)
    # with JSON lines, uvicorn's own messages go through the same handler (its default config has its own)
    uvicorn_logs: dict[str, Any] = {"log_config": None} if config.log_json else {}
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=3,
                                           **uvicorn_logs, **UVICORN_SETTINGS))
    quiet_collector()
    server.run(sockets=sockets)


def _shown_database(url: str) -> str:
    from ..server.db import normalize_url

    db = normalize_url(url)
    if "@" in db:  # never print a password
        scheme, rest = db.split("://", 1)
        db = f"{scheme}://…@{rest.split('@', 1)[1]}"
    return db


def _serve(args: argparse.Namespace, console: Console) -> int:
    from ..server.db import DatabaseInUse, check_database, lock_database, sqlite_file
    from ..web.app import create_web_app

    config = _config(args)
    workers = max(1, args.workers)
    if args.advertise is not None:
        try:
            args.advertise = check_advertise(args.advertise)
        except ValueError as exc:
            console.print(f"[bold red]Error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
            return 2
    if workers > 1 and (sqlite_file(config.database) is not None or "://" not in config.database
                        or config.database.startswith("sqlite")):
        console.print("[bold red]Error:[/] several workers need PostgreSQL (--database postgresql://…): a SQLite "
                      "database serves one server process", highlight=False)
        return 2
    try:  # before anything touches the file: a SQLite database serves one server at a time
        held = lock_database(config.database)
    except DatabaseInUse as exc:
        console.print(f"[bold red]Error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
        return 2
    check_database(config.database)
    if held is not None:
        held.hand_over()  # the server's hub holds it from its start to its end (the process's lifetime)
    try:
        sock = _listen(args.host, args.port, shared=workers > 1)
    except OSError as exc:
        console.print(f"[bold red]Error:[/] cannot listen on {args.host}:{args.port}: {exc.strerror}")
        return 2
    port = sock.getsockname()[1]
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    console.print(f"Ludus is serving at [bold]http://{shown}:{port}/[/]  (database: {_shown_database(config.database)}"
                  + (f", {workers} workers" if workers > 1 else "") + ")", highlight=False, soft_wrap=True)
    console.print("Open that address in a browser; press Ctrl+C to stop.", style="dim")
    if workers > 1:
        _supervise(args, port, workers, sock)
    else:
        config.advertise = args.advertise or f"http://{shown}:{port}"
        _run_uvicorn(create_web_app(config), config, [sock])
    console.print("Ludus server stopped.", style="dim")
    return 0


def _worker(args: argparse.Namespace, port: int) -> None:
    """One worker of ``--workers N``: the shared port, and a private one the others forward to."""
    from ..web.app import create_web_app

    config = _config(args)
    private_host = "127.0.0.1"
    private = _listen(private_host, 0)
    config.advertise = f"http://{private_host}:{private.getsockname()[1]}"
    with contextlib.suppress(KeyboardInterrupt):
        _run_uvicorn(create_web_app(config), config, [_listen(args.host, port, shared=True), private])


def _supervise(args: argparse.Namespace, port: int, workers: int, sock: Any) -> None:
    """Start the workers and start again any that dies, until Ctrl+C (or SIGTERM) stops them all."""
    import multiprocessing
    import signal
    import time

    spawn = multiprocessing.get_context("spawn")
    procs = [spawn.Process(target=_worker, args=(args, port), daemon=True) for _ in range(workers)]
    for proc in procs:
        proc.start()
    stopping = False

    def stop(*_: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    try:
        while not stopping:
            time.sleep(0.5)
            for i, proc in enumerate(procs):
                if not proc.is_alive() and not stopping:
                    procs[i] = spawn.Process(target=_worker, args=(args, port), daemon=True)
                    procs[i].start()
    except KeyboardInterrupt:
        pass
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
        for proc in procs:
            proc.join(timeout=10)
        sock.close()
