"""Ratings: rated tables, the OpenSkill update written with a game's final move, and the reads.

A rated table plays a game's standard rules (only the options its plugin's
:class:`~ludus.core.plugin.RatedPlay` lets it choose, usually the number of players), gives
no hints, and seats only players with an account in its human seats; bots may sit there and
carry public ratings of their own (one per bot kind). Each game's player counts fall into
*pools* (a duel, a full table...), and a rating belongs to one game's pool.

The update is OpenSkill's Plackett-Luce model, with the winners sharing first place and
everyone else sharing second (as the tournament harness ranks games, :mod:`ludus.sim.stats`).
It runs inside the transaction that stores the final move (:func:`rate_game`), so a crash
stores both or neither. Every rated seat's row (who it counted for, its place, the rating
after) is kept: in order, those rows are the rating history a chart draws, and what
:func:`rebuild` replays, with each game's outcome recomputed from its record, to check or
restore every stored rating.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.engine import Engine

from ..core.errors import LudusError, Message
from ..core.plugin import RatedPlay, RatingPool
from ..games import get_game, get_plugin, plugins
from ..i18n import N_
from ..sim.stats import winners_first
from .bots import offered_name
from .db import AccountRow, RatedSeatRow, RatingRow, utcnow
from .protocol import ProtocolError

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

    from ..core.game import Game, State
    from .live import Seat

__all__ = [
    "PROVISIONAL_GAMES", "SCALE", "RatedSeat", "RebuildReport", "bot_subject", "check_rated", "display",
    "forget_account", "leaderboard", "pool_of", "rate_game", "rated_play", "ratings_of", "rebuild",
]

SCALE = 60.0
"""Shown rating = 60 x OpenSkill's mu, so everyone starts at 1500 (mu 25), as players know from chess."""
PROVISIONAL_GAMES = 10
"""A rating is marked provisional until this many rated games in its pool."""
TOLERANCE = 1e-9


def _model() -> PlackettLuce:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def display(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A rating as players read it: 60 x mu, give or take two standard deviations (about 95 %)."""
    return {"rating": round(SCALE * mu), "deviation": round(2 * SCALE * sigma), "mu": mu, "sigma": sigma,
            "games": games, "provisional": games < PROVISIONAL_GAMES}


# --------------------------------------------------------------------------- rated tables
def rated_play(game: Game) -> RatedPlay | None:
    try:
        return get_plugin(game.name).rated
    except LudusError:  # a Game made outside the registry (tests): casual only
        return None


def pool_of(game: Game, seats: int) -> RatingPool | None:
    rated = rated_play(game)
    return rated.pool_for(seats) if rated else None


def _pools_said(pools: Sequence[RatingPool]) -> Message:
    """The player counts of a game's pools as a sentence says them ("2 players or 3 to 8 players")."""
    said = [Message(N_("{count} players"), count=p.min_seats) if p.min_seats == p.max_seats
            else Message(N_("{low} to {high} players"), low=p.min_seats, high=p.max_seats) for p in pools]
    out = said[0]
    for more in said[1:]:
        out = Message(N_("{first} or {second}"), first=out, second=more)
    return out


def check_rated(game: Game, options: Any, kinds: Sequence[str], hints: bool) -> RatingPool:
    """The pool a rated table with these options and seat kinds is rated in, or a ``not_rated``
    refusal saying what to change."""
    rated = rated_play(game)
    if rated is None:
        raise ProtocolError("not_rated", Message(N_("{game} has no rated play yet; create a casual table"),
                                                    game=Message(game.title)))
    if hints:
        raise ProtocolError("not_rated", Message(N_("rated tables give no hints; turn hints off or play a casual "
                                                    "table")))
    standard = game.parse_options({})
    for f in dataclasses.fields(standard):
        if f.name not in rated.choose and getattr(options, f.name) != getattr(standard, f.name):
            free = " and ".join(name.replace("_", "-") for name in rated.choose)
            option, value = f.name.replace("_", "-"), repr(getattr(standard, f.name))
            said = Message(N_("rated tables play {game}'s standard rules (only {free} can be chosen): {option} must "
                              "stay {value}; play variants at a casual table"), game=Message(game.title), free=free,
                           option=option, value=value) if free else \
                Message(N_("rated tables play {game}'s standard rules (no option can be changed): {option} must stay "
                           "{value}; play variants at a casual table"), game=Message(game.title), option=option,
                        value=value)
            raise ProtocolError("not_rated", said)
    n = len(kinds)
    pool = rated.pool_for(n)
    if pool is None:
        raise ProtocolError("not_rated", Message(N_("{game} is rated for {pools}, not for a table of {count}"),
                                                 game=Message(game.title), pools=_pools_said(rated.pools), count=n))
    if "human" not in kinds:
        alone = N_("a rated table needs at least one player's seat; bots alone are not rated")
        raise ProtocolError("not_rated", Message(alone))
    return pool


def bot_subject(kind: str) -> str:
    """The rating of a bot kind (an alias counts as the kind it names)."""
    return f"bot:{offered_name(kind)}"


@dataclass(frozen=True)
class RatedSeat:
    """A seat of a finished rated game: its key (a player's) or bot kind, and its place (1 = won)."""

    seat: int
    place: int
    key: str | None = None
    bot: str | None = None


def places(state: State) -> list[int]:
    """Each seat's place in a finished game, ranked as the tournament harness ranks it."""
    return winners_first(state.winners(), state.num_seats())


def rated_seats(seats: Sequence[Seat], state: State) -> list[RatedSeat]:
    """The seats of a finished game as the rating sees them. A player's seat counts for its account
    to the end, whoever played its last moves: leaving a rated game does not undo its rating."""
    return [RatedSeat(s.index, place, key=s.token_hash) if s.kind == "human" else
            RatedSeat(s.index, place, bot=s.bot) for s, place in zip(seats, places(state))]


def _update(model: PlackettLuce, before: Sequence[tuple[float, float]], ranks: Sequence[int]
            ) -> list[tuple[float, float]]:
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=list(ranks))]


