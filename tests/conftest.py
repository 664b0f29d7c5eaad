"""Shared fixtures: one live server for the wire tests of a session (each test uses its own names)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wire import running_server  # noqa: E402


@pytest.fixture(scope="session")
def server() -> Iterator[tuple[str, int]]:
    with running_server() as address:
        yield address
