"""A listener's side of the line framing: each connection admitted against the limits every listener shares (or
refused in one line), then given its transport's framing (telnet.py, raw.py, ssh.py, rlogin.py), over lines.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet.protocol import Factory, Protocol
from twisted.logger import Logger

from mudwiz.connection import LOGIN_TIMEOUT
from mudwiz.lobby import Lobby
from mudwiz.net.budget import Budget
from mudwiz.net.limits import ConnectionCounter
from mudwiz.outflow import Outflow
from mudwiz.sysops import address_key
from mudwiz.texts import Later, english

log = Logger()


def edge_address(host: str) -> str:
    """A peer's address as the server keeps it for its session, limits and bans (``sysops.address_key``): an IPv4
    address mapped into IPv6 by a dual-stack listener (``::ffff:127.0.0.1``) is its IPv4 address, or a ban of
    that address would neither disconnect its people nor spare a sysop's own."""
    try:
        return address_key(host)
    except ValueError:  # "" (a unix socket), or not an IP address
        return host


class Refused(Protocol):
    """A connection over a limit: one line saying why, then closed."""

    def __init__(self, message: str | Later) -> None:
        self.message = message  # before any word from the client: in the server's language (MUDWIZ_LANG)

    def connectionMade(self) -> None:
        assert self.transport is not None
        self.transport.write(str(self.message).encode() + b"\r\n")
        self.transport.loseConnection()


class LineFactory(Factory):
    """Shared state of every connection on a listener: the lobby, the message of the day, the login timeout and
    the connection counts (one counter for all listeners, so the limits hold whatever the transport), each
    connection's ``Budget`` and the server's ``Outflow``, the one way out of every connection's text."""

    def __init__(
        self, lobby: Lobby, motd: str, login_timeout: float = LOGIN_TIMEOUT, counter: ConnectionCounter | None = None,
        *, outflow: Outflow, budget: Budget | None = None,
    ) -> None:
        self.outflow = outflow
        self.budget = budget or Budget()  # each connection's fair share (net/budget.py)
        self.lobby = lobby
        self.motd = motd
        self.login_timeout = login_timeout
        self.counter = counter
        # while a connection handed over by another worker is adopted: what makes it go on as it stood (handed.py)
        self.resuming: Callable[[Any], None] | None = None

    def buildProtocol(self, addr: Any) -> Protocol:
        address = edge_address(str(getattr(addr, "host", "")))  # "" for a unix socket: no per-address limits
        if self.counter is not None:
            refusal = self.counter.admit(address)
            if refusal is not None:
                if refusal.news:
                    log.warn("refusing connections from {address}: {why}", address=address or "?",
                             why=english(refusal.message))
                return Refused(refusal.message)
        protocol = self.framing(address)
        protocol.factory = self
        return protocol

    def framing(self, address: str) -> Protocol:
        """The protocol a transport puts on an admitted connection, with a ``LineProtocol`` at its top."""
        raise NotImplementedError
