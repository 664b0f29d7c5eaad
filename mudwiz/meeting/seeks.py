"""Seeks: who wants a game of what, and the matching that turns enough compatible seeks into one table.

A book of open seeks, fed by ``/seek``, ``/unseek``, ``/quick`` and logouts, answering with events (a seek placed,
withdrawn, a ``Match``) that the lobby turns into lines, a table and its seating. It holds at most one seek a person
(a new one replaces the old) and at most ``max_open`` in all. Seeks are compatible when they are for the same game,
the same number of players, both rated or both casual, with the same options once normalised (the table's way of
filling in defaults is passed in), and each seeker's rating lies inside every other's range. A book never holds a
full compatible set: a seek placed is matched at once if it completes one, the oldest seeks first. Ratings are asked
for as matching needs them, and time is passed in: tested by feeding it, a book may be kept on any one process.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from mudwiz.meeting.refused import Refused
from mudwiz.texts import N_

Options = tuple[tuple[str, Any], ...]  # (name, value) pairs sorted by name: one comparable value
Ratings = Callable[[str, str], float] | Mapping[str, float]  # (name, game) -> rating, or lower-case name -> rating
Normaliser = Callable[[str, int, Mapping[str, Any]], Mapping[str, Any]]  # (game, players, options) -> every option
FRESH_RATING = 1000.0  # a rating before any rated game (ratings.fresh's shown value): for a name a mapping lacks


def options_key(options: Mapping[str, Any]) -> Options:
    """``options`` as one comparable value: names in lower case, sorted."""
    lowered = {str(name).lower(): value for name, value in options.items()}
    return tuple(sorted(lowered.items(), key=lambda pair: pair[0]))


def inside(rating: float, low: float | None, high: float | None) -> bool:
    """``rating`` within ``low..high``, both ends included; None leaves that side open."""
    return (low is None or rating >= low) and (high is None or rating <= high)


@dataclass(frozen=True)
class Seek:
    """One person's wish for a game. ``made`` is when it was placed (seconds); ``bots_after`` seconds after that a
    quick-play seek is filled with bots (0: never). The range is the ratings of the others the owner will play,
    inclusive (None leaves that side open); the owner's own rating need not be inside it."""

    id: int
    owner: str
    game: str
    players: int
    rated: bool
    options: Options
    made: float
    min_rating: float | None = None
    max_rating: float | None = None
    bots_after: float = 0.0

    @property
    def key(self) -> str:
        return self.owner.lower()

    @property
    def kind(self) -> tuple[str, int, bool, Options]:
        """What must be equal for two seeks to meet at one table."""
        return (self.game, self.players, self.rated, self.options)

    @property
    def due(self) -> float | None:
        """When this seek is to be filled with bots; None: never."""
        return self.made + self.bots_after if self.bots_after > 0 else None

    def admits(self, rating: float) -> bool:
        return inside(rating, self.min_rating, self.max_rating)


def nearest_level(rating: float, levels: Mapping[str, float]) -> str | None:
    """The bot level (of ``levels``: level -> its rating) closest to ``rating``, the weaker on a tie: the bots a
    quick-play seek is filled with. None when the game has no levels."""
    return min(levels, key=lambda level: (abs(levels[level] - rating), levels[level]), default=None)


def _age(seek: Seek) -> tuple[float, int]:
    return (seek.made, seek.id)


class Withdrawal(Enum):
    UNSEEK = "unseek"
    LOGOUT = "logout"


@dataclass(frozen=True)
class SeekPlaced:  # placed, and the one it replaced
    seek: Seek
    replaced: Seek | None = None


@dataclass(frozen=True)
class SeekWithdrawn:
    seek: Seek
    why: Withdrawal


@dataclass(frozen=True)
class Match:
    """Seeks taken from the book to make one table: ``seeks`` in seat order (oldest first), and ``bots`` seats to
    fill with bots (0 for a match of people only)."""

    seeks: tuple[Seek, ...]
    bots: int = 0

    @property
    def seekers(self) -> tuple[str, ...]:
        return tuple(seek.owner for seek in self.seeks)

    @property
    def game(self) -> str:
        return self.seeks[0].game

    @property
    def players(self) -> int:
        return self.seeks[0].players

    @property
    def rated(self) -> bool:
        return self.seeks[0].rated

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.seeks[0].options)


