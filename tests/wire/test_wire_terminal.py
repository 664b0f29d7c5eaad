"""What a person sees: the real ``telnet`` program in a pseudo-terminal, ``nc``, and a pyte-rendered screen.

And what a hostile or clumsy client cannot do: crash the server, disturb other users, or send them control
sequences.
"""

from __future__ import annotations

import re
import socket
import time

import pyte
import pytest
from wire import JsonClient, NetcatSession, Terminal, need, running_server

ANSI = re.compile(rb"\x1b\[[0-9;]*[A-Za-z]")


def screen_of(data: bytes) -> list[str]:
    screen = pyte.Screen(80, 24)
    pyte.ByteStream(screen).feed(data)
    return screen.display


def test_telnet_and_nc_users_meet_chat_and_see_a_table(server: tuple[str, int]) -> None:
    host, port = server
    alice = Terminal([need("telnet"), host, str(port)])
    bob = NetcatSession(server)
    try:
        motd = alice.read_until(b"What is your name? ")
        assert b"m u d w i z" in motd
        alice.type("alice_t")
        alice.read_until(b"Welcome, alice_t!")

        banner = bob.read_until(b"What is your name? ")
        assert b"\xff" not in banner, "no telnet negotiation bytes for a raw nc user"
        bob.send(b"bob_nc\n")
        bob.read_until(b"Welcome, bob_nc!")

        alice.type("hello bob, \x1b[31mred?")
        seen = bob.read_until(b"hello bob")
        chat = seen[seen.index(b"alice_t"):].split(b"\r\n")[0]
        assert b"\x1b[31m" not in chat and b"\x1b[0m" in seen  # our own colours only; the user's ESC is gone

        bob.send(b"/frobnicate\r\n")
        error = bob.read_until(b"unknown command /frobnicate")
        assert b"/help lists the commands" in error

        alice.type("/new wizard")
        alice.read_until(b" is yours")
        for _ in range(2):
            alice.type("/bot add random")
        alice.read_until(b"bot2 (random) sits down")
        alice.type("/start")
        alice.read_until(b"Your hand:")
        alice.read_until(b"\r\n", timeout=2)
        time.sleep(0.5)
        alice.type("/look")
        alice.read_until(b"Trump:", timeout=5)
        time.sleep(0.3)
        alice.read_until(b"\r\n")
        last = alice.output[alice.output.rindex(b"Wizard - round") - 20:]
        view = last[last.index(b"\r\n") + 2 if last.startswith(b"\r\n") else 0:]
        lines = [ANSI.sub(b"", line) for line in view.split(b"\r\n")]
        assert all(len(line.decode()) <= 80 for line in lines)
        screen = screen_of(view)
        text = "\n".join(screen)
        assert "Trump:" in text and "Your hand:" in text and "alice_t" in text
        # an escape's remains would read "[0m" or "[31m"; a bot's rating shows as "[376]"
        assert "\x1b" not in text and not re.search(r"\[[0-9;]*m", text), "no undecoded escapes on screen"
        assert sum(1 for row in screen if row.strip()) <= 24
    finally:
        alice.close()
        bob.close()


def test_ascii_mode_sends_only_plain_ascii(server: tuple[str, int]) -> None:
    nc = NetcatSession(server)
    try:
        nc.read_until(b"What is your name? ")
        nc.send(b"plain\n/mode ascii\n/new wizard\n/bot add random\n/bot add random\n/start\n/look\n")
        nc.read_until(b"Your hand:")
        nc.read_until(b"Trump:")
        after = nc.output[nc.output.index(b"mode ascii"):]
        assert b"\x1b" not in after
        assert all(b < 128 for b in after), "ascii mode must be 7-bit"
    finally:
        nc.close()


