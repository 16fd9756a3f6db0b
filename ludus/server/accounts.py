"""Accounts, optional: a name and a password, so a player keeps their seats and games across browsers.

Without an account a player is their cookie token, and a seat holds the token's hash (its
*key*). An account has a key of its own, random and never sent anywhere; a browser that
logs in gets a session cookie, and while that session lasts the player acts with the
account's key. Signing up (and logging in) moves the seats of the browser's anonymous
token to the account, so the games played before carry over. Passwords are hashed with
Argon2id (``argon2-cffi``); session tokens, like player tokens, are stored only as hashes.

Failed logins are throttled per account name and per client address (token buckets,
:mod:`.throttles`: in this process's memory, or a group of workers' shared buckets in the
database); a throttled attempt is refused before its password is even checked. Each attempt
takes its token before the check and gets it back when the password was right, so guesses
sent all at once cannot all pass the check before the first failure counts.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, case, delete, insert, select, update

from ..core.errors import Message
from ..games import game_names, get_game
from ..i18n import N_
from . import store as ops
from .db import AccountRow, SeatRow, SessionRow, TableRow, utcnow
from .live import hash_token, seat_label
from .protocol import ProtocolError, RateLimited, whole_seconds
from .ratings import forget_account
from .throttles import Limit

if TYPE_CHECKING:
    from .hub import Hub

__all__ = [
    "DELETED_NAME", "MAX_PASSWORD", "MIN_PASSWORD", "SESSION_COOKIE", "SESSION_DAYS", "Account", "Accounts",
    "check_name", "check_password", "name_key",
]

log = logging.getLogger("ludus.server")

SESSION_COOKIE = "ludus_session"
SESSION_DAYS = 90
"""A session lasts this long from its login, then the browser logs in again."""
MIN_PASSWORD, MAX_PASSWORD = 8, 256
MIN_NAME, MAX_NAME = 2, 24
DELETED_NAME = "deleted player"
"""What a deleted account's seats show in their games from then on."""
_NAME = re.compile(r"^[\w.\-]+$")  # letters and digits of any script, _ . -


@dataclass(frozen=True)
class Account:
    """The account a request's session belongs to (``session``: that session's token hash)."""

    id: int
    name: str
    key: str
    session: str
    created_at: datetime


