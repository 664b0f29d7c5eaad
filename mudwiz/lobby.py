"""The lobby: who is online, the tables, lobby chat and tells, and the grace period of dropped players.

A dropped player who was seated in a running game keeps the seat for ``grace`` seconds (the table waits for
them); coming back under the same name in that time puts them back in the seat with a fresh view. After it,
a stand-in bot plays the seat so the others can finish, and the player may still take it back.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from mudwiz.accounts import Accounts
from mudwiz.errors import BadCommand
from mudwiz.numbers import whole_number
from mudwiz.ratelimit import Buckets
from mudwiz.session import Session
from mudwiz.table import IDLE_CLOSE, Journal, Records, Table, TableServices
from mudwiz.thinking import Think, think_inline
from mudwiz.usertext import one_line

log = Logger()

NAME_RULE = re.compile(r"^[A-Za-z0-9_-]{2,16}$")
LOBBY = "lobby"
CHAT_BURST, CHAT_RATE = 10, 1.0  # lines of chat at once, then lines a second: a conversation, not a flood
# Commands that tell other people something (/new, /join, /watch, /bot, /option): moves at once, then a second.
MOVE_BURST, MOVE_RATE = 15, 1.0
# "X has arrived/left" lines one address may cause at once, then a second (MUDWIZ_ARRIVAL_BURST, _RATE);
# past them arrivals and departures are summed up in one line every PRESENCE_SUMMARY seconds.
ARRIVAL_BURST, ARRIVAL_RATE = 10, 0.5
PRESENCE_SUMMARY = 30.0


class Lobby:
    def __init__(
        self,
        clock: IReactorTime,
        *,
        grace: float = 120.0,
        bot_delay: float = 1.0,
        seed: int | None = None,
        think: Think = think_inline,
        idle_close: float = IDLE_CLOSE,
        arrival_burst: int = ARRIVAL_BURST,
        arrival_rate: float = ARRIVAL_RATE,
        records: Records | None = None,
    ) -> None:
        self.clock = clock
        self.accounts: Accounts | None = None  # set by makeService; None: every name is a guest's
        self.records = records  # None: games are not kept, /history and /game say so
        self.journal: Journal | None = None  # set by makeService; None: tables do not survive a restart
        self.idle_close = idle_close
        self.think = think
        self.grace = grace
        self.bot_delay = bot_delay
        self.seeds = random.Random(seed)
        self.users: dict[str, Session] = {}  # lower-cased name -> session
        self.tables: dict[int, Table] = {}
        self.away: dict[str, tuple[Table, IDelayedCall]] = {}
        self.talk = Buckets(clock, CHAT_RATE, CHAT_BURST)  # by lower-cased name: how fast they may chat
        self.moving = Buckets(clock, MOVE_RATE, MOVE_BURST)  # by lower-cased name: table moves others see
        self.presence = Buckets(clock, arrival_rate, arrival_burst)  # by address: arrival and departure lines
        self._unannounced: Counter[str] = Counter()  # "arrived"/"left" -> how many since the last summary
        self._summary_timer: IDelayedCall | None = None
        self._next_table = 1

    # ------------------------------------------------------------ arriving and leaving

    def check_name(self, name: str) -> str:
        name = name.strip()
        if not NAME_RULE.match(name):
            why = "; accented and non-Latin letters cannot be typed on every terminal" if not name.isascii() else ""
            raise BadCommand(f"a name is 2 to 16 of the letters A-Z and a-z, digits, _ or - (no spaces){why}")
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
        session.name = self.held_spelling(self.check_name(name))
        session.connected = True
        self.users[session.name.lower()] = session
        log.info("login {name}", name=session.name)
        self.presence_notice(session, "arrived")
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

    def held_spelling(self, name: str) -> str:
        """``name`` as spelled by the seat kept for it, if any: a player back as ``HOSTY`` is ``hosty`` again,
        so the host checks, the engine's private events and the score sheet all still know them."""
        back = self.away.get(name.lower())
        for table in [back[0]] if back else self.tables.values():
            held = table.seated(name)
            if held is not None and table.holds_seat_for(name):
                return held.name
        return name

    def disconnect(self, session: Session) -> None:
        """The connection is gone: keep a running game's seat for the grace period, else just leave."""
        if self.users.get(session.name.lower()) is not session:
            return
        del self.users[session.name.lower()]
        log.info("logout {name}", name=session.name)
        table = session.table
        session.connected = False
        if table is not None:
            seated = table.seat_of(session.name) is not None
            if seated and table.in_game and self.grace > 0:
                self.hold_seat(session.name, table)
                table.announce(f"{session.name} has lost the connection; the seat is kept for {self.grace:g} s.")
                table.send_states()
                table.people_changed()
            else:
                table.leave(session)
        self.presence_notice(session, "left")

    def hold_seat(self, name: str, table: Table) -> None:
        """Keep ``name``'s seat at ``table`` for the grace period (a dropped player's, or a restored table's)."""
        timer = self.clock.callLater(self.grace, self._grace_over, name, table)
        self.away[name.lower()] = (table, timer)
        table.away_until[name.lower()] = self.clock.seconds() + self.grace

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
        table = self.make_table(self._next_table, game, session)
        self.lobby_notice(f"{session.name} opens table {table.id} ({table.game_class.title}).", exclude=session)
        return table

    def make_table(self, table_id: int, game: str, host: Session, journal: bool = True) -> Table:
        """A table of this server's, listed from now on (``journal`` False: not journaled yet, as while the
        restore rebuilds one from the journal)."""
        table = Table(
            table_id, game, host, self.clock, bot_delay=self.bot_delay,
            seed_source=random.Random(self.seeds.randrange(2**63)), on_empty=self._table_closed,
            server=TableServices(self.think, self.records, self.journal if journal else None),
            idle_close=self.idle_close,
        )
        self.tables[table.id] = table
        self._next_table = max(self._next_table, table.id + 1)
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

    def presence_notice(self, session: Session, verb: str) -> None:
        """``X has arrived/left.`` to the lobby, unless that address has been coming and going faster than a
        room can read: then it is only counted, and a summary line says how many came and went."""
        if not session.address or self.presence.take(session.address):
            self.lobby_notice(f"{session.name} has {verb}.", exclude=session)
            return
        self._unannounced[verb] += 1
        if self._summary_timer is None:
            self._summary_timer = self.clock.callLater(PRESENCE_SUMMARY, self._presence_summary)

    def _presence_summary(self) -> None:
        self._summary_timer = None
        counts = [f"{n} more {verb}" for verb in ("arrived", "left") if (n := self._unannounced[verb])]
        self._unannounced.clear()
        self.presence.prune()
        if counts:
            self.lobby_notice(f"{' and '.join(counts)} in the last {PRESENCE_SUMMARY:g} s.")

    def may_talk(self, session: Session) -> None:
        """Refuse a line of chat from someone who is talking faster than a room can read."""
        if not self.talk.take(session.name.lower()):
            raise BadCommand(f"you are talking too fast: {CHAT_BURST} lines at once, then one a second")

    def may_move(self, session: Session) -> None:
        """Refuse a table move others are told of (sitting, watching, opening a table, seating a bot, setting an
        option) from someone making them faster than the others can read the notices."""
        if not self.moving.take(session.name.lower()):
            raise BadCommand(f"you are doing that too fast: {MOVE_BURST} at once, then one a second")

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
        if target is session:
            raise BadCommand("that is you: /tell NAME TEXT sends TEXT to someone else")
        text = one_line(text)
        self.may_talk(session)
        message = {"type": "chat", "from": session.name, "channel": "tell", "to": target.name, "text": text}
        target.deliver(message)
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
