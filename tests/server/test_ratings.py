"""Ratings: rated tables seat only account holders with the standard rules, their final move rates
players and bots in one transaction, and every stored rating can be rebuilt from the records."""

from __future__ import annotations

import signal
import sys

import httpx
import pytest
from openskill.models import PlackettLuce
from sqlalchemy import func, select, update

from ludus.cli.main import main as ludus_main
from ludus.server import ratings
from ludus.server.db import RatedSeatRow, RatingRow, TableRow, make_engine
from ludus.server.store import Store

from .helpers import LiveServer, Player, is_view, migrate_to, pg_schema, play_until_done, remote, serve_process
from .test_accounts import PASSWORD, signup

STANDARD_MU, STANDARD_SIGMA = PlackettLuce().mu, PlackettLuce().sigma


def rated_table(p: Player, game: str = "gladius", seats: tuple[str, ...] = ("human", "bot"), bots: tuple = (),
                **extra) -> dict:
    """A rated table with the creator in the first human seat (``bots``: each bot seat's kind)."""
    kinds = iter(bots)
    body = {"game": game, "options": extra.pop("options", {}), "name": "x", "rated": True,
            "seats": [{"kind": k} if k == "human" else {"kind": "bot", "bot": next(kinds, "random")} for k in seats],
            **extra}
    r = p.post("/api/tables", body)
    assert r.status_code == 201, r.text
    return r.json()


def play_out(p: Player, code: str) -> dict:
    ws = p.ws(code)
    try:
        ws.until(is_view)
        return play_until_done(ws, timeout=120)
    finally:
        ws.close()


def rows(db: str, model: type) -> list:
    engine = make_engine(db)
    try:
        with engine.connect() as c:
            return list(c.execute(select(model)).all())
    finally:
        engine.dispose()


def rebuilt(db: str, write: bool = False) -> ratings.RebuildReport:
    engine = make_engine(db)
    try:
        return ratings.rebuild(engine, write=write)
    finally:
        engine.dispose()


def test_a_rated_game_against_a_bot_rates_the_account_and_the_bot_by_the_result(server, player):
    me = signup(player)["account"]
    table = rated_table(player)
    assert (table["rated"], table["pool"], table["pool_label"]) == (True, "duel", "2 players")
    assert table["you"] == 0 and table["status"] == "playing"
    final = play_out(player, table["code"])
    won = 0 in final["result"]["winners"]

    mine = player.get("/api/me").json()["ratings"]
    assert [(r["game"], r["pool"], r["games"], r["provisional"]) for r in mine] == [("gladius", "duel", 1, True)]
    # the update is OpenSkill's with the winners first: recomputed here from the result alone
    ranks = [1 if s in final["result"]["winners"] else 2 for s in range(2)]
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
    assert mine[0]["mu"] == pytest.approx(expected[0][0].mu) and mine[0]["sigma"] == pytest.approx(expected[0][0].sigma)
    assert (mine[0]["mu"] > STANDARD_MU) == (won and len(final["result"]["winners"]) == 1)
    assert mine[0]["rating"] == round(60 * mine[0]["mu"]) and mine[0]["deviation"] == round(120 * mine[0]["sigma"])
    assert [(h["table"], h["players"], h["place"]) for h in mine[0]["history"]] == [(table["code"], 2, ranks[0])]

    board = player.get("/api/ratings/gladius").json()
    players = {e["name"]: e for e in board["pools"][0]["players"]}
    assert set(players) == {me["name"], "Random bot"}
    assert players["Random bot"]["href"] == "/bots/random" and players[me["name"]]["href"] == f"/players/{me['name']}"
    assert all(e["provisional"] and e["rank"] is None for e in players.values())
    assert players["Random bot"]["mu"] == pytest.approx(expected[1][0].mu)

    page = player.get(f"/api/players/{me['name'].upper()}").json()  # any case finds the account
    assert page["name"] == me["name"] and page["ratings"] == mine
    bot = player.get("/api/bots/random").json()
    assert bot["kind"] == "bot" and bot["ratings"][0]["games"] == 1
    assert rebuilt(server.config.database).ok


