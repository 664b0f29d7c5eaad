"""The talk commands beyond chat and tells: channels, shouts, emotes and away marks (mudwiz/lobby/talk.py)."""

from __future__ import annotations

from typing import Any

from mudwiz.commands.help import is_sysop
from mudwiz.commands.registry import Kind, Route, Scope, command
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.lobby.talk import tag
from mudwiz.session import Session

CHANNEL_USAGE = "/channel [join|leave NAME]"
MUTE_USAGE = "/channel mute|unmute NAME WHO"


def channels_message(lobby: Lobby) -> dict[str, Any]:
    """Every channel (on every process) and who is on it."""
    return {"type": "channels", "channels": [{"name": c.name, "builtin": c.builtin, "members": list(c.members)}
                                             for c in lobby.talk.listing()]}


def spelled(lobby: Lobby, name: str) -> str:
    """``name`` as its owner spells it, found as /ignore finds a name (online, held or registered)."""
    online = lobby.find_user(name)
    if online is not None:
        return online.name
    if lobby.holds_name(name) or lobby.registered(name):
        return lobby.held_spelling(name)
    raise BadCommand(f"nobody is called {name}")


@command("channel", CHANNEL_USAGE,
         "list the channels and who is on each; join or leave one (joining a new name makes it; joining shows its "
         f"last lines); a sysop mutes or unmutes WHO on one: {MUTE_USAGE}",
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=20, route=Route.HOME)
def _channel(lobby: Lobby, session: Session, arg: str) -> str | None:
    words = arg.split()
    if not words:
        session.deliver(channels_message(lobby))
        return None
    verb, rest = words[0].lower(), words[1:]
    if verb in ("join", "leave") and len(rest) == 1:
        if verb == "join":
            joined = lobby.talk.join(session, rest[0])
            made = " (a new channel)" if joined.made else ""
            return f"you are on {tag(joined.channel)}{made}: /ch {joined.channel} TEXT speaks there"
        left = lobby.talk.leave(session, rest[0])
        return f"you left {tag(left.channel)}"
    if verb in ("mute", "unmute") and len(rest) == 2:
        if not is_sysop(lobby, session):
            raise BadCommand("only a sysop may mute someone on a channel")
        done = lobby.talk.moderate(session, rest[0], spelled(lobby, rest[1]), verb == "mute")
        return f"{done.name} is {'muted' if done.muted else 'no longer muted'} on {tag(done.channel)}"
    raise BadCommand(f"usage: {CHANNEL_USAGE} (a sysop: {MUTE_USAGE})")


@command("ch", "/ch NAME TEXT", "speak on a channel you are on (/ch NAME /me TEXT: an emote there)",
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=21, route=Route.HOME)
def _ch(lobby: Lobby, session: Session, arg: str) -> str | None:
    name, _, text = arg.partition(" ")
    text = text.strip()
    emote = text.lower().startswith("/me ")
    if emote:
        text = text[4:]
    if not name or not text.strip():
        raise BadCommand("usage: /ch NAME TEXT (or /ch NAME /me TEXT)")
    lobby.talk.say(session, name, text, emote)
    return None


@command("shout", "/shout TEXT", "speak to everyone online, at a table or not (a few at once, then one a minute)",
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=22, route=Route.HOME)
def _shout(lobby: Lobby, session: Session, arg: str) -> str | None:
    if not arg:
        raise BadCommand("usage: /shout TEXT")
    lobby.talk.shout(session, arg)
    return None


@command("me", "/me TEXT", "an emote to the room you are in (\"/me waves\": * you waves)",
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=23, route=Route.TABLE)
def _me(lobby: Lobby, session: Session, arg: str) -> str | None:
    if not arg:
        raise BadCommand("usage: /me TEXT")
    lobby.talk.emote(session, arg)
    return None


@command("away", "/away [TEXT]", "mark yourself away, shown in /who and to anyone who tells you (any command you "
                                 "type then clears it)",
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=24, route=Route.HOME)
def _away(lobby: Lobby, session: Session, arg: str) -> str | None:
    text = lobby.talk.go_away(session, arg)
    return f"you are marked away: {text}" if text else "you are marked away"
