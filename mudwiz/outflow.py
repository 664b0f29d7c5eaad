"""What is done before any output leaves the process.

A table's move is committed to the table journal before anyone is sent its effects (docs/architecture.md,
"Restart-safe tables"). On a running server the journal commits a reactor turn's moves together (one
transaction, issue #18) and holds them until something is about to be written: every writer of output (a
connection's ``LineProtocol.write``, the cluster's bus) calls ``before_output`` first, so whatever it sends,
the moves behind it are already committed. Kept apart from both so that neither imports the other."""

from __future__ import annotations

from collections.abc import Callable

_gates: list[Callable[[], None]] = []


def gate(fn: Callable[[], None]) -> Callable[[], None]:
    """Run ``fn`` before every piece of output from now on; the function returned undoes it."""
    _gates.append(fn)
    return lambda: _gates.remove(fn) if fn in _gates else None


def before_output() -> None:
    for fn in _gates:
        fn()
