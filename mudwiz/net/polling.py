"""How many ready sockets one turn of the reactor reads: at most ``TURN_SOCKETS`` (issue #18).

Twisted's epoll reactor asks the kernel for every ready socket at once and reads them all before its turn ends,
and a running server writes a turn's output only at its end (net/lines.py ``hold_per_turn``). At 200 busy
tables that made turns of ~650 connections and ~25 ms: a move read first waited for all the others, and how
long a turn lasted swung with how many happened to be ready, so a move's turn latency ranged over twice its
median. Read at most ``TURN_SOCKETS`` a turn, the output leaves after those; the sockets still ready are
reported by the next poll, before those that became ready since (epoll puts a level-triggered socket it has
reported at the back of its ready list), so they are read nearly in the order their data came.
``bench/load.py --mode play --tables 200``: p99 over p50 1.6-2.1 (median 1.8) instead of 1.8-2.4 (median
2.1), at the same CPU a command (docs/performance.md, the eleventh round).

The reactor's epoll object (``EPollReactor._poller``, a private attribute of Twisted's; tests/test_polling.py
checks it on the installed Twisted) is wrapped, so this holds whoever installed the reactor (``mudwiz serve``,
``twistd``); any other reactor is left as it is.
"""

from __future__ import annotations

from typing import Any

TURN_SOCKETS = 32


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
