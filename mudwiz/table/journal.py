"""The table journal: what a table is (its header: game, host, options, seats) and its game's every move, committed
to the store before the move's effects are sent to anyone, so that after a crash (``kill -9``) and a restart the
table comes back at its last committed move (:mod:`mudwiz.restore` rebuilds it).

``Journal`` is the server's side (the store, or none; stopped when the server stops, so that the connections
dropping on the way down change nothing that was journaled); ``TableJournal`` is one table's part, which writes
only what changed. The writes are small transactions on the reactor thread, committed into SQLite's write-ahead
log without an fsync (store/sqlite.py says why, bench/journal.py measures them); on a running server a reactor
turn's moves are one transaction, committed before any output leaves (``Journal.grouped``, mudwiz/outflow.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from twisted.logger import Logger

from mudwiz.store import GameRecord, Store, StoreError, TableMove
from mudwiz.table.botseat import seat_kind
from mudwiz.table.outage import StoreOutage
from mudwiz.table.state import TableState
from mudwiz.texts import Later

log = Logger(namespace=__name__)  # a compiled module has no frame for Logger() to find its name in


class Journal:
    """Where the tables journal to: ``store`` (None: nowhere, as in tests that do not look). ``resume_code``
    gives a guest's resume code to keep with their seat (None: they have none). ``node`` is this process's name
    (mudwiz/node.py), kept with every table it journals: the tables a restart of this node restores, or another
    node claims when this one dies ('' the single-process server)."""

    def __init__(self, store: Store | None = None,
                 resume_code: Callable[[str], str | None] | None = None, node: str = "",
                 tell: Callable[[Later], None] | None = None) -> None:
        self.store = store
        self.resume_code = resume_code or (lambda name: None)
        self.node = node
        self.stopped = False
        # Grouped (a running server's): moves wait here for ``commit``, which runs before any output leaves
        # (mudwiz/outflow.py) and so once a reactor turn, instead of a transaction a move.
        self.grouped = False
        self.pending: list[tuple[TableJournal, TableMove]] = []
        self.outage = StoreOutage(tell)  # said once when the store stops answering, once when it is back

    def commit(self) -> None:
        """Journal the moves waiting, all in one transaction. If that fails, the game goes on, as with a single
        move's failure: each table's journal goes back to its first move not written, to write it again with the
        table's next move (said once while the store is away: ``outage``)."""
        if not self.pending or self.store is None:
            return
        pending, self.pending = self.pending, []
        try:
            self.store.add_table_moves([move for _, move in pending])
        except StoreError as exc:
            self.outage.failed(exc)  # said once; the moves wait in their tables' journals
            for table, (_, n, *_rest) in pending:
                table.written = min(table.written, n)
            return
        self.outage.worked()

    def stop(self) -> None:
        """The server is stopping: from now on nothing is journaled (nor dropped), so every table is restored as
        it was, not as the closing connections leave it."""
        self.commit()
        self.stopped = True


