"""The presence across the nodes of a cluster (mudwiz/cluster/presence.py): real ``mudwiz serve`` processes on one
real Redis and one real PostgreSQL database, and JSON clients on loopback. Users on different nodes see each
other in ``/who`` (one order, one count, pages), chat in one lobby, tell each other, hear arrivals and tables
opened; a name online on one node is refused on another; a sysop kicks and announces across nodes; a node
killed with ``kill -9`` takes its users out of everyone's ``/who`` within seconds. The replica's own logic is
tested without processes."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import postgres_databases
from pgserver import Databases
from published import Published
from recorder import Recorder
from redisserver import redis_cli
from twisted.internet.task import Clock
from wire import ROOT, JsonClient, RestartableServer, eventually, play_until_game_end, register

from mudwiz.cluster.bus import Bus
from mudwiz.cluster.presence import Presence, Replica, merged
from mudwiz.cluster.service import ClusterService
from mudwiz.directories import join_cluster
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby

SECRET = "cluster-sysop-pw"


# ---------------------------------------------------------------- the replica, without processes

def test_the_replica_keeps_each_nodes_users_in_name_order() -> None:
    replica = Replica()
    replica.put("n2", {"name": "Zed", "where": "lobby", "rating": None, "rating_game": None, "registered": False})
    replica.put("n2", {"name": "amy", "where": "table 3", "rating": 1510, "rating_game": "wizard",
                       "registered": True})
    replica.put("n3", {"name": "Bob", "where": "lobby", "rating": None, "rating_game": None, "registered": False})
    assert [r["name"] for r in replica.page()] == ["amy", "Bob", "Zed"]
    assert replica.page("b", 1) == [{"name": "Bob", "where": "lobby", "rating": None, "rating_game": None}]
    assert replica.get("AMY") is not None and replica.get("AMY")["node"] == "n2"  # type: ignore[index]
    replica.put("n2", {"name": "amy", "where": "lobby", "rating": 1510, "rating_game": "wizard",
                       "registered": True})
    assert len(replica) == 3 and replica.page("a", 1)[0]["where"] == "lobby"  # moved: replaced, not added
    replica.put("n3", {"name": "ZED", "where": "lobby", "rating": None, "rating_game": None, "registered": False})
    replica.remove("n2", "zed")  # n2's late departure does not remove the Zed who logged in on n3 since
    assert replica.get("zed") is not None and replica.get("zed")["node"] == "n3"  # type: ignore[index]
    assert sorted(replica.drop_node("n3")) == ["Bob", "ZED"] and [r["name"] for r in replica.page()] == ["amy"]
    replica.replace_node("n2", [{"name": "Cy", "where": "lobby", "rating": None, "rating_game": None,
                                 "registered": False}])
    assert [r["name"] for r in replica.page()] == ["Cy"] and replica.keys == ["cy"]


def test_who_pages_of_two_nodes_merge_in_one_order() -> None:
    here = [{"name": n} for n in ("al", "Cat", "eve")]
    there = [{"name": n} for n in ("BEA", "dan", "fay")]
    assert [r["name"] for r in merged(here, there, None)] == ["al", "BEA", "Cat", "dan", "eve", "fay"]
    assert [r["name"] for r in merged(here, there, 4)] == ["al", "BEA", "Cat", "dan"]


# ---------------------------------------------------------------- one node's presence, without Redis

class Person(Recorder):
    closed = False

    def close(self) -> None:
        self.closed = True


def lone_node(name: str = "n2") -> tuple[Lobby, Bus, Published, Clock]:
    """A node's lobby and presence on a bus that was never started: a test says what the bus hears."""
    clock = Clock()
    lobby = Lobby(clock)
    cluster = ClusterService("redis://localhost", name, clock, failed=lambda why: None)
    published = Published(cluster.bus)
    cluster.bus.redis = published
    started(lobby, cluster, clock)
    return lobby, cluster.bus, published, clock


