"""A connection handed to another worker of ``mudwiz serve --workers N``: its socket passed over a UNIX socket
(``SCM_RIGHTS``) with its state, so that the person plays on the process that hosts their table instead of as a
visitor there (mudwiz/cluster/visits.py, some five times the cost of a move at a table of one's own process).

Each worker receives on a ``SOCK_SEQPACKET`` socket of its own in the data directory (``handoff-<node>.sock``),
each other worker linked to it at its first handover; one message is one connection: its descriptor, and its
state as JSON: the framing's (which transport, the telnet options agreed and the terminal's answers, character
mode and the line being edited, bytes read and not yet acted on, bytes written and not yet sent) and the
connection's (mudwiz/carry.py), with the line that moves it (``/join N``), which the new process then carries
out as its own.

The sending process lets go of the socket without ``shutdown()`` (Twisted shuts down a socket it closes in
order, which would end the connection for the receiver too) and without ``SO_LINGER`` (an abort's reset would
come when the receiver closes it). Only plain telnet and raw connections move: SSH's session and TLS are
encrypted state no other process has, rlogin is not worth the trouble, and an MCCP2 stream cannot move
mid-stream: those stay visitors. If the message cannot be sent (the worker gone, the link's buffer full), the line goes
the visitor's way."""

from __future__ import annotations

import array
import errno
import json
import os
import socket
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from twisted.application import service
from twisted.internet import tcp, unix
from twisted.internet.abstract import FileDescriptor
from twisted.internet.error import ConnectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure

from mudwiz import carry
from mudwiz.net.lines import LineProtocol
from mudwiz.net.listener import LineFactory
from mudwiz.net.raw import RawLines
from mudwiz.net.telnet import TelnetLines
from mudwiz.net.telnetstream import _Telnet
from mudwiz.session import Session

log = Logger()

MAX_PENDING = 1 << 15  # bytes written and not yet sent past which a connection does not move (a slow reader)
MAX_MESSAGE = 1 << 17  # the largest state received
CONNECT_WITHIN = 1.0  # seconds a worker waits to link to another (once: the link is kept)
TELNET_FLAGS = ("telnet", "naws_seen", "env_seen", "mssp_sent", "hiding", "line_ended", "charset_agreed",
                "charset_answered")
STREAM_FLAGS = ("decided", "cr_ended", "answers", "requests", "faulted")


def socket_path(directory: str, node: str) -> str:
    """Where ``node`` receives connections handed to it."""
    return str(Path(directory) / f"handoff-{node}.sock")


def framing_of(session: Session) -> LineProtocol | None:
    """The telnet or raw framing under a session, or None (a bot, a visitor, SSH, rlogin, a test's session)."""
    connection = getattr(session, "connection", None)
    protocol = getattr(getattr(connection, "paged", None), "outbox", None)
    return protocol if isinstance(protocol, (TelnetLines, RawLines)) else None


def unmovable(protocol: LineProtocol) -> str | None:
    """Why this connection's framing cannot move now, or None. Reading paused is no reason: the line that moves it
    is the last one acted on (``ready_to_move``), so the lines behind it are still bytes, in the framing's buffer
    (carried, ``framing_state``) or the socket's (they go with it), acted on after it where it goes; a paused
    connection is one whose /join waited for word of its table, or whose turn's share was spent. Keys edited here
    and not yet acted on (character mode) and the tail of a line refused as too long are not carried."""
    sock = protocol.socket()
    if type(sock) not in (tcp.Server, unix.Server) or sock.disconnecting or protocol.dropped:
        return "not a plain socket, or closing"  # i18n: not text (the log's reason)
    if protocol.discarding or protocol.lines_left is not None or protocol.keys_left:
        return "lines waiting"  # i18n: not text (the log's reason)
    if len(sock.dataBuffer) - sock.offset + sum(map(len, sock._tempDataBuffer)) > MAX_PENDING:
        return "output waiting"  # i18n: not text (the log's reason)
    if isinstance(protocol, TelnetLines):
        stream: Any = protocol.transport
        if not isinstance(stream, _Telnet) or stream.compressor is not None or stream.state != "data" \
                or stream.skipping or protocol.settling is not None or protocol.chars.state == "asking":
            return "MCCP2, or telnet negotiation under way"  # i18n: not text (the log's reason)
        if any(side.negotiating for state in stream.options.values() for side in (state.us, state.him)):
            return "telnet negotiation under way"  # i18n: not text (the log's reason)
    return None


