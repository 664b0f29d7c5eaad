"""Issue #20 on the wire: what a first-time player or a scripted client trips over at the very start."""

from __future__ import annotations

import json
import socket
import time

from wire import JsonClient


def read_until(sock: socket.socket, marker: bytes, timeout: float = 10.0) -> bytes:
    data = b""
    deadline = time.monotonic() + timeout
    sock.settimeout(0.5)
    while marker not in data and time.monotonic() < deadline:
        try:
            chunk = sock.recv(1 << 16)
        except TimeoutError:
            continue
        if not chunk:
            break
        data += chunk
    return data


def test_every_json_line_starts_on_its_own_line_even_after_the_name_prompt(server: tuple[str, int]) -> None:
    sock = socket.create_connection(server, timeout=10)
    try:
        data = read_until(sock, b"What is your name? ")
        sock.sendall(b"/mode json\r\n")
        data += read_until(sock, b"}\r\n")  # the stream as a line-reading program gets it
        lines = data.split(b"\r\n")
        assert b"What is your name? {" not in data
        assert json.loads(next(line for line in lines if line.startswith(b"{")))["type"] == "ok"
        sock.sendall(b"first_json\r\n")
        data = read_until(sock, b'"welcome"')
        assert all(line.startswith(b"{") for line in data.split(b"\r\n") if line), data
    finally:
        sock.close()


def test_backspace_and_delete_erase_what_they_follow(server: tuple[str, int]) -> None:
    listener = JsonClient(server, "erase_reader")
    sock = socket.create_connection(server, timeout=10)
    try:
        sock.sendall(b"eraser_xx\x08\x08er\r\n")  # Ctrl-H twice: the name is eraser_er
        sock.sendall(b"hellx\x08o wrold\x7f\x7f\x7f\x7forld\r\n")
        said = listener.wait_for(lambda m: m["type"] == "chat" and m["from"] == "eraser_er")
        assert said["text"] == "hello world"
    finally:
        sock.close()
        listener.close()
