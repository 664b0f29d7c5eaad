"""Telnet's character mode on real clients (mudwiz/net/charmode.py): the stock ``telnet`` in a pty, drawn on an 80x24
pyte screen, keeps a half-typed line whole while bots bid and chat comes in, and recalls the last line with Up;
tintin++ (a MUD client with its own input line) is never offered ECHO or SGA, and ``nc`` never sees an IAC."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pyte
import pytest
from test_wire_telnet import tintin_session
from wire import JsonClient, NetcatSession, Terminal, need, running_server

UP = b"\x1b[A"


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    """A server of this module's own: its table would change the table numbers other modules count on."""
    with running_server() as address:
        yield address


def screen_rows(term: Terminal) -> tuple[list[str], int]:
    """What the terminal shows (80x24) and the row its cursor is on."""
    screen = pyte.Screen(80, 24)
    pyte.ByteStream(screen).feed(term.output)
    return [row.rstrip() for row in screen.display], screen.cursor.y


def chat_from(listener: JsonClient, name: str) -> str:
    return str(listener.wait_for(lambda m: m["type"] == "chat" and m["from"] == name, timeout=15)["text"])


def test_a_half_typed_line_survives_bids_and_chat_and_up_recalls_the_last_line(server: tuple[str, int]) -> None:
    host_json = JsonClient(server, "cm_host")
    telnet = Terminal([need("telnet"), server[0], str(server[1])])
    try:
        telnet.read_until(b"name? ")
        telnet.type("cm_typist")
        telnet.read_until(b"Welcome, cm_typist")
        host_json.request("/new wizard")
        table = host_json.wait_for(lambda m: m["type"] == "state", since=host_json.mark)["table"]
        host_json.request("/bot add random")
        host_json.request("/bot add random")
        at = len(telnet.output)
        telnet.type(f"/watch {table}")  # the game is the host's and the bots': their moves come unasked
        telnet.read_until(b"you watch table", since=at)
        time.sleep(0.3)
        os.write(telnet.master, b"hello every")  # no Enter yet
        telnet.read_until(b"hello every", since=at)
        at = len(telnet.output)
        mark = len(host_json.messages)
        host_json.request("/start")
        host_json.request("/say the cards are out")
        # the host's first move (a bid, or the trump a dealer picks): the bots bid before it or after it
        state = host_json.wait_for(lambda m: m["type"] == "state" and any(
            move.startswith(("/bid", "/trump")) for move in m["legal"]), since=mark)
        host_json.request(state["legal"][0])
        telnet.read_until(b"the cards are out", since=at)
        telnet.read_until(b" bids ", since=at)  # a bot's bid or the host's, on the screen meanwhile
        time.sleep(0.5)
        rows, cursor = screen_rows(telnet)
        assert rows[cursor] == "hello every", rows  # the half-typed line, drawn again below the news
        assert any("the cards are out" in row for row in rows[:cursor]), rows
        assert not any("hello every" in row for row in rows[:cursor]), rows  # and nowhere else: never broken up
        host_json.mark = len(host_json.messages)
        at = len(telnet.output)
        os.write(telnet.master, b"body\r")
        assert chat_from(host_json, "cm_typist") == "hello everybody"  # sent whole
        telnet.read_until(b": hello everybody\r\n", since=at)
        host_json.mark = len(host_json.messages)
        at = len(telnet.output)
        os.write(telnet.master, UP)
        telnet.read_until(b"hello everybody", since=at)
        rows, cursor = screen_rows(telnet)
        assert rows[cursor] == "hello everybody", rows
        os.write(telnet.master, b"!\r")
        assert chat_from(host_json, "cm_typist") == "hello everybody!"
    finally:
        telnet.close()
        host_json.close()


def test_tintin_is_never_offered_echo_or_sga_and_nc_never_sees_an_iac(
        server: tuple[str, int], tmp_path: Path) -> None:
    tt = tintin_session(server, tmp_path)
    nc = NetcatSession(server)
    try:
        tt.read_until(b"name? ")
        tt.type("cm_tintin")
        tt.read_until(b"Welcome, cm_tintin")
        nc.read_until(b"name? ")
        nc.send(b"cm_nc\n")
        nc.read_until(b"Welcome, cm_nc")
        tt.type("/say from tintin")
        nc.read_until(b"from tintin")
        tt.read_until(b"from tintin")
        assert b"SENT IAC SB TTYPE" in tt.output and b"MTTS" in tt.output  # it told us it is a MUD client
        assert b"RCVD IAC WILL ECHO" not in tt.output and b"RCVD IAC WILL SGA" not in tt.output
        assert b"\xff" not in nc.output
    finally:
        tt.close()
        nc.close()


def test_the_stock_telnet_registers_and_logs_in_with_a_password_never_shown(server: tuple[str, int]) -> None:
    for step in ("register", "login"):
        telnet = Terminal([need("telnet"), server[0], str(server[1])])
        try:
            telnet.read_until(b"name? ")
            telnet.type("cm_secret")
            if step == "register":
                telnet.read_until(b"Welcome, cm_secret")
                time.sleep(0.3)
                os.write(telnet.master, b"/register\r")
                telnet.read_until(b"Password: ")
                os.write(telnet.master, b"hidden-pw-9\r")
                telnet.read_until(b"Again: ")
                os.write(telnet.master, b"hidden-pw-9\r")
                telnet.read_until(b"cm_secret is registered")
                os.write(telnet.master, b"/quit\r")
                telnet.read_until(b"Goodbye")
            else:
                telnet.read_until(b"Password: ")
                os.write(telnet.master, b"hidden-pw-9\r")
                telnet.read_until(b"Welcome, cm_secret")
            assert b"hidden" not in telnet.output
        finally:
            telnet.close()
