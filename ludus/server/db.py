"""Tables, seats, actions and accounts in SQL: models, engine set-up and migrations at startup.

The record is the source of truth: a table row (game, options, seed) plus its action rows
rebuild the exact state by replay, so nothing else about a game is stored. SQLite (the
default, one file) and PostgreSQL go through the same SQLAlchemy code; the schema is
created and upgraded by the Alembic migrations shipped in ``migrations/``.
"""

from __future__ import annotations

import logging
import os
import secrets
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    insert,
    select,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from ..core.errors import LudusError

__all__ = [
    "MIGRATIONS", "TOKEN_SECRET", "AccountRow", "ActionRow", "Base", "DatabaseError", "DatabaseInUse", "DatabaseLock",
    "LeaseRow", "RatedSeatRow", "RatingRow", "SeatRow", "SessionRow", "SettingRow", "TableRow", "ThrottleRow",
    "check_database", "lock_database", "make_engine", "migrate", "normalize_url", "server_secret", "sqlite_file",
    "utcnow",
]

MIGRATIONS = Path(__file__).parent / "migrations"
log = logging.getLogger("ludus.server")


class DatabaseError(LudusError):
    """A database URL that cannot be used, or a failed migration."""


class DatabaseInUse(DatabaseError):
    """A SQLite file that another running Ludus server holds (see :class:`DatabaseLock`)."""


if sys.platform == "win32":
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # EWOULDBLOCK: another open file holds it
            return False
        return True


class DatabaseLock:
    """The one server of a SQLite file: an exclusive lock on ``FILE.lock`` beside it, held while
    the server runs.

    The lock is the operating system's (``flock``; ``msvcrt.locking`` on Windows), not a PID
    file: the kernel drops it when the process ends, however it ends (SIGKILL and crashes
    included), so it never goes stale. It belongs to one open file, so two servers in one
    process exclude each other as well (a server is one :class:`~.hub.Hub`). The file is left
    in place; it holds the PID of the last server that took it, for the refusal's message only.
    """

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = database.with_name(database.name + ".lock")
        self.fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or raise :class:`DatabaseInUse` naming the file and what to do instead."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise DatabaseError(f"cannot create the lock file {self.path}: {exc.strerror or exc}") from None
        try:
            locked = _try_lock(fd)
        except OSError as exc:  # a file system without locks (some network mounts): serve, unguarded
            log.warning("cannot lock %s (%s): nothing stops a second server on this database", self.path,
                        exc.strerror or exc)
            locked = True
        if not locked:
            holder = _read_pid(fd)
            os.close(fd)
            who = f" (process {holder})" if holder else ""
            raise DatabaseInUse(
                f"the SQLite database {self.database} is in use by another Ludus server{who}: a SQLite database "
                "serves one server at a time; stop that one, or use PostgreSQL (--database postgresql://…) "
                "to run several servers on one database")
        try:  # who holds it, for the message above (the lock itself is what counts)
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        except OSError:
            pass
        self.fd = fd

    def release(self) -> None:
        """Let another server take the database (closing the file drops the lock)."""
        fd, self.fd = self.fd, None
        with _HANDED_LOCK:
            if _HANDED.get(self.database) is self:
                del _HANDED[self.database]
        if fd is not None:
            os.close(fd)

    def hand_over(self) -> None:
        """Give this held lock to the next server started on the database in this process: ``ludus
        serve`` takes it before it checks the database, then its hub starts on it."""
        with _HANDED_LOCK:
            _HANDED[self.database] = self

    @property
    def held(self) -> bool:
        return self.fd is not None


