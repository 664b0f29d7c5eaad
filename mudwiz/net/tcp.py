"""Socket options for an accepted TCP connection: one place, so every listener gets the same."""

from __future__ import annotations

import socket
from typing import Any

from twisted.internet.interfaces import ITCPTransport

# A peer that vanished without a word (a laptop lid shut, a NAT that forgot us) is noticed after 60 s of silence
# and 4 unanswered probes 15 s apart, some two minutes: the player's seat then goes to the grace period.
KEEPALIVE = (("TCP_KEEPIDLE", 60), ("TCP_KEEPINTVL", 15), ("TCP_KEEPCNT", 4))


def tune(transport: Any) -> None:
    """Keepalive, or a dead peer's connection (and its place in the limits) is held for ever; no Nagle, or a
    short reply written while the last one is unacknowledged waits for the peer's delayed ACK (~40 ms)."""
    if not ITCPTransport.providedBy(transport):
        return  # a unix socket, or a test's fake transport
    transport.setTcpNoDelay(True)
    transport.setTcpKeepAlive(True)
    sock = transport.getHandle()  # type: ignore[attr-defined]  # tcp.Connection has it; ITCPTransport does not say
    for name, value in KEEPALIVE:
        option = getattr(socket, name, None)  # Linux has all three; other systems some or none
        if option is not None:
            sock.setsockopt(socket.IPPROTO_TCP, option, value)