def started(lobby: Lobby, cluster: ClusterService, clock: Clock) -> Presence:
    """``lobby``'s node's presence, as once started (there is no Redis to start on); table numbers as if drawn."""
    directory = join_cluster(lobby, cluster, clock)
    directory.presence.running = True
    directory.tables.ids = list(range(1, 101))
    return directory.presence


def hear(bus: Bus, op: str, node: str, **fields: Any) -> None:
    bus.received(bus.all_channel, json.dumps({"op": op, "from": node, **fields}))


def row(name: str, where: str = "lobby") -> dict[str, Any]:
    return {"name": name, "where": where, "rating": None, "rating_game": None, "registered": False}


def test_a_game_rated_on_one_node_makes_the_others_read_its_players_ratings_again(tmp_path: Path) -> None:
    """A visitor's rating in /who stayed as it was before their game at another node's table: their home node's
    board was never told (found by a probe)."""
    from mudwiz.ratings import RatingBoard
    from mudwiz.store import Rating, open_store
    from mudwiz.table import Records

    clock = Clock()
    lobby = Lobby(clock, records=Records.inline(open_store(tmp_path)))
    cluster = ClusterService("redis://localhost", "n2", clock, failed=lambda why: None)
    published = Published(cluster.bus)
    cluster.bus.redis = published
    started(lobby, cluster, clock)
    assert lobby.records is not None
    board: RatingBoard = lobby.records.board
    rating = Rating("Ann", "wizard", 25.0, 8.0, 1000, 1, 0.0)
    board.refresh({"ann": [rating]}, "wizard")  # a game rated here: the others are told whose ratings moved
    assert [m["names"] for _, m in published.ops("rated")] == [["ann"]]
    assert "ann" in board._known
    hear(cluster.bus, "rated", "n3", names=["ann"])  # one rated there: read again here when next shown
    assert "ann" not in board._known


def test_a_node_tells_of_its_users_and_merges_the_others_into_its_lobby() -> None:
    lobby, bus, published, _ = lone_node()
    ann, cy = Person("ann"), Person("cy")
    lobby.login(ann, "ann")
    lobby.login(cy, "cy")
    assert published.ops("user_on")[0] == ("mudwiz:all", {"op": "user_on", "from": "n2", "row": row("ann")})
    hear(bus, "user_on", "n1", row=row("Bob", "table 3"))
    hear(bus, "user_on", "n2", row=row("zed"))  # its own: it knows its users already
    assert [(r["name"], r["where"]) for r in lobby.who()] == [("ann", "lobby"), ("Bob", "table 3"), ("cy", "lobby")]
    assert lobby.online() == 3 and [r["name"] for r in lobby.who("b", 2)] == ["Bob", "cy"]
    with pytest.raises(BadCommand, match="bob is already connected"):
        lobby.check_name("bob")

    ann.elsewhere = ("n1", 3, False)  # watching a table n1 hosts: out of the lobby
    ann.moved()
    assert published.ops("user_at")[-1][1]["row"]["where"] == "table 3 (watching)"
    hear(bus, "chat", "n1", message={"type": "chat", "from": "Bob", "channel": "lobby", "text": "hi"})
    hear(bus, "notice", "n1", text="Bob opens table 3 (Wizard).")
    assert [m.get("text") for m in cy.messages[-2:]] == ["hi", "Bob opens table 3 (Wizard)."]
    assert not ann.of_type("chat") and "Bob opens" not in str(ann.messages)

    lobby.tell(cy, "BOB", "psst")
    told = {"type": "chat", "from": "cy", "channel": "tell", "to": "Bob", "text": "psst"}
    assert published.ops("to_user")[-1] == ("mudwiz:node:n1", {"op": "to_user", "from": "n2", "to": "bob",
                                                               "message": told})
    assert cy.messages[-1] == told  # the echo
    bus.received("mudwiz:node:n2", json.dumps({"op": "to_user", "from": "n1", "to": "gone", "message": {
        "type": "chat", "from": "Bob", "channel": "tell", "to": "gone", "text": "hey"}}))
    assert published.ops("tell_lost")[-1] == ("mudwiz:node:n1", {"op": "tell_lost", "from": "n2", "to": "Bob",
                                                                 "name": "gone"})

    hear(bus, "user_on", "n1", row=row("Bot1"))  # a person on n1: no bot at a table here takes that name
    assert lobby.free_bot_name(lobby.new_table(cy, "wizard")) == "bot2"

    lobby.directory.presence.node_gone("n1")  # type: ignore[attr-defined]
    assert [r["name"] for r in lobby.who()] == ["ann", "cy"] and lobby.online() == 2
    lobby.disconnect(cy)
    assert published.ops("user_off")[-1][1]["name"] == "cy"


