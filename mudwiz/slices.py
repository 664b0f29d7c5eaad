"""Long work on the reactor in slices, so that nobody waits for it: replaying a recorded game to the step asked
for is some 20 µs a move, 200 ms for a 9,000-move Tiltowait game, and done whole it held up every connection
of the server that long (bench/burst.py).

The work is a generator that yields (``None``) wherever it may stop and returns its result. ``inline`` runs it
to its end at once (tests on a fake clock, and anything that needs no reactor); ``Sliced`` runs it a slice of
at most ``SLICE`` seconds per reactor turn, with Twisted's ``Cooperator``, round the pieces of work under way.
Either way the caller gets a Deferred of the result (already fired, inline).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Generator
from typing import Any, Protocol, TypeVar

from twisted.internet import defer, task, threads
from twisted.internet.interfaces import IReactorThreads, IReactorTime

from mudwiz.texts import Later

T = TypeVar("T")
Work = Generator[None, None, T]
# What a command answers: its ``ok``'s text (None: none), or a Deferred of it, for work run in slices: the
# connection answers once it fires, and reads the user's next line only then.
Reply = str | Later | None | defer.Deferred[str | Later | None]  # a ``Later``: read in the user's language

SLICE = 0.002  # seconds of such work a reactor turn, at most (one step past it)


class Runner(Protocol):
    """How work is run: ``inline`` or ``Sliced``."""

    def __call__(self, work: Work[T]) -> defer.Deferred[T]: ...


def finish(work: Work[T]) -> T:
    """``work`` run to its end: its result."""
    while True:
        try:
            next(work)
        except StopIteration as done:
            return done.value


def unless(gone: Callable[[], bool], work: Work[T]) -> Work[T | None]:
    """``work``, given up (its result None) as soon as ``gone()``: whoever asked for it left, and nobody would
    read the answer (a client asking and leaving, again and again, must not pile up work)."""
    while not gone():
        try:
            next(work)
        except StopIteration as done:
            return done.value
        yield
    work.close()
    return None


def inline(work: Work[T]) -> defer.Deferred[T]:
    """Run at once: the Deferred has fired (or failed) when this returns."""
    return defer.maybeDeferred(finish, work)


def _deadline() -> Callable[[], bool]:
    end = time.monotonic() + SLICE
    return lambda: time.monotonic() >= end


class Sliced:
    """Runs work a slice a reactor turn (``SLICE``), between the turns' reading and writing."""

    def __init__(self, clock: IReactorTime) -> None:
        self.cooperator = task.Cooperator(terminationPredicateFactory=_deadline,
                                          scheduler=lambda step: clock.callLater(0, step))

    def __call__(self, work: Work[T]) -> defer.Deferred[T]:
        result: list[Any] = []

        def pieces() -> Generator[None, None, None]:
            result.append((yield from work))

        return self.cooperator.coiterate(pieces()).addCallback(lambda _: result[0])


class InThread:
    """Runs work whole in a thread of the reactor's pool: for work whose pieces are too long for a reactor turn
    (the coach's bot thinking, ``/analyze``: up to seconds a piece on a busy machine). The GIL still lets the
    reactor in at every switch interval, cut to ``SWITCH`` seconds while such work runs (as the bots' thinking
    threads cut it: mudwiz/thinking.py), so the server goes on answering, a little slower, meanwhile."""

    SWITCH = 0.001

    def __init__(self, reactor: IReactorThreads) -> None:
        self.reactor = reactor
        self.running = 0
        self.saved = sys.getswitchinterval()

    def __call__(self, work: Work[T]) -> defer.Deferred[T]:
        if not self.running:
            self.saved = sys.getswitchinterval()
            sys.setswitchinterval(min(self.saved, self.SWITCH))
        self.running += 1
        done = threads.deferToThreadPool(self.reactor, self.reactor.getThreadPool(), finish, work)
        return done.addBoth(self._ended)

    def _ended(self, result: Any) -> Any:
        self.running -= 1
        if not self.running:
            sys.setswitchinterval(self.saved)
        return result
