"""Accounts over loopback, with the real argon2id in the server's password threads: the real ``telnet`` program
registers and logs in again (echo off while the password is typed), a socket sees the IAC bytes around it, a JSON
client registers and logs in, an away owner's name is not taken; and the password is in nobody's output and not
in the server's log. Then names that look like registered ones (usertext.skeleton), on a database an older
mudwiz left."""

from __future__ import annotations

import json
import socket
import sqlite3
import time
from pathlib import Path

from argon2 import PasswordHasher
from wire import JsonClient, Terminal, need, running_server

from mudwiz.store import FILENAME, SQLiteStore
from mudwiz.store.sqlite import MIGRATIONS

SECRET = "hunter2-but-longer"
GUESS = "not-the-password-1"


def read_until(sock: socket.socket, needle: bytes, seen: bytes = b"", timeout: float = 15.0) -> bytes:
    deadline = time.monotonic() + timeout
    while needle not in seen:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        if not chunk:
            break
        seen += chunk
    assert needle in seen, seen[-400:]
    return seen


def test_registered_names_over_telnet_and_json_and_the_password_goes_nowhere() -> None:
    telnet = need("telnet")
    with running_server() as server:
        watcher = JsonClient(server, "watcher")  # in the lobby: hears every arrival and every line of chat
        host, port = server
        term = Terminal([telnet, host, str(port)])
        try:
            term.read_until(b"What is your name? ")
            term.type("Tel_Owner")
            term.read_until(b"Welcome, Tel_Owner!")
            term.type("/register")
            term.read_until(b"Password: ")
            term.type(SECRET)
            term.read_until(b"Again: ")
            term.type(SECRET)
            term.read_until(b"Tel_Owner is registered", timeout=20)
            term.type("/quit")
            term.read_until(b"bye")
        finally:
            term.close()
        assert SECRET.encode() not in term.output  # telnet echoed none of it: the server had said WILL ECHO

        raw = socket.create_connection(server, timeout=15)  # the telnet port's bytes as they are
        seen = read_until(raw, b"What is your name? ")
        raw.sendall(b"tel_owner\r\n")
        seen = read_until(raw, b"Password: ", seen)
        assert seen.endswith(b"\xff\xfb\x01\rPassword: ")  # IAC WILL ECHO, then the prompt (from the row's start)
        raw.sendall(GUESS.encode() + b"\r\n")
        seen = read_until(raw, NAME := b"What is your name? ", seen[len(seen):] or b"")
        assert seen.startswith(b"\r\n\xff\xfc\x01") and b"wrong password for Tel_Owner" in seen  # IAC WONT ECHO
        raw.sendall(b"TEL_OWNER\r\n")
        read_until(raw, b"Password: ")
        raw.sendall(SECRET.encode() + b"\r\n")
        seen = read_until(raw, b"Welcome, Tel_Owner!", timeout=20)
        assert NAME not in seen
        raw.close()

        robo = JsonClient(server, "Robo_J")
        done = robo.register(SECRET)
        assert done["type"] == "ok" and "Robo_J is registered" in done["text"]
        assert robo.request("/new wizard")["type"] == "ok"
        for _ in range(2):
            robo.request("/bot add random")
        robo.request("/start")
        robo.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing", since=0)
        robo.close()  # the owner drops; the seat is kept for them
        watcher.wait_for(lambda m: m["type"] == "notice" and "Robo_J has left" in m["text"], since=0)

        thief = JsonClient.__new__(JsonClient)
        try:
            JsonClient.__init__(thief, server, "ROBO_J", password=GUESS)
            raise AssertionError("logged in without the password")
        except RuntimeError as refused:
            assert "wrong password for Robo_J" in str(refused)
        watcher.request("/who Robo_J")  # the page from where Robo_J would be
        assert all(u["name"].lower() != "robo_j" for u in watcher.of_type("who")[-1]["users"])
        thief.close()

        back = JsonClient(server, "robo_j", password=SECRET)
        assert back.of_type("welcome")[0]["name"] == "Robo_J"
        back.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing", since=0)  # the seat, again
        back.close()

        everything = b"\n".join(watcher.raw + back.raw + thief.raw) + term.output + seen
        assert SECRET.encode() not in everything and GUESS.encode() not in everything
        watcher.close()
    log = server.log()
    assert "login Tel_Owner" in log and "login Robo_J" in log  # the log is there, and has the logins
    assert SECRET not in log and GUESS not in log


