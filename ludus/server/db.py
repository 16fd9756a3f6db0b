"""Tables, seats and actions in SQL: models, engine set-up and migrations at startup.

The record is the source of truth: a table row (game, options, seed) plus its action rows
rebuild the exact state by replay, so nothing else about a game is stored. SQLite (the
default, one file) and PostgreSQL go through the same SQLAlchemy code; the schema is
created and upgraded by the Alembic migrations shipped in ``migrations/``.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
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
    "MIGRATIONS", "TOKEN_SECRET", "ActionRow", "Base", "DatabaseError", "SeatRow", "SettingRow", "TableRow",
    "check_database", "make_engine", "migrate", "normalize_url", "server_secret", "utcnow",
]

MIGRATIONS = Path(__file__).parent / "migrations"


class DatabaseError(LudusError):
    """A database URL that cannot be used, or a failed migration."""


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
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
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
