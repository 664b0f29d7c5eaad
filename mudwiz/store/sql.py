"""The store's SQL, stated once for both databases: ``SQLStore`` holds every statement and every ``Store`` method
(records, ratings, accounts, roles, bans, the table journal), and a small ``Dialect`` names the few things SQLite
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
never edited. A later version both can state alike is written once here (``TABLE_NODES``) and appended to both.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from contextlib import AbstractContextManager, closing
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mudwiz.render.jsonl import dumps
from mudwiz.store.base import (
    Account,
    AccountExists,
    Ban,
    Claim,
    GameRecord,
    GameSummary,
    JournaledTable,
    LooksRegistered,
    RateGame,
    Rating,
    StoreError,
    TableMove,
    game_record,
    held_key,
    held_record,
    journaled_tables,
    json_object,
    summaries,
)
from mudwiz.store.meeting import MeetingSQL

DB = Any  # a DB-API connection, sqlite3's or psycopg's: both have execute (-> a cursor) and cursor()

# 6: several processes on one database: a journaled table's host, ``node`` (MUDWIZ_NODE; '' the
# single-process server, as every table journaled before), and the next table number to hand out, one row
# (started above every table journaled so far), so that processes draw disjoint blocks of numbers.
TABLE_NODES: tuple[str, ...] = (
    "ALTER TABLE tables ADD COLUMN node TEXT NOT NULL DEFAULT ''",
    "CREATE INDEX tables_by_node ON tables (node, id)",
    "CREATE TABLE table_ids (next_id BIGINT NOT NULL)",
    "INSERT INTO table_ids (next_id) SELECT coalesce(max(id), 0) + 1 FROM tables",
)


def append_only_moves(seq: str) -> tuple[str, ...]:
    """Version 7: the journal's moves in the order they were written, ``seq`` (this database's auto-numbered key)
    first, with no index on the table: a turn's moves, one for each of up to hundreds of tables, were a B-tree
    insert each at a page of its own (the key was the table's), most of a group commit's time and 150 KB of WAL
    a commit; now they fill the last page or two. A table's current game is its rows from
    ``tables.moves_from`` on, so a new game forgets the last by moving that mark, not by a DELETE that needs
    the table's rows found; rows left behind (earlier games', closed tables') are pruned later, off the reactor
    (``prune_journal``). A row written again (after a failed group commit) is read as its latest."""
    return (
        f"""CREATE TABLE table_moves_v7 (
            seq {seq},
            table_id BIGINT NOT NULL,
            n INTEGER NOT NULL,
            seat INTEGER,
            action TEXT NOT NULL,
            t DOUBLE PRECISION NOT NULL
        )""",
        "INSERT INTO table_moves_v7 (table_id, n, seat, action, t) "
        "SELECT table_id, n, seat, action, t FROM table_moves ORDER BY table_id, n",
        "DROP TABLE table_moves",
        "ALTER TABLE table_moves_v7 RENAME TO table_moves",
        "ALTER TABLE tables ADD COLUMN moves_from BIGINT NOT NULL DEFAULT 0",  # 0: every row kept so far is current
    )


# 8: the records held for the store: a game's record journaled as it ends, on the reactor thread before the record
# goes to the store's thread, and deleted in the transaction that stores it. The host may start the next game
# (which forgets the last in ``tables``) or close the table before that thread has written the record; a crash
# then lost the game. Now a restart stores whatever is still held, once. The record is kept without its actions:
# they are the journal's rows of that table from ``moves_from`` up to ``moves_until`` (all written before the
# hold), which the pruning leaves while it is held; a whole Wizard game's actions are ~22 KB of JSON, and encoding
# and writing them again took the reactor ~0.2-0.4 ms a game end.
HELD_RECORDS: tuple[str, ...] = (
    """CREATE TABLE held_records (
        key TEXT PRIMARY KEY,
        table_id BIGINT NOT NULL,
        node TEXT NOT NULL DEFAULT '',
        record TEXT NOT NULL,
        moves_from BIGINT NOT NULL,
        moves_until BIGINT NOT NULL
    )""",
    # the pruning asks it of every row of the log it looks at: 200 tables ending their games together hold 200
    "CREATE INDEX held_records_by_table ON held_records (table_id, moves_from)",
)


# 9: what an account's name looks like, ``look`` (``usertext.skeleton``: ``CaroI`` and ``car0l`` look like
# ``carol``), so that a guest's name and a name being registered are refused for looking like a registered one,
# online or not, by one read of an index rather than a look at every account. A generated column: the database
# works it out for the rows there now (this migration fills it) and for every later one, whoever inserts it (a
# process of the cluster still on version 8's code, a sqlite3 shell), so a look is never missing or stale. Not
# unique: accounts made before this version may already look alike, and each keeps its name and its password.
LOOKALIKES: tuple[tuple[str, str], ...] = (  # letters a screen shows alike, as spelled (a small i is no l)
    ("I", "l"), ("1", "l"), ("|", "l"), ("0", "o"), ("5", "s"), ("_", "-"),
)
LOOKALIKE_PAIRS: tuple[tuple[str, str], ...] = (("rn", "m"), ("vv", "w"))  # read as one letter, in lower case


def looks(text: str) -> str:
    """SQL for what the name ``text`` as spelled (a column, or a ``?`` given the name) looks like: version 9's
    ``usertext.skeleton``, one ``replace`` a step (both databases have it; neither has ``translate`` alike), then
    ``lower`` (names are ASCII), then the pairs. The letters' steps put back no letter a later step replaces, so
    one after another is the same as ``skeleton``'s one ``str.translate`` (tests/store/test_store.py checks it on every
    short name). Written out here, not read from ``usertext``: the stored looks are version 9's; a new rule is a
    new version that makes the column again."""
    for old, new in LOOKALIKES:
        text = f"replace({text}, '{old}', '{new}')"
    text = f"lower({text})"
    for old, new in LOOKALIKE_PAIRS:
        text = f"replace({text}, '{old}', '{new}')"
    return text


def account_looks(generated: str) -> tuple[str, ...]:
    """Version 9 (above), the column ``generated`` as the database can add one: ``VIRTUAL`` (SQLite's ALTER TABLE
    adds no other kind) or ``STORED`` (PostgreSQL's only kind before 18); the index holds the looks either way."""
    return (
        f"ALTER TABLE accounts ADD COLUMN look TEXT GENERATED ALWAYS AS ({looks('name')}) {generated}",
        "CREATE INDEX accounts_by_look ON accounts (look)",
    )


# the first row a table made now (or a game started now) may call its own: after every row written so far
NEXT_SEQ = "(SELECT coalesce(max(seq), 0) + 1 FROM table_moves)"
PRUNE_CHUNK = 2000  # rows looked at in one pruning transaction, which holds the write lock the journal waits on
# Seconds the pruning rests between its transactions: a lock its thread releases and at once takes again is not
# handed to the reactor's journal write waiting on it, which then waited for the whole pruning (~0.1 s at 200
# tables' game ends: a burst of turns three times as slow as the rest).
PRUNE_PAUSE = 0.002

BIGINT = range(-2**63, 2**63)  # the ids both databases can hold


@dataclass(frozen=True)
class Dialect:
    """What one database writes its own way (the module's docstring lists why each is needed)."""

    placeholder: str  # "?" or "%s"
    arrays: bool  # a list is bound as one array (= ANY(%s)); else expanded into IN (?, ?, ...)
    greatest: str  # the larger of two values: max(a, b) or greatest(a, b)
    text_order: str  # appended to an ORDER BY of text, for byte order
    duplicate: type[Exception]  # the driver's error for a key already taken
    # run first in a write transaction, ``{table}`` named: no other transaction writes that table until this one
    # ends (reads go on); "" where a write transaction is the only writer anyway (SQLite: the file's write lock)
    lock: str

    def sql(self, text: str) -> str:
        """``text`` (``?`` placeholders, ``{greatest}`` and ``{text_order}`` fields) in this dialect."""
        return _translated(self, text)

    def one_of(self, column: str, values: Sequence[Any]) -> tuple[str, tuple[Any, ...]]:
        """``column`` is one of ``values``: the condition (in ``?`` style) and its arguments."""
        if self.arrays:
            return f"{column} = ANY(?)", (list(values),)
        return f"{column} IN ({','.join('?' * len(values))})", tuple(values)


@lru_cache(maxsize=512)
def _translated(dialect: Dialect, text: str) -> str:
    return text.format(greatest=dialect.greatest, text_order=dialect.text_order).replace("?", dialect.placeholder)


def compact(value: Any) -> str:
    """JSON as the journal and the records keep it, in UTF-8 text, by the JSON lines' encoder (orjson where
    installed): a Wizard game's record is ~560 actions, whose encoding by the standard library took 0.6 ms of
    the store's thread holding the GIL, and 200 tables ending their games together starved the reactor of it for
    a second. The value read back is the same."""
    return dumps(value)


RATING_COLUMNS = ("SELECT r.name, r.game, r.mu, r.sigma, r.shown, r.games, r.updated, (SELECT count(*) FROM ratings h "
                  "WHERE h.game = r.game AND h.shown > r.shown) + 1 FROM ratings r")
BAN_COLUMNS = 'SELECT kind, target, until, "by", created FROM bans'
GAME_COLUMNS = "SELECT game, options, table_options, seed, actions, standings, outcome, started, ended FROM games"
# the oldest account other than the name (name_key, the second ?) that looks like it (the first ?, as spelled)
LOOK_ALIKE = (f"SELECT name FROM accounts WHERE look = {looks('?')} AND name_key <> ? "
              "ORDER BY created, name_key{text_order} LIMIT 1")


class SQLStore(MeetingSQL):
    """Every ``Store`` method, in SQL both databases run; a subclass gives the connections (the hooks below)."""

    dialect: Dialect

    # ------------------------------------------------------------ the hooks each database gives

    def _transaction(self) -> AbstractContextManager[DB]:
        """The records' connection in a write transaction (committed at the end, rolled back on an exception);
        the driver's errors become ``StoreError``."""
        raise NotImplementedError

    def _reading(self) -> AbstractContextManager[DB]:
        """The records' connection for reads; the driver's errors become ``StoreError``."""
        raise NotImplementedError

    def _write(self, sql: str, args: tuple[Any, ...]) -> int:
        """One statement (in this dialect) in a transaction of its own; the rows it changed. The driver's error is
        kept as the ``StoreError``'s cause."""
        raise NotImplementedError

    def _journal_write(self, statement: tuple[str, tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """One statement (sql, args), autocommitted, on the journal's connection; the rows it returns. Several as one
        transaction: ``_journal_writes``."""
        raise NotImplementedError

    def _journal_writes(self, *statements: tuple[str, tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
        """The statements as one transaction on the journal's connection; the rows each returns."""
        raise NotImplementedError

    def _journal_write_many(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
        """One statement run for each of ``rows`` (the driver's ``executemany``), as one transaction, on the
        journal's connection: a turn's moves (``add_table_moves``) without a Python loop of statements."""
        raise NotImplementedError

    def _journal_read(self) -> AbstractContextManager[DB]:
        """The journal's connection in a read transaction of one moment (a table and its moves agree)."""
        raise NotImplementedError

    def _sql(self, text: str) -> str:
        return self.dialect.sql(text)

    def _hold_off(self, db: DB, table: str) -> None:
        """Hold off every other writer of ``table`` until this transaction ends (``Dialect.lock``): a check then an
        insert (a look-alike, a list's limit) made by two processes at once would otherwise both pass."""
        if self.dialect.lock:
            db.execute(self.dialect.lock.format(table=table))

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
        them."""
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

    # ------------------------------------------------------------ accounts

    def account(self, name: str) -> Account | None:
        with self._reading() as db:
            row = db.execute(self._sql("SELECT name, hash, created FROM accounts WHERE name_key = ?"),
                             (name.lower(),)).fetchone()
        return None if row is None else Account(*row)

    def look_alike(self, name: str) -> str | None:
        with self._reading() as db:
            return self._look_alike(db, name)

    def _look_alike(self, db: DB, name: str) -> str | None:
        row = db.execute(self._sql(LOOK_ALIKE), (name, name.lower())).fetchone()
        return None if row is None else str(row[0])

    def create_account(self, name: str, password_hash: str) -> None:
        """The look-alike check and the insert in one transaction that holds off every other writer of accounts
        (``Dialect.lock``): two processes on one PostgreSQL registering ``Carol`` and ``CaroI`` at once would
        otherwise each find no look-alike and both insert. The insert comes first: a name taken already is refused
        as taken (the primary key's refusal), not as its own look-alike's; a look-alike found after it undoes it."""
        with self._transaction() as db:
            self._hold_off(db, "accounts")
            try:
                db.execute(self._sql("INSERT INTO accounts (name_key, name, hash, created) VALUES (?, ?, ?, ?)"),
                           (name.lower(), name, password_hash, time.time()))
            except self.dialect.duplicate:
                raise AccountExists(name) from None
            alike = self._look_alike(db, name)
            if alike is not None:
                raise LooksRegistered(name, alike)  # (rolled back with the transaction)

    def set_password(self, name: str, password_hash: str) -> None:
        if not self._write(self._sql("UPDATE accounts SET hash = ? WHERE name_key = ?"),
                           (password_hash, name.lower())):
            raise KeyError(name)

    # ------------------------------------------------------------ roles and bans

    def grant_role(self, name: str, role: str) -> None:
        if self.account(name) is None:
            raise KeyError(name)
        self._write(self._sql("INSERT INTO roles (name_key, role, granted) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"),
                    (name.lower(), role, time.time()))

    def revoke_role(self, name: str, role: str) -> bool:
        return self._write(self._sql("DELETE FROM roles WHERE name_key = ? AND role = ?"), (name.lower(), role)) > 0

    def roles(self, name: str) -> set[str]:
        with self._reading() as db:
            rows = db.execute(self._sql("SELECT role FROM roles WHERE name_key = ?"), (name.lower(),)).fetchall()
        return {role for (role,) in rows}

    def holders(self, role: str) -> list[str]:
        with self._reading() as db:
            rows = db.execute(self._sql("SELECT a.name FROM roles r JOIN accounts a ON a.name_key = r.name_key "
                                        "WHERE r.role = ? ORDER BY r.name_key{text_order}"), (role,)).fetchall()
        return [name for (name,) in rows]

    def add_ban(self, ban: Ban) -> None:
        self._write(self._sql('INSERT INTO bans (kind, target_key, target, until, "by", created) VALUES (?, ?, ?, ?, '
                              '?, ?) ON CONFLICT (kind, target_key) DO UPDATE SET target = excluded.target, until = '
                              'excluded.until, "by" = excluded."by", created = excluded.created'),
                    (ban.kind, ban.target.lower(), ban.target, ban.until, ban.by, ban.created))

    def lift_ban(self, kind: str, target: str) -> bool:
        return self._write(self._sql("DELETE FROM bans WHERE kind = ? AND target_key = ?"), (kind, target.lower())) > 0

    def bans(self, now: float) -> list[Ban]:
        with self._reading() as db:
            rows = db.execute(self._sql(f"{BAN_COLUMNS} WHERE until IS NULL OR until > ? ORDER BY created"),
                              (now,)).fetchall()
        return [Ban(*row) for row in rows]

    def ban_on(self, kind: str, target: str, now: float) -> Ban | None:
        with self._reading() as db:
            row = db.execute(self._sql(f"{BAN_COLUMNS} WHERE kind = ? AND target_key = ? AND (until IS NULL OR "
                                       "until > ?)"), (kind, target.lower(), now)).fetchone()
        return None if row is None else Ban(*row)

    # ------------------------------------------------------------ the table journal

    def save_table(self, table_id: int, header: dict[str, Any], node: str = "") -> None:
        self._journal_write((self._sql(
            f"INSERT INTO tables (id, header, updated, node, moves_from) VALUES (?, ?, ?, ?, {NEXT_SEQ}) "
            "ON CONFLICT (id) DO UPDATE SET header = excluded.header, updated = excluded.updated, "
            "node = excluded.node"),
            (table_id, compact(header), time.time(), node)))

    def start_table_game(self, table_id: int, seed: int, game: dict[str, Any]) -> None:
        self._journal_write((self._sql(
            f"UPDATE tables SET seed = ?, game = ?, recorded = false, updated = ?, moves_from = {NEXT_SEQ} "
            "WHERE id = ?"), (seed, compact(game), time.time(), table_id)))

    def mark_table_game(self, table_id: int, game: dict[str, Any]) -> None:
        self._journal_write((self._sql("UPDATE tables SET game = ?, updated = ? WHERE id = ? AND seed IS NOT NULL"),
                             (compact(game), time.time(), table_id)))

    def hold_record(self, record: GameRecord, node: str = "") -> None:
        assert record.table_id is not None
        kept = {**record.to_dict(), "actions": len(record.actions)}  # the actions are the journal's rows
        self._journal_write((self._sql(
            "INSERT INTO held_records (key, table_id, node, record, moves_from, moves_until) "
            f"SELECT ?, t.id, ?, ?, t.moves_from, {NEXT_SEQ} FROM tables t WHERE t.id = ? "
            "ON CONFLICT (key) DO UPDATE SET node = excluded.node, record = excluded.record, "
            "moves_from = excluded.moves_from, moves_until = excluded.moves_until"),
            (held_key(record), node, compact(kept), record.table_id)))

    def held_records(self, node: str | None = None) -> list[GameRecord | StoreError]:
        """Read in one transaction, each record with its actions from the journal's rows (a row written twice: its
        latest)."""
        where, args = ("", ()) if node is None else ("WHERE h.node = ?", (node,))
        with self._journal_read() as db:
            rows = db.execute(self._sql(f"SELECT h.key, h.table_id, h.record FROM held_records h {where} "
                                        "ORDER BY h.key"), args).fetchall()
            moves = db.execute(self._sql(
                "SELECT h.key, m.n, m.seat, m.action, m.t FROM held_records h JOIN table_moves m ON m.table_id = "
                f"h.table_id AND m.seq >= h.moves_from AND m.seq < h.moves_until {where} ORDER BY m.seq"),
                args).fetchall()
        actions: dict[str, dict[int, dict[str, Any]]] = {key: {} for key, _, _ in rows}
        for key, n, seat, action, t in moves:
            actions[key][n] = {"seat": seat, "action": action, "t": t}
        records: list[GameRecord | StoreError] = []
        for key, table_id, text in rows:
            try:
                records.append(held_record(table_id, text, [actions[key][n] for n in sorted(actions[key])]))
            except StoreError as exc:
                records.append(exc)
        return records

    def add_table_move(self, table_id: int, n: int, seat: int | None, action: str, t: float) -> None:
        self.add_table_moves([(table_id, n, seat, action, t)])

    def add_table_moves(self, moves: Sequence[TableMove]) -> None:
        sql = self._sql("INSERT INTO table_moves (table_id, n, seat, action, t) VALUES (?, ?, ?, ?, ?)")
        if len(moves) == 1:
            self._journal_write((sql, tuple(moves[0])))
        elif moves:
            self._journal_write_many(sql, moves)

    def drop_table(self, table_id: int) -> None:
        self._journal_write((self._sql("DELETE FROM tables WHERE id = ?"), (table_id,)))  # its moves: pruned later

    def open_tables(self, node: str | None = None) -> list[JournaledTable]:
        """Read in one transaction, so a table and its moves are of one moment. A header that is not JSON is
        handed on as ``{"error": ...}`` for the restore to report and skip, rather than failing every table."""
        where, args = ("", ()) if node is None else ("WHERE t.node = ?", (node,))
        with self._journal_read() as db:
            rows = db.execute(self._sql(f"SELECT id, header, seed, game, recorded, node FROM tables t {where} "
                                        "ORDER BY id"), args).fetchall()
            moves = db.execute(self._sql("SELECT m.table_id, m.n, m.seat, m.action, m.t FROM table_moves m JOIN "
                                         f"tables t ON t.id = m.table_id AND m.seq >= t.moves_from {where} "
                                         "ORDER BY m.seq"), args).fetchall()
        return journaled_tables(rows, moves)

    def prune_journal(self) -> int:
        """Delete the journal's rows no table reads any more, ``PRUNE_CHUNK`` rows of the log at a time, each its
        own transaction, so that a journal write waits at most for one of them. The last row stays, so the
        numbering never goes back (SQLite numbers a row after the largest there)."""
        with self._reading() as db:
            first, last = db.execute("SELECT min(seq), max(seq) FROM table_moves").fetchone()
        pruned = 0
        if first is None:
            return pruned
        sql = self._sql("DELETE FROM table_moves WHERE seq >= ? AND seq < ? AND NOT EXISTS (SELECT 1 FROM tables t "
                        "WHERE t.id = table_moves.table_id AND t.moves_from <= table_moves.seq) AND NOT EXISTS "
                        "(SELECT 1 FROM held_records h WHERE h.table_id = table_moves.table_id AND h.moves_from <= "
                        "table_moves.seq AND table_moves.seq < h.moves_until)")
        for start in range(int(first), int(last), PRUNE_CHUNK):
            if start > first:
                time.sleep(PRUNE_PAUSE)
            with self._transaction() as db:
                pruned += db.execute(sql, (start, min(start + PRUNE_CHUNK, int(last)))).rowcount
        return pruned

    def claim_tables(self, from_node: str, to_node: str) -> Claim:
        """Two ``UPDATE ... RETURNING`` in one transaction: a claim that meets rows another is moving waits for it
        (a row lock on PostgreSQL, the file's write lock on SQLite), then finds them no longer ``from_node``'s and
        leaves them; two claims get disjoint sets. The tables first, then the held records, the order
        ``record_game`` takes them in: a process taken for dead that still stores a record waits for the claim,
        or the claim for it, and neither deadlocks."""
        tables, held = self._journal_writes(
            (self._sql("UPDATE tables SET node = ?, updated = ? WHERE node = ? RETURNING id"),
             (to_node, time.time(), from_node)),
            (self._sql("UPDATE held_records SET node = ? WHERE node = ? RETURNING key"), (to_node, from_node)))
        return Claim(sorted(int(table_id) for (table_id,) in tables), sorted(str(key) for (key,) in held))

    def reserve_table_ids(self, count: int) -> range:
        """One ``UPDATE ... RETURNING`` of the counter row in a write transaction: concurrent reservations queue on
        its lock (the file's on SQLite), each then reading the value the one before left."""
        if count < 1:
            raise ValueError(f"a block of {count} table numbers")
        with self._transaction() as db:
            [(first,)] = db.execute(self._sql(
                "UPDATE table_ids SET next_id = {greatest}(next_id, (SELECT coalesce(max(id), 0) + 1 FROM tables)) "
                "+ ? RETURNING next_id - ?"), (count, count)).fetchall()
        return range(int(first), int(first) + count)


def rows_of(cursor: Any) -> list[tuple[Any, ...]]:
    """What a statement returned (none for one that returns no rows: psycopg raises on fetching those)."""
    return list(cursor.fetchall()) if cursor.description else []
