"""A match made into a game: a table with the seek's options on the process of its oldest seeker (who hosts it),
the seekers seated and told (in a cluster, those of other processes sit down there as ``/join`` would seat them),
bots in the empty seats (a level close to the seekers' ratings), and the start after a short countdown during
which a seeker may ``/leave``: then the match is called off, the table closed and the others' seeks put back, so
nothing half-made is left. A seeker not seated when the countdown ends (gone, or busy elsewhere) calls it off too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from mudwiz.errors import MudwizError
from mudwiz.meeting.seeks import Seek, nearest_level
from mudwiz.meeting.seekwire import Typed, seek_dict
from mudwiz.ratings import bot_levels, bot_rating
from mudwiz.session import Session
from mudwiz.table import Table
from mudwiz.texts import later

if TYPE_CHECKING:
    from mudwiz.lobby.names import Names
    from mudwiz.lobby.people import People
    from mudwiz.lobby.tables import TableList

log = Logger(namespace="mudwiz.lobby.matching")


@dataclass
class Countdown:
    """A table made of a match, before its game starts: the seeks it was made of, to put back if called off."""

    table: Table
    seeks: tuple[Seek, ...]
    typed: Typed
    call: IDelayedCall | None = None


def seat_bot(table: Table, name: str, level: str) -> str:
    """Seat a bot of ``level`` called ``name`` (the server's, as the host's ``/bot add`` would): a match's empty
    seat, a tournament's. Its name, as seated."""
    from mudwiz.table.botseat import BotSession

    table.sit(BotSession(name, level=level, game=table.name, seed=table.seeds.randrange(2**32), stand_in=False))
    return name


def bot_level(game: str, rating: float) -> str:
    """The bot level whose fixed rating in ``game`` is closest to ``rating`` (``random`` for a game without).
    ``random`` is for tests and stand-ins, never offered while the game has a level meant for people."""
    chosen = [level for level in bot_levels(game) if level != "random"] or bot_levels(game)
    levels = {level: float(bot_rating(game, level).shown) for level in chosen}
    return nearest_level(rating, levels) or "random"


class Matches:
    """The tables counting down to their start, by table number. ``rating``: a player's in a game; ``put_back``
    opens a seek again; ``countdown``: the seconds from a match to its start, as set now."""

    def __init__(self, clock: IReactorTime, people: People, table_list: TableList, names: Names, *,
                 rating: Callable[[str, str], float], put_back: Callable[[Seek, Typed], None],
                 countdown: Callable[[], float]) -> None:
        self.clock = clock
        self.people = people
        self.table_list = table_list
        self.names = names
        self.rating = rating
        self.put_back = put_back
        self.countdown = countdown
        self.counting_down: dict[int, Countdown] = {}

    def counting(self, table: Table) -> bool:
        return table.id in self.counting_down

    def make(self, seeks: Sequence[Seek], typed: Typed, bots: int) -> None:
        """A table of the match of ``seeks`` (oldest first) and ``bots``, here when its oldest seeker is ours,
        else on their process; a host no longer free (gone, or at a table) calls it off."""
        seeks = tuple(seeks)
        host = self.people.users.get(seeks[0].key)
        if host is None:
            message = {"op": "seek_make", "seeks": [seek_dict(s) for s in seeks], "typed": list(typed), "bots": bots}
            if not self.people.directory.to_seeker(seeks[0].owner, message):
                self._call_off(seeks[1:], typed)
            return
        if host.table is not None or host.elsewhere is not None or not host.connected:
            self._call_off(seeks[1:], typed)
            return
        table = self.table_list.make_table(self.table_list.new_table_id(), seeks[0].game, host)
        for name, value in typed:
            table.config.set(name, value)  # checked when the seek was placed
        elsewhere = []
        for seek in seeks[1:]:
            session = self.people.users.get(seek.key)
            if session is None:
                elsewhere.append(seek.owner)
            elif session.table is None and session.elsewhere is None:
                table.sit(session)
        level = bot_level(table.name, sum(self.rating(s.owner, table.name) for s in seeks) / len(seeks))
        for _ in range(bots):
            seat_bot(table, self.names.free_bot_name(table), level)
        countdown = Countdown(table, seeks, typed)
        self.counting_down[table.id] = countdown
        wait = self.countdown()
        names = [*(s.owner for s in seeks), *(s.name for s in table.seats if s.is_bot)]
        message = {"type": "matched", "table": table.id, "game": table.name, "rated": seeks[0].rated,
                   "players": names, "bots": bots, "countdown": wait}
        for seated in table.roster.humans():
            seated.deliver(message)
        for name in elsewhere:
            self.people.directory.to_seeker(name, {"op": "seek_seat", "name": name, "table": table.id,
                                                   "message": message})
        said = {"game": table.game_class.title, "n": table.id, "names": ", ".join(names)}
        table.announce(later("Matched: {game} at table {n} with {names}; the game starts in {seconds:g} s (/leave "
                             "backs out).", seconds=wait, **said))
        self.people.lobby_notice(later("{names} are matched at table {n} ({game}).", **said))
        countdown.call = self.clock.callLater(wait, self._start, table.id)

    def _start(self, table_id: int) -> None:
        countdown = self.counting_down.get(table_id)
        if countdown is None:
            return
        table = countdown.table
        missing = [seek for seek in countdown.seeks if not _person(table.seated(seek.owner))]
        if missing:  # gone, or busy elsewhere, before they were seated
            self.backed_out(Session(missing[0].owner), table, missed=True)
            return
        del self.counting_down[table_id]
        host = table.seated(table.host)
        try:
            if host is None:
                raise MudwizError(later("the host is gone"))
            table.start(host)
        except MudwizError as why:  # the server is stopping, or a seat went: the table says so, as its /start would
            log.info("table {table} of a match did not start: {why}", table=table.id, why=str(why))
            table.announce(later("The game could not start: {why}. The host may /start it.",
                                 why=why.args[0] if why.args else str(why)))

    def backed_out(self, session: Session, table: Table, missed: bool = False) -> None:
        """``session`` left ``table`` during its countdown (or, ``missed``, never came): the match is called off,
        the others leave the table and their seeks are open again."""
        countdown = self.counting_down.pop(table.id, None)
        if countdown is None:
            return
        if countdown.call is not None and countdown.call.active():
            countdown.call.cancel()
        for seek in countdown.seeks:
            if seek.key == session.name.lower():
                continue
            other = table.seated(seek.owner)
            if _person(other):
                assert other is not None
                table.leave(other)
                other.notice(later("{name} did not come: your seek ({game}) is open again.", name=session.name,
                                   game=seek.game) if missed
                             else later("{name} backed out of the match: your seek ({game}) is open again.",
                                        name=session.name, game=seek.game))
                self.put_back(seek, countdown.typed)
        for bot in [s for s in table.seats if s.is_bot]:
            table.leave(bot)

    def _call_off(self, others: Sequence[Seek], typed: Typed) -> None:
        for seek in others:
            self.put_back(seek, typed)


def _person(session: Session | None) -> bool:
    return session is not None and not session.is_bot
