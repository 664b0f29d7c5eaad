"""The pager (mudwiz/pager.py) on real clients: the stock ``telnet`` in an 80x24 pty drawn on a pyte screen, the real
``ssh`` with a PTY, and an rlogin caller as the BBS door is: ``/rules wizard`` (longer than 24 rows) stops at
``--More--`` on the last row, Space pages, a tell that comes meanwhile is shown at once, ``q`` ends it."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pyte
import pytest
from wire import JsonClient, RloginClient, Server, Terminal, free_port, need, running_server, wait_until_listening

MORE = b"--More-- (Space: page, Enter: line, q: stop)"


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[Server, int, int]]:
    ssh, rlogin = free_port(), free_port()
    with running_server(MUDWIZ_SSH=f"tcp:{ssh}:interface=127.0.0.1",
                        MUDWIZ_RLOGIN=f"tcp:{rlogin}:interface=127.0.0.1", MUDWIZ_RLOGIN_BBS="pg:pagersecret") as s:
        wait_until_listening(ssh, s.proc, s.log)
        wait_until_listening(rlogin, s.proc, s.log)
        yield s, ssh, rlogin


def screen(output: bytes) -> list[str]:
    shown = pyte.Screen(80, 24)
    pyte.ByteStream(shown).feed(output)
    return [row.rstrip() for row in shown.display]


def paged(term: Terminal | RloginClient, keys: Any, told: JsonClient, name: str) -> None:
    """``/rules wizard`` paged on an 80x24 screen: the prompt on row 24, Space the next page, a tell shown while
    the prompt waits, q the end."""
    at = len(term.output)
    keys(b"/rules wizard\r")
    term.read_until(MORE, since=at)
    rows = screen(term.output)
    assert rows[23] == MORE.decode(), rows
    assert "Wizard rules" in "\n".join(rows), rows  # the top of the reply is still on the screen
    at = len(term.output)
    keys(b"\r")  # Enter: one line more, the prompt again on the last row
    term.read_until(MORE, since=at)
    time.sleep(0.2)
    rows = screen(term.output)
    assert rows[23] == MORE.decode() and rows[0] != "Wizard rules, 3 to 6 players", rows
    at = len(term.output)
    told.request(f"/tell {name} your move")
    term.read_until(b"your move", since=at)
    term.read_until(MORE, since=at + 1)
    time.sleep(0.2)
    rows = screen(term.output)
    assert rows[23] == MORE.decode() and any("your move" in row for row in rows[:23]), rows
    at = len(term.output)
    keys(b"q")
    term.read_until(b"(rest skipped)", since=at)
    at = len(term.output)
    keys(b"/rules wizard\r")
    term.read_until(MORE, since=at)
    at = len(term.output)
    keys(b" ")  # Space: the rest, the last page, with no prompt after it
    term.read_until(b"lists the moves.", since=at)
    time.sleep(0.2)
    assert MORE not in term.output[at:]
    at = len(term.output)
    keys(b"/pager\r")
    term.read_until(b"pager on, 24 rows", since=at)


def test_telnet_pages_a_long_reply(server: tuple[Server, int, int]) -> None:
    address = server[0]
    told = JsonClient(address, "pg_teller")
    telnet = Terminal([need("telnet"), address[0], str(address[1])], env={**os.environ, "TERM": "xterm"})
    try:
        telnet.read_until(b"name? ")
        telnet.type("pg_tel")
        telnet.read_until(b"Welcome, pg_tel")
        time.sleep(0.5)  # character mode agreed
        paged(telnet, lambda keys: os.write(telnet.master, keys), told, "pg_tel")
    finally:
        telnet.close()
        told.close()


def test_ssh_pages_a_long_reply(server: tuple[Server, int, int]) -> None:
    address, port, _ = server
    told = JsonClient(address, "pg_teller2")
    term = Terminal([need("sshpass"), "-p", "x", need("ssh"), "-F", "/dev/null", "-o", "StrictHostKeyChecking=no",
                     "-o", "UserKnownHostsFile=/dev/null", "-p", str(port), "-tt", "pg_ssh@127.0.0.1"],
                    env={**os.environ, "TERM": "xterm"})
    try:
        term.read_until(b"Welcome, pg_ssh", timeout=20)
        paged(term, lambda keys: os.write(term.master, keys), told, "pg_ssh")
    finally:
        term.close()
        told.close()


def test_rlogin_as_the_door_pages_a_long_reply(server: tuple[Server, int, int]) -> None:
    address, _, rlogin = server
    told = JsonClient(address, "pg_teller3")
    caller = RloginClient(("127.0.0.1", rlogin), "pgdoor", "pagersecret", "ansi-bbs/38400")
    try:
        caller.window(80, 24)
        caller.read_until(b"Welcome, pgdoor")
        paged(caller, caller.type, told, "pgdoor@pg")
    finally:
        caller.close()
        told.close()
