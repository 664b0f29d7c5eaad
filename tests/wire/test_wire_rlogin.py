"""The rlogin port (RFC 1282) over loopback, as a BBS's rlogin gateway uses it: a scripted client sends the
handshake and raw keys; callers are trusted by address or by secret, anyone else is refused in one line; a
caller is ``handle@tag`` to everyone; and what each terminal type is drawn, read back by pyte at 80x24.
"""

from __future__ import annotations

import os
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pyte
import pytest
from wire import JsonClient, RloginClient, Terminal, free_port, need, running_server

# dove by its address; fsx and the door by their secrets; a tag as long as a tag may be, for the longest names
TRUST = "dove=127.0.0.3 fsx:s3cret door:d00rkey Fifteen_letters:longest"
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@pytest.fixture(scope="module")
def bbs_server() -> Iterator[tuple[tuple[str, int], tuple[str, int]]]:
    """A server with an rlogin port: ((host, telnet port), (host, rlogin port))."""
    rlogin = free_port()
    with running_server(MUDWIZ_RLOGIN=f"tcp:{rlogin}:interface=127.0.0.1", MUDWIZ_RLOGIN_BBS=TRUST) as server:
        yield (server[0], server[1]), (server[0], rlogin)


def test_a_caller_trusted_by_address_is_logged_in_as_handle_at_bbs_with_no_prompt(bbs_server) -> None:
    telnet, rlogin = bbs_server
    caller = RloginClient(rlogin, "Joe Smith", "", source="127.0.0.3")
    try:
        assert caller.output == b"\0"  # the handshake is taken: RFC 1282's zero byte
        assert caller.urgent == b"\x80"  # and the window size asked for, out of band
        seen = caller.read_until(b"Welcome, Joe_Smith@dove!")
        assert b"What is your name?" not in seen and b"Password" not in seen
        assert b"resume code" not in seen  # the BBS vouches for them: no code to come back with
        caller.type(b"/who\r")
        caller.read_until(b"Joe_Smith@dove     lobby")
    finally:
        caller.close()


def test_a_caller_trusted_by_secret_comes_from_anywhere_and_a_wrong_secret_is_refused_in_one_line(
        bbs_server) -> None:
    _, rlogin = bbs_server
    caller = RloginClient(rlogin, "Kim", "s3cret")  # from 127.0.0.1: no address trust there
    try:
        caller.read_until(b"Welcome, Kim@fsx!")
    finally:
        caller.close()
    for secret in ("wrong", ""):
        stranger = RloginClient(rlogin, "Kim", secret)
        output = stranger.read_to_close()
        assert stranger.closed
        assert output.startswith(b"\x01mudwiz: ") and output.endswith(b"\r\n") and output.count(b"\r\n") == 1
        assert b"takes callers of the BBSes its sysop trusts only" in output


def test_bytes_that_are_no_rlogin_handshake_are_refused_in_one_line(bbs_server) -> None:
    _, rlogin = bbs_server
    with socket.create_connection(rlogin, timeout=10) as sock:
        sock.sendall(b"hello\r\n")
        output = b""
        while chunk := sock.recv(4096):
            output += chunk
    assert output == b"\x01mudwiz: this is an rlogin port (RFC 1282); connect by telnet instead\r\n"


def test_a_connection_that_sends_no_handshake_is_refused_when_the_login_timer_runs_out() -> None:
    rlogin = free_port()
    with running_server(MUDWIZ_RLOGIN=f"tcp:{rlogin}:interface=127.0.0.1", MUDWIZ_RLOGIN_BBS=TRUST,
                        MUDWIZ_LOGIN_TIMEOUT="1"), socket.create_connection(("127.0.0.1", rlogin), timeout=10) as sock:
        sock.sendall(b"\0half a handshake")
        output = b""
        while chunk := sock.recv(4096):
            output += chunk
    assert output == b"\x01mudwiz: no rlogin handshake in time: goodbye\r\n"


def test_callers_chat_with_a_telnet_user_who_sees_handle_at_bbs(bbs_server) -> None:
    telnet, rlogin = bbs_server
    ann = JsonClient(telnet, "Ann_rl")
    caller = RloginClient(rlogin, "Max", "", source="127.0.0.3")
    try:
        caller.read_until(b"Welcome, Max@dove!")
        caller.type(b"hellp\x7fo\x1b[A Ann\r")  # a typo rubbed out, a cursor key dropped
        echo = caller.read_until(b"hello Ann")
        assert b"hellp\b \bo Ann\r\n" in echo  # the server echoes and edits: the client shows nothing itself
        said = ann.wait_for(lambda m: m["type"] == "chat" and m["from"] == "Max@dove")
        assert said["text"] == "hello Ann"
        ann.request("/tell Max@dove hi Max")
        caller.read_until(b"hi Max")
    finally:
        caller.close()
        ann.close()


