"""/ignore over connections fed lines: the real lobby, tables and sessions, whose ``deliver`` drops an ignored
name's chat (lobby, table, tell) and their lines among a channel's recent ones, and nothing else; a registered
player's list kept in the store (a real SQLite file) through a restart, hiding the messages left by those on it."""

from __future__ import annotations

import json
from pathlib import Path

from outbox import Outbox
from twisted.internet.task import Clock

from mudwiz.accounts import Accounts
from mudwiz.connection import Connection
from mudwiz.lobby import Lobby
from mudwiz.store import Store, open_store
from mudwiz.table import Records


def connect(lobby: Lobby, name: str) -> tuple[Connection, Outbox]:
    outbox = Outbox()
    connection = Connection(lobby, outbox, "", address="10.0.0.1")
    connection.start()
    connection.receive(name)
    outbox.take()
    return connection, outbox


def test_an_ignored_name_is_not_heard_in_the_lobby_at_a_table_or_in_a_tell() -> None:
    lobby = Lobby(Clock(), seed=1)
    ann, heard = connect(lobby, "ann")
    eve, _ = connect(lobby, "Eve")
    bob, _ = connect(lobby, "bob")
    ann.receive("/ignore eve")
    # as she spells it
    assert "you no longer see Eve's chat, tells and messages; /unignore Eve undoes it" in heard.take()
    eve.receive("hello all")
    bob.receive("hi there")
    eve.receive("/tell ann psst")
    said = heard.take()
    assert "hi there" in said and "hello all" not in said and "psst" not in said
    for line in ("/new wizard",):
        ann.receive(line)
    eve.receive("/join 1")
    assert "Eve" in heard.take()  # only her chat: the table's notices about her still come
    bob.receive("/join 1")
    heard.take()
    eve.receive("table talk from eve")
    bob.receive("table talk from bob")
    said = heard.take()
    assert "table talk from bob" in said and "table talk from eve" not in said
    ann.receive("/ignore")
    assert "you ignore Eve" in heard.take()  # as she spells it, not as kept (in lower case)
    ann.receive("/unignore EVE")
    assert "you see Eve's chat, tells and messages again" in heard.take()
    eve.receive("back again")
    assert "back again" in heard.take()


def test_ignoring_outlasts_a_reconnect_and_a_guests_name_set_free_forgets_it() -> None:
    lobby = Lobby(Clock(), seed=1, grace=30)
    ann, heard = connect(lobby, "ann")
    eve, _ = connect(lobby, "eve")
    ann.receive("/ignore eve")
    ann.receive("/quit")
    ann.lost()
    again, heard = connect(lobby, "ann")  # the name was free again: a new guest called ann ignores nobody
    eve.receive("hello")
    assert "hello" in heard.take()
    again.receive("/new wizard")
    again.receive("/ignore eve")
    again.receive("/bot add random")
    again.receive("/bot add random")
    again.receive("/start")
    code = lobby.resume_codes["ann"]
    again.lost()  # mid-game: the seat and the name are kept for her
    back, heard = connect(lobby, "ann")
    back.receive(code)
    heard.take()
    eve.receive("still here")
    assert "still here" not in heard.take()


def test_ignore_refuses_what_makes_no_sense_in_one_line() -> None:
    lobby = Lobby(Clock(), seed=1)
    ann, heard = connect(lobby, "ann")
    connect(lobby, "eve")
    for line, error in (("/ignore ann", "that is you"), ("/ignore nobody_here", "nobody is called nobody_here"),
                        ("/ignore a b", "usage: /ignore NAME"), ("/unignore eve", "you do not ignore eve"),
                        ("/unignore", "usage: /unignore NAME")):
        ann.receive(line)
        assert error in heard.take(), line
    ann.receive("/ignore eve")
    heard.take()
    ann.receive("/ignore EVE")
    assert "you ignore EVE already" in heard.take()


def test_a_channels_recent_lines_leave_out_an_ignored_speaker() -> None:
    lobby = Lobby(Clock(), seed=1)
    ann, heard = connect(lobby, "ann")
    eve, _ = connect(lobby, "eve")
    bob, _ = connect(lobby, "bob")
    for who in (eve, bob):
        who.receive("/channel join cards")
    eve.receive("/ch cards buy my spam")
    bob.receive("/ch cards who plays wizard?")
    ann.receive("/ignore eve")
    heard.take()
    ann.receive("/channel join cards")
    shown = heard.take()
    assert "who plays wizard?" in shown and "buy my spam" not in shown, shown


def lobby_on(store: Store) -> Lobby:
    """A server process on ``store``: a new one after a restart knows only what the store kept."""
    clock = Clock()
    clock.advance(1_700_000_000)
    lobby = Lobby(clock, seed=1, records=Records.inline(store))
    lobby.accounts = Accounts(store, clock)
    return lobby


def login(lobby: Lobby, name: str) -> tuple[Connection, Outbox, str]:
    """Logged in with the password, then in JSON mode; with what the login showed (in text)."""
    connection, outbox = connect(lobby, name)
    connection.receive("secret")
    shown = outbox.take()
    connection.receive("/mode json")
    outbox.take()
    return connection, outbox, shown


def said(outbox: Outbox) -> list[dict]:
    return [json.loads(line) for line in outbox.take().splitlines() if line.startswith("{")]


def test_a_registered_players_ignore_list_outlasts_a_restart_and_hides_the_ignored_names_messages(
        tmp_path: Path) -> None:
    store = open_store(tmp_path)
    lobby = lobby_on(store)
    for name in ("Ann", "Eve", "Bob"):
        store.create_account(name, lobby.accounts.hasher.hash("secret"))  # type: ignore[union-attr]
    ann, heard, _ = login(lobby, "ann")
    ann.receive("/ignore eve")
    assert "you no longer see Eve's" in heard.take()  # offline: as registered, not as typed
    assert store.ignore_list("ann") == ["eve"]
    ann.receive("/ignore")
    assert "you ignore Eve" in heard.take()  # offline, as registered
    store.leave_message("Eve", "ann", "buy my spam", 1.0, limit=10)
    store.leave_message("Bob", "ann", "rematch at 8?", 2.0, limit=10)

    lobby = lobby_on(store)  # the server restarted: its memory is gone, the store is not
    ann, heard, shown = login(lobby, "ann")
    assert "You have 1 new message;" in shown  # Bob's; Eve's is not counted
    eve, _, _ = login(lobby, "eve")
    eve.receive("hello ann")
    ann.receive(json.dumps({"id": 1, "cmd": "/messages"}))
    shown = said(heard)
    assert not any(m["type"] == "chat" for m in shown), shown
    [box] = [m for m in shown if m["type"] == "messages"]
    assert [(m["from"], m["text"]) for m in box["messages"]] == [("Bob", "rematch at 8?")]
    assert box["hidden"] == 1  # Eve's still takes a place in the box: /messages clear deletes it
    ann.receive("/mode ascii")
    heard.take()
    ann.receive("/messages")
    text = heard.take()
    assert "Messages (2 of 50)" in text and "1 more, from a name you ignore, is not shown." in text, text

    ann.receive("/unignore eve")
    assert store.ignore_list("ann") == []
    lobby = lobby_on(store)
    ann, heard, _ = login(lobby, "ann")
    ann.receive(json.dumps({"id": 2, "cmd": "/messages"}))
    [box] = [m for m in said(heard) if m["type"] == "messages"]
    assert [m["from"] for m in box["messages"]] == ["Eve", "Bob"]
