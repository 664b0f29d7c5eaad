"""A tournament as kept (its whole state, written to the store at each change) and the words that make one:
sans-I/O, no clock (``now`` is given), no table. mudwiz/lobby/tournaments.py runs them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from mudwiz.errors import BadCommand
from mudwiz.numbers import whole_number
from mudwiz.texts import later


@dataclass
class Tournament:
    """One tournament's whole state, as kept in the store (``to_json``)."""

    id: int
    game: str
    rounds: int
    size: int
    options: list[tuple[str, str | None]]
    by: str
    start_at: float
    status: str = "open"  # open, running, finished, called off
    entrants: list[str] = field(default_factory=list)
    round: int = 0
    # per round, its tables: {"table": number, "seats": names in seat order (bots too), "bots": their names,
    # "result": name -> [place, score] once its game is over}
    tables: list[list[dict[str, Any]]] = field(default_factory=list)
    next_round_at: float | None = None
    winner: str | None = None
    finished_at: float | None = None
    standings: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tournament:
        data = dict(data)
        data["options"] = [(str(n), v) for n, v in data.get("options", [])]
        return cls(**data)

    def entrant(self, name: str) -> str | None:
        return next((e for e in self.entrants if e.lower() == name.lower()), None)

    def results(self) -> list[dict[str, tuple[int, int]]]:
        return [{n: (r[0], r[1]) for n, r in t["result"].items()} for rnd in self.tables for t in rnd if t["result"]]


def parse_rest(rest: list[str], cls: Any, now: float) -> tuple[int, float | None, list[tuple[str, str | None]]]:
    """The words after ROUNDS: the table size, the start and the table options as typed."""
    size = 4 if cls.min_players <= 4 <= cls.max_players else cls.min_players
    start_at: float | None = None
    typed: list[tuple[str, str | None]] = []
    rest = list(rest)
    while rest:
        word = rest.pop(0).lower()
        if word == "size" and rest:
            size = table_size(rest.pop(0), cls)
        elif word == "start" and len(rest) >= 2:
            start_at = start_time(rest.pop(0).lower(), rest.pop(0), now)
        else:
            name, _, value = word.partition("=")
            typed.append((name, value or None))
    return size, start_at, typed


def table_size(text: str, cls: Any) -> int:
    size = whole_number(text)
    if size is None or not cls.min_players <= size <= cls.max_players:
        raise BadCommand(later("{game} is played by {low} to {high} a table", game=cls.title, low=cls.min_players,
                               high=cls.max_players))
    return size


def start_time(how: str, when: str, now: float) -> float:
    """``start in MINUTES`` or ``start at HH:MM`` (UTC, today) as a time; a time passed is refused."""
    minutes = whole_number(when)
    if how == "in" and minutes is not None and minutes <= 7 * 24 * 60:
        return now + 60.0 * minutes
    if how == "at":
        hh, _, mm = when.partition(":")
        hours, mins = whole_number(hh), whole_number(mm)
        if hours is not None and mins is not None and hours < 24 and mins < 60:
            at = now - now % 86400 + hours * 3600 + mins * 60
            if at < now:
                raise BadCommand(later("{when} UTC has passed today; give a time to come, or start in MINUTES",
                                       when=when))
            return at
    raise BadCommand(later("start in MINUTES (at most a week) or start at HH:MM (UTC, today)"))
