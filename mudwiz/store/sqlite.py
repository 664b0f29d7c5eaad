"""The ``Store`` on one SQLite file (the standard library's ``sqlite3``), in WAL mode: the only SQL in mudwiz.

The schema's version is ``PRAGMA user_version``, and ``MIGRATIONS`` holds one step per version: a file at version
N is brought up by the steps after N, in one transaction, so version 2 is one more entry at the end, never an edit
of an earlier one. ``PRAGMA application_id`` marks the file as mudwiz's. At start the file is refused, with its
path and the reason, rather than touched when it is another program's database or no database at all, damaged
(``quick_check``), locked by another process, of a newer schema than this code knows, or cannot be written.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mudwiz.store.base import (
    Account,
    AccountExists,
    Ban,
    GameRecord,
    GameSummary,
    JournaledTable,
    RateGame,
    Rating,
    StoreError,
    game_record,
    journaled_tables,
    summaries,
)

FILENAME = "mudwiz.db"
APPLICATION_ID = 0x6D75647A  # "mudz": a database this code made
BUSY_TIMEOUT = 1.0  # seconds to wait for another process's lock before saying the file is locked

Migration = tuple[str, ...]  # the statements that take the schema from one version to the next

MIGRATIONS: tuple[Migration, ...] = (
    # 1: game records. A game's options, moves and standings are JSON: read whole, never queried inside;
    # its seats are rows, so a player's history is an index lookup.
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            table_options TEXT NOT NULL,
            seed INTEGER NOT NULL,
            actions TEXT NOT NULL,
            standings TEXT,
            outcome TEXT NOT NULL CHECK (outcome IN ('finished', 'abandoned')),
            started REAL NOT NULL,
            ended REAL NOT NULL
        )""",
        """CREATE TABLE game_seats (
            game_id INTEGER NOT NULL REFERENCES games (id),
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
            kind TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""",
        "CREATE INDEX game_seats_by_name ON game_seats (name_key, game_id)",
    ),
    # 2: accounts. One a name whatever its case (name_key is the lower-cased name); name keeps its spelling.
    (
        """CREATE TABLE accounts (
            name_key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            hash TEXT NOT NULL,
            created REAL NOT NULL
        )""",
    ),
    # 3: sysops and bans. A role belongs to an account (granted by ``mudwiz admin``); a ban is of a name (its
    # lower-cased key, registered or not) or of an address, until a time (seconds since the epoch) or, NULL,
    # until lifted. One ban a target: banning it again replaces the ban.
    (
        """CREATE TABLE roles (
            name_key TEXT NOT NULL REFERENCES accounts (name_key),
            role TEXT NOT NULL,
            granted REAL NOT NULL,
            PRIMARY KEY (name_key, role)
        )""",
        """CREATE TABLE bans (
            kind TEXT NOT NULL CHECK (kind IN ('name', 'address')),
            target_key TEXT NOT NULL,
            target TEXT NOT NULL,
            until REAL,
            by TEXT NOT NULL,
            created REAL NOT NULL,
            PRIMARY KEY (kind, target_key)
        )""",
    ),
    # 4: ratings. One a player a game (name_key lower-cased, name as spelled); mu and sigma are openskill's,
    # shown the conservative figure mudwiz/ratings.py works out from them, kept so that a game's top list and a
    # player's rank are an index walk rather than maths in SQL. Written with the game that changed them.
    (
        """CREATE TABLE ratings (
            name_key TEXT NOT NULL,
            game TEXT NOT NULL,
            name TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            shown INTEGER NOT NULL,
            games INTEGER NOT NULL,
            updated REAL NOT NULL,
            PRIMARY KEY (name_key, game)
        )""",
        "CREATE INDEX ratings_by_game ON ratings (game, shown)",
    ),
    # 5: the table journal (mudwiz/table/journal.py): every open table's header (JSON: game, host, options,
    # seats) and its current or last game (seed; JSON: players, options, start time, abandoned; recorded: its
    # record is stored, set in the record's own transaction), and that game's moves in order, so that a restart
    # rebuilds each table at its last committed move. A table's rows go when it closes; its game's moves when
    # the next game starts.
    (
        """CREATE TABLE tables (
            id INTEGER PRIMARY KEY,
            header TEXT NOT NULL,
            seed INTEGER,
            game TEXT,
            recorded INTEGER NOT NULL DEFAULT 0,
            updated REAL NOT NULL
        )""",
        """CREATE TABLE table_moves (
            table_id INTEGER NOT NULL,
            n INTEGER NOT NULL,
            seat INTEGER,
            action TEXT NOT NULL,
            t REAL NOT NULL,
            PRIMARY KEY (table_id, n)
        )""",
    ),
    # 6: several processes on one database (issue #21): a journaled table's host, ``node`` (MUDWIZ_NODE; '' the
    # single-process server, as every table journaled before), and the next table number to hand out, one row
    # (starting above every table journaled so far), so that processes draw disjoint blocks of numbers.
    (
        "ALTER TABLE tables ADD COLUMN node TEXT NOT NULL DEFAULT ''",
        "CREATE INDEX tables_by_node ON tables (node, id)",
        "CREATE TABLE table_ids (next_id BIGINT NOT NULL)",
        "INSERT INTO table_ids (next_id) SELECT coalesce(max(id), 0) + 1 FROM tables",
    ),
)

