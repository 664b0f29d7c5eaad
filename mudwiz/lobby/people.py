"""Who is online, and what they say to each other: the lobby's people (here and, through the directory,
elsewhere), ``/who``, lobby chat and tells, arrival and departure notices, the /ignore lists, and how fast
anyone may talk or make moves others are told of."""

from __future__ import annotations

import bisect
from collections import Counter
from dataclasses import dataclass
from typing import Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime

from mudwiz.errors import BadCommand
from mudwiz.lobby.directory import Directory
from mudwiz.ratelimit import Buckets
from mudwiz.session import Session
from mudwiz.table import Records
from mudwiz.texts import Later, later
from mudwiz.usertext import said

LOBBY = "lobby"
CHAT_BURST, CHAT_RATE = 10, 1.0  # lines of chat at once, then lines a second: a conversation, not a flood
# Commands that tell other people something (/new, /join, /watch, /bot, /option): moves at once, then a second.
MOVE_BURST, MOVE_RATE = 15, 1.0
# "X has arrived/left" lines one address may cause at once, then a second (MUDWIZ_ARRIVAL_BURST, _RATE);
# past them arrivals and departures are summed up in one line every PRESENCE_SUMMARY seconds.
ARRIVAL_BURST, ARRIVAL_RATE = 10, 0.5
PRESENCE_SUMMARY = 30.0
# Past this many people online, nobody is told of each arrival and departure one by one (MUDWIZ_PRESENCE_CROWD):
# a login would cost a line to every one of them, and all logins together the square of the crowd.
# The summary line says how many came and went instead.
PRESENCE_CROWD = 50
WHO_PAGE = 20  # names a /who page lists: a screenful of 24 rows with its head and foot


@dataclass(frozen=True)
class PresenceLimits:
    """When ``X has arrived/left.`` is told one by one: ``burst`` at once then ``rate`` a second per address,
    and never while more than ``crowd`` (0: no such limit) are online."""

    burst: int = ARRIVAL_BURST
    rate: float = ARRIVAL_RATE
    crowd: int = PRESENCE_CROWD


DEFAULT_LIMITS = PresenceLimits()


