"""Which lines move their connection to another process instead of making the user a visitor there: under
``mudwiz serve --workers N`` (one host), ``/join N``, ``/watch N`` or ``/resume N`` of a table another worker
hosts, from a user at no table. The connection itself is handed over by the framing (mudwiz/net/handed.py,
handed in at startup as ``hand``: the cluster imports nothing above it); when it cannot be (SSH, TLS, MCCP2, a
password dialogue, the worker's socket gone), the line goes the visitor's way (visits.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mudwiz.cluster.tables import ClusterTables
    from mudwiz.session import Session

MOVING_VERBS = ("join", "watch", "resume")


class Handoff:
    """Decides whether a line moves the user's connection, and has it moved (``hand(session, node, text)``: False
    when the framing cannot move it)."""

    def __init__(self, tables: ClusterTables, hand: Callable[[Session, str, str], bool]) -> None:
        self.tables = tables
        self.hand = hand
        self.moved = 0  # connections handed to another worker (its log says which)

    def moves(self, session: Session, text: str) -> bool:
        """Whether ``text`` moved the session's connection to the process hosting the table it names."""
        text = text.strip()
        if session.table is not None or session.elsewhere is not None or not text.startswith("/"):
            return False
        verb = text[1:].partition(" ")[0].lower()
        if verb not in MOVING_VERBS:
            return False
        target = self.tables.visits.target(session, text)
        if target is None or target[0] == self.tables.me or not self.tables.reachable(target[0]):
            return False
        if not self.hand(session, target[0], text):
            return False
        self.moved += 1
        return True
