"""The table journal's rows, in SQL both databases run: each open table's header and current game, its moves as
they are made, the records held until the store has them, and the block of table numbers each process draws.

Written on the reactor thread (a move, a start) on the journal's own connection, so a move waits for no record or
account being written; read back whole at a restart (``open_tables``, ``held_records``), and pruned off the
reactor. Its schema's shared versions (6, 7, 8) are stated here, once for both databases.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from mudwiz.store.base import (
    Claim,
    GameRecord,
    JournaledTable,
    StoreError,
    TableMove,
    held_key,
    held_record,
    journaled_tables,
)
from mudwiz.store.dialect import DB, SQLHooks, compact

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


# the first row a table made now (or a game started now) may call its own: after every row written so far
NEXT_SEQ = "(SELECT coalesce(max(seq), 0) + 1 FROM table_moves)"
PRUNE_CHUNK = 2000  # rows looked at in one pruning transaction, which holds the write lock the journal waits on
# Seconds the pruning rests between its transactions: a lock its thread releases and at once takes again is not
# handed to the reactor's journal write waiting on it, which then waited for the whole pruning (~0.1 s at 200
# tables' game ends: a burst of turns three times as slow as the rest).
PRUNE_PAUSE = 0.002


class JournalSQL(SQLHooks):
    """The ``Store`` methods of the table journal; ``SQLStore`` (sql.py) gives the connections."""

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
