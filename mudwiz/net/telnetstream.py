"""The telnet byte stream under the line protocol: conch's ``TelnetTransport`` made total (no bytes a client sends
raise out of it), watching the client's first bytes for whether it speaks telnet at all (telnet.py acts on it),
and bounding what a client may make it do: option answers and requests, subnegotiations' length, AYT answers.
Conch's bytes written beside the text (option answers, subnegotiations) count towards the unread backlog. Every byte
for the socket leaves through ``out``, deflated once MCCP2 has started (mccp.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from twisted.conch.telnet import DO, DONT, IAC, SE, WILL, WONT, Telnet, TelnetTransport
from twisted.logger import Logger

from mudwiz.connection import MAX_LINE
from mudwiz.net import terminal
from mudwiz.net.lines import LineProtocol, peer
from mudwiz.net.mccp import START, Compressor
from mudwiz.net.tcp import write_now

log = Logger()

# Option answers (WILL, WONT, DO, DONT) sent on one connection at most: a client that asks for an option again and
# again is answered each time (RFC 1143), and one flooding its requests got a reply for every three bytes it sent.
MAX_ANSWERS = 100
# Option requests (WILL, WONT, DO, DONT) a connection may send in all; past them it is dropped. A client sends a few
# dozen at most; a flood of them, answered or not, held the reactor and slowed everyone else's replies tenfold.
MAX_REQUESTS = 1000
MAX_SUBNEGOTIATION = 512  # bytes a telnet subnegotiation may run to (TTYPE names, NAWS); a longer one is given up
# IAC EOF, SUSP and ABORT (RFC 1184; ``send eof`` in the stock telnet): commands, never text, with nothing to do
IGNORED_COMMANDS = frozenset((236, 237, 238))
AYT, EC, EL = b"\xf6", b"\xf7", b"\xf8"  # RFC 854: Are You There, Erase Character, Erase Line
AYT_ANSWER = b"\r\n[Yes]\r\n"  # what BSD telnetd answers: visible, and no line of the user's
AYT_EVERY = 1.0  # seconds between answers to AYT: a flood of two-byte questions gets one answer a second


# (Its name is the prefix of every log line its connection writes, ``[_Telnet,N,address]``: kept as it was.)
class _Telnet(TelnetTransport):
    """Conch's transport, made total and watching for telnet: no bytes a client sends raise out of it or cost
    the connection, and none is sent IAC before it shows it is a telnet client.

    Conch's parser raises on some malformed commands (``ValueError`` for an unknown command after IAC,
    ``IndexError`` for the empty subnegotiation ``IAC SB IAC SE``), which would drop the sender with a traceback
    and lose the rest of what it sent. So bytes go to the parser in pieces: plain data up to the next IAC at once,
    the bytes of a telnet command one at a time. A piece that raises is logged in one line (the first on a
    connection only) and the parser starts again on plain data: the bad command is lost, nothing else. A
    subnegotiation longer than ``MAX_SUBNEGOTIATION`` bytes is given up the same way, and the rest of it, up to
    its ``IAC SE``, is dropped unread: it is the client's data for an option (a MUD client's large GMCP message),
    never text the user typed, so none of it may become a line (it was once said in the lobby as chat).
    """

    faulted = False  # a parser fault on this connection has been logged
    decided = False  # telnet or not has been decided (the first line came, or an IAC)
    first_line = b""  # what came before the first line's end, while undecided
    skipping = False  # in an over-long subnegotiation: bytes are dropped up to its IAC SE
    skipped_iac = False  # while skipping, the last byte was an IAC (its next byte says SE or an escaped 255)
    cr_ended = False  # the last read ended in a CR, taken for the line's end
    answered_at = -AYT_EVERY  # when AYT was last answered (monotonic seconds)

    answers = 0  # option answers written (``MAX_ANSWERS``)
    requests = 0  # option requests read (``MAX_REQUESTS``)
    held_back: list[bytes] | None = None  # subnegotiations waiting for their option's agreement (``_acked_first``)
    compressor: Compressor | None = None  # MCCP2's stream, once its start marker has been written

    def connectionMade(self) -> None:
        self.commandMap.update({AYT: self.are_you_there, EC: self.erase_character, EL: self.erase_line})
        super().connectionMade()

    @property
    def disconnecting(self) -> bool:  # type: ignore[override]  # conch's is a plain False it never changes
        """The TCP connection's, for the line protocol, which reads no more lines once its connection is closing
        (``/quit``, a banned address), as on the raw port: conch's own is a False it never changes, and the lines
        that came in one read with the one that closed the connection were acted on all the same (a chat line sent
        with ``/quit`` was said to the lobby)."""
        return bool(getattr(self.transport, "disconnecting", False))

    def telnet_WILL(self, option: bytes) -> None:
        if self.requested():
            super().telnet_WILL(option)

    def telnet_WONT(self, option: bytes) -> None:
        if self.requested():
            super().telnet_WONT(option)

    def telnet_DO(self, option: bytes) -> None:
        if self.requested():
            super().telnet_DO(option)

    def telnet_DONT(self, option: bytes) -> None:
        if self.requested():
            super().telnet_DONT(option)

    def will_no_false(self, state: Any, option: bytes) -> None:
        self._acked_first(super().will_no_false, state, option)

    def do_no_false(self, state: Any, option: bytes) -> None:
        self._acked_first(super().do_no_false, state, option)

    # conch looks these up in class-level maps of its own functions, not by name: ours go in their places
    willMap: Any = {**Telnet.willMap, ("no", False): will_no_false}
    doMap: Any = {**Telnet.doMap, ("no", False): do_no_false}

    def _acked_first(self, handle: Callable[[Any, bytes], None], state: Any, option: bytes) -> None:
        """An option the client asks for or offers: conch enables it (``enableLocal``/``enableRemote``, which may
        send its subnegotiation: MSSP's table, TTYPE's SEND) before it writes the agreeing WILL or DO. The
        subnegotiation waits until after the agreement (RFC 855: only once the option is in effect), or a strict
        client drops it."""
        self.held_back = []
        try:
            handle(state, option)
        finally:
            held, self.held_back = self.held_back, None
            for data in held:
                self._write(data)

    def requested(self) -> bool:
        """Count an option request: False (not acted on) once ``MAX_ANSWERS`` answers are spent, so that no
        option changes, nor any subnegotiation it starts goes out, unagreed; and the connection dropped past
        ``MAX_REQUESTS``."""
        self.requests += 1
        if self.requests <= MAX_REQUESTS:
            return self.answers < MAX_ANSWERS
        if self.requests == MAX_REQUESTS + 1 and self.transport is not None:
            log.warn("{peer}: dropped after {n} telnet option requests", peer=peer(self.transport), n=MAX_REQUESTS)
            transport: Any = self.transport
            transport.abortConnection()  # a TCP connection's: its buffered answers are not waited for
        return False

    def _write(self, data: bytes) -> None:
        """Conch's own bytes (option answers and offers, subnegotiations): counted as the text is, so that a client
        that asks and never reads is dropped past the backlog like one that reads no text (they went to Twisted's
        buffer uncounted: a flood of ``IAC WILL ECHO`` grew the server by megabytes a second); and past
        ``MAX_ANSWERS`` option answers, no more are sent."""
        if len(data) == 3 and data[1:2] in (WILL, WONT, DO, DONT):
            self.answers += 1
            if self.answers > MAX_ANSWERS:
                return
        elif self.held_back is not None:  # a subnegotiation before its option's agreement: after it
            self.held_back.append(data)
            return
        protocol = self.protocol
        if self.transport is None or isinstance(protocol, LineProtocol) and not protocol.unread(len(data)):
            return
        self.out(data)

    def out(self, data: bytes) -> None:
        """Bytes to the socket: deflated once MCCP2's start marker has gone out (``START``, written as it is)."""
        if self.transport is None:
            return
        compressor = self.compressor
        write_now(self.transport, data if compressor is None else compressor.compress(data))
        if data == START and compressor is None:
            self.compressor = Compressor()

    def end_compression(self) -> None:
        """MCCP2's stream finished (the client withdrew it, or the connection closes): plain bytes after it."""
        compressor, self.compressor = self.compressor, None
        if compressor is not None and self.transport is not None:
            write_now(self.transport, compressor.end())

    def loseConnection(self) -> None:
        self.end_compression()
        super().loseConnection()

    def are_you_there(self, argument: None) -> None:
        """IAC AYT (``send ayt`` in the stock telnet, sent when a connection seems to hang): a visible yes."""
        now = time.monotonic()
        if self.transport is not None and now - self.answered_at >= AYT_EVERY:
            self.answered_at = now
            self.out(AYT_ANSWER)

    def erase_character(self, argument: None) -> None:
        """IAC EC (``send ec``): the character typed before it is taken back, as DEL takes it (``erase``); in
        keyboard mode the line editor rubs it out on the screen too."""
        self.applicationDataReceived(b"\x7f")

    def erase_line(self, argument: None) -> None:
        """IAC EL (``send el``): the line typed so far is taken back, as Ctrl-U takes it."""
        self.applicationDataReceived(b"\x15")

    def dataReceived(self, data: bytes) -> None:
        """A CR that ends a read is Enter at once (``cr_ended``): in BINARY (RFC 856) and character mode the stock
        telnet sends it bare, as some BBS terminals and MUD clients always do, and conch holds a CR until the byte
        after it shows CR LF, CR NUL or a bare CR, so the line waited for the user's next key. The LF or NUL that
        may follow in the next read is that same Enter (``after_enter``)."""
        self.read(self.after_enter(data))
        if self.state == "newline":  # conch holds the CR that ended this read: Enter now, not at the next key
            self.state, self.cr_ended = "data", True
            self.applicationDataReceived(b"\n")

    def after_enter(self, data: bytes) -> bytes:
        """``data`` without the LF or NUL that pairs with a CR that ended the last read and was taken for Enter: a
        CR LF or CR NUL split across two reads is one Enter, never a second, empty line (at a password prompt that
        would be an answer). The pair still decides telnet or not when it ends the first line (``decide``)."""
        if not self.cr_ended:
            return data
        self.cr_ended = False
        if data[:1] not in (b"\n", b"\0"):
            return data
        if not self.decided:
            self.decide(data[:1])
        return data[1:]

    def read(self, data: bytes) -> None:
        """Conch's parser over ``data``, made total and short where it can be (see the class)."""
        if data.endswith(b"\r") and self.decided and self.state == "data" and not self.skipping and IAC not in data:
            # the short way for a line ending in a bare CR (``dataReceived``): as CR LF, ``plain``'s one line
            data, self.cr_ended = data + b"\n", True
        if data and self.decided and self.state == "data" and not self.skipping and IAC not in data:
            # plain data, as nearly every read is: what the loop below does with it, without its copy
            try:
                if self.plain(data):
                    return
            except Exception as exc:
                self.fault(data, repr(exc))
                return
        if not self.decided:
            self.decide(data)
        at = 0
        while at < len(data):
            if self.skipping:
                at = self.skip(data, at)
                continue
            if self.state == "escaped" and data[at] in IGNORED_COMMANDS:  # conch knows them not: raised, logged
                self.state, at = "data", at + 1
                continue
            if self.state not in ("data", "subnegotiation") or data[at] == IAC[0]:
                end = at + 1
            else:
                end = data.find(IAC, at)
                end = len(data) if end < 0 else end
                if self.state == "subnegotiation":  # one byte past the limit at most
                    end = min(end, at + MAX_SUBNEGOTIATION + 1 - len(self.commands))
            piece, at = data[at:end], end
            try:
                if self.state == "data" and piece[0] != IAC[0] and self.plain(piece):
                    continue
                Telnet.dataReceived(self, piece)
            except Exception as exc:
                self.fault(piece, repr(exc))
            if self.state.startswith("subnegotiation") and len(self.commands) > MAX_SUBNEGOTIATION:
                ended_on_iac = self.state == "subnegotiation-escaped"  # the piece's last byte began IAC SE or IAC IAC
                self.fault(piece, f"subnegotiation longer than {MAX_SUBNEGOTIATION} bytes")  # i18n: not text (log)
                self.skipping, self.skipped_iac = True, ended_on_iac

    def skip(self, data: bytes, at: int) -> int:
        """Drop the rest of an over-long subnegotiation from ``data[at:]``: where plain reading goes on, just past
        its ``IAC SE`` (``len(data)`` if it has not come yet). ``IAC IAC`` inside it is a data byte 255."""
        while at < len(data):
            if self.skipped_iac:
                self.skipped_iac = False
                if data[at] == SE[0]:
                    self.skipping = False
                    return at + 1
                at += 1  # IAC IAC: an escaped 255, still inside
                continue
            found = data.find(IAC, at)
            if found < 0:
                return len(data)
            self.skipped_iac, at = True, found + 1
        return at

    def plain(self, piece: bytes) -> bool:
        """Hand a piece of plain data (no IAC) to the protocol at once when it needs none of conch's byte-by-byte
        reading (that loop was some 4 % of a JSON command's CPU, and 8 KB of a flooder's pasted lines 10-20 ms of
        the reactor): text whose every CR is followed by LF or NUL, which conch makes LF and CR. False, with
        nothing done, for anything else (a CR last, or before another byte)."""
        crs = piece.count(b"\r")
        if crs == 0:
            self.applicationDataReceived(piece)
            return True
        if crs == 1 and piece.endswith(b"\r\n"):
            self.applicationDataReceived(piece[:-2] + b"\n")
            return True
        if piece.endswith(b"\r") or piece.count(b"\r\n") + piece.count(b"\r\0") != crs:
            return False
        self.applicationDataReceived(piece.replace(b"\r\n", b"\n").replace(b"\r\0", b"\r"))
        return True

    def decide(self, data: bytes) -> None:
        """Telnet or not, from the client's first bytes (``terminal.looks_like_telnet``); a client taken for
        raw becomes telnet all the same if it ever sends IAC (a raw client has no reason to: UTF-8 has no 255)."""
        protocol: Any = self.protocol
        if IAC in data:
            self.decided = True
            protocol.start_telnet()
            return
        seen = self.first_line + data
        newline = seen.find(b"\n")
        nul = seen.find(b"\r\0")
        ends = [i for i in (newline, nul) if i >= 0]
        if not ends:
            self.first_line = seen[-MAX_LINE:]
            return
        end = min(ends)
        self.decided, self.first_line = True, b""
        ending = seen[end - 1:end + 1] if end == newline and end > 0 and seen[end - 1:end] == b"\r" else (
            seen[end:end + 2])
        line = seen[:end]
        if terminal.looks_like_telnet(ending, line.rstrip(b"\r")):
            protocol.start_telnet()

    def write(self, data: bytes) -> None:
        """The protocol's text: IAC doubled and LF as CR LF by conch to a telnet client; before telnet is seen
        (and always to a raw client) LF as CR LF only, as the raw port writes: UTF-8 holds no byte 255."""
        if self.transport is None:
            return
        if getattr(self.protocol, "telnet", False):
            data = data.replace(IAC, IAC + IAC)  # conch's TelnetTransport.write, then its LF as CR LF below
        self.out(data.replace(b"\n", b"\r\n"))

    def fault(self, piece: bytes, why: str) -> None:
        """Forget the command being read and go back to plain data; say so in the log once a connection."""
        self.state = "data"
        for half_read in ("command", "commands"):
            self.__dict__.pop(half_read, None)
        if not self.faulted:
            self.faulted = True
            log.warn("{peer}: bad telnet input {piece!r} ignored ({why}); any more on this connection is ignored "
                     "without a word", peer=peer(self.transport), piece=piece[:16], why=why)
