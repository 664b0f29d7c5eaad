"""The server's one way out: every byte for a connection leaves through ``Outflow.write``, which runs the gates first.

A table's move is committed to the table journal before anyone is sent its effects (docs/architecture.md,
"Restart-safe tables"). On a running server the journal commits a reactor turn's moves together (one
transaction) and holds them until something is about to be written: the journal's commit is a gate
(``Outflow.gate``), and ``Outflow.write`` runs every gate before its bytes leave, so whatever is sent, the moves
behind it are already committed, and no writer has to remember to ask. Kept apart from net/ and the cluster so
that neither imports the other.

Output is also held in batches (``Outflow.holding``: a line's output, or a reactor turn's, ``hold_per_turn``):
each connection's text is written once a batch, and work that only needs doing once a batch, whatever number of
commands in it asked for it, is handed to ``at_batch_end``.

``makeService`` builds the one ``Outflow`` of a server and hands it to every listener's factory. It also
``install``s it as the process's, for the writers not handed it (the cluster's bus, the table's recording and
pacing), which reach it through ``before_output``, ``at_batch_end`` and ``gate`` here."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Protocol

from twisted.logger import Logger

from mudwiz.net.tcp import write_now

log = Logger(namespace=__name__)  # a compiled module has no frame for Logger() to find its name in

# Seconds the output of a connection with a flood's lines waiting (``Share.backlogged``: a flooder's refusals, the
# lobby's chat it is sent) waits at most, gathered, on a running server: 200 flooders in the lobby were written to
# every turn, a write each, 10-20 ms at every turn's end that a person's answer waited for. Anyone else's, a
# program's waiting for each answer however fast it plays, is written every turn.
BUSY_EVERY = 0.1


class Backlogged(Protocol):
    def backlogged(self) -> bool:
        """More lines of its wait than a person's (net/budget.py ``Share.backlogged``): its text may wait."""


class Holder(Protocol):
    """A connection whose text is held back while a batch is open (net/lines.py's ``LineProtocol``)."""

    held_text: list[str]

    @property
    def share(self) -> Backlogged:
        """Its share of the server (net/budget.py)."""

    def flush(self) -> None:
        """Write what is held, as one piece."""

    def peer_host(self) -> str:
        """The peer's host, for a log line."""


