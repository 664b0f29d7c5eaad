"""``examples/bot.py``, run as a bot author would run it, plays a whole game against a live server's bots."""

from __future__ import annotations

import subprocess
import sys

import pytest
from wire import ROOT

from mudwiz.games import available

GAMES = {
    "wizard": ["--bots", "2", "--option", "rounds=2"],
    "witches": ["--bots", "3", "--option", "hands=1"],
    "tiltowait": ["--bots", "3", "--option", "hands=1"],
}


@pytest.mark.parametrize("game", [g for g in GAMES if g in available()])
def test_the_example_bot_plays_to_the_end(server: tuple[str, int], game: str) -> None:
    host, port = server
    name = f"example{game[:4]}"
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "bot.py"), "--host", host, "--port", str(port), "--name", name,
         "--new", game, *GAMES[game], "--option", "confirm=1"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "game over:"
    standings = lines[1:]
    assert len(standings) == int(GAMES[game][1]) + 1
    assert any(name in line for line in standings)
    assert standings[0].strip().startswith("1.")
