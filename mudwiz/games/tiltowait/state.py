"""A Tiltowait hand's state and the questions every other part asks of it: the top card, whose move it is and
what they are answering. The rules (``legality``, ``engine``) and the views (``views``) stand on it.

Vocabulary: the *turn* player moves next in ordinary play; while a spell waits for an answer (a draw to take,
a TILTOWAIT draw, a MILWA to allow) the game is waiting on the *asked* player instead, who may be anybody.
"""

from __future__ import annotations

from mudwiz.games.base import Game, Phase, Seat
from mudwiz.games.tiltowait.cards import DEFAULT_HANDS


class TiltowaitState(Game):
    """What a hand holds, set by the engine's moves, and what it means now."""

    hands: list[list[str]]
    stock: list[str]  # the top of the stock is the end of the list
    discard: list[str]
    direction: int  # -1: counter-clockwise, seat - 1 moves next
    turn: Seat
    colour: str | None
    pending: int  # the draw total aimed at the turn player
    attacker: Seat | None
    drawn: str | None  # a playable card the turn player just drew
    responders: list[Seat]  # TILTOWAIT: who still draws 2 or cancels, the first is asked now
    caster: Seat | None  # of the TILTOWAIT or MILWA being answered
    milwa_target: Seat | None
    asleep: Seat | None
    exposed: Seat | None  # down to one card without a karuki call, and nobody has moved since
    called: set[Seat]
    starter: Seat  # who starts the hand

    @property
    def hands_to_play(self) -> int | None:
        """How many hands the match lasts; None when it runs until the limit."""
        if self.options["hands"] is not None:
            return int(self.options["hands"])
        return None if self.options["limit"] is not None else DEFAULT_HANDS

    @property
    def top(self) -> str:
        return self.discard[-1]

    @property
    def direction_name(self) -> str:
        return "cw" if self.direction == 1 else "ccw"

    @property
    def situation(self) -> str:
        """What the asked player answers: ``milwa``, ``tiltowait``, ``attack``, ``drawn`` or a plain ``turn``."""
        if self._phase != Phase.PLAYING:
            return ""
        if self.milwa_target is not None:
            return "milwa"
        if self.responders:
            return "tiltowait"
        if self.pending:
            return "attack"
        return "drawn" if self.drawn is not None else "turn"

    @property
    def free(self) -> bool:
        """No colour named yet (a colourless spell was turned): any card may be played, naming the colour."""
        return self.colour is None and self.situation in ("turn", "drawn")

    def _next(self, seat: Seat) -> Seat:
        return (seat + self.direction) % len(self.players)

    def asked(self) -> Seat | None:
        """The one seat the game waits on now."""
        sit = self.situation
        if not sit:
            return None
        if sit == "milwa":
            return self.milwa_target
        return self.responders[0] if sit == "tiltowait" else self.turn

    def waiting(self) -> list[Seat]:
        seat = self.asked()
        return [] if seat is None else [seat]

    def seat_named(self, name: str) -> Seat | None:
        """The seat of a player named as typed: exactly, else the one name equal ignoring case."""
        if name in self.players:
            return self.players.index(name)
        folded = [i for i, p in enumerate(self.players) if p.casefold() == name.casefold()]
        return folded[0] if len(folded) == 1 else None

    def _others(self, seat: Seat) -> list[Seat]:
        """The other seats in order of play, starting with the next one."""
        n = len(self.players)
        return [(seat + i * self.direction) % n for i in range(1, n)]
