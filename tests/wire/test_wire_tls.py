"""The telnet service over TLS (``MUDWIZ_TLS``, mudwiz/net/tls.py): ``openssl s_client`` and a Python ``ssl``
client play a game of Wizard together on the TLS port, with the self-signed certificate the server made in its data
directory on its first start; MSSP on the telnet port names the TLS port."""

from __future__ import annotations

import json
import os
import random
import select
import socket
import ssl
import stat
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from test_wire_telnet import mssp_variables
from wire import MSSP, JsonClient, Server, TelnetClient, free_port, need, play_until_game_end, running_server
from wire import wait_until_listening as listening

from mudwiz.net.tls import CERTIFICATE


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, int, Path]]:
    """A server with a TLS port and no certificate given: it makes one in its data directory."""
    data, port = tmp_path_factory.mktemp("tls-data"), free_port()
    with running_server(MUDWIZ_DATA=str(data), MUDWIZ_TLS=f"ssl:{port}:interface=127.0.0.1") as address:
        listening(port, address.proc, address.log)
        yield address, port, data


def unverified() -> ssl.SSLContext:
    """A client that takes the self-signed certificate (it has nothing to check it against)."""
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    return context


def tls_json(port: int, name: str) -> JsonClient:
    """``JsonClient`` on a Python ``ssl`` socket: its connection wrapped in TLS, all else as on the telnet port."""
    plain = socket.create_connection

    def wrapped(*args: Any, **kwargs: Any) -> ssl.SSLSocket:
        return unverified().wrap_socket(plain(*args, **kwargs))

    with mock.patch("socket.create_connection", wrapped):
        return JsonClient(("127.0.0.1", port), name)


class SClient(JsonClient):
    """``openssl s_client`` speaking the JSON protocol through its stdin and stdout."""

    def __init__(self, port: int, name: str) -> None:  # noqa: D107  # JsonClient's login, over openssl's pipes
        self.proc = subprocess.Popen(
            [need("openssl"), "s_client", "-quiet", "-connect", f"127.0.0.1:{port}"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        os.set_blocking(self.proc.stdout.fileno(), False)  # type: ignore[union-attr]
        self.name, self.buffer, self.messages, self.raw = name, b"", [], []
        self._next_id = self.mark = 0
        self.send("/mode json")
        self.send(name)
        self.wait_for(lambda m: m["type"] == "welcome", since=0)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def read(self, timeout: float) -> list[dict[str, Any]]:
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        chunk = self.proc.stdout.read() if ready else b""  # type: ignore[union-attr]
        if not chunk:
            return []
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        new = [json.loads(line) for line in (x.rstrip(b"\r") for x in lines) if line.startswith(b"{")]
        self.messages.extend(new)
        return new

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def test_s_client_and_a_python_tls_client_play_a_game(server: tuple[Server, int, Path]) -> None:
    _, port, data = server
    host = tls_json(port, "tls_host")
    guest = SClient(port, "tls_openssl")
    try:
        assert isinstance(host.sock, ssl.SSLSocket) and host.sock.version() in ("TLSv1.2", "TLSv1.3")
        reply = host.request("/new wizard")
        table = int(reply["text"].split()[1])
        for command in ("/option rounds 1", "/bot add random"):
            assert host.request(command)["type"] == "ok"
        assert guest.request(f"/join {table}")["type"] == "ok"
        assert host.request("/start")["type"] == "ok"
        play_until_game_end([host, guest], random.Random(7))
        standings = host.of_type("game_end")[-1]["standings"]
        assert {s["player"] for s in standings} >= {"tls_host", "tls_openssl"}
        certificate = ssl.DER_cert_to_PEM_cert(host.sock.getpeercert(binary_form=True))  # type: ignore[attr-defined]
        kept = (data / CERTIFICATE).read_text()
        assert certificate.strip() in kept and "PRIVATE KEY" in kept  # the one the server made, and keeps
        assert stat.S_IMODE((data / CERTIFICATE).stat().st_mode) == 0o600
    finally:
        host.close()
        guest.close()


def test_mssp_names_the_tls_port(server: tuple[Server, int, Path]) -> None:
    address, port, _ = server
    crawler = TelnetClient(address, do=(MSSP,), will=())
    try:
        crawler.send("tls_crawler")
        crawler.read_until(b"Welcome, tls_crawler")
        variables = mssp_variables(crawler)
        assert variables["SSL"] == [str(port)] and variables["PORT"] == [str(address[1])]
    finally:
        crawler.close()


def eventually_text(read: Callable[[], bytes], needle: bytes, timeout: float = 10) -> bytes:
    deadline = time.monotonic() + timeout
    seen = b""
    while needle not in seen and time.monotonic() < deadline:
        seen += read()
    return seen


def test_a_telnet_program_over_tls_is_negotiated_with_as_on_the_telnet_port(
        server: tuple[Server, int, Path]) -> None:
    """A line in CR LF (``s_client -crlf``, as a TLS-capable MUD client sends) is telnet's, over TLS too."""
    _, port, _ = server
    with unverified().wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=10)) as sock:
        sock.sendall(b"tls_telnet\r\n")
        seen = eventually_text(lambda: sock.recv(65536), b"Welcome, tls_telnet")
        assert b"\xff\xfb\x56" in seen  # IAC WILL COMPRESS2, among the offers
