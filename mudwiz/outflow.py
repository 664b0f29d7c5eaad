"""What is done before any output leaves the process.

A table's move is committed to the table journal before anyone is sent its effects (docs/architecture.md,
"Restart-safe tables"). On a running server the journal commits a reactor turn's moves together (one
transaction, issue #18) and holds them until something is about to be written: every writer of output (a
connection's ``LineProtocol.write``, the cluster's bus) calls ``before_output`` first, so whatever it sends,
the moves behind it are already committed. Kept apart from both so that neither imports the other.

Output is also held in batches (net/lines.py ``holding``: a line's output, or a reactor turn's): work that only
needs doing once a batch, whatever number of commands in it asked for it, is handed to ``at_batch_end``."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from twisted.logger import Logger

log = Logger(namespace=__name__)  # a compiled module has no frame for Logger() to find its name in

_gates: list[Callable[[], None]] = []
# The work for the end of the batch of output being held, by key; None while no batch is open.
_batch: dict[Hashable, Callable[[], None]] | None = None


def gate(fn: Callable[[], None]) -> Callable[[], None]:
    """Run ``fn`` before every piece of output from now on; the function returned undoes it."""
    _gates.append(fn)
    return lambda: _gates.remove(fn) if fn in _gates else None


def before_output() -> None:
    for fn in _gates:
        fn()


def at_batch_end(key: Hashable, fn: Callable[[], None]) -> None:
    """``fn()`` at the end of the batch of output being held, before that output leaves: once for ``key``,
    however many times it is asked for in the batch (the last ``fn`` given for it). At once when no batch is open
    (a test's direct call, a timer's outside any batch)."""
    if _batch is None:
        fn()
    else:
        _batch[key] = fn


def open_batch() -> None:
    """The holder of output (net/lines.py) starts a batch, unless one is open already."""
    global _batch
    if _batch is None:
        _batch = {}


def close_batch() -> None:
    """Do the batch's work, in the order it was first asked for (work it asks for in turn too), and close it. A
    failure of one piece is logged and costs only that piece: the output it was to come before still leaves."""
    global _batch
    while _batch:
        work, _batch = _batch, {}
        for fn in work.values():
            try:
                fn()
            except Exception:
                log.failure("work at the end of a batch of output failed")
    _batch = None
