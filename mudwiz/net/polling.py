"""How many ready sockets one turn of the reactor reads: at most ``TURN_SOCKETS``.

Twisted's epoll reactor asks the kernel for every ready socket at once and reads them all before its turn ends,
and a running server writes a turn's output only at its end (mudwiz/outflow.py ``Outflow.hold_per_turn``). At 200 busy
tables that made turns of ~650 connections and ~25 ms: a move read first waited for all the others, and how
long a turn lasted swung with how many happened to be ready, so a move's turn latency ranged over twice its
median. Read at most ``TURN_SOCKETS`` a turn, the output leaves after those; the sockets still ready are
reported by the next poll, before those that became ready since (epoll puts a level-triggered socket it has
reported at the back of its ready list), so they are read nearly in the order their data came.
``bench/load.py --mode play --tables 200``: p99 over p50 1.6-2.1 (median 1.8) instead of 1.8-2.4 (median
2.1), at the same CPU a command (docs/performance.md, "Settings that matter for speed").

The reactor's epoll object (``EPollReactor._poller``, a private attribute of Twisted's; tests/net/test_polling.py
checks it on the installed Twisted) is wrapped, so this holds whoever installed the reactor (``mudwiz serve``,
``twistd``); any other reactor is left as it is.

``lean_turns`` gives the same reactor a poll loop that hands each ready socket to it without Twisted's
``log.callWithLogger`` (see there why).
"""

from __future__ import annotations

import errno
from collections.abc import Callable, Sized
from time import perf_counter
from typing import Any, Protocol

from twisted.logger import Logger

log = Logger()

TURN_SOCKETS = 32


class Order(Protocol):
    """The order ready sockets are read in, and when a turn has read enough (net/turns.py's ``Crowd``)."""

    @property
    def urgent(self) -> int: ...

    @property
    def own(self) -> int: ...

    @property
    def waiting(self) -> Sized: ...

    def begin_turn(self) -> None: ...

    def first(self, ready: list[tuple[int, int]], waited: float) -> list[tuple[int, int]]: ...

    def share_out(self, ready: list[tuple[int, int]], read: Callable[[int, int], None]) -> None: ...

    def read(self) -> None: ...


class CappedPoll:
    """An epoll object whose ``poll`` reports at most ``most`` ready sockets; everything else is the epoll
    object's own."""

    def __init__(self, poller: Any, most: int) -> None:
        self.poller = poller
        self.most = most

    def poll(self, timeout: float = -1, maxevents: int = -1) -> list[tuple[int, int]]:
        most = self.most if maxevents <= 0 else min(maxevents, self.most)
        result: list[tuple[int, int]] = self.poller.poll(timeout, most)
        return result

    def __getattr__(self, name: str) -> Any:
        return getattr(self.poller, name)


def cap_turns(reactor: Any, most: int = TURN_SOCKETS) -> bool:
    """Make ``reactor`` read at most ``most`` ready sockets a turn, if it is Twisted's epoll reactor (else
    False, and nothing done); once only."""
    from twisted.internet.epollreactor import EPollReactor

    if not isinstance(reactor, EPollReactor):
        return False
    poller = reactor._poller
    if not isinstance(poller, CappedPoll):
        reactor._poller = CappedPoll(poller, most)
    return True


