"""A session that keeps what it is sent: for tests of the lobby and tables without any network."""

from __future__ import annotations

from typing import Any

from mudwiz.games.base import Event
from mudwiz.session import Session


class Recorder(Session):
    """Every message delivered, in order, so a test reads what a person at that seat would have been shown."""

    def __init__(self, name: str = "", mode: str = "json") -> None:
        super().__init__(name, mode)
        self.messages: list[dict[str, Any]] = []

    def deliver(self, message: dict[str, Any], event: Event | None = None) -> None:
        self.messages.append(message)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]

    def last_state(self) -> dict[str, Any]:
        return self.of_type("state")[-1]
