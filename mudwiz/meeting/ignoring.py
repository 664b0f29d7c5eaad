"""What ``/ignore`` hides of a message on its way to one person: an ignored name's chat (lobby, table, channel,
tell) and its lines among a channel's or a table's recent ones. Everything else comes through: a table's notices
about the ignored person still say where they sit and what they played."""

from __future__ import annotations

from collections.abc import Container
from typing import Any


def unignored(message: dict[str, Any], ignoring: Container[str]) -> dict[str, Any] | None:
    """``message`` as the person who ignores the lower-case names ``ignoring`` is shown it; None: not at all."""
    kind = message.get("type")
    if kind == "chat":
        return None if str(message.get("from", "")).lower() in ignoring else message
    if kind == "recent":
        return {**message, "lines": [line for line in message["lines"]
                                     if str(line.get("from", "")).lower() not in ignoring]}
    return message
