"""Who sits where, who watches, who hosts, and whose seat is kept for them: the people at a table, found by name
(names are unique ignoring case), with no notion of the game they play. Their comings and goings, told to the
table, are :mod:`.seating`'s."""

from __future__ import annotations

from mudwiz.session import Session
from mudwiz.table.botseat import BotSession, is_stand_in


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
        # move, so not a scan of the seats with ``lower()`` each time
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
