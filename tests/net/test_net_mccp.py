"""MCCP2 (mudwiz/net/mccp.py) on the telnet framing, fed bytes on a ``StringTransport``: offered to a telnet client;
after ``IAC SB COMPRESS2 IAC SE`` everything inflates to what the client would otherwise have been sent, each write
whole; the stream ends cleanly when the connection closes or the client withdraws it; a refusal changes nothing."""

from __future__ import annotations

import zlib

from test_net_terminal import WONT_NAWS, WONT_TTYPE, telnet_protocol

from mudwiz.net.mccp import START

IAC, WILL, DO, DONT = b"\xff", b"\xfb", b"\xfd", b"\xfe"
COMPRESS2 = b"\x56"


def test_a_client_that_agrees_gets_the_marker_and_then_everything_deflated() -> None:
    lines, transport = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(b"zipped\r\n" + WONT_NAWS + WONT_TTYPE)
    assert IAC + WILL + COMPRESS2 in transport.value()
    transport.clear()
    feed(IAC + DO + COMPRESS2)
    assert transport.value() == START
    transport.clear()
    inflater = zlib.decompressobj()
    feed(b"/say squeezed\r\n")
    assert b"zipped\x1b[0m: squeezed\r\n" in inflater.decompress(transport.value())  # each write inflates whole
    transport.clear()
    lines.close()
    assert inflater.decompress(transport.value()) == b"" and inflater.eof  # a clean end of the stream
    assert transport.disconnecting


def test_a_client_that_withdraws_it_reads_plain_bytes_after_the_streams_end() -> None:
    lines, transport = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(b"unzipped\r\n" + WONT_NAWS + WONT_TTYPE + IAC + DO + COMPRESS2)
    at = transport.value().index(START) + len(START)
    feed(IAC + DONT + COMPRESS2 + b"/say plain again\r\n")
    inflater = zlib.decompressobj()
    inflater.decompress(transport.value()[at:])
    assert inflater.eof and b": plain again\r\n" in inflater.unused_data


def test_a_client_that_refuses_never_sees_the_marker() -> None:
    lines, transport = telnet_protocol()
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(b"refuser\r\n" + WONT_NAWS + WONT_TTYPE + IAC + DONT + COMPRESS2 + b"/say as ever\r\n")
    lines.close()
    assert START not in transport.value() and transport.value().endswith(b": as ever\r\n")
