"""The TCP link between two nodes that carries relayed connections (net/relay.py, the sending end; net/relayed.py,
the end that hosts them): many connections on one link, each frame ``length (4 bytes), connection id (4), kind
(1), payload``, big-endian. A connection's bytes go through as they are, in either direction, never parsed on the
way: relaying a command costs the node that holds the socket a copy, not a command.

Kinds: ``HELLO`` (the link's first frame: the hosting node's secret, which only the nodes have, through Redis),
``OPEN`` (a connection's state as JSON: net/handed.py's and mudwiz/carry.py's), ``DATA`` (bytes), ``CLOSE`` (this
end is gone: the client closed it, or the host did; payload ``abort`` for an abort), ``PAUSE`` and ``RESUME``
(stop and go on sending this connection's bytes: the client at the sending end does not read its output, or the
host's framing reads no more input for now)."""

from __future__ import annotations

import struct
from typing import Any

from twisted.internet.protocol import Protocol
from twisted.logger import Logger

log = Logger()

HEAD = struct.Struct("!IIB")
HELLO, OPEN, DATA, CLOSE, PAUSE, RESUME = range(6)
MAX_FRAME = 1 << 20  # a larger frame is a peer that does not speak the link: it is dropped


class Frames(Protocol):
    """One end of a link: frames out (``send``) and in (``frame``, for the end to say what each means)."""

    def __init__(self) -> None:
        self.buffer = b""
        self.ended = False

    def send(self, conn: int, kind: int, payload: bytes = b"") -> None:
        transport: Any = self.transport
        if transport is not None and not self.ended:
            transport.writeSequence((HEAD.pack(len(payload), conn, kind), payload))

    def dataReceived(self, data: bytes) -> None:
        buffer = self.buffer + data if self.buffer else data
        start, size = 0, len(buffer)
        while size - start >= HEAD.size and not self.ended:
            length, conn, kind = HEAD.unpack_from(buffer, start)
            if length > MAX_FRAME:
                log.warn("relay link: a frame of {length} bytes: dropped", length=length)
                self.end()
                return
            end = start + HEAD.size + length
            if end > size:
                break
            self.frame(conn, kind, buffer[start + HEAD.size:end])
            start = end
        self.buffer = buffer[start:]

    def frame(self, conn: int, kind: int, payload: bytes) -> None:
        raise NotImplementedError

    def end(self) -> None:
        """Drop the link (a peer that does not speak it, or a node gone)."""
        self.ended = True
        transport: Any = self.transport
        if transport is not None:
            transport.abortConnection()
