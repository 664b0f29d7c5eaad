"""The store for several processes on both backends (the ``backend`` fixture: a real SQLite file and a
real PostgreSQL database): each journaled table's node, read by node; a dead node's tables claimed atomically, two
claimers at once getting disjoint sets; table numbers reserved in blocks no two stores share, above every table
journaled; and the server restoring, at its start, only the tables of its ``MUDWIZ_NODE``."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from conftest import Backend
from test_journal import journaled_lobby, play, start_table
from twisted.internet.task import Clock

from mudwiz.node import node_name
from mudwiz.service import DataLock, makeService
from mudwiz.store import Claim, SQLiteStore, Store
from mudwiz.table import Journal

T = TypeVar("T")


def header(host: str) -> dict[str, Any]:
    return {"game": "wizard", "host": host, "options": {}, "seats": [{"name": host, "kind": "person"}]}


def at_once(*calls: Callable[[], T]) -> list[T]:
    """Run each call on a thread of its own, all let go at the same moment; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)
    failures: list[BaseException] = []

    def run(i: int, call: Callable[[], T]) -> None:
        barrier.wait()
        try:
            results[i] = call()
        except BaseException as exc:  # reported below, in the test's own thread
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures, failures
    return results


def test_a_version_5_journal_gains_nodes_and_numbers_above_its_tables(backend: Backend) -> None:
    backend.open(backend.migrations[:5]).close()  # as the journal slice left it: no nodes
    for table_id in (7, 3):
        backend.query(f"INSERT INTO tables (id, header, updated) VALUES ({table_id}, '{{}}', 1.0)")
    backend.query("INSERT INTO table_moves (table_id, n, seat, action, t) VALUES (7, 0, 0, 'bid 1', 0.5)")
    store = backend.open()
    assert [(t.id, t.node, len(t.moves)) for t in store.open_tables()] == [(3, "", 0), (7, "", 1)]
    assert [t.id for t in store.open_tables("")] == [3, 7] and store.open_tables("east") == []
    assert store.reserve_table_ids(2) == range(8, 10)
    assert backend.query("SELECT count(*) FROM table_ids") == [(1,)]


def test_a_table_keeps_the_node_that_saved_it_last_and_is_read_by_node(backend: Backend) -> None:
    store = backend.open()
    store.save_table(1, header("alice"), node="east")
    store.save_table(2, header("bob"), node="west")
    store.save_table(3, header("carol"))
    for table_id in (1, 2, 3):
        store.start_table_game(table_id, 40 + table_id, {"players": []})
        store.add_table_move(table_id, 0, 0, f"bid {table_id}", 0.5)
    [east] = store.open_tables("east")
    assert (east.id, east.node, east.header["host"], east.seed) == (1, "east", "alice", 41)
    assert east.moves == [{"seat": 0, "action": "bid 1", "t": 0.5}]  # its own moves only
    assert [(t.id, t.node) for t in store.open_tables()] == [(1, "east"), (2, "west"), (3, "")]
    assert [t.id for t in store.open_tables("")] == [3]
    store.save_table(2, header("bob"), node="east")  # a node that took the table over saves it as its own
    assert [t.id for t in store.open_tables("east")] == [1, 2] and store.open_tables("west") == []
    assert store.open_tables("east")[1].moves == [{"seat": 0, "action": "bid 2", "t": 0.5}]


def test_a_dead_nodes_tables_are_claimed_once_with_their_games(backend: Backend) -> None:
    store = backend.open()
    for table_id in (4, 5, 6):
        store.save_table(table_id, header(f"p{table_id}"), node="west" if table_id != 5 else "east")
        store.add_table_move(table_id, 0, 0, "bid 0", 1.0)
    assert store.claim_tables("west", "east") == Claim([4, 6], [])
    assert store.claim_tables("west", "east") == Claim([], [])  # nothing left: a second claim gets nothing
    assert store.claim_tables("nobody", "east") == Claim([], [])
    moved = store.open_tables("east")
    assert [(t.id, t.node, len(t.moves)) for t in moved] == [(4, "east", 1), (5, "east", 1), (6, "east", 1)]
    assert backend.query("SELECT id FROM tables WHERE node = 'west'") == []


