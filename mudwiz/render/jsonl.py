"""The bot protocol's encoding: one JSON object a line, UTF-8, no ANSI, no prompts (docs/protocol.md)."""

from __future__ import annotations

import json
from typing import Any

_PRIVATE = ("look",)


def encode(message: dict[str, Any]) -> str:
    data = {k: v for k, v in message.items() if k not in _PRIVATE}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