def framing_state(protocol: LineProtocol, line: str) -> dict[str, Any]:
    """The framing's state as JSON (bytes as latin-1 text): all but the socket."""
    sock: Any = protocol.socket()
    pending = bytes(sock.dataBuffer[sock.offset:]) + b"".join(sock._tempDataBuffer)
    state: dict[str, Any] = {"kind": "raw" if isinstance(protocol, RawLines) else "telnet", "line": line,
                             "buffer": protocol._buffer.decode("latin-1"), "cr_ended": protocol.cr_ended,
                             "pending": pending.decode("latin-1")}
    if isinstance(protocol, TelnetLines):
        stream: Any = protocol.transport
        state["telnet"] = {name: getattr(protocol, name) for name in TELNET_FLAGS}
        state["stream"] = {name: getattr(stream, name) for name in STREAM_FLAGS}
        state["options"] = {str(option[0]): [side.state for side in (s.us, s.him)]
                            for option, s in stream.options.items()}
        state["ttypes"] = {"names": protocol.ttypes.names, "mtts": protocol.ttypes.mtts, "done": protocol.ttypes.done}
        state["chars"] = [protocol.chars.state, protocol.chars.ours_sga]
        keyboard = protocol.keyboard
        if keyboard is not None:
            editor = keyboard.editor
            state["editor"] = {"chars": "".join(editor.chars), "history": editor.history,
                               "after_cr": editor.after_cr, "secret": editor.secret}
    return state


def restore_framing(protocol: LineProtocol, state: dict[str, Any]) -> None:
    """``framing_state``'s state in a framing just made on the handed socket, before anything is read from it."""
    protocol.cr_ended = bool(state.get("cr_ended"))
    if not isinstance(protocol, TelnetLines):
        return
    from mudwiz.net.lineedit import Keyboard
    from mudwiz.net.telnet import GMCP

    stream: Any = protocol.transport
    for name, value in state.get("telnet", {}).items():
        setattr(protocol, name, value)
    for name, value in state.get("stream", {}).items():
        setattr(stream, name, value)
    for option, (us, him) in state.get("options", {}).items():
        sides = stream.getOptionState(bytes([int(option)]))
        sides.us.state, sides.him.state = us, him
    ttypes = state.get("ttypes", {})
    protocol.ttypes.names, protocol.ttypes.mtts = list(ttypes.get("names", [])), ttypes.get("mtts")
    protocol.ttypes.done = bool(ttypes.get("done"))
    protocol.chars.state, protocol.chars.ours_sga = state.get("chars", ["line", False])
    editor = state.get("editor")
    if editor is not None:
        protocol.keyboard = Keyboard()
        protocol.keyboard.editor.chars = list(editor["chars"])
        protocol.keyboard.editor.history = list(editor["history"])
        protocol.keyboard.editor.after_cr, protocol.keyboard.editor.secret = editor["after_cr"], editor["secret"]
    if stream.getOptionState(GMCP).us.state == "yes":
        protocol.connection.on_message = protocol.gmcp_message


def ready_to_move(session: Session, text: str) -> tuple[LineProtocol, str] | None:
    """The session's framing and the line being acted on, when ``text`` is that line and the connection can move
    now (``carry.movable``, ``unmovable``); else None."""
    protocol = framing_of(session)
    acting = getattr(protocol, "acting", ())  # the line being acted on, as the user sent it (lines.py)
    line = acting[0] if acting else None
    if protocol is None or not isinstance(line, str) or text.strip() not in line \
            or not carry.movable(protocol.connection) or unmovable(protocol):
        return None
    return protocol, line


