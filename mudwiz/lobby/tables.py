"""The tables open on this process: their list by number, the numbers given to new ones, and making one."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from twisted.internet.interfaces import IReactorTime

from mudwiz.errors import BadCommand
from mudwiz.lobby.directory import Directory
from mudwiz.numbers import whole_number
from mudwiz.session import Session
from mudwiz.table import IDLE_CLOSE, Journal, Records, Table, TableServices
from mudwiz.texts import Later, later
from mudwiz.thinking import Think


class TableList:
    """This process's tables, by number. ``closed`` is told of each table that closes (after it is unlisted),
    ``notice`` says a line to the lobby (one opened)."""

    def __init__(self, clock: IReactorTime, directory: Directory, closed: Callable[[Table], None],
                 notice: Callable[[str | Later, Session | None], None], *, bot_delay: float, seed: int | None,
                 think: Think, idle_close: float = IDLE_CLOSE, records: Records | None = None) -> None:
        self.clock = clock
        self.directory = directory
        self.closed = closed
        self.notice = notice
        self.bot_delay = bot_delay
        self.seeds = random.Random(seed)
        self.think = think
        self.idle_close = idle_close
        self.records = records  # None: games are not kept, /history and /game say so
        self.journal: Journal | None = None  # set by makeService; None: tables do not survive a restart
        self.tables: dict[int, Table] = {}
        self.next_id = 1  # the next number this process gives on its own, above every table it has had

    def new_table(self, session: Session, game: str) -> Table:
        if session.table is not None:
            raise BadCommand(later("you are at table {n}; /leave it first", n=session.table.id))
        table = self.make_table(self.new_table_id(), game, session)
        self.notice(later("{name} opens table {n} ({game}).", name=session.name, n=table.id,
                          game=table.game_class.title), session)
        return table

    def new_table_id(self) -> int:
        """The number of the next table opened here (a cluster's processes draw theirs from a shared counter)."""
        return self.directory.new_table_id(self.next_id)

    def summaries(self) -> list[dict[str, Any]]:
        """What ``/tables`` lists: this process's tables, and in a cluster the other processes' too, by number."""
        return self.directory.summaries(self.tables.values())

    def make_table(self, table_id: int, game: str, host: Session, journal: bool = True) -> Table:
        """A table of this server's, listed from now on (``journal`` False: not journaled yet, as while the
        restore rebuilds one from the journal)."""
        table = Table(
            table_id, game, host, self.clock, bot_delay=self.bot_delay,
            seed_source=random.Random(self.seeds.randrange(2**63)), on_empty=self.unlist,
            server=TableServices(self.think, self.records, self.journal if journal else None),
            idle_close=self.idle_close,
        )
        self.tables[table.id] = table
        self.taken(table.id)
        return table

    def taken(self, table_id: int) -> None:
        """``table_id`` is (or was) a table's here: the numbers given from now on are above it."""
        self.next_id = max(self.next_id, table_id + 1)

    def table(self, number: str, usage: str = "/join N") -> Table:
        text = number.strip().lstrip("#")
        if not text:
            raise BadCommand(later("usage: {usage}; /tables lists the tables", usage=usage))
        n = whole_number(text)
        if n is None or n not in self.tables:
            raise BadCommand(later("there is no table {n}; /tables lists them", n=number))
        return self.tables[n]

    def unlist(self, table: Table) -> None:
        """``table`` closed (or was half-built by a restore that failed): no longer listed."""
        self.tables.pop(table.id, None)
        self.closed(table)

    def seated_bot(self, name: str) -> bool:
        """Whether a computer player sits anywhere under ``name`` (not a stand-in: that keeps a person's name for
        them). Seats are found by name, so a person must never share one with a bot."""
        return any(t.seats[seat].is_bot and not getattr(t.seats[seat], "stand_in", False)
                   for t in self.tables.values() if (seat := t.seat_of(name)) is not None)

    def holding(self, key: str) -> bool:
        """Whether a table here keeps a seat for ``key`` (a lower-cased name)."""
        return any(t.holds_seat_for(key) for t in self.tables.values())
