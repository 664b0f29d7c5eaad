"""Input that once crashed the connection it came on: malformed telnet commands (conch's parser raised on them)
and JSON nested past the recursion limit. Each must cost at worst an error line; the same connection then logs
in and is answered, and the server's log holds no traceback, only a line at most per connection."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from wire import JsonClient, running_server

IAC, SB, SE, WILL, GMCP = b"\xff", b"\xfa", b"\xf0", b"\xfb", b"\xc9"

# Each case is sent in the writes listed; the last write also carries the login, which must not be lost with it.
BAD_TELNET = {
    "empty subnegotiation": [IAC + SB + IAC + SE],
    "IAC at the end of a write, an empty subnegotiation after it": [IAC, SB + IAC + SE],
    "IAC SB at the end of a write": [b"x" + IAC + SB, IAC + SE],
    "an unknown command": [IAC + b"\x01"],
    "SE without SB": [IAC + SE],
    "WILL at the end of a write, nothing after it": [IAC + WILL, b"\x00"],
    "a subnegotiation of one escaped IAC": [IAC + SB + IAC + IAC + IAC + SE],
    "an over-long subnegotiation": [IAC + SB + b"x" * 3000 + IAC + SE],
    "an over-long subnegotiation of escaped IACs": [IAC + SB + IAC * 3000 + IAC + SE],
    "an over-long subnegotiation over three writes, IAC SE split": [IAC + SB + b"x" * 600, b"y" * 100 + IAC, SE],
    "all of them in one write": [IAC + SB + IAC + SE + IAC + b"\x01" + IAC + SE + IAC + SB + IAC + IAC + IAC + SE],
}


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[tuple[str, int], Path]]:
    log = tmp_path_factory.mktemp("server") / "server.log"
    with running_server(log=log) as address:
        yield address, log


def read_until(sock: socket.socket, needle: bytes) -> bytes:
    said = b""
    while needle not in said:
        chunk = sock.recv(65536)
        assert chunk, f"the server closed the connection; it said: {said[-300:]!r}"
        said += chunk
    return said


@pytest.mark.parametrize("case", BAD_TELNET)
def test_malformed_telnet_input_costs_nothing_but_itself(logged: tuple[tuple[str, int], Path], case: str) -> None:
    address, log = logged
    name = f"tn{list(BAD_TELNET).index(case)}"
    with socket.create_connection(address, timeout=10) as sock:
        read_until(sock, b"What is your name? ")
        *first, last = BAD_TELNET[case]
        for part in first:
            sock.sendall(part)
        sock.sendall(last + b"\r\n" + name.encode() + b"\r\n")
        read_until(sock, f"Welcome, {name}!".encode())
        sock.sendall(b"/who\r\n")
        read_until(sock, b"Online (")  # the reply to /who
    text = log.read_text(errors="replace")
    assert "Traceback" not in text
    assert text.count("bad telnet input") <= len(BAD_TELNET)  # a line at most per connection


def test_an_over_long_subnegotiation_is_dropped_up_to_its_end_and_none_of_it_becomes_a_line(
        logged: tuple[tuple[str, int], Path]) -> None:
    """A MUD client's GMCP message past the limit (a large ``Char.Login``, say) is no text its user typed: none
    of it is said in the lobby or run as a command, and what follows its IAC SE is read as ever."""
    address, log = logged
    ear = JsonClient(address, "ear_sb")  # in the lobby: hears what is said there
    with socket.create_connection(address, timeout=10) as sock:
        read_until(sock, b"What is your name? ")
        sock.sendall(b"gmcp_sb\r\n")
        read_until(sock, b"Welcome, gmcp_sb!")
        payload = b'Char.Login {"name": "' + b"A" * 520 + b'"}\r\n/say injected from a subnegotiation\r\n'
        sock.sendall(IAC + SB + GMCP + payload[:300])
        sock.sendall(payload[300:] + IAC + IAC + b" still inside" + IAC + SE + b"/say after it\r\n")
        ear.wait_for(lambda m: m["type"] == "chat" and m["text"] == "after it", since=0)
    said = b"\n".join(ear.raw)
    assert b"injected" not in said and b"AAAA" not in said and b"still inside" not in said
    ear.close()
    assert "Traceback" not in log.read_text(errors="replace")


def test_json_nested_past_the_recursion_limit_gets_an_error_line(logged: tuple[tuple[str, int], Path]) -> None:
    """Read as raw lines: the ids echoed back are nested too deeply for a Python client's own json.loads."""
    address, log = logged
    deep = "[" * 1500
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(b"/mode json\r\ndeepjson\r\n")
        read_until(sock, b'"type":"welcome"')
        lines = ['{"cmd": ' + deep, '{"id": ' + deep, '{"id": 1, "cmd": ' + deep + "]" * 1500 + "}"]
        # ids nested around the limit, where parsing may succeed and echoing the id back could still recurse
        lines += [json.dumps({"id": [], "cmd": "/who"}).replace("[]", "[" * n + "]" * n) for n in range(700, 1001, 20)]
        for line in lines:
            sock.sendall(line.encode() + b"\r\n")
        sock.sendall(b'{"id": "last", "cmd": "/who"}\r\n')
        said = read_until(sock, b'{"type":"ok","id":"last"}')
    replies = [line for line in said.split(b"\r\n") if line.startswith((b'{"type":"error"', b'{"type":"ok"'))]
    assert replies[:3] == [b'{"type":"error","message":"bad JSON request: nested too deeply"}'] * 3
    assert len(replies) == len(lines) + 1  # an error line or an answer for every request, and the connection kept
    assert "Traceback" not in log.read_text(errors="replace")
