"""Witches' ``easy`` and ``hard`` levels, built on ``normal`` (:class:`mudwiz.games.witches.bots.WitchesGood`).

``easy`` plays like a casual person, not a random one: seeded, human mistakes on top of ``normal``'s rules —
it passes its highest cards rather than its most dangerous (keeping the pygmy queen now and then), leads a high
card, follows high when it could have ducked, and sheds a high plain card where a fire card was the danger.
"""

from __future__ import annotations

from typing import Any

from mudwiz.games.witches.bots import RANK, WIZARD, WitchesGood


class WitchesEasy(WitchesGood):
    """``normal`` with a casual player's habits, each on a seeded coin."""

    NAIVE_PASS, LEAD_HIGH, FOLLOW_HIGH, SHED_HIGH = 0.5, 0.25, 0.25, 0.3

    def choose_pass(self, hand: list[str], count: int) -> str:
        if self.rng.random() < self.NAIVE_PASS:  # "get rid of the big cards": by rank alone, specials unseen
            ranked = sorted(hand, key=lambda c: (c != WIZARD, RANK[c]), reverse=True)
            return " ".join(["pass", *ranked[:count]])
        return super().choose_pass(hand, count)

    def lead(self, hand: list[str], plays: list[str], view: dict[str, Any]) -> str:
        suited = [c for c in plays if c != WIZARD]
        if suited and self.rng.random() < self.LEAD_HIGH:
            return max(suited, key=lambda c: RANK[c])
        return super().lead(hand, plays, view)

    def follow(self, trick: list[str], colour: str, plays: list[str], following: list[str],
               view: dict[str, Any]) -> str:
        if self.rng.random() < self.FOLLOW_HIGH:
            return max(following, key=lambda c: RANK[c])
        return super().follow(trick, colour, plays, following, view)

    def discard(self, hand: list[str], plays: list[str]) -> str:
        suited = [c for c in plays if c != WIZARD]
        if suited and self.rng.random() < self.SHED_HIGH:
            return max(suited, key=lambda c: RANK[c])
        return super().discard(hand, plays)

