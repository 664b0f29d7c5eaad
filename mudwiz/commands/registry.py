"""The one registry of commands: each declares its usage and help, where it may be typed (its scope), its kind
in ``/help`` and how a cluster routes it. What depends on a command's context reads it from here: the commands a
connection allows before login, ``/help``'s rows and the cluster's forwarding (mudwiz/cluster/visits.py).

It stands below the lobby (a command's lobby is typed ``Any`` here), so the cluster can read it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from mudwiz.routes import Route
from mudwiz.session import Session
from mudwiz.slices import Reply
from mudwiz.texts import Later

__all__ = ["COMMANDS", "Command", "Kind", "Reply", "Route", "Scope", "command", "help_kinds", "pre_login", "route_of"]

Run = Callable[[Any, Session, str], Reply]  # (lobby, session, what follows the verb)


class Scope(Enum):
    """Where a command may be typed."""

    PRE_LOGIN = "before login"  # i18n: not text; before a name is given too (and everywhere after)
    LOBBY = "lobby"  # once logged in, at a table or not
    TABLE = "table"  # at a table
    MOVE = "move"  # takes the user to a table: not while at one


class Kind(Enum):
    """A command's kind: ``/help`` lists the commands a kind a row, in this order."""

    LOBBY = "Lobby"
    PEOPLE = "People"  # finger, plans, notify lists, messages
    TABLES = "Tables"
    GAMES = "Games"
    ACCOUNT = "Account"
    SYSOP = "Sysop"  # listed to sysops only
    OTHER = "Other"


@dataclass(frozen=True)
class Command:
    """A command as the registry declares it: what it does, and in which context (everything else about it, the
    commands allowed before login, the rows of ``/help`` and the cluster's routing, is read from here)."""

    name: str
    usage: str
    help: str | Later  # a ``later`` text: /help is read in each reader's language
    run: Run
    scope: Scope
    kind: Kind
    place: int  # its place among its kind's in ``/help``'s summary
    route: Route


COMMANDS: dict[str, Command] = {}


def command(name: str, usage: str, help: str | Later, *, scope: Scope, kind: Kind, place: int,
            route: Route) -> Callable[[Run], Any]:
    def register(fn: Run) -> Run:
        COMMANDS[name] = Command(name, usage, help, fn, scope, kind, place, route)
        return fn

    return register


def pre_login() -> tuple[str, ...]:
    """The commands a connection may type before it gives a name, as typed (``/help``)."""
    return tuple(f"/{c.name}" for c in COMMANDS.values() if c.scope is Scope.PRE_LOGIN)


def help_kinds() -> dict[str, tuple[str, ...]]:
    """The names of each kind's commands, kinds and names in ``/help``'s order (a kind with none left out)."""
    kinds = {kind.value: sorted((c for c in COMMANDS.values() if c.kind is kind), key=lambda c: c.place)
             for kind in Kind}
    return {label: tuple(c.name for c in listed) for label, listed in kinds.items() if listed}


def route_of(verb: str) -> Route | None:
    """How a cluster routes ``/verb`` (None: no command of the registry, a game's verb or a mistake)."""
    cmd = COMMANDS.get(verb)
    return cmd.route if cmd is not None else None
