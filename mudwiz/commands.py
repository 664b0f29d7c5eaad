"""Slash commands: parse a line into a call on the lobby or a table. One registry also writes ``/help``.

A command returns a short confirmation (or None) and raises a ``MudwizError`` for anything it refuses; the
connection turns those into ``ok``/``error`` replies. Game moves (``/bid``, ``/play``, ``/pass``, …) are not
listed here one by one: any verb the table's game declares in its ``VERBS`` goes to the engine as it is.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from twisted.internet import defer

from mudwiz import replay
from mudwiz.accounts import MIN_PASSWORD, Accounts, looks_registered
from mudwiz.errors import BadCommand, IllegalAction, MudwizError
from mudwiz.games import available, game_class
from mudwiz.games.base import Game
from mudwiz.lobby import WHO_PAGE, Lobby
from mudwiz.numbers import whole_number
from mudwiz.ratings import BOT_PREFIX, bot_rating
from mudwiz.session import CHARSET_MODES, MODES, Session
from mudwiz.slices import Work, unless
from mudwiz.store import GameRecord, GameSummary, Rating, Store, StoreError, iso_time
from mudwiz.sysops import Sysops, shutdown_minutes
from mudwiz.table import TABLE_OPTIONS, Table, table_of

# What a command answers: its ``ok``'s text (None: none), or a Deferred of it, for work run in slices
# (mudwiz/slices.py): the connection answers once it fires, and reads the user's next line only then.
Reply = str | None | defer.Deferred[str | None]
Run = Callable[[Lobby, Session, str], Reply]
T = TypeVar("T")


@dataclass(frozen=True)
class Command:
    name: str
    usage: str
    help: str
    run: Run


COMMANDS: dict[str, Command] = {}


def command(name: str, usage: str, help: str) -> Callable[[Run], Any]:
    def register(fn: Run) -> Run:
        COMMANDS[name] = Command(name, usage, help, fn)
        return fn

    return register


def dispatch(lobby: Lobby, session: Session, line: str) -> Reply:
    """Carry out one line typed by a logged-in user: a /command, or chat to the room they are in."""
    line = line.strip()
    if not line:
        return None
    if not line.startswith("/"):
        lobby.chat(session, line)
        return None
    verb, _, rest = line[1:].partition(" ")
    verb = verb.lower()
    rest = rest.strip()
    cmd = COMMANDS.get(verb)
    if cmd is not None:
        return cmd.run(lobby, session, rest)
    table = session.table
    if table is not None and verb in table.game_class.VERBS:
        table.act(session, f"{verb} {rest}".strip())
        return None
    if any(verb in game_class(g).VERBS for g in available()):
        if table is not None:
            title = table.game_class.title
            raise IllegalAction(f"/{verb} is not a move in {title}; /help {table.name} lists its moves")
        raise IllegalAction(f"/{verb} is a game move: sit at a table first (/tables lists them)")
    raise BadCommand(f"unknown command /{verb}; /help lists the commands")


def _table(session: Session) -> Table:
    table = table_of(session)
    if table is None:
        raise BadCommand(f"you are not at a table; /tables lists them, /new {(available() or ['GAME'])[0]} opens one")
    return table


# ------------------------------------------------------------------ general


@command("help", "/help [COMMAND|GAME|all]",
         "list the commands by kind, or explain one command or one game (all: every command, explained)")
def _help(lobby: Lobby, session: Session, arg: str) -> str | None:
    topic = arg.strip().lstrip("/").lower()
    sysop = is_sysop(lobby, session)
    message = {"type": "help", "topic": topic or None, "text": help_text(topic, session, sysop=sysop)}
    if not topic:
        message |= catalogue(sysop)
    session.deliver(message)
    return None


def catalogue(sysop: bool = False) -> dict[str, Any]:
    """What this server offers, as data (sent with ``welcome`` and ``/help``): clients complete and list
    commands, games and bot levels from it instead of keeping copies that drift from the server's. The sysops'
    own commands are in a sysop's only, as in ``/help``: a client completed ``/kick`` for anyone."""
    from mudwiz.bots import levels  # bots stand on tables and commands, not the other way round

    return {
        "commands": [{"command": f"/{c.name}", "usage": c.usage, "help": c.help} for c in offered(sysop)],
        "games": available(),
        "bot_levels": levels(),
    }


def is_sysop(lobby: Lobby, session: Session) -> bool:
    """Whether ``session`` is a sysop now (a server with no sysops has none)."""
    return lobby.sysops is not None and lobby.sysops.is_sysop(session)


