"""The table commands: open, join, watch or leave one, set it up, seat bots, start, confirm, look."""

from __future__ import annotations

from mudwiz.commands.lobby import who_message
from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.errors import BadCommand
from mudwiz.games import available
from mudwiz.lobby import Lobby
from mudwiz.session import Session
from mudwiz.table import Table, table_of
from mudwiz.texts import later


def _table(session: Session) -> Table:
    table = table_of(session)
    if table is None:
        raise BadCommand(later('you are not at a table; /tables lists them, /new {value} opens one',
                               value=(available() or ['GAME'])[0]))
    return table


@command("new", "/new GAME", later('open a table of GAME ({join}) and sit as its host', join=', '.join(available())),
         scope=Scope.MOVE, kind=Kind.TABLES, place=1, route=Route.NOT_ELSEWHERE)
def _new(lobby: Lobby, session: Session, arg: str) -> Reply:
    if not arg:
        raise BadCommand(later('usage: /new GAME, one of: {join}', join=', '.join(available())))
    lobby.may_move(session)
    table = lobby.new_table(session, arg.split()[0])
    return later('table {id} is yours: /option to set it up, /bot add to fill seats, /start to play', id=table.id)


@command("join", "/join N", later('sit down at table N'),
         scope=Scope.MOVE, kind=Kind.TABLES, place=2, route=Route.NOT_ELSEWHERE)
def _join(lobby: Lobby, session: Session, arg: str) -> Reply:
    table = lobby.table(arg)
    if session.table is not None and session.table is not table:
        raise BadCommand(later('you are at table {id}; /leave it first', id=session.table.id))
    lobby.may_move(session)
    table.sit(session)
    lobby.talk.show_table(session, table.id)
    return later('you sit at table {id}', id=table.id)


@command("watch", "/watch N", later('observe table N (observers see no hands)'),
         scope=Scope.MOVE, kind=Kind.TABLES, place=3, route=Route.NOT_ELSEWHERE)
def _watch(lobby: Lobby, session: Session, arg: str) -> Reply:
    table = lobby.table(arg, "/watch N")
    if session.table is not None:
        raise BadCommand(later('you are at table {id}; /leave it first', id=session.table.id))
    lobby.may_move(session)
    table.watch(session)
    lobby.talk.show_table(session, table.id)
    return later('you watch table {id}', id=table.id)


@command("leave", "/leave", later('leave your table (mid-game a bot takes your seat)'),
         scope=Scope.TABLE, kind=Kind.TABLES, place=4, route=Route.TABLE)
def _leave(lobby: Lobby, session: Session, arg: str) -> Reply:
    table = _table(session)
    reply = table.leave(session)
    lobby.seeking.left(session, table)  # a match counting down is called off, a rematch being agreed too
    return reply


@command("option", "/option [NAME [VALUE]]", later("show the table's options, or (host, before /start) set one"),
         scope=Scope.TABLE, kind=Kind.TABLES, place=6, route=Route.TABLE)
def _option(lobby: Lobby, session: Session, arg: str) -> Reply:
    table = _table(session)
    if not arg:
        session.deliver({"type": "options", "table": table.id, "game": table.name, "options": table.option_rows()})
        return None
    name, sep, value = arg.partition("=")
    if not sep:
        name, _, value = arg.partition(" ")
    lobby.may_move(session)
    return table.set_option(session, name.strip(), value.strip() or None)


@command("start", "/start", later('start the game (host; enough players seated)'),
         scope=Scope.TABLE, kind=Kind.TABLES, place=8, route=Route.TABLE)
def _start(lobby: Lobby, session: Session, arg: str) -> Reply:
    _table(session).start(session)
    return None


@command("ok", "/ok", later("confirm the round's result, ready for the next round"),
         scope=Scope.TABLE, kind=Kind.TABLES, place=9, route=Route.TABLE)
def _ok(lobby: Lobby, session: Session, arg: str) -> Reply:
    return _table(session).ok(session)


@command("score", "/score", later('show the score sheet'),
         scope=Scope.TABLE, kind=Kind.TABLES, place=10, route=Route.TABLE)
def _score(lobby: Lobby, session: Session, arg: str) -> Reply:
    table = _table(session)
    state = table.state_for(session)
    session.deliver({"type": "score", "table": table.id, "game": table.name, "players": state["players"],
                     "sheet": state.get("sheet", [])})
    return None


@command("look", "/look", later('redraw the table (or, in the lobby, who is here and the tables)'),
         scope=Scope.LOBBY, kind=Kind.TABLES, place=5, route=Route.TABLE)
def _look(lobby: Lobby, session: Session, arg: str) -> Reply:
    if session.table is None:
        session.deliver(who_message(lobby))
        session.deliver({"type": "tables", "tables": lobby.table_summaries()})
        return None
    session.table.send_state(session, look=True)
    return None


@command("bot", "/bot add [LEVEL] | /bot remove NAME", later('seat a computer player (host, before /start)'),
         scope=Scope.TABLE, kind=Kind.TABLES, place=7, route=Route.TABLE)
def _bot(lobby: Lobby, session: Session, arg: str) -> Reply:
    from mudwiz.bots import known_level, levels
    from mudwiz.lobby.matching import bot_level
    from mudwiz.table.botseat import BotSession

    table = _table(session)
    words = arg.split()
    if not words or words[0] not in ("add", "remove"):
        raise BadCommand(later('usage: /bot add [LEVEL] or /bot remove NAME; levels: {join}', join=', '.join(levels())))
    if not table.is_host(session):
        raise BadCommand(later('only the host ({host}) seats bots', host=table.host))
    if table.in_game:
        raise BadCommand(later('bots are seated before /start'))
    lobby.may_move(session)
    if words[0] == "add":
        if len(words) > 2:
            raise BadCommand(later("usage: /bot add [LEVEL]; levels: {join}", join=", ".join(levels())))
        if len(words) > 1:
            level = known_level(words[1])
        else:  # the level whose fixed rating is nearest the people seated (their mean), as quick play fills seats
            people = [s.name for s in table.roster.humans()] or [session.name]
            rating = sum(lobby.seeking.rating(name, table.name) for name in people) / len(people)
            level = bot_level(table.name, rating)
        bot = BotSession(lobby.free_bot_name(table), level=level, game=table.name,
                         seed=table.seeds.randrange(2**32), stand_in=False)
        table.sit(bot, by=session)  # the others are told by a notice, the host by this reply alone
        return later('{name} ({level}) sits down at table {id}', name=bot.name, level=level, id=table.id)
    if len(words) != 2:
        raise BadCommand(later('usage: /bot remove NAME'))
    seat = table.seat_of(words[1])
    if seat is None or not table.seats[seat].is_bot:
        raise BadCommand(later('there is no bot called {value} at this table', value=words[1]))
    seated = table.seats[seat]
    table.leave(seated, by=session)
    return later('{name} leaves table {id}', name=seated.name, id=table.id)
