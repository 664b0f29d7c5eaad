"""How the bus reads what Redis sends its subscribed connection (mudwiz/cluster/bus.py ``ReadOn``): txredisapi's
own subscriber protocol, on a transport that keeps what is written (Twisted's ``StringTransport``), fed bytes as
Redis sends them. Many messages in one read are all handled in that read, not one bulk string a reactor turn."""

from __future__ import annotations

import json
from typing import Any

import txredisapi
from twisted.internet.testing import StringTransport

from mudwiz.cluster.bus import ReadOn


class Heard(ReadOn, txredisapi.SubscriberProtocol):
    """The subscriber as the bus makes it, noting each message's payload."""

    def __init__(self) -> None:
        super().__init__()
        self.heard: list[dict[str, Any]] = []

    def messageReceived(self, pattern: Any, channel: str, message: str) -> None:
        self.heard.append(json.loads(message))


def published(channel: str, message: dict[str, Any]) -> bytes:
    """A pub/sub message as Redis sends it (RESP: an array of three bulk strings)."""
    parts = [b"message", channel.encode(), json.dumps(message).encode()]
    return b"*3\r\n" + b"".join(b"$%d\r\n%s\r\n" % (len(part), part) for part in parts)


def test_every_message_that_came_in_one_read_is_handled_in_that_read_in_order() -> None:
    subscriber = Heard()
    subscriber.makeConnection(StringTransport())
    data = b"".join(published("mudwiz:all", {"op": "beat", "n": n}) for n in range(300))
    subscriber.dataReceived(data[:1000])  # a read may end anywhere: in a bulk string, or in its length
    subscriber.dataReceived(data[1000:1003])
    subscriber.dataReceived(data[1003:])
    assert [m["n"] for m in subscriber.heard] == list(range(300))
    assert not subscriber.paused
