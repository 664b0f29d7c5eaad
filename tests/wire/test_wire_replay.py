"""``/replay`` end to end over loopback: a short game played by a JSON client and bots on a running server whose
MUDWIZ_DATA is a temporary directory, then replayed over JSON (every frame, in bounded messages) and at a
terminal (the real ``nc``, ASCII mode: step by step with ``/replay next``), and ``mudwiz export`` of the same
game (a subprocess on the same directory) gives a record whose replay is exactly the frames the server sent."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from test_wire_records import history
from wire import ROOT, JsonClient, ascii_nc, play_until_game_end, running_server

from mudwiz.render.common import frame_view
from mudwiz.replay import frames
from mudwiz.store import GameRecord


def replayed_over_json(client: JsonClient, game_id: int) -> list[dict[str, Any]]:
    """Every frame of ``/replay ID``, asking for the next chunk from where each message ended."""
    got: list[dict[str, Any]] = []
    while True:
        assert client.request(f"/replay {game_id} {len(got)}")["type"] == "ok"
        message = client.of_type("replay")[-1]
        assert message["first"] == len(got)
        got += [{**f, "view": frame_view(message, f)} for f in message["frames"]]
        if got[-1]["step"] == message["steps"]:
            return got


def test_a_game_replayed_over_json_and_at_a_terminal_is_its_exported_record(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    with running_server(MUDWIZ_DATA=data) as address:
        alice = JsonClient(address, "alice")
        for cmd in ("/new witches", "/option hands 1", "/bot add random", "/bot add good", "/start"):
            assert alice.request(cmd)["type"] == "ok", cmd
        play_until_game_end([alice], random.Random(8))
        [row] = history(alice)["games"]
        shown = replayed_over_json(alice, row["id"])
        alice.close()

        nc, mark = ascii_nc(address, "bob")
        try:
            nc.type(f"/replay {row['id']}")
            deal = nc.read_until(b"the next move.")[mark:].decode("ascii")
            nc.type("/replay next")
            nc.read_until(b"(or /replay %d 2)" % row["id"])
            nc.type("/replay 999")
            output = nc.read_until(b"there is no game 999")[mark:].decode("ascii")
        finally:
            nc.close()

    exported = subprocess.run([sys.executable, "-m", "mudwiz.cli", "export", str(row["id"]), "--data", data],
                              cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert exported.returncode == 0, exported.stderr
    record = GameRecord(**json.loads(exported.stdout))
    assert json.loads(json.dumps([f.to_dict() for f in frames(record)])) == shown
    assert shown[-1]["view"]["standings"] == record.standings and shown[-1]["view"]["phase"] == "gameover"

    assert f"Replay of game #{row['id']}: witches" in deal and "The deal." in deal
    first = shown[0]["view"]["hands"]
    for name in ("alice", "bot1", "bot2"):  # every hand at the deal, each row with its first cards
        assert any(line.startswith(f" {name} ") and first[name][0] in line for line in deal.splitlines())
    second = output[len(deal):]
    move = record.actions[0]
    assert " Move 1 at 0:" in second and f"{record.players[move['seat']]} /{move['action']}" in second
    assert "\x1b[" not in output and output.isascii()  # ascii mode: no escape codes
