"""Presence beyond "online": away texts, and whom to tell as someone logs in or out.

``Away`` keeps each name's away text; the lobby clears it before it runs any command of theirs (so ``/away`` then
sets it anew) and forgets it at logout. The notify fan-out is a pure function of what the store says (``notifying``:
the lower-case names whose lists hold someone) and who is online, so the lobby asks the store, then this, then
delivers, on whichever process each watcher is.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass
from enum import Enum

from mudwiz.meeting.refused import Refused
from mudwiz.texts import N_
from mudwiz.usertext import spoken

MAX_AWAY = 120  # characters of an away text: it is shown in /who and /finger and to every teller
Online = Callable[[str], bool] | Container[str]  # is this lower-case name online? (a set of them will do)


@dataclass(frozen=True)
class WentAway:
    name: str
    text: str  # "" when no text was given


@dataclass(frozen=True)
class CameBack:
    name: str
    text: str  # the away text cleared


class AwayRefusal(Enum):
    TOO_LONG = N_("an away text is at most {limit} characters (this one has {length}): you are not marked away")


class AwayRefused(Refused):
    reason: AwayRefusal


class Away:
    """Who is away, with the text they left (cleaned as chat is, at most ``max_text`` characters)."""

    def __init__(self, max_text: int = MAX_AWAY) -> None:
        self.max_text = max_text
        self._texts: dict[str, tuple[str, str]] = {}  # lower-case name -> (name as spelled, text)

    def away(self, name: str, text: str = "") -> WentAway:
        """Mark ``name`` away with ``text`` (replacing any they had)."""
        text = spoken(text)
        if len(text) > self.max_text:
            raise AwayRefused(AwayRefusal.TOO_LONG, limit=self.max_text, length=len(text))
        self._texts[name.lower()] = (name, text)
        return WentAway(name, text)

    def back(self, name: str) -> CameBack | None:
        """``name`` typed a command: no longer away (None: they were not)."""
        was = self._texts.pop(name.lower(), None)
        return None if was is None else CameBack(was[0], was[1])

    def text_of(self, name: str) -> str | None:
        """``name``'s away text ("" for none given), or None when they are not away."""
        was = self._texts.get(name.lower())
        return None if was is None else was[1]

    def logout(self, name: str) -> None:
        """Forget ``name``'s away text: a new login is not away."""
        self._texts.pop(name.lower(), None)


@dataclass(frozen=True)
class Notice:
    """Tell ``to`` (lower-case names) that ``name`` has logged in (``arrived``) or out."""

    name: str
    arrived: bool
    to: tuple[str, ...]


def _is_online(online: Online) -> Callable[[str], bool]:
    return online if callable(online) else online.__contains__


def notify_fanout(name: str, notifying: Iterable[str], online: Online, *, arrived: bool) -> Notice:
    """Whom to tell of ``name``'s login or logout: those of ``notifying`` (the store's ``notifying(name)``) who are
    online, each once, not ``name`` themself, in order of name."""
    is_online = _is_online(online)
    to = sorted({watcher.lower() for watcher in notifying if watcher.lower() != name.lower()})
    return Notice(name, arrived, tuple(watcher for watcher in to if is_online(watcher)))


def online_of(watched: Iterable[str], online: Online) -> list[str]:
    """Which of a notify list (as the store spells it) are online: told at the list's owner's login."""
    is_online = _is_online(online)
    return [name for name in watched if is_online(name.lower())]
