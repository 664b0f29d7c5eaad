"""A home's lines on their way to another process (visits.py): waiting for the answer of the table's process
(``Pending``), or for word of a table nobody here has heard of yet (``Awaiting``, unheard.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IDelayedCall

from mudwiz.errors import MudwizError
from mudwiz.session import Session


@dataclass
class Awaiting:
    """A /join or /watch of a table not heard of yet, waiting for word of it (unheard.py). The
    connection reads no line behind it until ``done`` fires (it has moved, or been answered): those lines are
    acted on after it, where it went."""

    session: Session
    text: str
    ok: Callable[[Any], None]
    error: Callable[[MudwizError], None]
    timer: IDelayedCall
    done: Deferred[None]


@dataclass
class Pending:
    """A forwarded command waiting for its answer."""

    ok: Callable[[Any], None]
    error: Callable[[MudwizError], None]
    node: str
    table: int
    timer: IDelayedCall
