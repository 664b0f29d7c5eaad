"""Game records end to end over loopback: a game played out by a JSON client and bots on a server whose
MUDWIZ_DATA is a temporary directory, shown by /history and /game, still there after a restart on the same
directory, and printed by ``mudwiz export``; a data directory the server cannot use stops its start."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from wire import ROOT, JsonClient, free_port, play_until_game_end, running_server

from mudwiz.games import game_class


def history(client: JsonClient, name: str = "", wait: float = 10) -> dict[str, Any]:
    """``/history``, asked again until it lists a game: the server writes records in a thread of its own."""
    deadline = time.monotonic() + wait
    while True:
        assert client.request(f"/history {name}".strip())["type"] == "ok"
        found = client.of_type("history")[-1]
        if found["games"] or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_a_game_played_over_the_wire_is_in_history_after_a_restart_and_exported(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    with running_server(MUDWIZ_DATA=data) as address:
        alice = JsonClient(address, "alice")
        for cmd in ("/new wizard", "/option rounds 2", "/bot add random", "/bot add good", "/start"):
            assert alice.request(cmd)["type"] == "ok", cmd
        play_until_game_end([alice], random.Random(4))
        standings = alice.of_type("game_end")[-1]["standings"]
        [row] = history(alice)["games"]
        assert (row["game"], row["outcome"]) == ("wizard", "finished")
        assert row["place"] == next(r["place"] for r in standings if r["player"] == "alice")
        assert [p["kind"] for p in row["players"]] == ["person", "bot:random", "bot:normal"]  # good: normal's old name
        assert alice.request(f"/game {row['id']}")["type"] == "ok"
        shown = alice.of_type("game")[-1]
        assert shown["standings"] == standings and len(shown["sheet"]) == 2
        alice.close()
    assert Path(data, "mudwiz.db").is_file()

    with running_server(MUDWIZ_DATA=data) as address:
        bob = JsonClient(address, "bob")
        assert history(bob, "ALICE")["games"] == [row]
        exported = subprocess.run([sys.executable, "-m", "mudwiz.cli", "export", str(row["id"]), "--data", data],
                                  cwd=ROOT, capture_output=True, text=True, timeout=30)
        bob.close()
    assert exported.returncode == 0, exported.stderr
    record = json.loads(exported.stdout)
    assert record["id"] == row["id"] and record["standings"] == standings and record["outcome"] == "finished"
    moves = [(a["seat"], a["action"]) for a in record["actions"]]
    replayed, _ = game_class(record["game"]).replay([s["name"] for s in record["seats"]], record["options"],
                                                    record["seed"], moves)
    assert replayed.view(None)["standings"] == standings

    missing = subprocess.run([sys.executable, "-m", "mudwiz.cli", "export", "999", "--data", data], cwd=ROOT,
                             capture_output=True, text=True, timeout=30)
    assert (missing.returncode, missing.stdout) == (1, "")
    assert missing.stderr == f"mudwiz: there is no game 999 in {Path(data, 'mudwiz.db')}\n"


def test_a_data_directory_holding_no_database_stops_the_start_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "mudwiz.db"
    path.write_bytes(b"not a database at all\n" * 100)
    run = subprocess.run([sys.executable, "-m", "mudwiz.cli", "serve", "--listen", f"tcp:{free_port()}",
                          "--data", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert run.returncode == 1
    assert "Traceback" not in run.stdout + run.stderr
    assert run.stderr.startswith(f"mudwiz: cannot use the game records: {path}: it is not a database")
    assert run.stderr.count("\n") == 1
    assert path.read_bytes() == b"not a database at all\n" * 100
