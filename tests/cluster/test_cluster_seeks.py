"""Seeks across the nodes of a cluster: real ``mudwiz serve`` processes on one real Redis and one real PostgreSQL
database, JSON clients on loopback. Seeks placed on two nodes are listed on both and matched into one started
game (the table on the oldest seeker's node, the others seated there from theirs), ``/again`` starts the same
seats again, and a quick-play seek on the node that does not hold the book is filled with bots after the wait."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pgserver import Databases
from test_cluster_presence import cluster
from wire import JsonClient, eventually, play_until_game_end


def seek_cluster(tmp_path: Path, redis_url: str, postgres: Databases | str) -> Any:
    """Nodes ``n1`` (which holds the seek book: first by name) and ``n2``, with a short countdown and bot wait."""
    return cluster(tmp_path, redis_url, postgres, 2, MUDWIZ_SEEK_BOTS="1", MUDWIZ_SEEK_COUNTDOWN="2")


def seeks(client: JsonClient) -> list[str]:
    assert client.request("/seeks")["type"] == "ok"
    return [row["who"] for row in client.of_type("seeks")[-1]["seeks"]]


def playing(client: JsonClient, table: int, since: int = 0) -> dict[str, Any]:
    return client.wait_for(lambda m: m["type"] == "state" and m["table"] == table and m["phase"] != "waiting",
                           since=since)


def test_seeks_on_two_nodes_are_matched_into_one_game_and_played_again(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with seek_cluster(tmp_path, redis_url, postgres) as (n1, n2):
        ann, bob, cat = JsonClient(n1.address, "ann"), JsonClient(n2.address, "bob"), JsonClient(n2.address, "cat")
        assert ann.request("/seek wizard 3 rounds=1")["type"] == "ok"
        assert bob.request("/seek wizard 3 rounds=1")["type"] == "ok"
        eventually(lambda: seeks(cat) == ["ann", "bob"] == seeks(ann), what="both seeks listed on both nodes")
        assert cat.request("/seek wizard 3 rounds=1")["type"] == "ok"
        clients = [ann, bob, cat]
        for client in clients:
            matched = client.wait_for(lambda m: m["type"] == "matched", since=0)
            assert matched["players"] == ["ann", "bob", "cat"]
        table = matched["table"]
        for client in clients:
            assert [p["name"] for p in playing(client, table)["players"]] == ["ann", "bob", "cat"]
        play_until_game_end(clients, random.Random(3))
        for client in clients:
            client.mark = len(client.messages)
            assert client.request("/again")["type"] == "ok"
        for client in clients:
            playing(client, table, client.mark)
        assert seeks(ann) == []
        for client in clients:
            client.close()


def test_quick_play_on_the_other_node_is_filled_with_bots(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with seek_cluster(tmp_path, redis_url, postgres) as (n1, n2):
        watcher = JsonClient(n1.address, "wendy")
        dot = JsonClient(n2.address, "dot")
        reply = dot.request("/quick witches")
        assert reply["type"] == "ok" and "bots fill the empty seats in 1 s" in reply["text"], reply
        matched = dot.wait_for(lambda m: m["type"] == "matched", since=0, timeout=20)
        assert matched["bots"] == 3 and matched["players"][0] == "dot"
        assert [p["name"] for p in playing(dot, matched["table"])["players"]] == matched["players"]
        assert seeks(watcher) == []  # taken from the book on n1
        dot.close()
        watcher.close()


def test_quick_play_finds_a_table_waiting_for_players_on_the_other_node(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with seek_cluster(tmp_path, redis_url, postgres) as (n1, n2):
        host = JsonClient(n2.address, "hosta")  # n1 holds the seek book; the table is n2's
        assert host.request("/new witches")["type"] == "ok"
        table = host.of_type("state")[-1]["table"]
        quick = JsonClient(n1.address, "quinn")
        eventually(lambda: quick.request("/tables")["type"] == "ok" and str(table) in str(quick.of_type("tables")[-1]),
                   what="n1 lists n2's table")
        reply = quick.request("/quick witches")
        assert reply["type"] == "ok" and f"table {table}" in reply["text"], reply  # not a seek of its own
        host.wait_for(lambda m: m["type"] == "state" and "quinn" in [p["name"] for p in m["players"]], since=0)
        assert seeks(host) == []
        quick.close()
        host.close()


# ---------------------------------------------------------------- the authority changing, without processes

class FakeBus:
    def __init__(self, node: str) -> None:
        self.node = node
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.handlers: dict[str, Any] = {}

    def on(self, op: str, handler: Any) -> None:
        self.handlers[op] = handler

    def send(self, node: str, message: dict[str, Any]) -> None:
        self.sent.append((node, message))


class FakeNodes:
    def __init__(self, live: list[str]) -> None:
        self.alive = live
        self.on_new: list[Any] = []
        self.on_gone: list[Any] = []

    def live(self) -> list[str]:
        return sorted(self.alive)


def seeking_node(me: str, live: list[str]) -> tuple[Any, Any, FakeBus, FakeNodes, Any]:
    from types import SimpleNamespace

    from recorder import Recorder
    from twisted.internet.task import Clock

    from mudwiz.cluster.seeks import ClusterSeeks
    from mudwiz.lobby import Lobby

    clock = Clock()
    lobby = Lobby(clock)
    bus, nodes = FakeBus(me), FakeNodes(live)
    part = ClusterSeeks(lobby.seeking, SimpleNamespace(bus=bus, nodes=nodes), clock,  # type: ignore[arg-type]
                        lambda name: None, lambda name: None)
    part.start()
    ann = Recorder("ann")
    lobby.login(ann, "ann")
    return lobby, part, bus, nodes, ann


def test_the_book_moves_to_a_node_first_by_name_and_back_from_the_homes_when_it_dies() -> None:
    from mudwiz.commands import dispatch

    lobby, part, bus, nodes, ann = seeking_node("n2", ["n2"])
    dispatch(lobby, ann, "/seek wizard 5 rounds=2")  # n2 holds the book alone
    assert [s.owner for s in lobby.seeking.book.open_seeks()] == ["ann"]
    nodes.alive.append("n1")
    for hear in nodes.on_new:
        hear("n1")
    assert part.authority == "n1" and len(lobby.seeking.book) == 0  # handed over
    (node, handed), = bus.sent
    assert node == "n1" and handed["verb"] == "put_back" and handed["args"]["seek"]["owner"] == "ann"
    assert handed["args"]["typed"] == [["rounds", "2"]] or handed["args"]["typed"] == [("rounds", "2")]
    rid = handed["rid"]
    part._reply({"rid": rid, "answer": {"ok": "you seek a game", "placed": handed["args"]["seek"],
                                        "typed": [["rounds", "2"]]}})
    assert "ann" in part.mine  # the home's copy
    nodes.alive.remove("n1")
    for gone in nodes.on_gone:
        gone("n1")
    assert part.authority == "n2" and [s.owner for s in lobby.seeking.book.open_seeks()] == ["ann"]
    assert lobby.seeking.desk.typed[lobby.seeking.book.of("ann").id] == (("rounds", "2"),)