_HANDED: dict[Path, DatabaseLock] = {}
_HANDED_LOCK = threading.Lock()


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except (OSError, AttributeError):  # os.pread: not on Windows
        return None
    return int(text) if text.isdigit() else None


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (resolved, so every spelling of it is the same); None for anything
    else: an in-memory SQLite database, PostgreSQL, or a URL that cannot be read."""
    try:
        parsed = make_url(normalize_url(url))
    except Exception:  # noqa: BLE001 - make_engine reports a bad URL
        return None
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if not database or database == ":memory:" or parsed.query.get("mode") == "memory":
        return None
    if database.startswith("file:"):  # a URI filename (?uri=true)
        database = database[5:].split("?", 1)[0]
        if not database or database == ":memory:":
            return None
    return Path(database).expanduser().resolve()


def lock_database(url: str) -> DatabaseLock | None:
    """Hold ``url``'s SQLite file for this server (a lock handed over in this process is taken
    over); None where there is nothing to hold (in-memory SQLite, PostgreSQL). Raises
    :class:`DatabaseInUse` when another server holds it."""
    path = sqlite_file(url)
    if path is None:
        return None
    with _HANDED_LOCK:
        handed = _HANDED.pop(path, None)
    if handed is not None and handed.held:
        return handed
    lock = DatabaseLock(path)
    lock.acquire()
    return lock


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "ludus_tables"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[str] = mapped_column(Text)  # JSON object
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)  # open | playing | finished | expired
    clock_seconds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    listed: Mapped[bool] = mapped_column(Boolean, default=True)
    hints: Mapped[bool] = mapped_column(Boolean, default=False)  # players may ask what the bot would play
    rated: Mapped[bool] = mapped_column(Boolean, default=False)  # its final move updates ratings (ratings.py)
    rematch_of: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rematch_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)  # JSON once finished
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatRow(Base):
    __tablename__ = "ludus_seats"

    table_code: Mapped[str] = mapped_column(String(16), ForeignKey("ludus_tables.code", ondelete="CASCADE"),
                                            primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human | bot
    bot: Mapped[str] = mapped_column(String(32))  # the bot's kind, or the stand-in for a human seat
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # the holder's key: the hash of a cookie token, or an account's key (indexed for "your games")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    away: Mapped[str | None] = mapped_column(String(16), nullable=True)  # left | timeout | disconnected


class ActionRow(Base):
    __tablename__ = "ludus_actions"

    table_code: Mapped[str] = mapped_column(String(16), ForeignKey("ludus_tables.code", ondelete="CASCADE"),
                                            primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0-based index among recorded actions
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)  # the action's JSON
    by_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AccountRow(Base):
    """A player who signed up: a name, an Argon2id hash of the password, and the key their seats hold."""

    __tablename__ = "ludus_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(24))  # as typed at sign-up
    name_key: Mapped[str] = mapped_column(String(96), unique=True)  # NFKC case-folded: one account per name
    password_hash: Mapped[str] = mapped_column(String(255))
    seat_key: Mapped[str] = mapped_column(String(64), unique=True)  # random; never leaves the server
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SessionRow(Base):
    """A logged-in browser: the hash of its session cookie (the cookie itself is never stored)."""

    __tablename__ = "ludus_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("ludus_accounts.id", ondelete="CASCADE"),
                                            index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """A player's (or a bot kind's) current rating in one game's pool of player counts.

    ``subject`` is ``account:<id>`` or ``bot:<kind>``; ``pool`` is ``<game>/<pool key>``."""

    __tablename__ = "ludus_ratings"

    pool: Mapped[str] = mapped_column(String(100), primary_key=True)
    subject: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("ludus_accounts.id", ondelete="CASCADE"),
                                                   nullable=True, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatedSeatRow(Base):
    """One seat of a rated game, written with its final move: who it counted for, its place, and the
    rating after it. In ``id`` order these rows are the order ratings changed in (the rebuild's order)."""

    __tablename__ = "ludus_rated_seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_code: Mapped[str] = mapped_column(String(16), ForeignKey("ludus_tables.code", ondelete="CASCADE"),
                                            index=True)
    seat: Mapped[int] = mapped_column(Integer)
    pool: Mapped[str] = mapped_column(String(100))
    subject: Mapped[str] = mapped_column(String(64), index=True)  # after a deletion: gone:<random>
    place: Mapped[int] = mapped_column(Integer)  # 1 = among the winners
    counted: Mapped[bool] = mapped_column(Boolean)  # False: a second seat of the same bot kind (not updated)
    mu: Mapped[float] = mapped_column(Float)  # the rating after this game
    sigma: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LeaseRow(Base):
    """Which worker plays a table (or holds the quick play pool) until ``expires_at``: PostgreSQL
    groups of workers only (:mod:`.leases`); a SQLite file has one server, so no leases."""

    __tablename__ = "ludus_leases"

    resource: Mapped[str] = mapped_column(String(32), primary_key=True)  # a table's code, or "quick"
    worker: Mapped[str] = mapped_column(String(32), index=True)
    address: Mapped[str] = mapped_column(Text)  # where the other workers forward its requests
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ThrottleRow(Base):
    """A token bucket of a group of workers (:mod:`.throttles`): failed logins, sign-ups or table
    creations for one key of one limit. The key is an HMAC of the name or address, never the
    value itself; a row goes once its bucket is full again (``full_at``)."""

    __tablename__ = "ludus_throttles"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)  # the limit, e.g. "login_name"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)  # HMAC-SHA256 (hex) of the limited key
    tokens: Mapped[float] = mapped_column(Float)
    rate: Mapped[float] = mapped_column(Float)  # tokens per second
    burst: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # the database's now()
    full_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SettingRow(Base):
    """Server-wide values kept with the games, e.g. the secret that signs player tokens."""

    __tablename__ = "ludus_settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


TOKEN_SECRET = "token_secret"


def server_secret(engine: Engine) -> bytes:
    """The key that signs player tokens: made once, then read back by every server on this database.

    Two servers starting together may both try to create it; the primary key lets one win and
    the other reads the winner's.
    """
    for _ in range(5):
        with engine.connect() as conn:
            value = conn.execute(select(SettingRow.value).where(SettingRow.key == TOKEN_SECRET)).scalar()
        if value:
            return bytes.fromhex(value)
        try:
            with engine.begin() as conn:
                conn.execute(insert(SettingRow).values(key=TOKEN_SECRET, value=secrets.token_hex(32)))
        except IntegrityError:
            pass  # another server made it first; read theirs
    raise DatabaseError("could not read or create the token secret")


def normalize_url(url: str) -> str:
    """Accept a plain file path for SQLite and route ``postgresql://`` through psycopg 3."""
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL and full fsync so a killed server loses nothing."""
    url = normalize_url(url)
    try:
        parsed = make_url(url)
    except Exception as exc:  # SQLAlchemy raises several kinds here
        raise DatabaseError(f"not a database URL: {url!r}") from exc
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA secure_delete=ON")  # a deleted account's data is overwritten, not left in free pages
            cur.close()

        return engine
    if backend == "postgresql":
        try:
            return create_engine(url, pool_pre_ping=True)
        except ModuleNotFoundError as exc:
            raise DatabaseError("PostgreSQL needs psycopg: pip install 'ludus[postgres]'") from exc
    raise DatabaseError(f"unsupported database {backend!r}: use SQLite (a file) or postgresql://")


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration (creating it on an empty database)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    try:
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    except Exception as exc:
        raise DatabaseError(f"could not prepare the database: {exc}") from exc


def check_database(url: str) -> None:
    """Connect and migrate once, so a bad URL or an unreachable server fails before serving."""
    engine = make_engine(url)
    try:
        with engine.connect():
            pass
    except Exception as exc:
        raise DatabaseError(f"cannot open the database: {str(exc).splitlines()[0]}") from exc
    try:
        migrate(engine)
    finally:
        engine.dispose()
