"""The last lines said somewhere (a channel, a table), each with when it was said, to show whoever comes in.

A bounded ring: saying a line past the bound forgets the oldest, so a busy room costs the same memory as a quiet
one. The time is passed in (seconds), as everywhere in the meeting place.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    """One line said: ``at`` in seconds, ``emote`` for ``/me``."""

    at: float
    speaker: str
    text: str
    emote: bool = False


class RecentLines:
    """The last ``keep`` lines, oldest first."""

    def __init__(self, keep: int) -> None:
        self._lines: deque[Line] = deque(maxlen=keep)

    def add(self, at: float, speaker: str, text: str, emote: bool = False) -> Line:
        line = Line(at, speaker, text, emote)
        self._lines.append(line)
        return line

    def keep(self, line: Line) -> None:
        """A line said elsewhere (another process), kept as it was said there, in the order of the times said (a
        line said there may arrive after one said here since)."""
        if not self._lines or self._lines[-1].at <= line.at:
            self._lines.append(line)
            return
        lines = [*self._lines, line]
        lines.sort(key=lambda kept: kept.at)  # stable: lines of one moment stay in the order they came
        self._lines = deque(lines[-self._lines.maxlen:] if self._lines.maxlen else lines, maxlen=self._lines.maxlen)

    def lines(self) -> tuple[Line, ...]:
        return tuple(self._lines)
