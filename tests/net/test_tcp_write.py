"""``net.tcp.write_now``: bytes to a real loopback TCP connection are sent at once when nothing waits in Twisted's
buffer, and go through that buffer, in order, when something does. On the real reactor, stepped by
hand, and a real client socket."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from twisted.internet import reactor as _reactor
from twisted.internet import tcp
from twisted.internet.protocol import Factory, Protocol
from twisted.internet.testing import StringTransport

from mudwiz.net.tcp import write_now

reactor: Any = _reactor


@pytest.fixture
def accepted() -> Iterator[tuple[Any, socket.socket]]:
    """A connection the real reactor accepted (its transport) and the client's socket."""
    protocols: list[Protocol] = []

    class Accepting(Factory):
        def buildProtocol(self, addr: Any) -> Protocol:
            protocols.append(Protocol())
            return protocols[-1]

    port = reactor.listenTCP(0, Accepting(), interface="127.0.0.1")
    client = socket.create_connection(("127.0.0.1", port.getHost().port))
    deadline = time.monotonic() + 10
    while not protocols and time.monotonic() < deadline:
        reactor.iterate(0.01)
    transport = protocols[0].transport
    try:
        yield transport, client
    finally:
        client.close()
        transport.abortConnection()
        port.stopListening()
        for _ in range(5):
            reactor.iterate(0)


def test_twisted_still_has_the_buffers_write_now_reads(accepted: tuple[Any, socket.socket]) -> None:
    """write_now reads abstract.FileDescriptor's buffers: a Twisted that renamed them must fail here, not slow."""
    transport, _ = accepted
    assert type(transport) is tcp.Server
    assert (transport.dataBuffer, transport.offset, transport._tempDataBuffer) == (b"", 0, [])
    assert (transport.TLS, transport._writeDisconnected, transport.connected, transport.disconnecting) == (
        False, False, True, False)


def test_bytes_leave_at_once_with_no_turn_of_the_reactor(accepted: tuple[Any, socket.socket]) -> None:
    transport, client = accepted
    write_now(transport, b"hello\r\n")
    assert transport not in reactor.getWriters(), "nothing buffered, no wait for the socket to be writable"
    client.settimeout(5)
    assert client.recv(100) == b"hello\r\n", "the reactor never turned: only a send here could have sent it"


def test_what_the_socket_cannot_take_is_buffered_and_later_bytes_wait_behind_it(
        accepted: tuple[Any, socket.socket]) -> None:
    transport, client = accepted
    chunk = bytes(range(256)) * 256  # 64 KiB
    sent = []
    for i in range(200):  # far more than the kernel's buffers hold while the client reads nothing
        piece = bytes([i % 251]) + chunk
        write_now(transport, piece)
        sent.append(piece)
        if transport in reactor.getWriters():
            break
    assert transport in reactor.getWriters(), "the socket filled up and Twisted holds the rest"
    write_now(transport, b"the end")  # must not jump ahead of what Twisted holds
    sent.append(b"the end")
    expected = b"".join(sent)
    client.setblocking(False)
    received = bytearray()
    deadline = time.monotonic() + 30
    while len(received) < len(expected) and time.monotonic() < deadline:
        try:
            received += client.recv(1 << 20)
        except BlockingIOError:
            reactor.iterate(0.01)
    assert bytes(received) == expected


def test_any_other_transport_is_written_as_ever() -> None:
    transport = StringTransport()
    write_now(transport, b"plain")
    assert transport.value() == b"plain"
