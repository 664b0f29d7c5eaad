"""Waiting, on a reactor's clock, until something is so or a time is up: a clean stop waits for the connections
it closed to go (sysops.py ``farewell``, net/relay.py ``Relay.farewell``), but never for ever."""

from __future__ import annotations

from collections.abc import Callable

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime

EVERY = 0.05  # seconds between looks


def until(clock: IReactorTime, done: Callable[[], bool], seconds: float) -> defer.Deferred[None]:
    """Fires once ``done()`` is true (looked at now, then every ``EVERY`` seconds), or ``seconds`` from now."""
    fired: defer.Deferred[None] = defer.Deferred()
    deadline = clock.seconds() + seconds

    def check() -> None:
        if done() or clock.seconds() >= deadline:
            fired.callback(None)
        else:
            clock.callLater(EVERY, check)

    check()
    return fired
