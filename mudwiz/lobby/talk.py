"""The lobby's talk beyond chat and tells: channels, shouts, emotes, away marks, and the recent lines of channels
and tables.

The rules are the meeting place's (mudwiz/meeting/: channels.py, recent.py, presence.py); this part delivers what
they decide to the users of this process, keeps a registered account's channels in the store (joined again at
its next login), and tells the other processes of a cluster through the directory's ``talk``, whose messages come
back to each of them as ``heard``: every process keeps the whole of the channels (their members on every process,
their recent lines) and the away marks, so ``/channel``, ``/who`` and a joining newcomer need no round trip.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from twisted.internet.interfaces import IReactorTime

from mudwiz.errors import BadCommand
from mudwiz.lobby.directory import Directory
from mudwiz.lobby.people import LOBBY, People
from mudwiz.meeting.channels import ChannelInfo, ChannelRefused, Channels, Joined, Left, Moderated
from mudwiz.meeting.presence import MAX_AWAY, Away, AwayRefused
from mudwiz.meeting.recent import Line, RecentLines
from mudwiz.ratelimit import Buckets
from mudwiz.session import Session
from mudwiz.settings import env
from mudwiz.store.base import ListFull, Store, iso_time
from mudwiz.table import table_of
from mudwiz.texts import Later, later
from mudwiz.usertext import said

HELP_CHANNEL = "help"  # the built-in channel besides one per game
SHOUT_BURST, SHOUT_EVERY = 2, 60.0  # shouts at once, then one every so many seconds (MUDWIZ_SHOUT_BURST, _EVERY)
CHANNELS_PER_USER = 10  # channels one person is on (MUDWIZ_CHANNELS_PER_USER)
CHANNELS_MADE = 50  # channels made by users that exist at once (MUDWIZ_CHANNELS_MADE)
RECENT_LINES = 20  # lines a channel or a table keeps to show whoever comes in (MUDWIZ_RECENT_LINES)
SHOUT = "shout"  # the ``channel`` of a shout's chat message


@dataclass(frozen=True)
class TalkLimits:
    shout_burst: int = env("MUDWIZ_SHOUT_BURST", SHOUT_BURST)
    shout_every: float = env("MUDWIZ_SHOUT_EVERY", SHOUT_EVERY)
    per_user: int = env("MUDWIZ_CHANNELS_PER_USER", CHANNELS_PER_USER)
    user_made: int = env("MUDWIZ_CHANNELS_MADE", CHANNELS_MADE)
    recent: int = env("MUDWIZ_RECENT_LINES", RECENT_LINES)
    away_text: int = env("MUDWIZ_AWAY_TEXT", MAX_AWAY)


DEFAULT_TALK = TalkLimits()


def tag(channel: str) -> str:
    """A channel as a chat message names it: ``#wizard`` (never ``lobby``, ``tell``, ``shout`` or a table)."""
    return f"#{channel}"


def line_row(line: Line) -> dict[str, Any]:
    """A recent line as the protocol gives it."""
    return {"at": iso_time(line.at), "from": line.speaker, "text": line.text, "emote": line.emote}


def chat_message(where: str, line: Line) -> dict[str, Any]:
    """A line said, as every chat message is; ``emote`` only on an emote (so lobby and table chat stay as they
    were)."""
    message: dict[str, Any] = {"type": "chat", "from": line.speaker, "channel": where, "text": line.text}
    if line.emote:
        message["emote"] = True
    return message


