"""Tables across a cluster's processes, on real servers: two or three ``mudwiz serve`` processes (nodes n1..n3) on
one Redis and one PostgreSQL database. /tables lists every node's tables; users of two nodes play one table to its
end (either node hosting it), an illegal move comes back as an error with its request id, an observer on another
node sees what a local observer sees; a dropped player comes back on another node to their seat; and a host killed
with kill -9 mid-game has its table taken over by a survivor, where its players find their seats as they were."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import postgres_databases
from pgserver import Databases
from redisserver import redis_cli
from wire import JsonClient, RestartableServer, TelnetClient, eventually, pick_command, play_until_game_end, register

from mudwiz.store import GameRecord, open_database

NOISE = ("chat", "notice", "ok", "error", "who", "tables", "welcome", "help")


@contextlib.contextmanager
def cluster(tmp_path: Path, redis_url: str, postgres: Databases | str, count: int = 2,
            **env: str) -> Iterator[list[RestartableServer]]:
    """``count`` nodes of one server, started and seeing each other; stopped (or killed) at the end."""
    with postgres_databases(postgres).fresh() as url:
        nodes = [RestartableServer(tmp_path / f"n{i}", tmp_path / f"n{i}.log", MUDWIZ_NODE=f"n{i}",
                                   MUDWIZ_REDIS_URL=redis_url, MUDWIZ_DATABASE_URL=url, MUDWIZ_BOT_PROCESSES="0",
                                   **env)
                 for i in range(1, count + 1)]
        try:
            for node in nodes:
                node.start()
            names = [f"n{i}" for i in range(1, count + 1)]
            for name, node in zip(names, nodes, strict=True):  # each has heard every other one's beat
                eventually(lambda n=node, me=name: all(f"node {o} is here" in n.log() for o in names if o != me),
                           f"{name} hears the other nodes")
            yield nodes
        except BaseException:
            for node in nodes:
                print(f"---- {node.logpath.name}\n{node.log()[-6000:]}")
            raise
        finally:
            for node in nodes:
                if node.proc is not None and node.proc.poll() is None:
                    node.kill()


def tables(client: JsonClient) -> list[dict[str, Any]]:
    assert client.request("/tables")["type"] == "ok"
    return list(client.of_type("tables")[-1]["tables"])


def listed(client: JsonClient, table: int) -> dict[str, Any] | None:
    return next((t for t in tables(client) if t["id"] == table), None)


def open_table(host: JsonClient, *setup: str) -> int:
    assert host.request("/new wizard")["type"] == "ok"
    for cmd in setup:
        assert host.request(cmd)["type"] == "ok", cmd
    state = host.last_state()
    assert state is not None
    return int(state["table"])


def visiting(host: JsonClient, visitor: JsonClient, *setup: str) -> int:
    """``host`` opens a Wizard table on their node and starts it once ``visitor``, on another node, has sat down
    at it (once their node lists it); the table's number."""
    table = open_table(host, "/option rounds 3", *setup)
    eventually(lambda: listed(visitor, table), f"{visitor.name}'s node lists table {table}")
    assert visitor.request(f"/join {table}")["type"] == "ok"
    assert host.request("/start")["type"] == "ok"
    return table


def moved(visitor: JsonClient, host: JsonClient, rng: random.Random, moves: int) -> tuple[dict[str, Any], int]:
    """Play until ``moves`` moves are made and it is ``visitor``'s turn: their state then, and where the messages
    after it will start."""
    while turn(visitor, [host], rng)["moves"] < moves:
        assert visitor.request(move_of(visitor.last_state(), rng))["type"] == "ok"  # type: ignore[arg-type]
    visitor.read(0.3)
    before = visitor.last_state()
    assert before is not None
    return before, len(visitor.messages)


def game_view(client: JsonClient, since: int, until: int | None = None) -> list[dict[str, Any]]:
    """What a client was shown of the game from message ``since`` on (to ``until``), without chatter and replies."""
    return [m for m in client.messages[since:until] if m["type"] not in NOISE]


