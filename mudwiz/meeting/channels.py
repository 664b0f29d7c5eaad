"""Channels: named rooms to talk in that people join and leave, apart from any table.

A registry fed by ``/channel join|leave``, ``/ch NAME TEXT``, logouts and a sysop's moderation, answering with
events (joined, with the recent lines to show the newcomer; left; a line said, with the names that should receive
it) that the lobby delivers wherever each member is (a cluster's other process included). The built-in channels
(one per game, and ``help``) are given at construction and always exist; joining any other valid name makes it,
and it goes when its last member leaves. Names of channels and of members are matched in any case, and a channel's
name is kept in lower case, as the store keeps the channels an account has joined. Each channel keeps its last
lines with the time they were said, so joining shows what is going on. Who ignores whom is asked, not kept here
(the lobby has the ignore lists), and the time is passed in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, field
from enum import Enum

from mudwiz.meeting.recent import Line, RecentLines
from mudwiz.meeting.refused import Refused
from mudwiz.texts import N_
from mudwiz.usertext import said

CHANNEL_RULE = re.compile(r"[A-Za-z0-9-]{2,16}")  # a channel's name: typeable anywhere, no spaces
Ignores = Callable[[str], Container[str] | None]  # a member -> the lower-case names they ignore (None: nobody)


@dataclass
class Channel:
    """A channel's state: ``members`` by lower-case name (as spelled), ``muted`` lower-case names."""

    name: str
    builtin: bool
    recent: RecentLines
    members: dict[str, str] = field(default_factory=dict)
    muted: set[str] = field(default_factory=set)

    def member_names(self) -> tuple[str, ...]:
        return tuple(self.members[key] for key in sorted(self.members))


@dataclass(frozen=True)
class ChannelInfo:
    """A channel as ``/channel`` lists it."""

    name: str
    builtin: bool
    members: tuple[str, ...]  # as spelled, in the order of their lower case


@dataclass(frozen=True)
class Joined:
    channel: str
    member: str
    made: bool  # the join made the channel
    recent: tuple[Line, ...]  # its last lines, oldest first, for the newcomer


@dataclass(frozen=True)
class Left:
    channel: str
    member: str
    closed: bool  # the last member left a user-made channel, which is gone


@dataclass(frozen=True)
class Said:
    channel: str
    line: Line
    to: tuple[str, ...]  # the members to deliver it to (the speaker too), as spelled


@dataclass(frozen=True)
class Moderated:
    channel: str
    name: str
    muted: bool  # True: muted now; False: may speak again
    by: str


ChannelEvent = Joined | Left | Said | Moderated


class ChannelRefusal(Enum):
    BAD_NAME = N_("a channel's name is 2 to 16 letters, digits or -: not {name}")
    NO_CHANNEL = N_("there is no channel {name}: /channel lists them")
    NOT_A_MEMBER = N_("you are not on {name}: /channel join {name}")
    ALREADY_A_MEMBER = N_("you are already on {name}")
    TOO_MANY_JOINED = N_("you are on {limit} channels already: /channel leave one first")
    TOO_MANY_CHANNELS = N_("there are {limit} channels made by users already: join one of them")
    MUTED = N_("you are muted on {name}: nothing was sent")
    NOT_A_SYSOP = N_("only a sysop may mute someone on a channel")
    ALREADY_MUTED = N_("{who} is already muted on {name}")
    NOT_MUTED = N_("{who} is not muted on {name}")


class ChannelRefused(Refused):
    reason: ChannelRefusal


