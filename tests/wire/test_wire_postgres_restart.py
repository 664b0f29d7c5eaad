"""PostgreSQL restarted under a running server (its own throwaway PostgreSQL, tests/support/pgserver.py, stopped
and started again while a game is played over loopback): the game goes on, every player's line is answered,
and the server says in one line what the database's absence means; the game's record, finished while the
database was away, is stored once it is back, exactly once; no traceback in the log."""

from __future__ import annotations

import importlib.util
import random
import socket
import time
from pathlib import Path

import pytest
from wire import JsonClient, RestartableServer, eventually, play_until_game_end, register

from mudwiz.errors import STORE_AWAY
from mudwiz.table.outage import AWAY, BACK


def count_games(url: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        row = db.execute("SELECT count(*) FROM games").fetchone()
        assert row is not None
        return int(row[0])


def test_postgres_restarted_mid_game_loses_no_record_and_hangs_nobody(tmp_path: Path) -> None:
    if importlib.util.find_spec("psycopg") is None:
        pytest.skip("the psycopg client is not installed (pip install -e '.[test]')")
    from pgserver import PgUnavailable, pg_server

    try:
        pg_context = pg_server()  # its own directory: the postgres user cannot reach tmp_path
        pg = pg_context.__enter__()
    except PgUnavailable as exc:
        pytest.skip(f"PostgreSQL cannot be started here: {exc}")
    try:
        server = RestartableServer(tmp_path / "data", tmp_path / "server.log", MUDWIZ_DATABASE_URL=pg.url)
        server.start()
        try:
            ann = JsonClient(server.address, "Ann_PG")
            register(ann, "postgres-restarted")
            for cmd in ("/new wizard", "/option rounds 2", "/bot add random", "/bot add random", "/start"):
                assert ann.request(cmd)["type"] == "ok", cmd
            ann.wait_for(lambda m: m["type"] == "state" and bool(m["legal"]), since=ann.mark)
            pg.stop()  # the database goes away mid-game ...
            began = time.monotonic()
            play_until_game_end([ann], random.Random(3))  # ... and the game is played to its end meanwhile
            assert time.monotonic() - began < 60
            said = [m["text"] for m in ann.of_type("notice") if "database" in m["text"]]
            assert said == [AWAY], said  # one line says what it means, once
            assert ann.request("/who")["type"] == "ok"  # the lobby answers too
            history = ann.request("/history")  # what needs the database: one line, at once
            assert history["type"] == "error" and "\n" not in history["message"], history
            with socket.create_connection(server.address, timeout=10) as newcomer:  # a login needs it too
                newcomer.sendall(b"Carl\r\n")
                seen = b""
                while str(STORE_AWAY).encode() not in seen:
                    chunk = newcomer.recv(4096)
                    assert chunk, seen
                    seen += chunk
            pg.start()  # ... and comes back
            eventually(lambda: ann.read(0.1) is not None and BACK in [m["text"] for m in ann.of_type("notice")],
                       "the players told the database is back", timeout=30)
            assert "game recorded as #1 (finished)" in server.log()
            assert ann.request("/history")["type"] == "ok"
            ann.close()
        finally:
            assert server.stop() == 0, server.log()[-3000:]
        assert count_games(pg.url) == 1
        log = server.log()
        assert "Traceback" not in log, log[-5000:]
    finally:
        pg_context.__exit__(None, None, None)
