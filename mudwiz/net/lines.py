"""The line framing every transport shares: bytes split into lines for a ``Connection``, its text written back.

A transport module (telnet.py, raw.py) only says what sits between this protocol and the socket. The rest is
here once: lines end in ``\\n``, ``\\r\\n``, ``\\r\\0`` or ``\\r`` (a pair split across two reads is one
Enter) and are decoded as UTF-8 with replacement; a line longer than ``MAX_LINE`` bytes is refused whole and the
connection stays up; the login timer; a peer that never reads is dropped after ``MAX_BACKLOG`` bytes; each
connection's shares of a reactor turn and of each second (budget.py). Its text leaves through the server's
``Outflow`` (mudwiz/outflow.py), and its listener's factory (listener.py) admits it against the connection limits.
"""

from __future__ import annotations

from collections.abc import Iterator
from time import perf_counter, thread_time
from typing import Any

from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IDelayedCall, IPushProducer
from twisted.internet.protocol import connectionDone
from twisted.logger import Logger
from twisted.protocols.basic import LineReceiver
from twisted.protocols.policies import TimeoutMixin
from twisted.python.failure import Failure
from zope.interface import implementer

from mudwiz.connection import MAX_LINE, Connection
from mudwiz.net import terminal
from mudwiz.net.budget import Share
from mudwiz.net.lineedit import Edited, Keyboard
from mudwiz.net.listener import LineFactory
from mudwiz.net.tcp import tune
from mudwiz.render.style import ambiguous_cells

log = Logger()

MAX_BACKLOG = 1 << 20  # bytes written while the peer reads nothing; past this the connection is dropped
# Characters held back for one connection (``Outflow.holding``) past which they are written at once: what one turn's
# lines cause is otherwise written in one piece, however much a client's burst of commands asked for, and the backlog
# (which counts writes) would see it only once it was all in memory. Twisted's own buffer size.
MAX_HELD = 1 << 16
# Bytes read and waiting to be acted on past which the socket is read no more until they are: while lines wait for
# a reason of their own (telnet's terminal answers) the socket is still read, and a client that sent megabytes
# meanwhile had them all read, parsed and copied again for each line taken off the front.
MAX_WAITING = 1 << 16

@implementer(IPushProducer)
class Backlog:
    """Registered with the TCP transport, which pauses it once its own buffer is full (the peer is not reading)
    and resumes it when the buffer drains: what is written in between is counted, so that a client that never
    reads costs the server at most ``MAX_BACKLOG`` bytes rather than memory without end."""

    def __init__(self) -> None:
        self.paused = False
        self.pending = 0

    def pauseProducing(self) -> None:
        self.paused = True

    def resumeProducing(self) -> None:
        self.paused, self.pending = False, 0

    def stopProducing(self) -> None:
        pass

    def over(self, size: int) -> bool:
        """``size`` more bytes written: whether more than ``MAX_BACKLOG`` now wait for a peer that does not read."""
        if self.paused:
            self.pending += size
        return self.paused and self.pending > MAX_BACKLOG


