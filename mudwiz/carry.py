"""A logged-in connection's state carried from one process of the server to another, sans-I/O: what the user
chose and what their terminal said (name and account, mode, width and rows, language, charset, ambiguous width,
pager), where the login stands, and whether a prompt is open. ``snapshot`` reads it from a ``Connection`` as JSON;
``restore`` puts it into a new ``Connection`` of the other process. ``leave`` and ``restore`` move the user from
one process's lobby to the other's without a word: nobody is told they left or arrived, since, for everyone
else, they did neither (no "has left", no notify line, no channel left). The framing's state and the socket
itself go with it (mudwiz/net/handed.py)."""

from __future__ import annotations

from typing import Any

from mudwiz.connection import Connection
from mudwiz.login import Input, State
from mudwiz.usertext import skeleton

FIELDS = ("name", "mode", "mode_chosen", "charset", "lang", "lang_chosen", "lang_heard", "charset_before",
          "ambiguous", "width", "rows", "terminal", "pager", "pager_rows", "registered", "bbs")


def movable(connection: Connection) -> bool:
    """Whether this connection can move now: not while logging in or in a password dialogue, a reply being paged,
    nor at a table of this process or visiting another's."""
    session = connection.session
    return connection.login.state is State.IN and not connection.paged.paging and session.table is None \
        and session.elsewhere is None


def snapshot(connection: Connection) -> dict[str, Any]:
    """The connection's state, as JSON."""
    session = connection.session
    return {"session": {name: getattr(session, name) for name in FIELDS},
            "ignoring": sorted(session.ignoring or ()), "code": connection.lobby.resume_code(session),
            "prompt_open": connection.replies.prompt_open, "line_open": connection.replies.line_open}


def leave(connection: Connection) -> None:
    """The user is no longer this process's: out of its lobby and its ``/who``, the other processes told only that
    their row is gone from here (``restore`` says it is there), with no "has left" and no logout."""
    lobby, session = connection.lobby, connection.session
    lobby.people.leave(session)
    lobby.names.forget_look(session.name)
    lobby.directory.user_off(session, None)
    session.connected = False


def restore(connection: Connection, state: dict[str, Any]) -> None:
    """``snapshot``'s state in a new connection of this process, logged in under its name without a word: the
    name was proven where it came from, and its resume code (a guest's) and ``/ignore`` list come with it."""
    lobby, session = connection.lobby, connection.session
    for name, value in state["session"].items():
        if name in FIELDS:
            setattr(session, name, value)
    key = session.name.lower()
    if state.get("code") and not session.registered:
        lobby.names.resume_codes[key] = str(state["code"])
    if state.get("ignoring"):
        lobby.people.ignores[key] = set(state["ignoring"])
    lobby.names.looks[skeleton(session.name)] = key
    lobby.people.enter(session)
    lobby.directory.user_on(session)  # the other processes: their row is here now
    connection.login.fire(Input.ENTER)
    connection.replies.prompt_open = bool(state.get("prompt_open"))
    connection.replies.line_open = bool(state.get("line_open"))
    if connection.on_login is not None:
        connection.on_login()
