"""The reactor's turn: how long it lasts, and in what order the connections' sockets are read and their lines put
off are acted on in it (``Crowd``, one a server: its ``Budget``'s, net/budget.py).

A turn is one pass of the reactor: its timed calls (a bot's move, a rest's end), then the sockets ready, then the
turn's output written (net/polling.py ``lean_turns``). It lasts ``TURN_SECONDS`` of the wall clock, all of it:
past that, whatever is not a person's waits for the next turn. In a turn, in this order:

1. the server's own sockets (a listener, a bot worker's pipe, the cluster's Redis connections and relay links,
   whose writes also wait for the poll to say they can go: a node's bus messages and its relayed connections'
   bytes) first, however many people are ready (the poll's cap, net/polling.py, counts after them); then
   people's (``Share.person_now``: logged in, at a person's pace, with no more than ``PERSON_BYTES`` waiting),
   however late the turn: read at once;
2. then, ranked together (``Share.rank``: at a person's pace first, then the fewest lines waiting), the lines put
   off by earlier turns and the other ready sockets, until the turn has lasted its time (at least one); lines put
   off longer than ``STARVED_SECONDS`` go ahead of the rest of their kind, the longest put off first;
3. then the turn's output, at once (``polled``): a person's answer leaves in the turn that read its line.

A person's line thus waits at most for the turn under way. Before, the lines put off were read on in the timed
calls with a budget of their own, and the ready sockets with another: turns lasted twice the bound and more, a
line read in one waited for the next turn's lines put off before its answer was written, and at 200 flooding
connections a bystander's ``/who`` took 53-69 ms at p99 (docs/performance.md, bench/flood.py).
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from fcntl import ioctl
from functools import partial
from termios import FIONREAD
from time import perf_counter
from typing import Protocol

from twisted.logger import Logger

log = Logger()

# Seconds of a reactor turn (the wall clock: timed calls, reads, telnet, logins, lines, a GC pause) after which every
# connection's further lines wait for the next turn, in turn order.
TURN_SECONDS = 0.010
# Bytes waiting on a person's socket past which its read is no person's, however it sent before (a crowd that
# logged in quietly, then floods: 149 of 200 such reads in one turn, 0.7 s, at 4 KB): a few lines, a chat line
# at its longest in ASCII (a longer paste is read in the order of the rest, a person's first).
PERSON_BYTES = 1 << 10
# Seconds a connection's lines may be put off before they go ahead of every other connection not at a person's pace
# that waits less long (oldest first): the fewest-lines-waiting order alone starves one with many lines while others
# with one line each keep coming (200 tables of bots playing flat out: the tables still being set up never were).
STARVED_SECONDS = 0.25
# The reactor waited for sockets at least this long, in this second or the last: the process has time to spare, and
# nobody's line is held to the time share (net/budget.py): a rest then only delays a client while the core idles.
SPARE_SECONDS = 0.05
# Seconds a program that waits for each answer (none of its lines waiting here, a person's bytes at most in its
# socket) may wait for its next line to be read before it is read however late the turn, as a person's is: past a
# person's pace it came after them, and 200 tables of programs playing flat out, some just under a person's pace
# and some just over, left those over waiting 0.45 s at the 1 % (turn p50 20 ms); a flood sends without waiting.
LOCKSTEP_SECONDS = 0.02


class PerSecond:
    """An amount summed over each whole second of a clock: this second's so far and the last one's (``gap``: the
    last one's, when no amount came in it at all)."""

    __slots__ = ("second", "now", "before", "gap")

    def __init__(self, gap: float) -> None:
        self.second, self.now, self.before, self.gap = -1, 0.0, gap, gap

    def add(self, now: float, amount: float) -> None:
        second = int(now)
        if second != self.second:
            self.before = self.now if second == self.second + 1 else self.gap
            self.second, self.now = second, 0.0
        self.now += amount

    def most(self) -> float:
        """This second's so far or the last one's, whichever is more."""
        return max(self.now, self.before)


class Ranked(Protocol):
    """A connection's share (net/budget.py ``Share``), as the turn's order sees it."""

    second: int  # the last second it was counted in the ``Crowd`` (``count``)
    pending: int  # its lines come and not yet acted on
    ready_since: float | None  # its socket ready and not read since (``first``; its reads clear it)

    def rank(self) -> tuple[int, int, int]: ...

    def person_now(self) -> bool: ...


def waiting_bytes(fd: int) -> int:
    """Bytes come on socket ``fd`` and not read yet (``FIONREAD``; 0 if it cannot say)."""
    try:
        return int.from_bytes(ioctl(fd, FIONREAD, b"\0\0\0\0"), sys.byteorder)
    except OSError:
        return 0


Event = tuple[int, int]  # a ready socket: its descriptor, its events


def starved(rank: tuple[int, int, int]) -> tuple[int, int, int]:
    """A rank put off longer than ``STARVED_SECONDS``: ahead of all of its kind (a person's, or not) that are not,
    the longest put off first (the order they were put off in breaks the tie)."""
    return (rank[0], -1, 0)


class Crowd:
    """How many connections were busy (``Share._time_wait``) in this second and the last: the server's time is
    shared out among them; how long the reactor's turn has lasted, and the lines put off to the next."""

    def __init__(self) -> None:
        self.second = -1  # the whole second of the clock this counts
        self.now = 0  # connections that sent a line in it
        self.before = 0  # in the second before it
        self.turn_began: float | None = None  # (``perf_counter``; None: not yet)
        self.driven = False  # the reactor says when each turn begins (``begin_turn``); else a turn begins on use
        self.urgent = 0  # of the ready sockets in ``first``'s order, the first so many are read however late
        self.own = 0  # of those, the first so many are the server's own, read whatever the cap (net/polling.py)
        self.polled: Callable[[], None] | None = None  # after a turn's reads: its output written (``Outflow``)
        # put off: whose, in what order, read on, since when (``perf_counter``)
        self.waiting: list[tuple[Ranked, int, Callable[[], None], float]] = []
        self.order = itertools.count()
        self.asked = False  # the next turn's reading on is asked for (without a reactor's turns: ``driven``)
        # The turn's first in ``share_out`` is being read on: it acts on a share of its lines however late the turn,
        # or a connection put off while the turn's people took its time would be put off again every turn
        self.granted = False
        self.sockets: dict[int, Ranked] = {}  # each connection's by its socket's descriptor (``Share.seen_on``)
        # the reactor's waits for sockets (``first``'s ``waited``, by ``perf_counter``'s seconds: a second with no
        # turn at all was idle through), and every line's time (``line_time``, by the reactor's clock)
        self.idle, self.used = PerSecond(gap=1.0), PerSecond(gap=0.0)

    def line_time(self, took: float, now: float) -> float:
        """A line took ``took`` seconds of the process's time at ``now`` (the reactor's clock): every line's time
        in the last whole second or this one so far, whichever is more (the pool the busy share, net/budget.py)."""
        self.used.add(now, took)
        return self.used.most()

    def short_of_time(self) -> bool:
        """Whether the process has no time to spare: its reactor waited for sockets less than ``SPARE_SECONDS``
        in this second and in the last. Without a reactor reporting its waits (``first``), it always is."""
        return not self.driven or self.idle.most() < SPARE_SECONDS

    def begin_turn(self) -> None:
        """The reactor's turn begins (net/polling.py ``lean_turns``, before its timed calls)."""
        self.driven = True
        self.turn_began = perf_counter()

    def turn_over(self, later: Callable[..., object]) -> bool:
        """Whether this turn has lasted longer than ``TURN_SECONDS`` (never for the one ``granted``). Without a
        reactor saying when turns begin (``begin_turn``), it begins now if it had not, and ends at the reactor's
        next turn (``later``: its ``callLater``)."""
        now = perf_counter()
        if self.turn_began is None:
            self.turn_began = now
            if not self.driven:
                later(0, self._turn_done)
        return not self.granted and now - self.turn_began > TURN_SECONDS

    def _turn_done(self) -> None:
        self.turn_began = None

    def over(self) -> bool:
        """Whether this turn has lasted its time."""
        return self.turn_began is not None and perf_counter() - self.turn_began > TURN_SECONDS

    def first(self, ready: list[Event], waited: float = 0.0) -> list[Event]:
        """The reactor's ready sockets, after ``waited`` seconds' wait for them (not counted in the turn): the
        server's own and people's first, ``urgent`` of them, read however late the turn; then the rest, for
        ``share_out``."""
        now = perf_counter()
        if self.turn_began is None:
            self.turn_began = now
        else:
            self.turn_began += waited
        self.idle.add(now, waited)
        sockets = self.sockets
        own, people, rest = [], [], []
        for event in ready:
            share = sockets.get(event[0])
            if share is None:
                own.append(event)
            elif share.person_now() and waiting_bytes(event[0]) <= PERSON_BYTES:
                people.append(event)
            elif share.pending == 0 and share.ready_since is not None and now - share.ready_since > LOCKSTEP_SECONDS \
                    and waiting_bytes(event[0]) <= PERSON_BYTES:
                people.append(event)  # a program waiting for each answer, its next line waiting long enough
            else:
                if share.ready_since is None:
                    share.ready_since = now
                rest.append(event)
        self.own, self.urgent = len(own), len(own) + len(people)
        return own + people + rest if own or people else rest

    def share_out(self, ready: list[Event], read: Callable[[int, int], None]) -> None:
        """The lines put off and the ``ready`` sockets not ``urgent`` (``read``: one read), ranked together
        (``Share.rank``, as they stand now, not when put off), until the turn has lasted its time; at least one.
        The sockets not read are still ready at the next poll; the lines put off wait on, ahead of any put off
        meanwhile."""
        waiting, self.waiting = self.waiting, []
        sockets, now = self.sockets, perf_counter()
        turn: list[tuple[tuple[int, int, int], int, Ranked | None, Callable[[], None], float]] = [
            (starved(share.rank()) if now - since > STARVED_SECONDS else share.rank(), order, share, read_on, since)
            for share, order, read_on, since in waiting]
        turn.extend((sockets[fd].rank(), next(self.order), None, partial(read, fd, events), now)
                    for fd, events in ready)
        turn.sort(key=lambda entry: entry[:2])
        for at, (_, order, share, call, _since) in enumerate(turn):
            if at and self.over():
                self.waiting[:0] = [(share, order, call, since) for _, order, share, call, since in turn[at:]
                                    if share is not None]
                return
            self.granted = not at  # the first is acted on however late, a share's worth (``turn_over``)
            try:
                call()
            except Exception:
                log.failure("reading on failed")
            finally:
                self.granted = False

    def read(self) -> None:
        """A turn's sockets are read and its lines acted on: its output goes now (``polled``)."""
        if self.polled is not None:
            self.polled()

    def put_off(self, share: Ranked, read_on: Callable[[], None], later: Callable[..., object]) -> None:
        """``read_on`` in the next turn (or a later one), in ``share_out``'s order; without a reactor's turns
        (``driven``), in a call of its own (``later``: the reactor's ``callLater``)."""
        self.waiting.append((share, next(self.order), read_on, perf_counter()))
        if not self.driven and not self.asked:
            self.asked = True
            later(0, self._next_turn, later)

    def _next_turn(self, later: Callable[..., object]) -> None:
        """The lines put off are read on, without a reactor's turns (a test's clock)."""
        self.asked = False
        self.turn_began = None
        self.turn_over(later)  # (it begins)
        self.share_out([], lambda fd, events: None)
        if self.waiting and not self.asked:
            self.asked = True
            later(0, self._next_turn, later)

    def count(self, share: Ranked, now: float) -> int:
        """``share``'s connection sends a line at ``now``: how many share the server (at least 1)."""
        second = int(now)
        if second != self.second:
            self.before = self.now if second == self.second + 1 else 0
            self.second, self.now = second, 0
        if share.second != second:
            share.second = second
            self.now += 1
        return max(1, self.now, self.before)
