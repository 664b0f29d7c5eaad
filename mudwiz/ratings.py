"""Ratings: one a registered player a game, updated by every finished game with openskill's
Plackett-Luce model (Weng and Lin's Bayesian approximation: any number of players, shared places).

The maths is here and nowhere else; the store (mudwiz/store/) only reads and writes rows, and calls ``rate_game``
inside the transaction that stores a game, so a game and its rating changes are kept together or not at all.
Who is rated (docs/accounts.md):

* a game is rated when it is ``finished``; an abandoned one changes nothing;
* every seat takes part with its rating and its place (tied places are equal ranks), but only registered people's
  ratings are written: a guest plays as a fresh rating (``MODEL.rating()``) that is not kept;
* a bot the host seated plays as its level's fixed entry (``bot:good``, from its game plugin's ``bot_ratings``,
  which ``bench/ratings.py`` calibrates offline), never changed by a game;
* a stand-in (a bot playing a person's seat after they dropped or left) counts as the person: the seat's place
  is theirs, as the game's standings already say.

``recompute`` plays the same updates over stored records, so the ratings kept can be checked against the games
kept. ``RatingBoard`` keeps the ratings of the people online in memory for the states and ``/who``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from functools import cache

from openskill.models import PlackettLuce
from twisted.logger import Logger

from mudwiz.bots import canonical
from mudwiz.games import plugin
from mudwiz.store import GameRecord, Rating, Store, StoreError

log = Logger()

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, tau 25/300 (a little drift each game)
# The figure people read: the conservative mu - 3 sigma (openskill's ordinal: 99.7% sure the player is at least
# this good), as 1000 + 40 a point, so a new player shows 1000 and a game won or lost moves it by tens.
SHOWN_BASE, SHOWN_SCALE = 1000, 40
BOT_PREFIX = "bot:"
PEOPLE = ("person", "stand-in")  # seat kinds a person's name and rating stand for


def shown(mu: float, sigma: float) -> int:
    """The rating as shown and ranked: ``1000 + 40 * (mu - 3 sigma)``, rounded."""
    return round(SHOWN_BASE + SHOWN_SCALE * (mu - 3 * sigma))


def fresh(name: str, game: str) -> Rating:
    """A player's rating before their first rated game (a guest's, in every game)."""
    return Rating(name=name, game=game, mu=MODEL.mu, sigma=MODEL.sigma, shown=shown(MODEL.mu, MODEL.sigma),
                  games=0, updated=0.0)


@cache  # a few levels a game, asked for each bot seat of every state sent
def bot_rating(game: str, level: str) -> Rating:
    """The fixed entry ``bot:LEVEL`` of ``game``: its calibrated mu and sigma, or a fresh rating for a level or
    game that was never calibrated (a plugin's)."""
    level = canonical(level)  # a record of a ``bot:good`` seat rates as the level it is now called
    mu, sigma = _calibrated(game).get(level, (MODEL.mu, MODEL.sigma))
    return Rating(name=f"{BOT_PREFIX}{level}", game=game, mu=mu, sigma=sigma, shown=shown(mu, sigma), games=0,
                  updated=0.0)


def bot_levels(game: str) -> list[str]:
    """The levels of ``game`` with a calibrated entry."""
    return list(_calibrated(game))


def _calibrated(game: str) -> Mapping[str, tuple[float, float]]:
    """The bot levels' fixed ratings of ``game``, as its plugin declares them (none for a game not here)."""
    found = plugin(game)
    return found.bot_ratings if found is not None else {}


def _entry(seat: Mapping[str, str], game: str, current: Mapping[str, Rating]) -> Rating:
    kind = seat["kind"]
    if kind.startswith(BOT_PREFIX):
        return bot_rating(game, kind.removeprefix(BOT_PREFIX))
    return current.get(seat["name"].lower()) or fresh(seat["name"], game)


def rate_game(record: GameRecord, current: Mapping[str, Rating], registered: Set[str]) -> list[Rating]:
    """The ratings a game changes: every seat plays with its rating at its place (ties: equal ranks), and the
    registered people's new ratings are returned (the store writes them). ``current``: lower-cased name -> rating
    in the record's game, of those who have one; ``registered``: the lower-cased names with an account. A game is
    rated when its record has standings: finished, or abandoned by its people (table/recording.py)."""
    if not record.standings or len(record.seats) < 2 \
            or not any(s["kind"] in PEOPLE and s["name"].lower() in registered for s in record.seats):
        return []  # nobody's rating to change: the model's work (~0.1 ms a game) would be thrown away
    places = {row["player"].lower(): int(row["place"]) for row in record.standings}
    before = [_entry(seat, record.game, current) for seat in record.seats]
    teams = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before],
                       ranks=[float(places[seat["name"].lower()]) for seat in record.seats])
    changed = []
    for seat, old, (new,) in zip(record.seats, before, teams, strict=True):
        if seat["kind"] in PEOPLE and seat["name"].lower() in registered:
            changed.append(Rating(name=seat["name"], game=record.game, mu=new.mu, sigma=new.sigma,
                                  shown=shown(new.mu, new.sigma), games=old.games + 1, updated=record.ended))
    return changed


