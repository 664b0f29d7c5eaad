"""Where a bot does its thinking: inline (tests on a fake clock, cheap bots) or in a worker thread (the server).

A ``good`` bot may think for a tenth of a second or more per move. On the reactor thread that would freeze
every connection of the server for that long, once per bot move; in a worker thread the reactor keeps
serving. Under the GIL the reactor still waits for a thinking thread to hand it over, up to the interpreter's
switch interval each time it blocks and wakes (5 ms by default, several times per request): so while the pool
runs, the interval is cut to 1 ms (``bench/reactor.py`` measures the difference). The table only sees a
``Think``: give it a bot and a view, get a Deferred of the bot's action.
"""

from __future__ import annotations

import copy
import sys
from typing import Any, Protocol

from twisted.internet import defer
from twisted.internet.interfaces import IReactorFromThreads

from mudwiz.workers import WorkerThreads


class Chooser(Protocol):
    def choose(self, view: dict[str, Any]) -> str | None: ...


class Think(Protocol):
    def __call__(self, bot: Chooser, view: dict[str, Any]) -> defer.Deferred[str | None]: ...


def think_inline(bot: Chooser, view: dict[str, Any]) -> defer.Deferred[str | None]:
    """Decide on the calling thread: deterministic, for a fake clock and for bots that answer at once."""
    return defer.maybeDeferred(bot.choose, view)


class ThreadedThinking(WorkerThreads):
    """A pool of worker threads for bots, started and stopped with the server.

    The bot gets a deep copy of its view, so nothing the reactor later changes can move under it; a bot object
    is only ever asked one question at a time (the table sees to that), so its own memory needs no lock.
    """

    name: str | None = "bot-thinking"  # type: ignore[assignment]  # IService declares name None until set
    switch_interval = 0.001  # seconds; see the module's docstring

    def __init__(self, reactor: IReactorFromThreads, threads: int = 4) -> None:
        super().__init__(reactor, threads, "bots")
        self.saved_interval = sys.getswitchinterval()

    def __call__(self, bot: Chooser, view: dict[str, Any]) -> defer.Deferred[str | None]:
        return self.run(bot.choose, copy.deepcopy(view))

    def startService(self) -> None:
        self.saved_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self.saved_interval, self.switch_interval))
        super().startService()

    def stopService(self) -> defer.Deferred[None] | None:
        super().stopService()
        sys.setswitchinterval(self.saved_interval)
        return None
