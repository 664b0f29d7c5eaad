"""The ways to run the server: ``twistd -ny server.tac`` with its environment settings, and makeService."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from wire import ROOT, free_port

from mudwiz.service import makeService, read_motd


def test_twistd_runs_server_tac_with_listen_and_motd_from_the_environment(tmp_path: Path) -> None:
    port = free_port()
    motd = tmp_path / "motd.txt"
    motd.write_text("Greetings from a test motd\n")
    twistd = Path(sys.executable).with_name("twistd")
    env = {**os.environ, "MUDWIZ_LISTEN": f"tcp:{port}:interface=127.0.0.1", "MUDWIZ_MOTD": str(motd),
           "MUDWIZ_DATA": str(tmp_path / "data")}
    proc = subprocess.Popen([str(twistd), "-ny", "server.tac"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "twistd did not start"
                time.sleep(0.1)
        data = b""
        while b"What is your name? " not in data:
            chunk = sock.recv(4096)
            assert chunk
            data += chunk
        assert b"Greetings from a test motd" in data
        sock.close()
    finally:
        proc.terminate()
        out = proc.communicate(timeout=10)[0]
    assert b"MudFactory starting on" in out  # logs go through twisted.logger


def test_make_service_defaults_and_motd_fallback(tmp_path: Path) -> None:
    top = makeService(listen=f"tcp:{free_port()}:interface=127.0.0.1", data=str(tmp_path / "data"))
    assert top.getServiceNamed("telnet") is not None
    from twisted.internet import reactor

    from mudwiz.net.polling import TURN_SOCKETS, CappedPoll

    poller = reactor._poller  # type: ignore[attr-defined]  # the real reactor a served server runs on
    assert isinstance(poller, CappedPoll) and poller.most == TURN_SOCKETS, "its turns read so many sockets at most"
    loop = reactor.doIteration  # type: ignore[attr-defined]
    assert loop.__qualname__ == "_poll_loop.<locals>.doPoll", "and with the lean poll loop (net/polling.py)"
    assert "m u d w i z" in read_motd("motd.txt")  # the shipped motd, found from anywhere
    assert read_motd(str(tmp_path / "missing.txt")).startswith("Welcome to mudwiz: Wizard, Witches and Tiltowait")


def test_version_is_one_number_for_the_build_and_the_command_line() -> None:
    import importlib.metadata

    import mudwiz

    shown = subprocess.run([sys.executable, "-m", "mudwiz.cli", "--version"], capture_output=True, text=True,
                           timeout=60, check=True).stdout
    assert shown == f"mudwiz {mudwiz.__version__}\n"
    assert importlib.metadata.version("mudwiz") == mudwiz.__version__  # pyproject.toml reads it from there


def test_settings_are_read_from_their_variables_as_their_defaults_type() -> None:
    from dataclasses import dataclass

    from mudwiz.settings import env, from_environ

    @dataclass(frozen=True)
    class Made:
        count: int = env("MUDWIZ_TEST_COUNT", 3)
        seconds: float = env("MUDWIZ_TEST_SECONDS", 1.5)
        fixed: str = "kept"

    assert from_environ(Made, {}) == Made(3, 1.5)
    assert from_environ(Made, {"MUDWIZ_TEST_COUNT": "7", "MUDWIZ_TEST_SECONDS": "2", "fixed": "no"}) == Made(7, 2.0)
    assert isinstance(from_environ(Made, {"MUDWIZ_TEST_SECONDS": "2"}).seconds, float)
    with pytest.raises(ValueError):
        from_environ(Made, {"MUDWIZ_TEST_COUNT": "lots"})