def test_a_name_let_in_by_two_nodes_at_once_stays_on_the_first_node_by_name() -> None:
    lobby, bus, published, clock = lone_node("n2")
    ann, bea = Person("ann"), Person("bea")
    lobby.login(ann, "ann")
    lobby.login(bea, "bea")
    hear(bus, "user_on", "n3", row=row("ANN"))  # n2 comes first: n3 closes its own, n2 says its row again
    assert not ann.closed
    before = len(published.ops("user_at"))
    clock.advance(1.0)
    assert [m["row"]["name"] for _, m in published.ops("user_at")[before:]] == ["ann"]
    hear(bus, "users", "n1", users=[row("Bea")])  # n1 comes first: n2 closes its own
    assert bea.closed and "another process of this server" in bea.messages[-1]["text"]


# ---------------------------------------------------------------- real nodes

@contextmanager
def cluster(tmp_path: Path, redis_url: str, postgres: Databases | str, count: int,
            **env: str) -> Iterator[list[RestartableServer]]:
    """``count`` nodes ``n1``.. on one Redis and one fresh PostgreSQL database (and ``env``), started; stopped at
    the end."""
    with postgres_databases(postgres).fresh() as url:
        nodes = [RestartableServer(tmp_path / f"data{i}", tmp_path / f"n{i}.log", MUDWIZ_NODE=f"n{i}",
                                   MUDWIZ_REDIS_URL=redis_url, MUDWIZ_DATABASE_URL=url, **env)
                 for i in range(1, count + 1)]
        try:
            for node in nodes:
                node.start()
            yield nodes
        finally:
            for node in nodes:
                if node.proc is not None and node.proc.poll() is None:
                    node.stop()


def who(client: JsonClient, start: str = "") -> dict[str, Any]:
    assert client.request(f"/who {start}".strip())["type"] == "ok"
    return client.of_type("who")[-1]


def who_names(client: JsonClient) -> list[str]:
    return [row["name"] for row in who(client)["users"]]


def notices(client: JsonClient) -> list[str]:
    client.read(0.1)
    return [m["text"] for m in client.of_type("notice")]