def let_go(protocol: LineProtocol) -> None:
    """This process is done with the socket: nothing more is read, written or acted on, and its descriptor is
    closed without ``shutdown()``, so the connection goes on in the process it was handed to. The framing is told
    it is lost (the connection counts and login timer let go) as for any end."""
    sock: Any = protocol.socket()
    protocol.dropped = protocol.paused = True
    sock.stopReading()
    sock.stopWriting()
    sock.dataBuffer, sock.offset, sock._tempDataBuffer, sock._tempDataLen = b"", 0, [], 0
    sock._shouldShutdown = False  # what Twisted does for a socket that is not only its own
    sock.disconnecting = True  # no line after the one that moved it is acted on here
    gone = Failure(ConnectionDone("handed to another worker"))  # i18n: not text (the log's reason)
    sock.reactor.callLater(0, sock.connectionLost, gone)


class Hand:
    """The sending end: ``__call__(session, node, text)`` hands the session's connection to ``node`` (True), or
    says it cannot (False: the line goes the visitor's way). ``text`` is the line that moves it, as the connection
    read it: the framing's last line must be it (a line that waited for word of its table may have had others
    typed after it). One ``SOCK_SEQPACKET`` connection a worker, made at the first handover to it: a message is one
    connection, and a burst of them waits in the socket's buffer (a datagram socket's queue holds ten)."""

    def __init__(self, directory: str, me: str) -> None:
        self.directory, self.me = directory, me
        self.links: dict[str, socket.socket] = {}

    def link(self, node: str) -> socket.socket:
        link = self.links.get(node)
        if link is None:
            link = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            link.settimeout(CONNECT_WITHIN)
            try:
                link.connect(socket_path(self.directory, node))
            except OSError:
                link.close()
                raise
            link.setblocking(False)
            self.links[node] = link
        return link

    def send(self, node: str, message: bytes, fd: int) -> None:
        """``message`` and the descriptor ``fd`` to ``node``, on a new link if the last one broke (it restarted)."""
        rights = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))]
        old = node in self.links
        try:
            self.link(node).sendmsg([message], rights, socket.MSG_NOSIGNAL)
        except OSError as exc:
            if exc.errno not in (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN) or not old:
                raise
            self.links.pop(node).close()
            self.link(node).sendmsg([message], rights, socket.MSG_NOSIGNAL)

    def __call__(self, session: Session, node: str, text: str) -> bool:
        moving = ready_to_move(session, text)
        if moving is None or not os.path.exists(socket_path(self.directory, node)):
            protocol = framing_of(session)
            why = (unmovable(protocol) if protocol is not None else None) or (
                "no handoff socket" if moving is not None  # i18n: not text (the log's reason)
                else "not the line acted on, or not movable now")  # i18n: not text (the log's reason)
            log.info("{name} not handed to {node} ({why}): a visitor there", name=session.name, node=node, why=why)
            return False
        protocol, line = moving
        protocol.flush()  # what this process said to the user so far goes first
        state = {"framing": framing_state(protocol, line), "connection": carry.snapshot(protocol.connection),
                 "from": self.me}
        try:
            self.send(node, json.dumps(state).encode(), protocol.socket().fileno())
        except OSError as exc:  # gone, or its buffer full: a visitor this time
            log.info("{name} not handed to {node} ({why}): a visitor there", name=session.name, node=node, why=exc)
            return False
        carry.leave(protocol.connection)
        let_go(protocol)
        log.info("{name} handed to {node} for {line!r}", name=session.name, node=node, line=line)
        return True


def adopt(reactor: Any, fd: int, state: dict[str, Any], factories: Mapping[str, LineFactory]) -> None:
    """A handed socket (``fd``, closed here) made this process's connection, as it stood, and its line carried
    out here."""
    def connect(factory: LineFactory) -> None:
        probe = socket.socket(fileno=os.dup(fd))
        family = probe.family
        probe.close()
        reactor.adoptStreamConnection(fd, family, factory)

    try:
        take(state, factories, connect)
    finally:
        os.close(fd)


