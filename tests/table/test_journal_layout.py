"""The table journal's moves kept in the order written (schema version 7), on both backends (the
``backend`` fixture: a real SQLite file and a real PostgreSQL database): a journal of version 6 keeps its moves
through the migration; a new game forgets the last without deleting its rows; a move written again is read as
its latest; and pruning deletes exactly the rows no table reads any more, never the last one, so that a row
written after it is never numbered below a table's mark."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

from conftest import Backend
from test_journal import journaled_lobby
from turns import outflow
from twisted.internet import reactor

from mudwiz.service import CHECKPOINT_EVERY, StoreWriter, TableJournalService
from mudwiz.store import SQLiteStore, Store


def header(host: str) -> dict[str, Any]:
    return {"game": "wizard", "host": host, "options": {}, "seats": [{"name": host, "kind": "person"}]}


def actions(store: Store) -> dict[int, list[str]]:
    return {t.id: [m["action"] for m in t.moves] for t in store.open_tables()}


def rows(backend: Backend) -> int:
    return int(backend.query("SELECT count(*) FROM table_moves")[0][0])


def test_a_version_6_journal_keeps_its_tables_moves_through_the_migration(backend: Backend) -> None:
    backend.open(backend.migrations[:6]).close()  # as the last version left it, written as it wrote it
    for table_id in (4, 2):
        backend.query(f"INSERT INTO tables (id, header, seed, game, updated) VALUES ({table_id}, "
                      f"'{{\"game\": \"wizard\"}}', {10 + table_id}, '{{}}', 1.0)")
        for n in (2, 0, 1):  # its key put them in order, not the order written
            backend.query(f"INSERT INTO table_moves (table_id, n, seat, action, t) VALUES "
                          f"({table_id}, {n}, {n}, 'bid {table_id}{n}', {0.5 + n})")
    store = backend.open()
    assert actions(store) == {2: ["bid 20", "bid 21", "bid 22"], 4: ["bid 40", "bid 41", "bid 42"]}
    [two] = [t for t in store.open_tables() if t.id == 2]
    assert two.moves[1] == {"seat": 1, "action": "bid 21", "t": 1.5} and two.seed == 12
    store.add_table_move(2, 3, 3, "bid 23", 9.0)  # the log goes on after the copied rows
    store.start_table_game(4, 99, {"players": []})  # and a new game forgets the last
    assert actions(store) == {2: ["bid 20", "bid 21", "bid 22", "bid 23"], 4: []}


def test_a_new_game_forgets_the_last_and_a_move_written_again_is_read_as_its_latest(backend: Backend) -> None:
    store = backend.open()
    store.save_table(1, header("alice"))
    store.start_table_game(1, 7, {"players": []})
    store.add_table_moves([(1, 0, 0, "bid 1", 1.0), (1, 1, 1, "bid 2", 2.0)])
    store.add_table_move(1, 1, 1, "bid 3", 3.0)  # rewritten, as after a group commit that failed
    assert actions(store) == {1: ["bid 1", "bid 3"]}
    store.start_table_game(1, 8, {"players": []})
    assert actions(store) == {1: []}
    store.add_table_move(1, 0, 2, "bid 0", 4.0)
    assert actions(store) == {1: ["bid 0"]}
    assert rows(backend) == 4  # nothing deleted on the way: the old game's rows wait for pruning


def test_pruning_deletes_only_what_no_table_reads_and_keeps_the_last_row(backend: Backend) -> None:
    store = backend.open()
    for table_id in (1, 2, 3):
        store.save_table(table_id, header(f"h{table_id}"))
        store.start_table_game(table_id, table_id, {"players": []})
    store.add_table_moves([(t, n, 0, f"play {t}{n}", 1.0) for n in range(4) for t in (1, 2, 3)])  # 12 rows
    store.start_table_game(1, 11, {"players": []})  # table 1's 4 rows are an earlier game's now
    store.add_table_move(1, 0, 0, "play new", 2.0)
    store.drop_table(3)  # table 3's 4 rows belong to no table
    store.add_table_move(2, 4, 0, "play 24", 3.0)
    before = actions(store)
    assert before == {1: ["play new"], 2: ["play 20", "play 21", "play 22", "play 23", "play 24"]}
    assert store.prune_journal() == 8
    assert actions(store) == before and rows(backend) == 6
    assert store.prune_journal() == 0

    store.drop_table(2)  # the last row written is table 2's: pruning leaves it, so numbering goes on after it
    store.drop_table(1)
    assert store.prune_journal() == 5  # both tables' rows but the last one written, table 2's "play 24"
    assert rows(backend) == 1
    store.save_table(5, header("e"))
    store.start_table_game(5, 5, {"players": []})
    store.add_table_move(5, 0, 1, "bid 5", 4.0)
    assert actions(store) == {5: ["bid 5"]}


def test_pruning_an_empty_journal_does_nothing(backend: Backend) -> None:
    store = backend.open()
    assert store.prune_journal() == 0
    store.save_table(1, header("alice"))
    assert store.prune_journal() == 0 and actions(store) == {1: []}


def test_a_running_server_prunes_its_journal_in_the_stores_thread_now_and_then(tmp_path: Path) -> None:
    """``TableJournalService`` on the lobby's clock: every ``CHECKPOINT_EVERY`` seconds the store's own thread
    (a real one) prunes the rows no table reads, then checkpoints."""
    store = SQLiteStore(tmp_path / "mudwiz.db")
    store.save_table(1, header("alice"))
    store.start_table_game(1, 1, {"players": []})
    store.add_table_moves([(1, n, 0, f"bid {n}", 1.0) for n in range(3)])
    store.start_table_game(1, 2, {"players": []})  # the first game's 3 rows are no table's now
    store.add_table_move(1, 0, 0, "bid 9", 2.0)
    clock, lobby = journaled_lobby(store)
    writer = StoreWriter(reactor, store)
    journal = TableJournalService(lobby, lobby.journal, writer, outflow())
    writer.startService()
    journal.startService()
    try:
        def kept() -> int:
            with closing(sqlite3.connect(tmp_path / "mudwiz.db")) as db:
                return int(db.execute("SELECT count(*) FROM table_moves").fetchone()[0])

        clock.advance(CHECKPOINT_EVERY - 1)
        time.sleep(0.2)
        assert kept() == 4  # not yet
        clock.advance(1)
        deadline = time.monotonic() + 10
        while kept() > 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert kept() == 1 and actions(store) == {1: ["bid 9"]}
    finally:
        journal.stopService()
        writer.stopService()
