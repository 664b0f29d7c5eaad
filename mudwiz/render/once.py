"""A message said to many, drawn once for each way of drawing it: a lobby chat line to 200 people was drawn 200
times (translated, wrapped, painted, fitted: 10-20 ms of the reactor a line, its sender's share spent on the
drawing), though they read it in a handful of modes and widths.

Only for kinds whose drawing depends on nothing but the message and the reader's way of drawing it (``SAID``: no
renderer remembers anything of them), and for the one message being said now: the last one drawn is kept, no
more. A message is a new dict each time it is said (``People.chat``), never changed once delivered."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")
SAID = frozenset({"chat"})


class Drawn:
    """The message last drawn, and how it was drawn for each key."""

    def __init__(self) -> None:
        self.message: dict[str, Any] | None = None
        self.by_key: dict[Hashable, Any] = {}


_last = Drawn()


def drawn(message: dict[str, Any], key: Hashable, draw: Callable[[], T]) -> T:
    """``draw()``, or what it gave for this ``message`` and ``key`` (the reader's mode, width, charset and
    language) the last time: the same object, so never changed by a caller."""
    if message.get("type") not in SAID:
        return draw()
    if message is not _last.message:
        _last.message, _last.by_key = message, {}
    if key not in _last.by_key:
        _last.by_key[key] = draw()
    result: T = _last.by_key[key]
    return result
