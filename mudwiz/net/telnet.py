"""Telnet: conch's telnet layer under the shared line protocol (lines.py). Knows no rules.

``twisted.conch.telnet`` answers any option negotiation a telnet client starts (refusing what we do not
support), unescapes IAC on the way in, and on the way out doubles IAC and sends each ``\\n`` as ``\\r\\n``; we
start no negotiation but one: around a password, ``IAC WILL ECHO`` (the server echoes, so the client stops
echoing, and the server echoes nothing) and ``IAC WONT ECHO`` after it; an ``nc`` user on this port who never
types a password sees no stray bytes.
"""

from __future__ import annotations

from typing import Any

from twisted.conch.telnet import ECHO, IAC, WILL, WONT, Telnet, TelnetProtocol, TelnetTransport
from twisted.internet.protocol import Protocol
from twisted.logger import Logger

from mudwiz.net.lines import LineFactory, LineProtocol, peer

log = Logger()

MAX_SUBNEGOTIATION = 512  # bytes a telnet subnegotiation may run to (we take part in none); a longer one is given up


class TelnetLines(LineProtocol, TelnetProtocol):
    """The line protocol with conch's transport between it and the socket; it agrees to no telnet option."""

    def socket(self) -> Any:
        return getattr(self.transport, "transport", None)  # conch's TelnetTransport wraps the TCP one

    def secret(self, on: bool) -> None:
        """Echo off for a password: ``IAC WILL ECHO`` before it, ``IAC WONT ECHO`` after. Written as they are,
        with conch's option state set to match, rather than through ``will``/``wont``: those wait for the
        client's answer, and a client that never answers (a script on this port) would leave echo off for ever.
        The client's DO or DONT then agrees with the state and is taken quietly."""
        telnet, socket = self.transport, self.socket()
        if telnet is None or socket is None:
            return
        state = telnet.getOptionState(ECHO).us  # type: ignore[attr-defined]  # conch's TelnetTransport
        wanted = "yes" if on else "no"
        if state.state != wanted:
            state.state, state.negotiating = wanted, False
            socket.write(IAC + (WILL if on else WONT) + ECHO)

    def disableLocal(self, option: bytes) -> None:
        """The client said DONT ECHO while the password was asked for: it keeps echoing; nothing to undo here."""


class _Telnet(TelnetTransport):
    """Conch's transport, made total: no bytes a client sends raise out of it or cost the connection.

    Conch's parser raises on some malformed commands (``ValueError`` for an unknown command after IAC,
    ``IndexError`` for the empty subnegotiation ``IAC SB IAC SE``), which would drop the sender with a traceback
    and lose the rest of what it sent. So bytes go to the parser in pieces: plain data up to the next IAC at once,
    the bytes of a telnet command one at a time. A piece that raises is logged in one line (the first on a
    connection only) and the parser starts again on plain data: the bad command is lost, nothing else. A
    subnegotiation longer than ``MAX_SUBNEGOTIATION`` bytes is no real one (we agree to no option that has one):
    it is given up the same way, and what follows is read as plain data.
    """

    faulted = False  # a parser fault on this connection has been logged

    def dataReceived(self, data: bytes) -> None:
        at = 0
        while at < len(data):
            if self.state not in ("data", "subnegotiation") or data[at] == IAC[0]:
                end = at + 1
            else:
                end = data.find(IAC, at)
                end = len(data) if end < 0 else end
                if self.state == "subnegotiation":  # one byte past the limit at most
                    end = min(end, at + MAX_SUBNEGOTIATION + 1 - len(self.commands))
            piece, at = data[at:end], end
            try:
                Telnet.dataReceived(self, piece)
            except Exception as exc:
                self.fault(piece, repr(exc))
            if self.state.startswith("subnegotiation") and len(self.commands) > MAX_SUBNEGOTIATION:
                self.fault(piece, f"subnegotiation longer than {MAX_SUBNEGOTIATION} bytes")

    def fault(self, piece: bytes, why: str) -> None:
        """Forget the command being read and go back to plain data; say so in the log once a connection."""
        self.state = "data"
        for half_read in ("command", "commands"):
            self.__dict__.pop(half_read, None)
        if not self.faulted:
            self.faulted = True
            log.warn("{peer}: bad telnet input {piece!r} ignored ({why}); any more on this connection is ignored "
                     "without a word", peer=peer(self.transport), piece=piece[:16], why=why)


class MudFactory(LineFactory):
    """The telnet listener (``MUDWIZ_LISTEN``)."""

    def framing(self, address: str) -> Protocol:
        return _Telnet(TelnetLines, self, address)
