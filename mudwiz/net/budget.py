"""Each connection's fair share of the server: how many of its lines, how much of the server's time and how much
output they may cost, per reactor turn and per second, before its further lines wait.

Counting without I/O: ``Share`` says how long a connection rests after a line (net/lines.py pauses its transport
meanwhile, so what it sends waits in the kernel, and a sender that keeps on is slowed down by TCP itself). Once the
server is saturated, whoever sends the most lines would otherwise get the most of it: 60 connections flooding
8,000 lines a second kept a user's ``/who`` waiting 104 ms at the median and 900 ms at worst.

- A turn: ``SHARE_LINES`` lines, ``SHARE_SECONDS`` of the server's time or ``SHARE_CHARACTERS`` of output made
  (written at the turn's end, before anyone's next line is read), then the rest waits for the next turn, when
  every other connection has had its own. A line that alone took longer (of the process's time, not the wall
  clock's) rests its connection ``PACE`` times as long. The turn itself, its bound on the wall clock and the
  order it reads connections in: net/turns.py.
- A second (``Budget``, from ``MUDWIZ_*`` variables; 0 lifts one):

  - the server's time (CPU): ``fair_cpu`` seconds a second, shared out evenly among the connections busy now
    (``Crowd``: more than ``QUIET_LINES`` lines a second, or lines dearer than ``LEAST_BURST``), each saving up
    at most its part of ``fair_burst``. A person typing ordinary commands is never held to it;
  - lines sent before the last ones were answered: ``lines_per_second``, a burst of ``lines_burst``;
  - output the connection's lines made, anyone's (a ``/help all``, a ``/replay``, a chat line to a crowded room):
    ``output_per_second`` characters, a burst of ``output_burst``.

  A line is acted on whenever its connection owes none of them; what it cost is counted afterwards, and past any
  of them the connection rests until it is even again. A line is never refused or lost for them, only acted on
  later; a user whose lines cost less than their part is not held up at all, however many others flood.
- A flood: lines sent past the line rate, so that they wait. The connection is told once, in one line, and if
  its lines then keep waiting (never all answered) for ``flood_drop`` seconds on end, dropped, told why. A
  person typing (≤ 5 lines a second) reaches neither; output alone never drops anyone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from mudwiz.net.turns import Crowd
from mudwiz.ratelimit import TokenBucket
from mudwiz.settings import env
from mudwiz.texts import Later, later

log = Logger()

SHARE_LINES = 8
SHARE_SECONDS = 0.005
SHARE_CHARACTERS = 1 << 15  # of output its lines made, anyone's: a turn's output is written at its end, all of it
PACE = 3

FAIR_CPU = 0.3  # seconds a second: the rest is the server's own (writes, timers, the journal, bots' moves)
FAIR_BURST = 0.2
# The busy connections share at least ``fair_cpu``, and as much as this many times what every line took in the last
# second: 400 programs playing flat out, alike, take some 0.6 s a second between them, and a part of 0.3 s rested
# each now and then for a third of a second (a turn p99 of 320 ms), though none took more than the others.
LINES_SLACK = 2.0
QUIET_LINES = 5  # lines a second, this second and the last, that are never held to a time share: a person's
# The same as counted: lines come in (or acted on) in a whole second up to which a connection is still a person's.
# A person's 5 a second read late (the reactor's stall, a rest) land in fewer seconds, 7 of them in one.
PERSON_LINES = 2 * QUIET_LINES
LEAST_BURST = 0.005  # however crowded, a connection may save up this much: an ordinary command's cost
LINES_PER_SECOND = 20.0
LINES_BURST = 100
OUTPUT_PER_SECOND = 1 << 20  # characters
OUTPUT_BURST = 1 << 21
FLOOD_DROP = 30.0


@dataclass(frozen=True)
class Budget:
    """The per-second budgets of every connection (docs/operations.md, "Fair shares"); 0: that one unlimited."""

    fair_cpu: float = env("MUDWIZ_FAIR_CPU", FAIR_CPU)
    fair_burst: float = env("MUDWIZ_FAIR_BURST", FAIR_BURST)
    lines_per_second: float = env("MUDWIZ_LINES_PER_SECOND", LINES_PER_SECOND)
    lines_burst: int = env("MUDWIZ_LINES_BURST", LINES_BURST)
    output_per_second: int = env("MUDWIZ_OUTPUT_PER_SECOND", OUTPUT_PER_SECOND)
    output_burst: int = env("MUDWIZ_OUTPUT_BURST", OUTPUT_BURST)
    flood_drop: float = env("MUDWIZ_FLOOD_DROP", FLOOD_DROP)
    crowd: Crowd = field(default_factory=Crowd, compare=False, repr=False)

    def warning(self) -> Later:
        """What a connection is told the first time its lines wait for the line rate."""
        if self.flood_drop > 0:
            return later("you are sending more than {rate} lines a second: the rest wait their turn; after {drop} s "
                         "of it you are disconnected", rate=f"{self.lines_per_second:g}", drop=f"{self.flood_drop:g}")
        return later("you are sending more than {rate} lines a second: the rest wait their turn",
                     rate=f"{self.lines_per_second:g}")

    def farewell(self) -> Later:
        return later("disconnected: more than {rate} lines a second for {drop} s; a person types far fewer",
                     rate=f"{self.lines_per_second:g}", drop=f"{self.flood_drop:g}")


class Share:
    """One connection's use of its shares: ``begin`` before each line, ``spent`` after it."""

    __slots__ = ("clock", "budget", "tell", "drop", "who", "turn", "began", "lines", "made", "line_bucket",
                 "output_bucket", "backlog_since", "told", "dropped", "second", "window", "in_window", "before",
                 "time_owed", "time_last", "fd", "person", "pending", "heard_second", "heard_now",
                 "heard_before", "ready_since")  # one a connection: its memory counts when idle

    def __init__(self, clock: IReactorTime, budget: Budget, tell: Callable[[Later], None], drop: Callable[[], None],
                 who: str = "") -> None:
        """``tell`` says a line to the connection; ``drop`` closes it once what it was sent has left; ``who``
        names it in the log (its address)."""
        self.clock, self.budget, self.tell, self.drop, self.who = clock, budget, tell, drop, who
        # the turn this share is of, when it began, its lines, the characters of output they made
        self.turn, self.began, self.lines, self.made = -1, 0.0, 0, 0
        self.line_bucket = TokenBucket(clock, budget.lines_per_second, budget.lines_burst) \
            if budget.lines_per_second > 0 else None
        self.output_bucket = TokenBucket(clock, budget.output_per_second, budget.output_burst) \
            if budget.output_per_second > 0 else None
        self.backlog_since: float | None = None  # since when its lines have waited, never all answered
        self.told, self.dropped = False, False
        self.second = -1  # the last second it was counted in the ``Crowd``
        self.window, self.in_window, self.before = -1, 0, 0  # a whole second, its lines so far, the last one's
        self.time_owed, self.time_last = 0.0, clock.seconds()  # its part of the server's time: less is saved up
        self.person = False  # logged in (its connection says)
        self.pending = 0  # lines come and not yet acted on (``heard``, ``spent``)
        self.heard_second, self.heard_now, self.heard_before = -1, 0, 0  # lines come in a whole second, the last
        self.fd = -1  # its socket's descriptor (``seen_on``)
        self.ready_since: float | None = None  # its socket ready and not read since (``Crowd.first``, perf_counter)

    def begin(self, turn: int, now: float) -> None:
        if self.turn != turn:
            self.turn, self.began, self.lines, self.made = turn, now, 0, 0

    def new_turn(self) -> None:
        self.turn = -1

    def heard(self, data: bytes, later: Callable[..., object] | None) -> bool:
        """``data`` came (its lines counted for ``busy``, as they come, however few are acted on yet): whether its
        lines wait for the next turn (``late``)."""
        second = int(self.clock.seconds())
        if second != self.heard_second:
            self.heard_before = self.heard_now if second == self.heard_second + 1 else 0
            self.heard_second, self.heard_now = second, 0
        self.ready_since = None  # read
        lines = data.count(b"\n")
        self.heard_now += lines
        self.pending += lines
        if self.pending > self.budget.lines_burst > 0 < self.budget.lines_per_second and not self.told:
            self.told = True  # more than a burst sent before the last were answered: whichever share holds them
            self.tell(self.budget.warning())
        return self.late(later)

    def busy(self) -> bool:
        """It sent more than ``QUIET_LINES`` lines a second in this second or the last (``heard``, as they came,
        acted on or not: more than ``PERSON_LINES``), or has more than that waiting: not a person typing."""
        return self.pending > PERSON_LINES or self.sending() > PERSON_LINES

    def backlogged(self) -> bool:
        """More than a person's lines wait to be acted on (sent before the last were answered): a flood's. A program
        that waits for each answer, however fast it plays, never has them."""
        return self.pending > PERSON_LINES

    def person_now(self) -> bool:
        """Logged in and not ``busy``: a person typing, whose few lines are acted on whenever they come."""
        return self.person and not self.busy()

    def sending(self) -> int:
        """Lines it sent in this second or the last, whichever more."""
        second = int(self.clock.seconds())
        if second == self.heard_second:
            return max(self.heard_now, self.heard_before)
        return self.heard_now if second == self.heard_second + 1 else 0

    def rank(self) -> tuple[int, int, int]:
        """Its place in the order a turn's ready sockets are read and lines put off are read on, first first:
        those sending at a person's pace (at most ``QUIET_LINES`` lines a second), whatever waits of theirs (a
        person's lines held up pile up too, a few), before the rest; then those with the fewest lines waiting (a
        flooder's 8 KB is some 200); then those sending more (a person typing, before a connection silent since it
        came: a crowd arriving at once)."""
        sending = self.sending()
        return (int(sending > PERSON_LINES), self.pending, -sending)

    def seen_on(self, socket: Any) -> None:
        """Its connection reads ``socket`` (a TCP transport; any other has no reading order of its own)."""
        fileno = getattr(socket, "fileno", None)
        if fileno is not None:
            self.fd = fileno()
            self.budget.crowd.sockets[self.fd] = self

    def gone(self) -> None:
        if self.budget.crowd.sockets.get(self.fd) is self:
            del self.budget.crowd.sockets[self.fd]

    def read_on_after(self, seconds: float, read_on: Callable[[], None], later: Callable[..., object]) -> None:
        """``read_on`` once its connection has rested ``seconds`` (0: none), in the first turn with room for it
        (``Crowd.put_off``): a rest's end is no way past a person's lines put off, however many rested."""
        if seconds > 0:
            later(seconds, self.budget.crowd.put_off, self, read_on, later)
        else:
            self.budget.crowd.put_off(self, read_on, later)

    def late(self, later: Callable[..., object] | None) -> bool:
        """Whether this connection's lines wait for the next turn (``later``, the reactor's ``callLater``; None:
        no turns, a test's), unread: the reactor's turn has lasted past ``TURN_SECONDS`` (net/turns.py), and it is
        not a person typing (``person_now``: whose few lines are acted on whenever they come)."""
        return later is not None and not self.person_now() and self.budget.crowd.turn_over(later)

    def spent(self, began: float, ended: float, cpu: float, made: int, more: bool, late: bool = False) -> float | None:
        """A line took ``began``..``ended``, ``cpu`` seconds of the process's own (the time share counts that:
        on a busy machine the wall clock also counts the others' processes), and made ``made`` characters of
        output; ``more``: its next line is in already (it sends without waiting for answers); ``late``: the
        reactor's turn has lasted its time (``late``). Seconds its connection rests before its next line (0: until
        the next turn), or None: read on."""
        self.lines += 1
        self.made += made
        self.pending = max(0, self.pending - 1)
        rest = max(self._time_wait(cpu), self._lines_wait(more), self._output_wait(made))
        self._flooding(more)
        if cpu >= SHARE_SECONDS:  # (the process's time: a pause for the machine's other work is no cost of its)
            return max(rest, PACE * cpu)
        if rest > 0:
            return rest
        if late or self.lines >= SHARE_LINES or ended - self.began >= SHARE_SECONDS or self.made >= SHARE_CHARACTERS:
            return 0.0
        return None

    def _time_wait(self, took: float) -> float:
        """The server's time, shared: its part is ``fair_cpu`` over the connections busy now, those sending more
        than ``QUIET_LINES`` lines a second or lines dearer than ``LEAST_BURST`` (only those are counted, and held
        to it: a chat line to 200 people is 10-20 ms, a ``/who`` or a move 1). A connection has nothing saved up
        when it starts, so that a thousand starting at once cannot spend their bursts together."""
        budget = self.budget
        if budget.fair_cpu <= 0:
            return 0.0
        now = self.clock.seconds()
        second = int(now)
        if second != self.window:
            self.before = self.in_window if second == self.window + 1 else 0
            self.window, self.in_window = second, 0
        self.in_window += 1
        used = budget.crowd.line_time(took, now)
        if max(self.in_window, self.before) <= QUIET_LINES and took < LEAST_BURST:
            return 0.0  # a person typing an ordinary command: never kept waiting for anyone else's sake
        crowd = budget.crowd.count(self, now)
        if not budget.crowd.short_of_time():  # cores to spare: a rest would only idle them (net/turns.py)
            self.time_owed, self.time_last = min(self.time_owed, 0.0), now
            return 0.0
        rate = max(budget.fair_cpu, LINES_SLACK * used) / crowd
        saved = max(budget.fair_burst / crowd, LEAST_BURST)
        self.time_owed = max(-saved, self.time_owed - (now - self.time_last) * rate) + took
        self.time_last = now
        return max(0.0, self.time_owed / rate)

    def _lines_wait(self, more: bool) -> float:
        """The line rate holds a client that sends lines before the last are answered: one that waits for each
        answer (a program playing, however fast) is paced by those answers and the time share already."""
        bucket = self.line_bucket
        if bucket is None:
            return 0.0
        bucket.spend(1)
        if not more:
            bucket.tokens = max(bucket.tokens, 0.0)  # (no debt piles up for a later paste to pay)
        wait = bucket.wait()
        if wait <= 0 or not more:
            return 0.0
        if not self.told:
            self.told = True
            self.tell(self.budget.warning())
        return wait

    def _flooding(self, more: bool) -> None:
        """A connection told it sends too fast whose lines have waited ever since, for ``flood_drop`` seconds on
        end (never once all answered: ``more``), is dropped. Held back by any share, not only the line rate: a
        flood the time share holds to fewer lines a second than the line rate is still one."""
        if not more:
            self.backlog_since = None
            return
        now = self.clock.seconds()
        if self.backlog_since is None:
            self.backlog_since = now
        elif self.told and not self.dropped and 0 < self.budget.flood_drop <= now - self.backlog_since:
            self.dropped = True
            log.warn("{who}: dropped for flooding", who=self.who or "?")
            self.tell(self.budget.farewell())
            self.drop()

    def _output_wait(self, made: int) -> float:
        bucket = self.output_bucket
        if bucket is None or not made:
            return 0.0
        bucket.spend(made)
        return bucket.wait()
