"""``mudwiz bulletin``: a data directory with some games printed as CP437 pages of 80 x 24, and as JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from mudwiz.ratings import rate_game
from mudwiz.store import GameRecord, open_store

HASH = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"


def record(names: list[str], ended: float, game: str = "wizard") -> GameRecord:
    standings = [{"player": n, "score": 10 * (len(names) - i), "place": i + 1} for i, n in enumerate(names)]
    return GameRecord(game=game, options={}, table_options={}, seed=1,
                      seats=[{"name": n, "kind": "person"} for n in names], actions=[], standings=standings,
                      outcome="finished", started=ended - 60, ended=ended)


def bulletin(data: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "MUDWIZ_DATABASE_URL"}
    return subprocess.run([sys.executable, "-m", "mudwiz.cli", "bulletin", "--data", str(data), *args],
                          capture_output=True, timeout=60, env=env)


def test_cp437_pages_fit_80_by_24(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    names = [f"Pl\u00e4yer{i}" for i in range(30)]
    for name in names:
        store.create_account(name, HASH)
    now = time.time()
    for i in range(40):
        store.record_game(record([names[i % 30], names[(i + 7) % 30], names[(i + 13) % 30]], now - i),
                          rate_game)
        store.record_game(record([names[i % 30], names[(i + 3) % 30]], now - 40 * 86400 - i, "witches"), rate_game)
    store.new_tournament("wizard", "finished", {"game": "wizard", "id": 1, "winner": names[0], "finished_at": now,
                                                "standings": []}, now)
    store.close()
    done = bulletin(tmp_path, "--format", "cp437")
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode("cp437")
    assert "\u2500" in text and "Pl\u00e4yer" in text  # box drawing and a name, both in CP437
    pages = text.split("\f\r\n")
    assert len(pages) > 1
    for page in pages:
        lines = page.split("\r\n")[:-1]
        assert 0 < len(lines) <= 24
        assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
        assert "\x1b" not in page
    assert "Season" in text and "Hall of fame: wizard" in text and "Last tournaments" in text
    as_json = json.loads(bulletin(tmp_path, "--format", "json", "--game", "wizard").stdout)
    assert as_json["seasons"][0]["game"] == "wizard" and len(as_json["seasons"][0]["players"]) == 10
    assert as_json["fame"]["games"][0]["tournaments"][0]["winner"] == names[0]
    ascii_text = bulletin(tmp_path, "--format", "ascii").stdout.decode("ascii")
    assert "Pl?yer" in ascii_text or "Player" in ascii_text


def test_bad_arguments_are_one_line(tmp_path: Path) -> None:
    done = bulletin(tmp_path, "--format", "pdf")
    assert done.returncode == 1 and done.stderr.decode().count("\n") == 1 and "--format must be one of" in \
        done.stderr.decode()
    done = bulletin(tmp_path, "--game", "chess")
    assert done.returncode == 1 and b"no game 'chess'" in done.stderr
