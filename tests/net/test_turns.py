"""The reactor's turn (net/turns.py): people's sockets read however late it is, the rest and the lines put off in
one order until it has lasted its time, and its output written once its sockets are read. On a real
``EPollReactor`` (as tests/net/test_polling.py) with real socket pairs and real shares (net/budget.py) on a test
clock; nothing is run on the global reactor. What a real flood makes of it: tests/wire/test_wire_flood.py."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from epolls import unrun_epoll
from twisted.internet.task import Clock

from mudwiz.net import turns
from mudwiz.net.budget import Budget, Share
from mudwiz.net.polling import cap_turns, lean_turns
from mudwiz.net.turns import PERSON_BYTES, Crowd


class Reader:
    """A readable socket with a connection's share: each read takes what waits and notes whose it was."""

    def __init__(self, name: str, budget: Budget, clock: Clock, log: list[str]) -> None:
        self.mine, self.theirs = socket.socketpair()
        self.name, self.log = name, log
        self.share = Share(clock, budget, lambda text: None, lambda: None, name)
        self.share.seen_on(self.mine)

    def fileno(self) -> int:
        return self.mine.fileno()

    def doRead(self) -> None:
        self.mine.recv(1 << 16)
        self.log.append(self.name)

    def logPrefix(self) -> str:
        return self.name

    def connectionLost(self, reason: Any) -> None:
        pass

    def close(self) -> None:
        self.share.gone()
        self.mine.close()
        self.theirs.close()


def person(reader: Reader) -> Reader:
    """Logged in, a line sent: a person typing."""
    reader.share.person = True
    reader.share.heard(b"/who\n", None)
    return reader


def flooder(reader: Reader) -> Reader:
    """Logged in, 200 lines come at once: a crowd's."""
    reader.share.person = True
    reader.share.heard(b"x\n" * 200, None)
    return reader


@pytest.fixture
def reactor() -> Iterator[Any]:
    yield from unrun_epoll()


@pytest.fixture
def budget() -> Budget:
    return Budget(fair_cpu=0, lines_per_second=0, output_per_second=0)


def test_a_persons_socket_is_read_however_late_the_turn_and_the_crowds_wait(
        reactor: Any, budget: Budget, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the turn has lasted its time, a person's ready socket is still read, before any other; of the crowd's,
    only one (some progress every turn); the others are read by the turns after, each once."""
    monkeypatch.setattr(turns, "TURN_SECONDS", 0.0)  # every turn is over as soon as it begins
    clock, log = Clock(), []
    assert lean_turns(reactor, budget.crowd)
    crowd = [flooder(Reader(f"flood{i}", budget, clock, log)) for i in range(5)]
    quiet = person(Reader("quiet", budget, clock, log))
    try:
        for reader in [*crowd, quiet]:
            reactor.addReader(reader)
            reader.theirs.send(b"x\n" * 10)
        reactor.runUntilCurrent()  # the turn begins: the timed calls, then the poll
        reactor.doIteration(0)
        assert log == ["quiet", log[1]] and log[1].startswith("flood"), "the person, then one of the crowd"
        for _ in range(4):
            reactor.runUntilCurrent()
            reactor.doIteration(0)
        assert sorted(log[1:]) == [f"flood{i}" for i in range(5)], "one of the crowd a turn, none twice"
    finally:
        for reader in [*crowd, quiet]:
            reactor.removeReader(reader)
            reader.close()


def test_the_servers_own_sockets_are_read_first_whatever_the_cap_however_many_people_are_ready(
        reactor: Any, budget: Budget) -> None:
    """A cluster's Redis connection or relay link (no share: the server's own) ready after a crowd of people is
    read in the turn, first, though the cap is smaller than the crowd: it waited behind it for seconds, and a
    node's beats with it, till the other nodes took the node for gone."""
    clock, log = Clock(), []
    assert cap_turns(reactor, 8) and lean_turns(reactor, budget.crowd)
    people = [person(Reader(f"person{i}", budget, clock, log)) for i in range(20)]
    own = Reader("own", budget, clock, log)
    own.share.gone()  # (not a connection's: nothing of the crowd's order knows it)
    try:
        for reader in [*people, own]:  # ready last: the poll reports it last
            reactor.addReader(reader)
            reader.theirs.send(b"/who\n")
        reactor.runUntilCurrent()
        reactor.doIteration(0)
        assert log[0] == "own" and len(log) == 8, log
    finally:
        for reader in [*people, own]:
            reactor.removeReader(reader)
            reader.close()


