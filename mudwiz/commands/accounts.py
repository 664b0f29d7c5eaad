"""/register, /password and /unregister: the dialogues themselves, asked with the echo off, are the connection's."""

from __future__ import annotations

from mudwiz.accounts import MIN_PASSWORD, Accounts, looks_registered
from mudwiz.commands.registry import Kind, Route, Scope, command
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.session import Session
from mudwiz.usertext import BOT_NAME_REFUSED, BOT_NAME_RULE


def _accounts(lobby: Lobby, arg: str, verb: str) -> Accounts:
    if arg:  # never quoted back: it may well be the password, typed where it would be shown
        raise BadCommand(f"/{verb} takes nothing after it: the password is asked for next, and not shown")
    if lobby.accounts is None:
        raise BadCommand("this server keeps no accounts")
    return lobby.accounts


@command("register", "/register",
         f"make your name yours: a password ({MIN_PASSWORD}+ characters, asked twice) at each login from now on",
         scope=Scope.LOBBY, kind=Kind.ACCOUNT, place=1, route=Route.HOME)
def _register(lobby: Lobby, session: Session, arg: str) -> str | None:
    if session.bbs is not None:
        raise BadCommand(f"{session.name} is known by the login of the BBS {session.bbs}: a BBS caller's name "
                         "needs no password here and cannot be registered")
    accounts = _accounts(lobby, arg, "register")
    if BOT_NAME_RULE.match(session.name):  # a guest so named before the rule: never made an account's
        raise BadCommand(f"{BOT_NAME_REFUSED}; nothing was registered")
    if accounts.find(session.name) is not None:
        raise BadCommand(f"{session.name} is registered already; /password changes its password")
    alike = accounts.look_alike(session.name)  # asked before the passwords, to spare typing them for nothing
    if alike is not None:
        raise BadCommand(f"{looks_registered(session.name, alike)}; choose another name to register")
    session.ask_password("register")
    return f"choose a password for {session.name}, {MIN_PASSWORD} characters or more; it is not shown"


@command("password", "/password", "change your account's password: the old one, then the new one twice",
         scope=Scope.LOBBY, kind=Kind.ACCOUNT, place=2, route=Route.HOME)
def _password(lobby: Lobby, session: Session, arg: str) -> str | None:
    _accounts(lobby, arg, "password")  # a server with accounts, and no argument
    if not session.registered:
        raise BadCommand("only a registered name logged in with its password has one to change; /register")
    # Asked even while failed tries hold the name back (refused once the answers are in, as at login): refused
    # now, the passwords a user typed ahead were read as chat, and said to the room.
    session.ask_password("password")
    return "your password now, then the new one twice; none is shown"


@command("unregister", "/unregister",
         "give up your account, its password asked: it goes with its ratings, plan, notify lists, messages and "
         "channels (finished games keep the name); you stay on as a guest",
         scope=Scope.LOBBY, kind=Kind.ACCOUNT, place=3, route=Route.HOME)
def _unregister(lobby: Lobby, session: Session, arg: str) -> str | None:
    accounts = _accounts(lobby, arg, "unregister")
    if not session.registered:
        raise BadCommand("only a registered name logged in with its password has an account to give up")
    roles = sorted(accounts.store.roles(session.name))
    if roles:  # given on the server's machine, taken there: a server is never left without its sysop by a slip
        raise BadCommand(f"{session.name} is a {roles[0]}: the role is taken away first, on the server's machine "
                         f"(mudwiz admin revoke {session.name} {roles[0]}); nothing was changed")
    session.ask_password("unregister")
    return f"your password, to delete the account {session.name} for good; it is not shown"


@command("alias", "/alias [NAME]",
         "an ASCII name others may call you by (/tell, /finger, /message ...), for a name in kana or kanji that not "
         "every terminal can type; for registered names, kept while you are online",
         scope=Scope.LOBBY, kind=Kind.ACCOUNT, place=4, route=Route.HOME)
def _alias(lobby: Lobby, session: Session, arg: str) -> str | None:
    alias = arg.strip()
    if not alias:
        mine = [a for a, owner in lobby.names.aliases.items() if owner == session.name]
        return f"your alias is {mine[0]}" if mine else "you have no alias: /alias NAME sets one"
    return lobby.names.set_alias(session, alias)
