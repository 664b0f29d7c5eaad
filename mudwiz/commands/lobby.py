"""The lobby's commands: who is here, the tables, talk, /ignore, /mode, /lang, /charset, /width, /quit and /bye."""

from __future__ import annotations

from typing import Any

from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.commands.spelling import spelled, spelling_of
from mudwiz.errors import BadCommand
from mudwiz.lobby import WHO_PAGE, Lobby
from mudwiz.numbers import whole_number
from mudwiz.pager import DEFAULT_ROWS, MAX_ROWS, MIN_ROWS
from mudwiz.session import CHARSET_MODES, MODES, Session, charset_named
from mudwiz.store import StoreError
from mudwiz.store.base import ListFull
from mudwiz.table import table_of
from mudwiz.texts import Later, languages, later, pick


def who_message(lobby: Lobby, start: str = "") -> dict[str, Any]:
    """A screenful of who is online, from ``start`` on: ``total`` says how many there are in all, ``next`` the
    name the next page starts at (null on the last), so that /who costs a page however many are online."""
    rows = lobby.talk.mark_away(lobby.who(start, WHO_PAGE + 1))
    more = rows[WHO_PAGE]["name"] if len(rows) > WHO_PAGE else None
    return {"type": "who", "users": rows[:WHO_PAGE], "total": lobby.online(), "from": start or None,
            "next": more}


@command("who", "/who [NAME]", later('who is online, where, and their rating ({who_page} a page; from NAME on, by '
                                     'name)', who_page=WHO_PAGE),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=1, route=Route.HOME)
def _who(lobby: Lobby, session: Session, arg: str) -> Reply:
    session.deliver(who_message(lobby, arg.strip()))
    return None


@command("tables", "/tables", later('list the tables'),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=2, route=Route.HOME)
def _tables(lobby: Lobby, session: Session, arg: str) -> Reply:
    session.deliver({"type": "tables", "tables": lobby.table_summaries()})
    return None


@command("say", "/say TEXT", later('talk to the room you are in (same as typing without a /)'),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=3, route=Route.TABLE)
def _say(lobby: Lobby, session: Session, arg: str) -> Reply:
    if not arg:
        raise BadCommand(later('usage: /say TEXT'))
    lobby.chat(session, arg)
    return None


MAX_IGNORED = 100  # names one user may /ignore


def ignoring_too_many() -> BadCommand:
    return BadCommand(later('you ignore {max_ignored} names already; /unignore one first', max_ignored=MAX_IGNORED))


@command("ignore", "/ignore [NAME]", later("stop seeing NAME's chat, tells and messages (no NAME: whom you ignore); "
                                           '/unignore NAME undoes it'),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=5, route=Route.HOME)
def _ignore(lobby: Lobby, session: Session, arg: str) -> Reply:
    name = arg.strip()
    ignoring = session.ignoring or set()
    if not name:
        if not ignoring:
            return later('you ignore nobody: /ignore NAME')
        shown = (spelling_of(lobby, key) or key for key in ignoring)  # as each spells it, not as kept (lower case)
        return later('you ignore {names}', names=', '.join(sorted(shown, key=str.lower)))
    if " " in name:
        raise BadCommand(later('usage: /ignore NAME'))
    if name.lower() == session.name.lower():
        raise BadCommand(later('that is you'))
    if name.lower() in ignoring:
        raise BadCommand(later('you ignore {name} already; /unignore {name} undoes it', name=name))
    if len(ignoring) >= MAX_IGNORED:
        raise ignoring_too_many()
    name = spelled(lobby, name)  # as they spell it, not as typed
    try:
        lobby.friends.keep_ignoring(session, name, MAX_IGNORED)
    except ListFull:
        raise ignoring_too_many() from None
    ignoring.add(name.lower())
    session.ignoring = lobby.ignores[session.name.lower()] = ignoring
    return later("you no longer see {name}'s chat, tells and messages; /unignore {name} undoes it", name=name)


@command("unignore", "/unignore NAME", later("see NAME's chat, tells and messages again"),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=6, route=Route.HOME)
def _unignore(lobby: Lobby, session: Session, arg: str) -> Reply:
    name = arg.strip()
    if not name:
        raise BadCommand(later('usage: /unignore NAME'))
    if not session.ignoring or name.lower() not in session.ignoring:
        raise BadCommand(later('you do not ignore {name}', name=name))
    lobby.friends.forget_ignoring(session, name)
    session.ignoring.discard(name.lower())
    return later("you see {name}'s chat, tells and messages again", name=spelling_of(lobby, name) or name)


@command("tell", "/tell NAME TEXT", later('say something to one user only'),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=4, route=Route.HOME)
def _tell(lobby: Lobby, session: Session, arg: str) -> Reply:
    name, _, text = arg.partition(" ")
    if not name or not text.strip():
        raise BadCommand(later('usage: /tell NAME TEXT'))
    lobby.tell(session, name, text.strip())
    return lobby.talk.away_reply(name)


@command("mode", "/mode ansi|ascii|cp437|utf8|json",
         later('colour screen, plain ASCII, colour in the PC code page for BBS terminals, colour in UTF-8 (a '
               "terminal taken for a BBS's), or one JSON object a line for bots (a telnet client's terminal type "
               'picks until you choose)'),
         scope=Scope.PRE_LOGIN, kind=Kind.LOBBY, place=7, route=Route.HOME)
