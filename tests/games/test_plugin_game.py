"""A game added by installing a package, not by editing mudwiz: ``examples/highcard`` and this checkout's mudwiz
are pip-installed into a fresh virtual environment, a server is started from it, and over loopback the game is
offered, played to its end by people and ``random`` bots, and drawn by the generic renderer in ANSI and ASCII.
Its own phase (``swapping``, declared by its plugin) is shown by the renderer and, with the plugin's prompt
words and client hints, by the terminal client's model and panes run in that environment. A broken plugin
installed beside it is logged and left out. Offline: ``--no-build-isolation`` (``wheel`` is a
test dependency) and ``--no-index``; the new environment borrows Twisted from this one through a ``.pth`` line.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import site
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from wire import ROOT, JsonClient, free_port, play_until_game_end, wait_until_listening

_TELNET = re.compile(rb"\xff[\xfb-\xfe].|\xff\xfa.*?\xff\xf0|\xff[\xf0-\xfa]", re.S)
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _install(tmp: Path) -> Path:
    """A venv holding copies of mudwiz and the example, installed as any user would; its python."""
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             check=True, capture_output=True, text=True).stdout.strip()
    Path(purelib, "borrowed.pth").write_text("\n".join(site.getsitepackages()) + "\n")  # twisted, setuptools
    src = tmp / "mudwiz-src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    junk = shutil.ignore_patterns("__pycache__", "*.egg-info", "build")
    shutil.copytree(ROOT / "mudwiz", src / "mudwiz", ignore=junk)
    example = shutil.copytree(ROOT / "examples" / "highcard", tmp / "highcard", ignore=junk)
    # A plugin whose module is missing: installed metadata alone, as a half-removed package leaves behind.
    broken = Path(purelib, "mudwiz_broken-0.1.dist-info")
    broken.mkdir()
    (broken / "METADATA").write_text("Metadata-Version: 2.1\nName: mudwiz-broken\nVersion: 0.1\n")
    (broken / "entry_points.txt").write_text("[mudwiz.games]\nbroken = mudwiz_broken_gone:PLUGIN\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                    "--no-build-isolation", "--no-index", str(src), str(example)], check=True, cwd=tmp)
    return python


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[tuple[str, int], Path, Path]]:
    """A server run by the new venv's python, from a directory outside the checkout: (address, log, venv python)."""
    tmp = tmp_path_factory.mktemp("plugin")
    python = _install(tmp)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env |= {"MUDWIZ_BOT_DELAY": "0.005", "MUDWIZ_ARRIVAL_BURST": "100000", "MUDWIZ_MOTD": str(tmp / "none.txt")}
    log = tmp / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([python, "-m", "mudwiz.cli", "serve", "--listen", f"tcp:{port}:interface=127.0.0.1"],
                                cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_until_listening(port, proc, log.read_text)
        yield ("127.0.0.1", port), log, python
    finally:
        proc.terminate()
        proc.wait(timeout=10)


class TextClient:
    """A person at a plain terminal: telnet's negotiation dropped, what the server prints kept as text."""

    def __init__(self, address: tuple[str, int], name: str, mode: str) -> None:
        self.sock = socket.create_connection(address, timeout=10)
        self.data = b""
        self.sock.sendall(f"{name}\r\n/mode {mode}\r\n".encode())

    def send(self, line: str) -> None:
        self.sock.sendall(line.encode() + b"\r\n")

    def read_until(self, text: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.text():
            assert time.monotonic() < deadline, f"no {text!r} in:\n{self.text()[-2000:]}"
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            self.data += self.sock.recv(1 << 16)
        return self.text()

    def text(self) -> str:
        return _TELNET.sub(b"", self.data).decode("utf-8", errors="replace")


def test_the_installed_mudwiz_does_not_know_the_game(installed: tuple[tuple[str, int], Path, Path]) -> None:
    """The game comes from its own distribution: no file of the installed mudwiz names it."""
    _, _, python = installed
    out = subprocess.run([python, "-c", "import mudwiz, mudwiz_highcard; print(mudwiz.__file__)"],
                         check=True, capture_output=True, text=True, cwd=python.parent).stdout
    package = Path(out.strip()).parent
    assert str(package).startswith(str(python.parent.parent))  # the venv's copy, not this checkout
    assert [p for p in package.rglob("*.py") if "highcard" in p.read_text()] == []
    assert [p for p in package.rglob("*.py") if re.search(r"\bswap(ping)?\b", p.read_text())] == []  # its phase


# What the terminal client makes of a player's messages (its model and panes, in the venv that has the game).
_CLIENT = """
import json, sys
from mudwiz.client import panes
from mudwiz.client.model import Model
from mudwiz.render.style import strip_ansi
model = Model(address="test")
for message in json.load(sys.stdin):
    model.apply(message)
print(json.dumps({"asked": panes.asked(model), "selected": model.selected(),
                  "pane": [strip_ansi(line) for line in panes.table_lines(model, 79)]}))
"""


def client_view(python: Path, messages: list[dict[str, Any]]) -> dict[str, Any]:
    out = subprocess.run([python, "-c", _CLIENT], input=json.dumps(messages), check=True, capture_output=True,
                         text=True, cwd=python.parent).stdout
    return dict(json.loads(out))


def test_a_plugin_game_is_offered_played_and_drawn(installed: tuple[tuple[str, int], Path, Path]) -> None:
    address, log, python = installed
    ann, bob = JsonClient(address, "ann"), JsonClient(address, "bob")
    assert ann.of_type("welcome")[0]["games"] == ["wizard", "witches", "tiltowait", "highcard"]
    helped = ann.request("/help") and ann.wait_for(lambda m: m["type"] == "help", since=ann.mark)
    assert "Games: wizard, witches, tiltowait, highcard;" in helped["text"]
    new = next(c["help"] for c in helped["commands"] if c["command"] == "/new")
    assert new == "open a table of GAME (wizard, witches, tiltowait, highcard) and sit as its host"
    assert ann.request("/help highcard")["type"] == "ok"
    rules = ann.wait_for(lambda m: m["type"] == "help", since=ann.mark)["text"]
    assert rules.startswith("High Card: 2 to 4 players. Moves:\n  /play CARD")
    assert ann.request("/new broken")["type"] == "error"
    assert "game plugin broken (mudwiz_broken_gone:PLUGIN) could not be loaded: left out" in log.read_text()

    plain, colour = TextClient(address, "plain", "ascii"), TextClient(address, "colour", "ansi")
    plain.read_until("mode ascii")
    assert "No tables yet: /new wizard (or witches, tiltowait, highcard) opens one." in plain.read_until("opens one")
    assert ann.request("/new highcard")["type"] == "ok"
    table = ann.wait_for(lambda m: m["type"] == "state", since=ann.mark)["table"]
    assert bob.request(f"/join {table}")["type"] == "ok"
    assert ann.request("/bot add random")["type"] == "ok"
    assert ann.request("/bot add")["type"] == "ok"  # the default level: good, which High Card plays randomly
    assert ann.request("/option rounds 2")["type"] == "ok"
    for watcher in (plain, colour):
        watcher.send(f"/watch {table}")
        watcher.read_until(f"you watch table {table}")
    assert ann.request("/start")["type"] == "ok"
    first = ann.wait_for(lambda m: m["type"] == "state" and m["phase"] != "waiting", since=ann.mark)
    assert first["phase"] == "swapping" and first["waiting"] == ["ann"]  # the leader of round 1 swaps first
    assert first["legal"][-1] == "/stand" and all(c.startswith("/swap ") for c in first["legal"][:-1])
    seen = client_view(python, [{"type": "welcome", "name": "ann"}, *ann.messages[:ann.messages.index(first) + 1]])
    assert seen["asked"] == "YOUR TURN: swap a card or stand"  # the plugin's prompt words
    assert seen["selected"] == "/stand"  # its client module's first choice
    assert any("Swapping: ann swaps a card or stands" in line for line in seen["pane"])  # its info segment
    play_until_game_end([ann, bob], random.Random(16))

    end = ann.of_type("game_end")[-1]
    assert sorted(s["player"] for s in end["standings"]) == sorted(p["name"] for p in ann.last_state()["players"])
    assert sum(s["score"] for s in end["standings"]) == 2 * 3  # a point a trick, three tricks a round
    assert len(ann.of_type("round_end")) == 2
    dealt = [m for m in ann.of_type("dealt")]
    assert dealt and all(m["player"] == "ann" for m in dealt)  # visible_to: nobody else's cards

    for watcher in (plain, colour):
        screen = watcher.read_until("Final standings")
        assert "High Card - playing" in screen  # the generic table view, titled from the engine
        assert "High Card - swapping" in screen  # the game's own phase
        assert re.search(r"\w+ wins the trick with [BGRY]\d+", _ANSI.sub("", screen))
        assert "Round 2 result" in screen and "Dealt" not in screen  # an observer sees no deal
        lines = _ANSI.sub("", screen.partition(f"you watch table {table}")[2]).splitlines()  # the prompt aside
        assert [line for line in lines if len(line) > 80] == []
    ascii_part = plain.text().partition("mode ascii")[2]
    assert ascii_part.isascii() and "\x1b[" not in ascii_part
    assert "\x1b[" in colour.text()
    assert "Welcome to mudwiz: Wizard, Witches, Tiltowait and High Card at a text table." in plain.text()
    for c in (ann, bob):
        c.close()
    plain.sock.close()
    colour.sock.close()
