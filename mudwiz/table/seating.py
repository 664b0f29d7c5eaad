"""Who sits where, who watches, who hosts, and whose seat is kept for them.

``Roster`` is the people at a table, found by name (names are unique ignoring case), with no notion of the game
they play; ``Seating`` is their comings and goings as the table's commands make them, told to everyone there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mudwiz.errors import BadCommand
from mudwiz.session import Session
from mudwiz.table.botseat import BotSession, is_stand_in

if TYPE_CHECKING:
    from mudwiz.table.core import Table


class Roster:
    """The table's seats in play order, its observers, its host's name and its dropped players' deadlines."""

    def __init__(self, host: str) -> None:
        self.seats: list[Session] = []
        self.observers: list[Session] = []
        self.host = host
        self.away_until: dict[str, float] = {}  # lower-cased name -> when a dropped player's kept seat is lost
        # lower-cased name -> (name, until): watchers who dropped, whose watch is kept (``Lobby.keep_watch``);
        # the journal's header names them with the watchers here, so a restart meanwhile keeps their watch too
        self.watch_until: dict[str, tuple[str, float]] = {}
        # seats by lower-cased name, as of ``_indexed`` (the seats when it was made): looked up several times a
        # move, so not a scan of the seats with ``lower()`` each time (issue #18)
        self._index: dict[str, int] = {}
        self._indexed: list[Session] = []

    def seat_of(self, name: str) -> int | None:
        """The seat of ``name``, which may be typed in any case (names are unique ignoring case)."""
        if self._indexed != self.seats:  # the seats changed since (by any path: ``seats`` is a plain list)
            self._reindex()
        return self._index.get(name.lower())

    def _reindex(self) -> None:
        self._indexed = list(self.seats)
        self._index = {}
        for i, s in enumerate(self._indexed):
            self._index.setdefault(s.name.lower(), i)  # the first, should two ever share a name

    def own_seat(self, session: Session) -> int | None:
        """The seat ``session`` itself holds: not one kept under its name for another session (a dropped one's)."""
        seat = self.seat_of(session.name)
        return seat if seat is not None and self.seats[seat] is session else None

    def seated(self, name: str) -> Session | None:
        seat = self.seat_of(name)
        return None if seat is None else self.seats[seat]

    def is_host(self, session: Session) -> bool:
        """Names are unique ignoring case, so the host is too: a host back as ``HOSTY`` is still ``hosty``."""
        return session.name.lower() == self.host.lower()

    def viewers(self) -> list[Session]:
        return [*self.seats, *self.observers]

    def humans(self) -> list[Session]:
        return [s for s in self.seats if not s.is_bot]

    def holds_seat_for(self, name: str) -> bool:
        """Whether ``name`` has a seat here to come back to: kept while they were away, or held by a stand-in."""
        s = self.seated(name)
        return s is not None and (not s.connected or is_stand_in(s))

    def sit(self, session: Session) -> None:
        """Take the next seat (an observer stops watching to sit down); a table left without a host (its host left
        while someone watched) gets the person who sits as host, or nobody could set it up or start it again."""
        if session in self.observers:
            self.observers.remove(session)
        self.seats.append(session)
        if not self.host and not session.is_bot:
            self.host = session.name

    def hand_over_host(self) -> str:
        """The host left: the first person seated hosts now; "" when no person is left to."""
        humans = self.humans()
        self.host = humans[0].name if humans else ""
        return self.host

    def stand_in(self, seat: int, game: str, seed: int) -> BotSession:
        """A bot plays ``seat`` under its holder's name, so the others play on and the holder may take it back."""
        old = self.seats[seat]
        bot = BotSession(old.name, level="random", game=game, seed=seed)
        self.seats[seat] = bot
        self.away_until.pop(old.name.lower(), None)
        return bot

    def put_back(self, seat: int, session: Session) -> None:
        """A person is back in their kept seat; a table left without a host gets them as host."""
        self.seats[seat] = session
        self.away_until.pop(session.name.lower(), None)
        if not self.host:
            self.host = session.name

    def clear(self) -> None:
        self.seats, self.observers = [], []


