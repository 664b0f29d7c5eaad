"""``/unregister`` on a fake clock, on each backend: real connections fed lines, the real lobby, accounts and
store (test_sysops.py's ``Server``). The account's password asked as ``/password`` asks it; the right one deletes
the account and what is kept with it, and its owner plays on as a guest with a resume code; a wrong one changes
nothing and counts as a failed login; a guest, a sysop and a password typed after the verb are refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import Backend
from test_ratings import game
from test_sysops import SECRET, Server, User

from mudwiz.ratings import rate_game


@pytest.fixture
def server(backend: Backend) -> Server:
    return Server(backend)


def unregister(user: User, password: str) -> dict[str, Any]:
    """``/unregister`` answered with ``password``: the reply to the answer (ok or error)."""
    asked = user.line(json.dumps({"id": "u", "cmd": "/unregister"}))
    assert asked[0]["type"] == "ok" and "your password, to delete the account" in asked[0]["text"], asked
    assert asked[1]["type"] == "password" and asked[1]["prompt"] == "Password", asked
    return next(m for m in user.line(json.dumps({"id": "pw", "cmd": password})) if m.get("id") == "pw")


def test_the_right_password_deletes_the_account_and_its_rows_and_the_owner_plays_on_as_a_guest(
        server: Server) -> None:
    server.account("Reg")
    server.account("Friend")
    store = server.store
    store.record_game(game("Reg", "Friend", "guest"), rate_game)
    store.leave_message("Friend", "reg", "rematch?", 1.0, limit=5)
    store.add_notify("friend", "Reg", limit=5)
    store.add_ignore("friend", "Reg", limit=5)
    reg = server.connect("reg", SECRET)
    assert reg.of_type("welcome")[0]["resume"] is None and reg.connection.session.registered
    assert reg.reply("/plan add evenings")["type"] == "ok" and reg.reply("/notify Friend")["type"] == "ok"
    assert reg.reply("/channel join help")["type"] == "ok" and reg.reply("/ignore friend")["type"] == "ok"
    assert store.channels_of("reg") == ["help"]
    reg.reply("/who")
    assert reg.of_type("who")[-1]["users"][0]["rating"] is not None  # read into the lobby's board

    done = unregister(reg, SECRET)
    assert done["type"] == "ok", done
    code = done["resume"]
    assert done["text"] == (
        "Reg is no longer registered: its password, ratings, plan, notify and ignore lists (yours and your name on "
        "others'), messages and kept channels are deleted; its finished games stay in the records under the name. "
        f"You stay on as a guest (your resume code is {code}); once you log out the name is anyone's")
    session = reg.connection.session
    assert not session.registered and server.lobby.resume_code(session) == code
    assert store.account("reg") is None and store.ratings_of("reg") == [] and store.profile("reg") is None
    assert store.messages("reg") == [] and store.notifying("reg") == [] and store.notify_list("reg") == []
    assert store.ignore_list("reg") == [] and store.ignore_list("friend") == []
    assert store.channels_of("reg") == [] and [g.outcome for g in store.games_of("reg")] == ["finished"]
    reg.reply("/who")
    assert reg.of_type("who")[-1]["users"][0]["rating"] is None  # the board forgot it
    assert reg.reply("/plan add more")["message"].startswith("a plan is kept with an account, and you are a guest")
    assert reg.reply("/password")["type"] == "error" and reg.reply("/unregister")["type"] == "error"
    assert reg.reply("/say still here")["type"] == "ok"  # on as a guest, on the channel too for this session

    reg.drop()
    assert not server.lobby.holds_name("reg") and "reg" not in server.lobby.resume_codes
    newcomer = server.connect("REG")  # nothing holds the name: anyone's, at once, with no password
    welcome = newcomer.of_type("welcome")[0]
    assert welcome["name"] == "REG" and welcome["resume"] not in (None, code)
    assert newcomer.reply("/register")["type"] == "ok"  # and registrable again


def test_a_wrong_password_changes_nothing_and_counts_as_a_failed_login(server: Server) -> None:
    server.account("Reg")
    reg = server.connect("Reg", SECRET)
    refused = unregister(reg, "not the password")
    assert refused == {"type": "error", "id": "pw",
                       "message": "wrong password; Reg is still registered, nothing changed"}
    assert server.store.account("reg") is not None and reg.connection.session.registered
    for _ in range(4):
        unregister(reg, "still not it")
    held = unregister(reg, SECRET)  # the sixth try, right or not, waits out the hold as a login would (the
    # owner's address is trusted past a hold of the name, not past its own)
    assert held == {"type": "error", "id": "pw", "message": "too many failed logins from 10.0.0.1; try again in 60 s"}
    assert server.store.account("reg") is not None
    server.clock.advance(61)
    assert unregister(reg, SECRET)["type"] == "ok" and server.store.account("reg") is None


def test_a_guest_a_sysop_and_a_password_after_the_verb_are_refused_in_one_line(server: Server) -> None:
    guest = server.connect("Visitor")
    refused = guest.reply("/unregister")
    assert refused["type"] == "error" and refused["message"] == (
        "only a registered name logged in with its password has an account to give up")
    server.account("Sys", "sysop")
    sysop = server.connect("Sys", SECRET)
    refused = sysop.reply("/unregister")
    assert refused["message"] == ("Sys is a sysop: the role is taken away first, on the server's machine (mudwiz "
                                  "admin revoke Sys sysop); nothing was changed")
    assert len(sysop.of_type("password")) == 1 and server.store.account("sys") is not None  # the login's alone
    refused = sysop.reply(f"/unregister {SECRET}")
    assert "takes nothing after it" in refused["message"] and SECRET not in refused["message"]
    server.store.revoke_role("sys", "sysop")
    assert unregister(sysop, SECRET)["type"] == "ok"


def test_a_player_who_unregisters_mid_game_and_drops_gets_the_seat_back_with_the_code(server: Server) -> None:
    server.account("Reg")
    reg = server.connect("Reg", SECRET)
    for command in ("/new wizard", "/bot add random", "/bot add random", "/start"):
        assert reg.reply(command)["type"] == "ok", command
    code = unregister(reg, SECRET)["resume"]
    reg.drop()
    assert "reg" in server.lobby.away  # the seat is kept, for a guest now
    thief = server.connect("reg")
    assert thief.of_type("password")[-1]["prompt"] == "Resume code"
    assert "wrong resume code for Reg" in thief.line("ABC-DEF-GHJ")[0]["message"]
    back = server.connect("reg", code)
    assert back.of_type("welcome")[0]["resume"] == code and back.connection.session.table is not None
