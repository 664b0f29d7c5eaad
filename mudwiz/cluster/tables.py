"""Tables across the cluster's processes: one directory of every table, numbers no two processes give twice, play
at a table another process hosts (visits.py), coming back on any process, and the takeover of a dead one's tables.

A table lives on the process whose user opened it (its *host*). Every process keeps a replica of the others'
tables, the **directory**: table id -> {node, summary (what /tables shows), held (the seats kept for people not
connected: lower-cased name -> {spelling, code_hash})}. Each host publishes its own tables' entries when they
change (``table_up``, ``table_gone``; looked at every ``PUBLISH_EVERY`` seconds, and at once after a drop or a
return), and sends a snapshot (``tables``) to a process it first hears. A guest's resume code travels as its
SHA-256 only, so that any process can check the code a returning guest types.

Table numbers come in blocks of ``ID_BLOCK`` from the store's counter (``draw_table_ids``), so ``/new`` costs a
transaction once every ``ID_BLOCK`` tables, and no number is given twice, even after Redis forgets everything.

At start a process restores only its own journaled tables; when a process is gone, the survivors race for a Redis
lock, and the winner (once Redis confirms the process holds no name) claims its tables
in the journal and restores them as a restart would (seats kept for the grace period, resume codes from the
journal), then publishes them: the users connected elsewhere are seated again at once, the others at their next
login anywhere.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from twisted.internet import defer, task
from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from mudwiz.cluster.locks import LOCK_FOR, TakeoverLocks
from mudwiz.cluster.visitor import Visitor
from mudwiz.cluster.visits import Visits
from mudwiz.errors import BadCommand, MudwizError
from mudwiz.numbers import whole_number
from mudwiz.session import Session
from mudwiz.store import StoreError
from mudwiz.store.base import held_key
from mudwiz.table.recording import seat_kind
from mudwiz.texts import later

if TYPE_CHECKING:
    from mudwiz.cluster.nodes import Nodes
    from mudwiz.cluster.service import ClusterService
    from mudwiz.cluster.upper import Home, Upper
    from mudwiz.store import Store
    from mudwiz.table import Table

log = Logger()

PUBLISH_EVERY = 0.25  # seconds between looks at this process's tables for changes to publish
ID_BLOCK = 100  # table numbers drawn at once


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def draw_table_ids(store: Store, count: int = ID_BLOCK) -> range:
    """A block of table numbers no other process gets: the store's counter, above every journaled table. The one
    place numbers are drawn."""
    return store.reserve_table_ids(count)


class ClusterTables:
    """The cluster part for tables (``cluster.add``): the directory, the numbers, the visits, the takeover."""

    def __init__(self, lobby: Home, cluster: ClusterService, clock: IReactorTime, store: Store | None,
                 upper: Upper) -> None:
        self.lobby = lobby
        self.upper = upper
        self.cluster = cluster
        self.bus = cluster.bus
        self.nodes = cluster.nodes
        self.locks = TakeoverLocks(self.bus, self.nodes)
        self.clock = clock
        self.store = store
        self.directory: dict[int, dict[str, Any]] = {}  # the other processes' tables: id -> entry
        self.published: dict[int, str] = {}  # this process's tables as last published: id -> entry as JSON
        self.ids: list[int] = []
        self.gone: set[str] = set()  # nodes gone (no beat, or bye) and not heard since
        self._loop: task.LoopingCall | None = None
        self._soon: IDelayedCall | None = None
        self.visits = Visits(self, upper)
        self.bus.on("table_up", self._table_up)
        self.bus.on("table_gone", self._table_gone)
        self.bus.on("tables", self._snapshot)
        self.bus.on("taken_over", self._taken_over)
        self.nodes.on_new.append(self._node_new)
        self.nodes.on_gone.append(self._node_gone)
        self.bus.on_resubscribed.append(self._resend)

    @property
    def me(self) -> str:
        return self.bus.node

    # ------------------------------------------------------------ starting and stopping

    @defer.inlineCallbacks
    def start(self) -> Any:
        if self.lobby.journal is not None:  # a visiting guest's seat is journaled with their resume code too
            own = self.lobby.journal.resume_code
            self.lobby.journal.resume_code = lambda name: own(name) or self.visits.code_of(name)
        yield self.restore_own()
        self._loop = task.LoopingCall(self.publish)
        self._loop.clock = self.clock
        self._loop.start(PUBLISH_EVERY, now=True)

    def stop(self) -> None:
        """A clean stop: the journal stops before the node says ``bye`` (the parts stop first), since a survivor
        takes this node's tables over the moment it hears it, and must find them as they will stay."""
        if self.lobby.journal is not None:
            self.lobby.journal.stop()
        if self._loop is not None and self._loop.running:
            self._loop.stop()

    @defer.inlineCallbacks
    def restore_own(self) -> Any:
        """This process's own journaled tables, under its takeover lock: a survivor taking them over meanwhile
        finishes first, and then they are its, not ours."""
        if self.store is None:
            return
        for _ in range(int(LOCK_FOR / 250) + 1):
            if (yield self.locks.lock(self.me)):
                break
            yield task.deferLater(self.clock, 0.25, lambda: None)
        try:
            restored = self.upper.restore(self.store.open_tables(self.me), self.upper.read_held(self.store, self.me))
            log.info("node {node}: {n} journaled tables restored", node=self.me, n=len(restored))
        finally:
            yield self.locks.unlock(self.me)

    # ------------------------------------------------------------ numbers

    def new_table_id(self) -> int:
        """The next number of this process's block, a new block drawn when it is used up (one small transaction
        every ``ID_BLOCK`` tables)."""
        if not self.ids and self.store is not None:
            try:
                self.ids.extend(draw_table_ids(self.store))
            except StoreError as exc:
                raise BadCommand(later("no table number can be drawn now ({why}); try again in a moment",
                                       why=str(exc))) from None
        if not self.ids:
            raise BadCommand(later("no table number can be drawn: this server process keeps no store"))
        self.soon()  # the others list it at once: its host's friends /join it from their nodes next
        return self.ids.pop(0)

    # ------------------------------------------------------------ the directory: ours, published

    def entry(self, table: Table) -> dict[str, Any]:
        """A table as the directory has it: ``held`` the seats kept for people not connected, ``people`` every
        person's seat with the node they are connected to (``home``): all of them are held once this process is
        gone, and a visitor's once their home is."""
        held, people = {}, {}
        for seat in table.seats:
            key = seat.name.lower()
            if seat_kind(seat) == "person" or table.holds_seat_for(key):
                code = self.lobby.resume_codes.get(key) or self.visits.code_of(key)
                people[key] = {"spelling": seat.name, "code_hash": code_hash(code) if code else None,
                               "home": seat.home if isinstance(seat, Visitor) else self.me}
                if table.holds_seat_for(key):
                    held[key] = people[key]
        return {"id": table.id, "node": self.me, "summary": table.summary(), "held": held, "people": people}

    def soon(self) -> None:
        """Publish as soon as what is under way is done (a new table, a visitor's command), not at the next look."""
        if self._soon is None or not self._soon.active():
            self._soon = self.clock.callLater(0, self.publish)

    def publish(self) -> None:
        """Publish what changed at this process's tables since the last look."""
        for table in list(self.lobby.tables.values()):
            self.publish_table(table)
        for table_id in [t for t in self.published if t not in self.lobby.tables]:
            del self.published[table_id]
            self.bus.broadcast({"op": "table_gone", "id": table_id})

    def publish_table(self, table: Table) -> None:
        """Publish ``table`` now if it changed: a seat kept for a player who dropped must reach the other processes
        before the news that they left, or their name is anyone's there for a moment (``Lobby.disconnect``)."""
        entry = self.entry(table)
        text = json.dumps(entry, sort_keys=True)
        if self.published.get(table.id) != text:
            self.published[table.id] = text
            self.bus.broadcast({"op": "table_up", "table": entry})

    def snapshot(self) -> dict[str, Any]:
        return {"op": "tables", "tables": [self.entry(t) for t in self.lobby.tables.values()]}

    def _node_new(self, node: str) -> None:
        """``node`` is heard (first, or again after an outage): it is sent our tables, and our users whose seats
        its tables keep take them back (its tables may have been heard while it was taken for gone)."""
        self.gone.discard(node)
        self.bus.send(node, self.snapshot())
        for entry in [e for e in self.directory.values() if e["node"] == node]:
            self.reseat(entry)

    def _resend(self) -> None:
        self.bus.broadcast(self.snapshot())

    # ------------------------------------------------------------ the directory: theirs

    def _table_up(self, m: dict[str, Any]) -> None:
        if m["from"] == self.me:
            return
        self.put(m["table"])

    def put(self, entry: dict[str, Any]) -> None:
        """Another process's table, new or changed; a user of ours whose seat it keeps and who was at that table
        (its process restarted, or another took it over) is seated again at once."""
        table_id = int(entry["id"])
        if table_id in self.lobby.tables:  # ours now (taken over): theirs is stale
            return
        self.directory[table_id] = entry
        self.visits.unheard.heard_of(table_id)
        self.reseat(entry)
        for session, node in self.watching_elsewhere(table_id):  # its process changed: they watch it there
            if node != entry["node"]:
                self.watch_again(session, table_id)

    def reseat(self, entry: dict[str, Any]) -> None:
        """Our connected users whose seat the table of ``entry`` keeps, who were at it, ask for it back."""
        table_id = int(entry["id"])
        for key in entry.get("held", {}):
            session = self.lobby.users.get(key)
            if session is not None and session.connected and session.elsewhere is not None \
                    and session.elsewhere[1] == table_id:
                self.visits.reattach(session, entry["node"], table_id)

    def watching_elsewhere(self, table_id: int) -> list[tuple[Session, str]]:
        """Our connected users who watch ``table_id`` at another process, with that process's node."""
        out = []
        for session in self.lobby.users.values():
            where = session.elsewhere
            if session.connected and where is not None and where[1] == table_id and not where[2]:
                out.append((session, where[0]))
        return out

    def watch_again(self, session: Session, table_id: int) -> None:
        """``session`` watched ``table_id`` on a process that stopped; another has it now: watch it there (it was
        left stranded, its commands sent to a process no longer answering)."""
        self.visits.place(session, None)

        def failed(exc: MudwizError) -> None:
            session.notice(later("table {n} moved to another server process; /watch {n} to watch it again ({why})",
                                 n=table_id, why=exc.args[0] if exc.args else str(exc)))

        self.visits.forward(session, f"/watch {table_id}", lambda _: None, failed)

    def _table_gone(self, m: dict[str, Any]) -> None:
        entry = self.directory.get(int(m["id"]))
        if entry is not None and entry["node"] == m["from"]:
            del self.directory[int(m["id"])]

    def _snapshot(self, m: dict[str, Any]) -> None:
        node = m["from"]
        if node == self.me:
            return
        ids = {int(e["id"]) for e in m["tables"]}
        for table_id in [t for t, e in self.directory.items() if e["node"] == node and t not in ids]:
            del self.directory[table_id]
        for entry in m["tables"]:
            self.put(entry)

    def summaries(self, here: Iterable[Table]) -> list[dict[str, Any]]:
        """Every table of the server, by number: ours (``here``) as they are, the others' as last published."""
        rows = {t.id: t.summary() for t in here}
        for table_id, entry in self.directory.items():
            rows.setdefault(table_id, entry["summary"])
        return [rows[t] for t in sorted(rows)]

    def remote_table(self, number: str) -> tuple[str, int] | None:
        """(node, id) of table ``number`` when another process hosts it."""
        n = whole_number(number)
        if n is None or n in self.lobby.tables or n not in self.directory:
            return None
        return self.directory[n]["node"], n

    def takeover_soon(self) -> bool:
        """Whether a process taken for gone has its tables taken over in a few seconds: only with Redis there
        without a break (``Nodes.redis_steady``); in an outage it may be alive, and nothing is taken over."""
        return self.nodes.redis_steady()

    def others(self) -> list[str]:
        """The other processes alive as far as this one knows."""
        return [node for node in self.nodes.live() if node != self.me and node not in self.gone]

    def entry_of(self, table_id: int) -> dict[str, Any] | None:
        """The directory entry of this process's table ``table_id``, or None if it hosts no such table."""
        table = self.lobby.tables.get(table_id)
        return self.entry(table) if table is not None else None

    def reachable(self, node: str) -> bool:
        """Whether ``node`` is worth asking: not known gone (one not heard yet is asked; ``ANSWER_WITHIN``
        bounds the wait)."""
        return node not in self.gone

    # ------------------------------------------------------------ a process gone: its tables taken over

    def _node_gone(self, node: str) -> None:
        if self.cluster.leaving:  # its bye heard as this process stops too (``ClusterService.leaving``)
            return
        self.gone.add(node)
        self.visits.node_gone(node, self.takeover_soon())
        self.take_over(node).addErrback(lambda f: takeover_cut_off(f, node, self.nodes, self.cluster.leaving))

    @defer.inlineCallbacks
    def take_over(self, node: str) -> Any:
        """Race the other survivors for ``node``'s tables; the winner, once Redis says ``node`` is dead (not just
        slow to beat), claims them in the journal and restores them here."""
        if self.store is None or not (yield self.locks.lock(node)):
            return
        try:
            if not (yield self.nodes.name_given_up(node)):
                return
            if not self.nodes.redis_steady():  # its key may be missing only because Redis came back empty
                log.info("node {node} not taken over: Redis was away until moments ago; judged again by its "
                         "beats", node=node)
                self.nodes.judge_again(node)
                return
            claim = self.store.claim_tables(node, self.me)
            claimed, held = set(claim.tables), set(claim.held)
            if not claimed and not held:  # another survivor was first, or it had none
                return
            # its held records only: ours are on their way to the store from this process
            restored = self.upper.restore([t for t in self.store.open_tables(self.me) if t.id in claimed],
                                          [r for r in self.upper.read_held(self.store, self.me) if held_key(r) in held])
            log.info("node {node} took over {n} tables of node {dead}: {ids}; and {held} records it held",
                     node=self.me, n=len(restored), dead=node, ids=sorted(claimed), held=len(held))
            for table in restored:
                self.directory.pop(table.id, None)
                self.seat_again(table)
            self.publish()
            self.bus.broadcast({"op": "taken_over", "dead": node, "tables": sorted(claimed)})
        finally:
            yield self.locks.unlock(node)

    def seat_again(self, table: Table) -> None:
        """Our users who sat at ``table`` on the dead process, here now, take their seats back at once."""
        for seat in list(table.seats):
            session = self.lobby.users.get(seat.name.lower())
            if session is None or session.elsewhere is None or session.elsewhere[1] != table.id:
                continue
            self.visits.place(session, None)
            away = self.lobby.away.pop(seat.name.lower(), None)
            if away is not None and away[1].active():
                away[1].cancel()
            table.reattach(session)
        for session, _ in self.watching_elsewhere(table.id):  # and those who watched it, here now, watch it again
            self.visits.place(session, None)
            if not self.lobby.watch_again(session) and session.table is None:
                table.watch(session)

    def _taken_over(self, m: dict[str, Any]) -> None:
        """The dead process's tables are another's now (published just before): what is left of it is gone."""
        for table_id in [t for t, e in self.directory.items() if e["node"] == m["dead"]]:
            del self.directory[table_id]


