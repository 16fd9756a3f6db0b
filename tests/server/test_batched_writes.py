"""Moves queued together share their statements (one executemany each): the rows, statuses and
checks come out as if each move had been written alone, and a failed check fails its move only."""

from __future__ import annotations

import asyncio
import os

import pytest
from sqlalchemy import event, select, text

from ludus.server import store as ops
from ludus.server.db import ActionRow, TableRow
from ludus.server.store import SeatData, StepFailed, Store, TableData, WriteFailed

from .helpers import pg_schema

PG = os.environ.get("LUDUS_TEST_POSTGRES_URL")


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        yield str(tmp_path / "w.db")
        return
    if not PG:
        pytest.skip("set LUDUS_TEST_POSTGRES_URL to test PostgreSQL")
    with pg_schema(PG) as u:
        yield u


def _table(code: str) -> TableData:
    return TableData(code=code, game="gorus-maximus", options={"players": 2}, seed=1, status="playing",
                     clock_seconds=None, listed=True, seats=[SeatData(0, "human", ""), SeatData(1, "bot", "random")])


# a check that changes the table's one row while its status is still 'playing' (like a lease fence)
CHECK = text("UPDATE ludus_tables SET updated_at = updated_at WHERE code = :code AND seed = :seed")


def _move(code: str, ply: int, final: bool = False, seed: int = 1) -> ops.Write:
    return ops.append_action(code, ply, ply % 2, {"play": ply}, False, "finished" if final else "playing",
                             {"scores": [1, 0], "winners": [0]} if final else None,
                             check=(CHECK, {"code": code, "seed": seed}))


def _statements(store: Store) -> list[str]:
    seen: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *a: seen.append(a[2].split()[0]))
    return seen


def test_a_group_of_moves_sends_each_statement_once_and_stores_what_each_would(url):
    store = Store(url)
    try:
        with store.engine.begin() as c:
            for code in ("AAA", "BBB", "CCC"):
                ops.create_table(_table(code))(c)
        seen = _statements(store)
        group = [_move("AAA", 0), _move("BBB", 0), _move("AAA", 1), _move("CCC", 0), _move("AAA", 2, final=True)]
        with store.engine.begin() as c:
            ops.run_writes(c, group)
        assert seen.count("INSERT") == 1  # five moves' rows in one executemany
        assert len(seen) <= 4  # insert, status, final status with the result, the checks
        with store.engine.connect() as c:
            rows = c.execute(select(ActionRow.table_code, ActionRow.ply).order_by(ActionRow.table_code,
                                                                                  ActionRow.ply)).all()
            status = dict(c.execute(select(TableRow.code, TableRow.status)).all())
            result = c.execute(select(TableRow.result).where(TableRow.code == "AAA")).scalar()
        assert [tuple(r) for r in rows] == [("AAA", 0), ("AAA", 1), ("AAA", 2), ("BBB", 0), ("CCC", 0)]
        assert status == {"AAA": "finished", "BBB": "playing", "CCC": "playing"}
        assert result is not None and '"winners": [0]' in result
    finally:
        store.close()


def test_a_failed_check_in_a_group_fails_that_move_alone(url):
    store = Store(url)
    try:
        with store.engine.begin() as c:
            for code in ("AAA", "BBB", "CCC"):
                ops.create_table(_table(code))(c)
        bad = _move("BBB", 0, seed=2)  # its check finds no row: as a lease gone to another worker
        with pytest.raises(StepFailed), store.engine.begin() as c:
            ops.run_writes(c, [_move("AAA", 0), bad])
        with store.engine.connect() as c:
            assert c.execute(select(ActionRow.ply)).all() == []  # the whole transaction rolled back

        async def write_all() -> list[BaseException | None]:
            futures = [store.write(op) for op in (_move("AAA", 0), bad, _move("CCC", 0))]
            return await asyncio.gather(*futures, return_exceptions=True)
        outcome = asyncio.run(write_all())
        assert outcome[0] is None and outcome[2] is None and isinstance(outcome[1], WriteFailed)
        with store.engine.connect() as c:
            assert sorted(c.execute(select(ActionRow.table_code)).scalars()) == ["AAA", "CCC"]
    finally:
        store.close()