def _mode(lobby: Lobby, session: Session, arg: str) -> Reply:
    mode = arg.strip().lower()
    if mode not in (*MODES, *CHARSET_MODES):
        raise BadCommand(later('usage: /mode {join} (now: {mode})',
                               join='|'.join((*MODES[:2], *CHARSET_MODES, *MODES[2:])), mode=session.mode))
    if session.charset_before is not None:  # out of a code page /mode put them in: back to the terminal's own
        session.charset, session.charset_before = session.charset_before, None
    if mode in CHARSET_MODES:
        session.charset_before = session.charset
        mode, session.charset = CHARSET_MODES[mode]
    session.mode, session.mode_chosen = mode, True
    return later('mode {lower}', lower=arg.strip().lower())


@command("lang", f"/lang {'|'.join(languages())}",
         later("the language you read (a registered name keeps it; a client that says its LANG picks until you "
               "choose)"),
         scope=Scope.PRE_LOGIN, kind=Kind.LOBBY, place=25, route=Route.HOME)
def _lang(lobby: Lobby, session: Session, arg: str) -> Later:
    """The user's language from now on (``mudwiz.texts``): kept with their account when they have one."""
    lang = pick(arg)
    if lang is None:
        raise BadCommand(later("usage: /lang {langs} (now: {lang})", langs="|".join(languages()), lang=session.lang))
    session.lang, session.lang_chosen = lang, True
    if session.registered and lobby.accounts is not None:
        try:
            lobby.accounts.store.set_account_lang(session.name, lang)
        except (KeyError, StoreError):  # unregistered meanwhile, or the store is down: this connection still has it
            pass
    return later("language: {lang}", lang=lang)


@command("charset", "/charset NAME",
         later("the characters your terminal reads and types: UTF-8, Shift_JIS (Windows-31J), EUC-JP or the PC code "
               "page (a telnet client's CHARSET answer picks until you choose)"),
         scope=Scope.PRE_LOGIN, kind=Kind.LOBBY, place=12, route=Route.HOME)
def _charset(lobby: Lobby, session: Session, arg: str) -> Reply:
    charset = charset_named(arg) if arg.strip() else None
    if charset is None:
        raise BadCommand(later("usage: /charset utf-8|sjis|euc-jp|cp437 (now: {charset})", charset=session.charset))
    session.charset, session.charset_before = charset, None  # what /mode cp437 would have put back is this now
    return later("charset {charset}", charset=charset)


@command("width", "/width [ambiguous N]",
         later("how many columns your terminal draws box drawing, ○ and × in (East Asian ambiguous width): 2 in most "
               "Japanese terminals (the default with Shift_JIS and EUC-JP), 1 elsewhere"),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=13, route=Route.HOME)
def _width(lobby: Lobby, session: Session, arg: str) -> Reply:
    words = arg.lower().split()
    cells = whole_number(words[1]) if len(words) == 2 and words[0] == "ambiguous" else None
    if words and cells not in (1, 2):
        raise BadCommand(later("usage: /width ambiguous 1|2 (now: {cells})", cells=session.ambiguous_width()))
    if cells is not None:
        session.ambiguous = cells
    return later("width {width} columns, ambiguous characters {cells} wide", width=getattr(session, "width", 80),
                 cells=session.ambiguous_width())


@command("quit", "/quit", later('disconnect (a running game keeps your seat for a while)'),
         scope=Scope.PRE_LOGIN, kind=Kind.LOBBY, place=8, route=Route.HOME)
def _quit(lobby: Lobby, session: Session, arg: str) -> Reply:
    from mudwiz.commands.records import farewell  # here: the catalogue's order is the modules' order of import

    farewell(lobby, session)  # a BBS caller's season at a glance, before the door returns them to the BBS
    session.close()
    return later('bye')


@command("bye", "/bye", later('leave your table (a bot takes your seat; a game you play alone with bots is adjourned '
                              'for you to /resume) or stop watching, and disconnect'),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=10, route=Route.HOME)
def _bye(lobby: Lobby, session: Session, arg: str) -> Reply:
    """A clean goodbye from wherever the user is (the BBS door's when the caller's time is up, docs/bbs.md):
    left at once as ``/leave`` leaves, not held for the grace period a dropped connection gets, and no error in
    the lobby, where there is no table to leave. A game the user plays alone with bots is adjourned instead: it
    is theirs to ``/resume`` (or to be taken back to at their next login)."""
    from mudwiz.commands.records import farewell

    table = table_of(session)
    if table is not None and table.live and table.roster.own_seat(session) is not None \
            and [s for s in table.seats if not s.is_bot] == [session]:
        table.adjourn(session.name, later('{name} said goodbye: the game is adjourned.',
                                          name=session.name))  # theirs alone: it waits
    elif table is not None:
        session.notice(table.leave(session))
        lobby.seeking.left(session, table)  # as /leave: a match counting down is called off
    farewell(lobby, session)
    session.close()
    return later('bye')


@command("pager", "/pager [on|off|ROWS]",
         later('show a reply longer than your window a page at a time (--More--); ROWS: pages for a window that high '
               '(on by default at a terminal, off for MUD clients, nc and JSON)'),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=11, route=Route.HOME)
def _pager(lobby: Lobby, session: Session, arg: str) -> Reply:
    word = arg.strip().lower()
    rows = whole_number(word)
    if word in ("on", "off"):
        session.pager = word == "on"
    elif rows is not None and MIN_ROWS <= rows <= MAX_ROWS:
        session.pager, session.pager_rows = True, rows
    elif word:
        raise BadCommand(later('usage: /pager on|off|ROWS ({min_rows} to {max_rows})',
                               min_rows=MIN_ROWS, max_rows=MAX_ROWS))
    on = session.pager if session.pager is not None else session.terminal
    rows = session.pager_rows or session.rows or DEFAULT_ROWS
    if on:
        return later('pager on, {rows} rows', rows=rows)
    return later('pager off, {rows} rows', rows=rows) if not word else later('pager off')