def test_users_of_two_nodes_play_a_whole_game_at_either_nodes_table(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres) as (n1, n2):
        ann = JsonClient(n1.address, "Ann")
        bob = JsonClient(n2.address, "Bob")
        assert ann.request("/new wizard")["type"] == "ok"
        table = int(ann.last_state()["table"])  # type: ignore[index]
        reply = bob.request(f"/join {table}")  # at once: the table is published as it opens
        assert reply == {"type": "ok", "id": reply["id"], "text": f"you sit at table {table}"}
        bob.wait_for(lambda m: m["type"] == "state" and [p["name"] for p in m["players"]] == ["Ann", "Bob"],
                     since=0)
        seen = eventually(lambda: (t := listed(bob, table)) and len(t["players"]) == 2 and t, "n2 lists Bob there")
        assert (seen["host"], seen["players"], seen["status"]) == ("Ann", ["Ann", "Bob"], "waiting")
        assert ann.request("/option rounds 2")["type"] == "ok"
        watchers = [JsonClient(n1.address, "Carl"), JsonClient(n2.address, "Dora")]  # a local and a visiting eye
        for w in watchers:
            assert w.request(f"/watch {table}")["text"] == f"you watch table {table}"
        screens = [TelnetClient(n1.address), TelnetClient(n2.address)]  # and two terminals, the same way
        for name, screen in zip(("Tim", "Tess"), screens, strict=True):
            screen.read_until(b"name?")
            screen.send(name)
            screen.read_until(b"Welcome")
            screen.send("/mode ascii")
            screen.read_until(b"mode ascii")
            screen.send(f"/watch {table}")
            screen.read_until(f"you watch table {table}".encode())
        marks = [len(w.messages) for w in watchers]
        since = [len(screen.read_until(b"Tess is watching")) for screen in screens]
        assert ann.request("/bot add random")["type"] == "ok"
        assert bob.request("/start")["message"].startswith("only the host (Ann) can start")
        assert ann.request("/start")["type"] == "ok"
        state = bob.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing", since=0)
        assert state["you"] == "Bob" and state["table"] == table
        illegal = bob.request("/play XX99")
        assert illegal["type"] == "error" and illegal["id"] == f"Bob-{bob._next_id}", illegal
        # lobby commands that say more at a table: answered where Bob's table is
        for line, topic, says in (("/rules", "rules wizard", "Wizard rules"),
                                  ("/help", None, "Wizard moves at this table")):
            at = len(bob.messages)
            assert bob.request(line)["type"] == "ok", line
            shown = bob.wait_for(lambda m: m["type"] == "help", since=at)
            assert shown["topic"] == topic and says in shown["text"], (line, shown)
        assert bob.request("/say hello from n2")["type"] == "ok"
        ann.wait_for(lambda m: m["type"] == "chat" and m["text"] == "hello from n2" and m["from"] == "Bob", since=0)
        play_until_game_end([ann, bob], random.Random(1))
        for w in watchers:
            w.wait_for(lambda m: m["type"] == "state" and m["status"] == "over", since=0)
        assert ann.request("/say that was all")["type"] == "ok"
        # each watcher's view up to that line, which both are sent after the same messages (the table's node puts
        # them in one order): what came after the game (its ratings) is in both or in neither
        ends = [w.messages.index(w.wait_for(lambda m: m["type"] == "chat" and m["text"] == "that was all", since=0))
                for w in watchers]
        local, remote = (game_view(w, mark, end) for w, mark, end in zip(watchers, marks, ends, strict=True))
        assert local == remote and any(m["type"] == "game_end" for m in local)
        drawn = [screen.read_until(b"that was all", start=at) for screen, at in zip(screens, since, strict=True)]
        assert drawn[0] == drawn[1] and b"Wizard starts" in drawn[0] and b"Game over." in drawn[0]
        assert bob.request("/leave")["text"] == f"you leave table {table}"
        assert bob.request("/who")["type"] == "ok"  # in the lobby again: answered at home
        assert bob.request("/play B3")["message"].startswith("/play is a game move: sit at a table first")

        # the other way round: n2's user hosts, n1's user visits
        other = open_table(bob, "/option rounds 1", "/bot add random")
        eventually(lambda: listed(ann, other), "n1 lists n2's table")
        assert ann.request("/leave")["type"] == "ok"
        assert ann.request(f"/join {other}")["type"] == "ok"
        assert ann.request(f"/join {table}")["message"] == f"you are at table {other}; /leave it first"
        assert bob.request("/start")["type"] == "ok"
        play_until_game_end([ann, bob], random.Random(2))
        ids = [t["id"] for t in tables(ann)]
        assert ids == sorted(ids) and {table, other} <= set(ids) and other != table  # numbers from two blocks


