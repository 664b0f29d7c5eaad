"""Each connection's fair share of the server: how many of its lines, how much of the server's time and how much
output they may cost, per reactor turn and per second, before its further lines wait.

Counting without I/O: ``Share`` says how long a connection rests after a line (net/lines.py pauses its transport
meanwhile, so what it sends waits in the kernel, and a sender that keeps on is slowed down by TCP itself). Once the
server is saturated, whoever sends the most lines would otherwise get the most of it: 60 connections flooding
8,000 lines a second kept a user's ``/who`` waiting 104 ms at the median and 900 ms at worst.

- A turn: ``SHARE_LINES`` lines, ``SHARE_SECONDS`` of the server's time or ``SHARE_CHARACTERS`` of output made
  (written at the turn's end, before anyone's next line is read), then the rest waits for the next turn, when
  every other connection has had its own. A line that alone took longer rests its connection ``PACE`` times
  as long.
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

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

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
QUIET_LINES = 5  # lines a second, this second and the last, that are never held to a time share: a person's
LEAST_BURST = 0.005  # however crowded, a connection may save up this much: an ordinary command's cost
LINES_PER_SECOND = 20.0
LINES_BURST = 100
OUTPUT_PER_SECOND = 1 << 20  # characters
OUTPUT_BURST = 1 << 21
FLOOD_DROP = 30.0


class Crowd:
    """How many connections were busy (``Share._time_wait``) in this second and the last: the server's time is
    shared out among them. One for the server (its ``Budget``'s), whatever listener a connection came in on."""

    def __init__(self) -> None:
        self.second = -1  # the whole second of the clock this counts
        self.now = 0  # connections that sent a line in it
        self.before = 0  # in the second before it

    def count(self, share: Share, now: float) -> int:
        """``share``'s connection sends a line at ``now``: how many share the server (at least 1)."""
        second = int(now)
        if second != self.second:
            self.before = self.now if second == self.second + 1 else 0
            self.second, self.now = second, 0
        if share.second != second:
            share.second = second
            self.now += 1
        return max(1, self.now, self.before)


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
                 "time_owed", "time_last")  # one for every connection: its memory counts in the idle benchmark

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

    def begin(self, turn: int, now: float) -> None:
        if self.turn != turn:
            self.turn, self.began, self.lines, self.made = turn, now, 0, 0

    def new_turn(self) -> None:
        self.turn = -1

    def spent(self, began: float, ended: float, cpu: float, made: int, more: bool) -> float | None:
        """A line took ``began``..``ended``, ``cpu`` seconds of the process's own (the time share counts that:
        on a busy machine the wall clock also counts the others' processes), and made ``made`` characters of
        output; ``more``: its next line is in already (it sends without waiting for answers). Seconds its connection
        rests before its next line (0: until the next turn), or None: read on."""
        self.lines += 1
        self.made += made
        rest = max(self._time_wait(cpu), self._lines_wait(more), self._output_wait(made))
        self._flooding(more)
        if ended - began >= SHARE_SECONDS:
            return max(rest, PACE * (ended - began))
        if rest > 0:
            return rest
        if self.lines >= SHARE_LINES or ended - self.began >= SHARE_SECONDS or self.made >= SHARE_CHARACTERS:
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
        if max(self.in_window, self.before) <= QUIET_LINES and took < LEAST_BURST:
            return 0.0  # a person typing an ordinary command: never kept waiting for anyone else's sake
        crowd = budget.crowd.count(self, now)
        rate = budget.fair_cpu / crowd
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
