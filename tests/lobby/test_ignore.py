"""/ignore over connections fed lines: the real lobby, tables and sessions, whose ``deliver`` drops an ignored
name's chat (lobby, table, tell) and nothing else."""

from __future__ import annotations

from outbox import Outbox
from twisted.internet.task import Clock

from mudwiz.connection import Connection
from mudwiz.lobby import Lobby


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
    assert "you no longer see Eve's chat and tells; /unignore Eve undoes it" in heard.take()  # as she spells it
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
    assert "you ignore eve" in heard.take()
    ann.receive("/unignore EVE")
    assert "you see EVE's chat and tells again" in heard.take()
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