def test_rated_tables_refuse_what_would_make_a_rating_unfair_and_change_nothing(server, player, other):
    def create(p: Player, **body) -> httpx.Response:
        base = {"game": "gladius", "seats": [{"kind": "human"}, {"kind": "bot"}], "name": "x", "rated": True}
        return p.post("/api/tables", {**base, **body})

    r = create(player)
    assert (r.status_code, r.json()["code"]) == (401, "not_logged_in")
    signup(player)
    refusals = [
        ({"options": {"hit-points": 12}}, "hit-points must stay 0"),
        ({"options": {"solo": True}, "seats": [{"kind": "human"}]}, "solo must stay False"),
        ({"hints": True}, "no hints"),
        ({"seats": [{"kind": "bot"}, {"kind": "bot"}], "name": None}, "bots alone are not rated"),
        ({"game": "gorus-maximus", "options": {"players": 1}, "seats": [{"kind": "human"}]}, "not for a table of 1"),
        ({"game": "gorus-maximus", "options": {"players": 4, "teams": "2v2"},
          "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3}, "teams must stay"),
        ({"rated": "yes"}, None),
    ]
    for body, words in refusals:
        r = create(player, **body)
        assert r.status_code in (400, 422), (body, r.text)
        if words:
            assert r.json()["code"] == "not_rated" and words in r.json()["error"], (body, r.json())
    assert player.get("/api/me").json()["games"] == []
    assert rows(server.config.database, TableRow) == []

    # players may choose the number of players: a 3-player Gorus Maximus is rated in the table pool
    table = rated_table(player, "gorus-maximus", ("human", "human", "bot"), options={"players": 3})
    assert (table["pool"], table["status"]) == ("table", "open")
    r = other.post(f"/api/tables/{table['code']}/join", {"name": "Anon"})
    assert (r.status_code, r.json()["code"]) == (403, "account_needed")
    assert other.get(f"/api/tables/{table['code']}").json()["seats"][1]["taken"] is False
    signup(other, "Marcus")
    r = other.post(f"/api/tables/{table['code']}/join", {"name": "ignored"})
    assert r.status_code == 200 and r.json()["you"] == 1 and r.json()["status"] == "playing"
    assert r.json()["names"][:2] == ["Livia", "Marcus"]

    for path, code in (("/api/ratings/nope", "no_game"), ("/api/players/nobody", "no_player"),
                       ("/api/bots/nope", "no_player"), ("/api/ratings/gladius?limit=0", None)):
        r = player.get(path)
        assert r.status_code in (404, 422) and "error" in r.json(), path
        if code:
            assert r.json()["code"] == code


def test_bots_of_one_kind_seated_twice_are_rated_once_and_the_rebuild_matches_then_repairs(server, player):
    signup(player)
    for _ in range(2):
        play_out(player, rated_table(player, "circus-maximus", ("human", "bot", "bot"), bots=("random", "random"),
                                     options={"players": 3})["code"])
    play_out(player, rated_table(player, "gladius", bots=("heuristic",))["code"])
    db = server.config.database
    seats = rows(db, RatedSeatRow)
    assert len(seats) == 3 + 3 + 2
    assert [s.counted for s in seats if s.pool == "circus-maximus/table"] == [True, True, False] * 2
    stored = {(r.pool, r.subject): r.games for r in rows(db, RatingRow)}
    assert stored == {("circus-maximus/table", "account:1"): 2, ("circus-maximus/table", "bot:random"): 2,
                      ("gladius/duel", "account:1"): 1, ("gladius/duel", "bot:heuristic"): 1}
    report = rebuilt(db)
    assert report.ok and (report.games, report.seats, report.ratings) == (3, 8, 4)

    engine = make_engine(db)
    with engine.begin() as c:  # a stored value no game gives
        c.execute(update(RatingRow).where(RatingRow.subject == "bot:random").values(mu=40.0))
    engine.dispose()
    report = rebuilt(db)
    assert not report.ok and any("bot:random" in p and "40.000000" in p for p in report.problems)
    assert rebuilt(db, write=True).written
    assert rebuilt(db).ok
    assert player.get("/api/bots/random").json()["ratings"][0]["mu"] != 40.0


def test_the_ratings_command_checks_and_repairs(server, player, capsys):
    signup(player)
    play_out(player, rated_table(player)["code"])
    db = server.config.database
    server.stop()  # the command takes the SQLite file with --write, as a server would
    assert ludus_main(["ratings", "--database", db]) == 0
    assert "Every stored rating matches" in capsys.readouterr().out
    engine = make_engine(db)
    with engine.begin() as c:
        c.execute(update(RatingRow).values(games=7))
    engine.dispose()
    assert ludus_main(["ratings", "--database", db]) == 1
    assert "--write" in capsys.readouterr().out
    assert ludus_main(["ratings", "--database", db, "--write"]) == 0
    assert ludus_main(["ratings", "--database", db]) == 0


def test_deleting_an_account_removes_its_ratings_and_the_others_still_rebuild(server, player, other):
    signup(player)
    signup(other, "Marcus")
    for p in (player, other):
        play_out(p, rated_table(p, bots=("random",))["code"])
    db = server.config.database
    r = player.post("/api/account/delete", {"password": PASSWORD})
    assert r.status_code == 200
    subjects = {r.subject for r in rows(db, RatingRow)}
    assert subjects == {"account:2", "bot:random"}
    assert not any(s.subject == "account:1" for s in rows(db, RatedSeatRow))
    assert other.get("/api/players/Livia").status_code == 404
    assert rebuilt(db).ok
    board = other.get("/api/ratings/gladius").json()["pools"][0]["players"]
    assert {e["name"] for e in board} == {"Marcus", "Random bot"}


def test_a_database_of_the_previous_version_upgrades_with_casual_tables(tmp_path):
    """0004's schema with a table in it: the upgrade marks it casual and adds the rating tables."""
    db = f"sqlite:///{tmp_path / 'old.db'}"
    migrate_to(db, "0004")
    engine = make_engine(db)
    with engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO ludus_tables (code, game, options, seed, status, clock_seconds, listed, "
                             "hints, created_at, updated_at) VALUES ('OLD234', 'gladius', '{}', 7, 'finished', NULL, "
                             "1, 0, '2026-01-01', '2026-01-01')")
    engine.dispose()
    store = Store(db)
    try:
        data = store.load_table("OLD234")
        assert data is not None and data.rated is False
        with store.engine.connect() as c:
            assert c.execute(select(func.count()).select_from(RatingRow)).scalar_one() == 0
    finally:
        store.close()


# --------------------------------------------------------------------------- a crash inside the final move
CRASHING_SERVER = """
import os, signal, sys
import ludus.server.ratings as ratings
real = ratings.rate_game
def crash(*args, **kwargs):
    real(*args, **kwargs)  # the rating rows are written, the final move's transaction is not committed
    os.kill(os.getpid(), signal.SIGKILL)
ratings.rate_game = crash
from ludus.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_server_killed_inside_the_final_move_stores_neither_the_move_nor_the_rating(tmp_path):
    """A real server process dies (SIGKILL) after writing the ratings but before committing the final
    move with them; the restarted server has the game one move short and unrated, plays it out, and
    rates it exactly once."""
    db = tmp_path / "crash.db"
    output: list[str] = []
    proc, url = serve_process(db, output, command=[sys.executable, "-c", CRASHING_SERVER])
    port = int(url.rsplit(":", 1)[1])
    p = Player(remote(url))
    try:
        signup(p)
        code = rated_table(p, "gorus-maximus", options={"players": 2}, bots=("random",))["code"]
        ws = p.ws(code)
        ws.until(is_view)
        with pytest.raises(Exception):  # noqa: B017 - the connection drops when the process dies
            play_until_done(ws, timeout=120)
        assert proc.wait(timeout=30) == -signal.SIGKILL
        engine = make_engine(str(db))
        with engine.connect() as c:
            assert c.execute(select(TableRow.status).where(TableRow.code == code)).scalar_one() == "playing"
            assert c.execute(select(func.count()).select_from(RatingRow)).scalar_one() == 0
            assert c.execute(select(func.count()).select_from(RatedSeatRow)).scalar_one() == 0
        engine.dispose()

        proc, url = serve_process(db, output, port)
        ws = p.ws(code)
        ws.until(is_view)
        final = play_until_done(ws, timeout=120)
        ws.close()
        assert final["terminal"]
        seats = rows(f"sqlite:///{db}", RatedSeatRow)
        assert sorted((s.table_code, s.seat) for s in seats) == [(code, 0), (code, 1)]
        assert {r.games for r in rows(f"sqlite:///{db}", RatingRow)} == {1}
    finally:
        p.close()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
    assert rebuilt(f"sqlite:///{db}").ok, "".join(output[-30:])


def test_postgresql_rates_in_the_same_transaction():
    import os

    url = os.environ.get("LUDUS_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("set LUDUS_TEST_POSTGRES_URL to test PostgreSQL")
    from ludus.server.config import ServerConfig

    with pg_schema(url) as url:
        server = LiveServer(ServerConfig(database=url, bot_delay=0.0, disconnect_grace=30.0, min_clock=1))
        p = Player(server)
        try:
            signup(p)
            for _ in range(2):
                play_out(p, rated_table(p, "gorus-arena", ("human", "bot", "bot"), bots=("random", "heuristic"),
                                        options={"players": 3})["code"])
            mine = p.get("/api/me").json()["ratings"]
            assert [(r["game"], r["pool"], r["games"], len(r["history"])) for r in mine] == [
                ("gorus-arena", "table", 2, 2)]
            assert rebuilt(url).ok
        finally:
            p.close()
            server.stop()
