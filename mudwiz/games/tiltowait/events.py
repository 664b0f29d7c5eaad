"""What happens in a Tiltowait hand, as the engine reports it to renderers, bots and the wire."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from mudwiz.games.base import Event, TimedReveal
from mudwiz.games.tiltowait.cards import HAND_SIZE, MILWA_SECONDS


@dataclass(frozen=True)
class HandStart(Event):
    """A hand is dealt: seven cards each, ``top`` turned from the stock; ``starter`` moves first."""

    round: int
    starter: str
    top: str
    cards: int = HAND_SIZE


@dataclass(frozen=True)
class CardPlayed(Event):
    """A discard; ``target`` is the player a MILWA looks at."""

    player: str
    card: str
    target: str | None = None


@dataclass(frozen=True)
class ColourNamed(Event):
    player: str
    colour: str


@dataclass(frozen=True)
class Reversed(Event):
    """Direction of play changed (``player`` None: the turned first card did it)."""

    player: str | None
    direction: str


@dataclass(frozen=True)
class DrawPending(Event):
    """``player`` is told to draw ``count`` (the stacked total) by ``card``: stack, cancel or draw."""

    player: str
    count: int
    card: str


@dataclass(frozen=True)
class Asleep(Event):
    """KATINO: ``player`` sleeps through their turn."""

    player: str


@dataclass(frozen=True)
class Cancelled(Event):
    """``player`` cancels ``spell`` (the card on top, or TILTOWAIT / MILWA) with ``card``."""

    player: str
    card: str
    spell: str


@dataclass(frozen=True)
class Drew(Event):
    """Cards drawn; everyone sees the count, only the drawer the cards. ``reason``: draw, attack, tiltowait, karuki."""

    player: str
    count: int
    cards: list[str] | None = None
    reason: str = "draw"

    def visible_to(self, viewer: str | None) -> Event | None:
        return self if viewer == self.player else replace(self, cards=None)


@dataclass(frozen=True)
class Kept(Event):
    """The player drew a playable card and kept it: the turn passes."""

    player: str


@dataclass(frozen=True)
class TiltowaitTurn(Event):
    """TILTOWAIT: ``player`` is now to draw 2 or cancel their own draw."""

    player: str


@dataclass(frozen=True)
class MilwaCast(Event):
    """MILWA aimed at ``target``, who may cancel it or let ``caster`` look."""

    caster: str
    target: str


@dataclass(frozen=True)
class HandShown(Event):
    """The public half of a MILWA: ``player``'s hand is opened by ``to``'s MILWA, to ``audience`` (``table``:
    everyone; ``caster``: ``to`` alone). What is seen is ``MilwaReveal``."""

    player: str
    to: str
    audience: str = "table"


@dataclass(frozen=True)
class MilwaReveal(Event, TimedReveal):
    """The target's cards, opened ``seconds`` long (the table times it) to ``audience``: ``table``, everyone
    seated or watching (the sheet: the cards are "opened", face up), or ``caster`` alone (option milwa=caster)."""

    caster: str
    target: str
    cards: list[str] = field(default_factory=list)
    seconds: int = MILWA_SECONDS
    audience: str = "table"

    def visible_to(self, viewer: str | None) -> Event | None:
        return self if self.audience == "table" or viewer == self.caster else None

    @property
    def reveal_seconds(self) -> float:
        return self.seconds

    @property
    def revealed_player(self) -> str:
        return self.target


@dataclass(frozen=True)
class Karuki(Event):
    player: str


@dataclass(frozen=True)
class Caught(Event):
    """``by`` caught ``player`` with one card and no karuki call: a penalty draw follows."""

    player: str
    by: str


@dataclass(frozen=True)
class Reshuffled(Event):
    """The discard pile but its top became the new stock of ``cards`` cards."""

    cards: int


@dataclass(frozen=True)
class RoundEnd(Event):
    """A hand is over: ``winner`` went out; ``results`` in seat order: player, cards, doubled, delta, score."""

    round: int
    winner: str
    results: list[dict[str, Any]] = field(default_factory=list)
