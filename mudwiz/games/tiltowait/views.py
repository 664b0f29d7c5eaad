"""What a seat may see of a Tiltowait hand (the game's part of ``Game.view``): kept apart from the rules, as
OpenSpiel keeps its observers apart from its states."""

from __future__ import annotations

from typing import Any

from mudwiz.cards import sort_hand
from mudwiz.games.base import Phase, Seat
from mudwiz.games.tiltowait.cards import COLOURS, MILWA, TILTOWAIT, TILTOWAIT_DRAW
from mudwiz.games.tiltowait.state import TiltowaitState


class TiltowaitViews(TiltowaitState):
    """The view's fields of a hand, for players and observers alike."""

    def answer(self) -> dict[str, Any] | None:
        """The spell the asked player is answering, for the table view."""
        sit = self.situation
        by = {"attack": self.attacker}.get(sit, self.caster)
        base = {"by": None if by is None else self.players[by]}
        if sit == "attack":
            return {**base, "spell": self.top, "to": self.players[self.turn], "draw": self.pending}
        if sit == "tiltowait":
            return {**base, "spell": TILTOWAIT, "to": self.players[self.responders[0]], "draw": TILTOWAIT_DRAW,
                    "left": [self.players[s] for s in self.responders]}
        if sit == "milwa":
            assert self.milwa_target is not None
            return {**base, "spell": MILWA, "to": self.players[self.milwa_target], "draw": 0}
        return None

    def _rounds(self) -> int | None:
        return self.hands_to_play

    def _dealer(self) -> Seat:
        return self.starter  # nobody deals a Tiltowait hand: the common ``dealer`` is who starts it

    def _hand(self, seat: Seat) -> list[str]:
        return sort_hand(self.hands[seat], COLOURS)

    def _player(self, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        return {"held": len(self.hands[seat]), "asleep": seat == self.asleep, "karuki": seat in self.called}

    def _players_alike(self) -> bool:
        return True  # ``_player`` reads no viewer

    def _view_own(self, seat: Seat | None) -> dict[str, Any]:
        return {"drawn": self.drawn if seat is not None and seat == self.turn and self.situation == "drawn" else None}

    def _view(self, seat: Seat | None) -> dict[str, Any]:
        return {
            "starter": self.players[self.starter],
            "top": self.top,
            "colour": self.colour,
            "direction": self.direction_name,
            "pending": self.pending,
            "stock": len(self.stock),
            "discard": len(self.discard),
            "answer": self.answer(),
            "next": self.players[self.turn] if self._phase == Phase.PLAYING else None,
            **self._view_own(seat),
            "free": self.free,
        }
