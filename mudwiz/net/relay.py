"""A connection relayed to the node that hosts its table, across addresses (another host, or a node that does not
share this one's data directory): the sending end. Where ``--workers`` hands the socket itself over
(net/handed.py), nodes on different addresses cannot; so the socket stays here and its bytes go to the table's
node over one TCP link a node pair (net/relaylink.py), unparsed, and that node's bytes come back the same way and
are written to the socket as they are. The other node runs the connection as one of its own users
(net/relayed.py), the person plays at a local table there, and this node only copies bytes.

What moves, when, and what is carried is what handoff moves (``ready_to_move``: plain telnet and raw, at no
table, nothing pending), with the line that moves it; the link must be up (it is made as soon as the other node's
address is heard: cluster/relays.py), or the line goes the visitor's way this time. If the link drops, or the
other node dies or stops, each connection relayed over it goes on here (``take_back``), a visitor of the table it
was at, as a visitor whose host is gone (seated again wherever the table is taken over); only if that fails is
the person told in one line and disconnected, their seat kept as for any lost connection."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from itertools import count
from typing import Any

from twisted.internet import defer
from twisted.internet import protocol as tprotocol
from twisted.internet.error import ConnectionDone
from twisted.logger import Logger
from twisted.python.failure import Failure

from mudwiz import carry
from mudwiz.net import terminal
from mudwiz.net.handed import framing_state, ready_to_move, take
from mudwiz.net.lines import LineProtocol
from mudwiz.net.listener import LineFactory
from mudwiz.net.relaylink import CLOSE, DATA, HELLO, OPEN, PAUSE, RESUME, Frames
from mudwiz.net.tcp import write_now
from mudwiz.session import Session
from mudwiz.texts import Later, later
from mudwiz.until import until

log = Logger()
RETRY = 5.0  # seconds between attempts to link to a node whose link could not be made or dropped
GOODBYE_SECONDS = 2.0  # a stop waits at most this long for the relayed connections it closes to go


class Forward(tprotocol.Protocol):
    """The client's socket once relayed: what it sends goes to the link as it is; the socket's write buffer full
    (the client does not read) pauses the host's output for it (``PAUSE``)."""

    def __init__(self, link: Uplink, conn: int, state: dict[str, Any], target: tuple[str, int, bool]) -> None:
        self.link, self.conn = link, conn
        self.state, self.target = state, target  # as relayed, and where to: (node, table, seated)
        self.held = False  # the host asked for no more input for now

    def dataReceived(self, data: bytes) -> None:
        self.link.send(self.conn, DATA, data)

    def connectionLost(self, reason: Failure = tprotocol.connectionDone) -> None:
        if self.link.conns.pop(self.conn, None) is self:
            self.link.send(self.conn, CLOSE)

    def pauseProducing(self) -> None:
        self.link.send(self.conn, PAUSE)

    def resumeProducing(self) -> None:
        self.link.send(self.conn, RESUME)

    def stopProducing(self) -> None:
        pass

    def reading(self, on: bool) -> None:
        transport: Any = self.transport
        if transport is None or not transport.connected:
            return
        if on:
            transport.startReading()
        else:
            transport.stopReading()

    def stranded(self) -> None:
        """The link is gone: one line saying so, in the person's language, and the connection closed."""
        self.goodbye({"type": "notice"},
                     later("the server process hosting your table stopped answering: log in again to find your seat"))

    def goodbye(self, message: dict[str, Any], text: Later) -> None:
        """``text`` as the last line, in the person's language (JSON: ``message`` with it as ``text``), and the
        socket closed once it is written; the table's node is told the client closed it (their seat is kept)."""
        session = self.state["connection"]["session"]
        said = text.into(str(session.get("lang") or "en"))
        line = json.dumps({**message, "text": said}) if session.get("mode") == "json" else said
        transport: Any = self.transport
        if transport is not None and transport.connected:
            transport.write(terminal.encode(line, str(session.get("charset") or "utf-8")) + b"\r\n")
            transport.loseConnection()


