"""The cluster's bus: Redis pub/sub between the processes ("nodes") of one mudwiz server.

Each node listens on two channels: ``PREFIX:all`` (what every node hears: presence, lobby chat, the table
directory, heartbeats) and ``PREFIX:node:NAME`` (what is for it alone: a tell, a command for a table it hosts,
a view for a user connected to it). A message is one JSON object with ``op`` (what it is) and ``from`` (the
sending node); handlers are registered by ``op``. Pub/sub is fire-and-forget: what must survive a crash goes to
the store (PostgreSQL), never only here.

The client is ``txredisapi`` (Twisted-native, reconnecting): one connection for commands (``redis``: SET, GET,
INCR...) and one subscribed. After the subscribed connection comes back from a Redis restart, ``on_resubscribed``
callbacks run, so the directory can ask every node to tell it again what it may have missed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from twisted.internet import defer
from twisted.internet.endpoints import TCP4ClientEndpoint, UNIXClientEndpoint
from twisted.internet.interfaces import IStreamClientEndpoint
from twisted.internet.protocol import Factory, Protocol
from twisted.logger import Logger

from mudwiz.outflow import before_output
from mudwiz.render.jsonl import ENCODER
from mudwiz.texts import MARK, as_json, revive

log = Logger()

PREFIX = "mudwiz"
# seconds between attempts to reach a Redis that is away, at most (the first after 0.2 s): one that comes back is
# heard within about this, and the nodes hear each other again (cluster/nodes.py)
RECONNECT_EVERY = 0.5
BATCH = "batch"  # a reactor turn's messages to one channel in one PUBLISH: {"op": "batch", "all": [message...]}
Handler = Callable[[dict[str, Any]], None]

try:
    from orjson import dumps as orjson_dumps
except ImportError:  # (ENCODER is then "stdlib")
    pass

# A ``Later`` text crosses as its msgid and params (mudwiz/texts), put into words by the reader's own process.
WIRE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=as_json)


class ReadOn:
    """For txredisapi's subscriber protocol (a mixin, put before it): a reply read on to its end in one call.
    txredisapi's pure-Python parser (without hiredis), after each bulk string with more bytes behind it, pauses
    the socket and reads the rest in a call of the reactor's next turn: one bulk string a turn, three a pub/sub
    message, so that under a crowd's turns a node's bus fell seconds behind what came (its beats with it, till
    the other nodes took it for gone). Here the rest is read on at once, in a loop, not by recursion."""

    paused: bool
    line_mode: int
    _rest = b""

    def setLineMode(self, extra: bytes | str = b"") -> None:
        self.line_mode = 1
        if extra:
            self._rest += extra if isinstance(extra, bytes) else extra.encode()

    def dataReceived(self, data: bytes, unpause: bool = False) -> None:
        read: Any = super().dataReceived  # type: ignore[misc]  # (txredisapi's LineReceiver, after this)
        read(data, unpause)
        while self._rest and not self.paused:
            rest, self._rest = self._rest, b""
            read(rest)


def wire(message: dict[str, Any]) -> str:
    """A bus message as JSON: with orjson where the protocol's encoder uses it (a visitor's states cross here)."""
    if ENCODER == "orjson":
        try:
            return orjson_dumps(message, default=as_json).decode()
        except TypeError:
            pass
    return WIRE.encode(message)


class BusError(Exception):
    """The Redis URL is malformed or Redis cannot be reached at start: one line saying which."""


@dataclass(frozen=True)
class RedisAddress:
    """Where Redis is: ``redis://[:PASSWORD@]HOST[:PORT][/DB]`` or ``unix:///PATH[?db=N]``."""

    host: str = "localhost"
    port: int = 6379
    path: str | None = None
    db: int | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str) -> RedisAddress:
        parts = urlsplit(url)
        password = unquote(parts.password) if parts.password else None
        try:
            if parts.scheme == "unix":
                db = parse_qs(parts.query).get("db", [None])[0]
                return cls(path=parts.path, db=int(db) if db else None, password=password)
            if parts.scheme == "redis":
                db_text = parts.path.strip("/")
                return cls(host=parts.hostname or "localhost", port=parts.port or 6379,
                           db=int(db_text) if db_text else None, password=password)
        except ValueError as exc:
            raise BusError(f"MUDWIZ_REDIS_URL {shown(url)}: {exc}") from None
        raise BusError(f"MUDWIZ_REDIS_URL {shown(url)}: not redis://HOST:PORT/DB or unix:///PATH")

    def endpoint(self, reactor: Any) -> IStreamClientEndpoint:
        if self.path is not None:
            return UNIXClientEndpoint(reactor, self.path, timeout=5)
        return TCP4ClientEndpoint(reactor, self.host, self.port, timeout=5)


