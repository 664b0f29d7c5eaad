"""Slash commands: parse a line into a call on the lobby or a table. One registry also writes ``/help``.

A command returns a short confirmation (or None) and raises a ``MudwizError`` for anything it refuses; the
connection turns those into ``ok``/``error`` replies. Game moves (``/bid``, ``/play``, ``/pass``, …) are not
listed here one by one: any verb the table's game declares in its ``VERBS`` goes to the engine as it is.

Each module holds one kind of command and registers them in ``registry`` as it is imported: the catalogue lists
them in that order, so the imports below keep it.
"""

from __future__ import annotations

from mudwiz.errors import BadCommand, IllegalAction
from mudwiz.games import available, game_class
from mudwiz.lobby import Lobby
from mudwiz.session import Session

# isort: off
from mudwiz.commands.registry import (COMMANDS, Command, Kind, Reply, Route, Run, Scope, command, help_kinds,
                                      pre_login, route_of)
from mudwiz.commands.help import catalogue, help_text, help_width, is_sysop, offered
from mudwiz.commands.lobby import who_message
from mudwiz.commands import accounts, sysop, tables
from mudwiz.commands.records import history_row, in_slices, rating_row, replay_sheet
from mudwiz.commands.rules import rules_sections, rules_text
from mudwiz.commands import talk
from mudwiz.commands import seeks
from mudwiz.commands import adjourned  # noqa: F401  # /adjourn, /resume, /adjourned
from mudwiz.commands import tournaments  # noqa: F401  # /tournament, /tournaments
from mudwiz.commands import friends  # noqa: F401  # /finger, /plan, /notify, /message: registered as imported
from mudwiz.commands import analysis  # noqa: F401  # /analyze
from mudwiz.texts import later
# isort: on

__all__ = [
    "COMMANDS", "Command", "Kind", "Reply", "Route", "Run", "Scope", "accounts", "catalogue", "command", "dispatch",
    "help_kinds", "help_text", "help_width", "history_row", "in_slices", "is_sysop", "offered", "pre_login",
    "rating_row", "replay_sheet", "route_of", "rules_sections", "rules_text", "seeks", "sysop", "tables", "talk",
    "who_message",
]


# Commands whose first word names a person: an ASCII alias there stands for its owner's name (``/alias``).
PERSON_FIRST = frozenset(("tell", "ignore", "unignore", "kick", "ban", "unban", "history", "rating", "adjourned",
                          "finger", "notify", "unnotify", "message"))


def dispatch(lobby: Lobby, session: Session, line: str) -> Reply:
    """Carry out one line typed by a logged-in user: a /command, or chat to the room they are in."""
    line = line.strip()
    if not line:
        return None
    lobby.talk.active(session, line)  # no longer away
    if not line.startswith("/"):
        lobby.chat(session, line)
        return None
    verb, _, rest = line[1:].partition(" ")
    verb = verb.lower()
    rest = rest.strip()
    cmd = COMMANDS.get(verb)
    if cmd is not None:
        if verb in PERSON_FIRST and rest:  # an alias (/alias) is the name it stands for
            who, space, after = rest.partition(" ")
            rest = lobby.names.named(who) + space + after
        return cmd.run(lobby, session, rest)
    table = session.table
    if table is not None and verb in table.game_class.VERBS:
        table.act(session, f"{verb} {rest}".strip())
        return None
    if any(verb in game_class(g).VERBS for g in available()):
        if table is not None:
            title = table.game_class.title
            raise IllegalAction(later('/{verb} is not a move in {title}; /help {name} lists its moves',
                                      verb=verb, title=title, name=table.name))
        raise IllegalAction(later('/{verb} is a game move: sit at a table first (/tables lists them)', verb=verb))
    raise BadCommand(later('unknown command /{verb}; /help lists the commands', verb=verb))
