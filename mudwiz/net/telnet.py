"""Telnet: conch's telnet layer under the shared line protocol (lines.py). Knows no rules.

One port serves telnet programs and clients that never speak telnet (``nc``, bots), and tells them apart: a
client is taken for telnet once it sends a telnet command (any IAC byte), or when its first line ends in CR LF or
CR NUL, as every telnet program's lines do (``terminal.looks_like_telnet``; ``nc`` ends its lines in LF, and a
first line switching to JSON mode marks a program whatever its ending). Until then, and for ever for a client
that is not telnet, the server sends no IAC byte: no negotiation, no echo marks around a password.

Once telnet is seen the server offers (RFC 854 option negotiation, through conch's option machinery):
BINARY both ways (RFC 856: 8-bit bytes pass untouched, so UTF-8 typed into the stock ``telnet`` arrives
whole), EOR (RFC 885, ``IAC EOR`` after each burst of output, where the user is to type; ``IAC GA`` instead to a
client that refused EOR and has not agreed to SGA), NAWS (RFC 1073: drawn to the window's width), TTYPE
(RFC 1091 with MTTS: colour or plain, UTF-8 or ASCII chosen by itself unless the user chose ``/mode``), CHARSET
(RFC 2066: UTF-8, Shift_JIS, EUC-JP or CP437), MSSP (the server's status for MUD crawlers), GMCP (every protocol message
as ``Game.<Type>`` JSON, for Mudlet and its kind) and MCCP2 (all output deflated, mccp.py). Subnegotiations and
option answers we send count towards the unread backlog like text, and a connection gets at most ``MAX_ANSWERS``
option answers. SGA is agreed when a client asks for it, and offered with ECHO only to a terminal, for character
mode (charmode.py): the line is then edited here. Around a password in line mode, ``IAC WILL ECHO`` (the server
echoes, so the client stops echoing, and the server echoes nothing) and ``IAC WONT ECHO`` after it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from twisted.conch.telnet import (
    ECHO,
    EOR,
    GA,
    IAC,
    SGA,
    WILL,
    WONT,
    TelnetProtocol,
)
from twisted.internet import defer
from twisted.internet.protocol import Protocol, connectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure

from mudwiz.games import available
from mudwiz.net import environ, terminal
from mudwiz.net.charmode import CharacterMode
from mudwiz.net.lines import LineProtocol
from mudwiz.net.listener import LineFactory
from mudwiz.net.mccp import COMPRESS2
from mudwiz.net.telnetstream import _Telnet

log = Logger()

MSSP_TIMES = 3  # MSSP tables a connection is sent at most
# Seconds the first line waits for the terminal's type and window size once telnet is seen (the stock telnet
# negotiates only when the first line shows it is telnet), so the answer to it, the first screen, fits them.
TERMINAL_WAIT = 0.5

BINARY, TTYPE, OPT_EOR, NAWS, CHARSET, MSSP, GMCP = b"\x00", b"\x18", b"\x19", b"\x1f", b"\x2a", b"\x46", b"\xc9"
IS, SEND = b"\x00", b"\x01"  # TTYPE
REQUEST, ACCEPTED = b"\x01", b"\x02"  # CHARSET

# what we agree to do (WILL) when asked or offered
LOCAL = frozenset((BINARY, SGA, OPT_EOR, CHARSET, MSSP, GMCP, COMPRESS2))
REMOTE = frozenset((BINARY, NAWS, TTYPE, environ.NEW_ENVIRON))  # what we agree the client does (DO)
OFFER_WILL = (BINARY, OPT_EOR, CHARSET, MSSP, GMCP, COMPRESS2)
OFFER_DO = (BINARY, NAWS, TTYPE, environ.NEW_ENVIRON)  # NEW-ENVIRON (RFC 1572): its LANG, for the language


def _refused(failure: Failure) -> None:
    """A refused offer (or one the connection's end cut short) is an answer, not an error."""


class TelnetLines(LineProtocol, TelnetProtocol):
    """The line protocol with conch's transport between it and the socket."""

    telnet = False  # the client has shown it is a telnet program: negotiation started
    settling: Any = None  # the timer while lines wait for the terminal's type and size (``TERMINAL_WAIT``)
    naws_seen = False  # a window size came
    env_seen = False  # the client's NEW-ENVIRON answer came
    mssp_sent = 0  # times the MSSP table was asked for
    hiding = False  # a password is being typed (``secret``): echo off once telnet is seen, if it is seen then
    line_ended = False  # a line came since the last output: the client's echo of its end may have left no CR
    pairs_split_cr = False  # ``_Telnet`` pairs a CR with its LF or NUL (conch hands on a CR NUL as a CR)
    charset_agreed = False  # CHARSET settled the charset: the terminal type's guess no longer changes it
    charset_answered = False  # the client answered our CHARSET REQUEST (accepted or rejected)

    def socket(self) -> Any:
        return getattr(self.transport, "transport", None)  # conch's TelnetTransport wraps the TCP one

    def connectionMade(self) -> None:
        self.ttypes = terminal.TerminalTypes()
        self.chars = CharacterMode(self)
        handlers: dict[bytes, Callable[[list[bytes]], None]] = {
            NAWS: self.naws, TTYPE: self.ttype, CHARSET: self.charset, GMCP: self.gmcp, environ.NEW_ENVIRON: self.env}
        self.transport.negotiationMap.update(handlers)  # type: ignore[union-attr]
        super().connectionMade()

    def start_telnet(self) -> None:
        """The client speaks telnet: offer what we do. Called once, before its first line is read."""
        if self.telnet or self.transport is None:
            return
        self.telnet = True
        for option in OFFER_WILL:
            self.offer(option, local=True)
        for option in OFFER_DO:
            self.offer(option, local=False)
        if self.hiding:  # a password is being asked already: the first line's LF came a read after its CR
            self.secret(True)
        if not self.connection.logged_in and not self.paused:
            # The lines wait (the socket is still read: the answers come through it) for the terminal's type and
            # window size, at most ``TERMINAL_WAIT``: the first screen came in colour and UTF-8 to TERM=dumb, and
            # 80 wide in a 40-column window, being drawn before the answers came.
            self.paused = True
            self.settling = self.callLater(TERMINAL_WAIT, self.settled)

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        if self.settling is not None and self.settling.active():
            self.settling.cancel()
        self.settling = None
        super().connectionLost(reason)

    def terminal_known(self) -> bool:
        """The window size and the terminal type are in, or refused; and the charset, once the client agreed to
        CHARSET (a Japanese terminal's first line, its name, is read in the charset it then accepts)."""
        telnet: Any = self.transport
        naws, ttype = telnet.getOptionState(NAWS).him, telnet.getOptionState(TTYPE).him
        charset = telnet.getOptionState(CHARSET).us
        env = telnet.getOptionState(environ.NEW_ENVIRON).him  # agreed: its LANG, for the welcome in its language
        return (self.naws_seen or naws.state == "no" and not naws.negotiating) and (
            self.ttypes.done or ttype.state == "no" and not ttype.negotiating) and (
            self.charset_answered or charset.state != "yes") and (self.env_seen or env.state != "yes")

    def maybe_settled(self, result: Any = None) -> Any:
        if self.settling is not None and self.transport is not None and self.terminal_known():
            self.settled()
        return result

    def settled(self) -> None:
        """The terminal's answers are in (or the wait is over): the lines read meanwhile are acted on."""
        timer, self.settling = self.settling, None
        if timer is None:
            return
        if timer.active():
            timer.cancel()
        self._read_on()

    def offer(self, option: bytes, local: bool) -> defer.Deferred[Any]:
        """``IAC WILL option`` (``local``) or ``IAC DO option``, with conch's option state set as its ``will`` and
        ``do`` set it. Not through them: they refuse to start one direction of an option while the other is
        being negotiated, and BINARY is offered both ways at once (so a user who types at once is already
        sending 8-bit bytes). Fires with the answer, True or None (refused); at once for an option in effect."""
        telnet: Any = self.transport
        state = telnet.getOptionState(option)
        side = state.us if local else state.him
        if side.state == "yes":
            return defer.succeed(True)
        if side.negotiating:
            return defer.succeed(None)
        side.negotiating, side.onResult = True, defer.Deferred().addErrback(_refused)
        if not local and option in (NAWS, TTYPE):
            side.onResult.addBoth(self.maybe_settled)  # a refusal settles it
        (telnet._will if local else telnet._do)(option)
        return side.onResult

    # -- options

    def enableLocal(self, option: bytes) -> bool:
        if option not in LOCAL:
            return False
        if option == MSSP:
            self.send_mssp()
        elif option == GMCP:
            self.connection.on_message = self.gmcp_message
            self.send_gmcp("Core.Hello", {"name": self.mud().name, "codebase": "mudwiz"})
        elif option == CHARSET:
            self.subnegotiate(CHARSET, REQUEST + terminal.charset_request())
        elif option == COMPRESS2:
            self.subnegotiate(COMPRESS2, b"")  # its marker: all after it is deflated (``_Telnet.out``)
        return True

    def enableRemote(self, option: bytes) -> bool:
        if option not in REMOTE:
            return False
        if option == TTYPE:
            self.subnegotiate(TTYPE, SEND)
        elif option == environ.NEW_ENVIRON:
            self.subnegotiate(option, environ.request())
        return True

    def disableLocal(self, option: bytes) -> None:
        """The client withdrew an option we had (``DONT``): GMCP stops; ECHO or SGA end character mode; else
        nothing to undo (ECHO around a password: it keeps echoing)."""
        if option == GMCP:
            self.connection.on_message = None
        elif option == COMPRESS2:
            self.transport.end_compression()  # type: ignore[union-attr]  # our _Telnet
        self.chars.withdrawn(option)

    def disableRemote(self, option: bytes) -> None:
        """The client stopped doing an option (``WONT``): its last window size and terminal type stay."""

    # -- subnegotiations

    def naws(self, data: list[bytes]) -> None:
        size = terminal.naws_size(b"".join(data))
        if size is not None:
            self.connection.session.width = terminal.clamp_width(size[0])
            self.connection.session.rows = size[1]
        self.naws_seen = True
        self.maybe_settled()

    def agreed(self, option: bytes, local: bool) -> bool:
        """Whether ``option`` is in effect (ours, ``local``, or the client's): a subnegotiation of one that is not
        is ignored (RFC 855), as it was answered (a ``TTYPE SEND`` to an unasked ``TTYPE IS``, a ``Core.Ping``
        to a client that never agreed to GMCP). NAWS is taken all the same: it asks nothing of us."""
        telnet: Any = self.transport
        state = telnet.getOptionState(option)
        return (state.us if local else state.him).state == "yes"

    def ttype(self, data: list[bytes]) -> None:
        if not data or data[0] != IS or not self.agreed(TTYPE, local=False):
            return
        if self.ttypes.add(b"".join(data[1:])):
            self.subnegotiate(TTYPE, SEND)
        if self.ttypes.done:
            choice = self.ttypes.choice()
            self.connection.session.adopt(choice.mode, None if self.charset_agreed else choice.charset)
            self.connection.session.terminal = self.ttypes.terminal  # the pager's default (mudwiz/pager.py)
            self.chars.consider()
            self.maybe_settled()

    def env(self, data: list[bytes]) -> None:
        """The client's locale names a language with a catalog: read in it, until the user chooses (``/lang``)."""
        lang = environ.language(b"".join(data)) if self.agreed(environ.NEW_ENVIRON, local=False) else None
        if lang is not None and not self.connection.session.lang_chosen:
            self.connection.session.lang, self.connection.session.lang_heard = lang, True
        self.env_seen = True
        self.maybe_settled()

    def charset(self, data: list[bytes]) -> None:
        """The client's answer to our REQUEST: the charset it ACCEPTED, read and written from now on (Shift_JIS or
        EUC-JP also say the user reads Japanese: ``Session.charset_lang``)."""
        if not self.agreed(CHARSET, local=True):
            return
        self.charset_answered = True
        if data and data[0] == ACCEPTED:
            charset = terminal.accepted_charset(b"".join(data[1:]))
            self.charset_agreed = self.charset_agreed or charset is not None
            self.connection.session.adopt(None, charset)
        self.maybe_settled()

    def gmcp(self, data: list[bytes]) -> None:
        """A client's GMCP message: ``Core.Ping`` is answered; ``Core.Hello`` and ``Core.Supports.*`` are taken
        as said (``Game`` is sent whatever the client lists: its messages are the game itself)."""
        if not self.agreed(GMCP, local=True):
            return
        message = terminal.gmcp_decode(b"".join(data))
        if message is not None and message[0].lower() == "core.ping":
            self.send_gmcp("Core.Ping", None)

    def gmcp_message(self, message: dict[str, Any]) -> None:
        """Every protocol message, as ``Game.<Type>`` with the JSON a bot would be sent."""
        self.send_gmcp(terminal.gmcp_package(message), message)

    def send_gmcp(self, package: str, data: Any) -> None:
        self.subnegotiate(GMCP, package.encode() if data is None else terminal.gmcp_encode(package, data))

    def subnegotiate(self, option: bytes, payload: bytes) -> None:
        """``IAC SB option payload IAC SE``, counted like any output, so that a client that asks for tables
        and messages it never reads is dropped like one that reads no text."""
        telnet: Any = self.transport
        if telnet is not None:
            telnet.requestNegotiation(option, payload)  # counted where conch writes it (``_Telnet._write``)

    def mud(self) -> MudFactory:
        assert isinstance(self.factory, MudFactory)
        return self.factory

    def send_mssp(self) -> None:
        """The MSSP table, to a crawler's ``DO MSSP``: at most ``MSSP_TIMES`` a connection, as turning the option
        off and on again would otherwise buy some 700 bytes for every 6."""
        self.mssp_sent += 1
        if self.mssp_sent <= MSSP_TIMES:
            self.subnegotiate(MSSP, terminal.mssp_payload(self.mud().mssp()))

    # -- echo, and the end of a burst

    def secret(self, on: bool) -> None:
        """Echo off for a password: in character mode the editor echoes nothing; in line mode ``IAC WILL ECHO``
        before it, ``IAC WONT ECHO`` after; to a telnet client only. Written as they are, with conch's option state
        set to match, rather than through ``will``/``wont``: those wait for the client's answer, and a client that
        never answers would leave echo off for ever. The client's DO or DONT then agrees with the state and is
        taken quietly. A terminal's character mode waits for a password typed in line mode (``CharacterMode``):
        asked for after it, with its ``WILL ECHO`` kept."""
        self.hiding = on
        super().secret(on)
        telnet = self.transport
        if not self.telnet or telnet is None or self.socket() is None or self.chars.echoing \
                or not on and self.chars.consider():
            return
        state = telnet.getOptionState(ECHO).us  # type: ignore[attr-defined]  # conch's TelnetTransport
        wanted = "yes" if on else "no"
        if state.state != wanted:
            state.state, state.negotiating = wanted, False
            self.flush()  # after the prompt it follows
            self.raw(IAC + (WILL if on else WONT) + ECHO)

    def raw(self, data: bytes) -> None:
        """Telnet commands of our own beside the text (echo marks, EOR, GA), to the socket as they are (deflated
        with the rest under MCCP2)."""
        telnet: Any = self.transport
        if telnet is not None:
            telnet.out(data)

    def write(self, text: str) -> None:
        """The editor's line ends (CR LF) as LF, which the telnet layer writes as CR LF."""
        super().write(text if self.keyboard is None else text.replace("\r\n", "\n"))

    def flush(self) -> None:
        """What was held back, as one piece; for a client that never spoke telnet (a program, ``nc``) with
        nothing unusual about it, written here in one step: the bytes ``emit`` would write through ``write``
        and ``_Telnet.write`` (UTF-8, LF as CR LF, no IAC doubled, no EOR or GA), without their six calls. A
        turn's output is written this way to every JSON connection after every move."""
        held = self.held_text
        if not held:
            return
        transport: Any = self.transport
        socket = transport.transport if transport is not None else None
        if self.telnet or self.keyboard is not None or self.dropped or socket is None or self.backlog.paused \
                or self.connection.session.charset != "utf-8":
            super().flush()
            return
        text = "".join(held)
        held.clear()
        self.outflow.write(socket, terminal.encode(text, "utf-8").replace(b"\n", b"\r\n"))

    def lineReceived(self, line: bytes) -> None:
        self.line_ended = True
        super().lineReceived(line)

    def emit(self, text: str) -> None:
        """Each piece the connection sends (all it was sent while a line was acted on) is a burst; one that ends
        in a prompt (no line break after it: the name and password prompts) is where the user is to type, and a
        MUD client is told so by ``IAC EOR`` when it agreed to EOR, else by ``IAC GA`` unless it suppressed
        go-aheads, as MUD servers mark prompts. Never before telnet is seen, nor in JSON mode, whose lines are
        for a program (which has GMCP if it wants telnet's side channel).

        The first piece after a line starts with CR: the stock ``telnet``, once BINARY is agreed, stops adding CR
        to what it prints, so its echo of the user's Enter moves down a row and not back to its start, and every
        reply began where the typed text ended (a staircase). At the start of a row a CR does nothing."""
        json = self.connection.session.mode == "json"
        if self.line_ended and text:
            self.line_ended = False
            if self.telnet and not json and self.keyboard is None and not text.startswith("\n"):
                text = "\r" + text
        super().emit(text)
        if not self.telnet or self.dropped or not text or json or text.endswith("\n"):
            return  # a burst ending in a line break has no prompt: tt++ drew each EOR after one as an empty line
        telnet: Any = self.transport
        if telnet is None:
            return
        eor, sga = telnet.getOptionState(OPT_EOR).us, telnet.getOptionState(SGA).us
        if eor.state == "yes":
            self.raw(IAC + EOR)
        elif not eor.negotiating and sga.state != "yes":
            self.raw(IAC + GA)


class MudFactory(LineFactory):
    """The telnet listener (``MUDWIZ_LISTEN``), and the TLS one (``MUDWIZ_TLS``, tls.py) with it. ``name``, ``ports``
    and ``tls_ports`` are what MSSP tells MUD crawlers (the service passes the listening ports); the start time is
    the factory's."""

    name = "mudwiz"
    ports: Sequence[str] = ()
    tls_ports: Sequence[str] = ()

    def __init__(self, *args: Any, name: str = "mudwiz", ports: Sequence[str] = (), tls_ports: Sequence[str] = (),
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.name, self.ports, self.tls_ports = name, ports, tls_ports
        self.started = time.time()

    def framing(self, address: str) -> Protocol:
        return _Telnet(TelnetLines, self, address)

    def mssp(self) -> Mapping[str, str | Sequence[str]]:
        """The MSSP variables: the fixed ones, and NAME, PLAYERS (logged in now), UPTIME (the start, in Unix
        seconds), PORT, SSL (the TLS port, 0 without) and GAMES (this server's games; not a standard variable,
        crawlers show it as it is)."""
        return {"NAME": self.name, "PLAYERS": str(self.lobby.online()), "UPTIME": str(int(self.started)),
                **({"PORT": list(self.ports)} if self.ports else {}), "GAMES": list(available()) or ["none"],
                **terminal.MSSP_FIXED, **({"SSL": self.tls_ports[0]} if self.tls_ports else {})}
