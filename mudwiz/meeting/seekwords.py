"""The words of ``/seek GAME [N] [rated|casual] [min=R] [max=R] [OPTION[=VALUE] ...]``, read into a request.

Read here, apart from the command registry, so the one grammar is tested alone and the terminal client's completion
and the docs can follow it. Only the words are checked: whether the game exists, how many it seats and what its
options mean are the game's business (the lobby's normaliser), and whether a seek is rated by default (a guest has
no rating to risk) is the lobby's. Everything after the game may come in any order; each at most once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TypeVar

from mudwiz.meeting.refused import Refused
from mudwiz.numbers import whole_number
from mudwiz.texts import N_, Later, later

T = TypeVar("T")
USAGE = N_("usage: /seek GAME [N] [rated|casual] [min=R] [max=R] [OPTION[=VALUE] ...]")


@dataclass(frozen=True)
class SeekRequest:
    """What ``/seek`` asked for: ``players`` None for the game's usual count, ``rated`` None when neither word
    was given, ``options`` as typed (name in lower case, value None for a bare flag), in the order typed."""

    game: str
    players: int | None = None
    rated: bool | None = None
    min_rating: int | None = None
    max_rating: int | None = None
    options: tuple[tuple[str, str | None], ...] = ()


class SeekWordsRefusal(Enum):
    USAGE = USAGE
    TWICE = N_("{what} is given twice: nothing was sought")
    BAD_NUMBER = N_("{what} needs a whole number, not {value}")


class SeekWordsRefused(Refused):
    reason: SeekWordsRefusal


def _number(what: str | Later, value: str) -> int:
    number = whole_number(value)
    if number is None:
        raise SeekWordsRefused(SeekWordsRefusal.BAD_NUMBER, what=what, value=value)
    return number


def _once(what: str | Later, had: T | None, new: T) -> T:
    if had is not None:
        raise SeekWordsRefused(SeekWordsRefusal.TWICE, what=what)
    return new


def parse_seek(words: Sequence[str]) -> SeekRequest:
    """``words`` (after ``/seek``) as a ``SeekRequest``, or a ``SeekWordsRefused`` saying what was wrong."""
    if not words or not words[0] or "=" in words[0] or whole_number(words[0]) is not None:
        raise SeekWordsRefused(SeekWordsRefusal.USAGE)
    players: int | None = None
    rated: bool | None = None
    low: int | None = None
    high: int | None = None
    options: dict[str, str | None] = {}
    for word in words[1:]:
        lowered = word.lower()
        name, equals, value = lowered.partition("=")
        if whole_number(word) is not None:
            players = _once(later("the number of players"), players, int(word))
        elif lowered in ("rated", "casual"):
            rated = _once(later("rated or casual"), rated, lowered == "rated")
        elif equals and name == "min":
            low = _once("min=", low, _number("min=", value))
        elif equals and name == "max":
            high = _once("max=", high, _number("max=", value))
        elif not name:
            raise SeekWordsRefused(SeekWordsRefusal.USAGE)
        elif name in options:
            raise SeekWordsRefused(SeekWordsRefusal.TWICE, what=name)
        else:
            options[name] = value if equals else None
    return SeekRequest(words[0].lower(), players, rated, low, high, tuple(options.items()))