SeekEvent = SeekPlaced | SeekWithdrawn | Match


class SeekRefusal(Enum):
    NO_SEEK = N_("you have no open seek")
    BOOK_FULL = N_("there are already {limit} open seeks: try /quick, or later")
    TOO_FEW_PLAYERS = N_("a game needs at least 2 players, not {players}")
    BAD_RANGE = N_("min={min:g} is above max={max:g}")
    BAD_WAIT = N_("the wait for bots is 0 (never) or more seconds, not {wait:g}")


class SeekRefused(Refused):
    reason: SeekRefusal


class SeekBook:
    """The open seeks. ``ratings``: a seeker's rating in a game (asked of every seek of a kind at each placing: a
    lookup, not a query; a mapping's missing name is ``default_rating``); ``normalise`` fills in options as a table
    would (its ``BadOption`` passes through, before any change); ``max_open`` caps the seeks open. Ranges make
    matching a clique search: ``search_limit`` bounds the seeks tried a placing (``match_all`` may find more)."""

    def __init__(self, ratings: Ratings, *, max_open: int = 200, normalise: Normaliser | None = None,
                 default_rating: float = FRESH_RATING, search_limit: int = 2_000) -> None:
        self.ratings = ratings
        self.max_open = max_open
        self.search_limit = search_limit
        self.normalise = normalise
        self.default_rating = default_rating
        self._seeks: dict[str, Seek] = {}  # lower-case owner -> their one seek
        self._ids = itertools.count(1)

    # ------------------------------------------------------------ reading

    def rating(self, name: str, game: str) -> float:
        if isinstance(self.ratings, Mapping):
            return float(self.ratings.get(name.lower(), self.default_rating))
        return float(self.ratings(name, game))

    def of(self, owner: str) -> Seek | None:
        return self._seeks.get(owner.lower())

    def open_seeks(self) -> list[Seek]:
        """Every open seek, oldest first (the order ``/seeks`` lists them in)."""
        return sorted(self._seeks.values(), key=_age)

    def __len__(self) -> int:
        return len(self._seeks)

    # ------------------------------------------------------------ changing

    def seek(self, owner: str, game: str, *, players: int, now: float, rated: bool = False,
             options: Mapping[str, Any] | None = None, min_rating: float | None = None,
             max_rating: float | None = None, bots_after: float = 0.0) -> list[SeekEvent]:
        """Place ``owner``'s seek, replacing theirs if they had one; a ``Match`` follows when it completes a set."""
        game = game.lower()
        if players < 2:
            raise SeekRefused(SeekRefusal.TOO_FEW_PLAYERS, players=players)
        if min_rating is not None and max_rating is not None and min_rating > max_rating:
            raise SeekRefused(SeekRefusal.BAD_RANGE, min=min_rating, max=max_rating)
        if bots_after < 0:
            raise SeekRefused(SeekRefusal.BAD_WAIT, wait=bots_after)
        chosen = dict(options or {})
        normal = options_key(self.normalise(game, players, chosen) if self.normalise else chosen)
        replaced = self.of(owner)
        if replaced is None and len(self._seeks) >= self.max_open:
            raise SeekRefused(SeekRefusal.BOOK_FULL, limit=self.max_open)
        seek = Seek(next(self._ids), owner, game, players, rated, normal, now, min_rating, max_rating, bots_after)
        self._seeks[seek.key] = seek
        events: list[SeekEvent] = [SeekPlaced(seek, replaced)]
        group = self._group_with(seek, players)
        if group is not None:
            events.append(self._take(group, 0))
        return events

    def unseek(self, owner: str) -> SeekWithdrawn:
        seek = self._seeks.pop(owner.lower(), None)
        if seek is None:
            raise SeekRefused(SeekRefusal.NO_SEEK)
        return SeekWithdrawn(seek, Withdrawal.UNSEEK)

    def logout(self, owner: str) -> list[SeekEvent]:
        """``owner`` has gone: their seek, if any, with them."""
        seek = self._seeks.pop(owner.lower(), None)
        return [] if seek is None else [SeekWithdrawn(seek, Withdrawal.LOGOUT)]

    def match_all(self) -> list[Match]:
        """Match every full compatible set, oldest seeks first: for after ratings changed (a rated game ended),
        which may bring seekers inside each other's ranges without any seek being placed."""
        matches = []
        for seek in self.open_seeks():
            group = self._group_with(seek, seek.players) if self._seeks.get(seek.key) is seek else None
            if group is not None:
                matches.append(self._take(group, 0))
        return matches

    # ------------------------------------------------------------ quick play

    def best_for(self, asker: str, game: str, rating: float, rated: bool | None = None) -> Seek | None:
        """The open seek of ``game`` that ``asker`` (rated ``rating``) would best join: one whose range admits them
        (and rated or casual as asked, None: either), the closest in rating, then the oldest; None: no such seek."""
        game = game.lower()
        fitting = [seek for seek in self._seeks.values()
                   if seek.game == game and seek.key != asker.lower() and seek.admits(rating)
                   and (rated is None or seek.rated == rated)]
        return min(fitting, key=lambda seek: (abs(self.rating(seek.owner, game) - rating), *_age(seek)),
                   default=None)

    def quick(self, asker: str, game: str, *, players: int, now: float, bots_after: float,
              options: Mapping[str, Any] | None = None, rated: bool | None = False) -> list[SeekEvent]:
        """``/quick GAME``: a seek matching the best open one (``best_for``; ``rated`` None: rated or not), or a
        new one of ``players`` with ``options``; filled with bots ``bots_after`` seconds on (0: never)."""
        best = self.best_for(asker, game, self.rating(asker, game.lower()), rated)
        if best is None:
            return self.seek(asker, game, players=players, now=now, rated=bool(rated), options=options,
                             bots_after=bots_after)
        return self.seek(asker, best.game, players=best.players, now=now, rated=best.rated,
                         options=dict(best.options), bots_after=bots_after)

    def next_due(self) -> float | None:
        """The earliest time a seek is to be filled with bots (for the one timer the lobby sets); None: none."""
        return min((seek.due for seek in self._seeks.values() if seek.due is not None), default=None)

    def fill_due(self, now: float) -> list[Match]:
        """Take the seeks due by ``now`` from the book, each with as many compatible seeks of others willing to
        play bots (a wait of their own) as it can, oldest first: a ``Match`` each, its empty seats for bots."""
        due = sorted((seek for seek in self._seeks.values() if seek.due is not None and seek.due <= now),
                     key=lambda seek: (seek.due, *_age(seek)))
        matches = []
        for seek in due:
            if self._seeks.get(seek.key) is not seek:
                continue  # taken into an earlier one's table
            for size in range(seek.players - 1, 0, -1):
                group = self._group_with(seek, size, willing_only=True)
                if group is not None:
                    matches.append(self._take(group, seek.players - size))
                    break
        return matches

    # ------------------------------------------------------------ matching

    def _take(self, group: tuple[Seek, ...], bots: int) -> Match:
        for seek in group:
            del self._seeks[seek.key]
        return Match(group, bots)

    def _group_with(self, seek: Seek, size: int, willing_only: bool = False) -> tuple[Seek, ...] | None:
        """``size`` mutually compatible open seeks including ``seek``, the oldest such set (compared oldest seek
        first) in seat order; None when there is none. With ``willing_only`` the others must wait for bots too."""
        pool = [other for other in self.open_seeks()
                if other is not seek and other.kind == seek.kind and (other.due is not None or not willing_only)]
        rating = {s.id: self.rating(s.owner, s.game) for s in (seek, *pool)}

        def fits(a: Seek, b: Seek) -> bool:
            return a.admits(rating[b.id]) and b.admits(rating[a.id])

        tries = itertools.count()  # bounds the search

        def grow(chosen: list[Seek], candidates: list[Seek]) -> list[Seek] | None:
            if len(chosen) == size:
                return chosen
            for i, candidate in enumerate(candidates):
                if len(chosen) + len(candidates) - i < size or next(tries) >= self.search_limit:
                    break  # too few left to complete the set, or searched long enough
                found = grow([*chosen, candidate], [c for c in candidates[i + 1:] if fits(candidate, c)])
                if found is not None:
                    return found
            return None

        found = grow([seek], [other for other in pool if fits(seek, other)])
        return None if found is None else tuple(sorted(found, key=_age))
