"""A connection handed to the worker that hosts its table (mudwiz/net/handed.py, mudwiz/carry.py,
mudwiz/cluster/handoff.py), under ``mudwiz serve --workers 2`` on a real PostgreSQL and Redis: which process holds
the accepted socket is read from /proc before and after, as tests/cluster/test_workers.py reads it.

A person's connection is made to land on the worker that does not host the table (the host's worker is paused
with SIGSTOP while they connect, so the other must accept it); their ``/join N`` moves the socket to the table's
worker, where they play a short Wizard game to its end, and they log in again as normal afterwards."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import time
from pathlib import Path
from typing import Any

from pgserver import Databases
from test_workers import cluster_redis, serving_pid, workers
from wire import JsonClient, TelnetClient, eventually, play_until_game_end, register

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
__all__ = ["cluster_redis"]  # the module's autouse fixture: the workers join the session's Redis


def landed_elsewhere(port: int, pids: list[int], avoid: int, connect: Any) -> tuple[Any, int]:
    """A connection made while worker ``avoid`` is paused, and the pid of the other worker that accepted it."""
    os.kill(avoid, signal.SIGSTOP)
    try:
        client = connect()
    finally:
        os.kill(avoid, signal.SIGCONT)
    serving = serving_pid(client.sock, port, pids)
    assert serving != avoid
    return client, serving


def listed(client: JsonClient, table: int) -> bool:
    assert client.request("/tables")["type"] == "ok"
    return any(t["id"] == table for t in client.of_type("tables")[-1]["tables"])


def open_table(host: JsonClient) -> int:
    for cmd in ("/new wizard", "/option rounds 2", "/option botdelay 0", "/bot add random"):
        assert host.request(cmd)["type"] == "ok", cmd
    state = host.last_state()
    assert state is not None
    return int(state["table"])


def hosting(running: Any) -> tuple[list[int], JsonClient, int, int]:
    """Both workers ready: their pids, Hosta and the pid of the worker serving her, and the table she opened."""
    pids = [running.ready("w1"), running.ready("w2")]
    host = JsonClient(("127.0.0.1", running.port), "Hosta")
    return pids, host, serving_pid(host.sock, running.port, pids), open_table(host)


def test_a_join_moves_the_connection_to_the_tables_worker_who_plays_there_and_logs_in_again_as_normal(
        tmp_path: Path, postgres: Databases | str) -> None:
    with workers(tmp_path, postgres, 2) as running:
        pids, host, host_pid, table = hosting(running)
        mover, _ = landed_elsewhere(running.port, pids, host_pid,
                                    lambda: JsonClient(("127.0.0.1", running.port), "Mover"))
        register(mover, "secret-words")  # an account: it goes with the connection
        eventually(lambda: listed(mover, table), f"the mover's worker lists table {table}")
        greeted = len(mover.of_type("welcome"))
        since = len(host.messages)

        joined = mover.request(f"/join {table}")
        assert joined["type"] == "ok", joined
        after = serving_pid(mover.sock, running.port, pids)
        assert after == host_pid, running.log()  # the same socket, now held by the table's worker
        assert os.path.exists(tmp_path / "data" / "handoff-w1.sock")
        assert "handed to w" in running.log()
        state = mover.wait_for(lambda m: m["type"] == "state" and m.get("table") == table, since=mover.mark)
        assert "Mover" in str(state)
        assert len(mover.of_type("welcome")) == greeted  # no second login
        host.read(0.5)
        said = [m for m in host.messages[since:] if m["type"] == "notice"]
        assert not [m for m in said if "has left" in str(m) or "has arrived" in str(m)], said
        who = mover.request("/who")
        assert who["type"] == "ok"
        assert [r["name"] for r in mover.of_type("who")[-1]["users"]].count("Mover") == 1

        assert host.request("/start")["type"] == "ok"
        play_until_game_end([host, mover], random.Random(7))
        assert serving_pid(mover.sock, running.port, pids) == host_pid  # stays on the table's worker
        assert mover.request("/leave")["type"] == "ok"
        mover.close()

        def who(client: JsonClient) -> list[str]:
            assert client.request("/who")["type"] == "ok"
            return [r["name"] for r in client.of_type("who")[-1]["users"]]

        eventually(lambda: "Mover" not in who(host), "Mover's logout seen")  # as after any connection's end

        def log_in_again() -> JsonClient | None:
            """The login lands on either worker: the other hears of the logout over the bus a moment later, and
            until then says the name is connected, as it would to anyone."""
            try:
                return JsonClient(("127.0.0.1", running.port), "Mover", password="secret-words")
            except RuntimeError as refused:
                if "already connected" in str(refused):
                    return None
                raise

        again = eventually(log_in_again, "Mover logs in again once both workers have seen the logout")
        assert again.of_type("welcome")
        assert again.request("/who")["type"] == "ok"
        assert [r["name"] for r in again.of_type("who")[-1]["users"]].count("Mover") == 1
        again.close()
        host.close()
        assert running.stop() == 0, running.log()


def test_a_telnet_client_moves_with_its_window_and_options_and_nothing_is_negotiated_again(
        tmp_path: Path, postgres: Databases | str) -> None:
    with workers(tmp_path, postgres, 2) as running:
        pids, host, host_pid, table = hosting(running)

        def telnet() -> TelnetClient:
            client = TelnetClient(("127.0.0.1", running.port), ttypes=("MUDLET",), size=(50, 30))
            client.read_until(b"name")
            return client

        person, _ = landed_elsewhere(running.port, pids, host_pid, telnet)
        person.send("Termie")
        person.read_until(b"Termie")
        mark = len(person.data)
        person.send("/tables")
        person.read_until(b"Hosta", start=mark)
        assert (253, 31) in person.received  # the first worker asked for the window size (IAC DO NAWS)
        negotiated, mark = len(person.received), len(person.data)
        person.send(f"/join {table}")
        person.read_until(b"Hosta", start=mark)
        person.wait(lambda: serving_pid(person.sock, running.port, pids) == host_pid, what="moved")
        person.read_until(b"Termie", start=mark)
        shown = ANSI.sub("", person.data[mark:].decode("utf-8", "replace")).replace("\r", "")
        assert "name?" not in shown and "Welcome" not in shown, shown
        assert max(len(line) for line in shown.split("\n")) <= 50, shown  # the window the first worker was told
        assert person.received[negotiated:] == [], person.received[negotiated:]  # no option negotiated again
        mark = len(person.data)
        person.send("/look")
        person.read_until(b"Termie", start=mark)  # the connection goes on at its new worker
        person.close()
        host.close()
        assert running.stop() == 0, running.log()


def test_a_join_that_waits_for_word_of_its_table_moves_the_connection_with_the_lines_behind_it(
        tmp_path: Path, postgres: Databases | str) -> None:
    """The mover's ``/join N`` of the table the other worker opens next reaches their worker before its word of the
    table (their worker is stopped while the table opens), so it waits for the word; the two lines typed behind it
    go with the connection and are answered there, after the join."""
    with workers(tmp_path, postgres, 2) as running:
        pids, host, host_pid, table = hosting(running)
        mover, mover_pid = landed_elsewhere(running.port, pids, host_pid,
                                            lambda: JsonClient(("127.0.0.1", running.port), "Mover"))
        lines = [f"/join {table + 1}", "/say behind one", "/say behind two"]  # the host's worker's next number
        mover.mark = len(mover.messages)
        os.kill(mover_pid, signal.SIGSTOP)  # it reads the join first, and the word of the table a moment after
        try:
            for i, line in enumerate(lines):
                mover.send(json.dumps({"id": f"line-{i}", "cmd": line}))
            time.sleep(0.2)
            opener = JsonClient(("127.0.0.1", running.port), "Opener")  # (on the host's worker, the other stopped)
            assert open_table(opener) == table + 1
            time.sleep(0.3)
        finally:
            os.kill(mover_pid, signal.SIGCONT)
        mover.wait_for(lambda m: m.get("id") == "line-2", since=mover.mark)
        answers = [m for m in mover.messages[mover.mark:] if str(m.get("id")).startswith("line-")]
        assert [(m["id"], m["type"]) for m in answers] == [(f"line-{i}", "ok") for i in range(3)], answers
        assert serving_pid(mover.sock, running.port, pids) == host_pid, running.log()
        assert "Mover handed to w" in running.log()
        opener.wait_for(lambda m: m["type"] == "chat" and m.get("text") == "behind two", since=0)
        said = [m["text"] for m in opener.messages if m["type"] == "chat" and m.get("from") == "Mover"]
        assert said == ["behind one", "behind two"], said  # at the table, in the order typed
        mover.close()
        opener.close()
        host.close()
        assert running.stop() == 0, running.log()