def take(state: dict[str, Any], factories: Mapping[str, LineFactory],
         connect: Callable[[LineFactory], None]) -> LineProtocol | None:
    """A connection moved here (``state``: ``Hand``'s), made this process's as it stood by ``connect(factory)``
    (which puts the factory's protocol on its transport: a handed socket, or a relay's, net/relayed.py), and the
    line that moved it carried out here. None if the framing is not served here or the limits refused it."""
    framing = state["framing"]
    factory = factories.get(framing["kind"])
    if factory is None:
        return None
    made: list[LineProtocol] = []

    def resume(protocol: LineProtocol) -> None:
        restore_framing(protocol, framing)
        pending = framing["pending"].encode("latin-1")
        if pending:
            protocol.socket().write(pending)  # already encoded and escaped where it came from
        arrived = getattr(protocol.connection.lobby.directory, "arrived_from", None)  # a cluster's presence
        if arrived is not None:
            arrived(state["connection"]["session"]["name"], str(state.get("from")))
        carry.restore(protocol.connection, state["connection"])
        made.append(protocol)

    factory.resuming = resume
    try:
        connect(factory)
    finally:
        factory.resuming = None
    if not made:  # refused by the limits here: the connection is closed, the user must connect again
        return None
    protocol = made[0]
    if framing["line"]:  # (none when a relayed connection is taken back: net/relay.py)
        protocol._act(protocol.connection.receive, framing["line"])
    rest = framing["buffer"].encode("latin-1")
    if rest and not protocol.dropped:
        protocol.dataReceived(rest)
    return protocol


class Link(FileDescriptor):
    """One worker's link to this one: each message a connection handed over, its descriptor with it."""

    def __init__(self, reactor: Any, sock: socket.socket, factories: Mapping[str, LineFactory]) -> None:
        super().__init__(reactor)
        self.sock, self.factories = sock, factories
        sock.setblocking(False)

    def fileno(self) -> int:
        return self.sock.fileno()

    def doRead(self) -> Any:
        while True:
            fds = array.array("i")
            try:
                data, ancillary, _, _ = self.sock.recvmsg(MAX_MESSAGE, socket.CMSG_LEN(fds.itemsize),
                                                          socket.MSG_CMSG_CLOEXEC)
            except (BlockingIOError, InterruptedError):
                return None
            except OSError as exc:
                return exc
            if not data:
                return ConnectionDone()  # the other worker stopped
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    fds.frombytes(payload[:len(payload) - len(payload) % fds.itemsize])
            if len(fds) != 1:
                for fd in fds:
                    os.close(fd)
                continue
            try:
                adopt(self.reactor, fds[0], json.loads(data), self.factories)
            except Exception:
                log.failure("a connection handed to this worker could not be taken")

    def connectionLost(self, reason: Failure) -> None:
        super().connectionLost(reason)
        self.sock.close()


class Receiver(FileDescriptor):
    """The receiving end: the socket other workers link to (``handoff-<node>.sock``), and their links."""

    def __init__(self, reactor: Any, path: str, factories: Mapping[str, LineFactory]) -> None:
        super().__init__(reactor)
        self.path = path
        self.factories = factories
        self.links: list[Link] = []
        if os.path.exists(path):  # a dead predecessor's (this node's lock is held: nobody else's)
            os.unlink(path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.sock.setblocking(False)
        self.sock.bind(path)
        self.sock.listen(64)

    def fileno(self) -> int:
        return self.sock.fileno()

    def doRead(self) -> None:
        while True:
            try:
                sock, _ = self.sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            link = Link(self.reactor, sock, self.factories)
            self.links = [each for each in self.links if each.connected] + [link]
            link.connected = True
            link.startReading()

    def close(self) -> None:
        self.stopReading()
        self.sock.close()
        for link in self.links:
            if link.connected:
                link.stopReading()
                link.sock.close()
        if os.path.exists(self.path):
            os.unlink(self.path)


class Receiving(service.Service):
    """The receiver while the node runs (started with the listeners, once the node has joined)."""

    def __init__(self, path: str, factories: dict[str, LineFactory], reactor: Any = None) -> None:
        self.path, self.factories, self.reactor = path, factories, reactor
        self.receiver: Receiver | None = None

    def startService(self) -> None:
        super().startService()
        if self.reactor is None:
            from twisted.internet import reactor

            self.reactor = reactor
        self.receiver = Receiver(self.reactor, self.path, self.factories)
        self.receiver.startReading()

    def stopService(self) -> None:
        super().stopService()
        if self.receiver is not None:
            self.receiver.close()
            self.receiver = None

