"""What a cluster node would have published, where no Redis is: the one call of txredisapi the bus makes when it
sends (``publish``), kept by channel, for tests of one node's presence and tables without processes."""

from __future__ import annotations

import json
from typing import Any

from twisted.internet import defer


class Published:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def publish(self, channel: str, text: str) -> defer.Deferred[int]:
        self.sent.append((channel, json.loads(text)))
        return defer.succeed(1)

    def ops(self, op: str) -> list[tuple[str, dict[str, Any]]]:
        return [(channel, m) for channel, m in self.sent if m["op"] == op]
