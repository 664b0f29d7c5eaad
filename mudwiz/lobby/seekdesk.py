"""The seek book's desk: the process that holds the open seeks (the only one, or a cluster's chosen one) carries
out each seek command for whoever asked, on this process or another, and answers with a small dict a home turns
into the user's reply (seeking.py). It runs the one timer that fills quick-play seeks with bots and hands each
match to ``Matches`` (matching.py). The rules of the book are mudwiz/meeting/seeks.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime

from mudwiz.errors import BadCommand, MudwizError
from mudwiz.games import game_class
from mudwiz.lobby.matching import Matches
from mudwiz.meeting.seeks import Match, Seek, SeekBook, SeekPlaced, SeekWithdrawn
from mudwiz.meeting.seekwire import Typed, seek_dict, seek_of, typed_of
from mudwiz.session import Session
from mudwiz.settings import env
from mudwiz.table.options import TableOptions
from mudwiz.texts import Later, later, later_n

if TYPE_CHECKING:
    from mudwiz.lobby.people import People
    from mudwiz.lobby.tables import TableList

SEEK_BOTS = 30.0  # seconds before a quick-play seek's empty seats are filled with bots (0: never)
COUNTDOWN = 5.0  # seconds between a match and its game's start, for a seeker to /leave
MAX_SEEKS = 200  # open seeks in the book
# "ok": the reply's text, "error": a refusal's line, "deliver": a message, "join": a table, "notice": for the lobby
# (each text a ``Later``, worded by the reader's own process when the answer crosses the cluster's bus)
Answer = dict[str, Any]


def refusal(error: MudwizError) -> str | Later:
    """A refusal's line as it was raised: a ``Later`` stays one, so the asker's process words it in their
    language."""
    said = error.args[0] if error.args else None
    return said if isinstance(said, str | Later) else str(error)


def answered(session: Session, answer: Answer) -> str | Later | None:
    """What every desk's answer says to the user who asked (the seek book's, the tournaments'): its refusal
    raised, its message delivered; the reply's text."""
    if "error" in answer:
        error = answer["error"]
        raise BadCommand(error if isinstance(error, Later) else str(error))
    if answer.get("deliver") is not None:
        session.deliver(answer["deliver"])
    return answer.get("ok")


@dataclass(frozen=True)
class SeekSettings:
    """The limits of seeking, read once at start (docs/operations.md)."""

    bots_after: float = env("MUDWIZ_SEEK_BOTS", SEEK_BOTS)
    countdown: float = env("MUDWIZ_SEEK_COUNTDOWN", COUNTDOWN)
    max_open: int = env("MUDWIZ_MAX_SEEKS", MAX_SEEKS)


DEFAULT_SEEKS = SeekSettings()


def normalise(game: str, players: int, typed: Mapping[str, Any]) -> dict[str, Any]:
    """Every option of a table of ``game`` for ``players`` set as ``typed``: checked as ``/option`` checks them
    (its ``BadOption`` is the refusal), so two seeks that differ only in how they said a default still meet."""
    cls = game_class(game)
    if not cls.min_players <= players <= cls.max_players:
        raise MudwizError(later("{game} is for {low} to {high} players, not {players}", game=cls.title,
                                low=cls.min_players, high=cls.max_players, players=players))
    config = TableOptions(cls)
    for name, value in typed.items():
        config.set(name, value)
    cls.check_options(config.game_options(), players)
    return config.current()


def describe(seek: Seek, typed: Typed) -> Later:
    """A seek in a line, its options as typed: ``wizard, 4 players, casual, rounds=3, 1400-1800``."""
    said = {"game": seek.game, "players": later_n("{n} player", "{n} players", seek.players),
            "rated": later("rated") if seek.rated else later("casual"),
            "options": "".join(f", {name}" if value is None else f", {name}={value}" for name, value in typed)}
    if seek.max_rating is not None:
        return later("{game}, {players}, {rated}{options}, {low:g}-{high:g}", low=seek.min_rating or 0,
                     high=seek.max_rating, **said)
    if seek.min_rating is not None:
        return later("{game}, {players}, {rated}{options}, {low:g} and up", low=seek.min_rating, **said)
    return later("{game}, {players}, {rated}{options}", **said)


