"""MCCP2, the MUD Client Compression Protocol (telnet option 86, tintin.mudhalla.net/protocols/mccp): what the
server sends a telnet client that agreed to it, deflated with zlib.

The server offers ``IAC WILL COMPRESS2``; a client that answers ``DO`` is sent ``IAC SB COMPRESS2 IAC SE``, and
every byte after that marker, text and telnet commands alike, goes through one zlib stream, flushed
(``Z_SYNC_FLUSH``) after each write so that nothing waits in the compressor for more. The stream is finished
(``Z_FINISH``) when the client withdraws the option (``DONT``) or the server closes the connection, so the
client's inflater sees a clean end. A client that refuses it never sees the marker. Sans-I/O: telnetstream.py
writes what this returns.
"""

from __future__ import annotations

import zlib

from twisted.conch.telnet import IAC, SB, SE

COMPRESS2 = b"\x56"  # option 86
START = IAC + SB + COMPRESS2 + IAC + SE  # the last bytes sent as they are; everything after it is deflated


class Compressor:
    """One connection's zlib stream."""

    def __init__(self) -> None:
        self.stream = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION)

    def compress(self, data: bytes) -> bytes:
        """``data`` deflated and flushed: the client can inflate all of it at once."""
        return self.stream.compress(data) + self.stream.flush(zlib.Z_SYNC_FLUSH)

    def end(self) -> bytes:
        """The stream's end; after it the client reads plain bytes again."""
        return self.stream.flush(zlib.Z_FINISH)
