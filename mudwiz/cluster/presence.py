"""Users everywhere: every node keeps a replica of who is online on the OTHER nodes, so that ``/who``, a name
check, a tell or a sysop's ``/kick`` needs no round trip, and carries lobby talk to every node's lobby.

A node tells the others of its own users as they come, move and go (``user_on``, ``user_at``, ``user_off``: one
row each, ``{name, where, rating, rating_game, registered}``, the ``where`` and rating as its own ``/who`` shows
them, read from its own board) and sends all of them at once (``users``) to a node it hears for the first time,
to a node that asks (``hello``, at its start) and to everyone after a Redis outage. A node gone (``bye``, or not
heard for a few seconds) takes its users with it. Lobby chat (``chat``), lobby notices (``notice``) and sysop
announcements (``announce``) are broadcast; a tell or a kick goes to the user's own node only (``to_user``), and
a tell that finds its user gone comes back as a notice (``tell_lost``).

Pub/sub may lose what is published while a node is cut off from Redis: every few seconds a node republishes the
rows of its users that changed since it last said (a rating after a game, a move that was not heard), and after
an outage the snapshots are exchanged again.
"""

from __future__ import annotations

import bisect
import heapq
from typing import TYPE_CHECKING, Any

from twisted.internet import defer, task
from twisted.logger import Logger

from mudwiz.session import Session
from mudwiz.texts import Later, later

if TYPE_CHECKING:
    from mudwiz.cluster.service import ClusterService
    from mudwiz.cluster.upper import Home
    from mudwiz.ratings import RatingBoard

log = Logger()

REFRESH = 5.0  # seconds between republishing the rows of this node's users that changed unheard
HELLO_WAIT = 2.0  # seconds a starting node waits for the snapshots of the nodes alive
TWIN_SETTLES = 1.0  # seconds after two nodes let one name in before the one that kept it says its row again
SHOWN = ("name", "where", "rating", "rating_game")  # what a /who row shows of a replica's row
Row = dict[str, Any]


class Replica:
    """The users of the other nodes: lower-cased name -> row (with its ``node``), and the names in order, so a
    ``/who`` page costs its length. No I/O: the ``Presence`` feeds it what the bus says."""

    def __init__(self) -> None:
        self.rows: dict[str, Row] = {}
        self.keys: list[str] = []

    def __len__(self) -> int:
        return len(self.rows)

    def get(self, name: str) -> Row | None:
        return self.rows.get(name.lower())

    def put(self, node: str, row: Row) -> None:
        """``node`` says its user is here now (arrived, moved, or in a snapshot)."""
        key = row["name"].lower()
        if key not in self.rows:
            bisect.insort(self.keys, key)
        self.rows[key] = {**row, "node": node}

    def remove(self, node: str, name: str) -> None:
        """``node`` says its user left; a row another node has put since (the user logged in there) stays."""
        key = name.lower()
        row = self.rows.get(key)
        if row is not None and row["node"] == node:
            del self.rows[key]
            del self.keys[bisect.bisect_left(self.keys, key)]

    def drop_node(self, node: str) -> list[str]:
        """Every user of ``node`` gone (it stopped or died); their names."""
        gone = [row["name"] for row in self.rows.values() if row["node"] == node]
        for name in gone:
            self.remove(node, name)
        return gone

    def replace_node(self, node: str, rows: list[Row]) -> None:
        """``node``'s snapshot: its users are these, and no others."""
        self.drop_node(node)
        for row in rows:
            self.put(node, row)

    def page(self, start: str = "", limit: int | None = None) -> list[Row]:
        """The /who rows from ``start`` (a name or its beginning, any case) on, at most ``limit``."""
        first = bisect.bisect_left(self.keys, start.lower())
        keys = self.keys[first:] if limit is None else self.keys[first:first + limit]
        return [{k: self.rows[key][k] for k in SHOWN} for key in keys]


def merged(here: list[Row], there: list[Row], limit: int | None) -> list[Row]:
    """Two /who pages, each in name order, as one page in that order."""
    rows = list(heapq.merge(here, there, key=lambda row: str(row["name"]).lower()))
    return rows if limit is None else rows[:limit]


class RemoteUser(Session):
    """A user online on another node as a tell or a sysop's kick sees them: what is delivered to it, and its
    ``close``, go to that node, which hands them to the real session."""

    def __init__(self, presence: Presence, row: Row) -> None:
        super().__init__(row["name"], "json")
        self.presence = presence
        self.node: str = row["node"]
        self.registered = bool(row.get("registered"))

    def deliver(self, message: dict[str, Any], event: Any = None) -> None:
        self.presence.bus.send(self.node, {"op": "to_user", "to": self.name.lower(), "message": message})

    def close(self) -> None:
        self.presence.bus.send(self.node, {"op": "to_user", "to": self.name.lower(), "close": True})