def name_key(name: str) -> str:
    """The form two names are compared in: "Alice", "ALICE" and its full-width form are one account."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_name(name: Any) -> str:
    """An account name as typed (trimmed), or a ``bad_name`` refusal that says what is wrong."""
    if not isinstance(name, str):
        raise ProtocolError("bad_name", Message(N_("an account name must be text")))
    name = name.strip()
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise ProtocolError("bad_name", Message(N_("an account name has {low} to {high} characters"), low=MIN_NAME,
                                                    high=MAX_NAME))
    if not _NAME.match(name) or any(unicodedata.category(ch).startswith("C") for ch in name):
        raise ProtocolError("bad_name", Message(N_("an account name may have letters, digits, '_', '.' and '-' only")))
    return name


_NOT_TEXT = {"password": N_("the password must be text"), "new password": N_("the new password must be text")}


def check_password(password: Any, field: str = "password") -> str:
    if not isinstance(password, str):
        raise ProtocolError("bad_password", Message(_NOT_TEXT.get(field, _NOT_TEXT["password"])))
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ProtocolError("bad_password", Message(N_("a password has {low} to {high} characters"), low=MIN_PASSWORD,
                                                        high=MAX_PASSWORD))
    return password


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)  # SQLite keeps no zone; all is UTC


class Accounts:
    """Sign-up, login, sessions, password changes and deletion; every change is one transaction."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        cfg = hub.config
        self.hasher = PasswordHasher()  # Argon2id with the library's recommended costs (RFC 9106)
        self.failed_by_name = Limit("login_name", cfg.login_failures_per_minute_account,
                                    cfg.login_failures_burst_account)
        self.failed_by_address = Limit("login_address", cfg.login_failures_per_minute_address,
                                       cfg.login_failures_burst_address)
        self.signups_by_address = Limit("signup_address", cfg.signups_per_minute_address, cfg.signups_burst_address)
        self._decoy: str | None = None  # a hash checked for unknown names, so they take as long as known ones
        # the same changes, made by another worker of a group, to the tables this one plays (notices.py)
        hub.notices.on("seats_moved", lambda n: self._move_live(n["old"], n["new"]))
        hub.notices.on("account_deleted", self._deleted_elsewhere)
        hub.notices.on("sessions_ended", self._sessions_ended_elsewhere)

    # ----------------------------------------------------------------- passwords
    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, hashed: str | None, password: str) -> bool:
        if hashed is None:
            if self._decoy is None:
                self._decoy = await self._hash(secrets.token_urlsafe(16))
            hashed = self._decoy

        def verify() -> bool:
            try:
                return self.hasher.verify(hashed, password)
            except (VerificationError, InvalidHashError):
                return False
        return await asyncio.to_thread(verify)

    def _login_checks(self, name: str | None, address: str | None) -> list[tuple[Limit, str | None]]:
        return [(self.failed_by_name, name), (self.failed_by_address, address)]

    async def _throttled(self, name: str | None, address: str | None) -> None:
        """Take a failed attempt's token for the name and the address before the password is checked
        (refused, with nothing taken, when either has none left); :meth:`_passed` gives it back."""
        wait = max(await self.hub.throttles.take(self._login_checks(name, address)))
        if wait > 0:
            raise RateLimited(Message(N_("too many wrong passwords; please wait {seconds} seconds before trying again"),
                                      seconds=whole_seconds(wait)), wait)

    async def _passed(self, name: str | None, address: str | None) -> None:
        """The password was right: the attempt does not count as a failure."""
        await self.hub.throttles.give(self._login_checks(name, address))

    async def _check(self, account: Account, password: Any, address: str | None) -> None:
        """The account's own password again, before a change that cannot be undone; throttled like logins."""
        key = name_key(account.name)
        await self._throttled(key, address)
        if not isinstance(password, str) or len(password) > MAX_PASSWORD:
            await self._passed(key, address)  # not a password at all: not counted, as before
            raise ProtocolError("bad_login", Message(N_("that is not your current password")))
        try:
            row = await self.hub.db(self._row_by_id, account.id)
            right = row is not None and await self._verify(row.password_hash, password)
        except BaseException:
            await self._passed(key, address)  # not a wrong password: the database failed
            raise
        if not right:
            raise ProtocolError("bad_login", Message(N_("that is not your current password")))
        await self._passed(key, address)

    # ----------------------------------------------------------------- reads (on the database thread)
    def _row_by_name(self, key: str) -> Any:
        assert self.hub.store is not None
        with self.hub.store.engine.connect() as c:
            return c.execute(select(AccountRow).where(AccountRow.name_key == key)).first()

    def public_row(self, name: str) -> Any:
        """The account called ``name`` (any case), for its public page; None if there is none."""
        return self._row_by_name(name_key(name)) if isinstance(name, str) and len(name) <= 200 else None

    def _row_by_id(self, account_id: int) -> Any:
        assert self.hub.store is not None
        with self.hub.store.engine.connect() as c:
            return c.execute(select(AccountRow).where(AccountRow.id == account_id)).first()

    def _by_session(self, token_hash: str) -> Account | None:
        assert self.hub.store is not None
        with self.hub.store.engine.connect() as c:
            row = c.execute(select(AccountRow.id, AccountRow.name, AccountRow.seat_key, AccountRow.created_at,
                                   SessionRow.expires_at)
                            .join(SessionRow, SessionRow.account_id == AccountRow.id)
                            .where(SessionRow.token_hash == token_hash)).first()
        if row is None or _aware(row.expires_at) <= utcnow():
            return None
        return Account(row.id, row.name, row.seat_key, token_hash, _aware(row.created_at))

    async def session(self, token: str | None) -> Account | None:
        """The account of a session cookie, or None (no cookie, a stale one, or one never issued)."""
        if not token or len(token) > 128 or not token.isascii():
            return None
        return await self.hub.db(self._by_session, hash_token(token))

    # ----------------------------------------------------------------- sign-up and login
    async def signup(self, name: Any, password: Any, anon_key: str | None, address: str | None
                     ) -> tuple[Account, str]:
        """A new account, logged in; the browser's anonymous seats move to it. Returns the session token."""
        display = check_name(name)
        check_password(password)
        key = name_key(display)
        wait = max(await self.hub.throttles.take([(self.signups_by_address, address)]))
        if wait > 0:
            raise RateLimited(Message(N_("too many accounts were made from your network address; please try again in "
                                         "{seconds} seconds"), seconds=whole_seconds(wait)), wait)
        if await self.hub.db(self._row_by_name, key) is not None:
            raise ProtocolError("name_taken", Message(N_("the name '{name}' is taken; choose another, or log in"),
                                                      name=display))
        hashed = await self._hash(password)
        seat_key = secrets.token_hex(32)
        token = secrets.token_urlsafe(32)
        made: dict[str, Any] = {}

        def run(c: Connection) -> None:
            at = utcnow()
            c.execute(insert(AccountRow).values(name=display, name_key=key, password_hash=hashed, seat_key=seat_key,
                                                created_at=at))
            made["id"] = c.execute(select(AccountRow.id).where(AccountRow.seat_key == seat_key)).scalar_one()
            made["at"] = at
            self._open_session(c, made["id"], token)
            if anon_key:
                self._move_seats(c, anon_key, seat_key)
                self.hub.notices.send(c, "seats_moved", old=anon_key, new=seat_key)

        try:
            await self.hub.write(ops.Write(run, None, f"account {display!r}"))
        except ops.WriteFailed:
            if await self.hub.db(self._row_by_name, key) is not None:  # someone else took the name just now
                raise ProtocolError("name_taken", Message(N_("the name '{name}' is taken; choose another"),
                                                          name=display)) from None
            raise
        if anon_key:
            await self._move_live(anon_key, seat_key)
        log.info("account %d created", made["id"])
        return Account(made["id"], display, seat_key, hash_token(token), made["at"]), token

    async def login(self, name: Any, password: Any, anon_key: str | None, address: str | None
                    ) -> tuple[Account, str]:
        """Check the password and open a session; the browser's anonymous seats move to the account,
        but for tables where the account already sits (those stay with the browser)."""
        key = name_key(name.strip()) if isinstance(name, str) and len(name) <= 4 * MAX_NAME else None
        await self._throttled(key, address)
        if key is None or not isinstance(password, str) or len(password) > MAX_PASSWORD:
            raise ProtocolError("bad_login", Message(N_("wrong name or password")))
        try:
            row = await self.hub.db(self._row_by_name, key)
            right = await self._verify(row.password_hash if row else None, password) and row is not None
        except BaseException:
            await self._passed(key, address)  # not a wrong password: the database failed
            raise
        if not right or row is None:
            raise ProtocolError("bad_login", Message(N_("wrong name or password")))
        await self._passed(key, address)
        rehash = await self._hash(password) if self.hasher.check_needs_rehash(row.password_hash) else None
        token = secrets.token_urlsafe(32)

        def run(c: Connection) -> None:
            self._open_session(c, row.id, token)
            c.execute(delete(SessionRow).where(SessionRow.account_id == row.id, SessionRow.expires_at <= utcnow()))
            if rehash is not None:
                c.execute(update(AccountRow).where(AccountRow.id == row.id).values(password_hash=rehash))
            if anon_key and anon_key != row.seat_key:
                self._move_seats(c, anon_key, row.seat_key)
                self.hub.notices.send(c, "seats_moved", old=anon_key, new=row.seat_key)

        await self.hub.write(ops.Write(run, None, f"login of account {row.id}"))
        if anon_key and anon_key != row.seat_key:
            await self._move_live(anon_key, row.seat_key)
        return Account(row.id, row.name, row.seat_key, hash_token(token), _aware(row.created_at)), token

    @staticmethod
    def _open_session(c: Connection, account_id: int, token: str) -> None:
        at = utcnow()
        c.execute(insert(SessionRow).values(token_hash=hash_token(token), account_id=account_id, created_at=at,
                                            expires_at=at + timedelta(days=SESSION_DAYS)))

    # ----------------------------------------------------------------- sessions and passwords
    async def logout(self, account: Account) -> None:
        """End this session (this browser)."""
        session = account.session

        def run(c: Connection) -> None:
            c.execute(delete(SessionRow).where(SessionRow.token_hash == session))
            self.hub.notices.send(c, "sessions_ended", account=account.id, only=session)

        await self.hub.write(ops.Write(run, None, "logout"))
        self._close_connections(account.id, lambda s: s == session)

    async def logout_everywhere(self, account: Account, keep_this: bool = False) -> None:
        """End every session of the account (but this one, with ``keep_this``)."""
        session = account.session

        def run(c: Connection) -> None:
            gone = delete(SessionRow).where(SessionRow.account_id == account.id)
            c.execute(gone.where(SessionRow.token_hash != session) if keep_this else gone)
            self.hub.notices.send(c, "sessions_ended", account=account.id, keep=session if keep_this else None)

        await self.hub.write(ops.Write(run, None, f"logout of account {account.id} everywhere"))
        self._close_connections(account.id, lambda s: not keep_this or s != session)

    async def change_password(self, account: Account, current: Any, new: Any, address: str | None) -> None:
        """A new password; every other session ends (a thief's among them), this one stays."""
        check_password(new, "new password")
        await self._check(account, current, address)
        hashed = await self._hash(new)
        session = account.session

        def run(c: Connection) -> None:
            c.execute(update(AccountRow).where(AccountRow.id == account.id).values(password_hash=hashed))
            c.execute(delete(SessionRow).where(SessionRow.account_id == account.id, SessionRow.token_hash != session))
            self.hub.notices.send(c, "sessions_ended", account=account.id, keep=session)

        await self.hub.write(ops.Write(run, None, f"password of account {account.id}"))
        self._close_connections(account.id, lambda s: s != session)

    async def delete(self, account: Account, password: Any, address: str | None) -> None:
        """Delete the account: its name, password hash, sessions and ratings. Its games stay, under
        "deleted player": a seat in a game not begun is freed, and a bot plays on for it in a game
        under way (the seat is then not rated)."""
        await self._check(account, password, address)
        key = account.key

        def run(c: Connection) -> None:
            status = select(TableRow.status).where(TableRow.code == SeatRow.table_code).scalar_subquery()
            c.execute(update(SeatRow).where(SeatRow.token_hash == key).values(
                token_hash=None,
                name=case((status == "open", None), else_=DELETED_NAME),
                away=case((status == "playing", "left"), else_=SeatRow.away)))
            c.execute(delete(SessionRow).where(SessionRow.account_id == account.id))
            forget_account(c, account.id)
            c.execute(delete(AccountRow).where(AccountRow.id == account.id))
            self.hub.notices.send(c, "account_deleted", account=account.id, key=key)

        await self.hub.write(ops.Write(run, None, f"deletion of account {account.id}"))
        await self._delete_live(key)
        self._close_connections(account.id, lambda s: True)
        log.info("account %d deleted", account.id)

    async def _delete_live(self, key: str) -> None:
        """A deleted account's seats at the tables in memory, as :meth:`delete` left their rows."""
        for table in list(self.hub.tables.values()):
            if table.seat_of(key) is None:
                continue
            async with table.lock:  # after any join or move under way there
                for seat in table.seats:
                    if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, key):
                        seat.token_hash = None
                        seat.name = None if table.status == "open" else DELETED_NAME
                        if table.status == "playing":
                            seat.away = "left"
                        await self.hub.seating.save_seat(table, seat)  # as in _move_live
                self.hub.changed(table)

    async def _deleted_elsewhere(self, notice: dict[str, Any]) -> None:
        await self._delete_live(notice["key"])
        self._close_connections(notice["account"], lambda s: True)

    async def _sessions_ended_elsewhere(self, notice: dict[str, Any]) -> None:
        only, keep = notice.get("only"), notice.get("keep")
        self._close_connections(notice["account"], lambda s: s == only if only else s != keep)

    # ----------------------------------------------------------------- seats
    @staticmethod
    def _move_seats(c: Connection, old: str, new: str) -> None:
        """Hand ``old``'s seats to ``new``, but at tables where ``new`` already sits."""
        taken = select(SeatRow.table_code).where(SeatRow.token_hash == new)
        c.execute(update(SeatRow).where(SeatRow.token_hash == old, SeatRow.table_code.not_in(taken))
                  .values(token_hash=new))

    async def _move_live(self, old: str, new: str) -> None:
        """The same change on the tables in memory, each under its table's lock, after any join or
        move under way there. The seat is written again there: a join that committed between the
        bulk change of the rows and this lock would otherwise keep the old key in its row."""
        for table in list(self.hub.tables.values()):
            if table.seat_of(old) is None:
                continue
            async with table.lock:
                index = table.seat_of(old)
                if index is not None and table.seat_of(new) is None:
                    seat = table.seats[index]
                    seat.token_hash = new
                    await self.hub.seating.save_seat(table, seat)
                    self.hub.changed(table)

    def _close_connections(self, account_id: int, which: Any) -> None:
        """Close the live sockets opened under the account's sessions that ``which`` picks: their
        pages reconnect as what the browser is now."""
        for table in list(self.hub.tables.values()):
            for conn in list(table.conns):
                if conn.session is not None and conn.session[0] == account_id and which(conn.session[1]):
                    conn.close(4401, "logged out")

    # ----------------------------------------------------------------- "your games"
    def _games(self, key: str, limit: int) -> list[dict[str, Any]]:
        assert self.hub.store is not None
        with self.hub.store.engine.connect() as c:
            mine = c.execute(select(TableRow.code, TableRow.game, TableRow.status, TableRow.updated_at,
                                    TableRow.created_at, TableRow.result, SeatRow.seat)
                             .join(SeatRow, SeatRow.table_code == TableRow.code)
                             .where(SeatRow.token_hash == key, TableRow.status != "expired")
                             .order_by(TableRow.updated_at.desc()).limit(limit)).all()
            codes = [r.code for r in mine]
            seats: dict[str, list[Any]] = {}
            for i in range(0, len(codes), 200):
                for s in c.execute(select(SeatRow).where(SeatRow.table_code.in_(codes[i:i + 200]))
                                   .order_by(SeatRow.seat)):
                    seats.setdefault(s.table_code, []).append(s)
        known = set(game_names())
        out = []
        for r in mine:
            result = _json(r.result)
            winners = result.get("winners") if isinstance(result, dict) else None
            outcome = None
            if r.status == "finished" and isinstance(winners, list):
                outcome = ("won" if winners == [r.seat] else "shared" if r.seat in winners else "lost")
            out.append({
                "code": r.code, "game": r.game, "title": get_game(r.game).title if r.game in known else r.game,
                "status": r.status, "seat": r.seat, "outcome": outcome,
                "players": [seat_label(s.kind, s.bot, s.name, s.seat) for s in seats.get(r.code, [])],
                "created_at": _aware(r.created_at).isoformat(), "updated_at": _aware(r.updated_at).isoformat(),
            })
        out.sort(key=lambda g: g["status"] not in ("open", "playing"))  # stable: newest first within each
        return out

    async def games(self, key: str | None, limit: int = 200) -> list[dict[str, Any]]:
        """The games of a player's key, unfinished first, newest first within each."""
        return [] if key is None else await self.hub.db(self._games, key, limit)


def _json(text: str | None) -> Any:
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None