def test_bad_input_keeps_the_server_and_other_users_well(server: tuple[str, int]) -> None:
    watcher = JsonClient(server, "watcher")
    raw = socket.create_connection(server, timeout=10)
    try:
        raw.sendall(b"\xff\xfe\xc3(bad\x80utf8\n")  # an invalid name: refused, still connected
        raw.sendall(b"mal\x1b[2Jlory\n")  # ESC is dropped, and "mal[2Jlory" is no valid name either
        raw.sendall(b"mallory\n")
        raw.sendall(b"/tell watcher hi \x1b[2J\x07there \xc3\x28\n")
        message = watcher.wait_for(lambda m: m["type"] == "chat")
        assert message["from"] == "mallory" and "\x1b" not in message["text"] and "\x07" not in message["text"]
        raw.sendall(b"x" * (1 << 20) + b"\n")  # a 1 MB line is refused whole
        raw.sendall(b"/play R12\n/join 42\n/bid 3\n/watch nope\n/option rounds 99\n\x00\x01\x02\n")
        raw.sendall(b"/tell watcher end-of-test\n")  # the sender reads a copy of what they told
        data = b""
        raw.settimeout(20)
        while b"end-of-test" not in data:
            chunk = raw.recv(1 << 16)
            assert chunk, "the server dropped a client it should have kept"
            data += chunk
        assert b"line too long" in data
        assert b"there is no table 42" in data and b"sit at a table first" in data
        # the server is still up for everyone else
        assert watcher.request("/who mallory")["type"] == "ok"
        assert watcher.of_type("who")[-1]["users"][0]["name"] == "mallory"
    finally:
        raw.close()
        watcher.close()


def test_taken_and_bad_names_are_refused_with_a_reason(server: tuple[str, int]) -> None:
    first = JsonClient(server, "carol")
    try:
        with pytest.raises(RuntimeError, match="wrong resume code for carol"):  # online: only her code takes over
            JsonClient(server, "Carol", password="222-333-444")
        with pytest.raises(RuntimeError, match="2 to 16 of the letters"):
            JsonClient(server, "x")
        with pytest.raises(RuntimeError, match="2 to 16 of the letters"):
            JsonClient(server, "no spaces here")
    finally:
        first.close()


def test_a_client_that_never_reads_is_dropped_and_the_server_carries_on(server: tuple[str, int]) -> None:
    """Output a peer does not read piles up in the server; past a limit the connection is dropped (its seat
    would be kept as for any drop) instead of the server buffering without end."""
    slow = socket.socket()
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    slow.connect(server)
    watcher = JsonClient(server, "watcher1")
    try:
        slow.sendall(b"slowpoke\n")
        watcher.wait_for(lambda m: m["type"] == "notice" and "slowpoke has arrived" in m["text"], since=0)
        slow.settimeout(10)
        try:
            for _ in range(50):  # some 15 MB of help pages asked for, none read
                slow.sendall(b"/help all\n" * 100)
        except OSError:
            pass  # already dropped: the server closed the connection under us
        watcher.wait_for(lambda m: m["type"] == "notice" and "slowpoke has left" in m["text"], since=0, timeout=30)
        watcher.request("/who slowpoke")  # the page from where slowpoke would be: the shared server has many online
        assert "slowpoke" not in [u["name"] for u in watcher.of_type("who")[-1]["users"]]
        watcher.request("/who watcher1")
        assert watcher.of_type("who")[-1]["users"][0]["name"] == "watcher1"
    finally:
        slow.close()
        watcher.close()


def test_the_moves_listed_after_an_error_group_the_ways_to_aim_one_card() -> None:
    from mudwiz.connection import summarize

    milwa = [f"/play MILWA {who} {colour}" for who in ("ann", "bob") for colour in "KRGB"]
    assert summarize(["/play B10", *milwa, "/play MADALTO K", "/play MADALTO R", "/draw"]) == [
        "/play B10", "/play MILWA ...", "/play MADALTO K", "/play MADALTO R", "/draw"]
    assert summarize(["/bid 0", "/bid 1", "/bid 2"]) == ["/bid 0", "/bid 1", "/bid 2"]


def test_a_connection_that_never_gives_a_name_is_closed_after_the_login_timeout() -> None:
    with running_server(MUDWIZ_LOGIN_TIMEOUT="1") as address:
        idle = socket.create_connection(address, timeout=10)
        named = NetcatSession(address)
        try:
            named.read_until(b"What is your name? ")
            named.send(b"prompt_one\n")
            named.read_until(b"Welcome, prompt_one!")
            said = b""
            while chunk := idle.recv(4096):  # until the server closes it
                said += chunk
            assert b"What is your name? " in said and b"no name given within 1 s: goodbye" in said
            time.sleep(1.5)
            named.send(b"/who\n")  # a named connection stays, however long it is quiet
            named.read_until(b"Online (1)")
        finally:
            idle.close()
            named.close()
