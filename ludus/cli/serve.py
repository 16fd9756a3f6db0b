"""``ludus serve``: start the game server and the browser client, and print where to open it."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.markup import escape

__all__ = ["add_command", "run_serve"]


def add_command(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="play in the browser: start the game server")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; use 0.0.0.0 to let other machines join)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument("--database", metavar="URL",
                   help="a SQLite file or URL, or postgresql://user:pass@host/db (default: a file in your data folder)")
    p.add_argument("--bot-delay", type=float, default=0.8, metavar="SECONDS",
                   help="pause before each bot move, so people can follow (default 0.8)")
    p.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help="a host name browsers may use to reach this server, e.g. games.example.org "
                        "(repeatable; IP addresses and localhost always work)")
    p.add_argument("--create-limit", type=float, default=None, metavar="PER_MINUTE",
                   help="tables one browser may create per minute, with bursts of twice that; one address "
                        "may create three times as many (default 4; 0 turns the limit off)")
    p.add_argument("--log-json", action="store_true",
                   help="write the server's log as JSON lines (one object per line: time, level, logger, message "
                        "and extra fields), for log collectors")
    p.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace, console: Console) -> int:
    try:
        return _serve(args, console)
    except KeyboardInterrupt:  # Ctrl+C, whether during start-up or while serving
        console.print("Ludus server stopped.", style="dim")
        return 0


def _serve(args: argparse.Namespace, console: Console) -> int:
    import ipaddress
    import socket

    import uvicorn

    from ..server.app import UVICORN_SETTINGS
    from ..server.config import ServerConfig
    from ..server.db import DatabaseInUse, check_database, lock_database, normalize_url
    from ..server.observability import configure_logging
    from ..web.app import create_web_app

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
    try:  # before anything touches the file: a SQLite database serves one server at a time
        held = lock_database(config.database)
    except DatabaseInUse as exc:
        console.print(f"[bold red]Error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
        return 2
    check_database(config.database)
    if held is not None:
        held.hand_over()  # the server's hub holds it from its start to its end (the process's lifetime)
    app = create_web_app(config)
    sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        console.print(f"[bold red]Error:[/] cannot listen on {args.host}:{args.port}: {exc.strerror}")
        return 2
    port = sock.getsockname()[1]
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    db = normalize_url(config.database)
    if "@" in db:  # never print a password
        scheme, rest = db.split("://", 1)
        db = f"{scheme}://…@{rest.split('@', 1)[1]}"
    console.print(f"Ludus is serving at [bold]http://{shown}:{port}/[/]  (database: {db})", highlight=False,
                  soft_wrap=True)
    console.print("Open that address in a browser; press Ctrl+C to stop.", style="dim")
    configure_logging(config.log_json)
    # with JSON lines, uvicorn's own messages go through the same handler (its default config has its own)
    uvicorn_logs: dict[str, Any] = {"log_config": None} if config.log_json else {}
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=3,
                                           **uvicorn_logs, **UVICORN_SETTINGS))
    server.run(sockets=[sock])
    console.print("Ludus server stopped.", style="dim")
    return 0
