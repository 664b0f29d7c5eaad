"""Fixtures the framing tests share."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from twisted.internet import epollreactor


@pytest.fixture
def reactor() -> Iterator[Any]:
    """A real ``EPollReactor`` of the test's own, never run: its poller and waker closed after."""
    made = epollreactor.EPollReactor()
    yield made
    made._poller.close()
    for end in (made.waker.i, made.waker.o):  # the waker's pipe, which a reactor that never ran does not close
        try:
            os.close(end)
        except OSError:
            pass
