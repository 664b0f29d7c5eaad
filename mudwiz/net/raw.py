"""Raw TCP lines: the shared line protocol straight on the socket, no telnet layer (``MUDWIZ_RAW_LISTEN``).

For ``nc``, bots and BBS links that pass bytes through: a byte 255 is a byte like any other (on the telnet port
it starts a telnet command), so nothing a client sends is ever taken for negotiation and nothing is escaped on
the way out. Lines are written ending in ``\\r\\n``, the same bytes the telnet port sends, in plain text: no
ANSI colour until ``/mode ansi`` asks for it (``nc`` shows escape codes as they are, and no terminal type says
what the far end shows).
"""

from __future__ import annotations

from twisted.internet.protocol import Protocol

from mudwiz.net.lines import LineProtocol
from mudwiz.net.listener import LineFactory


class RawLines(LineProtocol):
    """The line protocol on the socket itself."""

    newline = "\r\n"

    def __init__(self, factory: LineFactory, address: str) -> None:
        super().__init__(factory, address)
        self.connection.session.mode = "ascii"  # the welcome and the name prompt plain too; /mode still decides


class RawFactory(LineFactory):
    """The raw listener: the same lobby, login and connection limits as telnet's."""

    def framing(self, address: str) -> Protocol:
        return RawLines(self, address)
