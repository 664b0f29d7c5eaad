"""A cluster node's directory: what its lobby asks of the rest of the server (mudwiz/lobby/directory.py), answered
from the replicas its parts keep: the other nodes' users from the presence (presence.py) while it runs, the other
processes' tables and the seats they keep from the tables part (tables.py, visits.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from mudwiz.cluster.handoff import Handoff
from mudwiz.cluster.presence import Presence
from mudwiz.cluster.seeks import ClusterSeeks
from mudwiz.cluster.tables import ClusterTables, code_hash, waiting
from mudwiz.cluster.talk import TalkRelay
from mudwiz.lobby.directory import Held, Local, Row
from mudwiz.table.adjourning import resume_notice, seated_at_login
from mudwiz.texts import Later

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred
    from twisted.internet.interfaces import IReactorTime

    from mudwiz.cluster.service import ClusterService
    from mudwiz.cluster.upper import Home, Upper
    from mudwiz.errors import MudwizError
    from mudwiz.session import Session
    from mudwiz.table import Table

DROPPING = 3.0  # seconds a dropped user's seat elsewhere is assumed kept until its host publishes it
NOBODY = Local()  # the users elsewhere while the presence does not run: before the node joins, and as it stops


class ClusterDirectory:
    """The node's ``Directory``, its two parts added to ``cluster``: they start once the node has joined."""

    def __init__(self, lobby: Home, cluster: ClusterService, clock: IReactorTime, upper: Upper) -> None:
        self.presence = Presence(lobby, cluster)
        records = lobby.records
        self.tables = ClusterTables(lobby, cluster, clock, records.store if records is not None else None, upper)
        self.seeks = ClusterSeeks(lobby.seeking, cluster, clock, self.node_of, self.user)
        # /quick finds a table on any process
        lobby.seeking.desk.waiting_elsewhere = lambda game: waiting(self.tables.directory, game)
        self.seeks.desks["tournaments"] = lobby.tournaments.desk  # run where the seek book is, too
        self.seeks.on_authority.append(lobby.tournaments.books_here)
        cluster.add(self.presence)  # who is online on the other nodes; lobby talk across them
        cluster.add(self.tables)
        self.talk_relay = TalkRelay(lobby, cluster)  # channels, shouts and away marks across the nodes
        cluster.add(self.talk_relay)
        cluster.add(self.seeks)  # the seek book on one node for all
        self.clock = clock
        # users of ours who dropped while seated elsewhere, until the host has published the seat it keeps for them
        # (so nobody else takes the name meanwhile): lower-cased name -> (the seat, until when)
        self.dropping: dict[str, tuple[Held, float]] = {}
        self.handoff: Handoff | None = None  # under --workers: a /join moves the connection (handoff.py)

    @property
    def users(self) -> Presence | Local:
        """Whom the other nodes have online: the presence's replica while it runs, else nobody."""
        return self.presence if self.presence.running else NOBODY

    # ------------------------------------------------------------ users elsewhere

    def online(self, name: str) -> bool:
        return self.users.online(name)

    def names(self) -> set[str]:
        return self.users.names()

    def count(self) -> int:
        return self.users.count()

    def user(self, name: str) -> Session | None:
        return self.users.user(name)

    def where(self, name: str) -> str | None:
        return self.users.where(name)

    def who(self, here: list[Row], start: str, limit: int | None) -> list[Row]:
        return self.users.who(here, start, limit)

    def node_of(self, name: str) -> str | None:
        row = self.presence.replica.get(name) if self.presence.running else None
        return None if row is None else str(row["node"])

    def user_on(self, session: Session) -> None:
        self.users.user_on(session)

    def arrived_from(self, name: str, node: str) -> None:
        """``name``'s connection was handed here by ``node`` (net/handed.py)."""
        self.presence.arrived_from(name, node)

    def user_off(self, session: Session, kept: Table | None) -> None:
        if not self.presence.running:
            return
        if kept is not None:  # the seat kept for them first (the same bus, in order)
            self.tables.publish_table(kept)
        self.presence.user_off(session)

    def chat(self, message: dict[str, Any]) -> None:
        self.users.chat(message)

    def notice(self, text: str | Later) -> None:
        self.users.notice(text)

    def announce(self, message: dict[str, Any]) -> None:
        self.users.announce(message)

    def talk(self, message: dict[str, Any]) -> None:
        self.talk_relay.tell(message)

    def ban_address(self, address: str, text: str | Later, by: str, until: float | None) -> bool:
        return self.users.ban_address(address, text, by, until)

    # ------------------------------------------------------------ tables and seats elsewhere

    def held(self, name: str) -> Held | None:
        """The seat another process keeps for ``name``, if any."""
        key = name.lower()
        gone = self.tables.gone
        for table_id, entry in self.tables.directory.items():
            seat = entry.get("held", {}).get(key)
            person = entry.get("people", {}).get(key)
            if seat is None and person is not None and (entry["node"] in gone or person.get("home") in gone):
                seat = person  # kept for them as soon as their process, or the table's, is known gone
            if seat is not None:
                return Held(seat["spelling"], seat.get("code_hash"), entry["node"], table_id)
        dropping = self.dropping.get(key)
        if dropping is not None and dropping[1] > self.clock.seconds():
            return dropping[0]
        self.dropping.pop(key, None)
        return None

    def code_matches(self, name: str, code: str) -> bool:
        held = self.held(name)
        return held is not None and held.code_hash is not None and held.code_hash == code_hash(code)

    def reattach(self, session: Session) -> None:
        held = self.held(session.name)
        if held is None:
            return
        entry = self.tables.directory.get(held.table, {})
        adjourned = entry.get("summary", {}).get("adjourned")
        if adjourned is not None and not seated_at_login(str(adjourned["last"]), session.name):
            session.notice(resume_notice(entry["summary"]["game"], held.table))
            return
        self.tables.visits.reattach(session, held.node, held.table)

    def dropped(self, session: Session) -> None:
        """Our user seated elsewhere dropped: the host keeps the seat; until it says so, this process does."""
        if session.elsewhere is None:
            return
        node, table, seated = session.elsewhere
        if seated:
            code = self.tables.lobby.resume_code(session)
            held = Held(session.name, code_hash(code) if code else None, node, table)
            self.dropping[session.name.lower()] = (held, self.clock.seconds() + DROPPING)
        self.tables.visits.dropped(session)

    def new_table_id(self, here: int) -> int:
        return self.tables.new_table_id()

    def summaries(self, here: Iterable[Table]) -> list[dict[str, Any]]:
        return self.tables.summaries(here)

    def forward(self, session: Session, text: str, ok: Callable[[Any], None],
                error: Callable[[MudwizError], None]) -> bool:
        if self.handoff is not None and self.handoff.moves(session, text):  # the connection went to the table's
            return True
        return self.tables.visits.forward(session, text, ok, error)

    # ------------------------------------------------------------ the seek book

    def seek_book(self) -> str | None:
        return self.seeks.seek_book()

    def ask_seeks(self, node: str, session: Session, verb: str, args: dict[str, Any],
                  desk: str = "seeks") -> Deferred[dict[str, Any]]:
        return self.seeks.ask(node, session, verb, args, desk)

    def to_seeker(self, name: str, message: dict[str, Any]) -> bool:
        return self.seeks.to_seeker(name, message)