@dataclass
class _Game:
    """One rated game's participants in seat order: subject, place, and whether its rating moves."""

    subjects: list[str]
    places: list[int]
    seats: list[int]

    counted: list[bool] = field(init=False)
    """A subject sitting twice (two bots of one kind) is rated once: at its first seat."""

    def __post_init__(self) -> None:
        self.counted = [subject not in self.subjects[:i] for i, subject in enumerate(self.subjects)]

    def play(self, model: PlackettLuce, current: dict[str, tuple[float, float, int]]
             ) -> list[tuple[float, float]]:
        """Each seat's rating after the game (``current`` maps subject -> (mu, sigma, games), updated)."""
        start = (model.mu, model.sigma, 0)
        before = [current.get(s, start) for s in self.subjects]
        after = _update(model, [(mu, sigma) for mu, sigma, _ in before], self.places)
        for subject, counted, (mu, sigma), (_, _, games) in zip(self.subjects, self.counted, after, before):
            if counted:
                current[subject] = (mu, sigma, games + 1)
        return [new if counted else (old[0], old[1]) for new, counted, old in zip(after, self.counted, before)]


def rate_game(c: Connection, code: str, pool: str, seats: Sequence[RatedSeat]) -> None:
    """Rate a finished game inside the transaction storing its final move (``pool``: game/pool key).

    Players' keys are read as accounts here, in the same transaction, so an account deleted
    meanwhile is not rated. Fewer than two rated seats: nothing happens."""
    keys = [s.key for s in seats if s.key]
    accounts = dict(c.execute(select(AccountRow.seat_key, AccountRow.id).where(AccountRow.seat_key.in_(keys)))
                    .all()) if keys else {}
    chosen = [(s, f"account:{accounts[s.key]}" if s.key else bot_subject(s.bot or ""))
              for s in seats if (s.key and s.key in accounts) or s.bot]
    if len(chosen) < 2:
        return
    game = _Game([subject for _, subject in chosen], [s.place for s, _ in chosen], [s.seat for s, _ in chosen])
    rows = c.execute(select(RatingRow).where(RatingRow.pool == pool, RatingRow.subject.in_(set(game.subjects)))
                     .with_for_update()).all()
    current = {r.subject: (r.mu, r.sigma, r.games) for r in rows}
    known = set(current)
    model = _model()
    after = game.play(model, current)
    now = utcnow()
    for subject in dict.fromkeys(game.subjects):
        mu, sigma, games = current[subject]
        if subject in known:
            c.execute(update(RatingRow).where(RatingRow.pool == pool, RatingRow.subject == subject)
                      .values(mu=mu, sigma=sigma, games=games, updated_at=now))
        else:
            account = int(subject.split(":", 1)[1]) if subject.startswith("account:") else None
            c.execute(insert(RatingRow).values(pool=pool, subject=subject, account_id=account, mu=mu, sigma=sigma,
                                               games=games, updated_at=now))
    c.execute(insert(RatedSeatRow), [
        {"table_code": code, "seat": seat, "pool": pool, "subject": subject, "place": place, "counted": counted,
         "mu": mu, "sigma": sigma, "created_at": now}
        for seat, subject, place, counted, (mu, sigma) in zip(game.seats, game.subjects, game.places, game.counted,
                                                               after)])


