"""What each database gives the store's shared SQL: its ``Dialect`` (the few things SQLite and PostgreSQL write
differently, sql.py's docstring says which and why) and its connections, the hooks of ``SQLHooks``, the base of
every part of ``SQLStore`` (records and ratings, accounts, the journal, the meeting place), each of which states
its statements once in ``?`` style.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mudwiz.render.jsonl import dumps

DB = Any  # a DB-API connection, sqlite3's or psycopg's: both have execute (-> a cursor) and cursor()


@dataclass(frozen=True)
class Dialect:
    """What one database writes its own way (sql.py's docstring lists why each is needed)."""

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


class SQLHooks:
    """The connections a database gives the parts of ``SQLStore``, and the statements in its dialect; the backend
    (``SQLiteStore``, ``PostgresStore``) implements the hooks."""

    dialect: Dialect

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

    def _sql(self, text: str) -> str:
        return self.dialect.sql(text)

    def _hold_off(self, db: DB, table: str) -> None:
        """Hold off every other writer of ``table`` until this transaction ends (``Dialect.lock``): a check then an
        insert (a look-alike, a list's limit) made by two processes at once would otherwise both pass."""
        if self.dialect.lock:
            db.execute(self.dialect.lock.format(table=table))


def rows_of(cursor: Any) -> list[tuple[Any, ...]]:
    """What a statement returned (none for one that returns no rows: psycopg raises on fetching those)."""
    return list(cursor.fetchall()) if cursor.description else []
