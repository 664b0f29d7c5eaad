"""``net.polling.cap_turns``: a turn of Twisted's epoll reactor reads at most so many ready sockets, and the ones
left are read by the next turns, the longest-ready first; ``lean_turns``: the same reactor's poll loop,
without a log context made for each socket, reads every ready socket and survives one that fails. On a real
``EPollReactor`` of the installed Twisted (its private ``_poller``, ``_selectables`` and ``_doReadOrWrite`` are
what these use) and real socket pairs; nothing is run on the global reactor."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from epolls import unrun_epoll
from twisted.internet.task import Clock
from twisted.logger import globalLogPublisher

from mudwiz.net.polling import CappedPoll, cap_turns, lean_turns


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


class Failing(Reader):
    """A socket whose reading fails, and whose clean-up then fails too: the error comes out of Twisted's
    ``_doReadOrWrite`` into the poll loop."""

    def doRead(self) -> None:
        super().doRead()
        raise RuntimeError("read went wrong")

    def connectionLost(self, reason: Any) -> None:
        raise RuntimeError("clean-up went wrong")


@contextmanager
def ready(reactor: Any, count: int, sent: bytes, failing: int = -1) -> Iterator[list[int]]:
    """``count`` readers on ``reactor`` (the one at ``failing``: a ``Failing``), ``sent`` waiting on each; yields
    the list their reads are noted in; afterwards each is taken from the reactor and its sockets closed."""
    log: list[int] = []
    pairs = [socket.socketpair() for _ in range(count)]
    readers = [(Failing if i == failing else Reader)(mine, log, i) for i, (mine, _) in enumerate(pairs)]
    try:
        for reader, (_, theirs) in zip(readers, pairs, strict=True):
            reactor.addReader(reader)
            theirs.send(sent)
        yield log
    finally:
        for reader in readers:
            if reader in reactor.getReaders():
                reactor.removeReader(reader)
        for mine, theirs in pairs:
            mine.close()
            theirs.close()


@pytest.fixture
def reactor() -> Iterator[Any]:
    yield from unrun_epoll()


def test_a_turn_reads_at_most_the_cap_and_the_rest_come_next_in_order(reactor: Any) -> None:
    assert cap_turns(reactor, 8) and isinstance(reactor._poller, CappedPoll)
    assert cap_turns(reactor, 8) and not isinstance(reactor._poller.poller, CappedPoll), "wrapped once only"
    with ready(reactor, 20, b"xx") as log:  # two bytes: each still ready after its first read
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


@pytest.mark.parametrize("capped_first", [True, False])
def test_the_lean_loop_reads_every_ready_socket_and_keeps_the_cap(reactor: Any, capped_first: bool) -> None:
    if capped_first:
        cap_turns(reactor, 8)
    assert lean_turns(reactor)
    assert reactor.doIteration == reactor.doPoll, "the reactor's mainLoop runs the lean loop"
    if not capped_first:
        cap_turns(reactor, 8)
    with ready(reactor, 12, b"x") as log:
        reactor.doIteration(0)
        assert len(log) == 8, "the cap holds whichever was installed first"
        reactor.doIteration(0)
        assert sorted(log) == list(range(12))
        reactor.doIteration(0)
        assert len(log) == 12, "nothing ready, nothing read"


def test_a_socket_that_fails_is_logged_and_the_turn_goes_on(reactor: Any) -> None:
    lean_turns(reactor)
    events: list[dict[str, Any]] = []
    globalLogPublisher.addObserver(events.append)
    try:
        with ready(reactor, 3, b"xx", failing=1) as log:
            reactor.doIteration(0)
            assert sorted(log) == [0, 1, 2], "the sockets after the failing one were read in the same turn"
            failures = [e for e in events if "log_failure" in e]
            assert len(failures) == 1 and "clean-up went wrong" in str(failures[0]["log_failure"].value)
            assert "handling" in failures[0]["log_format"]
            reactor.doIteration(0)
            assert sorted(log) == [0, 0, 1, 2, 2], "the failed socket is gone from the reactor, the others read on"
    finally:
        globalLogPublisher.removeObserver(events.append)


def test_other_reactors_are_left_as_they_are() -> None:
    assert not cap_turns(Clock())
    assert not lean_turns(Clock())
