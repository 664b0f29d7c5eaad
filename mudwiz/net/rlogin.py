"""RLogin (RFC 1282) for BBS links (``MUDWIZ_RLOGIN``): a BBS sends its caller here already logged in.

A BBS (Synchronet's rlogin gateway, a door: mudwiz/door.py) opens the connection and sends
``\\0 client-user \\0 server-user \\0 terminal/speed \\0``. The client-user is the caller's handle; the
server-user is the BBS's shared secret (or anything, for a BBS trusted by its address). A peer trusted by
neither (``MUDWIZ_RLOGIN_BBS``, ``Trust``) is refused with one line, as rlogind refuses: a ``\\1`` byte, then
the reason. A trusted one is answered ``\\0``, asked for its window size (the urgent byte ``0x80``; a client
that answers sends ``FF FF 's' 's'`` and rows, columns, x and y pixels, four 16-bit numbers; one that does not,
Synchronet's gateway among them, is drawn for 80 columns), and its caller is logged in as ``handle@tag`` as
soon as the size comes or ``WINDOW_WAIT`` has passed (usertext.bbs_name): no name prompt, no password, since the
BBS's own login is the proof.

After that the stream is raw keys: the client echoes nothing, so the server echoes and edits the line
(net/lineedit.py, as for SSH with a PTY), reading the keys in the caller's charset. The terminal type decides
colour and charset as telnet's TTYPE does (net/terminal.py), except that a terminal that says nothing of its
charset is taken for CP437, the charset of BBS terminals.
"""

from __future__ import annotations

import hmac
import ipaddress
import socket
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from twisted.internet.interfaces import IDelayedCall, ITCPTransport
from twisted.internet.protocol import Protocol, connectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure

from mudwiz.net import terminal
from mudwiz.net.lineedit import Keyboard
from mudwiz.net.lines import LineProtocol
from mudwiz.net.listener import LineFactory
from mudwiz.texts import english
from mudwiz.usertext import BBS_TAG_RULE, bbs_name, bbs_text

log = Logger()

MAX_HANDSHAKE = 1024  # bytes of the four handshake strings at most: RFC 1282 clients send well under 200
WINDOW_MAGIC = b"\xff\xffss"  # then rows, columns, x pixels, y pixels: 8 bytes
WINDOW_LENGTH = len(WINDOW_MAGIC) + 8
URGENT_WINDOW = b"\x80"  # TIOCPKT_WINDOW: "send me your window size", as out-of-band data
WINDOW_WAIT = 0.3  # seconds the login waits for the window size, so the first screen has the right width


class TrustError(ValueError):
    """``MUDWIZ_RLOGIN_BBS`` cannot be read: the server does not start, and the message says where."""


@dataclass(frozen=True)
class Trust:
    """Which BBSes may send callers, from ``MUDWIZ_RLOGIN_BBS``: entries separated by spaces or ``;``, each
    ``TAG=ADDRESS[,ADDRESS...]`` (IPv4 or IPv6 addresses or networks such as ``10.0.0.0/24``: a connection from
    one of them is that BBS's) or ``TAG:SECRET`` (a connection from anywhere whose server-user field is
    ``SECRET`` is that BBS's). A tag may have entries of both kinds; either admits."""

    networks: tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str], ...] = ()
    secrets: Mapping[str, str] = field(default_factory=dict)  # secret -> tag

    @classmethod
    def parse(cls, text: str) -> Trust:
        networks: list[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, str]] = []
        secrets: dict[str, str] = {}
        for entry in text.replace(";", " ").split():
            equals, colon = entry.find("="), entry.find(":")
            if equals > 0 and (colon < 0 or equals < colon):
                tag, _, addresses = entry.partition("=")
                if not addresses.strip(","):
                    raise TrustError(f"MUDWIZ_RLOGIN_BBS: {entry!r} names no address")
                networks += [(_network(a, entry), _tag(tag, entry)) for a in addresses.split(",") if a]
            elif colon > 0 and entry[colon + 1:]:
                tag, _, secret = entry.partition(":")
                secrets[secret] = _tag(tag, entry)
            else:
                raise TrustError(f"MUDWIZ_RLOGIN_BBS: {entry!r} is neither TAG=ADDRESS[,ADDRESS] nor TAG:SECRET")
        return cls(tuple(networks), secrets)

    def tag_for(self, address: str, secret: str) -> str | None:
        """The tag of the BBS a connection from ``address`` with server-user ``secret`` comes from, or None.
        Every secret is compared, in constant time, so the time taken says nothing of how close a guess was."""
        found = None
        for known, tag in self.secrets.items():
            if hmac.compare_digest(known.encode(), secret.encode()):
                found = tag
        if found is not None:
            return found
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return None
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return next((tag for network, tag in self.networks if ip in network), None)

    def __bool__(self) -> bool:
        return bool(self.networks or self.secrets)