def test_a_half_typed_line_is_put_back_after_output_that_interrupts_it(bbs_server) -> None:
    telnet, rlogin = bbs_server
    ann = JsonClient(telnet, "Ann_half")
    caller = RloginClient(rlogin, "Half", "s3cret")
    try:
        caller.read_until(b"Welcome, Half@fsx!")
        caller.type(b"/tel")
        caller.read_until(b"/tel")
        start = len(caller.output)
        ann.request("say meanwhile")
        seen = caller.read_until(b"/tel", since=start)[start:]
        assert seen.startswith(b"\r\x1b[K")  # the half line taken off the screen,
        assert seen.index(b"meanwhile") < seen.rindex(b"/tel")  # the chat shown, the half line put back
        caller.type(b"l Ann_half hi\r")  # and what was typed before still counts
        told = ann.wait_for(lambda m: m["type"] == "chat" and m["channel"] == "tell")
        assert told["from"] == "Half@fsx" and told["text"] == "hi"
    finally:
        caller.close()
        ann.close()


def test_the_same_handle_from_two_bbses_is_two_people_and_a_second_call_of_one_takes_over(bbs_server) -> None:
    """A second call of the same caller (their first hangs on, its carrier gone) is vouched for by the BBS as the
    first was: it takes the name over, and the first is told and closed. It was refused, and the door's caller
    could not come back until the server noticed the first call dead."""
    telnet, rlogin = bbs_server
    dove = RloginClient(rlogin, "Pat", "", source="127.0.0.3")
    fsx = RloginClient(rlogin, "Pat", "s3cret")
    watcher = JsonClient(telnet, "Watch_rl")
    try:
        dove.read_until(b"Welcome, Pat@dove!")
        fsx.read_until(b"Welcome, Pat@fsx!")
        watcher.request("/who Pat")
        who = watcher.wait_for(lambda m: m["type"] == "who", since=watcher.mark)
        assert {"Pat@dove", "Pat@fsx"} <= {row["name"] for row in who["users"]}
        again = RloginClient(rlogin, "Pat", "", source="127.0.0.3")
        again.read_until(b"Welcome, Pat@dove!")
        output = dove.read_to_close()
        assert b"Pat@dove logged in again on another connection" in output and dove.closed
        watcher.request("/who Pat")
        who = watcher.wait_for(lambda m: m["type"] == "who", since=watcher.mark)
        assert {"Pat@dove", "Pat@fsx"} <= {row["name"] for row in who["users"]}  # one Pat@dove: the new call
        again.close()
    finally:
        for client in (dove, fsx, watcher):
            client.close()


def test_nobody_can_type_a_bbs_name_at_the_prompt_and_a_bbs_caller_cannot_register(bbs_server) -> None:
    telnet, rlogin = bbs_server
    with socket.create_connection(telnet, timeout=10) as sock:
        sock.sendall(b"Joe_Smith@dove\n")
        output = b""
        while b"a name is 2 to 16" not in output:
            output += sock.recv(4096)
    caller = RloginClient(rlogin, "Reg", "s3cret")
    try:
        caller.read_until(b"Welcome, Reg@fsx!")
        caller.type(b"/register\r")
        caller.read_until(b"cannot be registered")
        assert b"Password:" not in caller.output
    finally:
        caller.close()


def test_a_program_in_json_mode_over_rlogin_reads_json_lines_only(bbs_server) -> None:
    _, rlogin = bbs_server
    bot = RloginClient(rlogin, "Botty", "s3cret")
    try:
        bot.read_until(b"Welcome, Botty@fsx!")
        bot.type(b"/mode json\r")
        bot.read_until(b'"type":"ok"')
        start = len(bot.output)
        bot.type(b'{"id": 7, "cmd": "/who"}\r')
        seen = bot.read_until(b'"id":7', since=start)[start:]
        assert all(line.startswith(b"{") for line in seen.split(b"\r\n") if line), seen  # no echo of its keys
    finally:
        bot.close()


