"""A connection relayed across addresses to the node that hosts its table (mudwiz/net/relay.py, relayed.py,
relaylink.py; mudwiz/cluster/relays.py): two ``mudwiz serve`` nodes on their own ports and data directories, on a
real Redis and PostgreSQL. A person connected to n1 who joins a table n2 hosts plays there as n2's own user (the
logs say so, /who on both nodes shows them at the table, once), their socket still held by n1, which copies its
bytes; a telnet client keeps its window and options with nothing negotiated again; their connection's end keeps
the seat for the grace period and a login again finds it; n2 killed with ``kill -9`` mid-game: the person's
connection goes on at n1 as a visitor of the table whose host is gone (told so as such a visitor is), and they are
seated again at once where the table is taken over."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import time
from pathlib import Path

import pytest
from pgserver import Databases
from test_cluster_tables import cluster, listed, open_table
from wire import JsonClient, RestartableServer, TelnetClient, eventually, play_until_game_end, register

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
RELAY = {"MUDWIZ_RELAY": "127.0.0.1"}


def who(client: JsonClient) -> dict[str, str]:
    assert client.request("/who")["type"] == "ok"
    return {row["name"]: row["where"] for row in client.of_type("who")[-1]["users"]}


def hosting(n1: RestartableServer, n2: RestartableServer, rounds: int) -> tuple[JsonClient, int]:
    """n1 linked to n2's relay port, and Hosta's Wizard table with a bot on n2 (not started): her, its number."""
    eventually(lambda: "relay: linked to n2" in n1.log(), "n1 links to n2's relay port")
    host = JsonClient(n2.address, "Hosta")
    return host, open_table(host, f"/option rounds {rounds}", "/option botdelay 0", "/bot add random")


def test_a_person_at_one_node_plays_at_anothers_table_as_its_own_user_and_keeps_the_seat_when_they_drop(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, **RELAY) as (n1, n2):
        host, table = hosting(n1, n2, 2)
        mover = JsonClient(n1.address, "Mover")
        register(mover, "secret-words")
        lobbyist = JsonClient(n1.address, "Lobbyist")  # stays in n1's lobby
        eventually(lambda: listed(mover, table), "n1 lists n2's table")
        greeted, since = len(mover.of_type("welcome")), len(host.messages)

        assert mover.request(f"/join {table}")["type"] == "ok"
        mover.wait_for(lambda m: m["type"] == "state" and m.get("table") == table, since=mover.mark)
        assert "Mover relayed to n2" in n1.log() and "Mover relayed here from n1" in n2.log()
        assert len(mover.of_type("welcome")) == greeted  # no second login
        host.read(0.5)
        said = [m for m in host.messages[since:] if m["type"] == "notice"]
        assert not [m for m in said if "has left" in str(m) or "has arrived" in str(m)], said
        place = f"table {table}"
        for client in (mover, host, lobbyist):  # n2's user now, at its table, once on every node's /who
            rows = eventually(lambda c=client: (w := who(c)).get("Mover", "").startswith("table") and w,
                              f"{client.name}'s /who shows Mover at the table")
            assert place in rows["Mover"] and "Lobbyist" in rows and "Hosta" in rows, rows
            assert [r["name"] for r in client.of_type("who")[-1]["users"]].count("Mover") == 1

        assert host.request("/start")["type"] == "ok"
        state = mover.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing", since=0)
        assert state["you"] == "Mover"
        mover.close()  # dropped at n1: n2 keeps the seat, as for its own users
        eventually(lambda: "Mover" not in who(lobbyist), "Mover's drop seen on n1")
        eventually(lambda: (t := listed(lobbyist, table)) and "Mover" in str(t), "the seat is kept")
        again = JsonClient(n1.address, "Mover", password="secret-words")
        again.wait_for(lambda m: m["type"] == "state" and m.get("table") == table, since=0)
        play_until_game_end([host, again], random.Random(7))
        assert again.request("/leave")["type"] == "ok"
        again.close()
        host.close()
        lobbyist.close()


def test_a_telnet_client_is_relayed_whole_and_goes_on_at_its_node_when_the_tables_node_dies(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, **RELAY) as (n1, n2):
        host, table = hosting(n1, n2, 3)
        person = TelnetClient(n1.address, ttypes=("MUDLET",), size=(50, 30))
        person.read_until(b"name")
        person.send("Termie")
        person.read_until(b"Termie")
        mark = len(person.data)
        person.send("/tables")
        eventually(lambda: f"{table}".encode() in person.read_until(b"Hosta", start=mark), "n1 lists the table")
        negotiated, mark = len(person.received), len(person.data)
        person.send(f"/join {table}")
        person.read_until(f"you sit at table {table}".encode(), start=mark)
        assert "Termie relayed to n2" in n1.log()
        shown = ANSI.sub("", person.data[mark:].decode("utf-8", "replace")).replace("\r", "")
        assert "name?" not in shown and "Welcome" not in shown, shown
        assert max(len(line) for line in shown.split("\n")) <= 50, shown  # the window n1 was told
        assert person.received[negotiated:] == [], person.received[negotiated:]  # no option negotiated again
        assert host.request("/start")["type"] == "ok"
        person.read_until(b"Wizard starts", start=mark)

        mark = len(person.data)
        n2.kill()  # the connection goes on at n1, as it stood when relayed, a visitor of the table now
        person.read_until(f"the server process of table {table} stopped".encode(), start=mark, timeout=20)
        assert "Termie taken back from n2" in n1.log()
        eventually(lambda: "took over 1 tables of node n2" in n1.log(), "n1 takes the table over")
        person.read_until(b"Your hand", start=mark, timeout=20)  # seated again where the table went, at once
        mark = len(person.data)
        person.send("/who")
        shown = ANSI.sub("", person.read_until(b"Termie", start=mark).decode())
        assert f"table {table}" in shown, shown
        person.close()
        host.close()


def test_mudwiz_relay_off_leaves_the_person_a_visitor(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, MUDWIZ_RELAY="off") as (n1, n2):
        host = JsonClient(n2.address, "Hosta")
        table = open_table(host)
        guest = JsonClient(n1.address, "Guest")
        eventually(lambda: listed(guest, table), "n1 lists n2's table")
        assert guest.request(f"/join {table}")["type"] == "ok"
        assert "relayed" not in n1.log() and "relay:" not in n2.log()
        eventually(lambda: f"table {table}" in who(host)["Guest"], "n2's /who shows the visitor at the table")
        guest.close()
        host.close()


def join_unheard(n1: RestartableServer, n2: RestartableServer, mover: JsonClient,
                 *after: str) -> tuple[JsonClient, int, list[str]]:
    """``mover`` (on n1) sends ``/join N`` of the table n2 opens next, and ``after`` right behind it, then Hostb
    opens it on n2, all while n1 is stopped (SIGSTOP): when it goes on, the join is the first thing it reads
    (it came first), before n2's word of the table, which is there a moment later. Hostb, the table's number,
    and the ids of the join and of the lines behind it, in the order sent."""
    first = JsonClient(n2.address, "Hosta")
    table = open_table(first) + 1  # the next number of n2's block
    opener = JsonClient(n2.address, "Hostb")
    ids = [f"line-{i}" for i in range(len(after) + 1)]
    mover.mark = len(mover.messages)
    assert n1.proc is not None
    os.kill(n1.proc.pid, signal.SIGSTOP)
    try:
        for rid, cmd in zip(ids, (f"/join {table}", *after), strict=True):
            mover.send(json.dumps({"id": rid, "cmd": cmd}))
        time.sleep(0.2)
        assert open_table(opener) == table
        time.sleep(0.3)  # its word is in n1's socket from Redis
    finally:
        os.kill(n1.proc.pid, signal.SIGCONT)
    first.close()
    return opener, table, ids


def test_a_join_of_a_table_not_yet_heard_of_is_relayed_once_word_of_it_comes(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, **RELAY) as (n1, n2):
        eventually(lambda: "relay: linked to n2" in n1.log(), "n1 links to n2's relay port")
        mover = JsonClient(n1.address, "Mover")
        opener, table, (rid,) = join_unheard(n1, n2, mover)
        assert mover.wait_for(lambda m: m.get("id") == rid, since=mover.mark)["type"] == "ok"
        mover.wait_for(lambda m: m["type"] == "state" and m.get("table") == table, since=mover.mark)
        assert "Mover relayed to n2" in n1.log() and "Mover relayed here from n1" in n2.log(), n1.log()[-3000:]
        eventually(lambda: f"table {table}" in who(opener)["Mover"], "n2's /who shows Mover at the table")
        mover.close()
        opener.close()


def test_lines_typed_behind_a_join_that_waits_for_word_of_its_table_follow_it_there_in_order(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, **RELAY) as (n1, n2):
        eventually(lambda: "relay: linked to n2" in n1.log(), "n1 links to n2's relay port")
        mover = JsonClient(n1.address, "Mover")
        said = [f"/say word {i}" for i in range(5)]
        opener, table, ids = join_unheard(n1, n2, mover, *said)
        mover.wait_for(lambda m: m.get("id") == ids[-1], since=mover.mark)
        answers = [m for m in mover.messages[mover.mark:] if m.get("id") in ids]
        assert [m["id"] for m in answers] == ids and all(m["type"] == "ok" for m in answers), answers
        assert "Mover relayed to n2" in n1.log(), n1.log()[-3000:]
        def chat() -> list[str]:
            opener.read(0.2)
            return [m["text"] for m in opener.messages if m["type"] == "chat" and m.get("from") == "Mover"]

        heard = eventually(lambda: len(chat()) == len(said) and chat(), "Hostb hears Mover at the table")
        assert heard == [f"word {i}" for i in range(5)]  # at the table on n2, in the order typed
        mover.close()
        opener.close()


def test_a_relayed_person_is_told_when_the_node_holding_their_connection_stops_and_their_seat_is_kept(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, **RELAY) as (n1, n2):
        host, table = hosting(n1, n2, 2)
        mover = JsonClient(n1.address, "Mover")
        eventually(lambda: listed(mover, table), "n1 lists n2's table")
        assert mover.request(f"/join {table}")["type"] == "ok"
        mover.wait_for(lambda m: m["type"] == "state" and m.get("table") == table, since=mover.mark)
        assert "Mover relayed to n2" in n1.log()
        assert host.request("/start")["type"] == "ok"
        mover.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing", since=0)
        assert n1.stop() == 0  # the node holding Mover's socket stops cleanly: told as its own users are
        notice = mover.wait_for(lambda m: m["type"] == "shutdown", since=mover.mark)
        assert notice["text"] == "The server is stopping now.", notice
        with pytest.raises(ConnectionError):  # and then closed
            for _ in range(100):
                mover.read(0.2)
        eventually(lambda: (t := listed(host, table)) and "Mover" in str(t), "n2 keeps Mover's seat")
        assert "Traceback" not in n1.log() + n2.log()
        host.close()
