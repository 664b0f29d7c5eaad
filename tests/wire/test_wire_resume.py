"""Guests' resume codes over loopback, against the real server: every way of taking a dropped guest's name (the
name in another case while they are connected, during the grace period, after the stand-in took over, after a
``/leave`` mid-game) is refused without the code; the code gives the seat back; wrong codes are throttled with
wrong passwords; the real ``telnet`` program is asked for the code with its echo off. No code and no password is
in what anyone else was sent, nor in the server's log."""

from __future__ import annotations

import re
from typing import Any

from wire import JsonClient, Server, Terminal, need, running_server

SECRET = "hunter2-but-longer"
CODE = re.compile(rb"Your resume code is ([2-9A-Z]{3}-[2-9A-Z]{3}-[2-9A-Z]{3}):")


def refusal(server: Server, name: str, answer: str | None = None) -> tuple[str, JsonClient]:
    """Try to log in as ``name`` (answering a password or code question with ``answer``): the error's text, and
    the client (to read what it was sent)."""
    client = JsonClient.__new__(JsonClient)
    try:
        JsonClient.__init__(client, server, name, password=answer)
    except RuntimeError:
        return client.of_type("error")[-1]["message"], client
    finally:
        client.close()
    raise AssertionError(f"{name} logged in with {answer!r}")


def asked(client: JsonClient) -> list[dict[str, Any]]:
    return client.of_type("password")


def code_of(client: JsonClient) -> str:
    code = client.of_type("welcome")[0]["resume"]
    assert isinstance(code, str) and re.fullmatch(r"[2-9A-Z]{3}-[2-9A-Z]{3}-[2-9A-Z]{3}", code)
    return code


def playing(host: JsonClient, *joining: JsonClient) -> int:
    """``host`` opens a Wizard table, ``joining`` sit down, bots fill it to three, and the game starts: its
    number."""
    assert host.request("/new wizard")["type"] == "ok"
    table = host.of_type("state")[-1]["table"]
    for client in joining:
        assert client.request(f"/join {table}")["type"] == "ok"
    for _ in range(2 - len(joining)):
        assert host.request("/bot add random")["type"] == "ok"
    host.request("/start")
    host.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing", since=0)
    return int(table)


def departures(watcher: JsonClient, name: str) -> list[dict[str, Any]]:
    return [m for m in watcher.of_type("notice") if m["text"] == f"{name} has left."]


def seat_of(client: JsonClient, name: str) -> dict[str, Any]:
    """``name``'s seat in the latest state ``client`` was sent."""
    state = client.last_state()
    assert state is not None
    return next(p for p in state["players"] if p["name"].lower() == name.lower())


def test_taking_a_guest_name_while_connected_or_away_is_refused_and_the_code_gives_the_seat_back() -> None:
    with running_server(MUDWIZ_GRACE="120") as server:
        watcher = JsonClient(server, "Watch_R")  # in the lobby: hears every arrival, departure and chat
        ann = JsonClient(server, "Ann_R")
        code = code_of(ann)
        assert watcher.of_type("welcome")[0]["resume"] != code
        playing(ann)
        said, thief = refusal(server, "ANN_R", "")  # while she is connected: her code would take it over
        assert asked(thief) == [{"type": "password", "name": "Ann_R", "prompt": "Resume code"}]
        assert said == "wrong resume code for Ann_R" and ann.request("/who")["type"] == "ok"  # hers still
        ann.close()
        watcher.wait_for(lambda m: m["type"] == "notice" and "Ann_R has left" in m["text"], since=0)

        said, thief = refusal(server, "ann_r", "")  # during the grace period, with no code
        assert asked(thief) == [{"type": "password", "name": "Ann_R", "prompt": "Resume code"}]
        assert said == "wrong resume code for Ann_R"
        said, thief2 = refusal(server, "aNN_r", "ZZZ-ZZZ-ZZZ")
        assert said == "wrong resume code for Ann_R"
        assert all(u["name"] != "Ann_R" for u in watcher.request("/who") and watcher.of_type("who")[-1]["users"])

        back = JsonClient(server, "ann_r", password=code.lower().replace("-", ""))
        welcome = back.of_type("welcome")[0]
        assert welcome["name"] == "Ann_R" and welcome["resume"] == code  # the same code, still guarding the name
        state = back.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing", since=0)
        assert state["you"] == "Ann_R" and not seat_of(back, "Ann_R")["away"]
        back.close()

        everything = b"\n".join(watcher.raw + thief.raw + thief2.raw)
        assert code.encode() not in everything
        watcher.close()
    log = server.log()
    assert "login Ann_R" in log and code not in log and code.lower().replace("-", "") not in log


