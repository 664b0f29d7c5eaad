"""The ``good`` level for Witches: a club player's rules of thumb, from the bot's own view only.

- Pass the cards that bring fire home: the pygmy queen, the fire witch, high red cards, the water witch, then
  high cards of short colours (to make a void). Keep Wizards (they never win) and the earth witch (it helps
  whoever takes it).
- Lead low, and never red while red is dangerous to win.
- Follow under the card that is winning (the highest card that still loses); if every card would win, play a
  Wizard, or — last to play with no fire in the trick — win with the highest card to be rid of it.
- Void in the lead colour: shed the most dangerous card (the queen, the fire witch, high red, the water witch),
  else the highest card.
- A spell that ends the game: give it away when that leaves us the lowest total, else take it off our own.
"""

from __future__ import annotations

from typing import Any

from mudwiz.bots import Bot
from mudwiz.cards import rank_of, suit_of
from mudwiz.games.witches.cards import (
    AIR_WITCH,
    DECK,
    EARTH_WITCH,
    FIRE,
    FIRE_WITCH,
    PYGMY_QUEEN,
    WATER_WITCH,
    WIZARD,
    fire_points,
    lead_colour,
)
from mudwiz.games.witches.phases import PASSING, SPELL

SUIT: dict[str, str | None] = {c: suit_of(c) for c in set(DECK.cards())}
RANK: dict[str, int] = {c: rank_of(c) for c in set(DECK.cards())}
# how much we would rather not hold a special card when fire is about (higher: rid ourselves of it sooner)
SPECIAL_DANGER = {PYGMY_QUEEN: 60, FIRE_WITCH: 55, WATER_WITCH: 40, AIR_WITCH: -5, EARTH_WITCH: -30}


def danger(card: str, hand: list[str]) -> float:
    """How much ``card`` in ``hand`` threatens to win us points: specials first, then high red, then high cards
    (more so in a short colour, which we would rather empty)."""
    if card == WIZARD:
        return -50
    if card in SPECIAL_DANGER:
        return SPECIAL_DANGER[card]
    rank = RANK[card]
    length = sum(1 for c in hand if SUIT[c] == SUIT[card])
    short = 6 if length <= 2 else 0
    if SUIT[card] == FIRE:
        return 2.5 * rank + short - 10
    return 1.8 * rank + short - 12


def points_in(cards: list[str]) -> int:
    """Fire points the cards of a trick would bring their winner on their own (the rules' count)."""
    return fire_points(cards)


class WitchesGood(Bot):
    """The ``good`` Witches player."""

    def choose(self, view: dict[str, Any]) -> str | None:
        legal: list[str] = view["legal"]
        if not legal:
            return None
        if view["phase"] == PASSING and "pass" in legal and view.get("pass"):
            return self.choose_pass(view["hand"], view["pass"]["count"])
        if view["phase"] == SPELL:
            return self.choose_spell(view, legal)
        plays = [a.split()[1] for a in legal if a.startswith("play ")]
        if not plays:
            return legal[0]
        return "play " + self.choose_card(view, plays)

    def choose_pass(self, hand: list[str], count: int) -> str:
        """The ``count`` most dangerous cards (Wizards are copies: count them out of the hand, not the set)."""
        ranked = sorted(hand, key=lambda c: -danger(c, hand))
        return " ".join(["pass", *ranked[:count]])

    def choose_spell(self, view: dict[str, Any], legal: list[str]) -> str:
        """Give when everyone else then passes us (lowest total wins); otherwise take the points off our own."""
        spell = view.get("spell") or {}
        points = spell.get("points", 0)
        me = view["you"]
        scores = {p["name"]: p["score"] for p in view["players"]}
        ours = scores[me]
        lowest_after_give = all(ours < s + points for name, s in scores.items() if name != me)
        choice = "spell give" if lowest_after_give else "spell take"  # i18n: not text (the moves a bot types)
        return choice if choice in legal else legal[0]

    def choose_card(self, view: dict[str, Any], plays: list[str]) -> str:
        hand: list[str] = view["hand"]
        trick = [t["card"] for t in view["trick"]]
        if len(plays) == 1:
            return plays[0]
        if not trick:
            return self.lead(hand, plays, view)
        colour = lead_colour(trick)
        following = [c for c in plays if SUIT[c] == colour] if colour else []
        if following and colour is not None:
            return self.follow(trick, colour, plays, following, view)
        if colour is None:  # only Wizards so far: whatever we play sets the colour and wins, unless a Wizard
            if WIZARD in plays:
                return WIZARD
            return self.lead(hand, plays, view)
        return self.discard(hand, plays)

    def lead(self, hand: list[str], plays: list[str], view: dict[str, Any]) -> str:
        """Lead the lowest card of a safe colour: red only when nothing else is left (or it cannot win)."""
        suited = [c for c in plays if c != WIZARD]
        if not suited:
            return plays[0]
        red_safe = self.red_is_gone(view)

        def key(c: str) -> tuple[int, float, int]:
            special = c in (PYGMY_QUEEN, FIRE_WITCH, WATER_WITCH)
            red = SUIT[c] == FIRE and not red_safe
            return (special or red, RANK[c] - 0.2 * _length(hand, SUIT[c]), RANK[c])

        return min(suited, key=key)

    def follow(self, trick: list[str], colour: str, plays: list[str], following: list[str],
               view: dict[str, Any]) -> str:
        """Duck under the winning card when we can; win cleanly when we must; Wizards save us otherwise."""
        best = max(RANK[c] for c in trick if SUIT[c] == colour)
        under = [c for c in following if RANK[c] < best]
        if under:
            return max(under, key=lambda c: (RANK[c], -danger(c, view["hand"])))
        last = len(trick) == len(view["players"]) - 1
        stake = points_in(trick)
        if last and stake <= 0 and EARTH_WITCH not in following:
            return max(following, key=lambda c: (danger(c, view["hand"]), RANK[c]))
        if last and EARTH_WITCH in trick and stake <= 0:
            return max(following, key=lambda c: RANK[c])
        if WIZARD in plays:
            return WIZARD
        if last:
            return min(following, key=lambda c: (points_in([c]), RANK[c]))
        return min(following, key=lambda c: (danger(c, view["hand"]) if c in SPECIAL_DANGER else 0, RANK[c]))

    def discard(self, hand: list[str], plays: list[str]) -> str:
        """Void in the lead colour: shed the card we least want to be caught with (never a Wizard first)."""
        return max(plays, key=lambda c: danger(c, hand))

    @staticmethod
    def red_is_gone(view: dict[str, Any]) -> bool:
        """Whether leading red is harmless: the fire points of the hand are already shared out widely."""
        taken = sum(p["points"] for p in view["players"])
        return taken >= 12


def _length(hand: list[str], suit: str | None) -> int:
    return sum(1 for c in hand if SUIT[c] == suit)

