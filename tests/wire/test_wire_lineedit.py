"""The one line editor (mudwiz/net/lineedit.py) on both ports that send raw keys, over real sockets: what each
port had before only from the other editor (Ctrl-C and a tab on rlogin, the bell on SSH), and keys read in the
charset ``/mode cp437`` chose, even in the same read as the ``/mode`` line. The real OpenSSH ``ssh`` in a
pty (tests/support/wire.py ``Terminal``) and a scripted rlogin client; a JSON user on the telnet port reads
what they say."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from test_wire_ssh import ssh
from wire import JsonClient, RloginClient, Server, Terminal, free_port, running_server, wait_until_listening


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[Server, int, tuple[str, int]]]:
    """A server with an SSH port and an rlogin port trusting ``fsx`` by its secret."""
    ssh_port, rlogin_port = free_port(), free_port()
    ports = {"MUDWIZ_SSH": f"tcp:{ssh_port}:interface=127.0.0.1",
             "MUDWIZ_RLOGIN": f"tcp:{rlogin_port}:interface=127.0.0.1"}
    with running_server(MUDWIZ_RLOGIN_BBS="fsx:s3cret", **ports) as address:
        wait_until_listening(ssh_port, address.proc, address.log)
        yield address, ssh_port, (address[0], rlogin_port)


def said_by(listener: JsonClient, name: str) -> str:
    return str(listener.wait_for(lambda m: m["type"] == "chat" and m["from"] == name, since=listener.mark,
                                 timeout=15)["text"])


def test_rlogin_drops_a_line_on_ctrl_c_types_a_tab_as_a_space_and_reads_keys_in_the_charset_chosen(
        server: tuple[Server, int, tuple[str, int]]) -> None:
    address, _, rlogin = server
    listener = JsonClient(address, "le_listener")
    caller = RloginClient(rlogin, "Keys", "s3cret", term="xterm-utf-8/38400")  # a UTF-8 terminal
    try:
        caller.read_until(b"Welcome, Keys@fsx!")
        at, listener.mark = len(caller.output), len(listener.messages)
        caller.type(b"oops\x03tab\there\r")
        assert said_by(listener, "Keys@fsx") == "tab here"
        assert b"oops^C\r\ntab here\r\n" in caller.read_until(b"tab here\r\n", since=at)[at:]
        listener.mark = len(listener.messages)
        caller.type(b"/mode cp437\r" + "café".encode("cp437") + b"\r")  # one read: é is 0x82 in CP437
        assert said_by(listener, "Keys@fsx") == "café"
    finally:
        caller.close()
        listener.close()


def test_ssh_rings_the_bell_past_the_limit_and_reads_keys_in_the_charset_chosen(
        server: tuple[Server, int, tuple[str, int]]) -> None:
    address, port, _ = server
    listener = JsonClient(address, "le_hearer")
    term = Terminal(ssh(port, "le_typist", "", "-tt"))
    try:
        term.read_until(b"Welcome, le_typist!", timeout=30)
        at, listener.mark = len(term.output), len(listener.messages)
        os.write(term.master, b"y" * 4100 + b"\r")  # 4096 characters at most: a bell for each key past them
        echo = term.read_until(b"\r\n", since=at + 4096)[at:]
        assert echo.startswith(b"y" * 4096 + b"\a" * 4 + b"\r\n"), echo[4090:4110]
        term.read_until(b"(this one has 4096)", since=at)  # the line, whole: too long to say to others
        listener.mark = len(listener.messages)
        os.write(term.master, b"/mode cp437\r" + "naïve\r".encode("cp437"))  # one write: ï is 0x8B in CP437
        assert said_by(listener, "le_typist") == "naïve"
    finally:
        term.close()
        listener.close()