class Presence:
    """The presence as a part of a ``ClusterService``: the users of the other nodes, as the node's directory
    (directory.py) gives them to the lobby while it runs."""

    def __init__(self, lobby: Home, cluster: ClusterService, refresh: float = REFRESH) -> None:
        self.lobby = lobby
        self.bus = cluster.bus
        self.nodes = cluster.nodes
        self.replica = Replica()
        self.sent: dict[str, Row] = {}  # lower name -> the row last published of each user of this node
        self.snapshots_from: set[str] = set()  # the nodes whose snapshot came since the start
        # lower name -> the node that handed the user's connection here (net/handed.py), until its user_off comes:
        # its word of them from before (on the bus, slower than the handover) is not a twin
        self.handed: dict[str, str] = {}
        self.refresh_every = refresh
        self.running = False  # started and not stopped: the lobby hears of the other nodes' users only then
        self._loop: task.LoopingCall | None = None
        handlers = {"user_on": self._user_at, "user_at": self._user_at, "user_off": self._user_off,
                    "users": self._users, "hello": self._hello, "chat": self._chat, "notice": self._notice,
                    "announce": self._announce, "to_user": self._to_user, "tell_lost": self._tell_lost,
                    "ban_address": self._ban_address, "rated": self._rated}
        for op, handler in handlers.items():
            self.bus.on(op, self._others(handler))
        self.nodes.on_new.append(self.send_snapshot)
        self.nodes.on_gone.append(self.node_gone)
        self.bus.on_resubscribed.append(self._rejoin)
        board = self.board()
        if board is not None:  # a game rated here: the other nodes read those players' ratings again
            board.on_refreshed.append(lambda names: self.bus.broadcast({"op": "rated", "names": names}))

    @property
    def me(self) -> str:
        return self.bus.node

    def _others(self, handler: Any) -> Any:
        """``handler`` for what other nodes send: a node handles its own users and talk itself, at once."""
        return lambda message: None if message["from"] == self.me else handler(message)

    # ------------------------------------------------------------ joining and leaving

    def start(self) -> defer.Deferred[Any]:
        self.running = True
        self._loop = task.LoopingCall(self.refresh)
        self._loop.clock = self.bus.reactor
        self._loop.start(self.refresh_every, now=False)
        return self._hear_everyone()

    @defer.inlineCallbacks
    def _hear_everyone(self) -> Any:
        """Ask every node for its users, and wait (at most ``HELLO_WAIT`` s) for the snapshots of those alive in
        Redis now: from the first login on, a name online elsewhere is refused and ``/who`` is whole."""
        alive = yield self.nodes.alive_in_redis()
        self.bus.broadcast({"op": "hello"})
        waited = 0.0
        while not alive <= self.snapshots_from and waited < HELLO_WAIT:
            yield task.deferLater(self.bus.reactor, 0.05, lambda: None)
            waited += 0.05
        if not alive <= self.snapshots_from:
            log.warn("presence: no users heard from {nodes}", nodes=", ".join(sorted(alive - self.snapshots_from)))

    def stop(self) -> None:
        """The users' departures are not published any more: ``bye`` tells the others they all left."""
        if self._loop is not None and self._loop.running:
            self._loop.stop()
        self.running = False

    def send_snapshot(self, node: str) -> None:
        self.bus.send(node, self.snapshot())

    def snapshot(self) -> dict[str, Any]:
        rows = [self.row(s) for s in self.lobby.users.values()]
        self.sent = {row["name"].lower(): row for row in rows}
        return {"op": "users", "users": rows}

    def node_gone(self, node: str) -> None:
        gone = self.replica.drop_node(node)
        self.snapshots_from.discard(node)
        if gone:
            log.info("presence: {count} users of node {node} gone with it", count=len(gone), node=node)

    def _rejoin(self) -> None:
        """Back on Redis after an outage: what was published meanwhile is lost; everyone says it all again."""
        self.bus.broadcast(self.snapshot())
        self.bus.broadcast({"op": "hello"})

    # ------------------------------------------------------------ this node's users, told to the others

    def row(self, session: Session) -> Row:
        return {"name": session.name, "where": self.lobby.where(session), **self.lobby.shown_rating(session),
                "registered": session.registered}

    def user_on(self, session: Session) -> None:
        """``session`` logged in here: the others are told, and told again whenever it moves."""
        session.on_move = self.moved
        self._publish("user_on", session)

    def user_off(self, session: Session) -> None:
        session.on_move = None
        self.sent.pop(session.name.lower(), None)
        self.bus.broadcast({"op": "user_off", "name": session.name})

    def moved(self, session: Session) -> None:
        if self.lobby.users.get(session.name.lower()) is session:
            self._publish("user_at", session)

    def _publish(self, op: str, session: Session) -> None:
        row = self.row(session)
        if op == "user_at" and self.sent.get(row["name"].lower()) == row:
            return
        self.sent[row["name"].lower()] = row
        self.bus.broadcast({"op": op, "row": row})

    def refresh(self) -> None:
        """Republish the rows that changed unsaid (a rating after a game) or were published into an outage."""
        for session in list(self.lobby.users.values()):
            self._publish("user_at", session)

    # ------------------------------------------------------------ the others' users

    def count(self) -> int:
        return len(self.replica)

    def online(self, name: str) -> bool:
        return self.replica.get(name) is not None

    def names(self) -> set[str]:
        """The lower-cased names of the users of the other nodes."""
        return set(self.replica.rows)

    def user(self, name: str) -> Session | None:
        """The user called ``name`` on another node, as a session whose messages go there; None if none is."""
        row = self.replica.get(name)
        return None if row is None else RemoteUser(self, row)

    def where(self, name: str) -> str | None:
        """Where the user called ``name`` on another node is, as their node's /who says it; None if none is."""
        row = self.replica.get(name)
        return None if row is None else str(row["where"])

    def who(self, here: list[Row], start: str, limit: int | None) -> list[Row]:
        """This node's /who page ``here`` with the other nodes' users merged in, in the same order."""
        return merged(here, self.replica.page(start, limit), limit)

    def _user_at(self, message: dict[str, Any]) -> None:
        self.replica.put(message["from"], message["row"])
        self._twin(message["from"], message["row"]["name"])

    def _user_off(self, message: dict[str, Any]) -> None:
        self.replica.remove(message["from"], message["name"])
        key = str(message["name"]).lower()
        if self.handed.get(key) == message["from"]:  # the node they were handed from has let go: said again
            del self.handed[key]
            mine = self.lobby.users.get(key)
            if mine is not None:
                self._say_again(mine)

    def arrived_from(self, name: str, node: str) -> None:
        """``name``'s connection was handed here by ``node``: what it said of them before is not a twin."""
        self.handed[name.lower()] = node

    def _users(self, message: dict[str, Any]) -> None:
        self.replica.replace_node(message["from"], message["users"])
        self.snapshots_from.add(message["from"])
        for row in message["users"]:
            self._twin(message["from"], row["name"])

    def _twin(self, node: str, name: str) -> None:
        """Two nodes let the same name in at the same moment (neither had heard of the other's login yet), or
        a partition healed with it on both sides: the node first by name keeps it, the other closes its own."""
        mine = self.lobby.users.get(name.lower())
        if mine is None or self.handed.get(name.lower()) == node:
            return
        if node < self.me:
            log.info("presence: {name} is online on node {node} too; closed here", name=name, node=node)
            mine.notice(later("{name} has just logged in on another process of this server too: this connection "
                              "closes; log in again under another name.", name=mine.name))
            mine.close()
        else:  # once the twin's departure has removed its row everywhere, ours is said again
            self.bus.reactor.callLater(TWIN_SETTLES, self._say_again, mine)

    def _say_again(self, session: Session) -> None:
        self.sent.pop(session.name.lower(), None)
        self.moved(session)

    def _hello(self, message: dict[str, Any]) -> None:
        self.send_snapshot(message["from"])

    # ------------------------------------------------------------ talk across nodes

    def chat(self, message: dict[str, Any]) -> None:
        """A line of lobby chat said here, for the other nodes' lobbies."""
        self.bus.broadcast({"op": "chat", "message": message})

    def notice(self, text: str | Later) -> None:
        self.bus.broadcast({"op": "notice", "text": text})

    def announce(self, message: dict[str, Any]) -> None:
        self.bus.broadcast({"op": "announce", "message": message})

    def ban_address(self, address: str, text: str | Later, by: str, until: float | None) -> bool:
        """A sysop here banned ``address``: every node closes its own connections from it (the addresses of a
        node's users stay on that node: rows, which every /who shows, carry none)."""
        self.bus.broadcast({"op": "ban_address", "address": address, "text": text, "by": by, "until": until})
        return True

    def board(self) -> RatingBoard | None:
        records = getattr(self.lobby, "records", None)
        return getattr(records, "board", None)

    def _rated(self, message: dict[str, Any]) -> None:
        """Another node rated a game: its players' ratings as this node's board has them are stale."""
        board = self.board()
        if board is not None:
            for name in message["names"]:
                board.forget(str(name))

    def _ban_address(self, message: dict[str, Any]) -> None:
        sysops = self.lobby.sysops
        if sysops is not None:
            sysops.drop_banned("address", message["address"], message["text"], message["by"], message["until"])

    def _chat(self, message: dict[str, Any]) -> None:
        for s in self.lobby.in_lobby():
            s.deliver(message["message"])

    def _notice(self, message: dict[str, Any]) -> None:
        for s in self.lobby.in_lobby():
            s.notice(message["text"])

    def _announce(self, message: dict[str, Any]) -> None:
        for s in list(self.lobby.users.values()):
            s.deliver(message["message"])

    def _to_user(self, message: dict[str, Any]) -> None:
        """A message for one user of this node (a tell, a kick), or their connection to close."""
        target = self.lobby.users.get(message["to"])
        said = message.get("message")
        if target is None:
            if said is not None and said.get("channel") == "tell":
                self.bus.send(message["from"], {"op": "tell_lost", "to": said["from"], "name": said["to"]})
            return
        if said is not None:
            target.deliver(said)
        if message.get("close"):
            target.close()

    def _tell_lost(self, message: dict[str, Any]) -> None:
        sender = self.lobby.users.get(message["to"].lower())
        if sender is not None:
            sender.notice(later("{name} left before your tell reached them.", name=message["name"]))