def move_of(state: dict[str, Any], rng: random.Random) -> str:
    command = pick_command([c for c in state["legal"] if c != "/start"], rng)
    if command == "/pass":  # Witches: the pattern stands for any `count` cards of the hand
        command = " ".join(["/pass", *rng.sample(state["hand"], state["pass"]["count"])])
    return command


def turn(client: JsonClient, others: list[JsonClient], rng: random.Random) -> dict[str, Any]:
    """Play the ``others``' moves until it is the client's turn (not a round's /ok); the client's state then."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        client.read(0.05)
        state = client.last_state()
        if state is not None and state["status"] == "playing" and any(c != "/ok" for c in state["legal"]):
            return state
        for other in others:
            other.read(0.01)
            theirs = other.last_state()
            if theirs is not None and theirs["legal"] and theirs is not getattr(other, "answered", None):
                other.answered = theirs  # type: ignore[attr-defined]
                other.request(move_of(theirs, rng))
    raise AssertionError(f"{client.name}'s turn never came")


def test_a_dropped_visitor_comes_back_on_any_node_to_the_same_seat(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    # the visitor path (no relay: what SSH, TLS and MCCP2 connections take); test_relay.py drops a relayed player
    with cluster(tmp_path, redis_url, postgres, MUDWIZ_RELAY="off") as (n1, n2):
        ann = JsonClient(n1.address, "Ann")
        bob = JsonClient(n2.address, "Bob")
        code = bob.of_type("welcome")[0]["resume"]
        table = visiting(ann, bob, "/bot add random")
        rng = random.Random(3)
        for home, address in (("n2", n2.address), ("n1", n1.address)):  # back home (directory), then at the host
            before = turn(bob, [ann], rng)
            seen = len(ann.messages)
            bob.close()
            ann.wait_for(lambda m: m["type"] == "notice" and "Bob has lost the connection" in m["text"], since=seen)
            held = eventually(lambda: listed(ann, table), "the table is listed")
            assert "Bob" in held["players"]
            # the node logged in at may hear of the drop a moment after the host told Ann: until then Bob is
            # "already connected" there (on another node)
            eventually(lambda at=address: first_answer(at, "bob")["type"] == "password", "the node asks Bob's code")
            with pytest.raises(RuntimeError, match="wrong resume code for Bob"):  # a guest's held name is proved
                JsonClient(address, "bob", password="222-333-444")
            bob = JsonClient(address, "bob", password=code)
            assert bob.of_type("welcome")[0]["name"] == "Bob" and bob.of_type("welcome")[0]["resume"] == code
            back = bob.wait_for(lambda m: m["type"] == "state", since=0)
            assert back["table"] == table and back["you"] == "Bob", (home, back)
            assert (back["moves"], back["hand"], back["legal"]) == (before["moves"], before["hand"], before["legal"])
            ann.wait_for(lambda m: m["type"] == "notice" and m["text"] == "Bob is back.", since=seen)
            move = move_of(back, rng)
            assert bob.request(move)["type"] == "ok", move
        play_until_game_end([ann, bob], rng)


def first_answer(address: tuple[str, int], name: str) -> dict[str, Any]:
    """What a node first answers a JSON login as ``name`` that gives no code: ``welcome``, ``password`` (the code
    is asked) or ``error`` (taken). Nothing is answered to a question, so no failure is counted."""
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(f"/mode json\r\n{name}\r\n".encode())
        said = b""
        while True:
            chunk = sock.recv(65536)
            assert chunk, said
            said += chunk
            for line in said.split(b"\n")[:-1]:
                start = line.find(b"{")
                if start >= 0 and (m := json.loads(line[start:]))["type"] in ("welcome", "password", "error"):
                    return m


def test_a_host_nodes_guest_who_drops_keeps_their_name_on_every_node_from_the_first_moment(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    """Found by a probe: the other nodes heard that the guest left before they heard of the seat kept for them,
    so for some 10-250 ms their name was anyone's there, and the one who took it locked them out of their seat."""
    with cluster(tmp_path, redis_url, postgres) as (n1, n2):
        hst = JsonClient(n1.address, "HstX")
        code = hst.of_type("welcome")[0]["resume"]
        vis = JsonClient(n2.address, "VisX")
        table = visiting(hst, vis, "/bot add random")
        hst.close()
        answers = []
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:  # every moment after the drop: never a welcome without the code
            answers.append(first_answer(n2.address, "hstx"))
            assert answers[-1]["type"] != "welcome", answers
        assert answers[-1]["type"] == "password", answers[-1]
        back = JsonClient(n2.address, "hstx", password=code)
        state = back.wait_for(lambda m: m["type"] == "state", since=0)
        assert (state["table"], state["you"]) == (table, "HstX")