class LineProtocol(LineReceiver, TimeoutMixin):
    """One connection's lines, handed to its ``Connection``; also the ``Outbox`` that connection writes to."""

    delimiter = b"\n"  # every line ending is made this one first
    MAX_LENGTH = MAX_LINE
    newline = "\n"  # a line ending as written to ``transport``
    keyboard: Keyboard | None = None  # raw keys to edit into lines (ssh with a PTY, rlogin); None: lines as sent
    pairs_split_cr = True  # a read's last CR and the next's first LF are one Enter (raw, SSH without a PTY; not telnet)
    cr_ended = False  # the last read ended in a CR (``pairs_split_cr``)

    def __init__(self, factory: LineFactory, address: str) -> None:
        self.factory = factory
        self.outflow = factory.outflow  # the server's one way out: its gates, and the batch held
        self.address = address
        self.connection = Connection(factory.lobby, self, factory.motd, login_timeout=factory.login_timeout,
                                     address=address)
        self.connection.on_login = self.logged_in
        self.backlog = Backlog()
        self.dropped = False
        self.discarding = False  # the start of a line was refused as too long; its tail is still to come
        self.after_refused = b""  # what followed a line refused as too long, in the data being read
        self.held_text: list[str] = []  # text held back while a line is acted on (``Outflow.holding``)
        self.held_size = 0  # its characters
        self.share = Share(  # its shares of a turn and of each second (net/budget.py), told how it floods
            factory.lobby.clock, factory.budget, self.connection.session.notice, self.close, address)
        self.lines_left: Iterator[Edited] | None = None  # keys edited into lines not yet acted on, its share spent
        self.keys_left = b""  # keys come while those wait

    def socket(self) -> Any:
        return self.transport  # the TCP (or unix) transport itself: a layer in between (telnet) overrides this

    def connectionMade(self) -> None:
        socket = self.socket()
        tune(socket)
        if hasattr(socket, "registerProducer"):
            socket.registerProducer(self.backlog, True)
        self.share.seen_on(socket)  # its reads in the order of its use (net/turns.py ``Crowd.first``)
        if (resuming := getattr(self.factory, "resuming", None)) is not None:  # handed over: as it stood (handed.py)
            return resuming(self)
        self.begin()
        if self.connection.login_timeout > 0:
            self.setTimeout(self.connection.login_timeout)

    def begin(self) -> None:
        """The conversation's start: the motd and the name prompt (a framing with a handshake, rlogin, later)."""
        self.connection.start()

    def callLater(self, period: float, func: Any) -> IDelayedCall:
        return self.factory.lobby.clock.callLater(period, func)  # the login timer's: tests drive it with task.Clock

    def timeoutConnection(self) -> None:
        self.connection.login_expired()

    # -- bytes in

    def dataReceived(self, data: bytes) -> None:
        if self.share.heard(data, self.outflow.turn) and not self.paused:
            self._pause(0)  # the turn is over for it (net/budget.py ``Share.late``): kept, as any read while paused
        if self.paused and len(self._buffer) + len(self.keys_left) > MAX_WAITING:
            self._stop_reading()  # (already paused: lines wait for the terminal's answers, telnet.py ``settling``)
        if self.keyboard is not None:  # raw keys (ssh with a PTY, telnet's character mode): edited into lines
            self.keys(data)
            return
        if self.cr_ended:  # a CR LF split across reads: its LF was no empty line (a password, at its prompt)
            self.cr_ended = False
            if data[:1] == b"\n":
                data = data[1:]
                if not data:
                    return
        if data[-1:] == b"\r" and self.pairs_split_cr:  # (written only then: this runs on every read)
            self.cr_ended = True
        # (an empty read is no line: ``find`` gives -1, which ``len - 1`` of nothing is too, so the end is asked)
        if data[-1:] == b"\n" and data.find(b"\n") == len(data) - 1 and len(data) <= self.MAX_LENGTH + 1 \
                and not self._buffer and not self._busyReceiving and not self.paused and not self.discarding \
                and b"\r" not in data and b"\0" not in data and not getattr(self.transport, "disconnecting", False):
            # what nearly every read is, one whole line with nothing before it: acted on here, as ``_read`` and
            # Twisted's LineReceiver would, without their copies and loops (a command's every read)
            self.lineReceived(data[:-1])
            return
        self._read(data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").replace(b"\0", b""))

    def _read(self, data: bytes) -> None:
        """Lines out of ``data`` after what is buffered, each acted on in turn, until the share is spent
        (``paused``: the rest stays in the buffer). ``b""``: read on in the buffer."""
        while not getattr(self.transport, "disconnecting", False):
            if self.discarding:  # the tail of a line already refused
                _, end, data = data.partition(self.delimiter)
                if not end:
                    return
                self.discarding = False
            self.after_refused = b""
            super().dataReceived(data)
            data = self.after_refused
            if not data:
                return

    def keys(self, data: bytes) -> None:
        """Raw keys from a terminal with no line discipline: edited (lineedit.py), echoed (not in JSON mode: a
        program reads JSON lines only), each finished line acted on before the keys after it are echoed."""
        assert self.keyboard is not None
        if self.paused:  # lines typed before these wait for the next turn: these go after them
            self.keys_left += data
            return
        paged = self.connection.paged
        while paged.paging and data:  # keys at the pager's prompt act at once (mudwiz/pager.py)
            key, data = data[:1], data[1:]
            if key in (b"\n", b"\0") and self.keyboard.editor.after_cr:  # the rest of a CR LF or CR NUL Enter
                continue
            self.keyboard.editor.after_cr = key == b"\r"
            if not paged.key(key.decode("latin-1")):
                data = key + data  # not the pager's: the first key of the next line
        self._edited(self.keyboard.feed(data, lambda: self.connection.session.charset))

    def _edited(self, lines: Iterator[Edited]) -> None:
        with ambiguous_cells(self.connection.session.ambiguous_width()):  # a rub-out per cell the terminal drew
            self._edit(lines)

    def _edit(self, lines: Iterator[Edited]) -> None:
        for edited in lines:
            if self.dropped or getattr(self.transport, "disconnecting", False):
                return
            if edited.echo and self.connection.session.mode != "json":
                self.write(edited.echo)
            if edited.line is not None:
                self._act(self.connection.receive, edited.line)
                if self.paused:
                    self.lines_left = lines
                    return

    def _act(self, call: Any, *args: Any) -> None:
        """A line acted on, against this connection's shares (net/budget.py): once the turn's is spent, it reads
        no more until the next turn, so every other connection's lines come first; once a second's is, or after a
        line that took longer than a turn's share, not until it has rested as long as ``Share.spent`` says."""
        began, cpu, self.acting = perf_counter(), thread_time(), args  # (what is acted on: handed.py reads it)
        self.share.begin(self.outflow.turns, began)
        made = self.outflow.made
        self._guarded(call, *args)
        if self.outflow.turn is None:
            return
        more = self.delimiter in self._buffer or bool(self.keys_left)  # (a pipelining client's next line)
        late = self.share.late(self.outflow.turn)
        rest = self.share.spent(began, perf_counter(), thread_time() - cpu, self.outflow.made - made, more, late)
        if rest is not None and not self.paused:
            self._pause(rest)

    def _pause(self, seconds: float) -> None:
        """Read no more for ``seconds`` (0: until the next turn, net/turns.py ``Crowd.put_off``)."""
        turn = self.outflow.turn
        assert turn is not None
        self._stop_reading()
        self.share.read_on_after(seconds, self._read_on, turn)

    def _stop_reading(self) -> None:
        self.paused = True  # LineReceiver's own flag: it stops, the rest of the data kept in its buffer
        socket = self.socket()
        if hasattr(socket, "pauseProducing"):
            socket.pauseProducing()  # the kernel holds what comes meanwhile (and slows the sender down)

    def wait(self, done: Deferred[Any]) -> None:
        """Read no more lines until ``done`` fires: a command worked in slices (mudwiz/slices.py) is answered first."""
        self._stop_reading()
        done.addBoth(self._done_waiting)

    def _done_waiting(self, result: Any) -> Any:
        turn = self.outflow.turn
        if turn is not None:
            turn(0, self._read_on)  # from the reactor, not from inside the work's last slice
        else:
            self._read_on()
        return result

    def _read_on(self) -> None:
        """The next turn: a new share, the lines left waiting before anything read after them, and the socket read
        again once they all are (a flooder's kernel keeps what it sends, not a buffer here that only grows)."""
        if self.dropped or self.connection.gone or self.transport is None \
                or getattr(self.transport, "disconnecting", False):
            return
        if self.share.late(self.outflow.turn):
            self._pause(0)  # again, among those put off
            return
        self.paused = False
        self.share.new_turn()
        lines, self.lines_left = self.lines_left, None
        if lines is not None:
            self._edited(lines)
        else:
            self._read(b"")  # (lines read before keys came: telnet's character mode starts after a line)
        if not self.paused and self.keys_left and self.keyboard is not None:
            keys, self.keys_left = self.keys_left, b""
            self.keys(keys)
        socket = self.socket()
        if not self.paused and hasattr(socket, "resumeProducing") and getattr(socket, "connected", True) \
                and not getattr(self.transport, "disconnecting", False):
            socket.resumeProducing()

    def lineLengthExceeded(self, line: bytes) -> None:
        """Refuse it once, read on (not drop, as Twisted would): ``line``, unfinished or whole and the rest."""
        _, end, self.after_refused = line.partition(self.delimiter)
        self.discarding = not end
        self._act(self.connection.line_too_long)

    def lineReceived(self, line: bytes) -> None:
        self._act(self.connection.receive, terminal.decode(line, self.connection.session.charset))

    def logged_in(self) -> None:
        """The connection gave its name (and password, checked in a thread: maybe after the line): no more login
        timer, it counts as logged in for the limits, and its lines as a person's in a turn's order."""
        self.setTimeout(None)
        self.share.person = True  # (net/budget.py ``Share.late``)
        if self.factory.counter is not None:
            self.factory.counter.logged_in(self.address)

    def _guarded(self, call: Any, *args: Any) -> None:
        """The connection's own errors are bugs, not bad input: logged with the traceback, they cost the line
        being read, never the connection or the lines after it."""
        try:
            self.outflow.holding(call, *args)
        except Exception:
            log.failure("input from {peer} failed", peer=peer(self.socket()))

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self.held_text.clear()
        self.share.gone()
        self.setTimeout(None)
        if self.factory.counter is not None:
            self.factory.counter.closed(self.address, self.connection.logged_in)
        self.connection.lost()

    def peer_host(self) -> str:
        return peer(self.socket())  # for the output object's log line when writing here fails

    # -- text out (the Outbox)

    def send(self, text: str) -> None:
        """The connection's output: held back while a line is acted on (``Outflow.holding``), and on a running
        server (``hold_per_turn``) whatever causes it, till the reactor's turn ends: one event's news leaves as one
        write a connection, after one commit of its moves. Else written at once. Keys edited here are never held:
        their echo is written as they come, and text goes around the line being typed as it stands."""
        outflow = self.outflow
        outflow.made += len(text)  # what the line being acted on costs its sender's output share (net/budget.py)
        if self.keyboard is not None or outflow.held is None and outflow.turn is None:
            self.emit(text)
            return
        if not self.held_text:
            outflow.hold(self)  # with the line's output, or outside any line the turn's
            self.held_size = 0
        self.held_text.append(text)
        self.held_size += len(text)
        if self.held_size > MAX_HELD:  # a burst of commands (a paste of /help): out now, counted by the backlog
            self.flush()

    def flush(self) -> None:
        """What was held back, as one piece."""
        if self.held_text:
            text = "".join(self.held_text)
            self.held_text.clear()
            self.emit(text)

    def emit(self, text: str) -> None:
        """A piece of output to the wire; around a half-typed line when keys are edited here (``Keyboard.around``)."""
        if self.keyboard is not None and self.connection.session.mode != "json":
            with ambiguous_cells(self.connection.session.ambiguous_width()):  # blanked cell for cell
                text = self.keyboard.around(text, self.connection.session.mode == "ansi")
        self.write(text if self.newline == "\n" else text.replace("\n", self.newline))

    def write(self, text: str) -> None:
        """Every byte out goes through here, so a peer that stops reading is noticed and dropped. In the client's
        charset: UTF-8 unless the terminal type, CHARSET or ``/mode`` said otherwise."""
        if self.held_text:  # held text goes first: a write beside ``send`` (an echo) keeps its place
            self.flush()
        if self.dropped or self.transport is None:
            return
        session = self.connection.session
        data = terminal.encode(text, session.charset, session.ambiguous_width())
        if self.unread(len(data)):
            self.outflow.write(self.transport, data)

    def unread(self, size: int) -> bool:
        """Count ``size`` bytes about to be written: False, and the connection dropped, once more than
        ``MAX_BACKLOG`` bytes wait for a peer that does not read. A layer that writes beside ``send`` (telnet's
        subnegotiations) asks this first too, which also writes any text held back before it, in its place."""
        if self.held_text:
            self.flush()
        if not self.dropped and self.backlog.over(size):
            self.dropped = True
            log.warn("{name}: dropped, {pending} bytes unread", name=self.connection.session.name or "?",
                     pending=self.backlog.pending)
            self.socket().abortConnection()  # loseConnection would wait to send it all
        return not self.dropped

    def close(self) -> None:
        self.flush()
        if self.transport is not None:
            self.transport.loseConnection()

    def secret(self, on: bool) -> None:
        """A password is typed: keys edited here are not echoed. Lines as sent have no echo to turn off: their
        client shows what its user types as it always does (telnet.py turns its echo off by negotiation)."""
        if self.keyboard is not None:
            self.keyboard.editor.secret = on


def peer(transport: Any) -> str:
    """The peer's host for a log line."""
    return str(getattr(transport.getPeer(), "host", "?")) if transport is not None else "?"
