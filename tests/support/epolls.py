"""A real ``EPollReactor`` of a test's own, never run (tests/net's turn and polling tests)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from twisted.internet import epollreactor


def unrun_epoll() -> Iterator[Any]:
    """The reactor, for a fixture to yield from; its poller and its waker's pipe closed after."""
    made = epollreactor.EPollReactor()
    yield made
    made._poller.close()
    for end in (made.waker.i, made.waker.o):  # the waker's pipe, which a reactor that never ran does not close
        try:
            os.close(end)
        except OSError:
            pass