def _tag(tag: str, entry: str) -> str:
    if not BBS_TAG_RULE.match(tag):
        raise TrustError(f"MUDWIZ_RLOGIN_BBS: in {entry!r} the tag {tag!r} is not 1 to 15 of A-Z a-z 0-9 _ -")
    return tag


def _network(text: str, entry: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    try:
        return ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise TrustError(f"MUDWIZ_RLOGIN_BBS: in {entry!r}, {text!r} is not an IP address or network") from None


@dataclass(frozen=True)
class Handshake:
    """The four strings an RFC 1282 client starts with (the first is empty)."""

    client_user: str
    server_user: str
    terminal: str  # the terminal type, without its ``/speed``


def read_handshake(data: bytes) -> tuple[Handshake, bytes] | None:
    """The handshake at the start of ``data`` and what follows it, or None while it is incomplete.
    ``ValueError`` (its message one line for the peer) for bytes that are no rlogin handshake."""
    if data[:1] not in (b"", b"\0"):
        raise ValueError("this is an rlogin port (RFC 1282); connect by telnet instead")
    fields = data.split(b"\0", 4)
    if len(fields) < 5:
        if len(data) > MAX_HANDSHAKE:
            raise ValueError(f"rlogin handshake longer than {MAX_HANDSHAKE} bytes")
        return None
    _, client, server, term, rest = fields
    kind = bbs_text(term).partition("/")[0]
    said = choice(kind).charset or ""  # a Japanese BBS's gateway (``ansi-sjis``) sends the handle in its charset
    codec = terminal.codec(said) if said in terminal.JAPANESE else "cp437"
    return Handshake(bbs_text(client, codec), bbs_text(server, codec), kind), rest


def take_windows(data: bytes) -> tuple[bytes, list[tuple[int, int]], bytes]:
    """Split window-size controls (``FF FF s s`` and 8 bytes) out of the key stream: the keys, the sizes as
    (columns, rows), and an unfinished control at the end to prepend to the next data. Any other FF is a key."""
    keys = bytearray()
    sizes: list[tuple[int, int]] = []
    at = 0
    while (found := data.find(b"\xff", at)) >= 0:
        keys += data[at:found]
        rest = data[found:]
        if len(rest) < WINDOW_LENGTH and WINDOW_MAGIC.startswith(rest[:len(WINDOW_MAGIC)]):
            return bytes(keys), sizes, rest
        if rest.startswith(WINDOW_MAGIC):
            rows, columns, _, _ = struct.unpack("!HHHH", rest[len(WINDOW_MAGIC):WINDOW_LENGTH])
            sizes.append((columns, rows))
            at = found + WINDOW_LENGTH
        else:
            keys.append(0xFF)
            at = found + 1
    keys += data[at:]
    return bytes(keys), sizes, b""


def choice(term: str) -> terminal.Choice:
    """Mode and charset for an rlogin terminal type: as TTYPE decides (``dumb`` is ASCII, ``xterm-utf-8`` UTF-8,
    ``ansi-bbs`` or ``syncterm`` CP437); a Unix terminal emulator (``xterm``, ``screen``: the ``rlogin`` program
    run in one) UTF-8; else ANSI colour in CP437, as a BBS's gateway sends it."""
    said = terminal.TerminalTypes(names=[term]).choice() if term else terminal.Choice()
    unix = term.lower().startswith(terminal.UNIX_TERMINALS)
    return terminal.Choice(said.mode or "ansi", said.charset or ("utf-8" if unix else "cp437"))


class RloginLines(LineProtocol):
    """One rlogin connection: the handshake, then keys edited into lines for the ``Connection``."""

    newline = "\r\n"

    def __init__(self, factory: RloginFactory, address: str) -> None:
        super().__init__(factory, address)
        self.trust = factory.trust
        self.handshake: Handshake | None = None
        self.pending = b""  # the handshake so far, then an unfinished window-size control
        self.keyboard = Keyboard()
        self.entering: tuple[str, str] | None = None  # (name, tag) to log in once the window size is known
        self.held = b""  # keys typed before that
        self.window_wait: IDelayedCall | None = None

    def begin(self) -> None:
        """Nothing until the handshake: the caller is logged in by it, not asked for a name."""

    def timeoutConnection(self) -> None:
        if self.handshake is None:
            self.refuse("no rlogin handshake in time: goodbye")  # i18n: not text (rlogind's line: ASCII)
        else:
            super().timeoutConnection()

    def dataReceived(self, data: bytes) -> None:
        data = self.pending + data
        self.pending = b""
        if self.handshake is None:
            try:
                read = read_handshake(data)
            except ValueError as exc:
                self.refuse(str(exc))
                return
            if read is None:
                self.pending = data
                return
            self.handshake, data = read
            if not self.admit(self.handshake):
                return
        keys, sizes, self.pending = take_windows(data)
        for columns, rows in sizes:
            self.connection.session.width = terminal.clamp_width(columns)
            self.connection.session.rows = rows
        if self.entering is not None:  # not logged in yet: keys wait for the login
            self.held += keys
            if sizes:
                self.enter()
            return
        self.keys(keys)

    def enter(self) -> None:
        """Log the caller in: the window size came, or was waited for long enough (Synchronet's gateway never
        sends it). Then the keys they typed meanwhile."""
        if self.window_wait is not None and self.window_wait.active():
            self.window_wait.cancel()
        entering, self.entering, self.window_wait = self.entering, None, None
        if entering is None or self.dropped or self.connection.gone:
            return
        self.connection.start_trusted(*entering)
        held, self.held = self.held, b""
        self.keys(held)

    def admit(self, handshake: Handshake) -> bool:
        """A trusted BBS's caller is answered and logged in; anyone else is refused in one line."""
        tag = self.trust.tag_for(self.address, handshake.server_user)
        if tag is None:
            log.warn("rlogin from {peer} refused: not a trusted BBS", peer=self.address or "?")
            self.refuse("this rlogin port takes callers of the BBSes its sysop trusts only; "  # i18n: not text
                        "connect by telnet")
            return False
        name = bbs_name(handshake.client_user, tag)
        if name is None:
            handle = handshake.client_user[:40]  # rlogind's lines are ASCII: English, as the ban's below
            self.refuse(f"the handle {handle!r} has too few of A-Z a-z 0-9 _ - to be a name")  # i18n: not text
            return False
        sysops = self.connection.lobby.sysops
        banned = None if sysops is None else (
            sysops.refusal("address", self.connection.session.address) or sysops.refusal("name", name))
        if banned is not None:  # refused at the handshake, as rlogind refuses: the door exits 1 with the line
            self.refuse(english(banned))  # rlogind's line is ASCII: English
            return False
        said = choice(handshake.terminal)
        session = self.connection.session
        session.adopt(said.mode, said.charset)  # the keys are read in that charset too (``Keyboard``)
        session.terminal = True  # a BBS caller's terminal, often with no scrollback: paged (mudwiz/pager.py)
        self.accept()
        log.info("rlogin from {peer}: {name} (terminal {term!r})", peer=self.address or "?", name=name,
                 term=handshake.terminal)
        self.entering = (name, tag)
        self.window_wait = self.callLater(WINDOW_WAIT, self.enter)
        return True

    def accept(self) -> None:
        """``\\0`` (the handshake is taken), then the urgent ``0x80`` asking for the window size. Both on the
        socket itself, in that order: nothing else has been written yet, so the transport's buffer is empty."""
        transport: Any = self.transport
        if not ITCPTransport.providedBy(transport):
            transport.write(b"\0")
            return
        sock = transport.getHandle()  # type: ignore[attr-defined]  # tcp.Connection has it; ITCPTransport does not
        try:
            sock.send(b"\0")
            sock.send(URGENT_WINDOW, socket.MSG_OOB)
        except OSError:
            transport.write(b"\0")

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        if self.window_wait is not None and self.window_wait.active():
            self.window_wait.cancel()
        super().connectionLost(reason)

    def refuse(self, reason: str) -> None:
        """rlogind's refusal: ``\\1`` instead of the ``\\0``, one line, then closed."""
        if self.transport is not None:
            self.dropped = True
            self.transport.write(b"\x01mudwiz: " + reason.encode("ascii", errors="replace") + b"\r\n")
            self.transport.loseConnection()


class RloginFactory(LineFactory):
    """The rlogin listener: the shared lobby and limits, and the BBSes trusted (``Trust``)."""

    def __init__(self, *args: Any, trust: Trust, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.trust = trust

    def framing(self, address: str) -> Protocol:
        return RloginLines(self, address)
