"""``/analyze`` end to end over loopback: a short Wizard game played to its end by a JSON client and bots on a
running server whose MUDWIZ_DATA is a temporary directory; asked while it is still being played, it is refused;
after, it gives the player's bids beside the hard bot's; another player's seat and a round the game did not have
are refused, each with its code; at a terminal (the real ``nc``) it is drawn; and ``mudwiz export ID --analysis``
(a subprocess on the same directory once the server has stopped) has the very same analysis."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from test_wire_records import history
from wire import ROOT, JsonClient, ascii_nc, play_until_game_end, running_server


def test_analyze_over_the_wire_and_in_the_export(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    with running_server(MUDWIZ_DATA=data) as address:
        alice = JsonClient(address, "alice")
        for cmd in ("/new wizard", "/option rounds 3", "/bot add random", "/bot add easy", "/start"):
            assert alice.request(cmd)["type"] == "ok", cmd
        playing = alice.request("/analyze")
        assert (playing["type"], playing.get("code")) == ("error", "in-progress"), playing
        assert "still being played" in playing["message"]
        play_until_game_end([alice], random.Random(5))
        [row] = history(alice)["games"]
        game_id = row["id"]

        asked = len(alice.messages)  # (the analysis may come in the same read as the ok: looked for from here)
        answered = alice.request(f"/analyze {game_id}")  # at once: the analysis follows, the lines read meanwhile
        assert (answered["type"], answered["text"]) == ("ok", f"analysing game {game_id} from your seat; the "
                                                             "analysis follows when it is ready")
        message = alice.wait_for(lambda m: m["type"] == "analysis", timeout=120, since=asked)
        assert (message["id"], message["game"], message["round"]) == (game_id, "wizard", None)
        [seat] = message["seats"]
        assert seat["player"] == "alice" and seat["level"] == "hard"
        assert [r["round"] for r in seat["rounds"]] == [1, 2, 3]
        assert alice.request(f"/game {game_id}")["type"] == "ok"
        sheet = alice.of_type("game")[-1]["sheet"]
        for entry, result in zip(seat["rounds"], sheet, strict=True):
            mine = next(r for r in result["results"] if r["player"] == "alice")
            assert entry["bid"]["yours"] == mine["bid"] and entry["taken"] == mine["tricks"]
            assert 0 <= entry["bid"]["hard"] <= entry["cards"] and entry["bid"]["expected"]["hard"] >= 0

        asked = len(alice.messages)
        assert alice.request(f"/analyze {game_id} 2")["type"] == "ok"
        alone = alice.wait_for(lambda m: m["type"] == "analysis", timeout=60, since=asked)
        assert alone["round"] == 2 and alone["seats"][0]["rounds"] == [seat["rounds"][1]]
        asked = len(alice.messages)
        assert alice.request(f"/analyze {game_id} 9")["type"] == "ok"
        no_round = alice.wait_for(lambda m: m["type"] == "error", timeout=60, since=asked)  # by the work, after the ok
        assert (no_round.get("code"), no_round["message"]) == ("no-round", "that game has rounds 1 to 3, not 9")
        no_game = alice.request("/analyze 999")
        assert (no_game["type"], no_game.get("code")) == ("error", "no-game"), no_game
        alice.close()

        bob = JsonClient(address, "bob")
        theirs = bob.request(f"/analyze {game_id}")
        assert (theirs["type"], theirs.get("code")) == ("error", "not-your-seat"), theirs
        assert theirs["message"] == f"you did not play in game {game_id}: /analyze judges your own seats only"
        bob.close()

        nc, mark = ascii_nc(address, "alice")
        try:
            nc.type(f"/analyze {game_id} 3")
            told = nc.read_until(b"points or more", timeout=60).rindex(b"points or more")
            drawn = nc.read_until(b".\r\r\n", since=told)[mark:].decode("ascii")
        finally:
            nc.close()
    assert f"-- Analysis of game #{game_id}: alice" in drawn and "hard (expects)" in drawn
    rows = [line for line in drawn.splitlines() if line.split()[:1] == ["3"]]
    assert len(rows) == 1 and f" {seat['rounds'][2]['bid']['yours']} " in rows[0]
    assert all(len(line) <= 80 for line in drawn.splitlines())

    exported = subprocess.run([sys.executable, "-m", "mudwiz.cli", "export", str(game_id), "--data", data,
                               "--analysis"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert exported.returncode == 0, exported.stderr
    document = json.loads(exported.stdout)
    assert document["id"] == game_id and document["analysis"] == [seat]  # the same, in another process
    refused = subprocess.run([sys.executable, "-m", "mudwiz.cli", "export", str(game_id), "--data", data,
                              "--analysis", "bob"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and refused.stderr.strip() == f"mudwiz: bob played no seat of game {game_id}"