class Seating:
    """Sitting down, watching, leaving, a stand-in taking a seat and its holder taking it back: each checked,
    told to the table, and followed by ``people_changed`` so that nobody is waited on who is not here."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def sit(self, session: Session, by: Session | None = None) -> None:
        """``by``: who seated ``session`` (the host, a bot), answered by their command's reply, not the notice."""
        table, roster = self.table, self.table.roster
        if table.in_game and roster.holds_seat_for(session.name):
            self.reattach(session)
            return
        if roster.seat_of(session.name) is not None:
            raise BadCommand(f"you are already seated at table {table.id}")
        if table.in_game:
            raise BadCommand(f"table {table.id} is playing; /watch {table.id} to observe")
        if len(roster.seats) >= table.game_class.max_players:
            raise BadCommand(f"table {table.id} is full ({table.game_class.max_players} players)")
        if table.status == "over":
            table.game = None  # a finished game's table is ready for a new one
        roster.sit(session)
        session.table = table
        level = getattr(session, "level", None) if session.is_bot else None  # which bot: what the host chose
        table.announce(f"{session.name}{f' ({level})' if level else ''} sits down at table {table.id}.", exclude=by)
        table.fanout.send_states(look=session)
        table.people_changed()

    def watch(self, session: Session) -> None:
        table, roster = self.table, self.table.roster
        seat = roster.seat_of(session.name)
        if seat is not None and roster.seats[seat] is not session:  # a stand-in plays it for them, or it is kept
            raise BadCommand(f"your seat at table {table.id} is kept for you: /join {table.id} takes it back")
        if session in roster.observers or seat is not None:
            raise BadCommand(f"you are already at table {table.id}")
        roster.observers.append(session)
        session.table = table
        table.announce(f"{session.name} is watching table {table.id}.")
        table.send_state(session, look=True)
        table.people_changed()

    def leave(self, session: Session, by: Session | None = None, dropped: bool = False) -> str:
        """Take ``session`` away from the table; mid-game a bot takes the seat so the others can play on. ``by``:
        who took them away (the host, a bot), answered by their command's reply, not the notice. ``dropped``:
        their connection is gone (not a ``/leave``): a table left empty stays open ``idle_close`` seconds for them
        to find on coming back, as a running game's does."""
        table, roster = self.table, self.table.roster
        session.table = None
        if session.connected and not session.is_bot:
            session.deliver({"type": "left", "table": table.id})
        if session in roster.observers:
            roster.observers.remove(session)
            table.announce(f"{session.name} stops watching.")
            table.people_changed(gone_for_good=not dropped)
            return "you stop watching"
        seat = roster.seat_of(session.name)
        if seat is None:
            return "you were not at this table"
        playing = table.in_game
        bots = playing and any(s.is_bot and not is_stand_in(s) for s in roster.seats)  # the host's: gone if it closes
        if playing:
            self.stand_in(seat, f"{session.name} leaves; a bot plays their seat.")
        else:
            del roster.seats[seat]
            table.announce(f"{session.name} leaves table {table.id}.", exclude=by)
        if roster.is_host(session) and roster.hand_over_host():
            table.announce(f"{roster.host} is now the host.")
        table.people_changed(gone_for_good=not dropped)
        if roster.seats or roster.observers:  # a watcher too: the host and seats they see have changed
            table.send_states()
        return f"you leave table {table.id}" + (self._left_game(session, bots) if playing else "")

    def _left_game(self, session: Session, bots: bool) -> str:
        """What leaving a running game means for the one who left: their seat, and that a registered player's
        rating does not dodge the game (docs/accounts.md, "Who is rated")."""
        table = self.table
        if not table.abandoned:
            rated = "; the game still counts for your rating" if session.registered else ""
            return f": a bot plays your seat (/join {table.id} takes it back){rated}"
        if not session.registered:
            return ": nobody is left, so the game is abandoned"
        below = ", you placed below the bots" if bots else ""
        return f": nobody is left, so the game is abandoned; it counts for your rating as it stood{below}"

    def stand_in(self, seat: int, why: str) -> None:
        """A random bot plays ``seat`` for a person who left or whose grace ran out; ``why`` tells the table."""
        table = self.table
        bot = table.roster.stand_in(seat, table.name, table.seeds.randrange(2**32))
        bot.table = table
        table.announce(why)
        table.people_changed()
        table.bots.schedule()

    def stand_ins_go(self) -> None:
        """The game they stood in for is over: the stand-ins leave. Left seated, the host's next ``/start`` dealt
        them into a new game under their absent people's names (and it was rated as theirs), while the people
        themselves were refused ``/join`` and ``/watch`` there as "already seated"."""
        table, roster = self.table, self.table.roster
        gone = [s for s in roster.seats if is_stand_in(s)]
        if not gone:
            return
        roster.seats[:] = [s for s in roster.seats if not is_stand_in(s)]
        for bot in gone:
            bot.table = None
        names = ", ".join(s.name for s in gone)
        table.announce(f"The game is over: the stand-in{'s' if len(gone) > 1 else ''} for {names} "
                       f"leave{'' if len(gone) > 1 else 's'} the table.")
        if roster.seated(roster.host) is None and roster.hand_over_host():  # the host was one they stood in for
            table.announce(f"{roster.host} is now the host.")
        table.people_changed()

    def reattach(self, session: Session) -> None:
        """A dropped player is back under the same name: their seat, with a fresh view."""
        table, roster = self.table, self.table.roster
        seat = roster.seat_of(session.name)
        if seat is None:
            return
        roster.put_back(seat, session)
        session.table = table
        table.announce(f"{session.name} is back.")
        table.fanout.send_states(look=session)  # the others' states said "away" until the next move
        table.people_changed()
