"""The game record: every applied action with its time on the table's clock, handed to the store once the game
is over (``game_end``) or abandoned, so that ``Game.replay`` of its seed and actions can rebuild it.

The table only builds the record (a copy of what it already holds) on the reactor thread; writing it is a
``Keep``'s business: the server's writes it in a thread of its own (``service.StoreWriter``: bench/store.py
measures a write, fsynced on commit, at 0.7-3.4 ms p50 and 4-11 ms p99 on a local ext4 disk, far from well under
a millisecond, and more on a slow disk: the reactor must not wait for it); tests on a fake clock write inline.
A write that fails loses nothing silently: the log says why and carries the whole record as JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from twisted.internet import defer
from twisted.logger import Logger
from twisted.python.failure import Failure

from mudwiz.games.base import standings
from mudwiz.outflow import before_output
from mudwiz.ratings import PEOPLE, RatingBoard, rate_game
from mudwiz.store import GameRecord, Rating, Store, StoreError
from mudwiz.table.botseat import seat_kind
from mudwiz.table.fanout import FanOut
from mudwiz.table.outage import RECORD_RETRY, StoreOutage
from mudwiz.table.state import TableState
from mudwiz.texts import Later, later

log = Logger(namespace=__name__)  # a compiled module has no frame for Logger() to find its name in

Keep = Callable[[GameRecord], "defer.Deferred[int]"]  # store a record, the id when it is stored
Read = Callable[[Callable[[], Any]], "defer.Deferred[Any]"]  # a read of the store, its result when it is done


def inline_read(read: Callable[[], Any]) -> defer.Deferred[Any]:
    return defer.maybeDeferred(read)


@dataclass(frozen=True)
class Records:
    """Where finished games go: the store they are read back from (``/history``, ``/game``, ``/rating``), how a
    record is written to it with its rating changes (the server: in the store's own thread; ``inline``: on the
    calling thread, for a fake clock), and the ratings of the people shown, in memory (``board``)."""

    store: Store
    keep: Keep
    board: RatingBoard
    read: Read = inline_read  # the server's: in the store's thread, after the writes queued before it

    @classmethod
    def inline(cls, store: Store) -> Records:
        return cls(store, lambda record: defer.maybeDeferred(store.record_game, record, rate_game),
                   RatingBoard(store))


class GameRecording:
    """The record of the table's current game, kept as it is played and handed over once when it ends."""

    def __init__(self, table: TableState, fanout: FanOut, records: Records | None,
                 hold: Callable[[GameRecord], None]) -> None:
        """``hold(record)``: the table's, which holds the record in its journal until the store has it."""
        self.table = table
        self.fanout = fanout
        self.hold = hold
        self.keep = records.keep if records is not None else None
        self.board = records.board if records is not None else None
        self.read = records.read if records is not None else inline_read
        self.started = 0.0
        self.actions: list[dict[str, Any]] = []
        self.done = True  # no game yet, or its record is handed over
        self.outage: StoreOutage | None = None  # the server's (the table's journal's): a failed write is said there

    def start(self) -> None:
        self.started = self.table.clock.seconds()
        self.actions = []
        self.done = False

    def moved(self) -> None:
        """Take the engine's new log entries (a move, or the table ending a round-end pause) with the time."""
        game = self.table.game
        assert game is not None
        t = round(self.table.clock.seconds() - self.started, 3)
        for seat, action in game.log[len(self.actions):]:
            self.actions.append({"seat": seat, "action": action, "t": t})

    def record(self, outcome: str) -> GameRecord:
        table, game = self.table, self.table.game
        assert game is not None and game.seed is not None
        seats = [{"name": name, "kind": seat_kind(s)} for name, s in zip(game.players, table.roster.seats, strict=True)]
        # Abandoned: every person left or dropped (a stand-in plays each of their seats). It counts as it stands,
        # those who left below every bot the host seated, or the last to leave a game going badly would undo its
        # loss; from its deal, or a player could look at a hand and deal again for nothing (docs/accounts.md).
        places = standings(game.players, game.scores, game.LOW_WINS,
                           behind=[] if outcome == "finished" else [seat["kind"] in PEOPLE for seat in seats])
        return GameRecord(
            game=game.name, options=dict(game.options), table_options=table.table_options, seed=game.seed,
            seats=seats, actions=list(self.actions), standings=places,
            outcome=outcome, started=self.started, ended=table.clock.seconds(), table_id=table.id,
        )

    def finish(self, outcome: str) -> None:
        """The game ended (``finished``) or nobody plays it any more (``abandoned``): hand its record over, once."""
        if self.done or self.keep is None:
            self.done = True
            return
        self.done = True
        record = self.record(outcome)
        table_id = self.table.id

        def kept(game_id: int) -> None:
            log.info("table {table} game recorded as #{id} ({outcome})", table=table_id, id=game_id, outcome=outcome)
            if self.outage is not None:
                self.outage.worked()
            if record.standings is not None:
                self.rated(record)

        def lost(failure: Failure, tries: int = 1) -> None:
            if failure.check(StoreError) and self.outage is not None:
                # the store is away (a PostgreSQL restart): tried again until it takes the record; the log has
                # the record whole the first time, so a server stopped meanwhile still loses nothing silently
                self.outage.failed(failure.getErrorMessage())
                if tries == 1:
                    log.warn("table {table} game record not stored yet ({why}); tried again every {every} s; "
                             "the record: {record}", table=table_id, why=failure.getErrorMessage(),
                             every=RECORD_RETRY, record=json.dumps(record.to_dict()))
                self.table.clock.callLater(RECORD_RETRY, lambda: self.keep_record(record).addCallbacks(
                    kept, lost, errbackArgs=(tries + 1,)))
                return
            why = failure.getErrorMessage() if failure.check(StoreError) else failure.getTraceback()
            log.error("table {table} game record NOT stored: {why}; the record: {record}", table=table_id, why=why,
                      record=json.dumps(record.to_dict()))

        # The game's last moves are committed before its record: on a running server the record goes to the
        # store's thread at once, while the moves wait for the reactor turn's group commit (outflow.py), and a
        # crash between the two replayed the game to its end after the restart and recorded it a second time.
        # And the record is held in the journal until that thread stores it (``TableJournal.hold``).
        before_output()
        self.hold(record)
        self.keep_record(record).addCallbacks(kept, lost)

    def keep_record(self, record: GameRecord) -> defer.Deferred[int]:
        assert self.keep is not None
        return self.keep(record)

    def rated(self, record: GameRecord) -> None:
        """The game and its rating changes are stored: read the people's ratings again (a bot's is fixed), tell the
        table how they moved, and show them at it (nothing is sent when none moved). Read where the record was
        written (``Records.read``), not on the reactor's thread: there each read waited for the store's lock, which
        the thread holds through every record it commits, and 200 tables ending their games together made the
        reactor wait for 200 commits."""
        board = self.board
        if board is None:
            return
        names = [seat["name"] for seat in record.seats if seat["kind"] in PEOPLE]
        table_id = self.table.id

        def read() -> dict[str, list[Rating]]:
            return board.read(names)

        def show(found: dict[str, list[Rating]]) -> None:
            changes = board.refresh(found, record.game)
            if changes:  # else every state would be as the last one sent (a game of guests and bots: most)
                moved: list[str | Later] = [later("{name} new -> {rating}", name=name, rating=new) if old is None
                                            else f"{name} {old} -> {new}" for name, old, new in changes]
                listed = moved[0]
                for item in moved[1:]:  # a list each reader's language joins its own way
                    listed = later("{list}, {item}", list=listed, item=item)
                self.fanout.announce(later("Ratings ({game}): {changes}.", game=record.game, changes=listed))
                self.fanout.send_states()

        def unread(failure: Failure) -> None:
            for name in names:  # read again when next shown
                board.forget(name)
            log.error("ratings after table {table}'s game not read: {why}", table=table_id,
                      why=failure.getErrorMessage() if failure.check(StoreError) else failure.getTraceback())
            self.fanout.send_states()

        self.read(read).addCallbacks(show, unread)