def shown(url: str) -> str:
    """The URL for a log line, its password as ``***``."""
    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@", 1)
    return url


def redis_url() -> str | None:
    """``MUDWIZ_REDIS_URL``: set, the server is one node of a cluster; unset, it is the whole server."""
    return os.environ.get("MUDWIZ_REDIS_URL") or None


class Bus:
    """This node's end of the bus. ``start()`` connects both connections and subscribes (its Deferred fails with
    ``BusError`` if Redis cannot be reached); ``publish``/``send``/``broadcast`` never block and never raise: a
    message that cannot go is logged and dropped, as pub/sub would drop it for a node that is away."""

    def __init__(self, url: str, node: str, reactor: Any, prefix: str = PREFIX) -> None:
        self.url = url
        self.address = RedisAddress.parse(url)
        self.node = node
        self.reactor = reactor
        self.prefix = prefix
        self.handlers: dict[str, list[Handler]] = {}
        self.on_resubscribed: list[Callable[[], None]] = []
        self.redis: Any = None  # txredisapi's connection handler for commands, once started
        self._subscriber: Any = None
        self._subscribed_once = False
        # when the subscription was last made (reactor seconds), None while it is lost: how long Redis has been
        # there without a break, as this node sees it (``Nodes.redis_steady``)
        self.subscribed_at: float | None = None
        self._first: defer.Deferred[None] = defer.Deferred()  # fired once subscribed: ``start`` waits for it
        self._outgoing: dict[str, list[dict[str, Any]]] = {}  # channel -> this turn's messages (``flush``)
        self._flushing: Any = None  # the call at the turn's end that publishes them

    @property
    def all_channel(self) -> str:
        return f"{self.prefix}:all"

    def node_channel(self, node: str) -> str:
        return f"{self.prefix}:node:{node}"

    def key(self, *parts: str | int) -> str:
        """A Redis key in this server's name space: ``key("table", 7)`` -> ``mudwiz:table:7``."""
        return ":".join([self.prefix, *map(str, parts)])

    def on(self, op: str, handler: Handler) -> None:
        self.handlers.setdefault(op, []).append(handler)

    # -- connecting

    @defer.inlineCallbacks
    def start(self) -> Any:
        import txredisapi

        a = self.address
        try:  # one plain connection first: a wrong address is said at once, not after the retries' timeout
            probe = yield a.endpoint(self.reactor).connect(Factory.forProtocol(Protocol))
            probe.transport.loseConnection()
        except Exception as exc:
            raise BusError(f"cannot reach Redis at {shown(self.url)}: {first_error(exc)}") from None
        commands = txredisapi.RedisFactory(None, a.db, 1, isLazy=True, password=a.password)
        commands.initialDelay, commands.maxDelay = 0.2, RECONNECT_EVERY
        commands.startConnecting(a.endpoint(self.reactor))
        bus = self

        class Subscriber(ReadOn, txredisapi.SubscriberProtocol):
            def messageReceived(self, pattern: Any, channel: str, message: str) -> None:
                bus.received(channel, message)

            def connectionLost(self, why: Any) -> None:
                bus.subscribed_at = None
                super().connectionLost(why)

        class Subscribers(txredisapi.SubscriberFactory):
            protocol = Subscriber

            def buildProtocol(self, addr: Any) -> Any:
                p = super().buildProtocol(addr)
                p.whenConnected().addCallback(bus._subscribe)
                return p

        subscribers = Subscribers(isLazy=True)
        subscribers.password, subscribers.dbid = a.password, a.db
        subscribers.initialDelay, subscribers.maxDelay = 0.2, RECONNECT_EVERY
        subscribers.startConnecting(a.endpoint(self.reactor))
        self._subscriber = subscribers
        self.redis = commands.handler
        try:
            yield defer.DeferredList([commands.deferred, subscribers.deferred], fireOnOneErrback=True,
                                     consumeErrors=True).addTimeout(10, self.reactor)
            yield self.redis.ping()
            yield self._first.addTimeout(10, self.reactor)  # subscribed: the node's first beat is heard
        except Exception as exc:
            yield self.stop()
            raise BusError(f"cannot reach Redis at {shown(self.url)}: {first_error(exc)}") from None

    def _subscribe(self, protocol: Any) -> Any:
        d = protocol.subscribe([self.all_channel, self.node_channel(self.node)])
        d.addCallback(self._subscribed)
        again = self._subscribed_once
        self._subscribed_once = True
        if again:
            log.info("bus: subscribed again after losing Redis")
            d.addCallback(lambda _: [callback() for callback in self.on_resubscribed])
        d.addErrback(lambda f: log.failure("bus: could not subscribe", f))
        return protocol

    def _subscribed(self, result: Any) -> Any:
        self.subscribed_at = self.reactor.seconds()
        if not self._first.called:
            self._first.callback(None)
        return result

    def stop(self) -> defer.Deferred[Any]:
        self.flush()  # the last words queued (a ``bye``) go before the connections close
        waits = []
        if self.redis is not None:
            waits.append(self.redis.disconnect())
        if self._subscriber is not None:
            waits.append(self._subscriber.disconnect())
        return defer.DeferredList(waits, consumeErrors=True)

    # -- sending and receiving

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Queued for the end of the reactor's turn (``flush``): then one PUBLISH a channel carries all the turn's
        messages to it (a move sends a visitor's home its events and state, a dozen messages, and a PUBLISH each
        cost more than the play). Said in the order they were queued, channel by channel."""
        if self.redis is None:
            return
        queued = self._outgoing.get(channel)
        if queued is None:
            queued = self._outgoing[channel] = []
        queued.append(message)
        if self._flushing is None:
            self._flushing = self.reactor.callLater(0, self.flush)

    def flush(self) -> None:
        """What this turn queued, one PUBLISH a channel: one message as itself, several as one ``batch``."""
        if self._flushing is not None and self._flushing.active():
            self._flushing.cancel()
        self._flushing = None
        outgoing, self._outgoing = self._outgoing, {}
        if not outgoing or self.redis is None:
            return
        before_output()  # a state for a visitor on another node leaves here: its move committed first
        for channel, messages in outgoing.items():
            one = messages[0] if len(messages) == 1 else {"op": BATCH, "all": messages}
            d = self.redis.publish(channel, wire({**one, "from": self.node}))
            d.addErrback(not_sent, one.get("op"), len(messages))

    def broadcast(self, message: dict[str, Any]) -> None:
        """To every node, this one included (it handles its own message as the others do, or skips it)."""
        self.publish(self.all_channel, message)

    def send(self, node: str, message: dict[str, Any]) -> None:
        self.publish(self.node_channel(node), message)

    def received(self, channel: str, text: str) -> None:
        """One message from Redis, handed to the handlers of its ``op``; a handler's error is logged, never lost
        with the others'."""
        try:
            message = json.loads(text)
            message = revive(message) if MARK in text else message  # a text for a person: theirs to word
            op = message["op"]
            if op == BATCH:
                for each in message["all"]:
                    each["from"] = message["from"]
                    self.handle(each["op"], each)
                return
        except (ValueError, KeyError, TypeError):
            log.warn("bus: unreadable message on {channel}: {text!r}", channel=channel, text=text[:200])
            return
        self.handle(op, message)

    def handle(self, op: str, message: dict[str, Any]) -> None:
        for handler in self.handlers.get(op, []):
            try:
                handler(message)
            except Exception:
                log.failure("bus: handling {op} from {node} failed", op=op, node=message.get("from"))


def not_sent(failure: Any, op: str, n: int) -> None:
    log.warn("bus: {op} ({n} message(s)) not sent: {why}", op=op, n=n, why=failure.getErrorMessage())


def first_error(exc: BaseException) -> str:
    """The first underlying failure's message of a DeferredList/FirstError, or the exception's own."""
    sub = getattr(exc, "subFailure", None)
    if sub is not None:
        return str(sub.getErrorMessage())
    return str(exc) or type(exc).__name__
