"""Connections relayed here by another node (net/relay.py): the hosting end. The other node keeps the socket and
copies its bytes over a link (net/relaylink.py); here each connection is made with the telnet or raw listener's
own framing, as a handed socket is (net/handed.py ``take``), on a ``RelayedTransport`` whose writes go back over
the link. From then on the person is this node's user at a local table: nothing of the visitor path is involved.

The link is a TCP port of this node's (``MUDWIZ_RELAY``, cluster/relays.py publishes its address), and a link
proves it comes from a node by its first frame, this node's secret, which only the nodes have (through Redis):
anything else is dropped, since a relayed connection arrives logged in."""

from __future__ import annotations

import hmac
import json
import socket
from collections.abc import Mapping
from typing import Any

from twisted.application import service
from twisted.internet import address as taddress
from twisted.internet import protocol as tprotocol
from twisted.internet.error import ConnectionDone, ConnectionLost
from twisted.logger import Logger
from twisted.python.failure import Failure

from mudwiz.net.handed import take
from mudwiz.net.listener import LineFactory
from mudwiz.net.relaylink import CLOSE, DATA, HELLO, OPEN, PAUSE, RESUME, Frames

log = Logger()


class RelayedTransport:
    """A relayed connection's transport here: what the framing writes goes over the link to the node that holds
    the socket; closing it closes the socket there. Its producer (the framing's backlog) is paused and resumed by
    that node as the client reads or not, and pausing it pauses the client's input there."""

    disconnecting = False
    connected = True

    def __init__(self, link: Downlink, conn: int, peer: tuple[str, int]) -> None:
        self.link, self.conn = link, conn
        self.peer = taddress.IPv4Address("TCP", peer[0], peer[1])
        self.protocol: Any = None
        self.producer: Any = None

    def write(self, data: bytes) -> None:
        if self.connected and data:
            self.link.send(self.conn, DATA, data)

    def writeSequence(self, data: Any) -> None:
        self.write(b"".join(data))

    def loseConnection(self) -> None:
        self._close(b"")

    def abortConnection(self) -> None:
        self._close(b"abort")

    def _close(self, how: bytes) -> None:
        if self.disconnecting or not self.connected:
            return
        self.disconnecting = True
        self.link.send(self.conn, CLOSE, how)
        self.link.reactor.callLater(0, self.connectionLost, Failure(ConnectionDone()))

    def connectionLost(self, reason: Failure) -> None:
        if not self.connected:
            return
        self.connected = False
        self.link.conns.pop(self.conn, None)
        if self.protocol is not None:
            self.protocol.connectionLost(reason)

    def getPeer(self) -> Any:
        return self.peer

    def getHost(self) -> Any:
        return self.link.host()

    def registerProducer(self, producer: Any, streaming: bool) -> None:
        self.producer = producer

    def unregisterProducer(self) -> None:
        self.producer = None

    def pauseProducing(self) -> None:
        self.link.send(self.conn, PAUSE)

    def resumeProducing(self) -> None:
        if self.connected:
            self.link.send(self.conn, RESUME)

    def stopProducing(self) -> None:
        self.loseConnection()


