"""The server on PostgreSQL over loopback (``MUDWIZ_DATABASE_URL`` to a database on the session's throwaway
server, tests/support/pgserver.py): a registered player plays a game with bots to its end and ``/history`` and
``/rating`` show it from the database; a table in mid-game survives a ``kill -9`` of the server, restored from
the journal in the database at its last move; ``mudwiz export`` and ``mudwiz admin`` read the same database;
and nothing is written to the data directory's SQLite file."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from conftest import Backend, postgres_databases
from pgserver import Databases
from test_wire_records import history
from wire import ROOT, JsonClient, RestartableServer, pick_command, play_until_game_end, register

from mudwiz.store import FILENAME

SECRET = "postgres-played-this"


def play_moves(client: JsonClient, count: int, rng: random.Random) -> None:
    """``count`` of the client's own moves, each answered (the bots move in between)."""
    for _ in range(count):
        client.wait_for(lambda m: m["type"] == "state" and bool(m["legal"]), since=client.mark)
        state = client.last_state()
        assert state is not None and state["legal"], state
        command = pick_command([c for c in state["legal"] if c != "/start"], rng)
        assert client.request(command)["type"] == "ok", command


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mudwiz.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=30)


def test_a_server_on_postgres_keeps_games_ratings_and_a_journaled_table_across_a_kill(
        postgres: Databases | str, tmp_path: Path) -> None:
    databases = postgres_databases(postgres)
    with databases.fresh() as url:
        server = RestartableServer(tmp_path / "data", tmp_path / "server.log", MUDWIZ_DATABASE_URL=url)
        try:
            server.start()
            ann = JsonClient(server.address, "Ann_PG")
            register(ann, SECRET)
            for cmd in ("/new wizard", "/option rounds 1", "/bot add good", "/bot add random", "/start"):
                assert ann.request(cmd)["type"] == "ok", cmd
            play_until_game_end([ann], random.Random(5))
            [row] = history(ann)["games"]
            assert (row["game"], row["outcome"]) == ("wizard", "finished")
            assert ann.request("/rating")["type"] == "ok"
            [rating] = ann.of_type("rating")[-1]["ratings"]
            assert (rating["game"], rating["games"], rating["rank"]) == ("wizard", 1, 1)

            assert ann.request("/leave")["type"] == "ok"
            for cmd in ("/new wizard", "/option rounds 3", "/bot add random", "/bot add random", "/start"):
                assert ann.request(cmd)["type"] == "ok", cmd
            table = ann.last_state()["table"]  # type: ignore[index]
            play_moves(ann, 3, random.Random(6))
            ann.wait_for(lambda m: m["type"] == "state" and bool(m["legal"]), since=ann.mark)
            while ann.last_state()["legal"] == ["/ok"]:  # type: ignore[index]  # a round's end goes on without her
                assert ann.request("/ok")["type"] == "ok"
                ann.wait_for(lambda m: m["type"] == "state" and bool(m["legal"]) and m["legal"] != ["/ok"],
                             since=ann.mark)
            mid = ann.last_state()  # her move: the table waits for it
            assert mid is not None and mid["legal"] and mid["moves"] >= 3
            ann.close()
            server.kill()  # every move was journaled before its state was sent: nothing to wait for
            server.start()
            back = JsonClient(server.address, "ann_pg", password=SECRET)
            back.request("/look")
            state = back.last_state()
            assert state is not None and state["table"] == table and state["status"] == "playing", state
            assert (state["moves"], state["hand"], state["legal"]) == (mid["moves"], mid["hand"], mid["legal"])
            assert history(back)["games"] == [row]  # and the record, from the database after the restart
            back.close()
            env = {**server.env}
            exported = cli("export", str(row["id"]), env=env)
            assert exported.returncode == 0, exported.stderr
            assert json.loads(exported.stdout)["id"] == row["id"]
            granted = cli("admin", "grant", "ANN_PG", "sysop", env=env)
            assert granted.returncode == 0, granted.stderr
        finally:
            if server.proc is not None and server.proc.poll() is None:
                assert server.stop() == 0, server.log()
        assert not (tmp_path / "data" / FILENAME).exists()
        kept = Backend("postgres", url, (), url)
        assert kept.query("SELECT name FROM accounts") == [("Ann_PG",)]
        assert kept.query("SELECT name_key, role FROM roles") == [("ann_pg", "sysop")]
        assert kept.query("SELECT count(*) FROM games") == [(1,)]
        assert kept.query("SELECT id FROM tables") == [(table,)]  # the first closed when she left it
        assert "game records and accounts in postgresql://" in server.log()


