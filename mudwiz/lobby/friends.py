"""What is kept about a registered player between logins, and who is told of them: notify lists (whom to tell as
someone logs in or out), ignore lists, messages left for them while away, their ``/plan`` and when they were last
seen.

All of it lives in the store (mudwiz/store/meeting.py), not in a process's memory, so it outlives a restart and
reads the same on every process of a cluster. Whoever is to be told is found as a tell finds its target
(``People.find_user``): here, or through the directory on another process, where the line is delivered. Only a
registered name has anything kept: a guest's name is the next guest's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from mudwiz.errors import BadCommand
from mudwiz.lobby.people import People
from mudwiz.meeting.presence import notify_fanout, online_of
from mudwiz.session import Session
from mudwiz.settings import env
from mudwiz.store import Store, StoreError
from mudwiz.store.base import ListFull, Message, Profile
from mudwiz.texts import Later, later
from mudwiz.usertext import spoken

log = Logger(namespace="mudwiz.lobby.friends")

NOTIFY_MAX = 50  # names on one notify list (MUDWIZ_NOTIFY_MAX)
MESSAGE_BOX = 50  # messages one player's box holds, read or not (MUDWIZ_MESSAGE_BOX)
MESSAGE_LENGTH = 400  # characters of one message (MUDWIZ_MESSAGE_LENGTH): five rows of 80
PLAN_LINES = 5  # lines of a /plan (MUDWIZ_PLAN_LINES)
PLAN_WIDTH = 76  # characters of one line of a /plan: a row of 80 with /finger's indent


@dataclass(frozen=True)
class FriendLimits:
    """How long each kept list may grow (docs/operations.md names their variables)."""

    notify: int = env("MUDWIZ_NOTIFY_MAX", NOTIFY_MAX)
    box: int = env("MUDWIZ_MESSAGE_BOX", MESSAGE_BOX)
    message: int = env("MUDWIZ_MESSAGE_LENGTH", MESSAGE_LENGTH)
    plan_lines: int = env("MUDWIZ_PLAN_LINES", PLAN_LINES)
    plan_width: int = env("MUDWIZ_PLAN_WIDTH", PLAN_WIDTH)


DEFAULT_FRIEND_LIMITS = FriendLimits()


def one_line(text: str, limit: int, what: Later, unchanged: Later) -> str:
    """``text`` cleaned as chat is, or one line saying why it cannot be kept: blank, or longer than ``limit``."""
    line = spoken(text)
    if not line:
        raise BadCommand(later("{what} is blank: {unchanged}", what=what, unchanged=unchanged))
    if len(line) > limit:
        raise BadCommand(later("{what} is at most {limit} characters (this one has {length}); {unchanged}",
                               what=what, limit=limit, length=len(line), unchanged=unchanged))
    return line


def nobody_away(name: str) -> str | None:
    """The away text of ``name``: none, until the lobby's away part (``/away``) is wired in as ``away_of``."""
    return None


def kept(what: Callable[[], Any]) -> Any:
    """A store that cannot be read or written, said in one line (as /history says it): for the commands of the
    meeting place and the tournaments, which call the store on the reactor's thread."""
    try:
        return what()
    except StoreError as exc:
        raise BadCommand(later("that cannot be read now: {why}", why=str(exc))) from None


