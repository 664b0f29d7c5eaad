"""``examples/bot.py``, run as a bot author would run it, plays a whole game against a live server's bots."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from wire import ROOT, JsonClient, free_port, register

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


def run_bot(server: tuple[str, int], *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    host, port = server
    return subprocess.run([sys.executable, str(ROOT / "examples" / "bot.py"), "--host", host, "--port", str(port),
                           *args], capture_output=True, text=True, timeout=60, env=env)


def test_the_example_bot_says_in_one_line_why_it_cannot_log_in(server: tuple[str, int]) -> None:
    owner = JsonClient(server, "Robo")
    register(owner, "robo-secret-1")
    owner.close()
    asked = run_bot(server, "--name", "robo", "--join", "1")
    assert asked.returncode == 1 and asked.stderr == (
        "Robo is a registered name: give its password (--password, or MUDWIZ_PASSWORD)\n")
    wrong = run_bot(server, "--name", "robo", "--password", "not-it-at-all", "--join", "1")
    assert wrong.returncode == 1 and wrong.stderr == "refused: wrong password for Robo\n"
    guest = JsonClient(server, "Held")  # online: the name asks for its guest's resume code
    held = run_bot(server, "--name", "held", "--join", "1")
    assert held.returncode == 1 and held.stderr.startswith("Held is held for a guest who dropped: give --resume")
    assert guest.of_type("welcome")[0]["resume"]
    port = free_port()
    refused = run_bot(("127.0.0.1", port), "--name", "robo", "--join", "1")
    assert refused.returncode == 1 and refused.stderr == f"cannot connect to 127.0.0.1:{port}: Connection refused\n"


def test_the_example_bot_logs_in_with_a_password_or_a_resume_code_and_plays(server: tuple[str, int]) -> None:
    owner = JsonClient(server, "Robo2")
    register(owner, "robo-secret-2")
    owner.close()
    played = run_bot(server, "--name", "robo2", "--new", "wizard", "--bots", "2", "--option", "rounds=1",
                     "--option", "confirm=1", env={**os.environ, "MUDWIZ_PASSWORD": "robo-secret-2"})
    assert played.returncode == 0 and played.stdout.startswith("game over:"), played.stderr
    guest = JsonClient(server, "Held2")
    code = guest.of_type("welcome")[0]["resume"]
    back = run_bot(server, "--name", "held2", "--resume", code, "--new", "wizard", "--bots", "2", "--option",
                   "rounds=1", "--option", "confirm=1")
    assert back.returncode == 0 and back.stdout.startswith("game over:"), back.stderr
    assert back.stderr.startswith("logged in as Held2; after a drop, log in again with --resume ")  # a new code