def forget_account(c: Connection, account_id: int) -> None:
    """An account's deletion (in its transaction): its ratings go; its rated games stay, counted for
    an anonymous participant, so the other players' ratings can still be rebuilt."""
    c.execute(update(RatedSeatRow).where(RatedSeatRow.subject == f"account:{account_id}")
              .values(subject=f"gone:{secrets.token_hex(8)}"))
    c.execute(delete(RatingRow).where(RatingRow.account_id == account_id))


# --------------------------------------------------------------------------- reads
def _aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _pool_label(pool: str) -> tuple[str, str, str, str]:
    """(game, title, pool key, label) of a stored pool id; an unknown one keeps its raw name."""
    name, _, key = pool.partition("/")
    try:
        game = get_game(name)
        rated = get_plugin(name).rated
    except LudusError:
        return name, name, key, key
    label = next((p.label for p in rated.pools if p.key == key), key) if rated else key
    return name, game.title, key, label


def _bot_name(subject: str) -> str:
    return f"{subject.split(':', 1)[1].capitalize()} bot"


def _who(subject: str, name: str | None) -> dict[str, Any] | None:
    """Who a rating belongs to (``name``: the account's, if it is an account's), or None if gone."""
    kind, _, rest = subject.partition(":")
    if kind == "bot":
        return {"name": _bot_name(subject), "kind": "bot", "bot": rest, "href": f"/bots/{rest}"}
    if kind == "account" and name:
        return {"name": name, "kind": "account", "bot": None, "href": f"/players/{name}"}
    return None


def leaderboard(engine: Engine, game_name: str, limit: int = 100) -> dict[str, Any]:
    """Every pool of a game with its players: established ones by rating, then the provisional."""
    game = get_game(game_name)
    rated = get_plugin(game_name).rated
    if rated is None:
        raise ProtocolError("no_game", Message(N_("{game} has no rated play"), game=Message(game.title)))
    out = []
    with engine.connect() as c:
        for pool in rated.pools:
            rows = c.execute(select(RatingRow.subject, RatingRow.account_id, RatingRow.mu, RatingRow.sigma,
                                    RatingRow.games, AccountRow.name)
                             .outerjoin(AccountRow, AccountRow.id == RatingRow.account_id)
                             .where(RatingRow.pool == f"{game_name}/{pool.key}")).all()
            entries = []
            for row in rows:
                who = _who(row.subject, row.name)
                if who is not None:
                    entries.append({**who, **display(row.mu, row.sigma, row.games)})
            entries.sort(key=lambda e: (e["provisional"], -e["mu"], e["name"].casefold()))
            rank = 0
            for entry in entries:
                entry["rank"] = None if entry["provisional"] else (rank := rank + 1)
            out.append({"pool": pool.key, "label": pool.label, "players": entries[:limit]})
    return {"game": game_name, "title": game.title, "pools": out}


def ratings_of(engine: Engine, subject: str) -> list[dict[str, Any]]:
    """A player's (or bot's) ratings in every pool they played, each with its history, oldest first."""
    with engine.connect() as c:
        rows = c.execute(select(RatingRow).where(RatingRow.subject == subject)).all()
        history = c.execute(select(RatedSeatRow).where(RatedSeatRow.subject == subject, RatedSeatRow.counted)
                            .order_by(RatedSeatRow.id)).all()
        codes = {h.table_code for h in history}
        sizes = dict(c.execute(select(RatedSeatRow.table_code, func.count()).where(RatedSeatRow.table_code.in_(codes))
                               .group_by(RatedSeatRow.table_code)).all()) if codes else {}
    order = {name: i for i, name in enumerate(plugins())}
    out = []
    for row in rows:
        game, title, key, label = _pool_label(row.pool)
        points = [{"table": h.table_code, "at": _aware(h.created_at).isoformat(), "place": h.place,
                   "players": sizes.get(h.table_code, 0), "rating": round(SCALE * h.mu),
                   "deviation": round(2 * SCALE * h.sigma)} for h in history if h.pool == row.pool]
        out.append({"game": game, "title": title, "pool": key, "label": label,
                    **display(row.mu, row.sigma, row.games), "history": points})
    out.sort(key=lambda r: (order.get(r["game"], len(order)), r["pool"]))
    return out


# --------------------------------------------------------------------------- rebuilding from the records
@dataclass
class RebuildReport:
    games: int = 0
    seats: int = 0
    ratings: int = 0
    problems: list[str] = field(default_factory=list)
    written: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems


