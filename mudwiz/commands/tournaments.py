"""Tournaments: /tournament new, join, leave or ID, and /tournaments (the lobby's part runs them:
mudwiz/lobby/tournaments.py)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.errors import BadCommand
from mudwiz.games import game_class
from mudwiz.lobby import Lobby
from mudwiz.lobby.directory import Local
from mudwiz.meeting.swiss import standings
from mudwiz.meeting.tournament import Tournament
from mudwiz.session import Session
from mudwiz.texts import later


def tournament_message(tournament: Tournament) -> dict[str, Any]:
    """What ``/tournament ID`` shows: the standings so far and the current round's tables."""
    rows = standings(tournament.entrants, tournament.results())
    current = tournament.tables[-1] if tournament.tables else []
    return {"type": "tournament", **{k: v for k, v in tournament.to_json().items() if k not in ("tables",)},
            "title": game_class(tournament.game).title,
            "table_rows": [{k: t[k] for k in ("table", "seats", "bots", "result")} for t in current],
            "standings": tournament.standings or [asdict(r) for r in rows]}


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
    tournaments = lobby.tournaments
    if verb == "new":
        if not isinstance(lobby.directory, Local):
            raise BadCommand(later("tournaments run on a server of one process for now; this one is a cluster's"))
        return tournaments.new(session, words[1:])
    if verb in ("join", "leave"):
        if len(words) != 2:
            raise BadCommand(later('usage: /tournament {verb} ID', verb=verb))
        return tournaments.join(session, words[1]) if verb == "join" else tournaments.leave(session, words[1])
    if len(words) != 1:
        raise BadCommand(USAGE)
    session.deliver(tournament_message(tournaments.find(words[0])))
    return None


@command("tournaments", "/tournaments", later('the open, running and recent tournaments'),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=10, route=Route.HOME)
def _tournaments(lobby: Lobby, session: Session, arg: str) -> Reply:
    if lobby.records is None:
        raise BadCommand(later('this server keeps no records, so it runs no tournaments'))
    session.deliver(lobby.tournaments.listing())
    return None
