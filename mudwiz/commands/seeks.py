"""Finding a game: /seek, /seeks, /unseek and /quick in the lobby, /again at a table after a game."""

from __future__ import annotations

from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.errors import BadCommand
from mudwiz.games import available
from mudwiz.lobby import Lobby
from mudwiz.meeting.seekwords import USAGE, parse_seek
from mudwiz.session import Session
from mudwiz.table import table_of
from mudwiz.texts import later


@command("seek", "/seek GAME [N] [OPTION ...]",
         later("ask for a game; in full {removeprefix}: N players (the game's usual 4), table options as /option "
               'sets them, against others rated min..max; matched seeks make a table that starts after a short '
               'countdown (/leave backs out)', removeprefix=USAGE.removeprefix('usage: ')),
         scope=Scope.MOVE, kind=Kind.TABLES, place=11, route=Route.NOT_ELSEWHERE)
def _seek(lobby: Lobby, session: Session, arg: str) -> Reply:
    lobby.may_move(session)
    return lobby.seeking.seek(session, parse_seek(arg.split()))


@command("seeks", "/seeks", later('list the open seeks: who, game, players, options, rating range'),
         scope=Scope.LOBBY, kind=Kind.TABLES, place=12, route=Route.HOME)
def _seeks(lobby: Lobby, session: Session, arg: str) -> Reply:
    return lobby.seeking.listing(session)


@command("unseek", "/unseek", later('withdraw your seek'),
         scope=Scope.LOBBY, kind=Kind.TABLES, place=13, route=Route.HOME)
def _unseek(lobby: Lobby, session: Session, arg: str) -> Reply:
    return lobby.seeking.unseek(session)


@command("quick", "/quick GAME",
         later('play GAME soon: join the best open seek or a table waiting for players, else seek a game whose empty '
               'seats bots fill after a wait'),
         scope=Scope.MOVE, kind=Kind.TABLES, place=14, route=Route.NOT_ELSEWHERE)
def _quick(lobby: Lobby, session: Session, arg: str) -> Reply:
    words = arg.split()
    if len(words) != 1:
        raise BadCommand(later('usage: /quick GAME, one of: {join}', join=', '.join(available())))
    lobby.may_move(session)
    return lobby.seeking.quick(session, words[0])


@command("again", "/again", later('after a game: propose (or agree to) the same seats and options again; it starts '
                                  'when every person seated agrees'),
         scope=Scope.TABLE, kind=Kind.TABLES, place=15, route=Route.TABLE)
def _again(lobby: Lobby, session: Session, arg: str) -> Reply:
    table = table_of(session)
    if table is None:
        raise BadCommand(later('you are not at a table: /again is for after a game there'))
    return lobby.seeking.rematches.again(session, table)
