"""A match made into a game: a table with the seek's options, the seekers seated and told, bots in the empty seats
(a level close to the seekers' ratings), and the start after a short countdown during which a seeker may ``/leave``:
then the match is called off, the table closed and the others' seeks put back, so nothing half-made is left.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from mudwiz.errors import MudwizError
from mudwiz.meeting.seeks import Match, Seek, nearest_level
from mudwiz.ratings import bot_levels, bot_rating
from mudwiz.session import Session
from mudwiz.table import Table

if TYPE_CHECKING:
    from mudwiz.lobby.names import Names
    from mudwiz.lobby.people import People
    from mudwiz.lobby.tables import TableList

log = Logger(namespace="mudwiz.lobby.matching")
Typed = tuple[tuple[str, str | None], ...]  # a seek's options as typed: (name, value or None for a bare flag)


@dataclass
class Countdown:
    """A table made of a match, before its game starts: the seeks it was made of, to put back if called off."""

    table: Table
    seeks: tuple[Seek, ...]
    typed: Typed
    call: IDelayedCall | None = None


def bot_level(game: str, rating: float) -> str:
    """The bot level whose fixed rating in ``game`` is closest to ``rating`` (``random`` for a game without)."""
    levels = {level: float(bot_rating(game, level).shown) for level in bot_levels(game)}
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

    def make(self, match: Match, typed: Typed) -> None:
        """A table of ``match``, counting down; a seeker no longer free (gone, or at a table) drops out and the
        others' seeks are put back."""
        people = [self.people.users.get(seek.key) for seek in match.seeks]
        free = [s for s in people if s is not None and s.table is None and s.connected]
        if len(free) < len(people):
            for seek, session in zip(match.seeks, people, strict=True):
                if session in free:
                    self.put_back(seek, typed)
            return
        host, *others = [s for s in free if s is not None]
        table = self.table_list.make_table(self.table_list.new_table_id(), match.game, host)
        for name, value in typed:
            table.config.set(name, value)  # checked when the seek was placed
        for session in others:
            table.sit(session)
        level = bot_level(table.name, sum(self.rating(s.name, table.name) for s in free) / len(free))
        for _ in range(match.bots):
            self._seat_bot(table, level)
        countdown = Countdown(table, match.seeks, typed)
        self.counting_down[table.id] = countdown
        wait = self.countdown()
        names = ", ".join(s.name for s in table.seats)
        for session in free:
            session.deliver({"type": "matched", "table": table.id, "game": table.name, "rated": match.rated,
                             "players": [s.name for s in table.seats], "bots": match.bots, "countdown": wait})
        table.announce(f"Matched: {table.game_class.title} at table {table.id} with {names}; the game starts in "
                       f"{wait:g} s (/leave backs out).")
        self.people.lobby_notice(f"{names} are matched at table {table.id} ({table.game_class.title}).")
        countdown.call = self.clock.callLater(wait, self._start, table.id)

    def _seat_bot(self, table: Table, level: str) -> None:
        from mudwiz.table.botseat import BotSession

        table.sit(BotSession(self.names.free_bot_name(table), level=level, game=table.name,
                             seed=table.seeds.randrange(2**32), stand_in=False))

    def _start(self, table_id: int) -> None:
        countdown = self.counting_down.pop(table_id, None)
        if countdown is None:
            return
        table = countdown.table
        host = table.seated(table.host)
        try:
            if host is None:
                raise MudwizError("the host is gone")
            table.start(host)
        except MudwizError as why:  # the server is stopping, or a seat went: the table says so, as its /start would
            log.info("table {table} of a match did not start: {why}", table=table.id, why=str(why))
            table.announce(f"The game could not start: {why}. The host may /start it.")

    def backed_out(self, session: Session, table: Table) -> None:
        """``session`` left ``table`` during its countdown: the match is called off, the others leave the table
        and their seeks are open again."""
        countdown = self.counting_down.pop(table.id, None)
        if countdown is None:
            return
        if countdown.call is not None and countdown.call.active():
            countdown.call.cancel()
        for seek in countdown.seeks:
            if seek.key == session.name.lower():
                continue
            other = table.seated(seek.owner)
            if other is not None and not other.is_bot:
                table.leave(other)
                other.notice(f"{session.name} backed out of the match: your seek ({seek.game}) is open again.")
            self.put_back(seek, countdown.typed)
        for bot in [s for s in table.seats if s.is_bot]:
            table.leave(bot)
