"""How long a move's journal write holds the reactor thread (mudwiz/table/journal.py), on a real file in a temporary
directory (or ``--data DIR``, to measure another disk):

* ``move``: p50/p99/max of one ``add_table_move`` (a single-statement transaction, committed into the WAL without
  an fsync: synchronous=NORMAL on the journal's own connection);
* ``move, records``: the same while another thread stores whole game records as fast as it can (fsynced,
  synchronous=FULL, as the server's store thread does at each game's end): a journal write then sometimes waits
  for SQLite's write lock;
* ``table``: a whole move at a real table (engine, record, journal, fan-out to a seated person and two bots, on
  a fake clock): µs a move, and how many of them the journal's calls take.

    python bench/journal.py [--moves 5000] [--games 20] [--data DIR]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runnable from a checkout without installing
sys.path.insert(0, str(Path(__file__).resolve().parent))

from store import sample  # noqa: E402
from twisted.internet.task import Clock  # noqa: E402

from mudwiz.commands import dispatch  # noqa: E402
from mudwiz.lobby import Lobby  # noqa: E402
from mudwiz.session import Session  # noqa: E402
from mudwiz.store import SQLiteStore, open_store  # noqa: E402
from mudwiz.table import Journal  # noqa: E402


def figures(name: str, times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return (f"{name:<16} n={len(times):<6} p50={statistics.median(times) * 1e6:8.1f} µs  p99={p99 * 1e6:8.1f} µs  "
            f"max={times[-1] * 1e6:9.1f} µs  mean={statistics.fmean(times) * 1e6:7.1f} µs")


def journal_writes(store: SQLiteStore, moves: int, table_id: int) -> list[float]:
    store.save_table(table_id, {"game": "wizard", "host": "p", "options": {}, "seats": []})
    store.start_table_game(table_id, table_id, {"players": ["p", "bot1", "bot2"], "options": {}, "started": 0.0,
                                                "abandoned": False})
    times = []
    for n in range(moves):
        start = time.perf_counter()
        store.add_table_move(table_id, n, n % 3, f"play R{n % 13 + 1}", n * 0.5)
        times.append(time.perf_counter() - start)
    return times


def with_records(store: SQLiteStore, moves: int) -> list[float]:
    """Journal writes while a thread records games back to back (the store thread's fsynced commits)."""
    done = threading.Event()

    def recorder() -> None:
        i = 0
        while not done.is_set():
            store.record_game(sample(i))
            i += 1

    thread = threading.Thread(target=recorder)
    thread.start()
    try:
        return journal_writes(store, moves, 2)
    finally:
        done.set()
        thread.join()


class Quiet(Session):
    """A seated person whose messages are built (the fan-out's work) and then dropped."""

    def deliver(self, message: dict[str, Any], event: object = None) -> None:
        pass


class Timed:
    """Seconds spent in the store's table-journal methods (wrapped on the store object for the bench), beside the
    whole move's. The store's, not ``TableJournal``'s: a compiled ``TableJournal`` (mudwiz/compiled.py) calls its
    own methods directly, past any wrapper set on its class; what it asks of the store goes through the object."""

    METHODS = ("save_table", "start_table_game", "add_table_moves", "mark_table_game", "drop_table")

    def __init__(self, store: SQLiteStore) -> None:
        self.calls: list[float] = []
        for name in self.METHODS:
            setattr(store, name, self.wrap(getattr(store, name)))

    def wrap(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any) -> Any:
            start = time.perf_counter()
            try:
                return method(*args)
            finally:
                self.calls.append(time.perf_counter() - start)
        return timed


def table_moves(store: SQLiteStore | None, games: int) -> tuple[float, int]:
    """Seconds and moves for ``games`` Wizard games of a person (moving at once) and two random bots."""
    clock = Clock()
    lobby = Lobby(clock, grace=30, bot_delay=0.001, seed=5)
    if store is not None:
        lobby.journal = Journal(store)
    rng = random.Random(5)
    elapsed, moves = 0.0, 0
    for g in range(games):
        person = Quiet()
        lobby.login(person, f"p{g}")
        dispatch(lobby, person, "/new wizard")
        dispatch(lobby, person, "/option turn 0")
        dispatch(lobby, person, "/bot add random")
        dispatch(lobby, person, "/bot add random")
        dispatch(lobby, person, "/start")
        table = person.table
        assert table is not None and table.game is not None
        start = time.perf_counter()
        while table.in_game:
            seat = table.seat_of(person.name)
            legal = table.game.legal_actions(seat) if seat is not None else []
            if legal:
                table.act(person, str(rng.choice(legal)))
            elif table.game.phase == "roundend":
                table.ok(person)
            else:
                clock.advance(0.001)
        elapsed += time.perf_counter() - start
        moves += len(table.game.log)
        lobby.disconnect(person)
    return elapsed, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=5000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--data", help="the data directory (default: a new temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(args.data or tmp)
        print(figures("move", journal_writes(store, args.moves, 1)))
        print(figures("move, records", with_records(store, args.moves)))
        store.checkpoint()  # as the server's store thread does every 30 s
        timed = Timed(store)
        elapsed, moves = table_moves(store, args.games)
        store.close()
    move, journal = elapsed / moves * 1e6, sum(timed.calls) / moves * 1e6
    print(figures("table's calls", timed.calls))
    print(f"table            moves={moves}  {move:.0f} µs a move (a person and two bots at Wizard, 3 seats' views), "
          f"of which the journal {journal:.1f} µs ({journal / move:.1%})")


if __name__ == "__main__":
    main()
