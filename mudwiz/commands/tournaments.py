"""Tournaments: /tournament new, join, leave or ID, and /tournaments, done by the tournaments' desk here or, in a
cluster, on the process they run on (mudwiz/lobby/tournament_desk.py; mudwiz/lobby/tournaments.py runs them)."""

from __future__ import annotations

from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.session import Session
from mudwiz.texts import later

USAGE = (later('usage: /tournament new GAME swiss ROUNDS [size N] [OPTION ...] [start in MINUTES | start at HH:MM], '
               '/tournament join ID, /tournament leave ID or /tournament ID'))


@command("tournament", "/tournament new|join ID|leave ID|ID",
         later('open a Swiss tournament (new GAME swiss ROUNDS [size N] [OPTION ...] [start in MINUTES|at HH:MM]), '
               "sign up for one or leave it before its start, or show one's standings and current tables"),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=9, route=Route.HOME)
def _tournament(lobby: Lobby, session: Session, arg: str) -> Reply:
    words = arg.split()
    if not words:
        raise BadCommand(USAGE)
    verb = words[0].lower()
    desk = lobby.tournaments.desk
    if verb == "new":
        return desk.ask(session, "new", {"words": words[1:]})
    if verb in ("join", "leave"):
        if len(words) != 2:
            raise BadCommand(later('usage: /tournament {verb} ID', verb=verb))
        return desk.ask(session, verb, {"id": words[1]})
    if len(words) != 1:
        raise BadCommand(USAGE)
    return desk.ask(session, "show", {"id": words[0]})


@command("tournaments", "/tournaments", later('the open, running and recent tournaments'),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=10, route=Route.HOME)
def _tournaments(lobby: Lobby, session: Session, arg: str) -> Reply:
    if lobby.records is None:
        raise BadCommand(later('this server keeps no records, so it runs no tournaments'))
    return lobby.tournaments.desk.ask(session, "list", {})