def test_after_the_stand_in_took_over_and_after_leave_the_seat_needs_the_code() -> None:
    with running_server(MUDWIZ_GRACE="0.5") as server:
        watcher = JsonClient(server, "Watch_S")  # in the lobby: hears departures
        bob = JsonClient(server, "Bob_S")  # a person playing on keeps the game going while Ann is gone
        ann = JsonClient(server, "Ann_S")
        code = code_of(ann)
        playing(ann, bob)
        ann.close()
        bob.wait_for(lambda m: m["type"] == "notice" and "did not come back; a bot plays" in m["text"], since=0)
        assert bob.request("/look")["type"] == "ok"
        assert seat_of(bob, "Ann_S")["stand_in"]

        said, thief = refusal(server, "ANN_S", "222-333-444")
        assert asked(thief) and said == "wrong resume code for Ann_S"
        assert bob.request("/look")["type"] == "ok"
        assert seat_of(bob, "Ann_S")["stand_in"]  # the bot plays on

        ann = JsonClient(server, "ann_s", password=code)
        ann.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing", since=0)
        bob.wait_for(lambda m: m["type"] == "notice" and "Ann_S is back" in m["text"], since=0)

        assert ann.request("/leave")["type"] == "ok"  # mid-game: a stand-in holds the seat for her
        ann.close()
        watcher.wait_for(lambda m: len(departures(watcher, "Ann_S")) == 2, since=0)  # the server knows she is gone
        said, thief2 = refusal(server, "Ann_S", "")
        assert asked(thief2) and said == "wrong resume code for Ann_S"

        ann = JsonClient(server, "ANN_S", password=code)
        assert ann.of_type("welcome")[0]["name"] == "Ann_S"
        state = ann.wait_for(lambda m: m["type"] == "state" and m["status"] == "playing", since=0)
        assert state["you"] == "Ann_S"  # the seat the stand-in kept, handed back
        ann.close()
        assert code.encode() not in b"\n".join(bob.raw + watcher.raw + thief.raw + thief2.raw)
        bob.close()
        watcher.close()
    assert code not in server.log()


def test_wrong_codes_and_passwords_over_loopback_are_throttled_and_never_shown_or_logged() -> None:
    with running_server(MUDWIZ_GRACE="3600") as server:
        owner = JsonClient(server, "Reg_T")
        assert owner.register(SECRET)["type"] == "ok"
        owner.close()
        listener = JsonClient(server, "Listen_T")
        ann = JsonClient(server, "Ann_T")
        code = code_of(ann)
        playing(ann)
        ann.close()
        listener.wait_for(lambda m: bool(departures(listener, "Ann_T")), since=0)
        others = [listener]

        for i in range(4):  # every test client is 127.0.0.1: one address, guessing
            said, thief = refusal(server, "ann_t", f"{i}{i}{i}-ABC-DEF")
            assert said == "wrong resume code for Ann_T"
            others.append(thief)
        said, thief = refusal(server, "reg_t", "not-the-password")
        assert said == "wrong password for Reg_T"  # the fifth failure from this address
        said, thief = refusal(server, "ann_t", code)  # held back now, even with the right code: this address is
        assert said == "too many failed logins from 127.0.0.1; try again in 60 s" and asked(thief)  # then refused
        said, thief = refusal(server, "REG_T", SECRET)
        assert said.startswith("too many failed logins from 127.0.0.1; try again in")
        others.append(thief)
        listener.request("/who")

        everything = b"\n".join(c for client in others for c in client.raw)
        assert SECRET.encode() not in everything and code.encode() not in everything
        listener.close()
    log = server.log()
    assert "login Ann_T" in log and SECRET not in log and code not in log


