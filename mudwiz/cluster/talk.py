"""Talk across nodes: channels, shouts and away marks (mudwiz/lobby/talk.py) heard by every node's lobby.

Each node keeps the whole of the channels and the away marks. What a node's talk changes (``what``: a channel
joined or left, a line said on one, a mute, a shout, an away mark or its end, a logout) is broadcast as one
``talk`` message, and every other node's talk hears it (``heard``) and delivers a line to its own members. A node
that starts, or one first heard, is sent a snapshot of what each node's users are on and away with; a node gone
takes its users off every channel. A channel's recent lines are kept by every node as its lines pass (a node that
starts later has those said since); mutes are not in the snapshot (a node that starts later knows those made
since).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mudwiz.cluster.service import ClusterService
    from mudwiz.cluster.upper import Home


class TalkRelay:
    """The talk as a part of a ``ClusterService``: says this node's, hears the others'."""

    def __init__(self, lobby: Home, cluster: ClusterService) -> None:
        self.lobby = lobby
        self.bus = cluster.bus
        self.running = False
        self.homes: dict[str, str] = {}  # lower-cased name of another node's user on a channel or away -> node
        self.bus.on("talk", self._heard)
        self.bus.on("hello", lambda message: None if message["from"] == self.bus.node
                    else self.send_snapshot(message["from"]))
        cluster.nodes.on_new.append(self.send_snapshot)
        cluster.nodes.on_gone.append(self.node_gone)
        self.bus.on_resubscribed.append(lambda: self.tell(self.lobby.talk.snapshot()))

    def start(self) -> None:
        self.running = True

    def stop(self) -> None:
        self.running = False

    def tell(self, message: dict[str, Any]) -> None:
        """What this node's talk changed, for every other node."""
        if self.running:
            self.bus.broadcast({**message, "op": "talk"})

    def send_snapshot(self, node: str) -> None:
        self.bus.send(node, {**self.lobby.talk.snapshot(), "op": "talk"})

    def node_gone(self, node: str) -> None:
        gone = [name for name, home in self.homes.items() if home == node]
        for name in gone:
            del self.homes[name]
        self.lobby.talk.forget(gone)

    def _heard(self, message: dict[str, Any]) -> None:
        node = message["from"]
        if node == self.bus.node:
            return
        if message["what"] == "snapshot":
            for names in message["channels"].values():
                self.homes.update((name.lower(), node) for name in names)
            self.homes.update((name.lower(), node) for name in message["away"])
        elif message["what"] == "logout":
            self.homes.pop(message["name"].lower(), None)
        elif "name" in message and message["what"] != "mute":
            self.homes[message["name"].lower()] = node
        self.lobby.talk.heard(message)
