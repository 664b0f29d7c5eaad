"""``net.polling.cap_turns``: a turn of Twisted's epoll reactor reads at most so many ready sockets, and the ones
left are read by the next turns, the longest-ready first (issue #18). On a real ``EPollReactor`` of the installed
Twisted (its private ``_poller`` is what is wrapped) and real socket pairs; nothing is run on the global reactor."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from twisted.internet import epollreactor
from twisted.internet.task import Clock

from mudwiz.net.polling import CappedPoll, cap_turns


class Reader:
    """A readable socket for the reactor: each turn that reads it takes one byte and notes it."""

    def __init__(self, sock: socket.socket, log: list[int], name: int) -> None:
        self.sock, self.log, self.name = sock, log, name

    def fileno(self) -> int:
        return self.sock.fileno()

    def doRead(self) -> None:
        self.sock.recv(1)
        self.log.append(self.name)

    def logPrefix(self) -> str:
        return "reader"

    def connectionLost(self, reason: Any) -> None:
        pass


@pytest.fixture
def reactor() -> Iterator[Any]:
    made = epollreactor.EPollReactor()
    yield made
    made._poller.close()
    for end in (made.waker.i, made.waker.o):  # the waker's pipe, which a reactor that never ran does not close
        try:
            os.close(end)
        except OSError:
            pass


def test_a_turn_reads_at_most_the_cap_and_the_rest_come_next_in_order(reactor: Any) -> None:
    assert cap_turns(reactor, 8) and isinstance(reactor._poller, CappedPoll)
    assert cap_turns(reactor, 8) and not isinstance(reactor._poller.poller, CappedPoll), "wrapped once only"
    log: list[int] = []
    pairs = [socket.socketpair() for _ in range(20)]
    readers = [Reader(mine, log, i) for i, (mine, _) in enumerate(pairs)]
    try:
        for reader, (_, theirs) in zip(readers, pairs, strict=True):
            reactor.addReader(reader)
            theirs.send(b"xx")  # two bytes: still ready after its first read
        reactor.doPoll(0)
        assert len(log) == 8, "one turn, at most 8 sockets read"
        first = list(log)
        reactor.doPoll(0)
        reactor.doPoll(0)
        assert len(log) == 24
        assert set(log[8:20]) == set(range(20)) - set(first), "the 12 not read yet come before any read again"
        while len(log) < 40:
            reactor.doPoll(0)
        assert sorted(log) == sorted(list(range(20)) * 2), "every byte read, none twice"
    finally:
        for reader in readers:
            reactor.removeReader(reader)
        for mine, theirs in pairs:
            mine.close()
            theirs.close()


def test_other_reactors_are_left_as_they_are() -> None:
    assert not cap_turns(Clock())