def test_two_stores_claiming_the_same_dead_node_at_once_get_disjoint_sets(backend: Backend) -> None:
    first, second = backend.open(), backend.open()  # two processes on one database
    for round_ in range(5):
        ids = range(1000 * round_ + 1, 1000 * round_ + 201)
        for table_id in ids:
            first.save_table(table_id, header("x"), node="dead")
        one, two = at_once(lambda: first.claim_tables("dead", "one").tables,
                           lambda: second.claim_tables("dead", "two").tables)
        assert not set(one) & set(two) and sorted(one + two) == list(ids)
        assert [t.id for t in first.open_tables("one") if t.id in ids] == one
        assert [t.id for t in second.open_tables("two") if t.id in ids] == two
        assert first.open_tables("dead") == []


def test_table_numbers_reserved_by_two_stores_at_once_never_meet(backend: Backend) -> None:
    first, second = backend.open(), backend.open()
    first.save_table(41, header("alice"))  # journaled before: numbers start above it

    def reserving(store: Store, sizes: list[int]) -> Callable[[], list[range]]:
        return lambda: [store.reserve_table_ids(n) for n in sizes]

    sizes = [1, 3, 7, 2, 10] * 20
    blocks = [block for got in at_once(reserving(first, sizes), reserving(second, sizes[::-1])) for block in got]
    numbers = [n for block in blocks for n in block]
    assert len(numbers) == len(set(numbers)) == 2 * sum(sizes)  # no number given twice
    assert min(numbers) == 42 and sorted(len(b) for b in blocks) == sorted(sizes * 2)
    first.close()
    again = backend.open()  # a restart carries on above every number given
    assert again.reserve_table_ids(1) == range(max(numbers) + 1, max(numbers) + 2)


def test_a_table_journaled_past_the_counter_is_never_given_its_number_again(backend: Backend) -> None:
    store = backend.open()
    assert store.reserve_table_ids(5) == range(1, 6)
    store.save_table(50, header("alice"))  # numbered by a process that does not reserve (today's lobby)
    assert store.reserve_table_ids(2) == range(51, 53)
    for bad in (0, -3):
        with pytest.raises(ValueError, match="table numbers"):
            store.reserve_table_ids(bad)
    assert store.reserve_table_ids(1) == range(53, 54)  # a refused count took nothing


def test_the_journal_keeps_its_node_with_every_table(store: Store) -> None:
    clock, lobby = journaled_lobby(store)
    lobby.journal = Journal(store, node="east")
    alice = start_table(lobby, "wizard")
    play(clock, lobby, alice, 3)
    [saved] = store.open_tables("east")
    assert saved.node == "east" and saved.id == 1 and saved.moves


def test_the_server_restores_only_its_own_nodes_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``MUDWIZ_NODE`` set: a restart restores that node's tables only (another node's are for it, or for the
    node that claims them); unset: every table, as the single-process server always did."""
    data = tmp_path / "data"
    data.mkdir()
    store = SQLiteStore(data / "mudwiz.db")
    clock, lobby = journaled_lobby(store)
    lobby.journal = Journal(store, node="east")
    play(clock, lobby, start_table(lobby, "wizard"), 2)
    store.close()
    for node, restored in (("west", []), ("east", [1]), ("", [1])):
        monkeypatch.setenv("MUDWIZ_NODE", node)
        top = makeService(listen="tcp:0:interface=127.0.0.1", data=str(data), clock=Clock())
        assert node_name() == node and sorted(top.lobby.tables) == restored  # type: ignore[attr-defined]
        top.lobby.journal.store.close()  # type: ignore[attr-defined]
        next(s for s in top if isinstance(s, DataLock)).stopService()  # lets go of the data directory
    monkeypatch.setenv("MUDWIZ_NODE", "  north ")
    assert node_name() == "north"