def test_the_window_size_a_client_sends_sets_the_width_drawn(bbs_server) -> None:
    _, rlogin = bbs_server
    caller = RloginClient(rlogin, "Wide", "s3cret", term="xterm/38400")
    try:
        caller.read_until(b"Welcome, Wide@fsx!")
        caller.read_until(b"Online (")  # the login's own lobby view, drawn 80 wide, read whole before /who's
        start = len(caller.output)
        caller.window(100, 30)
        caller.type(b"/who\r")
        seen = caller.read_until(b"Online (", since=start)[start:]
        rule = ANSI.sub("", seen.decode("utf-8")).split("\r\n")  # xterm: UTF-8 (a BBS's type: CP437)
        line = next(r for r in rule if "Online (" in r)
        assert len(line) == 100, line  # the rule spans the window: 80 before the size came
    finally:
        caller.close()


def test_the_real_rlogin_program_logs_in_answers_the_window_request_and_is_echoed(bbs_server) -> None:
    """rsh-redone's ``rlogin`` (scripts/test installs it): the local user's name is the client-user, ``-l``
    gives the server-user (the secret); on the urgent 0x80 it sends its terminal's size, 120 columns here."""
    _, rlogin = bbs_server
    user = os.environ.get("USER") or __import__("pwd").getpwuid(os.getuid()).pw_name
    program = Terminal([need("rlogin"), "-4", "-p", str(rlogin[1]), "-l", "s3cret", "127.0.0.1"],
                       env={**os.environ, "TERM": "xterm"}, size=(120, 30))
    try:
        welcome = f"Welcome, {user}@fsx!".encode()
        assert welcome in program.read_until(welcome)  # (read_until returns early if the program exits)
        first = program.read_until(b"Online (")
        rule = next(r for r in ANSI.sub("", first.decode("utf-8")).split("\r\n") if "Online (" in r)  # xterm
        assert len(rule) == 120, rule  # the login waited for the window size: the first screen fits it
        start = len(program.output)
        program.type("/who")
        seen = program.read_until(b"Online (", since=start)[start:]
        assert b"Online (" in seen and b"/who\r\n" in seen  # echoed by the server: the program echoes nothing
        line = next(r for r in ANSI.sub("", seen.decode("utf-8")).split("\r\n") if "Online (" in r)
        assert len(line) == 120, line  # drawn for the window the program reported
    finally:
        program.close()


def play_screen(rlogin: tuple[str, int], handle: str, term: str, secret: str = "s3cret") -> bytes:
    """A caller who opens a table, seats two bots and starts a game: every byte they were sent."""
    caller = RloginClient(rlogin, handle, secret, term=term)
    try:
        caller.read_until(b"Welcome, ")
        caller.type(b"/new wizard\r")
        caller.read_until(b" is yours")
        caller.type(b"/bot add random\r/bot add random\r")
        caller.read_until(b"bot2 (random) sits down")
        caller.type(b"/start\r")
        caller.read_until(b"Your hand:")
        time.sleep(0.5)
        caller.read(0.5)
        return caller.output
    finally:
        caller.close()


def rendered(text: str) -> list[str]:
    screen = pyte.Screen(80, 24)
    pyte.Stream(screen).feed(text)
    return screen.display


def check_width(text: str) -> None:
    """No line is wider than 80 columns: nothing relies on the terminal to wrap it."""
    for line in ANSI.sub("", text).replace("\b \b", "").split("\r\n"):
        assert len(line) <= 80, line


@pytest.mark.parametrize(("term", "charset", "handle", "secret"), [
    ("ansi-bbs", "cp437", "Scr_cp437", "s3cret"),
    ("dumb", "ascii", "Scr_ascii", "s3cret"),
    ("ansi-bbs", "cp437", "Sixteen_letters_", "longest"),  # a 32-character name: still within 80 columns
])
def test_a_bbs_terminal_at_80x24_is_drawn_in_its_charset_within_80_columns(bbs_server, term, charset, handle,
                                                                            secret) -> None:
    _, rlogin = bbs_server
    data = play_screen(rlogin, handle, f"{term}/38400", secret)[1:]  # after the handshake's zero byte
    assert f"Welcome, {handle}@".encode() in data
    if charset == "ascii":
        assert max(data) < 0x80 and b"\x1b[" not in data  # plain: no colour, no byte a 7-bit terminal lacks
    else:
        assert b"\xc4" in data and b"\x1b[" in data  # CP437's rule line, and ANSI colour
        assert "\u2500".encode() not in data  # not UTF-8
    text = data.decode(charset)  # every byte decodes: nothing undecodable was sent
    check_width(text)
    screen = rendered(text)
    assert any("Your hand:" in row for row in screen)
    assert all("\ufffd" not in row for row in screen)
    capture = os.environ.get("MUDWIZ_CAPTURE_DIR")  # docs/bbs.md's screens come from here
    if capture and handle.startswith("Scr_"):
        Path(capture, f"rlogin-{charset}.txt").write_text("\n".join(row.rstrip() for row in screen) + "\n")
