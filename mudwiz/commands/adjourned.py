"""Games that wait for their people: /adjourn, /resume and /adjourned (the lobby's part does the agreeing:
mudwiz/lobby/adjourning.py; the game's side is mudwiz/table/adjourning.py)."""

from __future__ import annotations

from typing import Any

from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.lobby.adjourning import adjourned_rows
from mudwiz.session import Session
from mudwiz.store import iso_time
from mudwiz.table import table_of
from mudwiz.texts import later


@command("adjourn", "/adjourn", later('stop the game for now, kept for its players to /resume later; with other '
                                      'people playing, every one of them agrees (/adjourn)'),
         scope=Scope.TABLE, kind=Kind.TABLES, place=16, route=Route.TABLE)
def _adjourn(lobby: Lobby, session: Session, arg: str) -> Reply:
    table = table_of(session)
    if table is None:
        raise BadCommand(later('you are not at a table: /adjourn stops the game you are playing'))
    return lobby.adjournments.adjourn(session, table)


@command("resume", "/resume [N]", later('take your seat back in your adjourned game at table N (/adjourned lists '
                                        'them); at an adjourned game, go on without those still away (every person '
                                        'back agrees)'),
         scope=Scope.LOBBY, kind=Kind.TABLES, place=17, route=Route.TABLE)
def _resume(lobby: Lobby, session: Session, arg: str) -> Reply:
    here = table_of(session)
    if not arg.strip():
        if here is None:
            raise BadCommand(later('usage: /resume N; /adjourned lists your adjourned games'))
        return lobby.adjournments.go_on(session, here)
    table = lobby.table(arg, "/resume N")
    if here is not None and here is not table:
        raise BadCommand(later('you are at table {id}; /leave it first', id=here.id))
    if here is table:
        if table.adjourned is None:
            raise BadCommand(later('you are at table {id} already, and its game is not adjourned', id=table.id))
        raise BadCommand(later('you are back at table {id} already: it waits for {join} (/resume alone goes on '
                               'without them)', id=table.id, join=', '.join(table.waiting_for())))
    if not table.holds_seat_for(session.name):
        raise BadCommand(later('you have no seat kept at table {id}; /adjourned lists your adjourned games',
                               id=table.id))
    lobby.may_move(session)
    table.sit(session)
    lobby.talk.show_table(session, table.id)
    return later('you are back at table {id}', id=table.id)


def adjourned_message(lobby: Lobby, name: str) -> dict[str, Any]:
    """``name``'s adjourned games, on every process, with when each was adjourned and until when it is kept."""
    rows = adjourned_rows(lobby.table_summaries(), name, lobby.kept.adjourn_keep)
    for row in rows:
        row["since"], row["until"] = iso_time(row["since"]), iso_time(row["until"])
    return {"type": "adjourned", "name": name, "games": rows}


@command("adjourned", "/adjourned [NAME]", later('the adjourned games you (or NAME) have a seat in, and until when '
                                                 'each is kept'),
         scope=Scope.LOBBY, kind=Kind.TABLES, place=18, route=Route.HOME)
def _adjourned(lobby: Lobby, session: Session, arg: str) -> Reply:
    name = arg.strip() or session.name
    if " " in name:
        raise BadCommand(later('usage: /adjourned [NAME]'))
    session.deliver(adjourned_message(lobby, name))
    return None
