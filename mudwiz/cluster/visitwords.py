"""What a visitor to another process's table is told when that process cannot be reached, each a ``Later`` worded
in the visitor's language by their own process (docs/scaling.md, the failure table)."""

from __future__ import annotations

from mudwiz.errors import BadCommand
from mudwiz.texts import Later, later


def not_answering(table: int) -> BadCommand:
    return BadCommand(later("table {n} is on a server process that is not answering; try again in a few seconds",
                            n=table))


def unreachable_at_login(table: int, takeover: bool) -> Later:
    """At login, their seat's process does not answer: a takeover is coming (``takeover``), or Redis is away and
    the seat is kept where it is (logging in again once the processes hear each other gives it back)."""
    if takeover:
        return later("table {n} is on a server process that is not answering; your seat is given back when another "
                     "process takes the table over, in a few seconds", n=table)
    return later("table {n} is on a server process that is not answering; the server's processes cannot reach each "
                 "other now; your seat is kept: log in again in a minute", n=table)


def node_lost(table: int, takeover: bool, seated: bool) -> Later:
    """The process of the table they are at is gone (``takeover``: stopped, another takes it over) or cannot be
    heard (Redis away)."""
    if not takeover:
        return later("the server process of table {n} cannot be reached; the server's processes cannot reach each "
                     "other now; your seat is kept: log in again in a minute", n=table)
    if seated:
        return later("the server process of table {n} stopped; another takes the table over in a few seconds, and "
                     "your seat with it", n=table)
    return later("the server process of table {n} stopped; another takes the table over in a few seconds, and you "
                 "watch it there again", n=table)
