"""How many connections the server takes, and from whom: counting without I/O, consulted by the edge.

Without limits one address could open connections until the process runs out of file descriptors, after which
every new connection, anyone's, fails. So (environment variables, read by ``mudwiz.service``):

- ``MUDWIZ_MAX_PER_ADDRESS`` (default 20): connections one address may hold at once; 0: no limit.
- ``MUDWIZ_MAX_UNNAMED_PER_ADDRESS`` (default 5): of those, how many may be not yet logged in; 0: no limit.
  A flood from one address thus fills its own share, never the server.
- ``MUDWIZ_MAX_CONNECTIONS`` (default, and ceiling: the open-file limit less ``FD_RESERVE``, kept for the
  process's own files): connections the whole server holds.
- ``MUDWIZ_LOGGED_IN_HEADROOM`` (default a tenth of ``MUDWIZ_MAX_CONNECTIONS``): connections not yet logged in
  may not use the last N slots, so anonymous connections from many addresses never fill the server; only
  connections that have logged in reach those slots.

A refused connection is sent one line saying why and closed; the edge does that. Connections without an address
(a unix socket) count only towards the server's limit. ``raise_fd_limit`` lifts the soft open-file limit to the
hard one at start, so that the defaults are as large as the system allows.
"""

from __future__ import annotations

import resource
from collections.abc import Mapping
from dataclasses import dataclass, field

from mudwiz.texts import Later, later

PER_ADDRESS = 20
UNNAMED_PER_ADDRESS = 5
FD_RESERVE = 32  # descriptors never given to connections: stdio, the reactor's own, log files, the listener
HEADROOM_SHARE = 10  # by default the last tenth of the slots is out of reach of connections not yet logged in


def raise_fd_limit() -> tuple[int, int, int]:
    """Lift the soft RLIMIT_NOFILE to the hard limit where the system lets us. Returns (soft before, soft now,
    hard); an unlimited hard limit is not always accepted as a soft one, and then the soft limit stays."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):
            pass
    now = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return soft, now, hard


@dataclass(frozen=True)
class Limits:
    """The four numbers; ``total`` and ``headroom`` follow from the open-file limit unless set."""

    total: int
    headroom: int
    per_address: int = PER_ADDRESS
    unnamed_per_address: int = UNNAMED_PER_ADDRESS

    @classmethod
    def from_env(cls, environ: Mapping[str, str], fd_limit: int) -> Limits:
        """Read the ``MUDWIZ_*`` settings; the server's limit never exceeds what the open-file limit allows."""
        ceiling = max(1, fd_limit - FD_RESERVE)
        total = min(_setting(environ, "MUDWIZ_MAX_CONNECTIONS", ceiling), ceiling)
        headroom = _setting(environ, "MUDWIZ_LOGGED_IN_HEADROOM", total // HEADROOM_SHARE)
        return cls(
            total=max(1, total),
            headroom=min(headroom, max(0, total - 1)),  # at least one slot stays open to a new connection
            per_address=_setting(environ, "MUDWIZ_MAX_PER_ADDRESS", PER_ADDRESS),
            unnamed_per_address=_setting(environ, "MUDWIZ_MAX_UNNAMED_PER_ADDRESS", UNNAMED_PER_ADDRESS),
        )

    def describe(self) -> str:
        return (f"at most {self.total} connections ({self.total - self.headroom} not yet logged in), "
                f"{self.per_address or 'any number'} per address "  # i18n: not text (the operator's log line)
                f"({self.unnamed_per_address or 'any number'} not yet logged in)")


def _setting(environ: Mapping[str, str], name: str, default: int) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {raw!r}") from None
    if value < 0:
        raise ValueError(f"{name} must not be negative, not {value}")
    return value


@dataclass(frozen=True)
class Refusal:
    """Why a connection is refused: ``message`` is the one line it is sent; ``news`` is whether this is the first
    refusal of its kind since a connection was last admitted or closed there, worth one log line (a flood is
    logged once, not once a connection)."""

    message: str | Later
    news: bool


@dataclass
class _Peer:
    connections: int = 0
    unnamed: int = 0
    refusing: bool = False


@dataclass
class ConnectionCounter:
    """Connections held now, per address and in all, each either logged in or not yet. The edge asks ``admit``
    when a connection arrives and says ``logged_in`` and ``closed`` as they happen."""

    limits: Limits
    connections: int = 0
    unnamed: int = 0
    peers: dict[str, _Peer] = field(default_factory=dict)
    full: bool = False  # a refusal for want of server slots has been logged since the last change

    def admit(self, address: str) -> Refusal | None:
        """Count a new connection from ``address`` (not yet logged in), or say why it is refused."""
        limits = self.limits
        peer = self.peers.get(address, _Peer())
        if address and limits.per_address and peer.connections >= limits.per_address:
            return self._refuse_peer(peer, later("too many connections from your address (at most {n}); close one "
                                                 "and try again", n=limits.per_address))
        if address and limits.unnamed_per_address and peer.unnamed >= limits.unnamed_per_address:
            return self._refuse_peer(peer, later("too many connections from your address not yet logged in (at most "
                                                 "{n}); log in on one of them first", n=limits.unnamed_per_address))
        if self.connections >= limits.total or self.unnamed >= limits.total - limits.headroom:
            news, self.full = not self.full, True
            return Refusal(later("the server has too many connections; try again later"), news)
        self.connections += 1
        self.unnamed += 1
        if address:
            peer.connections += 1
            peer.unnamed += 1
            peer.refusing = False
            self.peers[address] = peer
        return None

    def logged_in(self, address: str) -> None:
        """A connection from ``address`` gave its name: it no longer counts as not logged in."""
        self.unnamed -= 1
        self.full = False
        if address:
            peer = self.peers[address]
            peer.unnamed -= 1
            peer.refusing = False

    def closed(self, address: str, logged_in: bool) -> None:
        """A connection admitted from ``address`` is gone."""
        unnamed = 0 if logged_in else 1
        self.connections -= 1
        self.unnamed -= unnamed
        self.full = False
        if address:
            peer = self.peers[address]
            peer.connections -= 1
            peer.unnamed -= unnamed
            peer.refusing = False
            if not peer.connections:
                del self.peers[address]

    def _refuse_peer(self, peer: _Peer, message: Later) -> Refusal:
        news, peer.refusing = not peer.refusing, True
        return Refusal(message, news)
