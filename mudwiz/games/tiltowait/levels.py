"""Tiltowait's ``easy`` and ``hard`` levels, built on ``normal`` (:class:`mudwiz.games.tiltowait.bots.TiltowaitGood`).

``easy`` plays like a casual person, not a random one: seeded, human mistakes on top of ``normal``'s rules —
it forgets to call karuki now and then (and can be caught), misses others' forgotten calls, and sheds its
cheapest card first, spending cancels it should have kept.
"""

from __future__ import annotations

from typing import Any

from mudwiz.games.tiltowait.bots import TiltowaitGood
from mudwiz.games.tiltowait.cards import KARUKI, points


class TiltowaitEasy(TiltowaitGood):
    """``normal`` with a casual player's habits, each on a seeded coin."""

    FORGET_KARUKI, MISS_CATCH, SHED_CHEAP = 0.3, 0.6, 0.35

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
    """For now ``normal``'s rules as they are (docs/bots.md measures it against them)."""
