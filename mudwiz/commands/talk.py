"""The talk commands beyond chat and tells: channels, shouts, emotes and away marks (mudwiz/lobby/talk.py)."""

from __future__ import annotations

from typing import Any

from mudwiz.commands.help import is_sysop
from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.commands.spelling import spelled
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.lobby.talk import tag
from mudwiz.session import Session
from mudwiz.texts import later, now

CHANNEL_USAGE = "/channel [join|leave NAME]"  # i18n: not text (what is typed)
MUTE_USAGE = "/channel mute|unmute NAME WHO"  # i18n: not text (what is typed)


def channels_message(lobby: Lobby) -> dict[str, Any]:
    """Every channel (on every process) and who is on it."""
    return {"type": "channels", "channels": [{"name": c.name, "builtin": c.builtin, "members": list(c.members)}
                                             for c in lobby.talk.listing()]}


@command("channel", CHANNEL_USAGE,
         later('list the channels and who is on each; join or leave one (joining a new name makes it; joining shows '
               'its last lines); a sysop mutes or unmutes WHO on one: {mute_usage}', mute_usage=MUTE_USAGE),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=20, route=Route.HOME)
def _channel(lobby: Lobby, session: Session, arg: str) -> Reply:
    words = arg.split()
    if not words:
        session.deliver(channels_message(lobby))
        return None
    verb, rest = words[0].lower(), words[1:]
    if verb in ("join", "leave") and len(rest) == 1:
        if verb == "join":
            joined = lobby.talk.join(session, rest[0])
            made = now(' (a new channel)') if joined.made else ""
            return later('you are on {tag}{made}: /ch {channel} TEXT speaks there',
                         tag=tag(joined.channel), made=made, channel=joined.channel)
        left = lobby.talk.leave(session, rest[0])
        return later('you left {tag}', tag=tag(left.channel))
    if verb in ("mute", "unmute") and len(rest) == 2:
        if not is_sysop(lobby, session):
            raise BadCommand(later('only a sysop may mute someone on a channel'))
        done = lobby.talk.moderate(session, rest[0], spelled(lobby, rest[1]), verb == "mute")
        if done.muted:
            return later('{name} is muted on {tag}', name=done.name, tag=tag(done.channel))
        return later('{name} is no longer muted on {tag}', name=done.name, tag=tag(done.channel))
    raise BadCommand(later('usage: {channel_usage} (a sysop: {mute_usage})',
                           channel_usage=CHANNEL_USAGE, mute_usage=MUTE_USAGE))


@command("ch", "/ch NAME TEXT", later('speak on a channel you are on (/ch NAME /me TEXT: an emote there)'),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=21, route=Route.HOME)
def _ch(lobby: Lobby, session: Session, arg: str) -> Reply:
    name, _, text = arg.partition(" ")
    text = text.strip()
    emote = text.lower().startswith("/me ")
    if emote:
        text = text[4:]
    if not name or not text.strip():
        raise BadCommand(later('usage: /ch NAME TEXT (or /ch NAME /me TEXT)'))
    lobby.talk.say(session, name, text, emote)
    return None


@command("shout", "/shout TEXT", later('speak to everyone online, at a table or not (a few at once, then one a '
                                       'minute)'),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=22, route=Route.HOME)
def _shout(lobby: Lobby, session: Session, arg: str) -> Reply:
    if not arg:
        raise BadCommand(later('usage: /shout TEXT'))
    lobby.talk.shout(session, arg)
    return None


@command("me", "/me TEXT", later('an emote to the room you are in ("/me waves": * you waves)'),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=23, route=Route.TABLE)
def _me(lobby: Lobby, session: Session, arg: str) -> Reply:
    if not arg:
        raise BadCommand(later('usage: /me TEXT'))
    lobby.talk.emote(session, arg)
    return None


@command("away", "/away [TEXT]", later('mark yourself away, shown in /who and to anyone who tells you (any command '
                                       'you type then clears it)'),
         scope=Scope.LOBBY, kind=Kind.LOBBY, place=24, route=Route.HOME)
def _away(lobby: Lobby, session: Session, arg: str) -> Reply:
    text = lobby.talk.go_away(session, arg)
    return later('you are marked away: {text}', text=text) if text else later('you are marked away')
