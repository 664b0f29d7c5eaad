"""This process as one node of a cluster: joined before it listens, left cleanly when it stops.

``makeService`` builds a ``ClusterService`` when ``MUDWIZ_REDIS_URL`` is set, and puts the listeners under it
rather than under the top service: they start only once the node has joined (the bus connected and subscribed,
its name taken, each part started: the presence has heard the others, the tables have been restored), so nobody
logs in to a node that does not yet know the rest of the server. If joining fails (Redis unreachable, the name
held by a live process), the log says why in one line and the process stops with status 1.

A *part* (presence, tables across nodes) is any object with ``start() -> Deferred | None`` and ``stop() ->
Deferred | None``; parts start in the order added and stop in the reverse order, before the bus.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from typing import Any, Protocol

from twisted.application import service
from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from mudwiz.cluster.bus import Bus, shown
from mudwiz.cluster.nodes import Nodes
from mudwiz.node import node_name

log = Logger()
STOP_WAIT = 2.0  # seconds a stopping node waits for each of its cluster steps (Redis may be away)


def cluster_node_name() -> str:
    """This process's name in a cluster: ``MUDWIZ_NODE`` (``mudwiz serve --workers N`` gives ``w1``..``wN``),
    else the host's name and the process id, which no other live process has (a restart is then a new node, and
    the old one's tables are taken over as a dead node's)."""
    return node_name() or f"{socket.gethostname()}-{os.getpid()}"


class Part(Protocol):
    def start(self) -> defer.Deferred[Any] | None: ...

    def stop(self) -> defer.Deferred[Any] | None: ...


class ClusterService(service.MultiService):
    name: str | None = "cluster"  # type: ignore[assignment]  # IService declares name None until set

    def __init__(self, url: str, node: str, clock: IReactorTime, failed: Callable[[str], None]) -> None:
        super().__init__()
        self.clock = clock
        self.bus = Bus(url, node, clock)
        self.nodes = Nodes(self.bus, clock)
        self.parts: list[Part] = []
        self.started: list[Part] = []  # stopped as they stop: a join refused before them must not speak as the node
        self.failed = failed  # what to do when joining fails: log the line and stop the process
        self.joined: defer.Deferred[None] = defer.Deferred()  # fires once the node has joined and listens
        # set as the process begins to stop: a node leaving with it (``--workers``' TERM reaches every worker)
        # takes nothing over on its way out, and holds no takeover lock it might not let go; the ones staying do
        self.leaving = False

    def _bounded(self, waiting: Any) -> Any:
        """What a stop waits for, for ``STOP_WAIT`` seconds at most: with Redis away a command waits for it to
        come back, and a TERM must end the process all the same (what it could not say, its key's expiry and the
        others' missing beats say for it)."""
        if not isinstance(waiting, defer.Deferred):
            return waiting
        return waiting.addTimeout(STOP_WAIT, self.clock).addErrback(
            lambda f: log.warn("cluster: a stop step not done in {s:g} s (Redis away?): {why}", s=STOP_WAIT,
                               why=f.getErrorMessage()))

    @property
    def node(self) -> str:
        return self.bus.node

    def add(self, part: Part) -> None:
        self.parts.append(part)

    def privilegedStartService(self) -> None:
        """Nothing yet: a listener's privileged start binds its port, and ours bind once the node has joined."""

    def startService(self) -> None:
        service.Service.startService(self)  # the listeners (our children) wait for the join
        self._join().addErrback(self._join_failed)

    @defer.inlineCallbacks
    def _join(self) -> Any:
        yield self.bus.start()
        yield self.nodes.claim_name()
        self.nodes.start()
        for part in self.parts:
            self.started.append(part)
            yield part.start()
        log.info("node {node} joined the cluster on {url}", node=self.node, url=shown(self.bus.url))
        for child in self:  # the listeners, now
            child.startService()
        self.joined.callback(None)

    def _join_failed(self, failure: Any) -> None:
        why = failure.getErrorMessage()
        if failure.type.__module__ == "builtins":  # a bug (a KeyError, a TypeError), not a refusal: its traceback
            log.failure("node {node} could not join the cluster", failure, node=self.node)
        self.failed(f"node {self.node} could not join the cluster: {why}")  # i18n: not text (the log's, stops)

    @defer.inlineCallbacks
    def stopService(self) -> Any:
        self.leaving = True
        if self.joined.called:
            yield super().stopService()  # the listeners first
        else:
            service.Service.stopService(self)
        for part in reversed(self.started):
            try:
                yield self._bounded(part.stop())
            except Exception:
                log.failure("stopping a cluster part failed")
        yield self._bounded(self.nodes.stop())
        yield self._bounded(self.bus.stop())
