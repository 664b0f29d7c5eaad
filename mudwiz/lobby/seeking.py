"""Finding a game: the open seeks of this process (``/seek``, ``/seeks``, ``/unseek``, ``/quick``), the one timer
that fills quick-play seeks with bots, and the matches they make, handed to ``Matches`` (matching.py) to become a
table. The rules of the book are mudwiz/meeting/seeks.py's; this part feeds it people, ratings, the table's way of
checking options and the clock, and turns its events into lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime

from mudwiz.errors import BadCommand, MudwizError
from mudwiz.games import game_class
from mudwiz.lobby.matching import Matches, Typed
from mudwiz.lobby.rematch import Rematches
from mudwiz.meeting.seeks import FRESH_RATING, Match, Seek, SeekBook, SeekPlaced, SeekWithdrawn
from mudwiz.meeting.seekwords import SeekRequest
from mudwiz.session import Session
from mudwiz.table.options import TableOptions

if TYPE_CHECKING:
    from mudwiz.lobby.names import Names
    from mudwiz.lobby.people import People
    from mudwiz.lobby.tables import TableList
    from mudwiz.table import Table

SEEK_BOTS = 30.0  # seconds before a quick-play seek's empty seats are filled with bots (0: never)
COUNTDOWN = 5.0  # seconds between a match and its game's start, for a seeker to /leave
MAX_SEEKS = 200  # open seeks on a process
USUAL_PLAYERS = 4  # a seek's players when none are given (brought into the game's range)


@dataclass(frozen=True)
class SeekSettings:
    """The limits of seeking, read once at start (docs/operations.md)."""

    bots_after: float = SEEK_BOTS
    countdown: float = COUNTDOWN
    max_open: int = MAX_SEEKS

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> SeekSettings:
        return cls(float(env.get("MUDWIZ_SEEK_BOTS", SEEK_BOTS)), float(env.get("MUDWIZ_SEEK_COUNTDOWN", COUNTDOWN)),
                   int(env.get("MUDWIZ_MAX_SEEKS", MAX_SEEKS)))


DEFAULT_SEEKS = SeekSettings()


def usual_players(game: str) -> int:
    cls = game_class(game)
    return min(max(USUAL_PLAYERS, cls.min_players), cls.max_players)


def normalise(game: str, players: int, typed: Mapping[str, Any]) -> dict[str, Any]:
    """Every option of a table of ``game`` for ``players`` set as ``typed``: checked as ``/option`` checks them
    (its ``BadOption`` is the refusal), so two seeks that differ only in how they said a default still meet."""
    cls = game_class(game)
    if not cls.min_players <= players <= cls.max_players:
        raise BadCommand(f"{cls.title} is for {cls.min_players} to {cls.max_players} players, not {players}")
    config = TableOptions(cls)
    for name, value in typed.items():
        config.set(name, value)
    cls.check_options(config.game_options(), players)
    return config.current()


def describe(seek: Seek) -> str:
    """A seek in a line: ``wizard, 4 players, casual, rounds=3, 1400-1800``."""
    parts = [seek.game, f"{seek.players} players", "rated" if seek.rated else "casual",
             *(f"{name}={value}" for name, value in seek.options)]
    if seek.min_rating is not None or seek.max_rating is not None:
        parts.append(f"{seek.min_rating or 0:g}-{seek.max_rating:g}" if seek.max_rating is not None
                     else f"{seek.min_rating:g} and up")
    return ", ".join(parts)


class Seeking:
    """This process's seeks: each command's effect, the timer for bots, and the matches passed on."""

    def __init__(self, clock: IReactorTime, people: People, table_list: TableList, names: Names,
                 settings: SeekSettings = DEFAULT_SEEKS) -> None:
        self.clock = clock
        self.people = people
        self.table_list = table_list
        self.book = SeekBook(self.rating, max_open=settings.max_open, normalise=normalise)
        self.settings = settings
        self.typed: dict[int, Typed] = {}  # seek id -> its options as typed, for the table made of it
        self.matches = Matches(clock, people, table_list, names, rating=self.rating, put_back=self.put_back,
                               countdown=lambda: self.settings.countdown)
        self.rematches = Rematches()
        self._timer: IDelayedCall | None = None

    def rating(self, name: str, game: str) -> float:
        records = self.people.records
        shown = records.board.shown(name, game) if records is not None else None
        return float(shown) if shown is not None else FRESH_RATING

    # ------------------------------------------------------------ the commands

    def seek(self, session: Session, request: SeekRequest) -> str:
        """``/seek``: place (or replace) ``session``'s seek; a match it completes is made at once."""
        self._free(session)
        rated = session.registered if request.rated is None else request.rated
        if rated and not session.registered:
            raise BadCommand("a guest's seek is casual: register (/register) to play rated")
        players = request.players or usual_players(request.game)
        events = self.book.seek(session.name, request.game, players=players, now=self.clock.seconds(), rated=rated,
                                options=dict(request.options), min_rating=request.min_rating,
                                max_rating=request.max_rating)
        return self._placed(session, events, dict(request.options))

    def unseek(self, session: Session) -> str:
        withdrawn = self.book.unseek(session.name)
        self._forget(withdrawn.seek)
        return f"your seek ({describe(withdrawn.seek)}) is withdrawn"

    def listing(self) -> dict[str, Any]:
        """What ``/seeks`` shows: every open seek, oldest first."""
        return {"type": "seeks", "seeks": [self.row(seek) for seek in self.book.open_seeks()]}

    def row(self, seek: Seek) -> dict[str, Any]:
        return {"id": seek.id, "who": seek.owner, "game": seek.game, "players": seek.players, "rated": seek.rated,
                "options": dict(self.typed.get(seek.id, ())), "min": seek.min_rating, "max": seek.max_rating,
                "rating": round(self.rating(seek.owner, seek.game)), "bots_after": seek.bots_after or None}

    def quick(self, session: Session, game: str) -> str:
        """``/quick GAME``: the best open seek, else the fullest table of ``game`` waiting for players, else a
        new seek that bots fill after ``bots_after`` seconds."""
        self._free(session)
        game = game_class(game).name
        best = self.book.best_for(session.name, game, self.rating(session.name, game))
        table = None if best is not None else self._waiting_table(game)
        if table is not None:
            table.sit(session)
            self._forget_of(session)
            return f"you sit at table {table.id}"
        now, wait = self.clock.seconds(), self.settings.bots_after
        if best is None:
            events = self.book.seek(session.name, game, players=usual_players(game), now=now, bots_after=wait)
            return self._placed(session, events, {})
        typed = dict(self.typed.get(best.id, ()))  # as its seeker typed them (the book holds them normalised)
        events = self.book.seek(session.name, game, players=best.players, now=now, rated=best.rated, options=typed,
                                bots_after=wait)
        return self._placed(session, events, typed)

    def gone(self, session: Session) -> None:
        """``session`` logged out: their seek goes, and a match they were counting down in is called off."""
        for event in self.book.logout(session.name):
            if isinstance(event, SeekWithdrawn):
                self._forget(event.seek)
        self._schedule()
        table = session.table
        if table is not None and self.matches.counting(table):
            table.leave(session, dropped=True)
            self.left(session, table)

    def left(self, session: Session, table: Table) -> None:
        """``session`` left ``table``: a countdown there is called off, and a rematch being agreed."""
        self.matches.backed_out(session, table)
        self.rematches.left(session, table)

    # ------------------------------------------------------------ events

    def _placed(self, session: Session, events: list[Any], typed: dict[str, str | None]) -> str:
        reply = ""
        for event in events:
            if isinstance(event, SeekPlaced):
                self.typed[event.seek.id] = tuple(typed.items())
                if event.replaced is not None:
                    self._forget(event.replaced)
                bots = (f"; bots fill the empty seats in {event.seek.bots_after:g} s if nobody comes"
                        if event.seek.bots_after else "")
                reply = f"you seek a game: {describe(event.seek)}{bots} (/unseek withdraws it)"
                self.people.lobby_notice(f"{session.name} seeks a game: {describe(event.seek)} (/seeks lists them).",
                                         session)
            elif isinstance(event, Match):
                reply = f"your seek is matched: {describe(event.seeks[0])}"
                self.matched(event)
        self._schedule()
        return reply

    def matched(self, match: Match) -> None:
        typed = self.typed.get(match.seeks[0].id, ())
        for seek in match.seeks:
            self._forget(seek)
        self.matches.make(match, typed)

    def put_back(self, seek: Seek, typed: Typed) -> None:
        """A seek of a match called off, open again as it was (a new match it completes is made at once)."""
        try:
            events = self.book.seek(seek.owner, seek.game, players=seek.players, now=self.clock.seconds(),
                                    rated=seek.rated, options=dict(typed), min_rating=seek.min_rating,
                                    max_rating=seek.max_rating, bots_after=seek.bots_after)
        except MudwizError:  # the book filled up meanwhile: nothing is half-placed
            return
        for event in events:
            if isinstance(event, SeekPlaced):
                self.typed[event.seek.id] = typed
            elif isinstance(event, Match):
                self.matched(event)
        self._schedule()

    def _schedule(self) -> None:
        """One timer, for the seek next due to be filled with bots."""
        if self._timer is not None and self._timer.active():
            self._timer.cancel()
        self._timer = None
        due = self.book.next_due()
        if due is not None:
            self._timer = self.clock.callLater(max(0.0, due - self.clock.seconds()), self._fill)

    def _fill(self) -> None:
        self._timer = None
        for match in self.book.fill_due(self.clock.seconds()):
            self.matched(match)
        self._schedule()

    # ------------------------------------------------------------ helpers

    def _free(self, session: Session) -> None:
        if session.table is not None:
            raise BadCommand(f"you are at table {session.table.id}; /leave it first")

    def _waiting_table(self, game: str) -> Table | None:
        """The table of ``game`` here with the most people waiting and a free seat; None: none."""
        waiting = [t for t in self.table_list.tables.values()
                   if t.name == game and t.game is None and len(t.seats) < t.game_class.max_players
                   and t.roster.humans() and not self.matches.counting(t)]
        return max(waiting, key=lambda t: (len(t.seats), -t.id), default=None)

    def _forget(self, seek: Seek) -> None:
        self.typed.pop(seek.id, None)

    def _forget_of(self, session: Session) -> None:
        seek = self.book.of(session.name)
        if seek is not None:
            self._forget(self.book.unseek(session.name).seek)
            self._schedule()
