"""A ``/join N``, ``/watch N`` or ``/resume N`` of a table this process has not heard of (visits.py): it may have
just opened on another process whose word of it (``table_up``, tables.py) is still on the bus, which under load
lags by a second and more. The line waits, and its connection reads nothing behind it meanwhile: those lines are
acted on after it, wherever it goes (its connection moved there with them, net/handed.py, or answered here).

So as not to guess how long the word may take, every other live process is asked at once: home -> all
``which_table`` {id}; each answers the asker ``table_is`` {id, table}: the table's directory entry if it hosts
it, else null. An answer is published after whatever its process published before, so it is never older than
that process's word. The line goes on as soon as the table is heard of (by its word or an answer), or once every
process asked has said it is not theirs ("there is no table N"), or after ``ANSWER_WITHIN`` seconds if one does
not answer (``UNHEARD_WAIT`` when no other process is known)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IReactorTime

from mudwiz.cluster.waiting import Awaiting
from mudwiz.errors import MudwizError
from mudwiz.numbers import whole_number
from mudwiz.session import Session

if TYPE_CHECKING:
    from mudwiz.cluster.bus import Bus
    from mudwiz.cluster.upper import Home

ANSWER_WITHIN = 5.0  # seconds a line waits for the answer of another process
# seconds a line waits for word of its table when no other process is known to ask (one may be starting)
UNHEARD_WAIT = 0.5

Answer = Callable[[Any], None]


class Directory(Protocol):
    """What this needs of the table directory (``ClusterTables``)."""

    lobby: Home
    bus: Bus
    clock: IReactorTime

    def others(self) -> list[str]: ...

    def put(self, entry: dict[str, Any]) -> None: ...

    def entry_of(self, table: int) -> dict[str, Any] | None: ...


class Lines(Protocol):
    """What this needs of the visits: where a line goes, and the three ways it goes on."""

    moves: Callable[[Session, str], bool]

    def target(self, session: Session, text: str) -> tuple[str, int] | None: ...

    def forward(self, session: Session, text: str, ok: Answer, error: Callable[[MudwizError], None]) -> bool: ...

    def dispatch(self, session: Session, text: str) -> Any: ...


def then(answer: Callable[[Any], None], answered: Deferred[None]) -> Callable[[Any], None]:
    """``answer``, then ``answered`` fired, whatever ``answer`` did."""
    def both(value: Any) -> None:
        try:
            answer(value)
        finally:
            answered.callback(None)
    return both


class Unheard:
    """The lines waiting for word of their table, by its number, and the questions out about it."""

    def __init__(self, part: Directory, lines: Lines) -> None:
        self.part, self.lines = part, lines
        self.awaiting: dict[int, list[Awaiting]] = {}  # table number not heard of -> the lines asking for it
        self.asked: dict[int, set[str]] = {}  # table number -> the processes asked that have not answered yet
        part.bus.on("which_table", self._which)
        part.bus.on("table_is", self._table_is)

    def number(self, session: Session, text: str) -> int | None:
        """The number of a table ``/join N``, ``/watch N`` or ``/resume N`` asks for that nobody here knows of."""
        text = text.strip()
        if session.elsewhere is not None or session.table is not None or not text.startswith("/"):
            return None
        verb, _, rest = text[1:].partition(" ")
        number = whole_number(rest.strip().lstrip("#"))
        if verb.lower() not in ("join", "watch", "resume") or number is None or number in self.part.lobby.tables:
            return None
        return number

    def wait(self, number: int, session: Session, text: str, ok: Answer,
             error: Callable[[MudwizError], None]) -> Deferred[None]:
        """``text`` waits for word of table ``number``; the Deferred fires once it has gone on (moved or answered)."""
        if number not in self.asked and (others := set(self.part.others())):
            self.asked[number] = others
            self.part.bus.broadcast({"op": "which_table", "id": number})
        within = ANSWER_WITHIN if number in self.asked else UNHEARD_WAIT
        done: Deferred[None] = Deferred()
        timer = self.part.clock.callLater(within, self._unheard, number)
        self.awaiting.setdefault(number, []).append(Awaiting(session, text, ok, error, timer, done))
        return done

    def heard_of(self, table: int) -> None:
        """Table ``table`` was published: the lines waiting for it go on (to its process, or answered here)."""
        self.asked.pop(table, None)
        self._all_go_on(table)

    def _all_go_on(self, table: int) -> None:
        for waiting in self.awaiting.pop(table, []):
            if waiting.timer.active():
                waiting.timer.cancel()
            self.go_on(waiting)

    def _unheard(self, table: int) -> None:
        waiting = self.awaiting.get(table, [])
        for entry in [w for w in waiting if not w.timer.active()]:
            waiting.remove(entry)
            self.go_on(entry)
        if not waiting:
            self.awaiting.pop(table, None)
            self.asked.pop(table, None)

    def _which(self, m: dict[str, Any]) -> None:
        """Another process asks whether a table is ours: its entry, or null."""
        if m["from"] != self.part.bus.node:
            table = int(m["id"])
            self.part.bus.send(m["from"], {"op": "table_is", "id": table, "table": self.part.entry_of(table)})

    def _table_is(self, m: dict[str, Any]) -> None:
        """An answer: the table itself (heard of now), or one process fewer that might host it."""
        if m.get("table"):
            self.part.put(m["table"])  # (the directory's, as its word would: ``heard_of`` follows)
            return
        self._not_at(str(m["from"]), int(m["id"]))

    def gone(self, node: str) -> None:
        """``node`` is gone: no answer is waited for from it."""
        for table in [t for t, waiting_for in self.asked.items() if node in waiting_for]:
            self._not_at(node, table)

    def _not_at(self, node: str, table: int) -> None:
        waiting_for = self.asked.get(table)
        if waiting_for is None:
            return
        waiting_for.discard(node)
        if not waiting_for:  # nobody hosts it: "there is no table N" now, not after the wait
            del self.asked[table]
            self._all_go_on(table)

    def go_on(self, waiting: Awaiting) -> None:
        """A line that waited for word of its table: its connection moved there, forwarded, or carried out here
        ("there is no table N"); then the lines behind it are read."""
        session, done, answering = waiting.session, waiting.done, False
        try:
            if not session.connected or self.part.lobby.users.get(session.name.lower()) is not session:
                return
            if self.lines.target(session, waiting.text) is not None:
                # the connection, reading nothing behind this line yet, moves with the lines behind it; a visitor
                # reads on once the table's process has answered
                if self.lines.moves(session, waiting.text):
                    return
                answering = self.lines.forward(session, waiting.text, then(waiting.ok, done),
                                               then(waiting.error, done))
                if answering:  # (``done`` fires with its answer)
                    return
            try:
                waiting.ok(self.lines.dispatch(session, waiting.text))
            except MudwizError as exc:
                waiting.error(exc)
        finally:
            if not answering:
                done.callback(None)