class TableJournal:
    """One table's journal: its header when it changes, its game's start and moves, its closing."""

    def __init__(self, table: TableState, journal: Journal | None, moves: int = 0) -> None:
        self.table = table
        self.journal = journal
        self.store = journal.store if journal is not None else None
        self.node = journal.node if journal is not None else ""
        self.written = moves  # entries of the game's log already journaled
        self.last_header = ""
        self.closed = False

    @property
    def stopping(self) -> bool:
        """The server is on its way down: moves are no longer taken (they could not be journaled)."""
        return self.journal is not None and self.journal.stopped

    def _write(self, what: str, fn: Callable[..., None], *args: Any) -> bool:
        if self.store is None or self.closed or self.stopping:
            return False
        assert self.journal is not None
        self.journal.commit()  # the moves waiting go first, so the journal's writes keep their order
        try:
            fn(*args)
        except StoreError as exc:  # the game goes on; only its restart-safety is lost, and the log says so
            if not self.journal.outage.failed(exc):
                log.warn("table {table} journal: {what} NOT written: {why}", table=self.table.id, what=what, why=exc)
            return False
        self.journal.outage.worked()
        return True

    def header(self) -> dict[str, Any]:
        table = self.table
        assert self.journal is not None
        seats = []
        for s in table.roster.seats:
            seat = {"name": s.name, "kind": seat_kind(s)}
            # a guest's code with their seat, a stand-in playing it for them or not: the seat is still theirs
            code = self.journal.resume_code(s.name) if seat["kind"] in ("person", "stand-in") else None
            if code:
                seat["resume"] = code
            seats.append(seat)
        header: dict[str, Any] = {"game": table.name, "host": table.roster.host,
                                  "options": dict(table.config.chosen), "seats": seats}
        now = table.clock.seconds()
        names = [s.name for s in table.roster.observers if not s.is_bot]
        names += [name for name, until in table.roster.watch_until.values() if until >= now]  # dropped, coming back
        watchers: list[str | dict[str, str]] = []
        for name in names:  # a guest's code with their name: the same person proves it when they come back
            code = self.journal.resume_code(name)
            watchers.append({"name": name, "resume": code} if code else name)
        if table.tournament is not None:
            header["tournament"] = table.tournament
        if table.adjourned is not None:  # kept so through a restart (mudwiz/restore.py)
            header["adjourned"] = table.adjourned.to_json()
        if watchers:  # watched again by the same people after a restart (``Lobby.keep_watch``)
            header["observers"] = watchers
        return header

    def save(self) -> None:
        """Journal the header if it changed (a seating, the host, an option)."""
        if self.store is None or self.closed or self.stopping:
            return
        header = self.header()
        text = json.dumps(header, sort_keys=True)
        if text != self.last_header and self._write("header", self.store.save_table, self.table.id, header, self.node):
            self.last_header = text

    def started(self, at: float) -> None:
        """A game starts (``at``: on the table's clock): its seed and set-up (the header first: the seats it starts
        with)."""
        game = self.table.game
        assert game is not None and game.seed is not None
        self.save()
        self.written = 0
        if self.store is not None:
            self._write("start", self.store.start_table_game, self.table.id, game.seed, self.game_entry(at))

    def game_entry(self, started: float) -> dict[str, Any]:
        table, game = self.table, self.table.game
        assert game is not None
        return {"players": list(game.players), "options": dict(game.options), "started": started,
                "abandoned": table.abandoned}

    def moved(self, actions: list[dict[str, Any]]) -> None:
        """Journal the game's new log entries, with their times as the record has them (``actions``): queued for the
        journal's ``commit``, made at once unless the journal is ``grouped`` (then before any output leaves)."""
        if self.store is None or self.closed or self.stopping:
            return
        assert self.journal is not None
        pending = self.journal.pending
        while self.written < len(actions):
            entry = actions[self.written]
            pending.append((self, (self.table.id, self.written, entry["seat"], entry["action"], entry["t"])))
            self.written += 1
        if not self.journal.grouped:
            self.journal.commit()

    def hold(self, record: GameRecord) -> None:
        """The game's record is about to go to the store's thread: journal it first, after the game's last moves
        (``Store.hold_record``). Until that thread has stored it, the host may start the next game or the table
        may close, and either forgets the game here: a crash in between lost the game for good. Only with all its
        moves journaled (the store reads them back from there): after a failed write, the game's restart-safety
        is lost, and the log has said so."""
        if self.store is None or self.closed or self.stopping:
            return
        assert self.journal is not None
        self.journal.commit()
        if self.written >= len(record.actions):
            self._write("record", self.store.hold_record, record, self.node)

    def abandoned(self, started: float) -> None:
        if self.store is not None:
            self._write("abandonment", self.store.mark_table_game, self.table.id, self.game_entry(started))

    def close(self) -> None:
        """The table closed: forget it (unless the server is stopping: then it is to be restored)."""
        if self.store is not None:
            self._write("closing", self.store.drop_table, self.table.id)
        self.closed = True