def test_telnet_is_asked_for_the_code_with_its_echo_off() -> None:
    telnet = need("telnet")
    with running_server(MUDWIZ_GRACE="120") as server:
        watcher = JsonClient(server, "Watch_Tel")
        host, port = server
        first = Terminal([telnet, host, str(port)])
        try:
            first.read_until(b"What is your name? ")
            first.type("Tel_Guest")
            shown = first.read_until(b"Welcome, Tel_Guest!")
            shown = first.read_until(b"after a drop.")
            found = CODE.search(shown)
            assert found is not None
            code = found.group(1).decode()
            for line in ("/new wizard", "/bot add random", "/bot add random", "/start"):
                first.type(line)
            first.read_until(b"Wizard starts: Tel_Guest")
        finally:
            first.close()  # the program dies: a drop
        watcher.wait_for(lambda m: m["type"] == "notice" and "Tel_Guest has left" in m["text"], since=0)

        second = Terminal([telnet, host, str(port)])
        try:
            second.read_until(b"What is your name? ")
            second.type("TEL_GUEST")
            second.read_until(b"Resume code: ")
            second.type("ZZZ-ZZZ-ZZZ")
            second.read_until(b"wrong resume code for Tel_Guest")
            wrong = second.read_until(b"What is your name? ", timeout=5)
            second.type("tel_guest")
            start = len(wrong)
            second.read_until(b"Resume code: ", timeout=5, since=start)
            second.type(code)
            shown = second.read_until(b"Tel_Guest is back.", timeout=15)
        finally:
            second.close()
        typed = shown[start:shown.index(b"Welcome, Tel_Guest!")]
        assert code.encode() not in typed and b"ZZZ-ZZZ-ZZZ" not in wrong  # telnet echoed neither
        assert code.encode() in shown[shown.index(b"Welcome, Tel_Guest!"):]  # the welcome shows it again
        assert code.encode() not in b"\n".join(watcher.raw)
        watcher.close()
    assert code not in server.log()


def test_a_watcher_who_drops_watches_the_table_again_on_coming_back_with_the_code() -> None:
    with running_server(MUDWIZ_GRACE="120") as server:
        host, olga = JsonClient(server, "Host_W"), JsonClient(server, "Olga_W")
        assert host.request("/new wizard")["type"] == "ok"
        assert olga.request("/watch 1")["type"] == "ok"
        code = code_of(olga)
        olga.close()
        gone = host.wait_for(lambda m: m["type"] == "notice" and m["text"] == "Olga_W stops watching.", since=0)
        said, thief = refusal(server, "olga_w", "")  # her name is held for her, as a dropped player's is
        assert asked(thief) and said == "wrong resume code for Olga_W"
        back = JsonClient(server, "OLGA_W", password=code)
        assert back.of_type("welcome")[0]["name"] == "Olga_W"  # as she was called while watching
        state = back.wait_for(lambda m: m["type"] == "state", since=0)
        assert (state["table"], state["observer"], state["you"]) == (1, True, None), state
        assert back.messages.index(back.of_type("welcome")[0]) < back.messages.index(state)
        host.wait_for(lambda m: m["type"] == "notice" and m["text"] == "Olga_W is watching table 1.",
                      since=host.messages.index(gone))
        assert [m["text"] for m in host.of_type("notice") if "watching" in m["text"]] == [
            "Olga_W is watching table 1.", "Olga_W stops watching.", "Olga_W is watching table 1."]
        assert back.request("/leave")["type"] == "ok"  # and she may go as ever
        host.close()
        back.close()


def test_a_half_open_connection_is_taken_over_with_the_code_seat_and_all() -> None:
    """The player's old connection hangs (not yet noticed dead) and they connect again: the name online asks for
    the code, which moves them to the new connection, seat and all; the old one is told why and closed."""
    with running_server(MUDWIZ_GRACE="120") as server:
        ann = JsonClient(server, "Ann_T")
        code = code_of(ann)
        table = playing(ann)
        again = JsonClient(server, "ann_t", password=code)
        assert asked(again) == [{"type": "password", "name": "Ann_T", "prompt": "Resume code"}]
        state = again.wait_for(lambda m: m["type"] == "state" and m.get("table") == table, since=0)
        assert state["you"] == "Ann_T"
        ann.wait_for(lambda m: m["type"] == "error" and "logged in again on another connection" in m["message"],
                     since=0)
        ann.sock.settimeout(10)
        while ann.sock.recv(4096):  # then closed by the server
            pass
        assert again.request("/who")["type"] == "ok"
        ann.close()
        again.close()