class Uplink(Frames):
    """This node's link to one other node: the connections relayed to it, by id. A producer on its own transport:
    when the link's buffer is full, the clients' sockets are read no more until it drains."""

    def __init__(self, relay: Relay, node: str, secret: str) -> None:
        super().__init__()
        self.relay, self.node, self.secret = relay, node, secret
        self.conns: dict[int, Forward] = {}
        self.ready = False
        self.full = False

    def connectionMade(self) -> None:
        transport: Any = self.transport
        transport.setTcpNoDelay(True)
        transport.registerProducer(self, True)
        self.send(0, HELLO, self.secret.encode())
        self.ready = True
        log.info("relay: linked to {node}", node=self.node)

    def frame(self, conn: int, kind: int, payload: bytes) -> None:
        forward = self.conns.get(conn)
        if forward is None:
            return
        transport: Any = forward.transport
        if kind == DATA:
            write_now(transport, payload)
        elif kind == CLOSE:
            del self.conns[conn]
            transport.abortConnection() if payload == b"abort" else transport.loseConnection()
        elif kind in (PAUSE, RESUME):
            forward.held = kind == PAUSE
            forward.reading(not forward.held and not self.full)

    def pauseProducing(self) -> None:
        self.full = True
        for forward in self.conns.values():
            forward.reading(False)

    def resumeProducing(self) -> None:
        self.full = False
        for forward in self.conns.values():
            forward.reading(not forward.held)

    def stopProducing(self) -> None:
        pass

    def connectionLost(self, reason: Failure = tprotocol.connectionDone) -> None:
        self.ended, self.ready = True, False
        if self.relay.links.get(self.node) is self:
            del self.relay.links[self.node]
        stranded, self.conns = list(self.conns.values()), {}
        log.warn("relay: link to {node} lost ({why}): {n} connection(s) taken back", node=self.node,
                 why=reason.getErrorMessage(), n=len(stranded))
        self.relay.again(self.node)
        for forward in stranded:
            try:
                if not self.relay.take_back(forward):
                    forward.stranded()
            except Exception:
                log.failure("relay: {name} not taken back", name=forward.state["connection"]["session"]["name"])
                forward.stranded()