def test_look_alikes_of_registered_names_over_telnet_and_json_and_older_ones_still_log_in(tmp_path: Path) -> None:
    """A server started on a version 8 database holding two accounts that already look alike (Wire_Carol and
    Wire_CaroI, registered before names were compared by their look): the migration at start keeps both, each
    logging in with its password; a guest under a third look-alike is refused over the real ``telnet`` while
    both owners are away; and a guest back to his held name with its code, after a look-alike of it was
    registered meanwhile (in the server's password threads), keeps the name but may not register it."""
    telnet = need("telnet")
    SQLiteStore(tmp_path / FILENAME, migrations=MIGRATIONS[:8]).close()
    db = sqlite3.connect(tmp_path / FILENAME)
    with db:  # as version 8's code registered them
        db.executemany("INSERT INTO accounts VALUES (?, ?, ?, ?)",
                       [(name.lower(), name, PasswordHasher().hash(SECRET), created)
                        for name, created in (("Wire_Carol", 1.0), ("Wire_CaroI", 2.0))])
    db.close()
    with running_server(MUDWIZ_DATA=str(tmp_path)) as server:
        for typed, spelled in (("wire_caroi", "Wire_CaroI"), ("WIRE_CAROL", "Wire_Carol")):
            owner = JsonClient(server, typed, password=SECRET)
            assert owner.of_type("welcome")[0]["name"] == spelled
            owner.close()

        host, port = server
        term = Terminal([telnet, host, str(port)])
        try:
            term.read_until(b"What is your name? ")
            term.type("Wire_Car0l")
            term.read_until(b"Wire_Car0l looks too like Wire_Carol, a registered name; choose another name")
            term.read_until(b"What is your name? ", since=len(term.output) - 20)  # asked again
            term.type("/quit")
        finally:
            term.close()

        mark = JsonClient(server, "Wire_Mark")
        for cmd in ("/new wizard", "/bot add random", "/bot add random", "/start"):
            assert mark.request(cmd)["type"] == "ok"
        code = mark.of_type("welcome")[0]["resume"]
        mark.close()  # dropped mid-game: the seat and the name are held for him
        rnark = JsonClient(server, "Wire_Rnark")  # nobody online looks like him
        assert "Wire_Rnark is registered" in rnark.register(SECRET)["text"]
        rnark.close()
        back = JsonClient(server, "wire_mark", password=code)
        assert back.of_type("welcome")[0]["name"] == "Wire_Mark"
        refused = back.request("/register")
        assert refused["type"] == "error" and refused["message"].startswith(  # (his moves may follow: his turn)
            "Wire_Mark looks too like Wire_Rnark, a registered name; choose another name to register")
        back.close()


def test_a_registered_player_unregisters_over_json_and_a_guest_then_takes_the_name() -> None:
    """Over loopback, the password checked in the server's password threads: ``/unregister`` asks the password by
    a ``password`` message, a wrong one changes nothing, the right one deletes the account (the ``ok`` carries the
    guest's resume code); once its owner logs out a guest logs in under the name with no password."""
    with running_server() as server:
        owner = JsonClient(server, "Wire_Quits")
        assert "Wire_Quits is registered" in owner.register(SECRET)["text"]
        owner.close()
        owner = JsonClient(server, "wire_quits", password=SECRET)
        for rid, answer, expected in (("wrong", GUESS, "error"), ("right", SECRET, "ok")):
            assert owner.request("/unregister")["type"] == "ok"
            asked = owner.wait_for(lambda m: m["type"] == "password", since=owner.mark)
            assert asked == {"type": "password", "name": "Wire_Quits", "prompt": "Password"}
            owner.send(json.dumps({"id": rid, "cmd": answer}))
            done = owner.wait_for(lambda m, r=rid: m.get("id") == r, since=0)
            assert done["type"] == expected, done
        assert done["text"].startswith("Wire_Quits is no longer registered") and done["resume"]
        assert owner.request("/password")["type"] == "error"  # a guest now
        owner.close()
        time.sleep(0.5)  # the drop noticed: nothing holds the name
        guest = JsonClient(server, "WIRE_QUITS")  # no password asked: a guest's name
        welcome = guest.of_type("welcome")[0]
        assert welcome["name"] == "WIRE_QUITS" and welcome["resume"] not in (None, done["resume"])
        everything = b"\n".join(owner.raw + guest.raw)
        assert SECRET.encode() not in everything and GUESS.encode() not in everything
        guest.close()
    assert SECRET not in server.log()
