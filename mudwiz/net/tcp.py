"""Socket options for an accepted TCP connection: one place, so every listener gets the same."""

from __future__ import annotations

import socket
from typing import Any

from twisted.internet.interfaces import ITCPTransport
from twisted.internet.tcp import Server

# A peer that vanished without a word (a laptop lid shut, a NAT that forgot us) is noticed after 60 s of silence
# and 4 unanswered probes 15 s apart, some two minutes: the player's seat then goes to the grace period.
KEEPALIVE = (("TCP_KEEPIDLE", 60), ("TCP_KEEPINTVL", 15), ("TCP_KEEPCNT", 4))
# Bytes one read of a connection takes (Twisted's default: 64 KB). A client sending as fast as it can fills every
# read, and all of it is parsed at once (telnet's parser goes byte by byte: 64 KB was some 50 ms of the reactor,
# everyone waiting) though its lines are then acted on a share at a time: 60 such clients held a bystander's
# ``/who`` up for seconds. 8 KB is two of the longest lines allowed (``MAX_LINE``), and a person's line or a
# program's request is far less.
READ_SIZE = 1 << 13


def tune(transport: Any) -> None:
    """Reads of ``READ_SIZE``; keepalive, or a dead peer's connection (and its place in the limits) is held for
    ever; no Nagle, or a short reply written while the last one is unacknowledged waits for the peer's delayed ACK
    (~40 ms)."""
    if hasattr(transport, "bufferSize"):  # a TCP or unix socket's transport
        transport.bufferSize = READ_SIZE
    if not ITCPTransport.providedBy(transport):
        return  # a unix socket, or a test's fake transport
    transport.setTcpNoDelay(True)
    transport.setTcpKeepAlive(True)
    sock = transport.getHandle()  # type: ignore[attr-defined]  # tcp.Connection has it; ITCPTransport does not say
    for name, value in KEEPALIVE:
        option = getattr(socket, name, None)  # Linux has all three; other systems some or none
        if option is not None:
            sock.setsockopt(socket.IPPROTO_TCP, option, value)
    # Urgent data stays in the stream: telnet's synch (``send synch``) is IAC DM with the DM sent urgent, and
    # without this the kernel took the DM out of the stream, leaving an IAC that ate the next typed byte
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_OOBINLINE, 1)


def write_now(transport: Any, data: bytes) -> None:
    """``transport.write(data)``, sent at once when it can be: on a TCP connection with nothing waiting in
    Twisted's buffer, the bytes go to the socket here, as asyncio's transports do, instead of being buffered
    until the reactor's next poll says the socket is writable. Twisted's way costs two ``epoll_ctl`` calls (the
    socket watched for writing, then not) and a pass of the poll loop on every write: a tenth of a move's CPU
    with four viewers at a table. Whatever the socket does not take, or any other transport's
    bytes, go through ``transport.write`` as before, after anything already buffered: the order never changes.

    It reads Twisted's buffers (``dataBuffer``, ``offset``, ``_tempDataBuffer``: abstract.FileDescriptor's) to
    know that nothing waits; tests/net/test_tcp_write.py checks them on the installed Twisted."""
    if type(transport) is Server and data and transport.connected and not transport.disconnecting \
            and not transport._writeDisconnected and not transport.TLS and not transport._tempDataBuffer \
            and transport.offset == len(transport.dataBuffer):
        try:
            sent = transport.socket.send(data)
        except OSError:  # full (EAGAIN) or broken: Twisted's own write buffers it, or finds the connection lost
            sent = 0
        if sent >= len(data):
            return
        data = data[sent:]
    transport.write(data)