class Outflow:
    """The gates run before any output leaves, and the batch of output being held (a line's, or a turn's)."""

    def __init__(self) -> None:
        self.gates: list[Callable[[], None]] = []
        # The work for the end of the batch of output being held, by key; None while no batch is open.
        self.batch: dict[Hashable, Callable[[], None]] | None = None
        self.held: list[Holder] | None = None  # while a line is acted on: the connections with text held back
        # While the server holds output until its reactor turn ends (``hold_per_turn``): the reactor's
        # ``callLater``, the connections whose text waits for it, and the call that lets it go.
        self.turn: Callable[..., Any] | None = None
        self.waiting: list[Holder] = []
        self.turn_end: Any = None
        self.turns = 0  # turns ended: a connection's share is of the turn this counts
        self.later: list[Holder] = []  # backlogged connections whose turns' text waits for ``BUSY_EVERY``
        self.later_call: Any = None
        self.made = 0  # characters of output sent to connections, ever: what a line made is the difference

    # -- the gates and the choke point

    def gate(self, fn: Callable[[], None]) -> Callable[[], None]:
        """Run ``fn`` before every piece of output from now on; the function returned undoes it."""
        gates = self.gates
        gates.append(fn)
        return lambda: gates.remove(fn) if fn in gates else None

    def before_output(self) -> None:
        """Every gate, now: for a writer of something other than a connection's bytes (the cluster's bus)."""
        for fn in self.gates:
            fn()

    def write(self, transport: Any, data: bytes) -> None:
        """Every byte for a connection leaves here: the gates first, then ``data`` to ``transport`` at once."""
        for fn in self.gates:
            fn()
        write_now(transport, data)

    # -- the batch's work

    def at_batch_end(self, key: Hashable, fn: Callable[[], None]) -> None:
        """``fn()`` at the end of the batch of output being held, before that output leaves: once for ``key``,
        however many times it is asked for in the batch (the last ``fn`` given for it). At once when no batch is
        open (a test's direct call, a timer's outside any batch)."""
        if self.batch is None:
            fn()
        else:
            self.batch[key] = fn

    def open_batch(self) -> None:
        """The holder of output starts a batch, unless one is open already."""
        if self.batch is None:
            self.batch = {}

    def close_batch(self) -> None:
        """Do the batch's work, in the order it was first asked for (work it asks for in turn too), and close it.
        A failure of one piece is logged and costs only that piece: the output it was to come before still
        leaves."""
        while self.batch:
            work, self.batch = self.batch, {}
            for fn in work.values():
                try:
                    fn()
                except Exception:
                    log.failure("work at the end of a batch of output failed")
        self.batch = None

    # -- holding the connections' text

    def holding(self, call: Callable[..., None], *args: Any) -> None:
        """``call(*args)`` with every connection's text held back and written once at its end, one write a
        connection: a move sends each viewer its events and a state, a dozen messages a table, and every write
        went through the layers down to the socket on its own (a sixth of a move's CPU). What a connection is
        sent is unchanged and in the same order; it leaves when the line that caused it is done, not earlier (on
        a running server, when the reactor's turn is: ``hold_per_turn``)."""
        if self.held is not None:  # already held by a caller
            call(*args)
            return
        held: list[Holder] = []
        self.held = held
        self.open_batch()  # its work is done before what it holds is written: below, or at the turn's end
        try:
            call(*args)
        finally:
            try:
                if self.turn is None:
                    self.close_batch()
            finally:
                self.held = None
                if self.turn is not None:
                    self.until_turn_ends(held)
                else:
                    self.release(held)

    def hold(self, holder: Holder) -> None:
        """``holder`` has begun to hold text back: it is written with the line's (or, outside any line, the
        turn's) output."""
        if self.held is not None:
            self.held.append(holder)
        else:
            self.until_turn_ends([holder])

    def hold_per_turn(self, call_later: Callable[..., Any] | None) -> None:
        """From now on (``call_later``: the reactor's) hold what lines cause until the reactor's turn ends, or no
        longer (None: what waits is written now). A turn reads every connection that has data; their moves are
        then committed to the journal at once (one transaction, the gates) and each connection written once,
        instead of a commit and a write a line. Nothing leaves later than before: Twisted writes a transport's
        buffer only at its next poll, which comes after the turn's end."""
        self.turn = call_later
        if call_later is None:
            if self.turn_end is not None and self.turn_end.active():
                self.turn_end.cancel()  # what it would release goes now
            self.end_of_turn()
            if self.later_call is not None and self.later_call.active():
                self.later_call.cancel()
            self.write_later()

    def until_turn_ends(self, held: list[Holder]) -> None:
        self.waiting.extend(held)
        if self.turn_end is None and self.turn is not None:
            self.turn_end = self.turn(0, self.end_of_turn)

    def turn_read(self) -> None:
        """The reactor's turn has read its sockets (net/turns.py ``Crowd.read``): what it caused leaves now, not
        after the next turn's timed calls (a bounded turn's lines put off among them)."""
        if self.turn_end is not None:
            self.turn_end.cancel()
            self.end_of_turn()

    def end_of_turn(self) -> None:
        self.turn_end = None
        self.turns += 1
        held: list[Holder] = []
        self.held = held  # what the batch's work sends is held with the rest
        try:
            self.close_batch()
        finally:
            self.held = None
        self.waiting.extend(held)
        waiting = self.waiting[:]
        self.waiting.clear()
        if self.turn is None:
            self.release(waiting)
            return
        now: list[Holder] = []
        later = self.later
        for holder in waiting:
            (later if holder.share.backlogged() else now).append(holder)
        self.release(now)
        if later and self.later_call is None:
            self.later_call = self.turn(BUSY_EVERY, self.write_later)

    def write_later(self) -> None:
        """The text of backlogged connections held since the last time: a write each, however many turns made it."""
        self.later_call = None
        later, self.later = self.later, []
        self.release(later)

    def release(self, held: list[Holder]) -> None:
        for holder in held:
            try:
                holder.flush()
            except Exception:  # a bug writing to one connection must not keep the others' text back
                holder.held_text.clear()
                log.failure("writing to {peer} failed", peer=holder.peer_host())


# The process's output object (``install``: makeService's), for the writers not handed one.
_installed = [Outflow()]


def install(outflow: Outflow) -> Outflow:
    """Make ``outflow`` the process's: the one ``before_output``, ``at_batch_end`` and ``gate`` reach."""
    _installed[0] = outflow
    return outflow


def installed() -> Outflow:
    return _installed[0]


def gate(fn: Callable[[], None]) -> Callable[[], None]:
    """``Outflow.gate`` of the process's output object."""
    return _installed[0].gate(fn)


def before_output() -> None:
    """``Outflow.before_output`` of the process's output object."""
    _installed[0].before_output()


def at_batch_end(key: Hashable, fn: Callable[[], None]) -> None:
    """``Outflow.at_batch_end`` of the process's output object."""
    _installed[0].at_batch_end(key, fn)