def recompute(records: Iterable[GameRecord], registered: Set[str]) -> dict[tuple[str, str], Rating]:
    """Every rating as the games ``records`` make it, played in the order of their ids from nothing:
    (lower-cased name, game) -> rating. ``registered``: the lower-cased names rated (those registered before
    their first game in ``records``: a game played as a guest before registering was not rated, which the
    records alone cannot tell)."""
    ratings: dict[tuple[str, str], Rating] = {}
    for record in sorted(records, key=lambda r: r.id or 0):
        current = {key: r for (key, game), r in ratings.items() if game == record.game}
        for r in rate_game(record, current, registered):
            ratings[(r.name.lower(), r.game)] = r
    return ratings


class RatingBoard:
    """The ratings of the people the server shows, in memory: read from the store once a name (when it is first
    shown after logging in), read again when a game it played is rated, forgotten when it logs out. So a state
    sent to a table or a ``/who`` costs no read of the store. Names that never log out here (players of a table
    who dropped, a rated game's absent players) would stay for ever: past ``LIMIT`` names the oldest read goes,
    to be read again if it is shown again."""

    LIMIT = 20_000  # ~10 MB at most; twice the 10,000 people online that bench/load.py's idle mode logs in
    RETRY = 5.0  # seconds before a name whose read the store refused is asked of it again

    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.clock = clock
        self._known: dict[str, dict[str, Rating]] = {}  # lower-cased name -> game -> rating, oldest read first
        # lower-cased name -> when its read, refused, may be tried again: while the store is down a table's every
        # update would otherwise ask it again, and log its refusal, for each player shown
        self._refused: dict[str, float] = {}
        self.failed = 0  # reads not given: what was shown meanwhile lacks a rating, so is not to be kept
        # told the lower-cased names ``refresh`` read again after a game: a cluster tells its other processes,
        # whose boards still show the ratings from before it (their /who did, for a player visiting this one)
        self.on_refreshed: list[Callable[[list[str]], None]] = []

    def of(self, name: str) -> dict[str, Rating]:
        """``name``'s ratings by game (none: a guest, or a player yet to finish a rated game)."""
        key = name.lower()
        if key not in self._known:
            if self._refused.get(key, 0.0) > self.clock():  # refused a moment ago: not asked (nor logged) again yet
                self.failed += 1
                return {}
            try:
                found = {r.game: r for r in self.store.ratings_of(name)}
            except StoreError as exc:  # shown without ratings this time, read again after RETRY
                log.error("ratings of {name} not read: {why}", name=name, why=str(exc))
                self.failed += 1
                if len(self._refused) >= self.LIMIT:
                    self._refused.clear()
                self._refused[key] = self.clock() + self.RETRY
                return {}
            self._remember(key, found)
        return self._known[key]

    def _remember(self, key: str, found: dict[str, Rating]) -> None:
        self._refused.pop(key, None)
        self._known.pop(key, None)  # read last: the last to go
        if len(self._known) >= self.LIMIT:
            del self._known[next(iter(self._known))]
        self._known[key] = found

    def shown(self, name: str, game: str) -> int | None:
        found = self.of(name).get(game)
        return None if found is None else found.shown

    def best(self, name: str) -> Rating | None:
        """``name``'s highest shown rating in any game."""
        return max(self.of(name).values(), key=lambda r: r.shown, default=None)

    def for_seat(self, name: str, kind: str, game: str) -> int | None:
        """The rating shown for a seat of ``kind`` (``person``, ``stand-in``: the person's; ``bot:LEVEL``: the
        level's fixed entry)."""
        if kind.startswith(BOT_PREFIX):
            return bot_rating(game, kind.removeprefix(BOT_PREFIX)).shown
        return self.shown(name, game)

    def forget(self, name: str) -> None:
        self._known.pop(name.lower(), None)

    def dropped(self, name: str) -> None:
        """``name``'s ratings are gone from the store (its account deleted): forgotten here, and the others that
        listen (a cluster's processes) told, as after a rated game, to read them again."""
        self.forget(name)
        for tell in self.on_refreshed:
            tell([name.lower()])

    def read(self, names: Sequence[str]) -> dict[str, list[Rating]]:
        """``names``' ratings as the store has them now (lower-cased name -> ratings), for ``refresh``: one read of
        the store, for its thread."""
        return self.store.ratings_of_all(names)

    def refresh(self, found: Mapping[str, list[Rating]], game: str) -> list[tuple[str, int | None, int]]:
        """Take the ratings ``read`` again after a rated game of ``game``: (name, shown before or None, after) for
        each whose rating in it changed."""
        changes = []
        for key, ratings in found.items():
            before = self._known.get(key, {}).get(game)
            self._remember(key, {r.game: r for r in ratings})
            after = self._known[key].get(game)
            if after is not None and after != before:
                changes.append((after.name, None if before is None else before.shown, after.shown))
        for tell in self.on_refreshed:
            tell(list(found))
        return changes


