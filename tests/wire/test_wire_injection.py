"""Line injection over loopback TCP: whatever one user writes reaches the others as ONE line.

A JSON request's ``cmd`` could carry ``\\n`` (``{"cmd": "gg\\n* victim has left."}`` printed a fake server
line on everyone's screen), and a raw line could carry U+2028, vertical tab, NEL or tab, bidi overrides,
zero-width characters and a flood of combining marks. Each field a user writes for others (chat in the lobby
and at a table, ``/say`` in both, ``/tell``) is sent both ways, and three users read it: a colour terminal
(ansi), a plain one (ascii) and a bot (json).
"""

from __future__ import annotations

import itertools
import re
import socket
import time
import unicodedata

import pytest
from wire import JsonClient

from mudwiz.render.style import Style

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
MARKS = "\u0301" * 20
# (how it is sent, the text, what the others must read). A raw line cannot hold \n or \r (they end it).
PAYLOADS = {
    "json": ("<<\n* bob has left.\r\n\u2029\u202e!iH\u2066\u200b e" + MARKS + "\tok>>",
             "<< * bob has left. !iH e\u0301\u0301 ok>>"),  # runs of blanks made one space
    "raw": ("<<\u2028* bob has left.\x0b\x85\t\u202e!iH\u200b\ufeff e" + MARKS + "\u2029ok>>",
            "<< * bob has left. !iH e\u0301\u0301 ok>>"),
}
FIELDS = ["lobby", "lobby /say", "table", "table /say", "tell"]
_names = itertools.count(1)


class Terminal:
    """A person on a raw TCP connection in ansi or ascii mode: every byte the server sends is kept."""

    def __init__(self, address: tuple[str, int], name: str, mode: str) -> None:
        self.sock = socket.create_connection(address, timeout=10)
        self.name = name
        self.data = b""
        self.read_until(b"What is your name? ")
        if mode != "ansi":
            self.send(f"/mode {mode}")
        self.send(name)
        self.read_until(f"Welcome, {name}!".encode())

    def send(self, line: str) -> None:
        self.sock.sendall(line.encode() + b"\r\n")

    def read_until(self, needle: bytes, since: int = 0, timeout: float = 15.0) -> int:
        """Read until ``needle`` is in what came from ``since`` on; returns where it starts."""
        deadline = time.monotonic() + timeout
        while (at := self.data.find(needle, since)) < 0:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: {needle!r} not seen; got {self.data[-400:]!r}")
            self.sock.settimeout(max(0.05, deadline - time.monotonic()))
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError(f"{self.name}: closed")
            self.data += chunk
        return at

    def line_with(self, start: str, end: str) -> str:
        """The whole line on which ``start`` appears, once ``end`` and the line break after it have come: if the
        text were broken over lines, ``end`` would sit on a later one."""
        at = self.read_until(start.encode())
        self.read_until(b"\r\n", self.read_until(end.encode(), at))
        first = self.data.rfind(b"\n", 0, at) + 1
        return self.data[first:self.data.index(b"\r\n", at)].decode()

    def close(self) -> None:
        self.sock.close()


def visible(line: str) -> str:
    return ANSI.sub("", line)


@pytest.mark.parametrize("path", list(PAYLOADS))
@pytest.mark.parametrize("field", FIELDS)
def test_what_a_user_writes_reaches_the_others_as_one_line(server: tuple[str, int], field: str, path: str) -> None:
    n = next(_names)
    sent, wanted = PAYLOADS[path]
    sender = JsonClient(server, f"inj{n}sender")
    readers = [Terminal(server, f"inj{n}ansi", "ansi"), Terminal(server, f"inj{n}ascii", "ascii")]
    bot = JsonClient(server, f"inj{n}json")
    try:
        channel = "lobby"
        if field.startswith("table"):
            text = sender.request("/new wizard")["text"]
            table = re.match(r"table (\d+) is yours", text).group(1)  # type: ignore[union-attr]
            channel = f"table {table}"
            for r in readers:
                r.send(f"/join {table}")
                r.read_until(f"you sit at table {table}".encode())
            assert bot.request(f"/join {table}")["type"] == "ok"

        def say(line: str) -> None:
            if path == "json":
                reply = sender.request(line)
                assert reply["type"] == "ok", reply
            else:
                sender.send(line)

        mark = len(bot.messages)
        if field == "tell":
            for to in [r.name for r in readers] + [bot.name]:
                say(f"/tell {to} {sent}")
        else:
            say(f"/say {sent}" if field.endswith("/say") else sent)

        message = bot.wait_for(lambda m: m["type"] == "chat" and m["from"] == sender.name, since=mark)
        assert message["text"] == wanted
        assert not [c for c in message["text"] if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
        assert len(message["text"].splitlines()) == 1

        for reader, style in zip(readers, (Style.for_mode("ansi"), Style.for_mode("ascii")), strict=True):
            line = reader.line_with("<<", "ok>>")
            to = f" tells {reader.name}: " if field == "tell" else ": "
            head = f"{sender.name}{to}" if field == "tell" else f"[{channel}] {sender.name}{to}"
            assert visible(line) == head + style.text(wanted), (reader.name, line)
            assert len(line.splitlines()) == 1
            assert not [c for c in line if unicodedata.category(c) in ("Cf", "Zl", "Zp")]
            assert b"\r\n* bob has left." not in reader.data
    finally:
        sender.close()
        bot.close()
        for r in readers:
            r.close()