class Friends:
    """The lobby's part for notify lists, messages, plans and last seen; it reads and writes the store of the
    people's records, and finds whom to tell through ``people``."""

    def __init__(self, clock: IReactorTime, people: People, limits: FriendLimits = DEFAULT_FRIEND_LIMITS) -> None:
        self.clock = clock
        self.people = people
        self.limits = limits
        # hook: the away text of a name, online here or elsewhere (None: not away); the away part sets it
        self.away_of: Callable[[str], str | None] = nobody_away

    @property
    def store(self) -> Store | None:
        records = self.people.records
        return None if records is None else records.store

    def kept(self, session: Session, what: str | Later) -> Store:
        """The store, for a registered ``session``'s own list; refused in one line for a guest or without one."""
        store = self.store
        if store is None:
            raise BadCommand(later("this server keeps nothing between logins"))
        if not session.registered:
            raise BadCommand(later("{what} is kept with an account, and you are a guest: /register keeps your name "
                                   "first", what=what))
        return store

    def _online(self, name: str) -> bool:
        return self.people.find_user(name) is not None

    # ------------------------------------------------------------ arriving and leaving

    def arrived(self, session: Session) -> None:
        """``session`` (registered) logged in: those who watch for them are told, and they are told which of
        their own list are online and how many new messages wait. A store that cannot be read costs the lines,
        never the login."""
        store = self.store
        if store is None or not session.registered:
            return
        try:
            watchers = store.notifying(session.name)
            watched = store.notify_list(session.name)
            self._ignoring_as_kept(session, store.ignore_list(session.name))
            unread = self._unread(store, session)
        except StoreError:
            log.failure("notify and messages of {name} at login", name=session.name)
            return
        self._tell(session.name, watchers, arrived=True)
        if watched:
            session.deliver({"type": "notify_list", "names": watched, "online": online_of(watched, self._online),
                             "limit": self.limits.notify, "login": True})
        if unread:
            session.deliver({"type": "new_messages", "unread": unread, "from": None})

    def left(self, session: Session) -> None:
        """``session`` (registered) logged out: when is kept as last seen, and their watchers are told."""
        store = self.store
        if store is None or not session.registered:
            return
        try:
            store.mark_seen(session.name, self.clock.seconds())
            watchers = store.notifying(session.name)
        except StoreError:
            log.failure("last seen and notify of {name} at logout", name=session.name)
            return
        self._tell(session.name, watchers, arrived=False)

    def all_leaving(self, sessions: list[Session]) -> None:
        """The server is stopping: everyone's last seen is now (nobody is told: everyone is leaving at once)."""
        store = self.store
        if store is None:
            return
        now = self.clock.seconds()
        try:
            for session in sessions:
                if session.registered:
                    store.mark_seen(session.name, now)
        except StoreError as exc:  # the database away: one line, as any failed write
            log.error("last seen as the server stops NOT written: {why}", why=exc)

    def _tell(self, name: str, watchers: list[str], *, arrived: bool) -> None:
        notice = notify_fanout(name, watchers, self._online, arrived=arrived)
        for watcher in notice.to:
            target = self.people.find_user(watcher)
            if target is not None:
                target.deliver({"type": "notify", "name": name, "event": "arrived" if arrived else "left"})

    # ------------------------------------------------------------ notify lists

    def notify_list(self, session: Session) -> dict[str, Any]:
        store = self.kept(session, later("a notify list"))
        watched = store.notify_list(session.name)
        return {"type": "notify_list", "names": watched, "online": online_of(watched, self._online),
                "limit": self.limits.notify, "login": False}

    def notify(self, session: Session, name: str) -> bool:
        """Put the account ``name`` (as registered) on ``session``'s list; False: it was there already."""
        store = self.kept(session, later("a notify list"))
        try:
            return store.add_notify(session.name, name, self.limits.notify)
        except ListFull as full:
            raise BadCommand(later("your notify list holds {limit} names already, the most it may; /unnotify one "
                                   "first", limit=full.limit)) from None

    def unnotify(self, session: Session, name: str) -> bool:
        return self.kept(session, later("a notify list")).remove_notify(session.name, name)

    # ------------------------------------------------------------ messages

    def leave_message(self, session: Session, recipient: str, text: str) -> Message:
        """Leave ``text`` for the account ``recipient`` (as registered); one that is online, here or on another
        process, is told at once that it came."""
        store = self.kept(session, later("a message"))
        text = one_line(text, self.limits.message, later("a message"), later("nothing was sent"))
        self.people.may_talk(session)
        try:
            message = store.leave_message(session.name, recipient, text, self.clock.seconds(), self.limits.box)
        except ListFull as full:
            raise BadCommand(later("{name}'s message box is full ({limit} messages): nothing was sent; try again once "
                                   "they have read and cleared it", name=recipient, limit=full.limit)) from None
        except KeyError:
            raise BadCommand(later("{name} is not registered: messages are kept for accounts only",
                                   name=recipient)) from None
        target = self.people.find_user(message.recipient)
        ignored = target is not None and session.name.lower() in (target.ignoring or ())
        if target is not None and target.registered and not ignored:  # one who /ignores the sender is not told
            target.deliver({"type": "new_messages", "unread": self._unread(store, target),
                            "from": session.name})
        return message

    def read_messages(self, session: Session) -> tuple[list[Message], int]:
        """``session``'s messages, oldest first, as they were before this read, but those of names they ignore,
        and how many those are (they still take places in the box); from now on all of them read."""
        store = self.kept(session, later("a message box"))
        box = store.messages(session.name)
        store.mark_read(session.name, [m.id for m in box if m.unread])
        shown = self._shown(box, session)
        return shown, len(box) - len(shown)

    def _unread(self, store: Store, session: Session) -> int:
        """How many unread messages ``session`` will be shown: one from a name they ignore is not counted."""
        if not session.ignoring:
            return store.unread_messages(session.name)
        return sum(1 for m in self._shown(store.messages(session.name), session) if m.unread)

    @staticmethod
    def _shown(box: list[Message], session: Session) -> list[Message]:
        """The messages of ``box`` ``session`` is shown: not those of a name they ignore."""
        ignoring = session.ignoring or ()
        return [m for m in box if m.sender.lower() not in ignoring]

    # ------------------------------------------------------------ ignore lists

    def _ignoring_as_kept(self, session: Session, names: list[str]) -> None:
        """At a registered login the store's list is the one that holds: it was changed last, maybe on another
        process, maybe before a restart (this process's memory may hold an older one)."""
        key = session.name.lower()
        if names:
            session.ignoring = self.people.ignores[key] = set(names)
        else:
            self.people.ignores.pop(key, None)
            session.ignoring = None

    def keep_ignoring(self, session: Session, name: str, limit: int) -> None:
        """A registered player's ``/ignore`` kept in the store, so it holds after a restart and on every process
        (a guest's lives in this process's memory only: the name is the next guest's). Refused in one line, nothing
        changed, when the store cannot be written; ``ListFull`` when the kept list holds ``limit`` names (another
        process may have added to it)."""
        store = self.store
        if store is not None and session.registered:
            kept(lambda: store.add_ignore(session.name, name, limit))

    def forget_ignoring(self, session: Session, name: str) -> None:
        """``/unignore`` kept as ``/ignore`` is."""
        store = self.store
        if store is not None and session.registered:
            kept(lambda: store.remove_ignore(session.name, name))

    def clear_messages(self, session: Session) -> int:
        return self.kept(session, later("a message box")).clear_messages(session.name)

    # ------------------------------------------------------------ plans

    def plan(self, name: str) -> Profile | None:
        store = self.store
        return None if store is None else store.profile(name)

    def add_plan_line(self, session: Session, text: str) -> int:
        """Add a line to ``session``'s plan; how many lines it has now."""
        store = self.kept(session, later("a plan"))
        line = one_line(text, self.limits.plan_width, later("a line of a plan"), later("your plan is as it was"))
        profile = store.profile(session.name)
        lines = profile.plan if profile is not None else ()
        if len(lines) >= self.limits.plan_lines:
            raise BadCommand(later("your plan has {limit} lines already, the most it may; /plan clear empties it",
                                   limit=self.limits.plan_lines))
        store.set_plan(session.name, [*lines, line])
        return len(lines) + 1

    def clear_plan(self, session: Session) -> None:
        self.kept(session, later("a plan")).set_plan(session.name, [])