# sqlite3's error names -> what a person running the server should read
REASONS = {
    "SQLITE_BUSY": "it is locked by another process (another mudwiz on this data directory, or a sqlite3 shell "
                   "in a transaction)",
    "SQLITE_LOCKED": "it is locked",
    "SQLITE_NOTADB": "it is not a database",
    "SQLITE_CORRUPT": "it is damaged",
    "SQLITE_READONLY": "it cannot be written (a read-only file, directory or disk)",
    "SQLITE_CANTOPEN": "it cannot be opened or created (a missing or read-only directory?)",
    "SQLITE_FULL": "the disk is full",
    "SQLITE_IOERR": "the disk failed to read or write it",
    "SQLITE_PERM": "permission denied",
}


def open_store(data_dir: str | Path) -> SQLiteStore:
    """The store in ``data_dir`` (made if missing, as on a fresh machine): its file ``mudwiz.db``."""
    directory = Path(data_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the data directory {directory}: {exc.strerror or exc}") from None
    return SQLiteStore(directory / FILENAME)


class SQLiteStore:
    """The records on one SQLite file. Opening it brings its schema up to date or refuses it (``StoreError``)."""

    def __init__(self, path: str | Path, *, migrations: Sequence[Migration] = MIGRATIONS,
                 create: bool = True) -> None:
        self.path = Path(path)
        self.where = str(self.path)  # how messages and the log name it
        self.migrations = tuple(migrations)
        if not create and not self.path.is_file():
            raise StoreError(f"{self.path}: no such file")
        # One connection, used by the reactor thread (reads) and the service's writer thread (record_game, see
        # service.StoreWriter), one at a time under this lock: a read never lands inside a write's transaction.
        self._lock = threading.RLock()
        # Held by every write transaction of either connection (records, accounts, the journal): our two
        # connections then never meet on SQLite's own write lock, whose busy handler sleeps and retries and can
        # starve a journal write behind back-to-back records (bench/journal.py saw "database is locked"); a
        # journal write waits at most for one transaction under way, woken as soon as it ends.
        self._write_lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        try:
            self._open()
            self._journal = self._journal_connection()
        except sqlite3.Error as exc:
            self._db.close()
            raise self._error(exc) from None
        except StoreError:
            self._db.close()
            raise

    def _journal_connection(self) -> sqlite3.Connection:
        """The table journal's own connection, used on the reactor thread only (under ``_journal_lock``).

        ``synchronous = NORMAL`` in WAL mode: a commit is a write into the WAL file, no fsync, so it survives the
        process's ``kill -9`` (the operating system has the bytes) though not a power cut, and costs tens of
        microseconds instead of milliseconds (bench/journal.py). No automatic checkpoint here either (that fsyncs):
        the store's thread runs ``checkpoint`` now and then, and the record writes' connection checkpoints as
        before. A connection of its own (a connection has one ``synchronous`` setting, and the records keep FULL);
        a journal write waits at most for a write transaction under way (``_write_lock``): a game's record as it
        commits, rarely."""
        db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA wal_autocheckpoint = 0")
        self._journal_lock = threading.Lock()
        return db

    def _error(self, exc: sqlite3.Error) -> StoreError:
        name = getattr(exc, "sqlite_errorname", "")
        reason = next((text for code, text in REASONS.items() if name.startswith(code)), "it cannot be used")
        return StoreError(f"{self.path}: {reason} ({exc})")

    def _pragma(self, name: str) -> Any:
        with self._lock:
            return self._db.execute(f"PRAGMA {name}").fetchone()[0]

    def _open(self) -> None:
        """Look before touching: a file that is not ours, newer than us or damaged is refused as it is."""
        version = self._pragma("user_version")  # raises SQLITE_NOTADB on a file that is no database
        tables = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        ours = self._pragma("application_id") == APPLICATION_ID
        if not ours and (version or tables):
            raise StoreError(f"{self.path}: it is not a mudwiz database (another program's?); it is left as it is: "
                             "set MUDWIZ_DATA to another directory")
        if version > len(self.migrations):
            raise StoreError(f"{self.path}: its schema version {version} is newer than this mudwiz knows "
                             f"({len(self.migrations)}); run the newer mudwiz, or restore a backup")
        if ours:
            check = self._pragma("quick_check")
            if check != "ok":
                raise StoreError(f"{self.path}: it is damaged ({check}); restore a backup (docs/accounts.md)")
        self._pragma("journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")  # a stored game survives a power cut: writes are off the reactor
        self._migrate()

    def _migrate(self) -> None:
        """Apply the steps after the file's version, all in one transaction, and set the new version. Done on
        every start even with nothing to apply: writing the version proves the file can be written, now rather
        than at the end of the first game."""
        with self._transaction():
            version = self._pragma("user_version")
            for step in self.migrations[version:]:
                for statement in step:
                    self._db.execute(statement)
            self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._db.execute(f"PRAGMA user_version = {len(self.migrations)}")

    @property
    def version(self) -> int:
        return int(self._pragma("user_version"))

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._lock, self._write_lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # ------------------------------------------------------------ game records

    def record_game(self, record: GameRecord, rate: RateGame | None = None) -> int:
        """Insert the record; and mark its table's journaled game recorded in the same transaction (if that table
        still journals this game, by its seed: the host may have started the next one while the record was queued),
        so that a restart neither loses the record nor makes it twice; and ``rate``'s rating changes with them."""
        try:
            with self._transaction():
                if record.table_id is not None:
                    self._db.execute("UPDATE tables SET recorded = 1 WHERE id = ? AND seed = ?",
                                     (record.table_id, record.seed))
                cursor = self._db.execute(
                    "INSERT INTO games (game, options, table_options, seed, actions, standings, outcome, started, "
                    "ended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (record.game, json.dumps(record.options), json.dumps(record.table_options), record.seed,
                     json.dumps(record.actions, separators=(",", ":")),
                     None if record.standings is None else json.dumps(record.standings), record.outcome,
                     record.started, record.ended),
                )
                game_id = int(cursor.lastrowid or 0)
                self._db.executemany(
                    "INSERT INTO game_seats (game_id, seat, name, name_key, kind) VALUES (?, ?, ?, ?, ?)",
                    [(game_id, i, s["name"], s["name"].lower(), s["kind"]) for i, s in enumerate(record.seats)],
                )
                if rate is not None:
                    self._rate(record, rate)
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        return game_id

    def _rate(self, record: GameRecord, rate: RateGame) -> None:
        """Inside ``record_game``'s transaction: the seats' ratings and accounts in, ``rate``'s ratings out."""
        keys = sorted({s["name"].lower() for s in record.seats})
        marks = ",".join("?" * len(keys))
        current = {r.name.lower(): r for r in self._ratings(f"r.game = ? AND r.name_key IN ({marks})",
                                                             (record.game, *keys))}
        registered = {k for (k,) in self._db.execute(f"SELECT name_key FROM accounts WHERE name_key IN ({marks})",
                                                     keys)}
        self._db.executemany(
            "INSERT OR REPLACE INTO ratings (name_key, game, name, mu, sigma, shown, games, updated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(r.name.lower(), r.game, r.name, r.mu, r.sigma, r.shown, r.games, r.updated)
             for r in rate(record, current, registered)],
        )

    def _ratings(self, where: str, args: Sequence[Any], tail: str = "") -> list[Rating]:
        """Ratings rows with their rank in their game (1 + how many there are shown higher: ties share one)."""
        rows = self._db.execute(
            "SELECT r.name, r.game, r.mu, r.sigma, r.shown, r.games, r.updated, (SELECT count(*) FROM ratings h "
            f"WHERE h.game = r.game AND h.shown > r.shown) + 1 FROM ratings r WHERE {where} {tail}", tuple(args),
        ).fetchall()
        return [Rating(name, game, mu, sigma, shown, games, updated, rank=rank)
                for name, game, mu, sigma, shown, games, updated, rank in rows]

    @contextmanager
    def _reading(self) -> Iterator[None]:
        with self._lock:
            try:
                yield
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def _seats(self, ids: Sequence[int]) -> dict[int, list[dict[str, str]]]:
        marks = ",".join("?" * len(ids))
        seats: dict[int, list[dict[str, str]]] = {i: [] for i in ids}
        for game_id, name, kind in self._db.execute(
                f"SELECT game_id, name, kind FROM game_seats WHERE game_id IN ({marks}) ORDER BY game_id, seat",
                tuple(ids)):
            seats[game_id].append({"name": name, "kind": kind})
        return seats

    def games_of(self, name: str, limit: int = 10) -> list[GameSummary]:
        with self._reading():
            rows = self._db.execute(
                "SELECT g.id, g.game, g.standings, g.outcome, g.ended FROM game_seats s JOIN games g "
                "ON g.id = s.game_id WHERE s.name_key = ? ORDER BY g.id DESC LIMIT ?", (name.lower(), limit),
            ).fetchall()
            seats = self._seats([r[0] for r in rows])
        return summaries(rows, seats)

    def game(self, game_id: int) -> GameRecord | None:
        with self._reading():
            row = self._db.execute(
                "SELECT game, options, table_options, seed, actions, standings, outcome, started, ended FROM games "
                "WHERE id = ?", (game_id,),
            ).fetchone()
            if row is None:
                return None
            seats = self._seats([game_id])[game_id]
        return game_record(game_id, row, seats)

    # ------------------------------------------------------------ ratings

    def rating(self, name: str, game: str) -> Rating | None:
        with self._reading():
            found = self._ratings("r.name_key = ? AND r.game = ?", (name.lower(), game))
        return found[0] if found else None

    def ratings_of(self, name: str) -> list[Rating]:
        with self._reading():
            return self._ratings("r.name_key = ?", (name.lower(),), "ORDER BY r.game")

    def top(self, game: str, limit: int = 10) -> list[Rating]:
        with self._reading():
            return self._ratings("r.game = ?", (game, limit),
                                 "ORDER BY r.shown DESC, r.games DESC, r.name_key LIMIT ?")

    # ------------------------------------------------------------ accounts

    def account(self, name: str) -> Account | None:
        with self._reading():
            row = self._db.execute("SELECT name, hash, created FROM accounts WHERE name_key = ?",
                                   (name.lower(),)).fetchone()
        return None if row is None else Account(*row)

    def create_account(self, name: str, password_hash: str) -> None:
        try:
            with self._transaction():
                self._db.execute("INSERT INTO accounts (name_key, name, hash, created) VALUES (?, ?, ?, ?)",
                                 (name.lower(), name, password_hash, time.time()))
        except sqlite3.IntegrityError:
            raise AccountExists(name) from None
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def set_password(self, name: str, password_hash: str) -> None:
        try:
            with self._transaction():
                changed = self._db.execute("UPDATE accounts SET hash = ? WHERE name_key = ?",
                                           (password_hash, name.lower())).rowcount
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        if not changed:
            raise KeyError(name)

    # ------------------------------------------------------------ roles and bans

    def _write(self, sql: str, args: tuple[Any, ...]) -> int:
        """One statement in a transaction of its own; the number of rows it changed."""
        try:
            with self._transaction():
                return int(self._db.execute(sql, args).rowcount)
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def grant_role(self, name: str, role: str) -> None:
        if self.account(name) is None:
            raise KeyError(name)
        self._write("INSERT OR IGNORE INTO roles (name_key, role, granted) VALUES (?, ?, ?)",
                    (name.lower(), role, time.time()))

    def revoke_role(self, name: str, role: str) -> bool:
        return self._write("DELETE FROM roles WHERE name_key = ? AND role = ?", (name.lower(), role)) > 0

    def roles(self, name: str) -> set[str]:
        with self._reading():
            rows = self._db.execute("SELECT role FROM roles WHERE name_key = ?", (name.lower(),)).fetchall()
        return {role for (role,) in rows}

    def holders(self, role: str) -> list[str]:
        with self._reading():
            rows = self._db.execute("SELECT a.name FROM roles r JOIN accounts a ON a.name_key = r.name_key "
                                    "WHERE r.role = ? ORDER BY r.name_key", (role,)).fetchall()
        return [name for (name,) in rows]

    def add_ban(self, ban: Ban) -> None:
        self._write("INSERT OR REPLACE INTO bans (kind, target_key, target, until, by, created) "
                    "VALUES (?, ?, ?, ?, ?, ?)", (ban.kind, ban.target.lower(), ban.target, ban.until, ban.by,
                                                  ban.created))

    def lift_ban(self, kind: str, target: str) -> bool:
        return self._write("DELETE FROM bans WHERE kind = ? AND target_key = ?", (kind, target.lower())) > 0

    def bans(self, now: float) -> list[Ban]:
        with self._reading():
            rows = self._db.execute("SELECT kind, target, until, by, created FROM bans WHERE until IS NULL OR "
                                    "until > ? ORDER BY created", (now,)).fetchall()
        return [Ban(*row) for row in rows]

    def ban_on(self, kind: str, target: str, now: float) -> Ban | None:
        with self._reading():
            row = self._db.execute("SELECT kind, target, until, by, created FROM bans WHERE kind = ? AND "
                                   "target_key = ? AND (until IS NULL OR until > ?)",
                                   (kind, target.lower(), now)).fetchone()
        return None if row is None else Ban(*row)

    # ------------------------------------------------------------ the table journal

    def _journal_write(self, sql: str, *params: tuple[Any, ...]) -> None:
        """Run one or more statements (one a parameter tuple) as one transaction on the journal's connection."""
        try:
            with self._journal_lock, self._write_lock:
                if len(params) == 1:
                    self._journal.execute(sql, params[0])  # autocommit: one statement, one transaction
                    return
                self._journal.execute("BEGIN IMMEDIATE")
                try:
                    for statement, values in zip(sql.split(";"), params, strict=True):
                        self._journal.execute(statement, values)
                except BaseException:
                    self._journal.execute("ROLLBACK")
                    raise
                self._journal.execute("COMMIT")
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def save_table(self, table_id: int, header: dict[str, Any], node: str = "") -> None:
        self._journal_write("INSERT INTO tables (id, header, updated, node) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO "
                            "UPDATE SET header = excluded.header, updated = excluded.updated, node = excluded.node",
                            (table_id, json.dumps(header, separators=(",", ":")), time.time(), node))

    def start_table_game(self, table_id: int, seed: int, game: dict[str, Any]) -> None:
        self._journal_write("UPDATE tables SET seed = ?, game = ?, recorded = 0, updated = ? WHERE id = ?;"
                            "DELETE FROM table_moves WHERE table_id = ?",
                            (seed, json.dumps(game, separators=(",", ":")), time.time(), table_id), (table_id,))

    def mark_table_game(self, table_id: int, game: dict[str, Any]) -> None:
        self._journal_write("UPDATE tables SET game = ?, updated = ? WHERE id = ? AND seed IS NOT NULL",
                            (json.dumps(game, separators=(",", ":")), time.time(), table_id))

    def add_table_move(self, table_id: int, n: int, seat: int | None, action: str, t: float) -> None:
        self._journal_write("INSERT OR REPLACE INTO table_moves (table_id, n, seat, action, t) VALUES (?, ?, ?, ?, ?)",
                            (table_id, n, seat, action, t))

    def drop_table(self, table_id: int) -> None:
        self._journal_write("DELETE FROM tables WHERE id = ?;DELETE FROM table_moves WHERE table_id = ?",
                            (table_id,), (table_id,))

    def open_tables(self, node: str | None = None) -> list[JournaledTable]:
        """Read in one transaction, so a table and its moves are of one moment. A header that is not JSON is
        handed on as ``{"error": ...}`` for the restore to report and skip, rather than failing every table."""
        where, args = ("", ()) if node is None else ("WHERE t.node = ?", (node,))
        try:
            with self._journal_lock:
                self._journal.execute("BEGIN")
                try:
                    rows = self._journal.execute(
                        f"SELECT id, header, seed, game, recorded, node FROM tables t {where} ORDER BY id",
                        args).fetchall()
                    moves = self._journal.execute(
                        "SELECT m.table_id, m.seat, m.action, m.t FROM table_moves m JOIN tables t "
                        f"ON t.id = m.table_id {where} ORDER BY m.table_id, m.n", args).fetchall()
                finally:
                    self._journal.execute("COMMIT")
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        return journaled_tables(rows, moves)

    def claim_tables(self, from_node: str, to_node: str) -> list[int]:
        """One statement, so one transaction: a table is moved by whichever claim reaches it first."""
        try:
            with self._journal_lock, self._write_lock:
                rows = self._journal.execute("UPDATE tables SET node = ?, updated = ? WHERE node = ? RETURNING id",
                                             (to_node, time.time(), from_node)).fetchall()
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        return sorted(table_id for (table_id,) in rows)

    def reserve_table_ids(self, count: int) -> range:
        """In a write transaction (``BEGIN IMMEDIATE``: one writer at a time on the file, any process)."""
        if count < 1:
            raise ValueError(f"a block of {count} table numbers")
        try:
            with self._transaction():
                [(first,)] = self._db.execute(
                    "UPDATE table_ids SET next_id = max(next_id, (SELECT coalesce(max(id), 0) + 1 FROM tables)) + ? "
                    "RETURNING next_id - ?", (count, count)).fetchall()
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        return range(first, first + count)

    def checkpoint(self) -> None:
        try:
            with self._lock:
                self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def close(self) -> None:
        with self._journal_lock:
            self._journal.close()
        with self._lock:
            self._db.close()

