"""A connection's state carried to another process (mudwiz/carry.py), sans-I/O: two lobbies stand for two workers;
what the user chose and what their terminal said arrives whole, as JSON, and neither lobby says anyone came or
went. The socket's passing is tests/cluster/test_handoff.py's."""

from __future__ import annotations

import json

from outbox import Outbox
from twisted.internet.task import Clock

from mudwiz import carry
from mudwiz.connection import Connection
from mudwiz.lobby import Lobby
from mudwiz.login import Asking, Purpose


def logged_in(lobby: Lobby, name: str) -> tuple[Connection, Outbox]:
    outbox = Outbox()
    connection = Connection(lobby, outbox)
    connection.start()
    connection.receive(name)
    outbox.take()
    return connection, outbox


def test_the_state_moves_whole_and_nobody_hears_of_it() -> None:
    here, there = Lobby(Clock(), seed=1), Lobby(Clock(), seed=2)
    mover, _ = logged_in(here, "Mover")
    watcher_here, seen_here = logged_in(here, "Ann")
    watcher_there, seen_there = logged_in(there, "Bob")
    for line in ("/mode ascii", "/lang ja", "/width ambiguous 2", "/pager 30", "/ignore Ann"):
        mover.receive(line)
    mover.session.width, mover.session.rows = 52, 30
    code = here.resume_code(mover.session)
    assert code and carry.movable(mover)

    state = json.loads(json.dumps(carry.snapshot(mover)))
    carry.leave(mover)
    outbox = Outbox()
    moved = Connection(there, outbox)
    carry.restore(moved, state)

    assert "mover" not in here.users and there.users["mover"] is moved.session
    session = moved.session
    assert (session.name, session.mode, session.lang, session.ambiguous, session.width, session.rows) == (
        "Mover", "ascii", "ja", 2, 52, 30)
    assert session.lang_chosen and session.mode_chosen and session.pager_rows == 30
    assert session.ignoring == {"ann"} and there.resume_code(session) == code
    assert moved.logged_in and outbox.take() == ""  # no welcome, no prompt: nothing happened, for them
    assert "Mover" not in seen_here.take() and "Mover" not in seen_there.take()  # no "has left", no "has arrived"
    moved.receive("/who")
    assert "Bob" in outbox.take()  # a command like any other, answered where they are now


def test_a_connection_at_a_table_or_in_a_password_dialogue_stays() -> None:
    lobby = Lobby(Clock(), seed=1)
    seated, _ = logged_in(lobby, "Sid")
    seated.receive("/new wizard")
    assert not carry.movable(seated)
    asking, _ = logged_in(lobby, "Ria")
    asking.login.ask(Asking(Purpose.PASSWORD, "Ria"))  # as /password asks, on a server with accounts
    assert not carry.movable(asking)
