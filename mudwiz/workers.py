"""Worker threads the reactor hands slow work to, started and stopped with the server (a Twisted service).

The bots' thinking, the store's writes and password hashing each get a pool of their own, sized for their work,
so one kind of work never queues behind another.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.application import service
from twisted.internet import defer, threads
from twisted.internet.interfaces import IReactorFromThreads
from twisted.python.threadpool import ThreadPool


class WorkerThreads(service.Service):
    """A pool of at most ``size`` threads: ``run(fn, *args)`` calls ``fn`` in one of them, its result a Deferred
    fired on the reactor."""

    def __init__(self, reactor: IReactorFromThreads, size: int, name: str) -> None:
        self.reactor = reactor
        self.pool = ThreadPool(minthreads=0, maxthreads=size, name=f"mudwiz-{name}")

    def run(self, fn: Callable[..., Any], *args: Any) -> defer.Deferred[Any]:
        return threads.deferToThreadPool(self.reactor, self.pool, fn, *args)

    def startService(self) -> None:
        super().startService()
        self.pool.start()

    def stopService(self) -> defer.Deferred[None] | None:
        """Waits for the work under way (``ThreadPool.stop`` joins the threads)."""
        super().stopService()
        self.pool.stop()
        return None