class Relay:
    """The sending end: ``__call__(session, node, text)`` relays the session's connection to ``node`` (True), or
    says it cannot now (False: the line goes the visitor's way). ``known(node, host, port, secret)`` and
    ``gone(node)`` keep the other nodes' relay addresses (cluster/relays.py); a link is made at once to each."""

    def __init__(self, reactor: Any, me: str, factories: Mapping[str, LineFactory],
                 target: Callable[[Session, str], tuple[str, int] | None],
                 stranded: Callable[[Session, tuple[str, int, bool]], None]) -> None:
        self.reactor, self.me = reactor, me
        self.factories = factories  # this node's telnet and raw listeners': a connection taken back goes on there
        self.target = target  # the (node, table) a line goes to (cluster/visits.py)
        self.stranded = stranded  # a person taken back, with where they were: made a visitor of it (services.py)
        self.addresses: dict[str, tuple[str, int, str]] = {}
        self.links: dict[str, Uplink] = {}
        self.trying: dict[str, Any] = {}  # node -> the delayed call of its next attempt
        self.ids = count(1)
        self.moved = 0

    def known(self, node: str, host: str, port: int, secret: str) -> None:
        if self.addresses.get(node) == (host, port, secret) and (node in self.links or node in self.trying):
            return
        self.addresses[node] = (host, port, secret)
        old = self.links.pop(node, None)
        if old is not None:
            old.end()  # (its connections are told; a node that restarted has none of them)
        self.link(node)

    def gone(self, node: str) -> None:
        self.addresses.pop(node, None)
        delayed = self.trying.pop(node, None)
        if delayed is not None and delayed.active():
            delayed.cancel()
        link = self.links.pop(node, None)
        if link is not None:
            link.end()

    def link(self, node: str) -> None:
        """Link to ``node`` (its address known), and again every ``RETRY`` seconds while that fails."""
        address = self.addresses.get(node)
        if address is None or node in self.links:
            return
        host, port, secret = address
        uplink = Uplink(self, node, secret)
        self.links[node] = uplink
        creator = tprotocol.ClientCreator(self.reactor, lambda: uplink)
        made = creator.connectTCP(host, port, timeout=RETRY)

        def failed(failure: Failure) -> None:
            if self.links.get(node) is uplink:
                del self.links[node]
            log.info("relay: no link to {node} at {host}:{port} ({why})", node=node, host=host, port=port,
                     why=failure.getErrorMessage())
            self.again(node)

        made.addErrback(failed)

    def again(self, node: str) -> None:
        """Link to ``node`` again in ``RETRY`` seconds, while its address is known (it is not gone)."""
        if node in self.addresses and node not in self.trying:
            self.trying[node] = self.reactor.callLater(RETRY, self._retry, node)

    def _retry(self, node: str) -> None:
        self.trying.pop(node, None)
        self.link(node)

    def __call__(self, session: Session, node: str, text: str) -> bool:
        uplink = self.links.get(node)
        moving = ready_to_move(session, text)
        if uplink is None or not uplink.ready or uplink.full or moving is None:
            return False
        protocol, line = moving
        target = self.target(session, text)
        if target is None:
            return False
        protocol.flush()  # what this node said to the user so far goes first
        sock: Any = protocol.socket()
        framing = framing_state(protocol, line)
        framing["pending"] = ""  # what waits to be sent stays in this socket's buffer, and goes first
        peer = sock.getPeer()
        connection = carry.snapshot(protocol.connection)
        state = {"framing": framing, "connection": connection, "from": self.me,
                 "peer": [str(getattr(peer, "host", "")), int(getattr(peer, "port", 0))]}
        conn = next(self.ids)
        watching = text.strip()[1:].lower().startswith("watch")
        forward = Forward(uplink, conn, state, (target[0], target[1], not watching))
        uplink.send(conn, OPEN, json.dumps(state).encode())
        uplink.conns[conn] = forward
        carry.leave(protocol.connection)
        detach(protocol, forward)
        self.moved += 1
        log.info("{name} relayed to {node} for {line!r}", name=session.name, node=node, line=line)
        return True


    def farewell(self) -> defer.Deferred[None]:
        """This node stops: each connection it relays is told so, as its own users are (sysops.py ``farewell``),
        and closed; the table's node keeps their seat as for any lost connection. Fires once they are closed, or
        after ``GOODBYE_SECONDS``."""
        told: list[Any] = []
        for uplink in list(self.links.values()):
            for forward in list(uplink.conns.values()):
                forward.goodbye({"type": "shutdown", "seconds": 0, "by": None}, later("The server is stopping now."))
                told.append(forward.transport)
        return until(self.reactor, lambda: not any(t is not None and t.connected for t in told), GOODBYE_SECONDS)

    def take_back(self, forward: Forward) -> bool:
        """The link that relayed ``forward`` is gone (its node died or stops, or the link broke): the connection
        goes on here as it stood when it was relayed (its state then: what changed there since is lost), logged
        in without a word, and made a visitor of the table it was at (``stranded``), as a visitor whose host is
        gone: told so when the node is known to be gone, and seated again wherever the table is taken over.
        False if it cannot (closed meanwhile, or this node does not serve its framing)."""
        sock: Any = forward.transport
        state = forward.state
        if sock is None or not sock.connected or sock.disconnecting or state["framing"]["kind"] not in self.factories:
            return False
        state = {**state, "framing": {**state["framing"], "line": "", "buffer": ""}, "from": forward.link.node}
        if sock.producer is not None:
            sock.unregisterProducer()

        def connect(factory: LineFactory) -> None:
            made = factory.buildProtocol(sock.getPeer())
            sock.protocol = made
            made.makeConnection(sock)

        protocol = take(state, self.factories, connect)
        if protocol is None:
            return True  # refused by the limits here: closed, saying why
        sock.startReading()
        self.stranded(protocol.connection.session, forward.target)
        log.info("{name} taken back from {node}", name=protocol.connection.session.name, node=forward.link.node)
        return True


def detach(protocol: LineProtocol, forward: Forward) -> None:
    """The socket's reads go to ``forward`` from now on, unparsed; the framing here is done with it (nothing more
    read, written or acted on), and told it is lost (the connection counts and timers let go), with the socket
    left open."""
    sock: Any = protocol.socket()
    top = sock.protocol  # the framing, or telnet's layer under it
    protocol.dropped = protocol.paused = True
    protocol.clearLineBuffer()
    if sock.producer is not None:
        sock.unregisterProducer()
    sock.protocol = forward
    forward.transport = sock
    sock.registerProducer(forward, True)
    gone = Failure(ConnectionDone("relayed to another node"))  # i18n: not text (the log's reason)
    sock.reactor.callLater(0, top.connectionLost, gone)
    forward.reading(not forward.link.full)
