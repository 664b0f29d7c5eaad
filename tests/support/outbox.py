"""A connection's outbox as tests read it: what a framing would have written, with no socket under it."""

from __future__ import annotations

import json
from typing import Any


class Outbox:
    """What a framing would write: the text as sent, each ``secret(on)`` as a mark in it (``«on»``, ``«off»``,
    where telnet turns its echo off and on), and whether the connection asked to be closed."""

    def __init__(self) -> None:
        self.text = ""
        self.closed = False

    def send(self, text: str) -> None:
        self.text += text

    def close(self) -> None:
        self.closed = True

    def secret(self, on: bool) -> None:
        self.text += "«on»" if on else "«off»"

    def wait(self, done: Any) -> None:
        """No lines to hold back here: a test sends the next one when it chooses."""

    def take(self) -> str:
        text, self.text = self.text, ""
        return text

    def json_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.take().split("\n") if line]