class People:
    """The users online here, by lower-cased name, and the lobby's talk among everyone online."""

    def __init__(self, clock: IReactorTime, presence: PresenceLimits, records: Records | None,
                 directory: Directory) -> None:
        self.clock = clock
        self.records = records
        self.directory = directory
        self.users: dict[str, Session] = {}  # lower-cased name -> session
        self._by_name: list[str] = []  # the keys of ``users`` in order: a /who page costs its length, not a sort
        # lower-cased name -> the names they /ignore: kept while the name is held (a registered name's till the
        # server stops), so a reconnect or a restart of the connection does not bring the pest back
        self.ignores: dict[str, set[str]] = {}
        self.talk = Buckets(clock, CHAT_RATE, CHAT_BURST)  # by lower-cased name: how fast they may chat
        self.moving = Buckets(clock, MOVE_RATE, MOVE_BURST)  # by lower-cased name: table moves others see
        self.presence = Buckets(clock, presence.rate, presence.burst)  # by address: arrival and departure lines
        self.presence_crowd = presence.crowd  # 0: every arrival is told, however many are online
        self._unannounced: Counter[str] = Counter()  # "arrived"/"left" -> how many since the last summary
        self._summary_timer: IDelayedCall | None = None

    def enter(self, session: Session) -> None:
        """``session`` (named already) is online here from now on."""
        key = session.name.lower()
        session.connected = True
        session.ignoring = self.ignores.get(key)
        self.users[key] = session
        bisect.insort(self._by_name, key)

    def leave(self, session: Session) -> bool:
        """``session`` is offline; False when it was not the one online under its name (taken over already)."""
        key = session.name.lower()
        if self.users.get(key) is not session:
            return False
        del self.users[key]
        del self._by_name[bisect.bisect_left(self._by_name, key)]
        return True

    def in_lobby(self) -> list[Session]:
        """The users of this process at no table, here or (cluster) at another node's."""
        return [s for s in self.users.values() if s.table is None and s.elsewhere is None]

    def lobby_notice(self, text: str | Later, exclude: Session | None = None) -> None:
        """``text`` to everyone in the lobby (cluster: every node's lobby)."""
        for s in self.in_lobby():
            if s is not exclude:
                s.notice(text)
        self.directory.notice(text)

    def presence_notice(self, session: Session, verb: str) -> None:
        """``X has arrived/left.`` to the lobby, unless that address has been coming and going faster than a
        room can read, or more than ``presence_crowd`` people are online: then it is only counted, and a summary
        line says how many came and went."""
        crowded = 0 < self.presence_crowd < self.online()
        if not crowded and (not session.address or self.presence.take(session.address)):
            self.lobby_notice(later("{name} has arrived.", name=session.name) if verb == "arrived"
                              else later("{name} has left.", name=session.name), exclude=session)
            return
        self._unannounced[verb] += 1
        if self._summary_timer is None:
            self._summary_timer = self.clock.callLater(PRESENCE_SUMMARY, self._presence_summary)

    def _presence_summary(self) -> None:
        self._summary_timer = None
        arrived, left = self._unannounced["arrived"], self._unannounced["left"]
        self._unannounced.clear()
        self.presence.prune()
        if arrived and left:
            self.lobby_notice(later("{arrived} more arrived and {left} more left in the last {seconds:g} s.",
                                    arrived=arrived, left=left, seconds=PRESENCE_SUMMARY))
        elif arrived or left:
            self.lobby_notice(later("{n} more arrived in the last {seconds:g} s.", n=arrived, seconds=PRESENCE_SUMMARY)
                              if arrived else later("{n} more left in the last {seconds:g} s.", n=left,
                                                    seconds=PRESENCE_SUMMARY))

    def may_talk(self, session: Session) -> None:
        """Refuse a line of chat from someone who is talking faster than a room can read."""
        if not self.talk.take(session.name.lower()):
            raise BadCommand(later("you are talking too fast: {burst} lines at once, then one a second",
                                   burst=CHAT_BURST))

    def may_move(self, session: Session) -> None:
        """Refuse a table move others are told of (sitting, watching, opening a table, seating a bot, setting an
        option) from someone making them faster than the others can read the notices."""
        if not self.moving.take(session.name.lower()):
            raise BadCommand(later("you are doing that too fast: {burst} at once, then one a second", burst=MOVE_BURST))

    def chat(self, session: Session, text: str) -> None:
        """Say ``text`` to the room ``session`` is in, as one line (``spoken``: here too, so no path that skips
        the network edge can carry a line break, a bidi override or a screenful of blanks to others)."""
        text = said(text)
        self.may_talk(session)
        if session.table is not None:
            session.table.chat(session, text)
            return
        message = {"type": "chat", "from": session.name, "channel": LOBBY, "text": text}
        for s in self.in_lobby():
            s.deliver(message)
        self.directory.chat(message)  # cluster: to every node's lobby

    def find_user(self, name: str) -> Session | None:
        """The user called ``name`` (any case) online here or (cluster) on another node: then a stand-in whose
        ``deliver`` and ``close`` reach them there."""
        here = self.users.get(name.lower())
        return self.directory.user(name) if here is None else here

    def broadcast(self, message: dict[str, Any]) -> None:
        """Cluster: ``message`` to every user of the other nodes too (a sysop's announcement); else nothing."""
        self.directory.announce(message)

    def ban_elsewhere(self, address: str, text: str | Later, by: str, until: float | None) -> bool:
        """Cluster: a sysop banned ``address`` here; the other nodes close their connections from it. False when
        there are no other nodes."""
        return self.directory.ban_address(address, text, by, until)

    def online(self) -> int:
        """How many are online on the whole server (cluster: on every node)."""
        return len(self.users) + self.directory.count()

    def tell(self, session: Session, name: str, text: str) -> None:
        target = self.find_user(name)
        if target is None:
            raise BadCommand(later("nobody called {name} is online", name=name))
        if target is session:
            raise BadCommand(later("that is you: /tell NAME TEXT sends TEXT to someone else"))
        text = said(text)
        self.may_talk(session)
        message = {"type": "chat", "from": session.name, "channel": "tell", "to": target.name, "text": text}
        target.deliver(message)
        session.deliver(message)

    def who(self, start: str = "", limit: int | None = None) -> list[dict[str, Any]]:
        """Who is online and where, by name: all of them, or the first ``limit`` from ``start`` (a name or the
        start of one, any case) on; a cluster's other nodes' users merged in, in the same order."""
        first = bisect.bisect_left(self._by_name, start.lower())
        keys = self._by_name[first:] if limit is None else self._by_name[first:first + limit]
        rows = [{"name": s.name, "where": self.where(s), **self.shown_rating(s)} for s in map(self.users.get, keys)
                if s is not None]
        return self.directory.who(rows, start, limit)

    def where(self, session: Session) -> str:
        """Where /who says ``session`` is: ``lobby``, ``table 7``, ``table 7 (watching)``."""
        if session.table is not None:
            table_id, seated = session.table.id, session.table.seat_of(session.name) is not None
        elif session.elsewhere is not None:  # cluster: at a table another node hosts
            _, table_id, seated = session.elsewhere
        else:
            return LOBBY
        return f"table {table_id}" + ("" if seated else " (watching)")

    def shown_rating(self, session: Session) -> dict[str, Any]:
        """``rating`` and its ``rating_game`` for ``/who``: in the game of the table they are at if they have one
        there, else their best (both null: no rating), from the ratings in memory."""
        if self.records is None:
            return {"rating": None, "rating_game": None}
        board = self.records.board
        here = board.of(session.name).get(session.table.name) if session.table is not None else None
        shown = here or board.best(session.name)
        return {"rating": None if shown is None else shown.shown, "rating_game": None if shown is None else shown.game}
