"""The raw TCP transport (``MUDWIZ_RAW_LISTEN``) on a real loopback server: a JSON bot plays a whole game on it,
an ``nc``-style person meets a telnet user, bytes are bytes (no telnet commands read or answered), and the
connection limits count both ports together."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from wire import ROOT, JsonClient, free_port, play_until_game_end, running_server

PROMPT = b"What is your name? "
IAC, WILL, DO, ECHO = b"\xff", b"\xfb", b"\xfd", b"\x01"


@pytest.fixture(scope="module")
def ports() -> Iterator[tuple[tuple[str, int], tuple[str, int]]]:
    """(the telnet address, the raw address) of one server."""
    raw = free_port()
    with running_server(MUDWIZ_RAW_LISTEN=f"tcp:{raw}:interface=127.0.0.1", MUDWIZ_MAX_UNNAMED_PER_ADDRESS="2") as srv:
        yield srv, ("127.0.0.1", raw)


def read_until(sock: socket.socket, needle: bytes, timeout: float = 10.0) -> bytes:
    said = b""
    deadline = time.monotonic() + timeout
    while needle not in said:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        assert chunk, f"the server closed the connection; it said: {said[-300:]!r}"
        said += chunk
    return said


def test_a_json_bot_plays_a_whole_game_over_raw_tcp(ports: tuple[tuple[str, int], tuple[str, int]]) -> None:
    _, raw = ports
    bot = JsonClient(raw, "rawbot")
    try:
        assert bot.request("/new wizard")["type"] == "ok"
        for _ in range(2):
            assert bot.request("/bot add random")["type"] == "ok"
        assert bot.request("/option rounds 1")["type"] == "ok"
        assert bot.request("/start")["type"] == "ok"
        play_until_game_end([bot], random.Random(3))
        assert len(bot.of_type("game_end")[-1]["standings"]) == 3
        after_mode = bot.raw[next(i for i, line in enumerate(bot.raw) if line.startswith(b"{")):]
        assert all(line.startswith(b"{") for line in after_mode)  # after /mode json: JSON lines, nothing else
    finally:
        bot.close()


def test_an_nc_user_meets_a_telnet_user_and_bytes_are_bytes(ports: tuple[tuple[str, int], tuple[str, int]]) -> None:
    telnet, raw = ports
    watcher = JsonClient(telnet, "raw_watcher")
    with socket.create_connection(raw, timeout=10) as nc:
        banner = read_until(nc, PROMPT)
        assert b"m u d w i z" in banner and banner.endswith(b"\r\n" + PROMPT)  # the motd's lines end in CRLF
        nc.sendall(b"raw_nc\r\0")  # a line ending telnet clients send too
        read_until(nc, b"Welcome, raw_nc!")
        # On the telnet port IAC WILL ECHO is negotiation (answered with IAC DONT ECHO, never read as text);
        # here it is two bytes of invalid UTF-8 and a control character, read as text like any other line.
        nc.sendall(IAC + WILL + ECHO + b"hello from raw" + IAC + DO + ECHO + b"\n/tell raw_watcher done\n")
        watcher.wait_for(lambda m: m["type"] == "chat" and m["text"] == "done", since=0)
        said_by_nc = [m["text"] for m in watcher.of_type("chat") if m["from"] == "raw_nc"]
        assert said_by_nc == ["\ufffd\ufffdhello from raw\ufffd\ufffd", "done"]
        said = read_until(nc, b"done")
        assert IAC not in said, "nothing is negotiated on the raw port"
        nc.sendall(b"/quit\n")
        while nc.recv(65536):  # /quit closes the connection
            pass
    watcher.wait_for(lambda m: m["type"] == "notice" and "raw_nc has left" in m["text"], since=0)
    watcher.close()


def test_connections_on_both_ports_count_towards_one_limit(ports: tuple[tuple[str, int], tuple[str, int]]) -> None:
    telnet, raw = ports
    source = ("127.0.0.77", 0)  # an address of its own, so the other tests' connections do not count
    first = socket.create_connection(telnet, timeout=10, source_address=source)
    second = socket.create_connection(raw, timeout=10, source_address=source)
    try:
        read_until(first, PROMPT)
        read_until(second, PROMPT)
        with socket.create_connection(raw, timeout=10, source_address=source) as third:
            refused = third.recv(4096)
        assert refused.startswith(b"too many connections from your address not yet logged in (at most 2)")
        first.sendall(b"limit_one\r\n")  # a login frees a place, on either port
        read_until(first, b"Welcome, limit_one!")
        with socket.create_connection(raw, timeout=10, source_address=source) as fourth:
            assert read_until(fourth, PROMPT).endswith(PROMPT)
    finally:
        first.close()
        second.close()


def test_a_taken_raw_port_is_named_in_the_one_line_that_stops_the_start(
    ports: tuple[tuple[str, int], tuple[str, int]], tmp_path: Path,
) -> None:
    _, raw = ports
    taken = f"tcp:{raw[1]}:interface=127.0.0.1"
    # the telnet port is the kernel's pick (tcp:0): a port found free and then taken by another test cannot
    # make the start fail on it before it comes to the raw port
    run = subprocess.run([sys.executable, "-m", "mudwiz.cli", "serve", "--listen", "tcp:0:interface=127.0.0.1",
                          "--data", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=30,
                         env={**os.environ, "MUDWIZ_RAW_LISTEN": taken})
    assert run.returncode == 1
    assert run.stderr == f"mudwiz: cannot listen on {taken}: Address already in use\n"


def test_both_ports_taken_is_the_one_line_and_no_traceback(tmp_path: Path) -> None:
    """With the telnet port taken the raw listener never started, and stopping it raised: a traceback after the
    one line (found by a probe)."""
    holders = [socket.socket() for _ in range(2)]
    try:
        for holder in holders:
            holder.bind(("127.0.0.1", 0))
            holder.listen()
        telnet, raw = (f"tcp:{h.getsockname()[1]}:interface=127.0.0.1" for h in holders)
        run = subprocess.run([sys.executable, "-m", "mudwiz.cli", "serve", "--listen", telnet, "--data",
                              str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=30,
                             env={**os.environ, "MUDWIZ_RAW_LISTEN": raw})
    finally:
        for holder in holders:
            holder.close()
    assert run.returncode == 1
    assert run.stderr == f"mudwiz: cannot listen on {telnet}: Address already in use\n"
    assert "Traceback" not in run.stdout and "critical" not in run.stdout, run.stdout  # the log
