"""Finding a game, as a user's own process sees it: ``/seek``, ``/seeks``, ``/unseek`` and ``/quick`` checked here
and carried out by the seek book's desk (seekdesk.py), on this process or, in a cluster, on the one process that
holds the book (the ``Directory`` says which, and carries the command there and its answer back); the answer is
turned into the user's reply here. Matches become tables (matching.py); ``/again`` is rematch.py's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime

from mudwiz.errors import BadCommand, MudwizError
from mudwiz.games import game_class
from mudwiz.lobby.matching import Matches
from mudwiz.lobby.rematch import Rematches
from mudwiz.lobby.seekdesk import DEFAULT_SEEKS, Answer, SeekDesk, SeekSettings, answered, refusal
from mudwiz.meeting.seeks import FRESH_RATING, Seek, SeekBook
from mudwiz.meeting.seekwire import Typed, seek_dict
from mudwiz.meeting.seekwords import SeekRequest
from mudwiz.session import Session
from mudwiz.slices import Reply
from mudwiz.table import table_of
from mudwiz.texts import Later, later

if TYPE_CHECKING:
    from mudwiz.lobby.directory import Directory
    from mudwiz.lobby.names import Names
    from mudwiz.lobby.people import People
    from mudwiz.lobby.tables import TableList
    from mudwiz.table import Table

USUAL_PLAYERS = 4  # a seek's players when none are given (brought into the game's range)


def usual_players(game: str) -> int:
    cls = game_class(game)
    return min(max(USUAL_PLAYERS, cls.min_players), cls.max_players)


class Seeking:
    """A user's seek commands, routed to the book's desk, and the matches and rematches of this process."""

    def __init__(self, clock: IReactorTime, people: People, table_list: TableList, names: Names,
                 settings: SeekSettings = DEFAULT_SEEKS) -> None:
        self.people = people
        self.table_list = table_list
        self.settings = settings
        self.desk = SeekDesk(clock, people, table_list, self.rating, settings)
        self.matches = Matches(clock, people, table_list, names, rating=self.rating, put_back=self.put_back,
                               countdown=lambda: self.settings.countdown)
        self.desk.matches = self.matches
        self.rematches = Rematches()

    @property
    def book(self) -> SeekBook:
        return self.desk.book

    @property
    def directory(self) -> Directory:
        return self.people.directory

    def rating(self, name: str, game: str) -> float:
        records = self.people.records
        shown = records.board.shown(name, game) if records is not None else None
        return float(shown) if shown is not None else FRESH_RATING

    # ------------------------------------------------------------ the commands

    def seek(self, session: Session, request: SeekRequest) -> Reply:
        """``/seek``: place (or replace) ``session``'s seek; a match it completes is made at once."""
        self._free(session)
        rated = session.registered if request.rated is None else request.rated
        if rated and not session.registered:
            raise BadCommand(later("a guest's seek is casual: register (/register) to play rated"))
        players = request.players or usual_players(request.game)
        return self._ask(session, "seek", {"game": request.game, "players": players, "rated": rated,
                                           "options": list(request.options), "min": request.min_rating,
                                           "max": request.max_rating})

    def unseek(self, session: Session) -> Reply:
        return self._ask(session, "unseek", {})

    def listing(self, session: Session) -> Reply:
        """``/seeks``: a ``seeks`` message of every open seek, oldest first."""
        return self._ask(session, "seeks", {})

    def quick(self, session: Session, game: str) -> Reply:
        """``/quick GAME``: the best open seek, else a table waiting for players, else a seek bots fill."""
        self._free(session)
        game = game_class(game).name
        return self._ask(session, "quick", {"game": game, "players": usual_players(game),
                                            "bots_after": self.settings.bots_after})

    def gone(self, session: Session) -> None:
        """``session`` logged out: their seek goes, and a match they were counting down in is called off."""
        self._tell(session, "gone", {})
        table = table_of(session)
        if table is not None and self.matches.counting(table):
            table.leave(session, dropped=True)
            self.left(session, table)

    def left(self, session: Session, table: Table) -> None:
        """``session`` left ``table``: a countdown there is called off, and a rematch being agreed."""
        self.matches.backed_out(session, table)
        self.rematches.left(session, table)

    def put_back(self, seek: Seek, typed: Typed) -> None:
        """A seek of a match called off, open again as it was (a new match it completes is made at once)."""
        owner = self.people.users.get(seek.key) or Session(seek.owner)
        self._tell(owner, "put_back", {"seek": seek_dict(seek), "typed": list(typed)})

    def seat(self, name: str, number: int, message: dict[str, Any]) -> None:
        """Cluster: this process's user ``name`` was matched at table ``number`` of another process: told, and
        seated there as ``/join`` seats them (one no longer free is missed at the start, which is then called
        off)."""
        session = self.people.users.get(name.lower())
        if session is None:
            return
        session.deliver(message)  # (a tournament's entrant busy elsewhere is told: their seat is kept for them)
        if session.table is not None or session.elsewhere is not None:
            return
        if not self.directory.forward(session, f"/join {number}", lambda ok: None,
                                      lambda error: session.notice(later("the match's table {n}: {why}", n=number,
                                                                         why=refusal(error)))):
            session.notice(later("the match's table {n} is gone", n=number))

    # ------------------------------------------------------------ to the book and back

    def _ask(self, session: Session, verb: str, args: dict[str, Any]) -> Reply:
        node = self.directory.seek_book()
        if node is None:
            return self._answer(session, self.desk.do(session, verb, args))
        asked = self.directory.ask_seeks(node, session, verb, args)
        return asked.addCallback(lambda answer: self._answer(session, answer))

    def _tell(self, session: Session, verb: str, args: dict[str, Any]) -> None:
        """A change the book makes without a reply to anyone (a logout, a seek put back)."""
        node = self.directory.seek_book()
        if node is None:
            self.desk.do(session, verb, args)
        else:
            self.directory.ask_seeks(node, session, verb, args).addErrback(lambda failure: None)

    def _answer(self, session: Session, answer: Answer) -> Reply:
        reply = answered(session, answer)
        if answer.get("notice"):
            self.people.lobby_notice(answer["notice"], session)
        if answer.get("join") is not None:
            return self._join(session, int(answer["join"]))
        return reply

    def _join(self, session: Session, number: int) -> Reply:
        """``/quick`` found a table waiting for players: sit there (in a cluster, maybe on another process)."""
        table = self.table_list.tables.get(number)
        if table is not None:
            table.sit(session)
            return later("you sit at table {n}", n=table.id)
        joined: defer.Deferred[str | Later | None] = defer.Deferred()
        if not self.directory.forward(session, f"/join {number}", joined.callback, joined.errback):
            joined.errback(MudwizError(later("there is no table {n}; /tables lists them", n=number)))
        return joined

    def _free(self, session: Session) -> None:
        if session.table is not None:
            raise BadCommand(later("you are at table {n}; /leave it first", n=session.table.id))
