"""Whether the store answers, as the table journal and the game records find it (a PostgreSQL restart, a full disk):
said once when it stops answering and once when it answers again, to the log and to everyone online, instead of a
line a move in the log and nothing to the players.

While it is away games go on: the journal keeps each table's moves not written and writes them with the table's
next move (``Journal.commit``), and a finished game's record is tried again every ``RECORD_RETRY`` seconds
(``GameRecording``) until the store takes it."""

from __future__ import annotations

from collections.abc import Callable

from twisted.logger import Logger

from mudwiz.texts import Later, later

log = Logger(namespace=__name__)  # a compiled module has no frame for Logger() to find its name in

RECORD_RETRY = 2.0  # seconds between a game record's tries while the store is away

AWAY = later("the game database is not answering: games go on, and what is played meanwhile is saved once it is back")
BACK = later("the game database is back: everything played meanwhile is saved")


class StoreOutage:
    """The store's health as its writers see it. ``tell(text)``: the server's, a notice to everyone online (None:
    nobody, as in tests of a table alone)."""

    def __init__(self, tell: Callable[[Later], None] | None = None) -> None:
        self.tell = tell
        self.away = False

    def failed(self, why: object) -> bool:
        """A write failed; True the first time since the store last answered (then logged and told)."""
        if self.away:
            return False
        self.away = True
        log.error("the store is not answering: {why}; games go on, their moves and records NOT written until it "
                  "answers again", why=why)
        if self.tell is not None:
            self.tell(AWAY)
        return True

    def worked(self) -> None:
        """A write went through: if the store was away, it is back."""
        if not self.away:
            return
        self.away = False
        log.info("the store answers again: what waited for it is written")
        if self.tell is not None:
            self.tell(BACK)
