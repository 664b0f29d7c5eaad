"""An adjourned game: one that waits for its people instead of being played out by bots or recorded as lost.

A running game is adjourned when every person seated at it has dropped and the grace period of the one to go first
has run out (:mod:`mudwiz.lobby.keeping`), or when all its people agree to stop for now (``/adjourn``). Its seats
stay its people's (a person's by name, a guest's with their resume code), its host's bots and its stand-ins wait
with it, its clocks are stopped, and it is journaled as adjourned, so it survives a restart. It goes on when every
person whose seat it keeps is back in it (``/resume N``; the one who left last is taken back to it at their
login); the people back may also go on without the others (``/resume`` at the table), whose seats are then kept
for the grace period as a dropped player's are. A game kept adjourned longer than the server keeps them
(``MUDWIZ_ADJOURN_DAYS``) is recorded as abandoned and its table closed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mudwiz.session import Session
from mudwiz.texts import Later, later, later_n


@dataclass(frozen=True)
class Adjourned:
    """When the game was adjourned (on the table's clock: wall time on a server) and who left it last: the one
    whose login takes them back to it (the others are told and ``/resume`` it)."""

    since: float
    last: str

    def to_json(self) -> dict[str, Any]:
        return {"since": self.since, "last": self.last}

    @classmethod
    def from_json(cls, data: Any) -> Adjourned:
        """As journaled (``to_json``); a ``ValueError`` for anything else, which costs the restore its table."""
        if not isinstance(data, dict) or not isinstance(data.get("last"), str):
            raise ValueError(f"adjourned {data!r}")
        return cls(float(data["since"]), data["last"])


def seated_at_login(last: str, name: str) -> bool:
    """Whether ``name``'s login takes them back to an adjourned game ``last`` left last (only theirs does; the
    others are told, ``resume_notice``, and ``/resume`` it)."""
    return last.lower() == name.lower()


def resume_notice(game: str, table_id: int) -> Later:
    """What a person of an adjourned game who did not leave it last reads at login."""
    return later("Your {game} game at table {n} is adjourned: /resume {n} takes your seat back.", game=game,
                 n=table_id)


class Absent(Session):
    """A person's seat while they are not connected to it (an adjourned game's, a restored table's): nothing is
    sent to it and nobody waits on it; its person gets a fresh view when they come back."""

    def __init__(self, name: str) -> None:
        super().__init__(name, mode="json")
        self.connected = False

    def deliver(self, message: dict[str, Any], event: Any = None) -> None:
        """Nobody is there to read it."""


def missing(seats: list[Session]) -> list[str]:
    """The people whose seats wait for them (not connected). A stand-in's person left the game on purpose (or was
    away past the grace while others played on): their seat is played for them, and nobody waits on them."""
    return [s.name for s in seats if not s.is_bot and not s.connected]


def all_gone(seats: list[Session]) -> bool:
    """Whether the people at a game have all gone: some person seated, none of them connected."""
    people = [s for s in seats if not s.is_bot]
    return bool(people) and not any(s.connected for s in people)


def waiting_line(table_id: int, names: list[str]) -> Later:
    """What the people back at an adjourned game read: whom it waits for, and how not to wait."""
    return later_n("The game at table {table} is adjourned: it goes on when {who} is back (/resume without a number "
                   "goes on without them; /leave leaves it).",
                   "The game at table {table} is adjourned: it goes on when {who} are back (/resume without a number "
                   "goes on without them; /leave leaves it).", len(names), table=table_id, who=", ".join(names))
