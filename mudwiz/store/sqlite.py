"""The ``Store`` on one SQLite file (the standard library's ``sqlite3``), in WAL mode. The statements are
``sql.py``'s, shared with PostgreSQL; here are the file, its connections and locks, and its schema's versions.

The schema's version is ``PRAGMA user_version``, and ``MIGRATIONS`` holds one step per version: a file at version
N is brought up by the steps after N, in one transaction, so version 2 is one more entry at the end, never an edit
of an earlier one. ``PRAGMA application_id`` marks the file as mudwiz's. At start the file is refused, with its
path and the reason, rather than touched when it is another program's database or no database at all, damaged
(``quick_check``), locked by another process, of a newer schema than this code knows, or cannot be written.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mudwiz.store.accounts_sql import ACCOUNT_LANG, account_looks
from mudwiz.store.base import StoreError
from mudwiz.store.competition import competition
from mudwiz.store.dialect import Dialect
from mudwiz.store.journal_sql import HELD_RECORDS, TABLE_NODES, append_only_moves
from mudwiz.store.meeting import IGNORE_LISTS, meeting_place
from mudwiz.store.sql import SQLStore

FILENAME = "mudwiz.db"
APPLICATION_ID = 0x6D75647A  # "mudz": a database this code made
BUSY_TIMEOUT = 1.0  # seconds to wait for another process's lock before saying the file is locked

# SQLite's way: lists expanded into IN (?, ...), max(a, b), text in byte order already (BINARY collation), and no
# lock to take: a write transaction (BEGIN IMMEDIATE) holds the file's write lock, so it is the only writer
DIALECT = Dialect(placeholder="?", arrays=False, greatest="max", text_order="", duplicate=sqlite3.IntegrityError,
                  lock="")

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
    # the next game starts (from version 7 on, the moves are no longer read then, and pruned later).
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
    # 6: tables owned by a node, and table numbers: the same on both databases, in sql.py.
    TABLE_NODES,
    # 7: the journal's moves in the order written: sql.py.
    append_only_moves("INTEGER PRIMARY KEY"),
    # 8: the records held until stored: sql.py.
    HELD_RECORDS,
    # 9: what an account's name looks like, indexed (sql.py): a virtual column, the only kind ALTER TABLE adds.
    account_looks("VIRTUAL"),
    # 10: the meeting place: messages, profiles, notify lists, channels joined (meeting.py).
    meeting_place("INTEGER PRIMARY KEY"),
    # 11: tournaments and season points (competition.py).
    competition("INTEGER PRIMARY KEY"),
    # 12: the language an account's owner reads (accounts_sql.py).
    ACCOUNT_LANG,
    # 13: ignore lists (meeting.py).
    IGNORE_LISTS,
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


class SQLiteStore(SQLStore):
    """The records on one SQLite file. Opening it brings its schema up to date or refuses it (``StoreError``)."""

    dialect = DIALECT

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
            if create and not self.path.exists():
                # readable by the server's user only: it holds the password hashes (SQLite gives its -wal and -shm
                # files the database's mode); an empty file is an empty database
                os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except OSError as exc:
            raise StoreError(f"{self.path}: it cannot be opened or created ({exc.strerror or exc})") from None
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
                check = " ".join(check.split())  # quick_check's report runs over lines: the refusal is one
                raise StoreError(f"{self.path}: it is damaged ({check}); restore a backup (docs/accounts.md)")
        self._pragma("journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = FULL")  # a stored game survives a power cut: writes are off the reactor
        self._migrate()

    def _migrate(self) -> None:
        """Apply the steps after the file's version, all in one transaction, and set the new version. Done on
        every start even with nothing to apply: writing the version proves the file can be written, now rather
        than at the end of the first game."""
        with self._immediate():
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
    def _immediate(self) -> Iterator[sqlite3.Connection]:
        """A write transaction on the records' connection (``BEGIN IMMEDIATE``: the file's write lock taken at
        once, so two processes' writers queue rather than one failing at its first write)."""
        self._sync_wal()
        with self._immediate_on(self._db, self._lock) as db:
            yield db

    def _sync_wal(self) -> None:
        """Put on disk what the journal's commits left in the WAL file (``synchronous = NORMAL``: they never
        fsync), before a records' commit takes the write lock: that commit (``FULL``) fsyncs the WAL whole, and
        after a stretch of play it wrote megabytes for 17 ms while the reactor's journal write waited on the lock
       . Done here, holding no lock, the commit's own fsync finds little left."""
        try:
            fd = os.open(f"{self.path}-wal", os.O_RDONLY)
        except OSError:
            return  # no WAL file (yet): nothing to put on disk
        try:
            os.fsync(fd)
        except OSError:
            pass  # the commit's own fsync says whether the disk takes it
        finally:
            os.close(fd)

    @contextmanager
    def _immediate_on(self, db: sqlite3.Connection, lock: Any) -> Iterator[sqlite3.Connection]:
        """``db`` (under its ``lock``) in a write transaction: committed at the end, rolled back on any error."""
        with lock, self._write_lock:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        try:
            with self._immediate() as db:
                yield db
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as exc:
                raise self._error(exc) from None

    def _write(self, sql: str, args: tuple[Any, ...]) -> int:
        try:
            with self._immediate() as db:
                return int(db.execute(sql, args).rowcount)
        except sqlite3.Error as exc:
            raise self._error(exc) from exc

    def _journal_write(self, statement: tuple[str, tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """On the journal's connection, its own transaction (autocommit)."""
        try:
            with self._journal_lock, self._write_lock:
                return self._journal.execute(*statement).fetchall()
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def _journal_writes(self, *statements: tuple[str, tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
        """The statements as one transaction on the journal's connection; each one's rows."""
        try:
            with self._journal_transaction() as db:
                return [db.execute(sql, args).fetchall() for sql, args in statements]
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def _journal_write_many(self, sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
        try:
            with self._journal_transaction() as db:
                db.executemany(sql, rows)
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    @contextmanager
    def _journal_transaction(self) -> Iterator[sqlite3.Connection]:
        """The journal's connection in a write transaction (``_immediate_on``)."""
        with self._immediate_on(self._journal, self._journal_lock) as db:
            yield db

    @contextmanager
    def _journal_read(self) -> Iterator[sqlite3.Connection]:
        try:
            with self._journal_lock:
                self._journal.execute("BEGIN")
                try:
                    yield self._journal
                finally:
                    self._journal.execute("COMMIT")
        except sqlite3.Error as exc:
            raise self._error(exc) from None

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
