"""SSH (``MUDWIZ_SSH``, off unless set): conch's SSH server under the shared line protocol (lines.py), for BBS
hosts and for people who would rather not send a password in the clear. Knows no rules.

The SSH user name is the mudwiz name and the SSH password proves it, so there is no name prompt: a user is in the
lobby right after the welcome. A registered name takes its account's password (checked by ``Accounts`` in its
password threads; wrong ones count towards the same failed-login limit as on telnet, per address and per name); a
guest's name held while its guest is away, or online, takes the guest's resume code (a name online is taken over
with its proof, as on the other ports); any other name is a guest's, let in by SSH's ``none`` method with no
password asked, or with any password (docs/protocol.md, SSH). Why a login is refused (a wrong password, the limit)
is sent as an SSH banner, which ``ssh`` shows. A name refused once in (not a name, a BBS caller's online, banned)
is one line, and the session ends.

One session channel a connection, with a PTY or without. With a PTY (``ssh`` in a terminal) the client sends
each key as it is pressed and echoes nothing, so the server edits the line as a BBS does (lineedit.py, as it
does for rlogin): it echoes, rubs out, and ends lines; the PTY's terminal type picks the mode as telnet's TTYPE
does (``terminal.TerminalTypes``), its window's width (and each ``window-change``) the width as NAWS does.
Without one (``ssh -T``, a program) the bytes are lines as on the raw port. ``exec`` runs nothing: it is told
so in one line.

The host key is made in the data directory on the first start (``ssh_host_ed25519_key``, mode 0600, and its
``.pub``) and read from there after; its fingerprint is logged at start, as ``ssh`` shows it. The host key and
the checking of names and passwords are in sshauth.py; here, the session, its PTY and the connection's transport.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

from twisted.conch.avatar import ConchUser
from twisted.conch.error import ConchError
from twisted.conch.interfaces import EnvironmentVariableNotPermitted, IConchUser, ISession, ISessionSetEnv
from twisted.conch.ssh import common, session
from twisted.conch.ssh.connection import (
    MSG_CHANNEL_OPEN_FAILURE,
    OPEN_ADMINISTRATIVELY_PROHIBITED,
    OPEN_UNKNOWN_CHANNEL_TYPE,
    SSHConnection,
)
from twisted.conch.ssh.factory import SSHFactory as ConchSSHFactory
from twisted.conch.ssh.transport import DISCONNECT_BY_APPLICATION, SSHServerTransport
from twisted.cred.portal import IRealm, Portal
from twisted.internet.interfaces import IDelayedCall
from twisted.internet.protocol import Protocol, connectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure
from zope.interface import implementer

from mudwiz.connection import LOGIN_TIMEOUT
from mudwiz.lobby import Lobby
from mudwiz.net import environ, terminal
from mudwiz.net.budget import Budget
from mudwiz.net.limits import ConnectionCounter
from mudwiz.net.lineedit import Keyboard
from mudwiz.net.lines import MAX_BACKLOG, LineProtocol
from mudwiz.net.listener import LineFactory
from mudwiz.net.sshauth import HOST_KEY, Login, Names, UserAuth, fingerprint, host_key
from mudwiz.net.tcp import tune
from mudwiz.outflow import Outflow
from mudwiz.texts import default, now, speaking

log = Logger()

@implementer(IRealm)
class Realm:
    """Each login a ``Player``."""

    def requestAvatar(self, avatarId: Any, mind: Any, *interfaces: Any) -> tuple[Any, Player, Any]:
        if IConchUser not in interfaces:
            raise NotImplementedError("only SSH logins")
        player = Player(avatarId)
        return IConchUser, player, player.logout


# -- the session


@implementer(ISession, ISessionSetEnv)
class Player(ConchUser):
    """A logged-in SSH connection: its one session channel, the PTY's terminal type and window, and the shell's
    line protocol once it runs."""

    def __init__(self, login: Login) -> None:
        super().__init__()
        self.login = login
        self.channelLookup[b"session"] = session.SSHSession
        self.opened = False  # the session channel is open: no second one
        self.pty = False
        self.choice = terminal.Choice()
        self.columns = self.rows = 0  # the window's, as the PTY said: 0 for none
        self.locale: dict[str, str] = {}  # the client's LANG, LC_ALL, LC_MESSAGES, as its env requests said
        self.lines: SSHLines | None = None
        self.ssh: SSHServerTransport | None = None

    def refusal(self, kind: bytes) -> tuple[str, int] | None:
        """Why a channel of ``kind`` is not given, and its SSH reason code; None if it is. One session a
        connection and nothing else (no port forwarding, no agent)."""
        if kind not in self.channelLookup:
            return "unknown channel type", OPEN_UNKNOWN_CHANNEL_TYPE  # i18n: not text (SSH's reason)
        refused = "one session a connection"  # i18n: not text (SSH's reason, ASCII)
        return (refused, OPEN_ADMINISTRATIVELY_PROHIBITED) if self.opened else None

    def lookupChannel(self, channelType: bytes, windowSize: int, maxPacket: int, data: bytes) -> Any:
        refused = self.refusal(channelType)
        if refused is not None:
            raise ConchError(*refused)
        channel = super().lookupChannel(channelType, windowSize, maxPacket, data)
        self.opened = True
        return channel

    def getPty(self, term: bytes, windowSize: tuple[int, int, int, int], modes: Any) -> None:
        """The terminal type picks the mode as a TTYPE answer does; the window (rows, columns, ...) the width."""
        self.pty = True
        types = terminal.TerminalTypes()
        types.add(term)
        self.choice = types.choice()
        self.columns, self.rows = windowSize[1], windowSize[0]

    def setEnv(self, name: bytes, value: bytes) -> None:
        """An env request (OpenSSH's ``SendEnv LANG LC_*``): the locale is taken, for the language; else refused."""
        key = name.decode("ascii", "replace")
        if key not in environ.WANTED:
            raise EnvironmentVariableNotPermitted(name)
        self.locale[key] = value.decode("ascii", "replace")

    def describe(self, lines: SSHLines) -> None:
        """What the PTY and the locale said, onto the connection's session before its first word."""
        lang = environ.chosen(self.locale)
        if lang is not None:
            lines.connection.session.lang, lines.connection.session.lang_heard = lang, True
        if self.pty:
            lines.connection.session.adopt(self.choice.mode, self.choice.charset)
            lines.connection.session.width = terminal.clamp_width(self.columns)
            lines.connection.session.rows, lines.connection.session.terminal = self.rows, True

    def openShell(self, proto: Any) -> None:
        ssh = proto.session.conn.transport
        assert isinstance(ssh, MudTransport)
        self.ssh = ssh
        self.lines = lines = SSHLines(ssh.mud(), ssh, self)
        lines.makeConnection(Channel(proto))
        proto.makeConnection(session.wrapProtocol(lines))

    def execCommand(self, proto: Any, command: bytes) -> None:
        """A command (``ssh HOST CMD``) is not a shell: one line, and the session ends with status 1."""
        self.ssh = proto.session.conn.transport
        with speaking(environ.chosen(self.locale) or default()):  # the client's locale, as a shell's
            said = now("mudwiz runs no commands: log in with ssh and no command to play")
        proto.write(said.encode() + b"\r\n")
        exit_status(proto, 1)
        proto.loseConnection()

    def windowChanged(self, newWindowSize: tuple[int, int, int, int]) -> None:
        """The window was resized: what is drawn from now on fits the new width (NAWS does the same)."""
        self.columns, self.rows = newWindowSize[1], newWindowSize[0]
        if self.lines is not None and self.pty:
            self.lines.connection.session.width = terminal.clamp_width(self.columns)
            self.lines.connection.session.rows = self.rows

    def eofReceived(self) -> None:
        """The client has nothing more to send (``ssh -T`` reading a file): end the session, as ``/quit``."""
        if self.lines is not None:
            self.lines.close()

    def closed(self) -> None:
        """The session channel is closed both ways: the connection has no more use (one channel a connection)."""
        if self.ssh is not None:
            self.ssh.loseConnection()

    def logout(self) -> None:
        """The SSH connection is gone; the line protocol has already been told (its channel closed)."""


class Channel:
    """The session channel as the line protocol's transport: conch's end of it, with the ``disconnecting`` that
    Twisted's line reader looks at (a line read after ``/quit`` is not acted on)."""

    disconnecting = False

    def __init__(self, proto: Any) -> None:
        self.proto = proto
        self.session = proto.session

    def write(self, data: bytes) -> None:
        self.proto.write(data)

    def writeSequence(self, data: list[bytes]) -> None:
        self.proto.write(b"".join(data))

    def loseConnection(self) -> None:
        self.disconnecting = True
        self.proto.loseConnection()

    def getPeer(self) -> Any:
        return self.proto.getPeer()

    def getHost(self) -> Any:
        return self.proto.getHost()


def exit_status(proto: Any, status: int) -> None:
    """Tell the client the session's exit status, so ``ssh`` exits with it rather than with 255."""
    channel = proto.session
    if channel.conn is not None and not channel.closing:
        channel.conn.sendRequest(channel, b"exit-status", struct.pack(">L", status))


class SSHLines(LineProtocol):
    """The line protocol on a session channel; with a PTY, the keys are edited into lines here (lineedit.py)."""

    newline = "\r\n"

    def __init__(self, factory: SSHFactory, ssh: MudTransport, player: Player) -> None:
        super().__init__(factory, ssh.address)
        self.ssh, self.player = ssh, player
        self.keyboard = Keyboard() if player.pty else None

    def socket(self) -> Any:
        return self.ssh.transport  # the TCP connection under SSH, where a peer that does not read shows

    def connectionMade(self) -> None:
        """Logged in already: the session starts with the name SSH proved (no login timer: the SSH connection
        had its own until here)."""
        socket = self.socket()
        if hasattr(socket, "registerProducer"):
            socket.registerProducer(self.backlog, True)
        self.player.describe(self)
        self.connection.start_as(self.player.login.name, self.player.login.proof)

    def logged_in(self) -> None:
        self.ssh.logged_in()

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        self.connection.lost()  # the limits count the SSH connection: MudTransport tells them

    def unread(self, size: int) -> bool:
        """Also counts what the SSH channel holds back for want of window: a client that stops reading may still
        take TCP packets but stop opening its window, and conch would keep all the rest for it."""
        held = len(getattr(getattr(self.transport, "session", None), "buf", b"") or b"")
        if held + size > MAX_BACKLOG and not self.dropped:
            self.backlog.paused, self.backlog.pending = True, max(self.backlog.pending, held)
        return super().unread(size)

    def close(self) -> None:
        self.flush()  # held text before the exit status
        if self.transport is not None:
            exit_status(self.transport, 0 if self.connection.logged_in else 1)  # 1: the name was refused
        super().close()


class Connection(SSHConnection):
    """Conch's connection service, but a channel the player does not give (a port forwarding beside the session or
    alone, an agent's) is refused with its reason and no log line: conch logs every refusal as a critical
    traceback, which anyone, a guest needing no password, could repeat to fill the log."""

    def ssh_CHANNEL_OPEN(self, packet: bytes) -> None:
        kind, rest = common.getNS(packet)
        player = getattr(self.transport, "avatar", None)
        refused = player.refusal(kind) if isinstance(player, Player) else None
        if refused is None:
            super().ssh_CHANNEL_OPEN(packet)
            return
        (sender,) = struct.unpack(">L", rest[:4])
        assert self.transport is not None  # a packet came through it
        self.transport.sendPacket(MSG_CHANNEL_OPEN_FAILURE, struct.pack(">2L", sender, refused[1])
                                  + common.NS(refused[0].encode()) + common.NS(b""))


class MudTransport(SSHServerTransport):
    """Conch's SSH server transport with the connection's address, its login timer (the SSH login and the
    shell's start, within the login timeout) and its place in the connection limits, held from TCP connect to
    close like any other transport's connection."""

    address = ""
    counted_in = False  # the limits count it as logged in
    timer: IDelayedCall | None = None

    def mud(self) -> SSHFactory:
        assert isinstance(self.factory, SSHFactory)
        return self.factory

    def connectionMade(self) -> None:
        super().connectionMade()
        tune(self.transport)
        timeout = self.mud().login_timeout
        if timeout > 0:
            self.timer = self.mud().lobby.clock.callLater(timeout, self.expired, timeout)

    def receiveError(self, reasonCode: int, description: bytes) -> None:
        """The client's disconnect message. Conch logs every one as an error, an ``ssh`` that ends its session
        (``disconnected by user``) too: one error line at every logout. That one is no error; others stay."""
        if reasonCode == DISCONNECT_BY_APPLICATION:
            return
        super().receiveError(reasonCode, description)

    def expired(self, timeout: float) -> None:
        self.timer = None
        goodbye = f"no login within {timeout:g} s: goodbye"  # i18n: not text (SSH's disconnect reason: ASCII)
        self.sendDisconnect(DISCONNECT_BY_APPLICATION, goodbye.encode())

    def logged_in(self) -> None:
        """The shell started and the name was accepted: no more login timer, and logged in for the limits."""
        self.stop_timer()
        counter = self.mud().counter
        if counter is not None and not self.counted_in:
            counter.logged_in(self.address)
        self.counted_in = True

    def stop_timer(self) -> None:
        if self.timer is not None and self.timer.active():
            self.timer.cancel()
        self.timer = None

    def connectionLost(self, reason: Failure | None = None) -> None:
        self.stop_timer()
        counter = self.mud().counter
        if counter is not None:
            counter.closed(self.address, self.counted_in)
        super().connectionLost(reason)


class SSHFactory(LineFactory, ConchSSHFactory):  # type: ignore[misc]  # LineFactory's buildProtocol admits first
    """The SSH listener: the same lobby, login timeout and connection limits as telnet's and raw's, the host key
    from ``directory`` (the data directory), and names and passwords checked by ``Names``."""

    protocol = MudTransport
    services = {b"ssh-userauth": UserAuth, b"ssh-connection": Connection}

    def __init__(self, lobby: Lobby, motd: str, login_timeout: float = LOGIN_TIMEOUT,
                 counter: ConnectionCounter | None = None, *, outflow: Outflow, directory: str,
                 budget: Budget | None = None) -> None:
        super().__init__(lobby, motd, login_timeout, counter, outflow=outflow, budget=budget)
        key = host_key(directory)
        self.publicKeys = {key.sshType(): key.public()}
        self.privateKeys = {key.sshType(): key}
        self.names = Names(lobby)
        self.portal = Portal(Realm(), [self.names])
        log.info("SSH host key {fingerprint} ({type}) in {path}", fingerprint=fingerprint(key), type=key.type(),
                 path=str(Path(directory) / HOST_KEY))

    def framing(self, address: str) -> Protocol:
        transport = ConchSSHFactory.buildProtocol(self, None)
        assert isinstance(transport, MudTransport)
        transport.address = address
        return transport
