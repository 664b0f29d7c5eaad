"""A reactor's ``callLater`` whose turns a test runs one at a time: each call made during a turn runs at the next
(``task.Clock.advance(0)`` would also run the calls made while it runs: every turn at once); and the server's
output object whose turns they are, for the tests that build factories or protocols themselves."""

from __future__ import annotations

from typing import Any

from mudwiz.outflow import Outflow, install


def outflow() -> Outflow:
    """A fresh output object, installed as the process's, as ``makeService`` builds it: hand it to a factory
    (``outflow=``); the table's parts and the cluster's bus reach it as the process's."""
    return install(Outflow())


class Turns:
    """Hand ``callLater`` where a reactor's is wanted (``hold_per_turn``, ``slices.Sliced``); ``next()`` runs a
    turn. ``delays`` are the delays asked for, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, tuple[Any, ...]]] = []
        self.delays: list[float] = []

    def callLater(self, delay: float, fn: Any, *args: Any) -> Turns:  # noqa: N802  # IReactorTime's name
        self.calls.append((fn, args))
        self.delays.append(delay)
        return self

    def active(self) -> bool:  # as the delayed call returned: never cancelled here
        return False

    def cancel(self) -> None:
        pass

    def next(self) -> None:
        calls, self.calls = self.calls, []
        for fn, args in calls:
            fn(*args)
