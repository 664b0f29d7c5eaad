"""The server's sockets as the kernel has them: accepted connections keep alive and do not wait for Nagle, and a
listening port already taken stops the start with one line, not a traceback."""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from wire import ROOT, JsonClient

REQUIRED = os.environ.get("CI") == "true"  # CI installs ss (iproute2); a developer's machine may lack it
SYS_PIDFD_GETFD = 438  # the same number on every Linux architecture


def unavailable(why: str) -> None:
    if REQUIRED:
        pytest.fail(why)
    pytest.skip(why)


def server_side(port: int, client_port: int) -> str:
    """ss's line for the server's end of one connection: the process holding it and its timers."""
    ss = shutil.which("ss")
    if ss is None:
        unavailable("ss is not installed (scripts/test installs iproute2)")
    out = subprocess.run([ss, "-tnpoH", "state", "established", f"( sport = :{port} and dport = :{client_port} )"],
                         capture_output=True, text=True, check=True).stdout
    assert out.count("\n") == 1, out
    return out


def the_servers_socket(ss_line: str) -> socket.socket:
    """A duplicate of the socket the server holds (pidfd_getfd): its options are the server's own."""
    found = re.search(r"pid=(\d+),fd=(\d+)", ss_line)
    assert found, ss_line
    pid, fd = map(int, found.groups())
    libc = ctypes.CDLL(None, use_errno=True)
    pidfd = os.pidfd_open(pid)
    try:
        mine = libc.syscall(SYS_PIDFD_GETFD, pidfd, fd, 0)
    finally:
        os.close(pidfd)
    if mine < 0:  # a kernel before 5.6, or a sandbox that forbids it: nothing to install, so a skip even in CI
        pytest.skip(f"pidfd_getfd: {os.strerror(ctypes.get_errno())}")
    return socket.socket(fileno=mine)


def test_accepted_connections_keep_alive_and_send_at_once(server: tuple[str, int]) -> None:
    client = JsonClient(server, "sockopts")
    try:
        client.request("/who")  # read what the server sent: while data is unacknowledged ss shows timer:(on,...)
        for _ in range(50):
            line = server_side(server[1], client.sock.getsockname()[1])
            if "timer:(keepalive," in line:
                break
            time.sleep(0.1)
        assert "timer:(keepalive," in line, line  # the kernel is counting down to the first probe
        sock = the_servers_socket(line)
        try:
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 60
        finally:
            sock.close()  # our duplicate only: the server's connection stays
        assert client.request("/who")["type"] == "ok"
    finally:
        client.close()


def test_a_taken_port_stops_the_start_with_one_line(server: tuple[str, int], tmp_path: Path) -> None:
    listen = f"tcp:{server[1]}:interface=127.0.0.1"
    run = subprocess.run([sys.executable, "-m", "mudwiz.cli", "serve", "--listen", listen, "--data", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert run.returncode == 1
    assert "Traceback" not in run.stdout + run.stderr
    assert run.stderr == f"mudwiz: cannot listen on {listen}: Address already in use\n"