def test_a_killed_hosts_table_is_taken_over_and_its_players_find_their_seats(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, count=3) as (n1, n2, n3):
        ann = JsonClient(n1.address, "Ann")  # on the host: she reconnects to a survivor
        code = ann.of_type("welcome")[0]["resume"]
        bob = JsonClient(n2.address, "Bob")  # visitors: seated again where the table goes, without a word
        cy = JsonClient(n3.address, "Cy")
        register(cy, "cy-secret-9")
        table = open_table(ann, "/option rounds 3", "/bot add random")
        for visitor in (bob, cy):
            eventually(lambda v=visitor: listed(v, table), f"{visitor.name}'s node lists the table")
            assert visitor.request(f"/join {table}")["type"] == "ok"
        assert ann.request("/start")["type"] == "ok"
        # watchers on the two survivors: one is the taker's own user, the other watches it from its node (found by
        # a probe: both were stranded after the takeover, shown nothing more)
        watchers = [JsonClient(n2.address, "Wn2"), JsonClient(n3.address, "Wn3")]
        for w in watchers:
            eventually(lambda w=w: listed(w, table), f"{w.name}'s node lists the table")
            assert w.request(f"/watch {table}")["type"] == "ok"
        rng = random.Random(4)
        while turn(bob, [ann, cy], rng)["moves"] < 2:  # some moves made, and then Bob's turn
            assert bob.request(move_of(bob.last_state(), rng))["type"] == "ok"  # type: ignore[arg-type]
        for c in (ann, bob, cy):  # every move so far seen by all three
            c.read(0.3)
        before = {c.name.lower(): c.last_state() for c in (ann, bob, cy)}
        assert all(state is not None and state["moves"] >= 2 for state in before.values())
        killed = {c.name.lower(): len(c.messages) for c in (bob, cy, *watchers)}
        # and a record n1 held as it died, of a table closed before the record was stored: its survivor stores it
        store = open_database(n1.env["MUDWIZ_DATABASE_URL"])
        try:
            store.save_table(999, {"game": "wizard", "host": "Zed", "options": {}, "seats": []}, node="n1")
            store.hold_record(GameRecord("wizard", {}, {}, 7, [{"name": "Zed", "kind": "person"}], [], None,
                                         "abandoned", 1.0, 2.0, table_id=999), node="n1")
            store.drop_table(999)
            n1.kill()
            ann.close()
            taker = eventually(lambda: "took over 1 tables of node n1" in n2.log() and n2
                               or "took over 1 tables of node n1" in n3.log() and n3,
                               "a survivor takes the table over")
            assert "and 1 records it held" in taker.log()
            [zeds] = eventually(lambda: store.games_of("zed"), "the held record stored")
            assert zeds.outcome == "abandoned" and store.held_records() == []
        finally:
            store.close()
        assert not ("took over" in n2.log() and "took over" in n3.log())
        listing = eventually(lambda: listed(bob, table), "the table is listed again")
        assert listing["players"][0] == "Ann" and listing["status"] == "playing"
        other = n2 if taker is n3 else n3
        eventually(lambda: "node n1 is gone" in other.log(), "the other survivor sees n1 gone")  # till then n1 is
        # where she is online (the presence refuses her name), and her seat is not known to be kept for her
        ann = JsonClient(other.address, "ann", password=code)
        for c in (ann, bob, cy):
            back = c.wait_for(lambda m: m["type"] == "state", since=0 if c is ann else killed[c.name.lower()])
            was = before[c.name.lower()]
            assert was is not None
            assert [back[k] for k in ("table", "moves", "hand", "legal")] == \
                [was[k] for k in ("table", "moves", "hand", "legal")], c.name
        for w in watchers:  # watching the table at its new process
            seen = w.wait_for(lambda m: m["type"] == "state", since=killed[w.name.lower()])
            assert (seen["table"], seen["observer"]) == (table, True), w.name
        play_until_game_end([ann, bob, cy], rng)
        for w in watchers:
            w.wait_for(lambda m: m["type"] == "state" and m["status"] == "over", since=killed[w.name.lower()])
            assert not [m for m in w.of_type("notice")[-3:] if "your seat with it" in m["text"]], w.name