def test_a_login_is_read_though_more_people_than_the_cap_are_ready_every_turn(
        reactor: Any, budget: Budget) -> None:
    """A connection not logged in yet (no person's) among more people ready than the cap, turn after turn (a
    crowd playing flat out): the turn's "at least one" of the rest is still offered, and it is read in the first
    turn; it was never read while the people filled the cap (a table's late logins never came in)."""
    clock, log = Clock(), []
    assert cap_turns(reactor, 8) and lean_turns(reactor, budget.crowd)
    people = [person(Reader(f"person{i}", budget, clock, log)) for i in range(20)]
    login = Reader("login", budget, clock, log)
    try:
        for reader in [*people, login]:
            reactor.addReader(reader)
            reader.theirs.send(b"name\n")
        for _ in range(5):
            reactor.runUntilCurrent()
            reactor.doIteration(0)
            for reader in people:  # every person has a line again by the next turn
                reader.theirs.send(b"/who\n")
        assert "login" in log, log
        assert log.count("login") == 1 and len(log) <= 5 * 9
    finally:
        for reader in [*people, login]:
            reactor.removeReader(reader)
            reader.close()


def test_a_person_with_more_than_a_persons_bytes_waiting_is_read_in_the_crowds_order(budget: Budget) -> None:
    """A connection that typed like a person, then sent a flood's bytes at once (a crowd that logged in quietly and
    then floods together) is no longer read however late the turn: 149 such reads were 0.7 s of one turn."""
    clock, log = Clock(), []
    crowd: Crowd = budget.crowd
    quiet = person(Reader("quiet", budget, clock, log))
    try:
        quiet.theirs.send(b"/who\n")
        assert crowd.first([(quiet.fileno(), 1)]) and crowd.urgent == 1
        quiet.theirs.send(b"x" * PERSON_BYTES)
        assert crowd.first([(quiet.fileno(), 1)]) == [(quiet.fileno(), 1)] and crowd.urgent == 0
    finally:
        quiet.close()


def test_lines_put_off_and_ready_sockets_are_taken_in_one_order_as_they_stand_now(budget: Budget) -> None:
    """The lines put off and the ready sockets are ranked together (fewest lines waiting first among the crowd),
    each by its share as it stands when the turn takes them: a person's lines put off while they looked like a
    crowd's (bunched by a stall) come first again once that second is past."""
    clock, done = Clock(), []
    crowd: Crowd = budget.crowd
    bunched = flooder(Reader("bunched", budget, clock, done))  # 200 lines counted this second
    heavy = flooder(Reader("heavy", budget, clock, done))
    light = flooder(Reader("light", budget, clock, done))
    readers = [bunched, heavy, light]
    crowd.begin_turn()  # (a reactor's turns from now on: nothing put off is read on but by ``share_out``)
    try:
        heavy.share.pending, light.share.pending, bunched.share.pending = 150, 20, 3
        crowd.put_off(heavy.share, lambda: done.append("heavy's lines"), clock.callLater)
        crowd.put_off(bunched.share, lambda: done.append("bunched's lines"), clock.callLater)
        crowd.share_out([(light.fileno(), 1)], lambda fd, events: done.append("light's socket"))
        assert done == ["bunched's lines", "light's socket", "heavy's lines"]
        done.clear()
        bunched.share.pending = 30  # more waiting than light's, put off while it looked like a crowd's
        crowd.put_off(bunched.share, lambda: done.append("bunched's lines"), clock.callLater)
        clock.advance(2)  # the second that counted them is past: at a person's pace again
        light.share.heard(b"x\n" * 50, None)
        crowd.put_off(light.share, lambda: done.append("light's lines"), clock.callLater)
        crowd.share_out([], lambda fd, events: None)
        assert done == ["bunched's lines", "light's lines"]
    finally:
        for reader in readers:
            reader.close()


