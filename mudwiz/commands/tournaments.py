"""Tournaments: /tournament new, join, leave or ID, and /tournaments (the lobby's part runs them:
mudwiz/lobby/tournaments.py)."""

from __future__ import annotations

from mudwiz.commands.registry import Kind, Route, Scope, command
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.lobby.directory import Local
from mudwiz.meeting.tournament import tournament_message
from mudwiz.session import Session

USAGE = ("usage: /tournament new GAME swiss ROUNDS [size N] [OPTION ...] [start in MINUTES | start at HH:MM], "
         "/tournament join ID, /tournament leave ID or /tournament ID")


@command("tournament", "/tournament new|join ID|leave ID|ID",
         "open a Swiss tournament (new GAME swiss ROUNDS [size N] [OPTION ...] [start in MINUTES|at HH:MM]), sign up "
         "for one or leave it before its start, or show one's standings and current tables",
         scope=Scope.LOBBY, kind=Kind.GAMES, place=8, route=Route.HOME)
def _tournament(lobby: Lobby, session: Session, arg: str) -> str | None:
    words = arg.split()
    if not words:
        raise BadCommand(USAGE)
    verb = words[0].lower()
    tournaments = lobby.tournaments
    if verb == "new":
        if not isinstance(lobby.directory, Local):
            raise BadCommand("tournaments run on a server of one process for now; this one is a cluster's")
        return tournaments.new(session, words[1:])
    if verb in ("join", "leave"):
        if len(words) != 2:
            raise BadCommand(f"usage: /tournament {verb} ID")
        return tournaments.join(session, words[1]) if verb == "join" else tournaments.leave(session, words[1])
    if len(words) != 1:
        raise BadCommand(USAGE)
    session.deliver(tournament_message(tournaments.find(words[0])))
    return None


@command("tournaments", "/tournaments", "the open, running and recent tournaments",
         scope=Scope.LOBBY, kind=Kind.GAMES, place=9, route=Route.HOME)
def _tournaments(lobby: Lobby, session: Session, arg: str) -> str | None:
    if lobby.records is None:
        raise BadCommand("this server keeps no records, so it runs no tournaments")
    session.deliver(lobby.tournaments.listing())
    return None