def _replayed_places(c: Connection, code: str) -> list[int]:
    """The places of a stored game, from its record replayed through the rules."""
    from .store import read_table

    data = read_table(c, code)
    if data is None:
        raise LudusError(f"table {code} is rated but not stored")
    game = get_game(data.game)
    state = game.new_initial_state(game.parse_stored_options(data.options), seed=data.seed)
    for seat, raw, _ in data.actions:
        state.apply(game.action_from_json(raw), seat)
    if not state.is_terminal():
        raise LudusError(f"table {code} is rated but its record does not reach the end of the game")
    return places(state)


def rebuild(engine: Engine, write: bool = False) -> RebuildReport:
    """Recompute every rating from scratch: each rated game in the order it was rated, its places
    from its record replayed, the update as at the time. Compares with what is stored (and, with
    ``write``, stores the recomputed values instead, in one transaction)."""
    report = RebuildReport()
    model = _model()
    current: dict[str, dict[str, tuple[float, float, int]]] = {}
    fixes: list[tuple[int, float, float]] = []
    with engine.begin() as c:
        stored_seats = c.execute(select(RatedSeatRow).order_by(RatedSeatRow.id)).all()
        games: dict[str, list[Any]] = {}
        for row in stored_seats:
            games.setdefault(row.table_code, []).append(row)
        for code, rows in games.items():
            rows.sort(key=lambda r: r.seat)
            pool = rows[0].pool
            try:
                replayed = _replayed_places(c, code)
            except (LudusError, KeyError, ValueError) as exc:
                report.problems.append(str(exc))
                continue
            game = _Game([r.subject for r in rows], [replayed[r.seat] for r in rows], [r.seat for r in rows])
            for r, place, counted in zip(rows, game.places, game.counted):
                if r.place != place or bool(r.counted) != counted:
                    report.problems.append(f"table {code} seat {r.seat + 1}: stored place {r.place} "
                                           f"(counted {bool(r.counted)}), the record gives {place} ({counted})")
            after = game.play(model, current.setdefault(pool, {}))
            for r, (mu, sigma) in zip(rows, after):
                if abs(r.mu - mu) > TOLERANCE or abs(r.sigma - sigma) > TOLERANCE:
                    report.problems.append(f"table {code} seat {r.seat + 1}: stored {r.mu:.6f}/{r.sigma:.6f}, "
                                           f"recomputed {mu:.6f}/{sigma:.6f}")
                    fixes.append((r.id, mu, sigma))
            report.games += 1
            report.seats += len(rows)
        stored = {(r.pool, r.subject): r for r in c.execute(select(RatingRow)).all()}
        wanted = {(pool, subject): value for pool, values in current.items() for subject, value in values.items()
                  if not subject.startswith("gone:")}
        for key in sorted(set(stored) | set(wanted)):
            have, want = stored.get(key), wanted.get(key)
            if want is None:
                report.problems.append(f"{key[1]} in {key[0]}: stored but no rated game gives it")
            elif have is None:
                report.problems.append(f"{key[1]} in {key[0]}: missing (the games give {want[0]:.6f}/{want[1]:.6f})")
            elif (abs(have.mu - want[0]) > TOLERANCE or abs(have.sigma - want[1]) > TOLERANCE
                  or have.games != want[2]):
                report.problems.append(f"{key[1]} in {key[0]}: stored {have.mu:.6f}/{have.sigma:.6f} after "
                                       f"{have.games} game(s), recomputed {want[0]:.6f}/{want[1]:.6f} after "
                                       f"{want[2]}")
        report.ratings = len(wanted)
        if write and report.problems:
            _write_rebuilt(c, wanted, fixes)
            report.written = True
    return report


def _write_rebuilt(c: Connection, wanted: dict[tuple[str, str], tuple[float, float, int]],
                   fixes: Iterable[tuple[int, float, float]]) -> None:
    now = utcnow()
    accounts = set(c.execute(select(AccountRow.id)).scalars())
    c.execute(delete(RatingRow))
    rows = []
    for (pool, subject), (mu, sigma, games) in wanted.items():
        account = int(subject.split(":", 1)[1]) if subject.startswith("account:") else None
        if account is not None and account not in accounts:
            continue
        rows.append({"pool": pool, "subject": subject, "account_id": account, "mu": mu, "sigma": sigma,
                     "games": games, "updated_at": now})
    if rows:
        c.execute(insert(RatingRow), rows)
    for row_id, mu, sigma in fixes:
        c.execute(update(RatedSeatRow).where(RatedSeatRow.id == row_id).values(mu=mu, sigma=sigma))

