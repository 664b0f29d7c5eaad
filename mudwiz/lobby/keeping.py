"""The grace period of dropped players and watchers: what is kept for them, and for how long.

A dropped player who was seated in a running game keeps the seat for ``grace`` seconds (the table waits for
them); coming back under the same name in that time puts them back in the seat with a fresh view. After it,
a stand-in bot plays the seat so the others can finish, and the player may still take it back. A dropped
watcher watches the table again on logging in within the grace period.

When the last person at a running game has gone past the grace, the game is adjourned instead (it waits for them:
mudwiz/table/adjourning.py): its seats are kept with no clock, and the one who left last is taken back to it at
their login, the others told to ``/resume`` it. An adjourned game kept longer than ``adjourn_keep`` seconds is
recorded as abandoned and its table closed (``expire``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from twisted.internet.interfaces import IDelayedCall, IReactorTime

from mudwiz.session import Session
from mudwiz.table import Table, table_of
from mudwiz.table.adjourning import all_gone, resume_notice, seated_at_login
from mudwiz.texts import later

ADJOURN_DAYS = 14.0  # how long an adjourned game is kept for its people (``MUDWIZ_ADJOURN_DAYS``)


class Kept:
    """The seats and watches kept for those whose connection dropped. ``release`` is told of a name nothing may
    hold any more (its code is void then); ``tables`` are the tables open here, by number."""

    def __init__(self, clock: IReactorTime, grace: float, tables: dict[int, Table],
                 release: Callable[[str], None]) -> None:
        self.clock = clock
        self.grace = grace
        self.tables = tables
        self.release = release
        self.stopping = False  # the server is stopping: a closing connection leaves its table as it is
        self.adjourn_keep = ADJOURN_DAYS * 86400.0  # seconds an adjourned game waits for its people
        self.away: dict[str, tuple[Table, IDelayedCall]] = {}
        # lower-cased name -> the table they watched and until when: a watcher whose connection dropped (or who
        # watched a table restored after a restart) watches it again on logging in within the grace period
        self.watch_kept: dict[str, tuple[Table, float, str]] = {}  # name -> (table, until, name as spelled)

    def spelling(self, name: str, tables: Iterable[Table]) -> str | None:
        """``name`` as spelled by the seat (or watch) kept for it here, if any."""
        back = self.away.get(name.lower())
        for table in [back[0]] if back else tables:
            held = table.seated(name)
            if held is not None and table.holds_seat_for(name):
                return held.name
        if self.watch_held(name.lower()):
            return self.watch_kept[name.lower()][2]
        return None

    def reattach(self, session: Session) -> bool:
        """Back within the grace period: the seat kept for them, or else the seat a table holds for them, or
        else the table they watched (``watch_again``); False when there is none here."""
        back = self.away.pop(session.name.lower(), None)
        if back is not None:
            table, timer = back
            if timer.active():
                timer.cancel()
            table.reattach(session)
            return True
        waiting = []
        for table in list(self.tables.values()):
            if table.holds_seat_for(session.name):
                adjourned = table.adjourned
                if adjourned is not None and not seated_at_login(adjourned.last, session.name):
                    waiting.append(table)  # they did not leave it last: it waits for them to /resume it
                    continue
                table.reattach(session)
                return True
        for table in waiting:
            session.notice(resume_notice(table.name, table.id))
        return self.watch_again(session)

    def drop_from_table(self, session: Session) -> None:
        """``session``'s connection is gone: a running game keeps its seat for the grace period, else it leaves
        its table (a cluster's visitor too, whose connection was on another process)."""
        table = table_of(session)
        session.connected = False
        if table is not None:
            seated = table.seat_of(session.name) is not None
            if seated and table.adjourned is not None:  # back at an adjourned game, gone again: it waits on
                table.announce(later("{name} has lost the connection; the adjourned game keeps their seat.",
                                     name=session.name))
                if all_gone(table.seats):
                    table.adjourn_again(session.name)
                table.send_states()
                table.people_changed()
            elif seated and table.in_game and self.grace > 0:
                self.hold_seat(session.name, table)
                table.announce(later("{name} has lost the connection; the seat is kept for {seconds:g} s.",
                                     name=session.name, seconds=self.grace))
                table.send_states()
                table.people_changed()
            else:
                if not seated and self.grace > 0 and session in table.observers:
                    self.keep_watch(session.name, table)
                table.leave(session, dropped=True)

    def keep_watch(self, name: str, table: Table) -> None:
        """``name`` watches ``table`` again if they log in within the grace period (``watch_again``). The name is
        held meanwhile (``holds_name``), as a dropped player's is: a guest's comes back with its resume code, so
        nobody else who takes the name is put in their place."""
        now = self.clock.seconds()
        if len(self.watch_kept) >= 256:  # those who never came back: gone once their time is up
            over = [k for k, kept in self.watch_kept.items() if kept[1] < now]
            for key in over:
                self.watch_kept.pop(key)[0].roster.watch_until.pop(key, None)
                self.release(key)
        self.watch_kept[name.lower()] = (table, now + self.grace, name)
        table.roster.watch_until[name.lower()] = (name, now + self.grace)

    def watch_held(self, key: str) -> bool:
        """Whether a watch kept for ``key`` (lower-cased) still waits for them: in time, its table still open."""
        kept = self.watch_kept.get(key)
        return kept is not None and kept[1] >= self.clock.seconds() and self.tables.get(kept[0].id) is kept[0]

    def watch_again(self, session: Session) -> bool:
        """Back within the grace period: watch the table kept for them (``keep_watch``), if it is still open."""
        kept = self.watch_kept.pop(session.name.lower(), None)
        if kept is None:
            return False
        table, until, _ = kept
        table.roster.watch_until.pop(session.name.lower(), None)
        if session.table is not None:
            return False
        if until < self.clock.seconds() or self.tables.get(table.id) is not table:
            return False
        table.watch(session)
        return True

    def hold_seat(self, name: str, table: Table) -> None:
        """Keep ``name``'s seat at ``table`` for the grace period (a dropped player's, or a restored table's)."""
        timer = self.clock.callLater(self.grace, self._grace_over, name, table)
        self.away[name.lower()] = (table, timer)
        table.away_until[name.lower()] = self.clock.seconds() + self.grace

    def _grace_over(self, name: str, table: Table) -> None:
        if self.stopping:
            return
        self.away.pop(name.lower(), None)
        seat = table.seat_of(name)
        if seat is not None and not table.seats[seat].connected:
            if table.adjourned is not None:
                pass  # its game waits for them (it was adjourned meanwhile)
            elif table.in_game and all_gone(table.seats) and table.tournament is None:
                self.adjourn(table)
            elif table.in_game:
                table.replace_with_bot(seat, later("{name} did not come back; a bot plays their seat.", name=name))
            else:
                table.leave(table.seats[seat])
        self.release(name)

    def adjourn(self, table: Table) -> None:
        """Everyone at ``table``'s game has gone, the first of them past the grace: the game waits for them.
        The last to go is the one whose seat was kept longest; the seats kept for the others wait with no clock."""
        away = list(table.away_until.items())  # in the order they dropped: the last one latest, or last of a time
        gone = {s.name.lower(): s.name for s in table.seats if not s.is_bot and not s.connected}
        last = max(((until, i, gone[key]) for i, (key, until) in enumerate(away) if key in gone),
                   default=(0.0, 0, next(iter(gone.values()))))[2]
        self.closed(table)
        table.adjourn(last, later("Everyone has gone: the game is adjourned until its players are back "
                                  "(/resume {n}).", n=table.id))

    def expire(self) -> list[int]:
        """The adjourned games kept longer than ``adjourn_keep``: recorded as abandoned, their tables closed."""
        now, gone = self.clock.seconds(), []
        for table in list(self.tables.values()):
            adjourned = table.adjourned
            if adjourned is not None and now - adjourned.since > self.adjourn_keep:
                table.expire()
                gone.append(table.id)
        return gone

    def closed(self, table: Table) -> None:
        """``table`` closed: the seats it kept are gone, and their timers with them."""
        for name, (t, timer) in list(self.away.items()):
            if t is table:
                if timer.active():
                    timer.cancel()
                del self.away[name]
