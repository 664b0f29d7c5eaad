"""The bot protocol's encoding: one JSON object a line, UTF-8, no ANSI, no prompts (docs/protocol.md)."""

from __future__ import annotations

import json
from typing import Any

_PRIVATE = ("look",)


_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


class Shared(dict[str, Any]):
    """A message sent alike to many (an event every viewer sees the same): encoded once, not once a viewer.
    Nobody changes a message once it is handed out, so the first encoding stays right."""

    __slots__ = ("encoded",)

    def __init__(self, fields: dict[str, Any]) -> None:
        super().__init__(fields)
        self.encoded: str | None = None


def encode(message: dict[str, Any]) -> str:
    if isinstance(message, Shared):
        if message.encoded is None:
            message.encoded = _encode(message)
        return message.encoded
    return _encode(message)


def _encode(message: dict[str, Any]) -> str:
    if any(k in message for k in _PRIVATE):
        message = {k: v for k, v in message.items() if k not in _PRIVATE}
    return _encoder.encode(message)
