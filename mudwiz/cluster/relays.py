"""Where each node takes relayed connections (net/relay.py, net/relayed.py): its relay port's address and the
secret a link must open with, said on the bus. A node says them when it has joined (``relay_at`` to all) and to
each node it hears for the first time (a node that starts later, or one back after a partition), asking it for
its own (``ask``); a node gone has its link dropped. The secret goes only through Redis, which only the nodes
reach: a link that does not bring it is refused, since a relayed connection arrives logged in.

The networking is handed in at startup (``port``: net/relayed.py's ``RelayPort``; ``known`` and ``gone``: the
sending end's, net/relay.py's ``Relay``), so the cluster imports nothing above it."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from twisted.internet import defer
from twisted.logger import Logger

if TYPE_CHECKING:
    from mudwiz.cluster.service import ClusterService

log = Logger()


class Port(Protocol):
    def open(self, secret: str) -> tuple[str, int]: ...

    def close(self) -> None: ...


class Relays:
    """The relay addresses as a part of a ``ClusterService``."""

    def __init__(self, cluster: ClusterService, port: Port, known: Callable[[str, str, int, str], None],
                 gone: Callable[[str], None], farewell: Callable[[], defer.Deferred[None]]) -> None:
        self.bus = cluster.bus
        self.port, self.known, self.gone, self.farewell = port, known, gone, farewell
        self.secret = secrets.token_hex(16)
        self.address: tuple[str, int] | None = None
        self.bus.on("relay_at", self._heard)
        cluster.nodes.on_new.append(self._tell)
        cluster.nodes.on_gone.append(gone)

    def start(self) -> None:
        self.address = self.port.open(self.secret)
        log.info("relay: taking relayed connections on {host}:{port}", host=self.address[0], port=self.address[1])
        self.bus.broadcast(self._message())

    def stop(self) -> defer.Deferred[None]:
        """No more relayed here; the connections this node relays elsewhere told it stops, and closed."""
        self.address = None
        self.port.close()
        return self.farewell()

    def _message(self) -> dict[str, Any]:
        assert self.address is not None
        return {"op": "relay_at", "host": self.address[0], "port": self.address[1], "secret": self.secret}

    def _tell(self, node: str, ask: bool = True) -> None:
        """Our address to ``node``, newly heard, which is asked for its own (``ask``): a node heard again after it
        was taken for gone (its beats late) had its link dropped and its address forgotten here, and says it
        only to nodes new to it, which this one was not."""
        if self.address is not None:
            self.bus.send(node, {**self._message(), "ask": ask})

    def _heard(self, message: dict[str, Any]) -> None:
        node = message["from"]
        if node == self.bus.node:
            return
        self.known(node, str(message["host"]), int(message["port"]), str(message["secret"]))
        if message.get("ask"):
            self._tell(node, ask=False)
