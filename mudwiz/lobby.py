"""The lobby: who is online, the tables, lobby chat and tells, and the grace period of dropped players.

A dropped player who was seated in a running game keeps the seat for ``grace`` seconds (the table waits for
them); coming back under the same name in that time puts them back in the seat with a fresh view. After it,
a stand-in bot plays the seat so the others can finish, and the player may still take it back.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from typing import Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from mudwiz.errors import BadCommand
from mudwiz.numbers import whole_number
from mudwiz.ratelimit import TokenBucket
from mudwiz.render.style import one_line
from mudwiz.session import Session
from mudwiz.table import Table
from mudwiz.thinking import Think, think_inline

log = Logger()

NAME_RULE = re.compile(r"^[A-Za-z0-9_-]{2,16}$")
LOBBY = "lobby"
CHAT_BURST, CHAT_RATE = 10, 1.0  # lines of chat at once, then lines a second: a conversation, not a flood


class Lobby:
    def __init__(
        self,
        clock: IReactorTime,
        *,
        grace: float = 120.0,
        bot_delay: float = 1.0,
        seed: int | None = None,
        think: Think = think_inline,
    ) -> None:
        self.clock = clock
        self.think = think
        self.grace = grace
        self.bot_delay = bot_delay
        self.seeds = random.Random(seed)
        self.users: dict[str, Session] = {}  # lower-cased name -> session
        self.tables: dict[int, Table] = {}
        self.away: dict[str, tuple[Table, IDelayedCall]] = {}
        self.talk: dict[str, TokenBucket] = {}  # lower-cased name -> how fast they may chat
        self._next_table = 1

    # ------------------------------------------------------------ arriving and leaving

    def check_name(self, name: str) -> str:
        name = name.strip()
        if not NAME_RULE.match(name):
            raise BadCommand("a name is 2 to 16 letters, digits, _ or - (no spaces)")
        if name.lower() in self.users:
            raise BadCommand(f"{name} is already connected; choose another name")
        if self.is_seated_bot(name):
            raise BadCommand(f"{name} is a computer player at a table; choose another name")
        return name

    def is_seated_bot(self, name: str) -> bool:
        """Whether a computer player sits anywhere under ``name`` (not a stand-in: that keeps a person's name for
        them). Seats are found by name, so a person must never share one with a bot."""
        return any(t.seats[seat].is_bot and not getattr(t.seats[seat], "stand_in", False)
                   for t in self.tables.values() if (seat := t.seat_of(name)) is not None)

    def free_bot_name(self, table: Table) -> str:
        """The first ``botN`` that no person (here or away) and nobody at ``table`` is called (each table counts
        its own bots from bot1: a person never shares a bot's name, as ``check_name`` sees to)."""
        taken = set(self.users) | set(self.away) | {s.name.lower() for s in table.seats}
        return next(f"bot{i}" for i in itertools.count(1) if f"bot{i}" not in taken)

    def login(self, session: Session, name: str, greet: Callable[[], None] | None = None) -> None:
        """Admit ``session`` as ``name``; ``greet`` (the welcome) runs before a kept seat is handed back, so a
        returning player reads the welcome first and then their table."""
        session.name = self.check_name(name)
        session.connected = True
        self.users[session.name.lower()] = session
        log.info("login {name}", name=session.name)
        self.lobby_notice(f"{session.name} has arrived.", exclude=session)
        if greet is not None:
            greet()
        back = self.away.pop(session.name.lower(), None)
        if back is not None:
            table, timer = back
            if timer.active():
                timer.cancel()
            table.reattach(session)
            return
        for table in list(self.tables.values()):
            if table.holds_seat_for(session.name):
                table.reattach(session)
                return

    def disconnect(self, session: Session) -> None:
        """The connection is gone: keep a running game's seat for the grace period, else just leave."""
        if self.users.get(session.name.lower()) is not session:
            return
        del self.users[session.name.lower()]
        self.talk.pop(session.name.lower(), None)
        log.info("logout {name}", name=session.name)
        table = session.table
        session.connected = False
        if table is not None:
            seated = table.seat_of(session.name) is not None
            if seated and table.in_game and self.grace > 0:
                timer = self.clock.callLater(self.grace, self._grace_over, session.name, table)
                self.away[session.name.lower()] = (table, timer)
                table.announce(f"{session.name} has lost the connection; the seat is kept for {self.grace:g} s.")
                table.send_states()
            else:
                table.leave(session)
        self.lobby_notice(f"{session.name} has left.")

    def _grace_over(self, name: str, table: Table) -> None:
        self.away.pop(name.lower(), None)
        seat = table.seat_of(name)
        if seat is None or table.seats[seat].connected:
            return
        if table.in_game:
            table.replace_with_bot(seat, f"{name} did not come back; a bot plays their seat.")
        else:
            table.leave(table.seats[seat])

    # ------------------------------------------------------------ tables

    def new_table(self, session: Session, game: str) -> Table:
        if session.table is not None:
            raise BadCommand(f"you are at table {session.table.id}; /leave it first")
        table = Table(
            self._next_table, game, session, self.clock, bot_delay=self.bot_delay,
            seed_source=random.Random(self.seeds.randrange(2**63)), on_empty=self._table_closed,
            think=self.think,
        )
        self.tables[table.id] = table
        self._next_table += 1
        self.lobby_notice(f"{session.name} opens table {table.id} ({table.game_class.title}).", exclude=session)
        return table

    def table(self, number: str, usage: str = "/join N") -> Table:
        text = number.strip().lstrip("#")
        if not text:
            raise BadCommand(f"usage: {usage}; /tables lists the tables")
        n = whole_number(text)
        if n is None or n not in self.tables:
            raise BadCommand(f"there is no table {number}; /tables lists them")
        return self.tables[n]

    def _table_closed(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        for name, (t, timer) in list(self.away.items()):
            if t is table:
                if timer.active():
                    timer.cancel()
                del self.away[name]

    # ------------------------------------------------------------ talk

    def in_lobby(self) -> list[Session]:
        return [s for s in self.users.values() if s.table is None]

    def lobby_notice(self, text: str, exclude: Session | None = None) -> None:
        for s in self.in_lobby():
            if s is not exclude:
                s.notice(text)

    def may_talk(self, session: Session) -> None:
        """Refuse a line of chat from someone who is talking faster than a room can read."""
        bucket = self.talk.get(session.name.lower())
        if bucket is None:
            bucket = self.talk[session.name.lower()] = TokenBucket(self.clock, CHAT_RATE, CHAT_BURST)
        if not bucket.take():
            raise BadCommand(f"you are talking too fast: {CHAT_BURST} lines at once, then one a second")

    def chat(self, session: Session, text: str) -> None:
        """Say ``text`` to the room ``session`` is in, as one line (``one_line``: here too, so no path that
        skips the network edge can carry a line break or a bidi override to others)."""
        text = one_line(text)
        self.may_talk(session)
        if session.table is not None:
            session.table.chat(session, text)
            return
        message = {"type": "chat", "from": session.name, "channel": LOBBY, "text": text}
        for s in self.in_lobby():
            s.deliver(message)

    def tell(self, session: Session, name: str, text: str) -> None:
        target = self.users.get(name.lower())
        if target is None:
            raise BadCommand(f"nobody called {name} is online")
        text = one_line(text)
        self.may_talk(session)
        message = {"type": "chat", "from": session.name, "channel": "tell", "to": target.name, "text": text}
        target.deliver(message)
        if target is not session:
            session.deliver(message)

    def who(self) -> list[dict[str, Any]]:
        rows = []
        for s in sorted(self.users.values(), key=lambda s: s.name.lower()):
            where = "lobby"
            if s.table is not None:
                seated = s.table.seat_of(s.name) is not None
                where = f"table {s.table.id}" + ("" if seated else " (watching)")
            rows.append({"name": s.name, "where": where})
        return rows
