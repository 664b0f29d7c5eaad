"""The events engines return, and the ones the trick-taking games share: the what-happened half of a move, which
the renderers put into words and the table sends to each viewer as that viewer may see it.
"""

from __future__ import annotations

import dataclasses
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mypy_extensions import mypyc_attr


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


# an event class -> its JSON type and its fields' names: asked for every event of every move, so worked out once
# per class (a regular expression and ``dataclasses.fields`` each time were a few per cent of a move)
_SHAPES: dict[type, tuple[str, tuple[str, ...]]] = {}


def _shape(cls: type) -> tuple[str, tuple[str, ...]]:
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = (_snake(cls.__name__), tuple(f.name for f in dataclasses.fields(cls)))
    return shape


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class Event:
    """Something that happened. Engines return these; renderers choose the words and colours.

    Players are named, not numbered, so an event means the same in a log, a JSON line or a screen.
    ``visible_to`` lets an event hide from some viewers what only one player may know.
    """

    @property
    def type(self) -> str:
        return _shape(type(self))[0]

    def visible_to(self, viewer: str | None) -> Event | None:
        """The event as ``viewer`` (a player name, or None for an observer) may see it; None: not at all."""
        return self

    def to_dict(self) -> dict[str, Any]:
        """The event's fields, as its message carries them. Flat: events hold plain JSON values, built fresh by
        each move and never changed, so they are shared rather than deep-copied (``asdict``) for every viewer."""
        kind, names = _shape(type(self))
        return {"type": kind, **{name: getattr(self, name) for name in names}}


@mypyc_attr(native_class=False)
class TimedReveal(ABC):
    """Declared by an event that opens cards to its viewers for a while (Tiltowait's MILWA: ``class
    MilwaReveal(Event, TimedReveal)``). Engines keep no clock, so the event says for how long and whose cards; the
    table times it and tells each viewer who saw it when it is over. A mixin rather than an ``Event``: it is no
    event of its own, only something an event is."""

    @property
    @abstractmethod
    def reveal_seconds(self) -> float:
        """How long the cards stay open; for 0 (not timed) the table sends no ``reveal_end``."""

    @property
    @abstractmethod
    def revealed_player(self) -> str:
        """Whose cards are open: the ``player`` of the ``reveal_end`` message that closes them."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Refuse, when it is defined, a class that does not say how long and whose: Python would refuse to make
        one of its events, but not once ``Event`` is compiled (mudwiz/compiled.py), whose events are made by
        mypyc's code, which does not look for abstract methods."""
        super().__init_subclass__(**kwargs)
        missing = [name for name in ("reveal_seconds", "revealed_player")
                   if getattr(cls, name) is getattr(TimedReveal, name)]
        if missing:
            raise TypeError(f"{cls.__name__} declares a TimedReveal but leaves abstract: {', '.join(missing)}")



def standings(names: Sequence[str], scores: Sequence[int], low_wins: bool = False,
              behind: Sequence[bool] = ()) -> list[dict[str, Any]]:
    """Final places with ties sharing a place (1, 1, 3): the player, their score and their place. ``behind``: the
    seats placed below every other whatever their scores (a game its people left: docs/accounts.md), ordered among
    themselves by score."""
    sign = -1 if low_wins else 1
    rank = [(bool(behind) and behind[s], -sign * scores[s]) for s in range(len(names))]
    order = sorted(range(len(names)), key=lambda s: (rank[s], s))
    return [
        {
            "player": names[s],
            "score": scores[s],
            "place": 1 + sum(1 for t in range(len(names)) if rank[t] < rank[s]),
        }
        for s in order
    ]


@dataclass(frozen=True)
class CardPlayed(Event):
    """A card played to a trick (the trick-taking games share it; a shedding game may add fields)."""

    player: str
    card: str


@dataclass(frozen=True)
class Trick(Event):
    """A finished trick: ``cards`` [{player, card}] in play order, and who took it. JSON type ``trick``."""

    cards: list[dict[str, str]]
    winner: str


@dataclass(frozen=True)
class RoundEnd(Event):
    """A round (hand) is scored: ``results`` in seat or bid order, each with ``player``, ``delta``, ``score``."""

    round: int
    results: list[dict[str, Any]]


@dataclass(frozen=True)
class GameEnd(Event):
    """The game has ended; ``standings`` as from :func:`standings` (best first)."""

    standings: list[dict[str, Any]] = field(default_factory=list)

