"""SSH as people log in with it: the real OpenSSH ``ssh``, given its password by ``sshpass``, in a pty
(tests/support/wire.py ``Terminal``) or with pipes, against a real server with ``MUDWIZ_SSH`` set; a JSON user
on the telnet port as the other side. The user name is the mudwiz name and the password proves it
(docs/protocol.md, SSH).
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pyte
import pytest
from wcwidth import wcswidth
from wire import JsonClient, Server, Terminal, free_port, need, register, running_server, wait_until_listening

SECRET = "ssh secret pass"
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
CODE = re.compile(rb"Your resume code is ([2-9A-Z]{3}-[2-9A-Z]{3}-[2-9A-Z]{3}):")


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[Server, int]]:
    """A server of this module's own with an SSH port: its tests open tables and fail logins."""
    port = free_port()
    with running_server(MUDWIZ_SSH=f"tcp:{port}:interface=127.0.0.1") as address:
        wait_until_listening(port, address.proc, address.log)
        yield address, port


def ssh(port: int, name: str, password: str, *options: str, source: str = "127.0.0.1",
        known_hosts: str = "/dev/null") -> list[str]:
    """``sshpass -p PASSWORD ssh ... NAME@127.0.0.1``; from ``source`` (another loopback address keeps a test's
    failed logins, counted per address, from the others)."""
    return [need("sshpass"), "-p", password, need("ssh"), "-F", "/dev/null", "-o", "StrictHostKeyChecking=no",
            "-o", f"UserKnownHostsFile={known_hosts}", "-o", "NumberOfPasswordPrompts=1", "-p", str(port),
            "-b", source, *options, f"{name}@127.0.0.1"]


def askpass(tmp_path: Path, password: str) -> dict[str, str]:
    """An environment in which ``ssh`` itself, with no ``sshpass`` around it, gets ``password`` from a program
    (``SSH_ASKPASS``): a resize of its terminal then reaches ``ssh`` as it does for a person (sshpass does not
    pass SIGWINCH on)."""
    script = tmp_path / "askpass"
    script.write_text(f"#!/bin/sh\necho '{password}'\n")
    script.chmod(0o700)
    return {**os.environ, "SSH_ASKPASS": str(script), "SSH_ASKPASS_REQUIRE": "force"}