def test_users_on_three_nodes_see_talk_to_and_tell_each_other(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, 3) as (n1, n2, n3):
        ann, bob, cat = JsonClient(n1.address, "ann"), JsonClient(n2.address, "Bob"), JsonClient(n3.address, "cat")
        for client in (ann, bob, cat):  # each node hears the others' arrivals in its own time
            eventually(lambda c=client: who_names(c) == ["ann", "Bob", "cat"], what=f"{client.name} sees everyone")
        page = who(bob)
        assert page["total"] == 3 and [r["where"] for r in page["users"]] == ["lobby"] * 3
        assert who(cat, "b")["users"][0]["name"] == "Bob"

        with pytest.raises(RuntimeError, match="bob is already connected"):  # online on n2: refused on n1
            JsonClient(n1.address, "bob")

        dan = JsonClient(n2.address, "dan")
        eventually(lambda: "dan has arrived." in notices(ann) and "dan has arrived." in notices(cat),
                   what="the arrival on n2 told on n1 and n3")

        assert ann.request("/say hello all")["type"] == "ok"
        for client in (bob, cat, dan):
            said = client.wait_for(lambda m: m["type"] == "chat" and m["channel"] == "lobby")
            assert (said["from"], said["text"]) == ("ann", "hello all")

        assert ann.request("/tell BOB psst")["type"] == "ok"
        told = bob.wait_for(lambda m: m["type"] == "chat" and m["channel"] == "tell")
        assert (told["from"], told["to"], told["text"]) == ("ann", "Bob", "psst")
        assert [m["text"] for m in ann.of_type("chat") if m["channel"] == "tell"] == ["psst"]  # the echo
        assert not [m for m in cat.messages if m["type"] == "chat" and m["channel"] == "tell"]
        missing = ann.request("/tell zed hi")
        assert (missing["type"], missing["message"]) == ("error", "nobody called zed is online")

        assert bob.request("/new wizard")["type"] == "ok"
        table = bob.last_state()["table"]  # type: ignore[index]
        eventually(lambda: f"Bob opens table {table} (Wizard)." in notices(cat), what="the table told on n3")
        eventually(lambda: {r["name"]: r["where"] for r in who(ann)["users"]}["Bob"] == f"table {table}",
                   what="/who on n1 shows Bob's table")
        bob.mark = len(bob.messages)
        assert cat.request("/say only the lobby")["type"] == "ok"
        dan.wait_for(lambda m: m["type"] == "chat" and m["text"] == "only the lobby")
        bob.read(0.5)
        assert not [m for m in bob.messages[bob.mark:] if m["type"] == "chat"]  # at a table: not in the lobby

        dan.close()
        eventually(lambda: "dan" not in who_names(cat), what="dan's departure on n2 reaches n3")
        for client in (ann, bob, cat):
            client.close()


def test_a_sysop_kicks_bans_and_announces_across_nodes_and_ratings_come_with_the_rows(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, 2) as (n1, n2):
        sysop = JsonClient(n1.address, "Sys")
        register(sysop, SECRET)
        granted = subprocess.run([sys.executable, "-m", "mudwiz.cli", "admin", "grant", "sys", "sysop"], cwd=ROOT,
                                 env=n1.env, capture_output=True, text=True, timeout=30)
        assert granted.returncode == 0, granted.stderr
        eve, fay = JsonClient(n2.address, "eve"), JsonClient(n2.address, "fay")
        eventually(lambda: who_names(sysop) == ["eve", "fay", "Sys"], what="n1 sees n2's users")

        assert sysop.request("/announce tea at five")["type"] == "ok"
        heard = eve.wait_for(lambda m: m["type"] == "announce")
        assert (heard["from"], heard["text"]) == ("Sys", "tea at five")

        reply = sysop.request("/kick EVE be nice")
        assert (reply["type"], reply.get("text")) == ("ok", "eve is disconnected"), reply
        kicked = eve.wait_for(lambda m: m["type"] == "kicked")
        assert kicked["text"] == "You are disconnected by the sysop Sys: be nice."
        with pytest.raises(ConnectionError):
            for _ in range(50):
                eve.read(0.2)
        eventually(lambda: who_names(sysop) == ["fay", "Sys"], what="the kicked user gone from /who")
        refused = fay.request("/kick sys")
        assert refused["type"] == "error" and refused["message"].startswith("only a sysop can")

        for cmd in ("/new wizard", "/option rounds 1", "/bot add random", "/bot add random", "/start"):
            assert sysop.request(cmd)["type"] == "ok", cmd
        play_until_game_end([sysop], random.Random(3))
        assert sysop.request("/leave")["type"] == "ok"
        own = eventually(lambda: [r for r in who(sysop)["users"] if r["name"] == "Sys" and r["rating"]],
                         what="the game rated (the record is stored, then the board updated)")[0]
        assert own["rating_game"] == "wizard", own
        eventually(lambda: [r for r in who(fay)["users"] if r["name"] == "Sys"] == [own],
                   what="n2's /who shows the rating n1 reads from its board")

        banned = sysop.request("/ban FAY")
        assert banned.get("text") == "FAY is banned until a sysop lifts it; disconnected: fay", banned
        assert fay.wait_for(lambda m: m["type"] == "kicked")["text"] == "You are banned by the sysop Sys until a " \
                                                                        "sysop lifts it."
        eventually(lambda: who_names(sysop) == ["Sys"], what="the banned user gone from /who")
        with pytest.raises(RuntimeError, match="banned"):  # the ban is in the shared store: every node keeps it
            JsonClient(n2.address, "fay")

        # an address banned on n1: its connections are closed on every node, not only on the sysop's
        gus, hal = JsonClient(n2.address, "gus", source="127.0.0.2"), JsonClient(n1.address, "hal", source="127.0.0.2")
        eventually(lambda: who_names(sysop) == ["gus", "hal", "Sys"], what="gus and hal online")
        banned = sysop.request("/ban 127.0.0.2")
        assert banned.get("text") == "address 127.0.0.2 is banned until a sysop lifts it; disconnected: hal; the " \
                                     "other nodes disconnect theirs", banned
        for kicked in (gus, hal):
            assert kicked.wait_for(lambda m: m["type"] == "kicked")["text"].startswith("You are banned by the sysop")
        eventually(lambda: who_names(sysop) == ["Sys"], what="the banned address's users gone from /who")
        with pytest.raises(ConnectionError):  # refused at connection, in one line, before any name
            JsonClient(n2.address, "ivy", source="127.0.0.2")
        sysop.close()


