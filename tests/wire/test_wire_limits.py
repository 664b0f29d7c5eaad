"""Connection limits on a real loopback server: a flood from one address fills only its own share and is told
so in one line, connections not yet logged in are limited per address and in all, and the open-file limit is
raised at start. Linux routes all of 127/8 to the loopback, so a client picks its address by binding to it.
"""

from __future__ import annotations

import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from wire import ROOT, JsonClient, free_port, running_server

PROMPT = b"What is your name? "


def connect(address: tuple[str, int], source: str) -> socket.socket:
    return socket.create_connection(address, timeout=10, source_address=(source, 0))


def first_words(sock: socket.socket) -> bytes:
    """What the server says first: up to the name prompt (admitted), or all of it up to the close (refused)."""
    said = b""
    while PROMPT not in said:
        chunk = sock.recv(4096)
        if not chunk:
            sock.close()
            break
        said += chunk
    return said


def log_in(sock: socket.socket, name: str) -> None:
    sock.sendall(name.encode() + b"\r\n")
    said = b""
    while f"Welcome, {name}!".encode() not in said:
        chunk = sock.recv(4096)
        assert chunk, f"{name}: closed before the welcome: {said[-200:]!r}"
        said += chunk


@contextmanager
def soft_fd_limit(limit: int) -> Iterator[None]:
    """Lower this process's soft open-file limit for a while: a server started meanwhile inherits it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(limit, hard), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_flood_from_one_address_is_refused_and_never_locks_out_another() -> None:
    """120 connections from 127.0.0.2, each logging in, against a server started under a soft limit of 100 open
    files (a server that did not raise it would run out, and then refuse everybody): the first 20 are let in,
    the rest told why in one line and closed, and 127.0.0.1 still logs in."""
    with ExitStack() as stack:
        with soft_fd_limit(100):
            address = stack.enter_context(running_server())
        admitted: list[socket.socket] = []
        stack.callback(lambda: [s.close() for s in admitted])
        refusals: list[bytes] = []
        started = time.perf_counter()
        for i in range(120):
            sock = connect(address, "127.0.0.2")
            said = first_words(sock)
            if PROMPT in said:
                log_in(sock, f"flood{i}")
                admitted.append(sock)
            else:
                refusals.append(said)
        print(f"120 connections from one address in {time.perf_counter() - started:.2f} s")
        assert len(admitted) == 20
        assert set(refusals) == {b"too many connections from your address (at most 20); close one and try again\r\n"}
        neighbour = JsonClient(address, "neighbour")
        stack.callback(neighbour.close)
        assert neighbour.request("/who")["type"] == "ok"
        assert neighbour.of_type("who")[-1]["total"] == 21


def test_connections_not_logged_in_are_limited_per_address_and_a_login_frees_a_place(
    server: tuple[str, int],
) -> None:
    waiting = [connect(server, "127.0.0.3") for _ in range(5)]
    try:
        assert all(PROMPT in first_words(s) for s in waiting)
        sixth = connect(server, "127.0.0.3")
        assert first_words(sixth) == (b"too many connections from your address not yet logged in (at most 5); "
                                      b"log in on one of them first\r\n")
        log_in(waiting[0], "early3")
        waiting.append(connect(server, "127.0.0.3"))
        assert PROMPT in first_words(waiting[-1])
        other = connect(server, "127.0.0.4")  # another address has its own five
        waiting.append(other)
        assert PROMPT in first_words(other)
    finally:
        for s in waiting:
            s.close()


def test_connections_not_logged_in_never_take_the_servers_last_slots() -> None:
    """Six connections in all, the last two for logged-in users' needs: four anonymous connections from four
    addresses fill what they may; logging in lets more in, up to six."""
    full = b"the server has too many connections; try again later\r\n"
    with ExitStack() as stack, running_server(MUDWIZ_MAX_CONNECTIONS="6", MUDWIZ_LOGGED_IN_HEADROOM="2") as address:
        socks: list[socket.socket] = []
        stack.callback(lambda: [s.close() for s in socks])

        def arrive(source: str) -> bytes:
            socks.append(connect(address, source))
            return first_words(socks[-1])

        assert PROMPT in arrive("127.0.1.1")
        log_in(socks[0], "settled")
        assert all(PROMPT in arrive(f"127.0.1.{10 + i}") for i in range(4))  # five connections, four anonymous
        assert arrive("127.0.1.20") == full
        log_in(socks[1], "second")
        assert PROMPT in arrive("127.0.1.21")  # six: the last slot, now that two have logged in
        log_in(socks[2], "third")
        assert arrive("127.0.1.22") == full  # three anonymous, below their four, but all six slots taken
        socks[3].close()
        deadline = time.monotonic() + 10
        while (said := arrive("127.0.1.23")) == full and time.monotonic() < deadline:
            time.sleep(0.05)  # until the server has seen the close
        assert PROMPT in said


def test_the_open_file_limit_is_raised_to_the_hard_limit_at_start_and_logged(tmp_path: Path) -> None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    listen = f"tcp:{free_port()}:interface=127.0.0.1"
    with soft_fd_limit(100):
        proc = subprocess.Popen([sys.executable, "-m", "mudwiz.cli", "serve", "--listen", listen, "--data",
                                 str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert proc.stdout is not None
        log = b""
        deadline = time.monotonic() + 20
        while b"starting on" not in log and time.monotonic() < deadline:
            log += proc.stdout.readline()
        limits = Path(f"/proc/{proc.pid}/limits").read_text()
        line = next(row for row in limits.splitlines() if row.startswith("Max open files"))
        assert line.split()[3:5] == [str(hard), str(hard)], line
        assert f"open files: soft limit 100, now {hard}; hard limit {hard}; at most ".encode() in log, log
    finally:
        proc.terminate()
        proc.wait(timeout=10)