def test_a_visitor_whose_node_is_killed_keeps_the_seat_and_comes_back_on_another(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, count=3) as (n1, n2, n3):
        ann = JsonClient(n1.address, "Ann")
        bob = JsonClient(n2.address, "Bob")
        code = bob.of_type("welcome")[0]["resume"]
        table = visiting(ann, bob, "/bot add random")
        rng = random.Random(5)
        before = turn(bob, [ann], rng)
        seen = len(ann.messages)
        n2.kill()
        ann.wait_for(lambda m: m["type"] == "notice" and "Bob has lost the connection" in m["text"], since=seen)
        eventually(lambda: "node n2 is gone" in n3.log(), "n3 sees n2 gone")
        bob = JsonClient(n3.address, "BOB", password=code)
        back = bob.wait_for(lambda m: m["type"] == "state", since=0)
        assert [back[k] for k in ("table", "you", "moves", "hand", "legal")] == \
            [table, "Bob", before["moves"], before["hand"], before["legal"]]
        play_until_game_end([ann, bob], rng)


def test_a_host_killed_and_restarted_at_once_has_its_table_restored_once(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres) as (n1, n2):
        ann = JsonClient(n1.address, "Ann")
        code = ann.of_type("welcome")[0]["resume"]
        bob = JsonClient(n2.address, "Bob")
        table = visiting(ann, bob, "/bot add random")
        rng = random.Random(6)
        before, mark = moved(bob, ann, rng, 2)
        n1.kill()
        n1.start()  # the name is free once its key expires: it races n2 for the table, and one of them wins
        back = bob.wait_for(lambda m: m["type"] == "state", since=mark, timeout=30)
        assert [back[k] for k in ("table", "moves", "hand", "legal")] == \
            [before[k] for k in ("table", "moves", "hand", "legal")]
        restored = [line for node in (n1, n2) for line in node.log().splitlines() if f"table {table} restored" in line]
        assert len(restored) == 1, restored
        ann = JsonClient(n1.address, "Ann", password=code)
        play_until_game_end([ann, bob], rng)


def test_a_host_stopped_cleanly_hands_its_table_over_as_it_was(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres) as (n1, n2):
        ann = JsonClient(n1.address, "Ann")
        code = ann.of_type("welcome")[0]["resume"]
        bob = JsonClient(n2.address, "Bob")
        visiting(ann, bob, "/option botdelay 0", "/bot add random", "/bot add random")
        rng = random.Random(7)
        before, mark = moved(bob, ann, rng, 3)
        assert n1.stop() == 0  # TERM: bye at once, so n2 takes over without waiting for missed beats
        back = bob.wait_for(lambda m: m["type"] == "state", since=mark, timeout=15)
        assert [back[k] for k in ("table", "moves", "hand", "legal")] == \
            [before[k] for k in ("table", "moves", "hand", "legal")]
        # Bob's state may be his relayed connection taken back, at once; the takeover follows, later when n2 came
        # up less than 4 s ago ("Redis was away until moments ago": Redis must be there without a break first)
        eventually(lambda: "took over 1 tables of node n1" in n2.log(), "n2 takes n1's table over")
        ann = JsonClient(n2.address, "Ann", password=code)
        assert ann.wait_for(lambda m: m["type"] == "state", since=0)["moves"] == before["moves"]
        play_until_game_end([ann, bob], rng)