def takeover_cut_off(failure: Any, node: str, nodes: Nodes, leaving: bool) -> None:
    """A takeover cut off by Redis or the store (a connection lost mid-way): ``node`` is judged again by its beats
    (``Nodes.judge_again``), and taken over then if none comes, else its tables would be left to nobody; a bug is
    logged with its traceback; a process leaving has nothing more to do."""
    if failure.type.__module__ == "builtins":
        log.failure("takeover of {node} failed", failure, node=node)
    elif not leaving:
        log.warn("takeover of {node} cut off ({why}): tried again unless it is heard within {s:g} s", node=node,
                 why=failure.getErrorMessage(), s=nodes.dead_after)
        nodes.judge_again(node)


def waiting(directory: Mapping[int, dict[str, Any]], game: str) -> list[tuple[int, int]]:
    """The other processes' tables of ``game`` in ``directory`` (``ClusterTables.directory``) waiting for players
    with a seat free and a person seated, as last published: (seated, id) each, for ``/quick``
    (lobby/seekdesk.py)."""
    found = []
    for table_id, entry in directory.items():
        summary = entry["summary"]
        seated, _, most = str(summary.get("seats", "")).partition("/")
        if summary.get("game") == game and summary.get("status") == "waiting" and entry.get("people") \
                and seated.isdigit() and most.isdigit() and int(seated) < int(most):
            found.append((int(seated), table_id))
    return found
