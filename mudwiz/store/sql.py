"""The store's SQL, stated once for both databases: ``SQLStore`` holds every ``Store`` method, the game records
and ratings here and the rest in a part each (accounts, roles and bans in accounts_sql.py, the table journal in
journal_sql.py, the meeting place in meeting.py), and a small ``Dialect`` (dialect.py) names the few things SQLite
and PostgreSQL truly write differently. ``sqlite.py`` and ``postgres.py`` keep only what is theirs: connecting,
locking, transactions, refusing a database that is not theirs to use, and their ``MIGRATIONS``.

Statements are written with ``?`` placeholders (``Dialect.sql`` turns them into psycopg's ``%s``) in the SQL both
understand: ``INSERT ... ON CONFLICT ... DO UPDATE`` (SQLite 3.24+), ``RETURNING`` (3.35+), ``true``/``false``,
double-quoted identifiers. What differs is a field of the ``Dialect``: how a list is matched (``IN (?, ?)``
against ``= ANY(%s)`` with one array), the larger of two values (``max`` against ``greatest``), how text is
ordered byte for byte (SQLite's default; ``COLLATE "C"`` on PostgreSQL, whose default follows the locale), the
driver's error for a duplicate key, and how a transaction keeps other writers of a table waiting (SQLite's write
transactions do so by themselves: one file, one writer).

The schema's first five versions stay per backend, as they were applied: their DDL truly differs (INTEGER PRIMARY
KEY against an identity column; REAL, INTEGER flags against DOUBLE PRECISION, BOOLEAN), and an applied version is
never edited. A later version both can state alike is written once, in the part it is of (the journal's
``TABLE_NODES``), and appended to both.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import closing
from typing import Any

from mudwiz.store.accounts_sql import AccountsSQL
from mudwiz.store.base import GameRecord, GameSummary, RateGame, Rating, game_record, held_key, json_object, summaries
from mudwiz.store.competition import TournamentsSQL
from mudwiz.store.dialect import DB, compact
from mudwiz.store.journal_sql import JournalSQL
from mudwiz.store.meeting import MeetingSQL
from mudwiz.store.seasons_sql import SeasonsSQL

BIGINT = range(-2**63, 2**63)  # the ids both databases can hold

RATING_COLUMNS = ("SELECT r.name, r.game, r.mu, r.sigma, r.shown, r.games, r.updated, (SELECT count(*) FROM ratings h "
                  "WHERE h.game = r.game AND h.shown > r.shown) + 1 FROM ratings r")
GAME_COLUMNS = "SELECT game, options, table_options, seed, actions, standings, outcome, started, ended FROM games"


class SQLStore(JournalSQL, AccountsSQL, MeetingSQL, TournamentsSQL, SeasonsSQL):
    """Every ``Store`` method, in SQL both databases run: the game records and ratings here, the rest in its parts
    (the journal, accounts, the meeting place); a subclass gives the connections (``SQLHooks``'s hooks)."""

    # ------------------------------------------------------------ game records

    def _mark_recorded(self, db: DB, record: GameRecord) -> None:
        """Mark the table's journaled game recorded if it is ``record``'s game: the same seed and start. The seed
        alone is not enough: a server given ``MUDWIZ_SEED`` deals the same seeds again after a restart, and a
        record still on its way then would mark the table's next game, whose own record a crash could then lose.
        The game is named by its first journal row (``moves_from``, new at every start), so that one started in
        between is left alone. (A game journaled before its start was kept has none to compare: seed alone.)"""
        rows = db.execute(self._sql("SELECT game, moves_from FROM tables WHERE id = ? AND seed = ?"),
                          (record.table_id, record.seed)).fetchall()
        if not rows or rows[0][0] is None:
            return
        game, moves_from = rows[0]
        if json_object(game).get("started", record.started) != record.started:
            return
        db.execute(self._sql("UPDATE tables SET recorded = true WHERE id = ? AND moves_from = ?"),
                   (record.table_id, moves_from))

    def record_game(self, record: GameRecord, rate: RateGame | None = None) -> int:
        """Insert the record; and mark its table's journaled game recorded in the same transaction (if that table
        still journals this game, by its seed and start: the host may have started the next one while the record was
        queued), so that a restart neither loses the record nor makes it twice; and ``rate``'s rating changes with
        them, and the season points of its registered people (``SeasonsSQL._season_game``)."""
        with self._transaction() as db:
            if record.table_id is not None:
                self._mark_recorded(db, record)
                db.execute(self._sql("DELETE FROM held_records WHERE key = ?"), (held_key(record),))
            [(game_id,)] = db.execute(self._sql(
                "INSERT INTO games (game, options, table_options, seed, actions, standings, outcome, started, "
                "ended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"),
                (record.game, json.dumps(record.options), json.dumps(record.table_options), record.seed,
                 compact(record.actions), None if record.standings is None else json.dumps(record.standings),
                 record.outcome, record.started, record.ended),
            ).fetchall()
            with closing(db.cursor()) as cursor:
                cursor.executemany(
                    self._sql("INSERT INTO game_seats (game_id, seat, name, name_key, kind) VALUES (?, ?, ?, ?, ?)"),
                    [(game_id, i, s["name"], s["name"].lower(), s["kind"]) for i, s in enumerate(record.seats)],
                )
            if rate is not None:
                self._rate(db, record, rate)
        return int(game_id)

    def _rate(self, db: DB, record: GameRecord, rate: RateGame) -> None:
        """Inside ``record_game``'s transaction: the seats' ratings and accounts in, ``rate``'s ratings out."""
        keys = sorted({s["name"].lower() for s in record.seats})
        known, known_args = self.dialect.one_of("name_key", keys)
        registered = {k for (k,) in db.execute(self._sql(f"SELECT name_key FROM accounts WHERE {known}"), known_args)}
        if not registered:  # guests and bots only: no rating changes (``RateGame``), and the model is not run
            return
        self._season_game(db, record, registered)
        rated, rated_args = self.dialect.one_of("r.name_key", keys)
        current = {r.name.lower(): r for r in self._ratings(db, f"r.game = ? AND {rated}", (record.game, *rated_args))}
        with closing(db.cursor()) as cursor:
            cursor.executemany(self._sql(
                "INSERT INTO ratings (name_key, game, name, mu, sigma, shown, games, updated) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name_key, game) DO UPDATE SET "
                "name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, shown = excluded.shown, "
                "games = excluded.games, updated = excluded.updated"),
                [(r.name.lower(), r.game, r.name, r.mu, r.sigma, r.shown, r.games, r.updated)
                 for r in rate(record, current, registered)],
            )

    def _ratings(self, db: DB, where: str, args: Sequence[Any], tail: str = "") -> list[Rating]:
        """Ratings rows with their rank in their game (1 + how many there are shown higher: ties share one)."""
        rows = db.execute(self._sql(f"{RATING_COLUMNS} WHERE {where} {tail}"), tuple(args)).fetchall()
        return [Rating(name, game, mu, sigma, shown, games, updated, rank=int(rank))
                for name, game, mu, sigma, shown, games, updated, rank in rows]

    def _seats(self, db: DB, ids: Sequence[int]) -> dict[int, list[dict[str, str]]]:
        seats: dict[int, list[dict[str, str]]] = {i: [] for i in ids}
        among, args = self.dialect.one_of("game_id", ids)
        for game_id, name, kind in db.execute(
                self._sql(f"SELECT game_id, name, kind FROM game_seats WHERE {among} ORDER BY game_id, seat"), args):
            seats[game_id].append({"name": name, "kind": kind})
        return seats

    def games_of(self, name: str, limit: int = 10) -> list[GameSummary]:
        with self._reading() as db:
            rows = db.execute(self._sql(
                "SELECT g.id, g.game, g.standings, g.outcome, g.ended FROM game_seats s JOIN games g "
                "ON g.id = s.game_id WHERE s.name_key = ? ORDER BY g.id DESC LIMIT ?"), (name.lower(), limit),
            ).fetchall()
            seats = self._seats(db, [r[0] for r in rows])
        return summaries(rows, seats)

    def game(self, game_id: int) -> GameRecord | None:
        if game_id not in BIGINT:
            return None  # no such game (rather than the driver's out-of-range error)
        with self._reading() as db:
            row = db.execute(self._sql(f"{GAME_COLUMNS} WHERE id = ?"), (game_id,)).fetchone()
            if row is None:
                return None
            seats = self._seats(db, [game_id])[game_id]
        return game_record(game_id, row, seats)

    # ------------------------------------------------------------ ratings

    def rating(self, name: str, game: str) -> Rating | None:
        with self._reading() as db:
            found = self._ratings(db, "r.name_key = ? AND r.game = ?", (name.lower(), game))
        return found[0] if found else None

    def ratings_of(self, name: str) -> list[Rating]:
        return self.ratings_of_all([name])[name.lower()]

    def ratings_of_all(self, names: Sequence[str]) -> dict[str, list[Rating]]:
        found: dict[str, list[Rating]] = {name.lower(): [] for name in names}
        if not found:
            return found
        among, args = self.dialect.one_of("r.name_key", list(found))
        with self._reading() as db:
            for rating in self._ratings(db, among, args, "ORDER BY r.game{text_order}"):
                found[rating.name.lower()].append(rating)
        return found

    def top(self, game: str, limit: int = 10) -> list[Rating]:
        with self._reading() as db:
            return self._ratings(db, "r.game = ?", (game, limit),
                                 "ORDER BY r.shown DESC, r.games DESC, r.name_key{text_order} LIMIT ?")