def lean_turns(reactor: Any, order: Order | None = None) -> bool:
    """Give ``reactor``, if it is Twisted's epoll reactor (else False, and nothing done), a poll loop that calls
    each ready socket's reader or writer directly. Twisted's ``doPoll`` calls it through ``log.callWithLogger``,
    which asks the socket its log prefix and pushes a copy of the log context with it, so that a legacy
    ``log.msg`` written during the read is tagged with its connection: 2.9 µs a ready socket, ~2 % of a move's
    CPU at 200 tables. mudwiz logs with ``twisted.logger``, whose lines name their module and never
    read that context. What differs: a legacy line from Twisted's own code during a read says ``-`` where it
    named the connection. An error out of a socket's handling is logged with its traceback and the loop goes on
    to the next socket, as ``callWithLogger`` did.

    With ``order`` (net/turns.py's ``Crowd``), it is told when each turn begins (before the timed calls), every
    ready socket is asked for (at most ``cap_turns``'s many read, after all of the server's own: a cluster's Redis
    connections and relay links wait for the poll to write too, and were cut off for seconds behind a crowd of
    people ready at once; and with at least one of the rest: ``capped``), the server's own and people's read at
    once, the
    rest read in its order with the lines it put off until the turn has lasted its time (those not read are still
    ready at the next poll), and then the turn's output is written. A bystander's line is then read in the turn
    under way or the next, however many flood.

    It reads the reactor's ``_selectables``, ``_poller`` and ``_doReadOrWrite`` (Twisted's private names, as
    its own ``doPoll`` does); tests/net/test_polling.py checks them on the installed Twisted."""
    from twisted.internet.epollreactor import EPollReactor

    if not isinstance(reactor, EPollReactor):
        return False
    poll = _poll_loop(reactor, order)
    target: Any = reactor  # an instance's attributes, over its class's methods
    target.doPoll = target.doIteration = poll  # mainLoop calls doIteration; the class makes both one method
    if order is not None:
        target.runUntilCurrent = _timed_calls(reactor, order)
    return True


def _timed_calls(reactor: Any, order: Order) -> Callable[[], None]:
    """The reactor's ``runUntilCurrent`` (its timed calls, the first thing in each of its turns), the turn's
    beginning told to ``order`` first."""
    timed_calls = type(reactor).runUntilCurrent.__get__(reactor)
    begin_turn = order.begin_turn

    def runUntilCurrent() -> None:
        begin_turn()
        timed_calls()

    return runUntilCurrent


def capped(ready: list[tuple[int, int]], order: Order, most: int | None) -> tuple[list[tuple[int, int]], int]:
    """The ready sockets a turn reads, in ``order.first``'s order, and how many of them are read at once: at most
    ``most`` (``cap_turns``; None: all), but every one of the server's own, and, when the sockets read at once fill
    the cap, still the first of the rest: the turn's "at least one" of them (net/turns.py), or a crowd of people
    ready every turn (tables playing flat out) kept every connection still logging in from ever being read."""
    urgent = order.urgent
    if most is None or len(ready) <= max(most, order.own):
        return ready, urgent
    keep = max(most, order.own)
    if urgent < keep:
        return ready[:keep], urgent
    return ready[:keep] + ready[urgent:urgent + 1], keep


def _poll_loop(reactor: Any, order: Order | None = None) -> Callable[[float | None], None]:
    selectables: dict[int, Any] = reactor._selectables
    ready_one = reactor._doReadOrWrite

    def read(fd: int, event: int) -> None:
        selectable = selectables.get(fd)
        if selectable is None:  # removed by a socket read before it in this turn
            return
        try:
            ready_one(selectable, fd, event)
        except Exception:
            log.failure("handling {selectable!r} failed", selectable=selectable)

    def doPoll(timeout: float | None) -> None:
        """Twisted's ``EPollReactor.doPoll``, but for the call of each ready socket (``lean_turns``)."""
        try:
            # the poller is read at each turn: ``cap_turns`` may wrap it after this loop is made
            poller = reactor._poller
            if order is None:
                ready = poller.poll(-1 if timeout is None else timeout, len(selectables))
            else:  # all of them, in order, as many as ``cap_turns`` says (those not read are ready at the next)
                if order.waiting:  # lines put off: no waiting for more
                    timeout = 0
                began = perf_counter()
                every = getattr(poller, "poller", poller).poll(-1 if timeout is None else timeout, len(selectables))
                ready, urgent = capped(order.first(every, perf_counter() - began), order,
                                       getattr(poller, "most", None))
        except OSError as err:
            if err.errno == errno.EINTR:
                return
            raise
        if order is None:
            for fd, event in ready:
                read(fd, event)
            return
        for fd, event in ready[:urgent]:
            read(fd, event)
        order.share_out(ready[urgent:], read)
        order.read()

    return doPoll