class Downlink(Frames):
    """Another node's link to this one: the connections it relays here, by its ids."""

    def __init__(self, reactor: Any, secret: str, factories: Mapping[str, LineFactory]) -> None:
        super().__init__()
        self.reactor, self.secret, self.factories = reactor, secret, factories
        self.proven = False
        self.conns: dict[int, RelayedTransport] = {}

    def connectionMade(self) -> None:
        transport: Any = self.transport
        transport.setTcpNoDelay(True)

    def host(self) -> Any:
        transport: Any = self.transport
        return transport.getHost()

    def frame(self, conn: int, kind: int, payload: bytes) -> None:
        if not self.proven:
            if kind != HELLO or not hmac.compare_digest(payload, self.secret.encode()):
                log.warn("relay: a link from {peer} without this node's secret: dropped",
                         peer=getattr(self.host(), "host", "?"))
                self.end()
                return
            self.proven = True
            return
        if kind == OPEN:
            self.open(conn, json.loads(payload))
            return
        transport = self.conns.get(conn)
        if transport is None:
            return
        if kind == DATA:
            if transport.protocol is not None and not transport.disconnecting:
                transport.protocol.dataReceived(payload)
        elif kind == CLOSE:
            transport.connectionLost(Failure(ConnectionDone("the client closed it")))  # i18n: not text (a reason)
        elif kind in (PAUSE, RESUME) and transport.producer is not None:
            (transport.producer.pauseProducing if kind == PAUSE else transport.producer.resumeProducing)()

    def open(self, conn: int, state: dict[str, Any]) -> None:
        """A connection relayed here: made this node's with its framing, as it stood, and its line carried out."""
        peer = state.get("peer") or ["", 0]
        transport = RelayedTransport(self, conn, (str(peer[0]), int(peer[1])))
        self.conns[conn] = transport

        def connect(factory: LineFactory) -> None:
            made = factory.buildProtocol(transport.peer)
            transport.protocol = made
            made.makeConnection(transport)

        try:
            protocol = take(state, self.factories, connect)
        except Exception:
            log.failure("a connection relayed to this node could not be taken")
            protocol = None
        if protocol is None:
            transport.abortConnection() if transport.protocol is None else transport.loseConnection()
            return
        name = state["connection"]["session"]["name"]
        log.info("{name} relayed here from {node}", name=name, node=state.get("from"))

    def connectionLost(self, reason: Failure = tprotocol.connectionDone) -> None:
        self.ended = True
        lost, self.conns = list(self.conns.values()), {}
        for transport in lost:
            transport.connectionLost(Failure(ConnectionLost("the relay link dropped")))  # i18n: not text (a reason)


class RelayFactory(tprotocol.Factory):
    """The relay port's: each link a ``Downlink`` with this node's secret and the framings' factories (telnet,
    raw: added as their listeners are)."""

    def __init__(self, reactor: Any, secret: str) -> None:
        self.reactor, self.secret = reactor, secret
        self.factories: dict[str, LineFactory] = {}

        self.links: list[Downlink] = []

    def buildProtocol(self, addr: Any) -> Downlink:
        link = Downlink(self.reactor, self.secret, self.factories)
        link.factory = self
        self.links = [each for each in self.links if not each.ended] + [link]
        return link


class RelayPort(service.Service):
    """This node's relay port: opened once the node has joined (``open``, by cluster/relays.py), with the secret
    links must bring; ``factories`` are the telnet and raw listeners' (service.py ``add_listener``). A service
    beside the listeners, so that stopping the node drops its links (``close``) before its farewell closes every
    connection, a relayed one too."""

    def __init__(self, reactor: Any, host: str, port: int) -> None:
        self.reactor, self.host, self.port = reactor, host, port
        self.factory = RelayFactory(reactor, "")
        self.factories = self.factory.factories
        self.listening: Any = None

    def open(self, secret: str) -> tuple[str, int]:
        self.factory.secret = secret
        self.listening = self.reactor.listenTCP(self.port, self.factory, interface=self.host)
        return self.host, int(self.listening.getHost().port)

    def close(self) -> None:
        """The node stops: no more links, and those there dropped before its farewell would close their
        connections, so that each person goes on at the node holding their socket (net/relay.py ``take_back``)."""
        if self.listening is not None:
            self.listening.stopListening()
            self.listening = None
        links, self.factory.links = self.factory.links, []
        for link in links:
            link.end()
            link.connectionLost(Failure(ConnectionLost("this node stops")))  # i18n: not text (a reason)

    def stopService(self) -> None:
        super().stopService()
        self.close()


def relay_address(setting: str) -> tuple[str, int]:
    """``MUDWIZ_RELAY``'s ``HOST[:PORT]`` (either may be left out: ``:4100``, ``10.0.0.5``): where this node takes
    relayed connections, and the address it gives the other nodes for it, so it must be one they reach. The host
    defaults to the address this machine's host name resolves to, the port to one the system picks."""
    host, _, port = setting.strip().rpartition(":") if ":" in setting else (setting.strip(), "", "")
    if not host:
        try:
            host = socket.gethostbyname(socket.gethostname())
        except OSError:
            host = "127.0.0.1"
    if port and not port.isdigit():
        raise ValueError(f"MUDWIZ_RELAY must be HOST[:PORT] or off, not {setting!r}")
    return host, int(port or 0)