def test_nodes_stopped_together_take_nothing_over_and_start_again_at_once(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    """A server's processes stopped together (``--workers``' supervisor sends each TERM) hear each other's bye as
    they stop: none takes the other's tables over on its way out, and none leaves a takeover lock behind that a
    process started again would wait out (30 s without a word, accepting no one: a lock whose holder no longer
    runs is broken at once)."""
    with cluster(tmp_path, redis_url, postgres) as (n1, n2):
        ann = JsonClient(n1.address, "Ann")
        bob = JsonClient(n2.address, "Bob")
        open_table(ann, "/bot add random")
        open_table(bob, "/bot add random")
        assert n1.proc is not None and n2.proc is not None
        n1.proc.send_signal(signal.SIGTERM)
        n2.proc.send_signal(signal.SIGTERM)
        assert n1.proc.wait(30) == 0 and n2.proc.wait(30) == 0
        for node in (n1, n2):
            assert "takeover of" not in node.log() and "took over" not in node.log(), node.log()[-3000:]
        # what a process killed (or cut off from Redis) in the middle of a takeover of n1 leaves behind
        redis_cli(redis_url, "SET", "mudwiz:takeover:n1", "n2 0123456789ab", "PX", "30000")
        started = time.monotonic()
        n1.start()  # back once it has joined (its listener starts then): its own tables restored first
        assert time.monotonic() - started < 15
        assert "held by a process no longer running (n2 0123456789ab): broken" in n1.log()
        assert "node n1: 1 journaled tables restored" in n1.log().split("==== run 2")[1]
        n2.start()
        assert "node n2: 1 journaled tables restored" in n2.log().split("==== run 2")[1]
        again = JsonClient(n2.address, "Ann2")
        assert len(tables(again)) == 2  # each sees the other's table again
        again.close()


def own_redis(home: Path) -> tuple[contextlib.ExitStack, str]:
    """A Redis of the test's own, to stop (``close()``) and start again in ``home``, in the exit stack the test
    closes at its end; the test is skipped, saying why, where none can run."""
    from redisserver import RedisUnavailable, redis_server

    redis = contextlib.ExitStack()
    try:
        return redis, redis.enter_context(redis_server(home))
    except RedisUnavailable as exc:
        pytest.skip(str(exc))


def test_redis_restarted_empty_takes_no_live_nodes_table_over(tmp_path: Path, postgres: Databases | str) -> None:
    """Redis away for longer than a node's key lives, then back with nothing in it: the takeover each node
    decided meanwhile found the other's key missing (not yet stored again) and claimed its running table, which
    both then played (found by a probe, in 2 outages of 3). A key missing just after Redis came back is no word
    that its node is dead: each is judged again by its beats."""
    home = tmp_path / "redis"
    redis, url = own_redis(home)
    try:
        with cluster(tmp_path, url, postgres) as (n1, n2):
            ann, bob = JsonClient(n1.address, "ann"), JsonClient(n2.address, "bob")
            rng = random.Random(5)
            tables = {}
            for player in (ann, bob):
                tables[player.name] = open_table(player, "/option rounds 5", "/bot add random", "/bot add random")
                assert player.request("/start")["type"] == "ok"
            redis.close()  # Redis gone ...
            time.sleep(6)  # ... longer than a node's key lives: each takes the other for gone
            from redisserver import redis_server

            url_again = redis.enter_context(redis_server(home))  # ... and back, empty, where it was
            assert url_again == url
            eventually(lambda: all("subscribed again after losing Redis" in n.log() for n in (n1, n2)),
                       "both nodes back on the bus", timeout=30)
            time.sleep(6)  # a takeover decided in the outage has come and gone
            for node in (n1, n2):
                assert "took over" not in node.log(), node.log()[-3000:]
            for player in (ann, bob):  # each plays on at their own node's table
                player.read(0.3)
                at = player.last_state()["moves"]  # type: ignore[index]
                eventually(lambda p=player: p.read(0.05) is not None and p.last_state()["legal"],  # type: ignore[index]
                           f"{player.name}'s turn", timeout=30)
                assert player.request(move_of(player.last_state(), rng))["type"] == "ok"  # type: ignore[arg-type]
                player.read(0.3)
                state = player.last_state()
                assert state is not None and state["moves"] > at and state["table"] == tables[player.name]
            # each node hears the other again as new, and lists its tables: a watch there is not refused
            eventually(lambda: n1.log().count("node n2 is here") >= 2 and n2.log().count("node n1 is here") >= 2,
                       "each node hears the other anew after the outage", timeout=20)
            cat = JsonClient(n1.address, "cat")
            watched = eventually(lambda: cat.request(f"/watch {tables['bob']}")["type"] == "ok",
                                 "Cat (n1) watches Bob's table on n2", timeout=20)
            assert watched
            ann.close()
            bob.close()
    finally:
        redis.close()


def test_after_redis_restarted_empty_each_node_lists_the_others_new_table_and_a_visitor_is_seated_again(
        tmp_path: Path, postgres: Databases | str) -> None:
    """The node whose subscription came back last was heard by the other (its beats went out before it could
    hear) and was never sent the other's tables, nor re-seated its visitor there, who kept waiting (found by
    bench/heal.py, in 2 runs of 3): a beat goes out only while its node hears, and at once when it hears again."""
    home = tmp_path / "redis"
    redis, url = own_redis(home)
    try:
        with cluster(tmp_path, url, postgres) as (n1, n2):
            ann, vic = JsonClient(n1.address, "Ann"), JsonClient(n2.address, "Vic")
            visiting(ann, vic, "/bot add random")
            redis.close()
            time.sleep(5)  # each takes the other for gone, and opens a table meanwhile
            opened = {node.logpath.name: open_table(JsonClient(node.address, f"Op{i}"))
                      for i, node in enumerate((n1, n2))}
            seen = len(vic.messages)
            from redisserver import redis_server

            redis.enter_context(redis_server(home))
            for node, other in ((n1, "n2.log"), (n2, "n1.log")):
                looker = JsonClient(node.address, f"Look{node.logpath.stem}")
                eventually(lambda c=looker, t=opened[other]: listed(c, t), f"{node.logpath.stem} lists table "
                           f"{opened[other]}, opened on the other node in the outage", timeout=20)
            vic.wait_for(lambda m: m["type"] == "notice" and m["text"] == "Vic is back.", timeout=20, since=seen)
    finally:
        redis.close()


def test_a_node_sent_term_while_redis_is_away_exits_at_once(tmp_path: Path, postgres: Databases | str) -> None:
    """TERM with Redis away: the node closed its port but waited for Redis to come back before it exited (its
    cluster's last words, a ``bye`` and its key deleted, wait on Redis); each now waits a bounded time."""
    home = tmp_path / "redis"
    redis, url = own_redis(home)
    try:
        with cluster(tmp_path, url, postgres) as (n1, _n2):
            redis.close()  # Redis gone
            time.sleep(0.5)
            began = time.monotonic()
            status = n1.stop()  # TERM
            took = time.monotonic() - began
            assert status == 0 and took < 10, (status, took)
    finally:
        redis.close()


def test_a_visitor_reads_the_host_nodes_replies_and_notices_in_their_own_language(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    """A text made on the table's node crosses the bus as its msgid and params (mudwiz/texts) and is worded on the
    reader's own node in their language: a forwarded command's ``ok``, its error, a notice to the table. On the
    visitor path (no relay), which is what crosses the bus."""
    with cluster(tmp_path, redis_url, postgres, MUDWIZ_RELAY="off") as (one, two):
        host, visitor = JsonClient(one.address, "hoster"), JsonClient(two.address, "hana")
        try:
            assert visitor.request("/lang ja")["type"] == "ok"
            table = open_table(host, "/option rounds 3")
            eventually(lambda: listed(visitor, table), "the visitor's node lists the table")
            assert visitor.request(f"/join {table}")["text"] == f"卓 {table} に着席しました"
            refused = visitor.request("/bot add")  # only the host seats bots: refused on the host's node
            assert refused["type"] == "error"
            assert refused["message"] == "ボットを着席させられるのはホスト（hoster）だけです"
            english = host.request(f"/join {table}")  # the host reads English, on the same node
            assert english["type"] == "error" and english["message"].startswith("you are already seated at table")
        finally:
            host.close()
            visitor.close()