def test_who_pages_span_the_nodes_and_a_killed_nodes_users_leave_it(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, 2) as (n1, n2):
        names = [f"u{i:02d}" for i in range(24)]
        clients = [JsonClient((n1, n2)[i % 2].address, name) for i, name in enumerate(names)]
        first = eventually(lambda: (page := who(clients[0]))["total"] == 24 and page, what="24 users counted")
        assert [r["name"] for r in first["users"]] == names[:20] and first["next"] == "u20"
        second = who(clients[1], "u20")
        assert [r["name"] for r in second["users"]] == names[20:] and second["next"] is None

        n2.kill()
        started = time.monotonic()
        eventually(lambda: who(clients[0])["total"] == 12, timeout=10, what="n2's users gone with it")
        assert time.monotonic() - started < 8
        assert who_names(clients[0]) == names[0::2]
        again = JsonClient(n1.address, "u01")  # its name is free again
        again.close()
        for client in clients[0::2]:
            client.close()


def test_after_losing_redis_the_nodes_say_their_users_again(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, 2) as (n1, n2):
        ann, bob = JsonClient(n1.address, "ann"), JsonClient(n2.address, "bob")
        eventually(lambda: who_names(ann) == ["ann", "bob"], what="ann sees bob")
        eventually(lambda: "node n1 is here" in n2.log() and "node n2 is here" in n1.log(),
                   what="each node has heard the other (and sent it its users)")
        # what n1 may get wrong while Redis is away: here a departure it is told that never happened
        redis_cli(redis_url, "PUBLISH", "mudwiz:all", json.dumps({"op": "user_off", "from": "n2", "name": "bob"}))
        eventually(lambda: who_names(ann) == ["ann"], what="n1 believes bob left")
        assert bob.request("/say still here")["type"] == "ok"  # nothing bob does is news to n2: no row changes
        time.sleep(6)  # a refresh of n2's rows (every 5 s) does not say bob's again: it did not change
        assert who_names(ann) == ["ann"]
        assert int(redis_cli(redis_url, "CLIENT", "KILL", "TYPE", "pubsub")) >= 2  # both subscriptions lost
        eventually(lambda: who_names(ann) == ["ann", "bob"], what="bob back in n1's /who after the resubscription")
        ann.close()
        bob.close()
