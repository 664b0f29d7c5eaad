"""The takeover lock per node: which process restores a node's journaled tables, the node itself at its start or
one survivor once it is gone, so that a table is never restored twice.

The lock is a Redis key, ``PREFIX:takeover:NODE``, set only if absent and living ``LOCK_FOR`` ms if never let go.
Its value names the holder's node and incarnation (``Nodes.incarnation``), so a lock whose holder no longer runs
(it stopped or died holding it, or its Redis connection was cut before it could let go) is told from one held by a
live process of the same name, and broken at once rather than waited out: else a node started again within
``LOCK_FOR`` would wait that long to restore its own tables, joining no cluster and accepting no one meanwhile. It
is let go only by its holder (a compare-and-delete in one script), never one taken since by another; a process
finding its own lock still there (its letting go lost with its connection) holds it again.
"""

from __future__ import annotations

from typing import Any

from twisted.internet import defer
from twisted.logger import Logger

from mudwiz.cluster.bus import Bus
from mudwiz.cluster.nodes import Nodes

log = Logger()

LOCK_FOR = 30_000  # milliseconds a takeover lock lasts if its holder dies holding it and nobody asks first
RELEASE_IF_HELD_BY = (
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"  # i18n: not text
)


class TakeoverLocks:
    """One process's side of the locks: taking, breaking and letting go, on its bus, as its node's incarnation."""

    def __init__(self, bus: Bus, nodes: Nodes) -> None:
        self.bus = bus
        self.nodes = nodes

    @property
    def holder(self) -> str:
        """What this process writes in a lock it holds: its node and incarnation."""
        return f"{self.bus.node} {self.nodes.incarnation}"

    @defer.inlineCallbacks
    def lock(self, node: str) -> Any:
        """Take ``node``'s lock: True if this process holds it now; a lock whose holder no longer runs is broken."""
        key = self.bus.key("takeover", node)
        if (yield self.bus.redis.set(key, self.holder, pexpire=LOCK_FOR, only_if_not_exists=True)):
            return True
        held_by = yield self.bus.redis.get(key)
        if held_by == self.holder:  # this process's own, not let go: its takeover cut off by a lost connection
            return True
        if held_by is None or not (yield self.holder_gone(str(held_by))):
            return False
        yield self.bus.redis.eval(RELEASE_IF_HELD_BY, [key], [held_by])
        log.info("the takeover lock of node {node} was held by a process no longer running ({holder}): broken",
                 node=node, holder=held_by)
        return bool((yield self.bus.redis.set(key, self.holder, pexpire=LOCK_FOR, only_if_not_exists=True)))

    @defer.inlineCallbacks
    def holder_gone(self, held_by: str) -> Any:
        """Whether the process named in a lock no longer holds its node's name in Redis: its liveness key is gone,
        or is another incarnation's. A lock naming no incarnation is taken as live."""
        node, _, incarnation = held_by.partition(" ")
        if not incarnation:
            return False
        alive = yield self.nodes.is_alive_as(node)
        return alive != incarnation

    def unlock(self, node: str) -> defer.Deferred[Any]:
        return self.bus.redis.eval(RELEASE_IF_HELD_BY, [self.bus.key("takeover", node)],
                                   [self.holder]).addErrback(lambda _: None)
