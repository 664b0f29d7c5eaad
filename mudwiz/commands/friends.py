"""People: /finger, /plan, /notify and /unnotify, /message and /messages (the lobby's friends part does the work:
mudwiz/lobby/friends.py). A name is matched as /tell matches it (any case, online here or on another process), or
as an account's; one that only looks like an account's (CaroI for Carol) is answered with the account's name."""

from __future__ import annotations

from typing import Any

from mudwiz.commands.records import history_row, rating_row
from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.lobby.adjourning import adjourned_rows
from mudwiz.lobby.friends import kept
from mudwiz.session import Session
from mudwiz.store import iso_time
from mudwiz.texts import later, later_n, now

FINGER_GAMES = 5  # the last games /finger lists with their places


def account_name(lobby: Lobby, name: str) -> str | None:
    """The account ``name`` is (any case), as registered; None when there is none."""
    accounts = lobby.accounts
    account = accounts.find(name) if accounts is not None else None
    return None if account is None else account.name


def no_such(lobby: Lobby, name: str, online: bool) -> BadCommand:
    """The one line for a name that is nobody's (registered, or ``online`` either): with the account it looks
    like, if one does."""
    accounts = lobby.accounts
    alike = accounts.look_alike(name) if accounts is not None else None
    hint = now(' (did you mean {alike}?)', alike=alike) if alike is not None else ""
    if online:
        return BadCommand(later('nobody called {name} is registered or online{hint}', name=name, hint=hint))
    return BadCommand(later('nobody called {name} is registered{hint}', name=name, hint=hint))


def one_name(arg: str, usage: str) -> str:
    name = arg.strip()
    if not name or " " in name:
        raise BadCommand(later('usage: {usage}', usage=usage))
    return name


def registered_name(lobby: Lobby, name: str) -> str:
    """The account called ``name``, as registered, or one line saying there is none."""
    spelled = account_name(lobby, name)
    if spelled is None:
        online = lobby.find_user(name)
        if online is not None:
            raise BadCommand(later('{name} is a guest: only registered players have messages and notify lists',
                                   name=online.name))
        raise no_such(lobby, name, online=False)
    return spelled


# ------------------------------------------------------------------ finger and plans

def finger_message(lobby: Lobby, name: str) -> dict[str, Any]:
    """What /finger shows of ``name``: registered or guest, online (and where) or when last seen, away, their
    ratings, their last games with their places, their plan."""
    spelled = account_name(lobby, name)
    online = lobby.find_user(name)
    if spelled is None and online is None:
        raise no_such(lobby, name, online=True)
    shown = online.name if online is not None else spelled
    assert shown is not None
    where = None
    if online is not None:
        here = lobby.users.get(name.lower())
        where = lobby.where(here) if here is not None else lobby.directory.where(name)
    store = lobby.friends.store
    profile = lobby.friends.plan(shown) if spelled is not None else None
    ratings = store.ratings_of(shown) if store is not None else []
    games = store.games_of(shown, FINGER_GAMES) if store is not None else []
    return {"type": "finger", "name": shown, "registered": spelled is not None, "online": online is not None,
            "where": where, "away": lobby.friends.away_of(shown) if online is not None else None,
            "seen": iso_time(profile.seen) if profile is not None and profile.seen is not None else None,
            "ratings": [rating_row(r) for r in ratings], "games": [history_row(g, shown) for g in games],
            "plan": list(profile.plan) if profile is not None else [],
            "adjourned": [row["id"] for row in adjourned_rows(lobby.table_summaries(), shown, lobby.kept.adjourn_keep)]}


@command("finger", "/finger [NAME]", later("a player's profile: registered or guest, online or last seen, ratings, "
                                           'last games and places, plan, table (no NAME: yours)'),
         scope=Scope.LOBBY, kind=Kind.PEOPLE, place=1, route=Route.HOME)
def _finger(lobby: Lobby, session: Session, arg: str) -> Reply:
    name = arg.strip() or session.name
    if " " in name:
        raise BadCommand(later('usage: /finger [NAME]'))
    session.deliver(kept(lambda: finger_message(lobby, name)))
    return None


@command("plan", "/plan [add TEXT | clear]", later('your plan, the lines /finger shows of you: add a line, or clear '
                                                   'it (registered players)'),
         scope=Scope.LOBBY, kind=Kind.PEOPLE, place=2, route=Route.HOME)
