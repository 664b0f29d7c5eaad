"""Tiltowait's ``easy`` and ``hard`` levels, built on ``normal`` (:class:`mudwiz.games.tiltowait.bots.TiltowaitGood`).

``easy`` plays like a casual person, not a random one: seeded, human mistakes on top of ``normal``'s rules —
it forgets to call karuki now and then (and can be caught), misses others' forgotten calls, and sheds its
cheapest card first, spending cancels it should have kept. ``hard`` plays ``normal``'s rules with two of a
careful player's habits more.
"""

from __future__ import annotations

from typing import Any

from mudwiz.games.tiltowait.bots import TiltowaitGood
from mudwiz.games.tiltowait.cards import KARUKI, MADALTO, MAHALITO, TILTOWAIT, points, spell_of

BIG = frozenset({MAHALITO, MADALTO, TILTOWAIT})


class TiltowaitEasy(TiltowaitGood):
    """``normal`` with a casual player's habits, each on a seeded coin."""

    FORGET_KARUKI, MISS_CATCH, SHED_CHEAP = 0.5, 0.6, 0.6

    def choose(self, view: dict[str, Any]) -> str | None:
        legal: list[str] = view["legal"]
        roll = self.rng.random()
        if KARUKI in legal and roll < self.FORGET_KARUKI or any(a.startswith("catch ") for a in legal) \
                and roll < self.MISS_CATCH:
            legal = [a for a in legal if a != KARUKI and not a.startswith("catch ")]
            legal = [a for a in legal if not a.endswith(" " + KARUKI)]
            view = {**view, "legal": legal}
        return super().choose(view)

    def turn(self, view: dict[str, Any], plays: dict[str, list[list[str]]], legal: list[str],
             hand: list[str]) -> str:
        if plays and self.rng.random() < self.SHED_CHEAP:
            card = min(plays, key=points)
            return self.form(card, plays[card], hand)
        return super().turn(view, plays, legal, hand)


class TiltowaitHard(TiltowaitGood):
    """``normal``'s rules but for two things a careful player does: it holds its big attacks (MAHALITO, MADALTO,
    TILTOWAIT) until another player is down to one card, and spends a cancel only when nothing else goes (rather
    than draw a card, never instead of a low monster). Measured against three ``normal`` players (docs/bots.md):
    37.6 % of 1,600 four-player games on seeds it was not tuned on, against 32.0 % for the same habits with the
    attacks held until two cards at 60 points and a cancel worth its points less 25."""

    HOLD_UNTIL = 1  # another player's cards at which the big attacks come out
    HOLD_COST = 120.0  # a held big attack goes below the other discards (TILTOWAIT doubling a hand included)
    SPEND_COST = 40.0  # a cancel spent only when nothing else goes: below a 1 kept, above drawing a card

    def values(self, view: dict[str, Any], plays: dict[str, list[list[str]]], hand: list[str]) -> dict[str, float]:
        values = super().values(view, plays, hand)
        fewest = min(p["held"] for p in view["players"] if p["name"] != view["you"])
        for card, value in values.items():
            if value <= -1000:  # a cancel kept for an attack: a card drawn instead costs more
                values[card] = points(card) - self.SPEND_COST
            if spell_of(card) in BIG and fewest > self.HOLD_UNTIL:
                values[card] -= self.HOLD_COST
        return values
