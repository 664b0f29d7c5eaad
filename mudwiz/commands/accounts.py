"""/register, /password and /unregister: the dialogues themselves, asked with the echo off, are the connection's."""

from __future__ import annotations

from mudwiz.accounts import MIN_PASSWORD, Accounts, looks_registered
from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.session import Session
from mudwiz.texts import later
from mudwiz.usertext import BOT_NAME_REFUSED, BOT_NAME_RULE


def _accounts(lobby: Lobby, arg: str, verb: str) -> Accounts:
    if arg:  # never quoted back: it may well be the password, typed where it would be shown
        raise BadCommand(later('/{verb} takes nothing after it: the password is asked for next, and not shown',
                               verb=verb))
    if lobby.accounts is None:
        raise BadCommand(later('this server keeps no accounts'))
    return lobby.accounts


@command("register", "/register",
         later('make your name yours: a password ({min_password}+ characters, asked twice) at each login from now on',
               min_password=MIN_PASSWORD),
         scope=Scope.LOBBY, kind=Kind.ACCOUNT, place=1, route=Route.HOME)
def _register(lobby: Lobby, session: Session, arg: str) -> Reply:
    if session.bbs is not None:
        raise BadCommand(later("{name} is known by the login of the BBS {bbs}: a BBS caller's name needs no password "
                               'here and cannot be registered', name=session.name, bbs=session.bbs))
    accounts = _accounts(lobby, arg, "register")
    if BOT_NAME_RULE.match(session.name):  # a guest so named before the rule: never made an account's
        raise BadCommand(later('{bot_name_refused}; nothing was registered', bot_name_refused=BOT_NAME_REFUSED))
    if accounts.find(session.name) is not None:
        raise BadCommand(later('{name} is registered already; /password changes its password', name=session.name))
    alike = accounts.look_alike(session.name)  # asked before the passwords, to spare typing them for nothing
    if alike is not None:
        raise BadCommand(later('{looks_registered}; choose another name to register',
                               looks_registered=looks_registered(session.name, alike)))
    session.ask_password("register")
    return later('choose a password for {name}, {min_password} characters or more; it is not shown',
                 name=session.name, min_password=MIN_PASSWORD)


@command("password", "/password", later("change your account's password: the old one, then the new one twice"),
         scope=Scope.LOBBY, kind=Kind.ACCOUNT, place=2, route=Route.HOME)
def _password(lobby: Lobby, session: Session, arg: str) -> Reply:
    _accounts(lobby, arg, "password")  # a server with accounts, and no argument
    if not session.registered:
        raise BadCommand(later('only a registered name logged in with its password has one to change; /register'))
    # Asked even while failed tries hold the name back (refused once the answers are in, as at login): refused
    # now, the passwords a user typed ahead were read as chat, and said to the room.
    session.ask_password("password")
    return later('your password now, then the new one twice; none is shown')


@command("unregister", "/unregister",
         later('give up your account, its password asked: it goes with its ratings, plan, notify lists, messages and '
               'channels (finished games keep the name); you stay on as a guest'),
         scope=Scope.LOBBY, kind=Kind.ACCOUNT, place=3, route=Route.HOME)
def _unregister(lobby: Lobby, session: Session, arg: str) -> Reply:
    accounts = _accounts(lobby, arg, "unregister")
    if not session.registered:
        raise BadCommand(later('only a registered name logged in with its password has an account to give up'))
    roles = sorted(accounts.store.roles(session.name))
    if roles:  # given on the server's machine, taken there: a server is never left without its sysop by a slip
        raise BadCommand(later("{name} is a {value}: the role is taken away first, on the server's machine (mudwiz "
                               'admin revoke {name} {value}); nothing was changed', name=session.name, value=roles[0]))
    session.ask_password("unregister")
    return later('your password, to delete the account {name} for good; it is not shown', name=session.name)


@command("alias", "/alias [NAME]",
         later("an ASCII name others may call you by (/tell, /finger, /message ...), for a name in kana or kanji that "
               "not every terminal can type; for registered names, kept while you are online"),
         scope=Scope.LOBBY, kind=Kind.ACCOUNT, place=4, route=Route.HOME)
def _alias(lobby: Lobby, session: Session, arg: str) -> Reply:
    alias = arg.strip()
    if not alias:
        mine = [a for a, owner in lobby.names.aliases.items() if owner == session.name]
        if not mine:
            return later("you have no alias: /alias NAME sets one")
        return later("your alias is {alias}", alias=mine[0])
    return lobby.names.set_alias(session, alias)