def _plan(lobby: Lobby, session: Session, arg: str) -> Reply:
    verb, _, text = arg.strip().partition(" ")
    friends = lobby.friends
    if verb.lower() == "add":
        count = kept(lambda: friends.add_plan_line(session, text))
        return later_n('your plan has {n} line of {plan_lines} now', 'your plan has {n} lines of {plan_lines} now',
                       count, plan_lines=friends.limits.plan_lines)
    if verb.lower() == "clear" and not text:
        kept(lambda: friends.clear_plan(session))
        return later('your plan is empty now')
    if verb:
        raise BadCommand(later('usage: /plan, /plan add TEXT or /plan clear'))
    friends.kept(session, later("a plan"))
    profile = kept(lambda: friends.plan(session.name))
    session.deliver({"type": "plan", "name": session.name, "plan": list(profile.plan) if profile else [],
                     "limit": friends.limits.plan_lines})
    return None


# ------------------------------------------------------------------ notify lists

@command("notify", "/notify [NAME]", later('be told when NAME logs in or out (no NAME: your list, and who of it is '
                                           'online); /unnotify NAME undoes it'),
         scope=Scope.LOBBY, kind=Kind.PEOPLE, place=3, route=Route.HOME)
def _notify(lobby: Lobby, session: Session, arg: str) -> Reply:
    friends = lobby.friends
    if not arg.strip():
        session.deliver(kept(lambda: friends.notify_list(session)))
        return None
    friends.kept(session, now('a notify list'))
    name = registered_name(lobby, one_name(arg, "/notify [NAME]"))
    if name.lower() == session.name.lower():
        raise BadCommand(later('that is you: /notify NAME tells you when someone else logs in or out'))
    if not kept(lambda: friends.notify(session, name)):
        raise BadCommand(later('{name} is on your notify list already; /unnotify {name} takes them off', name=name))
    online = now(' (online now)') if lobby.find_user(name) is not None else ""
    return later('you will be told when {name}{online} logs in or out; /unnotify {name} undoes it',
                 name=name, online=online)


@command("unnotify", "/unnotify NAME", later('no longer be told when NAME logs in or out'),
         scope=Scope.LOBBY, kind=Kind.PEOPLE, place=4, route=Route.HOME)
def _unnotify(lobby: Lobby, session: Session, arg: str) -> Reply:
    name = one_name(arg, "/unnotify NAME")  # i18n: not text (what is typed)
    if not kept(lambda: lobby.friends.unnotify(session, name)):
        raise BadCommand(later('{name} is not on your notify list; /notify lists it', name=name))
    return later('{name} is off your notify list', name=name)


# ------------------------------------------------------------------ messages

@command("message", "/message NAME TEXT", later('leave a message for a registered player, online or not: shown at '
                                                'their next login (registered players)'),
         scope=Scope.LOBBY, kind=Kind.PEOPLE, place=5, route=Route.HOME)
def _message(lobby: Lobby, session: Session, arg: str) -> Reply:
    name, _, text = arg.strip().partition(" ")
    if not name or not text.strip():
        raise BadCommand(later('usage: /message NAME TEXT'))
    lobby.friends.kept(session, later("a message"))
    recipient = registered_name(lobby, name)
    message = kept(lambda: lobby.friends.leave_message(session, recipient, text))
    return later('message left for {recipient}', recipient=message.recipient)


def message_row(message: Any) -> dict[str, Any]:
    return {"id": message.id, "from": message.sender, "text": message.text, "sent": iso_time(message.sent),
            "unread": message.unread}


@command("messages", "/messages [clear]", later('read the messages left for you (then they are read); clear deletes '
                                                'them all'),
         scope=Scope.LOBBY, kind=Kind.PEOPLE, place=6, route=Route.HOME)
def _messages(lobby: Lobby, session: Session, arg: str) -> Reply:
    friends = lobby.friends
    what = arg.strip().lower()
    if what == "clear":
        count = kept(lambda: friends.clear_messages(session))
        return later_n('{n} message deleted', '{n} messages deleted', count) if count else later('you have no messages')
    if what:
        raise BadCommand(later('usage: /messages or /messages clear'))
    box, hidden = kept(lambda: friends.read_messages(session))
    session.deliver({"type": "messages", "messages": [message_row(m) for m in box], "hidden": hidden,
                     "limit": friends.limits.box})
    return None