class SeekDesk:
    """The book, the options each seek was typed with, and the timer of the seeks due for bots."""

    def __init__(self, clock: IReactorTime, people: People, table_list: TableList,
                 rating: Callable[[str, str], float], settings: SeekSettings) -> None:
        self.clock = clock
        self.people = people
        self.table_list = table_list
        self.rating = rating
        self.settings = settings
        self.book = SeekBook(rating, max_open=settings.max_open, normalise=normalise)
        self.typed: dict[int, Typed] = {}  # seek id -> its options as typed, for the table made of it
        self.matches: Matches | None = None  # set by Seeking
        self._timer: IDelayedCall | None = None
        # the other processes' tables of a game waiting for players, a person at each and a seat free: (seated,
        # id) each (a cluster's directory sets it: cluster/tables.py ``waiting``); one process has none
        self.waiting_elsewhere: Callable[[str], list[tuple[int, int]]] = lambda game: []

    def do(self, user: Session, verb: str, args: Mapping[str, Any]) -> Answer:
        """Carry out ``verb`` for ``user`` (of this process or a stand-in for another's): the answer, or the
        refusal as ``error``; nothing is changed by a refusal."""
        try:
            return getattr(self, f"_{verb}")(user, args)
        except MudwizError as refused:
            return {"error": refusal(refused)}
        finally:
            self._schedule()

    # ------------------------------------------------------------ the verbs

    def _seek(self, user: Session, args: Mapping[str, Any]) -> Answer:
        typed = typed_of(args.get("options"))
        events = self.book.seek(user.name, args["game"], players=int(args["players"]), now=self.clock.seconds(),
                                rated=bool(args.get("rated")), options=dict(typed), min_rating=args.get("min"),
                                max_rating=args.get("max"), bots_after=float(args.get("bots_after") or 0))
        return self._placed(user, events, typed)

    def _unseek(self, user: Session, args: Mapping[str, Any]) -> Answer:
        withdrawn = self.book.unseek(user.name)
        typed = self.typed.pop(withdrawn.seek.id, ())
        return {"ok": later("your seek ({seek}) is withdrawn", seek=describe(withdrawn.seek, typed)), "withdrawn": True}

    def _seeks(self, user: Session, args: Mapping[str, Any]) -> Answer:
        rows = [self.row(seek) for seek in self.book.open_seeks()]
        return {"ok": None, "deliver": {"type": "seeks", "seeks": rows}}

    def row(self, seek: Seek) -> dict[str, Any]:
        return {"id": seek.id, "who": seek.owner, "game": seek.game, "players": seek.players, "rated": seek.rated,
                "options": dict(self.typed.get(seek.id, ())), "min": seek.min_rating, "max": seek.max_rating,
                "rating": round(self.rating(seek.owner, seek.game)), "bots_after": seek.bots_after or None}

    def _quick(self, user: Session, args: Mapping[str, Any]) -> Answer:
        """The best open seek, else the fullest table of the game here waiting for players, else a new seek
        that bots fill after ``bots_after`` seconds."""
        game = str(args["game"])
        best = self.book.best_for(user.name, game, self.rating(user.name, game))
        table = None if best is not None else self._waiting_table(game)
        if table is not None:
            self._gone(user, {})
            return {"join": table}
        now, wait = self.clock.seconds(), float(args["bots_after"])
        if best is None:
            events = self.book.seek(user.name, game, players=int(args["players"]), now=now, bots_after=wait)
            return self._placed(user, events, ())
        typed = self.typed.get(best.id, ())  # as its seeker typed them (the book holds them normalised)
        events = self.book.seek(user.name, game, players=best.players, now=now, rated=best.rated,
                                options=dict(typed), bots_after=wait)
        return self._placed(user, events, typed)

    def _gone(self, user: Session, args: Mapping[str, Any]) -> Answer:
        for event in self.book.logout(user.name):
            if isinstance(event, SeekWithdrawn):
                self.typed.pop(event.seek.id, None)
        return {}

    def _put_back(self, user: Session, args: Mapping[str, Any]) -> Answer:
        """A seek of a match called off (or of a book being rebuilt), open again as it was."""
        seek, typed = seek_of(args["seek"]), typed_of(args.get("typed"))
        events = self.book.seek(seek.owner, seek.game, players=seek.players, now=self.clock.seconds(),
                                rated=seek.rated, options=dict(typed), min_rating=seek.min_rating,
                                max_rating=seek.max_rating, bots_after=seek.bots_after)
        return self._placed(user, events, typed, told=False)

    # ------------------------------------------------------------ events

    def _placed(self, user: Session, events: list[Any], typed: Typed, told: bool = True) -> Answer:
        answer: Answer = {}
        for event in events:
            if isinstance(event, SeekPlaced):
                self.typed[event.seek.id] = typed
                if event.replaced is not None:
                    self.typed.pop(event.replaced.id, None)
                said = describe(event.seek, typed)
                ok = (later("you seek a game: {seek}; bots fill the empty seats in {seconds:g} s if nobody comes "
                            "(/unseek withdraws it)", seek=said, seconds=event.seek.bots_after)
                      if event.seek.bots_after else later("you seek a game: {seek} (/unseek withdraws it)", seek=said))
                answer = {"ok": ok, "placed": seek_dict(event.seek), "typed": list(typed)}
                if told:  # said by the seeker's own process, which can leave them out of it
                    answer["notice"] = later("{name} seeks a game: {seek} (/seeks lists them).", name=user.name,
                                             seek=said)
            elif isinstance(event, Match):
                answer = {"ok": later("your seek is matched: {seek}", seek=describe(event.seeks[0], typed)),
                          "matched": True}
                self.matched(event)
        return answer

    def matched(self, match: Match) -> None:
        typed = self.typed.get(match.seeks[0].id, ())
        for seek in match.seeks:
            self.typed.pop(seek.id, None)
        assert self.matches is not None
        self.matches.make(match.seeks, typed, match.bots)

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

    def _waiting_table(self, game: str) -> int | None:
        """The table of ``game`` with the most seated and a free seat, a person among them, on any process (the
        lowest number of the fullest); None: none."""
        assert self.matches is not None
        waiting = [(len(t.seats), t.id) for t in self.table_list.tables.values()
                   if t.name == game and t.game is None and len(t.seats) < t.game_class.max_players
                   and t.roster.humans() and not self.matches.counting(t)]
        best = max([*waiting, *self.waiting_elsewhere(game)], key=lambda t: (t[0], -t[1]), default=None)
        return None if best is None else best[1]

    def clear(self) -> list[tuple[Seek, Typed]]:
        """Every seek taken out of the book (it moves to another process): each with its options as typed."""
        taken = [(seek, self.typed.get(seek.id, ())) for seek in self.book.open_seeks()]
        for seek, _ in taken:
            self.book.unseek(seek.owner)
        self.typed.clear()
        self._schedule()
        return taken