class Channels:
    """Every channel. ``per_user`` caps the channels one person is on, ``user_made`` the channels made by users
    that exist at once, ``recent`` the lines each keeps; ``is_sysop`` says who may mute."""

    def __init__(self, builtin: Iterable[str], *, per_user: int = 10, user_made: int = 50, recent: int = 20,
                 is_sysop: Callable[[str], bool] = lambda name: False) -> None:
        self.per_user = per_user
        self.user_made = user_made
        self.recent = recent
        self.is_sysop = is_sysop
        self._channels: dict[str, Channel] = {}
        for name in builtin:  # trusted (a plugin's game name may fall outside the rule for names users make)
            self._channels[name.lower()] = Channel(name.lower(), True, RecentLines(recent))
        self._joined: dict[str, set[str]] = {}  # lower-case member -> the channels they are on

    # ------------------------------------------------------------ reading

    @staticmethod
    def valid(name: str) -> str:
        """``name`` as a channel is kept (lower case), or ``BAD_NAME``."""
        if not CHANNEL_RULE.fullmatch(name):
            raise ChannelRefused(ChannelRefusal.BAD_NAME, name=name)
        return name.lower()

    def listing(self) -> list[ChannelInfo]:
        """Every channel with its members: the built-in ones first, in the order given, then the others by name."""
        made = sorted((c for c in self._channels.values() if not c.builtin), key=lambda c: c.name)
        return [ChannelInfo(c.name, c.builtin, c.member_names())
                for c in [*(c for c in self._channels.values() if c.builtin), *made]]

    def members(self, channel: str) -> tuple[str, ...]:
        return self._find(channel).member_names()

    def channels_of(self, name: str) -> list[str]:
        """The channels ``name`` is on, by name."""
        return sorted(self._joined.get(name.lower(), ()))

    def recent_lines(self, channel: str) -> tuple[Line, ...]:
        return self._find(channel).recent.lines()

    def is_muted(self, channel: str, name: str) -> bool:
        return name.lower() in self._find(channel).muted

    # ------------------------------------------------------------ joining and leaving

    def join(self, name: str, channel: str) -> Joined:
        """Put ``name`` on ``channel``, making it if it is a new valid name."""
        found = self._channels.get(channel.lower())
        key = found.name if found is not None else self.valid(channel)
        if found is not None and name.lower() in found.members:
            raise ChannelRefused(ChannelRefusal.ALREADY_A_MEMBER, name=key)
        if len(self._joined.get(name.lower(), ())) >= self.per_user:
            raise ChannelRefused(ChannelRefusal.TOO_MANY_JOINED, limit=self.per_user)
        made = found is None
        if found is None:
            if sum(not c.builtin for c in self._channels.values()) >= self.user_made:
                raise ChannelRefused(ChannelRefusal.TOO_MANY_CHANNELS, limit=self.user_made)
            found = self._channels[key] = Channel(key, False, RecentLines(self.recent))
        found.members[name.lower()] = name
        self._joined.setdefault(name.lower(), set()).add(key)
        return Joined(key, name, made, found.recent.lines())

    def leave(self, name: str, channel: str) -> Left:
        found = self._find(channel)
        spelled = found.members.pop(name.lower(), None)
        if spelled is None:
            raise ChannelRefused(ChannelRefusal.NOT_A_MEMBER, name=found.name)
        on = self._joined[name.lower()]
        on.discard(found.name)
        if not on:
            del self._joined[name.lower()]
        closed = not found.builtin and not found.members
        if closed:
            del self._channels[found.name]
        return Left(found.name, spelled, closed)

    def logout(self, name: str) -> list[Left]:
        """``name`` has gone: off every channel (a registered account's channels stay in the store, to join again
        at the next login)."""
        return [self.leave(name, channel) for channel in self.channels_of(name)]

    # ------------------------------------------------------------ speaking

    def say(self, name: str, channel: str, text: str, now: float, ignores: Ignores = lambda member: None,
            emote: bool = False) -> Said:
        """``name`` says ``text`` on ``channel`` (cleaned and checked as chat is: ``BadCommand`` if blank or too
        long); kept among its recent lines and addressed to every member but those who ignore ``name``."""
        found = self._find(channel)
        speaker = found.members.get(name.lower())
        if speaker is None:
            raise ChannelRefused(ChannelRefusal.NOT_A_MEMBER, name=found.name)
        if name.lower() in found.muted:
            raise ChannelRefused(ChannelRefusal.MUTED, name=found.name)
        line = found.recent.add(now, speaker, said(text), emote)
        to = tuple(spelled for key, spelled in sorted(found.members.items())
                   if key == name.lower() or name.lower() not in (ignores(spelled) or ()))
        return Said(found.name, line, to)

    def heard(self, channel: str, line: Line) -> tuple[str, ...]:
        """A line said on ``channel`` on another process (checked there): kept among its recent lines; the members
        to deliver it to (each process delivers to its own, whose /ignore lists it has)."""
        found = self._channels.get(channel.lower())
        if found is None:
            return ()
        found.recent.keep(line)
        return found.member_names()

    # ------------------------------------------------------------ moderation

    def mute(self, sysop: str, channel: str, name: str) -> Moderated:
        """A sysop stops ``name`` speaking on ``channel`` (a member or not: it holds if they join later)."""
        found = self._moderated(sysop, channel)
        if name.lower() in found.muted:
            raise ChannelRefused(ChannelRefusal.ALREADY_MUTED, who=name, name=found.name)
        found.muted.add(name.lower())
        return Moderated(found.name, name, True, sysop)

    def unmute(self, sysop: str, channel: str, name: str) -> Moderated:
        found = self._moderated(sysop, channel)
        if name.lower() not in found.muted:
            raise ChannelRefused(ChannelRefusal.NOT_MUTED, who=name, name=found.name)
        found.muted.discard(name.lower())
        return Moderated(found.name, name, False, sysop)

    def set_muted(self, channel: str, name: str, muted: bool) -> None:
        """A sysop's mute on another process (checked there), as it was made there."""
        found = self._find(channel)
        (found.muted.add if muted else found.muted.discard)(name.lower())

    def _moderated(self, sysop: str, channel: str) -> Channel:
        found = self._find(channel)
        if not self.is_sysop(sysop):
            raise ChannelRefused(ChannelRefusal.NOT_A_SYSOP)
        return found

    def _find(self, channel: str) -> Channel:
        found = self._channels.get(channel.lower())
        if found is None:
            raise ChannelRefused(ChannelRefusal.NO_CHANNEL, name=channel)
        return found
