"""What a cluster node would have published, where no Redis is: the one call of txredisapi the bus makes when it
sends (``publish``), kept by channel, for tests of one node's presence and tables without processes. The bus
publishes at the end of a reactor turn (``Bus.flush``), which a fake clock never ends: reading ``sent`` ends it,
and a turn's ``batch`` is read as the messages it carries."""

from __future__ import annotations

import json
from typing import Any

from twisted.internet import defer

from mudwiz.cluster.bus import BATCH, Bus


class Published:
    def __init__(self, bus: Bus | None = None) -> None:
        self.bus = bus
        self._sent: list[tuple[str, dict[str, Any]]] = []
        self.publishes: list[tuple[str, int]] = []  # each PUBLISH: its channel and how many messages it carried

    @property
    def sent(self) -> list[tuple[str, dict[str, Any]]]:
        if self.bus is not None:
            self.bus.flush()
        return self._sent

    def publish(self, channel: str, text: str) -> defer.Deferred[int]:
        message = json.loads(text)
        self.publishes.append((channel, len(message["all"]) if message["op"] == BATCH else 1))
        for each in message["all"] if message["op"] == BATCH else [message]:
            self._sent.append((channel, {**each, "from": message["from"]}))
        return defer.succeed(1)

    def ops(self, op: str) -> list[tuple[str, dict[str, Any]]]:
        return [(channel, m) for channel, m in self.sent if m["op"] == op]
