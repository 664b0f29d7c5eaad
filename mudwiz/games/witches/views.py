"""What a seat may see of a Witches game (the game's part of ``Game.view``), apart from the rules that change it, as
OpenSpiel keeps its observers apart from its states: the engine (``engine.Witches``) stands on this class."""

from __future__ import annotations

from typing import Any

from mudwiz.games.base import CardPlayed as CardPlayed  # re-exported: the tests read Witches' events from here
from mudwiz.games.base import Phase, Seat, TrickTakingGame
from mudwiz.games.base import Trick as Trick
from mudwiz.games.witches.cards import (
    _ORDER,
    PASS_COUNT,
    fire_points,
    lead_colour,
    pass_direction,
    pass_offset,
)
from mudwiz.games.witches.phases import PASSING, SPELL


class WitchesViews(TrickTakingGame):
    """The state a round holds, as the engine's moves set it, and what each seat may know of it."""

    _size: int  # cards dealt to each this hand
    hands_total: int | None  # option hands: the game's length in hands, if set
    limit: int | None  # the total that ends the game, if any
    passed: list[list[str] | None]  # each seat's pass, once made
    received: list[list[str]] | None  # each seat's cards received, once every pass is in
    won: list[list[str]]  # the cards of the tricks each seat took this hand
    caster: Seat | None  # who cast the spell being chosen or scored
    spell_points: int

    @property
    def size(self) -> int:
        return self._size

    @property
    def pass_count(self) -> int:
        return PASS_COUNT[len(self.players)]

    @property
    def direction(self) -> str:
        return pass_direction(len(self.players), self.round)

    def pass_target(self, seat: Seat) -> Seat:
        n = len(self.players)
        return (seat + pass_offset(n, self.direction)) % n

    def lead(self) -> str | None:
        return lead_colour(c for _, c in self.trick)

    def _rounds(self) -> int | None:
        return self.hands_total

    def _hand(self, seat: Seat) -> list[str]:
        return self._shown_hand(seat, self.hands[seat], _ORDER)

    def _player(self, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        if self._phase in (Phase.ROUNDEND, Phase.GAMEOVER):
            points = self.sheet[-1]["results"][seat]["points"]  # the sheet's results are in seat order
        else:
            points = fire_points(self.won[seat])
        return {**super()._player(seat, viewer), "points": points, "has_passed": self.passed[seat] is not None}

    def _players_alike(self) -> bool:
        return True  # ``_player`` reads no viewer

    def _view(self, seat: Seat | None) -> dict[str, Any]:
        spell = None
        if self.caster is not None:
            spell = {"player": self.players[self.caster], "points": self.spell_points,
                     "choosing": self._phase == SPELL}
        return {
            **super()._view(seat),
            "limit": self.limit,
            **self._view_own(seat),
            "spell": spell,
        }

    def _view_own(self, seat: Seat | None) -> dict[str, Any]:
        passing = None
        if self._phase == PASSING:
            target = None if seat is None else self.players[self.pass_target(seat)]
            passing = {"count": self.pass_count, "to": target, "direction": self.direction}
        return {
            "pass": passing,
            "passed": None if seat is None else list(self.passed[seat] or []),
            "received": None if seat is None or self.received is None else list(self.received[seat]),
        }
