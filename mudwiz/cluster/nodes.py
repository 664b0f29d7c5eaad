"""Which nodes are alive: heartbeats on the bus, and a name no two live processes hold.

Every ``BEAT`` seconds a node broadcasts ``{"op": "beat"}`` and renews its Redis key ``PREFIX:alive:NODE`` (its
incarnation, expiring after ``DEAD_AFTER``). A beat also says "I hear you": it is broadcast only while the node's
subscription is there (the key is renewed all the same), and at once when it comes back (``again``: the others
tell it again what it may have missed, as to a new node); a node hearing a new one answers with a beat to it
alone, so both know each other within a round trip of the later one's return. The key makes a node name
exclusive: a process takes its name with ``SET NX`` at start, so a second ``w1`` waits until the first one's key
has expired (a restart after ``kill -9`` waits at most ``DEAD_AFTER``) and gives up, saying so, if it never does.
The beats tell the other nodes who is there without asking Redis: a node first heard is *new* (``on_new``: the
others tell it what they have), one not heard for ``DEAD_AFTER`` seconds (looked for every ``LOOK_EVERY``), or
that said ``bye``, is *gone* (``on_gone``: its users left, its tables to be taken over).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from twisted.internet import defer, task
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from mudwiz.cluster.bus import Bus, BusError

log = Logger()

BEAT = 1.0
DEAD_AFTER = 4.0
LOOK_EVERY = 0.25  # seconds between looks for nodes not heard for DEAD_AFTER: a dead one is gone 4 to 4.25 s after
ALIVE_AGAIN = 0.25  # seconds before Redis is asked again whether a node taken for gone still holds its name


class Nodes:
    def __init__(self, bus: Bus, clock: IReactorTime, beat: float = BEAT, dead_after: float = DEAD_AFTER) -> None:
        self.bus = bus
        self.clock = clock
        self.beat_every = beat
        self.dead_after = dead_after
        self.incarnation = secrets.token_hex(6)
        self.seen: dict[str, float] = {}  # other live nodes -> when last heard
        # nodes taken for gone while Redis was away -> since when: each is new again at its next beat (the
        # tables' directory hears of it then), or gone again if none comes for ``dead_after`` with Redis there
        self.judging: dict[str, float] = {}
        self.on_new: list[Callable[[str], None]] = []
        self.on_gone: list[Callable[[str], None]] = []
        self._loop: task.LoopingCall | None = None
        self._look: task.LoopingCall | None = None
        self.claimed = False  # this process holds the node's name (``claim_name``), so speaks for it as it stops
        bus.on("beat", self._heard)
        bus.on("bye", lambda m: self._gone(m["from"]))
        bus.on_resubscribed.append(self._back)

    @property
    def me(self) -> str:
        return self.bus.node

    def alive_key(self, node: str) -> str:
        return self.bus.key("alive", node)

    def live(self) -> list[str]:
        """Every node alive as far as this one knows, itself included, in name order."""
        return sorted({self.me, *self.seen})

    @defer.inlineCallbacks
    def claim_name(self) -> Any:
        """Take this node's name (``SET NX``), waiting out a dead predecessor's key; ``BusError`` if a live
        process holds it."""
        waited = 0.0
        while True:
            ok = yield self.bus.redis.set(self.alive_key(self.me), self.incarnation,
                                          pexpire=int(self.dead_after * 1000), only_if_not_exists=True)
            if ok:
                self.claimed = True
                return
            if waited > self.dead_after + self.beat_every:
                raise BusError(f"another live process is node {self.me} (MUDWIZ_NODE): choose another name")
            yield task.deferLater(self.clock, self.beat_every / 2, lambda: None)
            waited += self.beat_every / 2

    def start(self) -> None:
        self._loop = task.LoopingCall(self._beat)
        self._loop.clock = self.clock
        self._loop.start(self.beat_every, now=True)
        self._look = task.LoopingCall(self._look_for_gone)
        self._look.clock = self.clock
        self._look.start(min(LOOK_EVERY, self.beat_every), now=False)

    def stop(self) -> defer.Deferred[Any]:
        """A clean stop: ``bye`` to the others, and the name given up at once. Only by the process that holds the
        name: one refused it (another live process is that node) said ``bye`` and deleted the live one's key, so
        the others took the live node for gone and took its running tables over (a split brain)."""
        for loop in (self._loop, self._look):
            if loop is not None and loop.running:
                loop.stop()
        if not self.claimed:
            return defer.succeed(None)
        self.claimed = False
        self.bus.broadcast({"op": "bye"})
        self.bus.flush()  # heard before the name is given up, as it was said
        if self.bus.redis is None:
            return defer.succeed(None)
        return self.bus.redis.delete(self.alive_key(self.me)).addErrback(lambda _: None)

    def _beat(self, again: bool = False) -> None:
        """The key renewed (before the beat is published: gone from Redis no later than ``dead_after`` after the
        last beat heard), and the beat published if this node hears the others (its subscription is there)."""
        d = self.bus.redis.set(self.alive_key(self.me), self.incarnation, pexpire=int(self.dead_after * 1000))
        d.addErrback(lambda f: log.warn("bus: heartbeat not stored: {why}", why=f.getErrorMessage()))
        if self.bus.subscribed_at is not None:
            self.bus.broadcast({"op": "beat", "again": True} if again else {"op": "beat"})

    def _back(self) -> None:
        """The subscription is back after a loss: a beat at once, ``again`` (the others may have taken this node
        for gone, or sent it what it did not hear)."""
        if self._loop is not None and self._loop.running:
            self._beat(again=True)

    def _look_for_gone(self) -> None:
        now = self.clock.seconds()
        for node, last in list(self.seen.items()):
            if now - last > self.dead_after:
                self._gone(node)
        for node, since in list(self.judging.items()):
            if now - since > self.dead_after:  # no beat since Redis came back: gone after all
                del self.judging[node]
                log.info("node {node} is gone (no beat since Redis came back)", node=node)
                for callback in self.on_gone:
                    callback(node)

    def _heard(self, message: dict[str, Any]) -> None:
        node = message["from"]
        if node == self.me:
            return
        new = node not in self.seen or bool(message.get("again"))
        self.seen[node] = self.clock.seconds()
        self.judging.pop(node, None)
        if new:
            log.info("node {node} is here", node=node)
            self.bus.send(node, {"op": "beat"})  # it hears of this node now, not at its next beat
            for callback in self.on_new:
                callback(node)

    def _gone(self, node: str) -> None:
        if node == self.me or self.seen.pop(node, None) is None:
            return
        log.info("node {node} is gone", node=node)
        for callback in self.on_gone:
            callback(node)

    def alive_in_redis(self) -> defer.Deferred[set[str]]:
        """The other nodes whose names Redis holds now (their liveness keys), before any of their beats is heard:
        what a starting node waits to hear from."""
        prefix = self.alive_key("")
        return self.bus.redis.keys(prefix + "*").addCallback(
            lambda keys: {str(k)[len(prefix):] for k in keys or []} - {self.me})

    def redis_steady(self) -> bool:
        """Redis has been there, without a break this node saw, for ``dead_after`` seconds: long enough for
        every live node to have stored its key since it last came back. A Redis restarted empty has no keys, and
        a node's key missing just after is no word that the node is dead (its takeover then was a split brain)."""
        since = self.bus.subscribed_at
        return since is not None and self.clock.seconds() - since >= self.dead_after

    def judge_again(self, node: str) -> None:
        """``node`` was taken for gone while Redis was away: its next beat makes it new again (``on_new``: the
        parts that took it for gone hear of it, and the tables' directory lists its tables again); gone again
        (``on_gone``) only if no beat of it comes for ``dead_after`` seconds with Redis there. (Put back among the
        seen, its beats were no news: the directory kept its tables as gone for good.)"""
        if node != self.me and node not in self.seen:
            self.judging[node] = self.clock.seconds()

    @defer.inlineCallbacks
    def name_given_up(self, node: str) -> Any:
        """Whether Redis no longer holds the name of ``node``, taken for gone: its key, renewed before each beat,
        is gone ``dead_after`` after the last beat heard, so it is asked as soon as that; asked again (for a beat's
        time at most: the takeover lock is held meanwhile) while the node is not heard, in case the key outlived
        the beat by a moment. A node heard again is alive."""
        waited = 0.0
        while (yield self.is_alive(node)):
            if node in self.seen or waited >= self.beat_every:
                return False
            yield task.deferLater(self.clock, ALIVE_AGAIN, lambda: None)
            waited += ALIVE_AGAIN
        return True

    def is_alive(self, node: str) -> defer.Deferred[bool]:
        """Whether ``node`` holds its name in Redis now: the word that counts before taking its tables."""
        return self.is_alive_as(node).addCallback(lambda value: value is not None)

    def is_alive_as(self, node: str) -> defer.Deferred[str | None]:
        """The incarnation of the process holding ``node``'s name in Redis now, or None."""
        return self.bus.redis.get(self.alive_key(node)).addCallback(lambda value: None if value is None else str(value))