class Talk:
    """Channels, shouts, emotes, away marks and recent lines; ``sysop`` says who may mute on a channel."""

    def __init__(self, clock: IReactorTime, people: People, directory: Directory, games: Iterable[str],
                 limits: TalkLimits = DEFAULT_TALK,
                 sysop: Callable[[Session], bool] = lambda session: False) -> None:
        self.clock = clock
        self.people = people
        self.directory = directory
        self.limits = limits
        self.sysop = sysop
        self.channels = Channels([*games, HELP_CHANNEL], per_user=limits.per_user, user_made=limits.user_made,
                                 recent=limits.recent, is_sysop=self._is_sysop)
        self.away = Away(limits.away_text)
        self.tables: dict[int, RecentLines] = {}  # table number -> its last lines (this process's tables)
        self.shouting = Buckets(clock, 1.0 / limits.shout_every, limits.shout_burst)

    @property
    def store(self) -> Store | None:
        records = self.people.records
        return records.store if records is not None else None

    def _is_sysop(self, name: str) -> bool:
        session = self.people.users.get(name.lower())
        return session is not None and self.sysop(session)

    def _deliver(self, names: Iterable[str], message: dict[str, Any]) -> None:
        """To those of ``names`` online here (each session's /ignore list drops what it must)."""
        for name in names:
            session = self.people.users.get(name.lower())
            if session is not None:
                session.deliver(message)

    def show_recent(self, session: Session, where: str, lines: Iterable[Line]) -> None:
        session.deliver({"type": "recent", "channel": where, "lines": [line_row(line) for line in lines]})

    # ------------------------------------------------------------ channels

    def listing(self) -> list[ChannelInfo]:
        return self.channels.listing()

    def join(self, session: Session, channel: str) -> Joined:
        """``session`` joins ``channel`` (made if new), kept with their account, and reads its recent lines."""
        joined = self.channels.join(session.name, channel)
        store = self.store
        if session.registered and store is not None:
            try:
                store.join_channel(session.name, joined.channel, self.limits.per_user)
            except ListFull:  # the registry caps the channels joined at the same number: kept as far as it goes
                pass
        self.directory.talk({"what": "join", "channel": joined.channel, "name": session.name})
        self.show_recent(session, tag(joined.channel), joined.recent)
        return joined

    def leave(self, session: Session, channel: str) -> Left:
        left = self.channels.leave(session.name, channel)
        store = self.store
        if session.registered and store is not None:
            store.leave_channel(session.name, left.channel)
        self.directory.talk({"what": "leave", "channel": left.channel, "name": session.name})
        return left

    def say(self, session: Session, channel: str, text: str, emote: bool = False) -> None:
        """``session`` says ``text`` on ``channel`` (an emote: ``emote``), cleaned and rate-limited as chat."""
        text = said(text)
        self.people.may_talk(session)
        done = self.channels.say(session.name, channel, text, self.clock.seconds(),
                                 lambda member: self.people.ignores.get(member.lower()), emote)
        self._deliver(done.to, chat_message(tag(done.channel), done.line))
        self.directory.talk({"what": "said", "channel": done.channel, "line": self._line_out(done.line)})

    def moderate(self, sysop: Session, channel: str, name: str, mute: bool) -> Moderated:
        """A sysop mutes (or lets speak again) ``name`` on ``channel``; the one muted is told."""
        change = self.channels.mute if mute else self.channels.unmute
        done = change(sysop.name, channel, name)
        self.directory.talk({"what": "mute", "channel": done.channel, "name": done.name, "muted": done.muted})
        target = self.people.find_user(name)
        if target is not None and target is not sysop:
            said = {"name": sysop.name, "channel": tag(done.channel)}
            target.notice(later("{name} muted you on {channel}.", **said) if mute
                          else later("{name} lets you speak again on {channel}.", **said))
        return done

    @staticmethod
    def _line_out(line: Line) -> dict[str, Any]:
        return {"at": line.at, "from": line.speaker, "text": line.text, "emote": line.emote}

    # ------------------------------------------------------------ shouts, emotes, table chat

    def shout(self, session: Session, text: str) -> None:
        """``text`` to everyone online, at most ``shout_burst`` at once, then one every ``shout_every`` s."""
        text = said(text)
        if not self.shouting.take(session.name.lower()):
            raise BadCommand(later("you are shouting too fast: {burst} shouts at once, then one every {seconds:g} s",
                                   burst=self.limits.shout_burst, seconds=self.limits.shout_every))
        message = {"type": "chat", "from": session.name, "channel": SHOUT, "text": text}
        self._deliver(list(self.people.users), message)
        self.directory.talk({"what": "shout", "message": message})

    def emote(self, session: Session, text: str) -> None:
        """``/me``: an emote to the room ``session`` is in, the lobby (every process's) or their table."""
        line = Line(self.clock.seconds(), session.name, said(text), True)
        self.people.may_talk(session)
        table = table_of(session)
        if table is None:
            message = chat_message(LOBBY, line)
            for s in self.people.in_lobby():
                s.deliver(message)
            self.directory.chat(message)
            return
        for s in table.roster.viewers():
            s.deliver(chat_message(f"table {table.id}", line))
        self.tables.setdefault(table.id, RecentLines(self.limits.recent)).keep(line)

    def chat(self, session: Session, text: str) -> None:
        """Chat as the people part says it, a table's line kept among its recent lines."""
        self.people.chat(session, text)
        table = session.table
        if table is not None:
            self.tables.setdefault(table.id, RecentLines(self.limits.recent)).add(
                self.clock.seconds(), session.name, said(text))

    def show_table(self, session: Session, table_id: int) -> None:
        """Sitting at or watching a table: its last lines, if it has any."""
        lines = self.tables.get(table_id)
        if lines is not None and lines.lines():
            self.show_recent(session, f"table {table_id}", lines.lines())

    def table_closed(self, table_id: int) -> None:
        self.tables.pop(table_id, None)

    # ------------------------------------------------------------ away

    def go_away(self, session: Session, text: str) -> str:
        """Mark ``session`` away with ``text`` (cleaned; ``AwayRefused`` when too long); the text kept."""
        went = self.away.away(session.name, text)
        self.directory.talk({"what": "away", "name": session.name, "text": went.text})
        return went.text

    def active(self, session: Session, line: str) -> None:
        """``session`` typed ``line``: no longer away (told so, unless the line is ``/away`` again)."""
        if self.away.back(session.name) is None:
            return
        self.directory.talk({"what": "back", "name": session.name})
        if line.split(" ", 1)[0].lower() != "/away":
            session.notice(later("You are back: no longer marked away."))

    def away_text(self, name: str) -> str | None:
        """``name``'s away text ("" for none given), None when they are not away: on any process."""
        return self.away.text_of(name)

    def away_reply(self, name: str) -> Later | None:
        """What a teller reads when ``name`` is away (None: they are not)."""
        text = self.away.text_of(name)
        if text is None:
            return None
        found = self.people.find_user(name)
        shown = found.name if found is not None else name
        return later("{name} is away: {text}", name=shown, text=text) if text else later("{name} is away", name=shown)

    def mark_away(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """/who rows, with ``away`` (the text) in those of users marked away."""
        for row in rows:
            text = self.away.text_of(row["name"])
            if text is not None:
                row["away"] = text
        return rows

    # ------------------------------------------------------------ arriving and leaving

    def login(self, session: Session) -> None:
        """A registered account is on its kept channels again (told in one line)."""
        store = self.store
        if not session.registered or store is None:
            return
        on = self.channels.channels_of(session.name)  # a connection taken over: still on them
        for channel in store.channels_of(session.name):
            if channel in on:
                continue
            try:
                on.append(self.channels.join(session.name, channel).channel)
            except ChannelRefused:  # a limit lowered since, or a name the rules no longer take: left in the store
                continue
            self.directory.talk({"what": "join", "channel": channel, "name": session.name})
        if on:
            session.notice(later("You are on {channels}: /ch NAME TEXT speaks there.",
                                 channels=", ".join(map(tag, on))))

    def logout(self, session: Session) -> None:
        self.channels.logout(session.name)
        self.away.logout(session.name)
        self.directory.talk({"what": "logout", "name": session.name})

    # ------------------------------------------------------------ the other processes (cluster)

    def snapshot(self) -> dict[str, Any]:
        """What this process's users are on and away with, for a process that starts hearing it."""
        channels: dict[str, list[str]] = {}
        away: dict[str, str] = {}
        for session in self.people.users.values():
            for channel in self.channels.channels_of(session.name):
                channels.setdefault(channel, []).append(session.name)
            text = self.away.text_of(session.name)
            if text is not None:
                away[session.name] = text
        return {"what": "snapshot", "channels": channels, "away": away}

    def forget(self, names: Iterable[str]) -> None:
        """Users of a process gone: off every channel, not away."""
        for name in names:
            self.channels.logout(name)
            self.away.logout(name)

    def heard(self, message: dict[str, Any]) -> None:
        """What another process's talk changed (``what``): applied here as it was there; what it refused was
        checked there and is not refused again (a refusal here is a replica a step behind, and is let pass)."""
        what, name = message["what"], message.get("name", "")
        try:
            if what == "join":
                self.channels.join(name, message["channel"])
            elif what == "leave":
                self.channels.leave(name, message["channel"])
            elif what == "logout":
                self.forget([name])
            elif what == "said":
                row = message["line"]
                line = Line(float(row["at"]), row["from"], row["text"], bool(row["emote"]))
                self._deliver(self.channels.heard(message["channel"], line), chat_message(tag(message["channel"]),
                                                                                          line))
            elif what == "shout":
                self._deliver(list(self.people.users), message["message"])
            elif what == "mute":
                self.channels.set_muted(message["channel"], name, bool(message["muted"]))
            elif what == "away":
                self.away.away(name, message["text"])
            elif what == "back":
                self.away.back(name)
            elif what == "snapshot":
                self._heard_snapshot(message)
        except (ChannelRefused, AwayRefused):
            pass

    def _heard_snapshot(self, message: dict[str, Any]) -> None:
        for channel, names in message["channels"].items():
            for name in names:
                if name.lower() not in {m.lower() for m in self.channels_members(channel)}:
                    try:
                        self.channels.join(name, channel)
                    except ChannelRefused:
                        continue
        for name, text in message["away"].items():
            try:
                self.away.away(name, text)
            except AwayRefused:
                continue

    def channels_members(self, channel: str) -> tuple[str, ...]:
        try:
            return self.channels.members(channel)
        except ChannelRefused:
            return ()