def test_lines_put_off_past_the_turns_time_wait_for_the_next_turn_ahead_of_later_ones(
        budget: Budget, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(turns, "TURN_SECONDS", 0.0)
    clock, done = Clock(), []
    crowd: Crowd = budget.crowd
    readers = [flooder(Reader(f"flood{i}", budget, clock, done)) for i in range(3)]
    crowd.begin_turn()
    try:
        for i, reader in enumerate(readers):
            reader.share.pending = i
            crowd.put_off(reader.share, lambda i=i: done.append(f"flood{i}"), clock.callLater)
        assert not clock.getDelayedCalls(), "a reactor's turn reads them on, no call of their own"
        crowd.share_out([], lambda fd, events: None)
        assert done == ["flood0"], "at least one a turn, however late"
        crowd.put_off(readers[0].share, lambda: done.append("flood0 again"), clock.callLater)
        readers[0].share.pending = 5
        crowd.begin_turn()
        crowd.share_out([], lambda fd, events: None)
        crowd.begin_turn()
        crowd.share_out([], lambda fd, events: None)
        crowd.begin_turn()
        crowd.share_out([], lambda fd, events: None)
        assert done == ["flood0", "flood1", "flood2", "flood0 again"]
        assert crowd.waiting == []
    finally:
        for reader in readers:
            reader.close()


def test_the_turns_first_in_line_acts_on_its_share_however_late_the_turn(
        budget: Budget, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the turn's people and the server's own sockets took, the first in ``share_out``'s line acts on a
    share of its lines: a connection put off would otherwise be put off again every turn (``_read_on`` asks
    ``late`` first), a person's bunched lines among them."""
    monkeypatch.setattr(turns, "TURN_SECONDS", 0.0)
    clock, seen = Clock(), []
    crowd: Crowd = budget.crowd
    readers = [flooder(Reader(f"flood{i}", budget, clock, [])) for i in range(2)]
    crowd.begin_turn()
    try:
        for reader in readers:
            crowd.put_off(reader.share, lambda r=reader: seen.append((r.name, crowd.turn_over(clock.callLater))),
                          clock.callLater)
        crowd.share_out([], lambda fd, events: None)
        assert seen == [("flood0", False)], "the first goes on however late; the second waits"
        assert crowd.turn_over(clock.callLater), "and the turn is over for anyone else"
    finally:
        for reader in readers:
            reader.close()


def test_lines_put_off_longer_than_starved_seconds_go_ahead_of_fewer_lines_waiting(
        budget: Budget, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fewest lines waiting first, but not for ever: a connection with many lines put off, while others with one
    line each keep coming (tables of bots playing flat out beside one still being set up), is taken first once it has
    waited ``STARVED_SECONDS``."""
    monkeypatch.setattr(turns, "TURN_SECONDS", 0.0)  # one a turn
    monkeypatch.setattr(turns, "STARVED_SECONDS", 0.05)
    clock, done = Clock(), []
    crowd: Crowd = budget.crowd
    heavy, light = flooder(Reader("heavy", budget, clock, done)), flooder(Reader("light", budget, clock, done))
    crowd.begin_turn()
    try:
        heavy.share.pending, light.share.pending = 150, 1
        crowd.put_off(heavy.share, lambda: done.append("heavy's lines"), clock.callLater)
        crowd.share_out([(light.fileno(), 1)], lambda fd, events: done.append("light's socket"))
        assert done == ["light's socket"], "fewer lines waiting first"
        time.sleep(0.06)
        crowd.begin_turn()
        crowd.share_out([(light.fileno(), 1)], lambda fd, events: done.append("light's socket"))
        assert done == ["light's socket", "heavy's lines"], "put off long enough: first"
        assert crowd.waiting == []
    finally:
        for reader in (heavy, light):
            reader.close()


def test_a_program_waiting_for_each_answer_is_read_however_late_once_its_line_has_waited_and_a_flood_is_not(
        reactor: Any, budget: Budget, monkeypatch: pytest.MonkeyPatch) -> None:
    """Programs past a person's pace but with none of their lines waiting here (each waits for its answer) are read
    one a turn like the rest at first; once a line of theirs has waited ``LOCKSTEP_SECONDS``, however late the turn,
    as a person's is. A flooder, its lines piling up, still waits its turn."""
    monkeypatch.setattr(turns, "TURN_SECONDS", 0.0)  # every turn is over as soon as it begins
    clock, log = Clock(), []
    assert lean_turns(reactor, budget.crowd)
    programs = []
    for i in range(5):
        program = Reader(f"program{i}", budget, clock, log)
        program.share.person = True
        program.share.heard(b"move\n" * 20, None)  # 20 lines this second: past a person's pace
        program.share.pending = 0  # each answered before the next came
        programs.append(program)
    floods = [flooder(Reader(f"flood{i}", budget, clock, log)) for i in range(2)]
    try:
        for reader in [*programs, *floods]:
            reactor.addReader(reader)
            reader.theirs.send(b"move\n")
        reactor.runUntilCurrent()
        reactor.doIteration(0)
        assert len(log) == 1 and log[0].startswith("program"), "one a turn, the fewest lines waiting first"
        time.sleep(turns.LOCKSTEP_SECONDS * 2)
        reactor.runUntilCurrent()
        reactor.doIteration(0)
        assert sorted(n for n in log if n.startswith("program")) == [f"program{i}" for i in range(5)], log
        assert len([n for n in log if n.startswith("flood")]) == 1, "the flood: one a turn, as before"
    finally:
        for reader in [*programs, *floods]:
            reactor.removeReader(reader)
            reader.close()