def offered(sysop: bool) -> list[Command]:
    """The commands listed to a user: the sysops' own to a sysop only (to anyone else they are noise)."""
    return [c for c in COMMANDS.values() if sysop or c.name not in HELP_KINDS["Sysop"]]


def _row(usage: str, text: str, width: int = 28, cols: int = 80) -> list[str]:
    """One help entry, wrapped to ``cols`` columns with its text aligned after the usage column (``width``;
    narrower when the window is, so that the text keeps some room)."""
    width = min(width, cols // 3)
    indent = " " * (width + 3)
    head = f"  {usage:<{width}} "
    if len(head) > width + 3:  # a long usage gets a line of its own
        return [f"  {usage}", *textwrap.wrap(text, cols, initial_indent=indent, subsequent_indent=indent)]
    return textwrap.wrap(text, cols, initial_indent=head, subsequent_indent=indent) or [head]


def _verb_rows(verbs: dict[str, str] | Any, cols: int = 80) -> list[str]:
    return [line for usage in verbs.values()
            for line in _row("/" + usage.split(":")[0], usage.partition(":")[2].strip(), cols=cols)]


def help_width(session: Session) -> int:
    """The columns help is wrapped to: the user's window, 40 to 80 (wrapped at 80 and then again by a narrower
    window, a line's last word was left alone on a row of its own)."""
    return max(40, min(80, int(getattr(session, "width", 80) or 80)))


# /help's kinds of command, in the order shown. A command in none of them is listed under "Other", never lost.
HELP_KINDS: dict[str, tuple[str, ...]] = {
    "Lobby": ("who", "tables", "say", "tell", "ignore", "unignore", "mode", "quit", "help"),
    "Tables": ("new", "join", "watch", "leave", "look", "option", "bot", "start", "ok", "score"),
    "Games": ("rules", "spells", "history", "game", "replay", "rating", "top"),
    "Account": ("register", "password"),
    "Sysop": ("kick", "ban", "unban", "bans", "announce", "shutdown"),
}


def _kind_rows(label: str, usages: list[str], width: int = 80) -> list[str]:
    """One kind's usages after its label, wrapped between usages only: a usage cut in two (``/option [NAME`` at
    a line's end) reads as two commands. Below 60 columns the usages wrap under the label (``Lobby:``) four
    columns in, the label alone on its row when the first does not fit after it (after an 11-column label,
    ``/bot add [LEVEL] | /bot remove NAME`` was cut at 40)."""
    narrow = width < 60
    indent = " " * (4 if narrow else 11)
    rows: list[str] = []
    row = f"  {label}: " if narrow else f"  {label:<8} "
    for usage in usages:
        if len(row) + len(usage) > width and row.strip() not in (label, ""):
            rows.append(row.rstrip())
            row = indent
        row += usage + "  "
    return [*rows, row.rstrip()]


SCREEN_ROWS = 24  # /help alone fits a screen of them, with the prompt's row


def _summary(session: Session, sysop: bool, cols: int = 80) -> list[str]:
    """``/help`` alone: every command's usage, a kind a line or two, so that it fits a 24-row screen with the
    moves of the table the user sits at (the whole explanation of each was some sixty rows)."""
    lines = textwrap.wrap("Commands (plain text is chat to your room; /help COMMAND explains one):", cols)
    kinds = {label: list(names) for label, names in HELP_KINDS.items() if sysop or label != "Sysop"}
    listed = {name for names in HELP_KINDS.values() for name in names}
    kinds["Other"] = [name for name in COMMANDS if name not in listed]
    for label, names in kinds.items():
        usages = [COMMANDS[name].usage for name in names if name in COMMANDS]
        if usages:
            lines += _kind_rows(label, usages, cols)
    tail = textwrap.wrap(f"Games: {', '.join(available())}; /help GAME shows one's moves and options.", cols)
    table = session.table
    if table is None:
        return lines + tail
    game = table.game_class
    explained = [f"{game.title} moves at this table:", *_verb_rows(game.VERBS, cols)]
    if len(lines) + len(explained) + len(tail) > SCREEN_ROWS - 1:  # their usages only, as the commands': in a
        # narrow window the explanations ran past the screen
        explained = textwrap.wrap("At this table (/help MOVE explains one):", cols)
        explained += _kind_rows(game.title, [f"/{usage.split(':')[0]}" for usage in game.VERBS.values()], cols)
    return lines + explained + tail


def help_text(topic: str, session: Session, *, sysop: bool = False) -> str:
    """The help on ``topic`` ("" for the summary); ``sysop``: the sysops' own commands are listed too (to
    anyone else they are noise, and ``/help kick`` still explains one)."""
    cols = help_width(session)
    if not topic:
        return "\n".join(_summary(session, sysop, cols))
    if topic == "all":
        lines = textwrap.wrap("Commands (plain text is chat to the room you are in):", cols)
        lines += [line for c in offered(sysop) for line in _row(c.usage, c.help, cols=cols)]
        return "\n".join(lines)
    if topic in COMMANDS:
        c = COMMANDS[topic]
        return "\n".join(textwrap.wrap(f"{c.usage}: {c.help}", cols, subsequent_indent="    "))
    if topic in available():
        cls = game_class(topic)
        lines = [f"{cls.title}: {cls.min_players} to {cls.max_players} players. Moves:"]
        lines += _verb_rows(cls.VERBS, cols)
        lines += textwrap.wrap("Options (/option NAME [VALUE], host, before /start):", cols)
        lines += [line for o in (*cls.OPTIONS, *TABLE_OPTIONS) for line in _row(o.name, o.help, 14, cols)]
        return "\n".join(lines)
    here = [session.table.name] if session.table is not None else []  # the table's own game's move first
    for g in dict.fromkeys([*here, *available()]):
        usage = game_class(g).VERBS.get(topic)
        if usage:
            return "\n".join(textwrap.wrap(f"/{usage.split(':')[0]} ({g}): {usage.partition(':')[2].strip()}", cols,
                                            subsequent_indent="    "))
    raise BadCommand(f"no help on {topic!r}; /help lists the commands")


def who_message(lobby: Lobby, start: str = "") -> dict[str, Any]:
    """A screenful of who is online, from ``start`` on: ``total`` says how many there are in all, ``next`` the
    name the next page starts at (null on the last), so that /who costs a page however many are online."""
    rows = lobby.who(start, WHO_PAGE + 1)
    more = rows[WHO_PAGE]["name"] if len(rows) > WHO_PAGE else None
    return {"type": "who", "users": rows[:WHO_PAGE], "total": lobby.online(), "from": start or None,
            "next": more}


@command("who", "/who [NAME]", f"who is online, where, and their rating ({WHO_PAGE} a page; from NAME on, by name)")
def _who(lobby: Lobby, session: Session, arg: str) -> str | None:
    session.deliver(who_message(lobby, arg.strip()))
    return None


@command("tables", "/tables", "list the tables")
def _tables(lobby: Lobby, session: Session, arg: str) -> str | None:
    session.deliver({"type": "tables", "tables": lobby.table_summaries()})
    return None


@command("say", "/say TEXT", "talk to the room you are in (same as typing without a /)")
def _say(lobby: Lobby, session: Session, arg: str) -> str | None:
    if not arg:
        raise BadCommand("usage: /say TEXT")
    lobby.chat(session, arg)
    return None


MAX_IGNORED = 100  # names one user may /ignore


@command("ignore", "/ignore [NAME]", "stop seeing NAME's chat and tells (no NAME: whom you ignore); /unignore "
                                     "NAME undoes it")
def _ignore(lobby: Lobby, session: Session, arg: str) -> str | None:
    name = arg.strip()
    ignoring = session.ignoring or set()
    if not name:
        return f"you ignore {', '.join(sorted(ignoring))}" if ignoring else "you ignore nobody: /ignore NAME"
    if " " in name:
        raise BadCommand("usage: /ignore NAME")
    if name.lower() == session.name.lower():
        raise BadCommand("that is you")
    if name.lower() in ignoring:
        raise BadCommand(f"you ignore {name} already; /unignore {name} undoes it")
    if len(ignoring) >= MAX_IGNORED:
        raise BadCommand(f"you ignore {MAX_IGNORED} names already; /unignore one first")
    online = lobby.find_user(name)
    if online is None and not lobby.holds_name(name) and not lobby.registered(name):
        raise BadCommand(f"nobody is called {name}")
    name = online.name if online is not None else lobby.held_spelling(name)  # as they spell it, not as typed
    ignoring.add(name.lower())
    session.ignoring = lobby.ignores[session.name.lower()] = ignoring
    return f"you no longer see {name}'s chat and tells; /unignore {name} undoes it"


@command("unignore", "/unignore NAME", "see NAME's chat and tells again")
def _unignore(lobby: Lobby, session: Session, arg: str) -> str | None:
    name = arg.strip()
    if not name:
        raise BadCommand("usage: /unignore NAME")
    if not session.ignoring or name.lower() not in session.ignoring:
        raise BadCommand(f"you do not ignore {name}")
    session.ignoring.discard(name.lower())
    return f"you see {name}'s chat and tells again"


@command("tell", "/tell NAME TEXT", "say something to one user only")
def _tell(lobby: Lobby, session: Session, arg: str) -> str | None:
    name, _, text = arg.partition(" ")
    if not name or not text.strip():
        raise BadCommand("usage: /tell NAME TEXT")
    lobby.tell(session, name, text.strip())
    return None


@command("mode", "/mode ansi|ascii|cp437|utf8|json",
         "colour screen, plain ASCII, colour in the PC code page for BBS terminals, colour in UTF-8 (a terminal "
         "taken for a BBS's), or one JSON object a line for bots (a telnet client's terminal type picks until you "
         "choose)")
def _mode(lobby: Lobby, session: Session, arg: str) -> str | None:
    mode = arg.strip().lower()
    if mode not in (*MODES, *CHARSET_MODES):
        raise BadCommand(f"usage: /mode {'|'.join((*MODES[:2], *CHARSET_MODES, *MODES[2:]))} (now: {session.mode})")
    if session.charset_before is not None:  # out of a code page /mode put them in: back to the terminal's own
        session.charset, session.charset_before = session.charset_before, None
    if mode in CHARSET_MODES:
        session.charset_before = session.charset
        mode, session.charset = CHARSET_MODES[mode]
    session.mode, session.mode_chosen = mode, True
    return f"mode {arg.strip().lower()}"


@command("quit", "/quit", "disconnect (a running game keeps your seat for a while)")
def _quit(lobby: Lobby, session: Session, arg: str) -> str | None:
    session.close()
    return "bye"


# ------------------------------------------------------------------ accounts


def _accounts(lobby: Lobby, arg: str, verb: str) -> Accounts:
    if arg:  # never quoted back: it may well be the password, typed where it would be shown
        raise BadCommand(f"/{verb} takes nothing after it: the password is asked for next, and not shown")
    if lobby.accounts is None:
        raise BadCommand("this server keeps no accounts")
    return lobby.accounts


@command("register", "/register",
         f"make your name yours: a password ({MIN_PASSWORD}+ characters, asked twice) at each login from now on")
def _register(lobby: Lobby, session: Session, arg: str) -> str | None:
    if session.bbs is not None:
        raise BadCommand(f"{session.name} is known by the login of the BBS {session.bbs}: a BBS caller's name "
                         "needs no password here and cannot be registered")
    accounts = _accounts(lobby, arg, "register")
    if accounts.find(session.name) is not None:
        raise BadCommand(f"{session.name} is registered already; /password changes its password")
    alike = accounts.look_alike(session.name)  # asked before the passwords, to spare typing them for nothing
    if alike is not None:
        raise BadCommand(f"{looks_registered(session.name, alike)}; choose another name to register")
    session.ask_password("register")
    return f"choose a password for {session.name}, {MIN_PASSWORD} characters or more; it is not shown"


@command("password", "/password", "change your account's password: the old one, then the new one twice")
def _password(lobby: Lobby, session: Session, arg: str) -> str | None:
    _accounts(lobby, arg, "password")  # a server with accounts, and no argument
    if not session.registered:
        raise BadCommand("only a registered name logged in with its password has one to change; /register")
    # Asked even while failed tries hold the name back (refused once the answers are in, as at login): refused
    # now, the passwords a user typed ahead were read as chat, and said to the room.
    session.ask_password("password")
    return "your password now, then the new one twice; none is shown"


# ------------------------------------------------------------------ sysops


def _sysops(lobby: Lobby, session: Session, doing: str) -> Sysops:
    """The sysops' powers, for a sysop only: the role is looked up now, so a grant or a revoke made with
    ``mudwiz admin`` while the server runs counts at once."""
    if lobby.sysops is None:
        raise BadCommand(f"only a sysop can {doing}, and this server has none")
    lobby.sysops.require(session, doing)
    return lobby.sysops


@command("kick", "/kick NAME [REASON]", "sysop: disconnect someone, telling them why (a seat is kept as on a drop)")
def _kick(lobby: Lobby, session: Session, arg: str) -> str | None:
    sysops = _sysops(lobby, session, "kick")
    name, _, reason = arg.partition(" ")
    if not name:
        raise BadCommand("usage: /kick NAME [REASON]")
    return sysops.kick(session, name, reason.strip())


@command("ban", "/ban NAME|ADDRESS [MINUTES]",
         "sysop: refuse a name or an IP address at login for MINUTES, or until /unban; disconnects them if online")
def _ban(lobby: Lobby, session: Session, arg: str) -> str | None:
    sysops = _sysops(lobby, session, "ban")
    words = arg.split()
    if not 1 <= len(words) <= 2:
        raise BadCommand("usage: /ban NAME|ADDRESS [MINUTES]")
    return sysops.ban(session, words[0], words[1] if len(words) > 1 else "")


@command("unban", "/unban NAME|ADDRESS", "sysop: lift a ban")
def _unban(lobby: Lobby, session: Session, arg: str) -> str | None:
    sysops = _sysops(lobby, session, "unban")
    if len(arg.split()) != 1:
        raise BadCommand("usage: /unban NAME|ADDRESS; /bans lists the bans")
    return sysops.unban(arg)


@command("bans", "/bans", "sysop: the bans in force, and until when")
def _bans(lobby: Lobby, session: Session, arg: str) -> str | None:
    session.deliver({"type": "bans", "bans": _sysops(lobby, session, "list the bans").ban_rows()})
    return None


@command("announce", "/announce TEXT", "sysop: one line to everyone online")
def _announce(lobby: Lobby, session: Session, arg: str) -> str | None:
    sysops = _sysops(lobby, session, "announce")
    if not arg:
        raise BadCommand("usage: /announce TEXT")
    sysops.announce(session, arg)
    return None


@command("shutdown", "/shutdown [MINUTES|cancel]",
         "sysop: stop the server in MINUTES (default 1, 0: now), telling everyone as it counts down")
def _shutdown(lobby: Lobby, session: Session, arg: str) -> str | None:
    sysops = _sysops(lobby, session, "shut the server down")
    if arg.lower() == "cancel":
        return sysops.cancel(session)
    return sysops.shutdown(session, shutdown_minutes(arg))


# ------------------------------------------------------------------ tables


@command("new", "/new GAME", f"open a table of GAME ({', '.join(available())}) and sit as its host")
def _new(lobby: Lobby, session: Session, arg: str) -> str | None:
    if not arg:
        raise BadCommand(f"usage: /new GAME, one of: {', '.join(available())}")
    lobby.may_move(session)
    table = lobby.new_table(session, arg.split()[0])
    return f"table {table.id} is yours: /option to set it up, /bot add to fill seats, /start to play"


@command("join", "/join N", "sit down at table N")
def _join(lobby: Lobby, session: Session, arg: str) -> str | None:
    table = lobby.table(arg)
    if session.table is not None and session.table is not table:
        raise BadCommand(f"you are at table {session.table.id}; /leave it first")
    lobby.may_move(session)
    table.sit(session)
    return f"you sit at table {table.id}"


@command("watch", "/watch N", "observe table N (observers see no hands)")
def _watch(lobby: Lobby, session: Session, arg: str) -> str | None:
    table = lobby.table(arg, "/watch N")
    if session.table is not None:
        raise BadCommand(f"you are at table {session.table.id}; /leave it first")
    lobby.may_move(session)
    table.watch(session)
    return f"you watch table {table.id}"


@command("leave", "/leave", "leave your table (mid-game a bot takes your seat)")
def _leave(lobby: Lobby, session: Session, arg: str) -> str | None:
    return _table(session).leave(session)


@command("option", "/option [NAME [VALUE]]", "show the table's options, or (host, before /start) set one")
def _option(lobby: Lobby, session: Session, arg: str) -> str | None:
    table = _table(session)
    if not arg:
        session.deliver({"type": "options", "table": table.id, "game": table.name, "options": table.option_rows()})
        return None
    name, sep, value = arg.partition("=")
    if not sep:
        name, _, value = arg.partition(" ")
    lobby.may_move(session)
    return table.set_option(session, name.strip(), value.strip() or None)


@command("start", "/start", "start the game (host; enough players seated)")
def _start(lobby: Lobby, session: Session, arg: str) -> str | None:
    _table(session).start(session)
    return None


@command("ok", "/ok", "confirm the round's result, ready for the next round")
def _ok(lobby: Lobby, session: Session, arg: str) -> str | None:
    return _table(session).ok(session)


@command("score", "/score", "show the score sheet")
def _score(lobby: Lobby, session: Session, arg: str) -> str | None:
    table = _table(session)
    state = table.state_for(session)
    session.deliver({"type": "score", "table": table.id, "game": table.name, "players": state["players"],
                     "sheet": state.get("sheet", [])})
    return None


@command("look", "/look", "redraw the table (or, in the lobby, who is here and the tables)")
def _look(lobby: Lobby, session: Session, arg: str) -> str | None:
    if session.table is None:
        session.deliver(who_message(lobby))
        session.deliver({"type": "tables", "tables": lobby.table_summaries()})
        return None
    session.table.send_state(session, look=True)
    return None


@command("bot", "/bot add [LEVEL] | /bot remove NAME", "seat a computer player (host, before /start)")
def _bot(lobby: Lobby, session: Session, arg: str) -> str | None:
    from mudwiz.bots import levels
    from mudwiz.table.botseat import BotSession

    table = _table(session)
    words = arg.split()
    if not words or words[0] not in ("add", "remove"):
        raise BadCommand(f"usage: /bot add [LEVEL] or /bot remove NAME; levels: {', '.join(levels())}")
    if not table.is_host(session):
        raise BadCommand(f"only the host ({table.host}) seats bots")
    if table.in_game:
        raise BadCommand("bots are seated before /start")
    lobby.may_move(session)
    if words[0] == "add":
        level = words[1].lower() if len(words) > 1 else "good" if "good" in levels() else "random"
        bot = BotSession(lobby.free_bot_name(table), level=level, game=table.name,
                         seed=table.seeds.randrange(2**32), stand_in=False)
        table.sit(bot, by=session)  # the others are told by a notice, the host by this reply alone
        return f"{bot.name} ({level}) sits down at table {table.id}"
    if len(words) != 2:
        raise BadCommand("usage: /bot remove NAME")
    seat = table.seat_of(words[1])
    if seat is None or not table.seats[seat].is_bot:
        raise BadCommand(f"there is no bot called {words[1]} at this table")
    seated = table.seats[seat]
    table.leave(seated, by=session)
    return f"{seated.name} leaves table {table.id}"


# ------------------------------------------------------------------ game records

HISTORY = 10  # games /history lists


def _store(lobby: Lobby) -> Store:
    if lobby.records is None:
        raise BadCommand("this server keeps no game records")
    return lobby.records.store


def _record(lobby: Lobby, game_id: int) -> GameRecord:
    """Game ``game_id``'s record; a missing or damaged one refused in one line (a damaged row's ``StoreError``
    was an internal error with a critical traceback)."""
    try:
        record = _store(lobby).game(game_id)
    except StoreError as exc:
        raise BadCommand(str(exc)) from None
    if record is None:
        raise BadCommand(f"there is no game {game_id}; /history lists your games")
    return record


def _places(standings: list[dict[str, Any]] | None) -> dict[str, dict[str, Any]]:
    return {r["player"].lower(): r for r in standings or []}


def history_row(summary: GameSummary, name: str) -> dict[str, Any]:
    """One game of ``/history``: who sat where with their score and place (null for an abandoned game), and
    ``place`` the place of the player asked about."""
    places = _places(summary.standings)
    players = [{**seat, "score": places.get(seat["name"].lower(), {}).get("score"),
                "place": places.get(seat["name"].lower(), {}).get("place")} for seat in summary.seats]
    return {"id": summary.id, "game": summary.game, "date": iso_time(summary.ended), "outcome": summary.outcome,
            "players": players, "place": places.get(name.lower(), {}).get("place")}


@command("history", "/history [NAME]", f"your last {HISTORY} games, or NAME's (/game ID shows one)")
def _history(lobby: Lobby, session: Session, arg: str) -> str | None:
    name = arg.strip() or session.name
    games = _store(lobby).games_of(name, HISTORY)
    session.deliver({"type": "history", "name": name, "games": [history_row(g, name) for g in games]})
    return None


def in_slices(lobby: Lobby, session: Session, work: Work[T]) -> defer.Deferred[T | None]:
    """``work`` for ``session`` run as the lobby runs long work (mudwiz/slices.py), given up (None) once they
    have gone: nobody would read its answer."""
    return lobby.slices(unless(lambda: not session.connected, work))


def replay_sheet(record: GameRecord) -> Work[tuple[list[dict[str, Any]], list[int]] | None]:
    """The score sheet and scores of a recorded game, rebuilt by replaying it (the record keeps the moves, not
    what follows from them), as work in slices (a step of the game a piece); None when it cannot be, as when its
    game is no longer installed."""
    try:
        game = game_class(record.game)(record.players, record.options, record.seed)
        for seat, action in record.log:
            game.step(seat, action)
            yield
    except MudwizError:
        return None
    return game.sheet, game.scores


@command("game", "/game ID", "a recorded game's score sheet and standings (/history lists the IDs)")
def _game(lobby: Lobby, session: Session, arg: str) -> Reply:
    number = whole_number(arg.strip().lstrip("#"))
    if number is None:
        raise BadCommand("usage: /game ID; /history lists your games")
    record = _record(lobby, number)

    def show(replayed: tuple[list[dict[str, Any]], list[int]] | None) -> None:
        sheet: list[dict[str, Any]] = replayed[0] if replayed else []
        scores: list[int | None] = list(replayed[1]) if replayed else [None] * len(record.seats)
        session.deliver({
            "type": "game", "id": record.id, "game": record.game, "date": iso_time(record.ended),
            "outcome": record.outcome, "options": record.options,
            "players": [{**seat, "score": score} for seat, score in zip(record.seats, scores, strict=True)],
            "sheet": sheet, "standings": record.standings,
        })

    return in_slices(lobby, session, replay_sheet(record)).addCallback(show)


# ------------------------------------------------------------------ ratings

TOP = 10  # players /top lists a game


def rating_row(rating: Rating) -> dict[str, Any]:
    """A rating as the protocol gives it: ``rating`` the shown figure, ``mu`` and ``sigma`` to two places,
    ``games`` rated games played, ``rank`` among the game's rated players (null for a bot's fixed entry)."""
    return {"game": rating.game, "name": rating.name, "rating": rating.shown, "mu": round(rating.mu, 2),
            "sigma": round(rating.sigma, 2), "games": rating.games, "rank": rating.rank}


def _bot_level(name: str) -> str | None:
    """The level ``bot:LEVEL`` names, None for a player's name; a level that does not exist is refused."""
    from mudwiz.bots import levels  # bots stand on tables and commands, not the other way round

    if not name.lower().startswith(BOT_PREFIX):
        return None
    level = name[len(BOT_PREFIX):].lower()
    if level not in levels():
        raise BadCommand(f"no bot level {level!r}; levels: {', '.join(levels())}")
    return level


@command("rating", "/rating [NAME]", "your rating in each game, or NAME's (bot:good: that bot level's fixed one); "
                                     "shown: 1000 + 40 x (mu - 3 sigma), a new player's 1000")
def _rating(lobby: Lobby, session: Session, arg: str) -> str | None:
    name = arg.strip() or session.name
    if len(name.split()) > 1:
        raise BadCommand("usage: /rating [NAME]; /rating bot:good shows a bot level's")
    level = _bot_level(name)
    if level is not None:
        ratings = [bot_rating(game, level) for game in available()]
        name = f"{BOT_PREFIX}{level}"
    else:
        ratings = _store(lobby).ratings_of(name)
        name = ratings[0].name if ratings else name
    session.deliver({"type": "rating", "name": name, "bot": level is not None,
                     "ratings": [rating_row(r) for r in ratings]})
    return None


@command("top", "/top [GAME]", f"the {TOP} best rated players of GAME (at a table: its game; else every game)")
def _top(lobby: Lobby, session: Session, arg: str) -> str | None:
    from mudwiz.bots import levels

    game = arg.strip().lower()
    if game and game not in available():
        raise BadCommand(f"no game {game!r}; games: {', '.join(available())}")
    games = [game] if game else [session.table.name] if session.table is not None else available()
    store = _store(lobby)
    session.deliver({"type": "top", "games": [
        {"game": g, "players": [rating_row(r) for r in store.top(g, TOP)],
         "bots": [rating_row(bot_rating(g, level)) for level in levels()]} for g in games]})
    return None


REPLAY_USAGE = "usage: /replay ID [STEP], /replay next or /replay prev; /history lists your games"


def _replay_step(session: Session, words: list[str]) -> tuple[int, int, int]:
    """The game and step ``/replay`` is asked for, and which way ``next``/``prev`` went (0 for neither)."""
    if words in (["next"], ["prev"]):
        if session.replaying is None:
            raise BadCommand("you are reading no replay; /replay ID starts one (/history lists your games)")
        game_id, step = session.replaying
        way = 1 if words[0] == "next" else -1
        return game_id, step + way, way
    if not 1 <= len(words) <= 2:
        raise BadCommand(REPLAY_USAGE)
    number, at = whole_number(words[0].lstrip("#")), whole_number(words[1]) if len(words) == 2 else 0
    if number is None or at is None:
        raise BadCommand(REPLAY_USAGE)
    return number, at, 0


@command("replay", "/replay ID [STEP] | next | prev",
         "a recorded game move by move, every hand shown: STEP 0 is the deal, /replay next the move after")
def _replay(lobby: Lobby, session: Session, arg: str) -> Reply:
    _store(lobby)  # a server without records says so before the arguments are read
    game_id, step, way = _replay_step(session, arg.lower().split())
    record = _record(lobby, game_id)
    if way > 0 and step > replay.steps(record):
        raise BadCommand(f"that was the last move of game {game_id}; /replay {game_id} 0 starts again")
    if way < 0 and step < 0:
        raise BadCommand(f"that was the deal, the first step of game {game_id}; /replay next goes on")
    if step > replay.steps(record):
        raise BadCommand(replay.bad_step(record, step))
    count = replay.REPLAY_FRAMES if session.mode == "json" else 1  # a person reads one step at a time

    def show(message: dict[str, Any] | None) -> None:
        if message is not None:  # None: they left before it was made
            session.deliver(message)
            session.replaying = (game_id, step)

    # replayed from the deal to the step: a long game's hundreds of milliseconds, in slices
    return in_slices(lobby, session, replay.building(record, step, count)).addCallback(show)


# ------------------------------------------------------------------ rules at the table

MAIN_SECTIONS = ("goal", "play", "scoring", "options")  # what /rules GAME shows; a game's other sections on request


def rules_sections(cls: type[Game]) -> dict[str, list[str]]:
    """A game's rules by section, each line indented under its heading: the game's own text (``Game.RULES``)
    and ``options``, written from its OPTIONS so that it cannot drift from what /option accepts."""
    sections = {name: ["  " + line for line in text.splitlines()] for name, text in cls.RULES.items()}
    options = ["  /option NAME VALUE sets one (the host, before /start):"]
    options += [line for o in cls.OPTIONS for line in _row(o.name, o.help, 14)]
    return {**sections, "options": options}


def rules_text(cls: type[Game], section: str | None = None) -> str:
    """``/rules GAME``: goal, play, scoring and options, then where the rest is; with ``section``, that part
    alone (each part fits a 24-row screen)."""
    sections = rules_sections(cls)
    if section is not None:
        if section not in sections:
            raise BadCommand(f"{cls.title} rules have no section {section!r}: {', '.join(sections)}")
        return "\n".join([f"{cls.title} rules: {section}", *sections[section]])
    lines = [f"{cls.title} rules, {cls.min_players} to {cls.max_players} players"]
    for name in MAIN_SECTIONS:
        lines += [name.capitalize(), *sections.get(name, [])]
    more = [f"/rules {cls.name} {name}" for name in sections if name not in MAIN_SECTIONS]
    lines.append(f"One part at a time: /rules {cls.name} SECTION." + (f" More: {', '.join(more)}." if more else ""))
    lines.append(f"/help {cls.name} lists the moves.")
    return "\n".join(lines)


def _show_rules(session: Session, game: str, section: str | None) -> None:
    topic = " ".join(["rules", game, *([section] if section else [])])
    session.deliver({"type": "help", "topic": topic, "text": rules_text(game_class(game), section)})


@command("rules", "/rules [GAME [SECTION]]", "a game's rules in brief (at a table: its game); SECTION shows one "
                                             "part: goal, play, scoring, options, spells")
def _rules(lobby: Lobby, session: Session, arg: str) -> str | None:
    words = arg.lower().split()
    games = available()
    usage = f"usage: /rules GAME [SECTION]; games: {', '.join(games)}"
    if words and words[0] in games:
        game, words = words[0], words[1:]
    elif session.table is not None:
        game = session.table.name  # "/rules" or "/rules spells" at a table: its game
    elif words:
        raise BadCommand(f"no rules for {words[0]!r}; games: {', '.join(games)}")
    else:
        raise BadCommand(usage)
    if len(words) > 1:
        raise BadCommand(usage)
    _show_rules(session, game, words[0] if words else None)
    return None


@command("spells", "/spells", "the spells and what each does: Tiltowait's nine (a table's own game first)")
def _spells(lobby: Lobby, session: Session, arg: str) -> str | None:
    with_spells = [g for g in available() if "spells" in game_class(g).RULES]
    if session.table is not None and session.table.name in with_spells:
        with_spells.insert(0, session.table.name)
    if not with_spells:
        raise BadCommand("no game here has spells")
    _show_rules(session, with_spells[0], "spells")
    return None