def piped(argv: list[str], typed: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """``ssh`` with no terminal (``-T``): what it prints, its exit status."""
    return subprocess.run(argv, input=typed, capture_output=True, timeout=60)


def text_lines(data: bytes) -> list[str]:
    return ANSI.sub("", data.decode("utf-8")).split("\r\n")


def widest(data: bytes) -> int:
    return max(wcswidth(line) for line in text_lines(data))


def fits(data: bytes, columns: int, rows: int) -> None:
    """On a ``columns``-wide pyte screen: every line within the width, strict UTF-8 (an undecodable byte fails
    here), no replacement character and no control character left undrawn."""
    assert widest(data) <= columns, max(text_lines(data), key=wcswidth)
    term = pyte.Screen(columns, rows)
    pyte.Stream(term).feed(data.replace(b"\x1b[2J", b"").decode("utf-8"))
    shown = "".join(term.display)
    assert "\ufffd" not in shown and not any(ch < " " for ch in shown)


def start_game(term: Terminal) -> int:
    """A wizard table with two bots, started; where the game's output starts."""
    start = len(term.output)
    for line in ("/new wizard", "/bot add random", "/bot add random", "/start"):
        term.type(line)
    term.read_until(b"Your turn", since=start, timeout=30)
    return start


def test_a_registered_user_logs_in_with_ssh_and_a_json_user_reads_their_chat(server: tuple[Server, int]) -> None:
    address, port = server
    owner = JsonClient(address, "Ssh_Owner")
    register(owner, SECRET)
    owner.close()
    listener = JsonClient(address, "ssh_listener")
    term = Terminal(ssh(port, "ssh_owner", SECRET, "-tt"))  # any case: the account's spelling is used
    try:
        shown = term.read_until(b"Welcome, Ssh_Owner!", timeout=30)
        assert b"What is your name?" not in shown and b"Password:" not in shown
        assert b"resume code" not in shown  # registered: the password, not a code, brings them back
        at = len(term.output)
        term.type("hallo aus ssh, grüße")
        said = listener.wait_for(lambda m: m["type"] == "chat" and m["from"] == "Ssh_Owner", timeout=15)
        assert said["text"] == "hallo aus ssh, grüße"
        shown = term.read_until(b"Ssh_Owner\x1b[0m: hallo", since=at)[at:]
        assert shown.startswith("hallo aus ssh, grüße\r\n".encode())  # the server echoed the keys, then Enter
        listener.request("/tell Ssh_Owner über ssh")
        term.read_until("über ssh".encode(), since=at)
        term.type("/quit")
        assert term.proc.wait(timeout=15) == 0  # the session's exit status
    finally:
        term.close()
        listener.close()


def test_a_wrong_password_is_refused_with_its_reason_and_then_throttled(server: tuple[Server, int]) -> None:
    address, port = server
    owner = JsonClient(address, "Ssh_Locked")
    register(owner, SECRET)
    owner.close()
    for _ in range(5):
        wrong = piped(ssh(port, "Ssh_Locked", "not it", "-T", source="127.0.0.2"))
        assert wrong.returncode != 0 and b"wrong password for Ssh_Locked" in wrong.stdout + wrong.stderr, wrong
        assert b"Welcome" not in wrong.stdout
    right = piped(ssh(port, "Ssh_Locked", SECRET, "-T", source="127.0.0.2"))
    said = right.stdout + right.stderr
    assert right.returncode != 0 and re.search(rb"too many failed logins for Ssh_Locked; try again in \d+ s", said)
    assert b"Welcome" not in said


def test_a_guest_is_asked_no_password_and_a_taken_or_bad_name_is_one_line(
        server: tuple[Server, int]) -> None:
    address, port = server
    guest = Terminal(ssh(port, "ssh_guest", "", "-tt"))
    try:
        shown = guest.read_until(b"Welcome, ssh_guest!", timeout=30)
        found = CODE.search(guest.read_until(b"Your resume code is", timeout=10) + guest.read_until(b": type"))
        assert found and b"What is your name?" not in shown
        # online: its resume code is asked as the password, and takes the name over (docs/protocol.md); it was
        # refused as "already connected" whatever was given, so a hanging session kept its owner out
        taken = piped(ssh(port, "SSH_GUEST", "anything", "-T", source="127.0.0.4"))
        assert taken.returncode != 0 and b"wrong resume code for ssh_guest" in taken.stdout + taken.stderr, taken
        assert b"Welcome" not in taken.stdout
        took = piped(ssh(port, "SSH_GUEST", found.group(1).decode(), "-T", source="127.0.0.4"), b"/quit\n")
        assert took.returncode == 0 and b"Welcome, ssh_guest!" in took.stdout, took
        assert b"ssh_guest logged in again on another connection (127.0.0.4)" in guest.read_until(
            b"this one is closed", timeout=10)
    finally:
        guest.close()
    asked_nothing = piped(ssh(port, "ssh_quick", "", "-T", "-o", "BatchMode=yes")[3:], b"/quit\n")
    assert asked_nothing.returncode == 0 and b"Welcome, ssh_quick!" in asked_nothing.stdout, asked_nothing  # none
    registered = JsonClient(address, "Ssh_Batch")
    register(registered, SECRET)
    took = piped(ssh(port, "ssh_batch", SECRET, "-T", source="127.0.0.4"), b"/quit\n")  # online: taken over
    assert took.returncode == 0 and b"Welcome, Ssh_Batch!" in took.stdout, took
    registered.wait_for(lambda m: "logged in again on another connection" in m.get("message", ""), timeout=10)
    registered.close()
    owner = piped(ssh(port, "ssh_batch", "", "-T", "-o", "BatchMode=yes")[3:])
    assert owner.returncode == 255 and b"Permission denied (password)" in owner.stderr, owner  # asks a password
    bad = piped(ssh(port, "no good!", "", "-T"))
    assert bad.returncode == 1 and b"a name is 2 to 16 of the letters" in bad.stdout, bad
    ran = piped(ssh(port, "ssh_cmd", "", "-T") + ["/who"])
    assert ran.returncode == 1 and b"mudwiz runs no commands" in ran.stdout, ran


def test_a_dropped_guest_s_name_takes_its_resume_code_as_the_password(server: tuple[Server, int]) -> None:
    address, port = server
    guest = Terminal(ssh(port, "ssh_held", "", "-tt", source="127.0.0.3"))
    try:
        found = CODE.search(guest.read_until(b"Your resume code is", timeout=30) + guest.read_until(b": type"))
        assert found
        code = found.group(1).decode()
        start_game(guest)
    finally:
        guest.close()  # the connection drops mid-game: the seat is kept, and the name held for its guest
    looker = JsonClient(address, "ssh_looker")
    deadline = time.monotonic() + 15
    while looker.request("/who ssh_held") and looker.of_type("who")[-1]["users"][:1] and \
            looker.of_type("who")[-1]["users"][0]["name"] == "ssh_held":  # the server has seen the drop (a
        assert time.monotonic() < deadline  # name still online would be "already connected", not held)
        time.sleep(0.05)
    looker.close()
    thief = piped(ssh(port, "ssh_held", "", "-T", source="127.0.0.3"))
    assert thief.returncode != 0 and b"wrong resume code for ssh_held" in thief.stdout + thief.stderr, thief
    back = Terminal(ssh(port, "SSH_HELD", code.lower().replace("-", ""), "-tt", source="127.0.0.3"))
    try:
        back.read_until(b"Welcome, ssh_held!", timeout=30)
        back.read_until(b"Your turn", timeout=30)  # the seat, handed back
    finally:
        back.close()


def test_the_pty_window_and_its_changes_drive_the_width(server: tuple[Server, int], tmp_path: Path) -> None:
    _, port = server
    term = Terminal(ssh(port, "ssh_wide", "", "-tt")[3:], env=askpass(tmp_path, ""), size=(100, 30))
    try:
        term.read_until(b"Welcome, ssh_wide!", timeout=30)
        start = start_game(term)
        at = len(term.output)
        term.type("/look")
        wide = term.read_until(b"Your turn", since=at)[at:]
        fits(term.output[start:], 100, 30)
        assert widest(wide) == 100  # the rules across the whole window
        term.resize(60, 20)  # the window shrinks: ssh sends window-change
        for _ in range(50):  # the change travels as ssh's window-change: /look until it is drawn for it
            at = len(term.output)
            term.type("/look")
            narrow = term.read_until(b"Your turn", since=at)[at:]
            if widest(narrow) <= 60:
                break
        fits(narrow, 60, 20)
        assert widest(narrow) == 60
        at = len(term.output)
        term.type("/help")
        fits(term.read_until(b"/quit", since=at)[at:], 60, 20)
    finally:
        term.close()


@pytest.mark.parametrize("mode", ["ansi", "ascii"])
def test_80x24_screens_of_each_mode_chosen_by_term(server: tuple[Server, int], mode: str) -> None:
    """TERM, sent in the PTY request, picks the mode as telnet's TTYPE does: xterm draws colour and UTF-8, dumb
    plain ASCII."""
    _, port = server
    env = {**os.environ, "TERM": "xterm-256color" if mode == "ansi" else "dumb"}
    term = Terminal(ssh(port, f"ssh_{mode}", "", "-tt"), env=env, size=(80, 24))
    try:
        term.read_until(f"Welcome, ssh_{mode}!".encode(), timeout=30)
        start = start_game(term)
        at = len(term.output)
        term.type("/look")
        view = term.read_until(b"Your turn", since=at)[at:]
        fits(term.output[start:], 80, 24)
        assert widest(view) == 80
        assert (b"\x1b[" in view) == (mode == "ansi") and view.isascii() == (mode == "ascii")
    finally:
        term.close()


def test_without_a_pty_lines_pass_as_on_the_raw_port_and_json_mode_works(server: tuple[Server, int]) -> None:
    _, port = server
    done = piped(ssh(port, "ssh_bot", "", "-T"), b'/mode json\n{"id": 7, "cmd": "/who"}\n')
    assert done.returncode == 0, done  # the end of its input ends the session, as /quit
    lines = done.stdout.split(b"\r\n")
    json_lines = lines[next(i for i, line in enumerate(lines) if line.startswith(b"{")):]
    messages = [json.loads(line) for line in json_lines if line]  # every line from the first one on is JSON
    assert {"type": "ok", "id": 7} in messages
    assert any(m["type"] == "who" and "ssh_bot" in json.dumps(m) for m in messages), messages


def test_the_host_key_is_made_once_and_kept_across_restarts(tmp_path: Path) -> None:
    data, known = tmp_path / "data", tmp_path / "known_hosts"
    prints = []
    for strict in ("accept-new", "yes"):  # the second start must show the key the first one was known by
        port = free_port()
        with running_server(MUDWIZ_SSH=f"tcp:{port}:interface=127.0.0.1", MUDWIZ_DATA=str(data)) as address:
            wait_until_listening(port, address.proc, address.log)
            argv = ssh(port, "ssh_keep", "", "-T", known_hosts=str(known))
            argv[argv.index("StrictHostKeyChecking=no")] = f"StrictHostKeyChecking={strict}"
            done = piped(argv[:-1] + ["-o", "HostKeyAlias=mudwiz-test", argv[-1]], b"/quit\n")
            assert done.returncode == 0 and b"Welcome, ssh_keep!" in done.stdout, done
            logged = re.search(r"SSH host key (SHA256:\S+)", address.log())
            assert logged
            prints.append(logged.group(1))
    key = data / "ssh_host_ed25519_key"
    assert key.stat().st_mode & 0o777 == 0o600
    shown = subprocess.run([need("ssh-keygen"), "-lf", str(key.with_name(key.name + ".pub"))], capture_output=True,
                           text=True, check=True).stdout
    assert prints[0] == prints[1] and prints[0] in shown  # as ssh-keygen computes it from the public key
    assert "mudwiz-test" in known.read_text()


def test_chat_arriving_while_a_line_is_half_typed_is_written_above_it(server: tuple[Server, int]) -> None:
    """The typed part is blanked, the chat written, and the typed part shown again below it: keys and output
    never run together on one line, and the line still goes out whole."""
    address, port = server
    talker = JsonClient(address, "ssh_talker")
    term = Terminal(ssh(port, "ssh_typist", "", "-tt"))
    try:
        term.read_until(b"Welcome, ssh_typist!", timeout=30)
        at = len(term.output)
        os.write(term.master, b"half a li")
        term.read_until(b"half a li", since=at)
        talker.request("sudden news")
        shown = term.read_until(b"sudden news", since=at)
        shown = term.read_until(b"half a li", since=shown.index(b"sudden news"))[at:]
        assert re.search(rb"half a li\r\x1b\[K.*ssh_talker.*sudden news\r\nhalf a li$", shown), shown
        os.write(term.master, b"ne\r")
        said = talker.wait_for(lambda m: m["type"] == "chat" and m["from"] == "ssh_typist", timeout=15)
        assert said["text"] == "half a line"
    finally:
        term.close()
        talker.close()


def test_an_ssh_client_that_stops_reading_is_dropped_and_the_server_goes_on(server: tuple[Server, int]) -> None:
    """``ssh`` whose output nobody reads stops opening its channel's window: what waits for it, in the channel or
    the socket, is counted, and past about 1 MB it is dropped (docs/protocol.md) rather than kept in memory."""
    address, port = server
    stuck = subprocess.Popen(ssh(port, "ssh_stuck", "", "-T"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
    try:
        assert stuck.stdin is not None
        for _ in range(40):  # /help all is some 4 KB: 8 MB asked for in all, none of it read
            stuck.stdin.write(b"/help all\n" * 50)
            stuck.stdin.flush()
            if "ssh_stuck: dropped" in address.log():
                break
        deadline = time.monotonic() + 30
        while "ssh_stuck: dropped" not in address.log() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert re.search(r"ssh_stuck: dropped, \d+ bytes unread", address.log())
        assert JsonClient(address, "ssh_after").request("/who")["type"] == "ok"
    finally:
        stuck.kill()
        stuck.wait()


def test_a_port_forwarding_is_refused_without_a_word_in_the_log(server: tuple[Server, int]) -> None:
    """A channel the server does not give (``ssh -L``'s direct-tcpip, beside a session or alone) is refused with
    its reason; conch logged each refusal as a critical traceback, which a guest could repeat without end."""
    address, port = server
    for options in (["-T"], ["-N"]):
        local = free_port()
        forwarding = subprocess.Popen(
            ssh(port, f"fwd_{options[0][1:]}", "", *options, "-o", "ExitOnForwardFailure=no",
                "-L", f"{local}:127.0.0.1:{address[1]}"),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            wait_until_listening(local, forwarding, lambda: "")
            for _ in range(3):
                with socket.create_connection(("127.0.0.1", local), timeout=10) as tunnel:
                    tunnel.settimeout(10)
                    assert tunnel.recv(100) == b""  # ssh closes it: the server refused the channel
        finally:
            forwarding.kill()
            _, err = forwarding.communicate(timeout=10)
        assert b"open failed" in err  # ssh was told why
    time.sleep(0.3)
    log = address.log()
    assert "channel open failed" not in log and "ConchError" not in log


def test_a_session_ended_by_the_client_leaves_no_error_in_the_log(server: tuple[Server, int]) -> None:
    """``ssh`` ends a session with a disconnect message, 'disconnected by user': conch logged it as an error, one
    error line at every logout."""
    address, port = server
    done = piped(ssh(port, "ssh_byebye", "", "-T"), b"/who\n")  # its input's end ends the session
    assert done.returncode == 0, done
    time.sleep(0.3)
    assert "Got remote error" not in address.log()


def test_the_sessions_lang_sent_by_ssh_is_the_language_read(server: tuple[Server, int]) -> None:
    """OpenSSH's ``SendEnv LANG``: the session's env request picks the language, from the welcome on."""
    _, port = server
    env = {**os.environ, "LANG": "ja_JP.UTF-8", "TERM": "xterm"}
    term = Terminal(ssh(port, "ssh_hana", "", "-tt", "-o", "SendEnv=LANG"), env=env)
    english = Terminal(ssh(port, "ssh_ann", "", "-tt"), env=env)  # no SendEnv: the server's language
    try:
        term.read_until("ようこそ、ssh_hana さん！".encode(), timeout=30)
        english.read_until(b"Welcome, ssh_ann!", timeout=30)
    finally:
        term.close()
        english.close()
