"""The ``good`` level for Tiltowait: a club player's rules of thumb, from the bot's own view only.

- Call karuki with the discard that leaves one card (``play R3 karuki``: nobody can catch a call made with the
  card), else the moment it is legal; catch anyone who forgot.
- Keep MONTINO and HAMAN for attacks: answer a draw by stacking when possible (the next player gets it all),
  else by cancelling; let a MILWA look rather than spend a cancel on it.
- Otherwise shed the costliest card first (a TILTOWAIT doubles the hand's cost), save attacks for a player about
  to go out, point MILWA at the player with the fewest cards, and never keep a card that cannot be the last one
  as the last one.
- Name the colour we hold most of.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from mudwiz.bots import Bot
from mudwiz.games.tiltowait.cards import (
    BIG_ATTACKS,
    CANCELS,
    COLOURS,
    DRAWS,
    KARUKI,
    KATINO,
    MILWA,
    MONTINO,
    NOT_LAST,
    REVERSES,
    SMALL_ATTACKS,
    TILTOWAIT,
    colour_of,
    points,
    spell_of,
)

ATTACKS = SMALL_ATTACKS | BIG_ATTACKS | {KATINO}


def best_colour(hand: list[str]) -> str:
    """The colour most of ``hand`` can follow (monsters and coloured spells), so our next turn is likelier a play."""
    counts = Counter(colour_of(c) for c in hand if colour_of(c))
    return max(COLOURS, key=lambda c: (counts[c], -COLOURS.index(c)))


class TiltowaitGood(Bot):
    """The ``good`` Tiltowait player."""

    def choose(self, view: dict[str, Any]) -> str | None:
        legal: list[str] = view["legal"]
        if not legal:
            return None
        if KARUKI in legal:
            return KARUKI
        catches = [a for a in legal if a.startswith("catch ")]
        if catches:
            return catches[0]
        if view["you"] not in view["waiting"]:
            return None
        hand: list[str] = view["hand"]
        plays: dict[str, list[list[str]]] = {}
        for action in legal:
            words = action.split()
            if words[0] == "play":
                plays.setdefault(words[1], []).append(words[2:])
        answer = view.get("answer")
        if answer and answer.get("to") == view["you"]:
            return self.answer(answer, plays, legal, hand)
        return self.turn(view, plays, legal, hand)

    # ------------------------------------------------------------ spells aimed at us

    def answer(self, answer: dict[str, Any], plays: dict[str, list[list[str]]], legal: list[str],
               hand: list[str]) -> str:
        """Stack a draw onto the next player if we can, else cancel it; a MILWA may look."""
        refuse = "keep" if "keep" in legal else "draw"
        if answer.get("spell") == MILWA:
            return refuse
        stacks = [c for c in plays if spell_of(c) in DRAWS]
        if stacks:
            card = max(stacks, key=points)
            return self.form(card, plays[card], hand)
        cancels = sorted((c for c in plays if spell_of(c) in CANCELS), key=lambda c: c != MONTINO)
        if cancels:
            return self.form(cancels[0], plays[cancels[0]], hand)
        return refuse

    # ------------------------------------------------------------ our own turn

    def turn(self, view: dict[str, Any], plays: dict[str, list[list[str]]], legal: list[str],
             hand: list[str]) -> str:
        """The most valuable discard; drawing only when every play would waste a cancel we may need."""
        refuse = "keep" if "keep" in legal else "draw"
        if not plays:
            return refuse
        values = self.values(view, plays, hand)
        card = max(plays, key=values.__getitem__)
        if values[card] <= -1000:
            return refuse
        return self.form(card, plays[card], hand, {p["name"]: p["held"] for p in view["players"]}, view["you"])

    def values(self, view: dict[str, Any], plays: dict[str, list[list[str]]], hand: list[str]) -> dict[str, float]:
        """Each playable card's worth as a discard (-1000 and below: keep it for an attack)."""
        held = {p["name"]: p["held"] for p in view["players"]}
        names = [p["name"] for p in view["players"]]
        me = names.index(view["you"])
        step = 1 if view.get("direction") == "cw" else -1
        cancels_held = sum(1 for c in hand if spell_of(c) in CANCELS)

        def value(card: str) -> float:
            spell = spell_of(card)
            score = float(points(card))
            if spell == TILTOWAIT:
                score += 60
            if spell in CANCELS:
                if len(hand) > 3 and cancels_held < 2:
                    return -1000  # keep it for an attack
                score -= 25
            if spell in ATTACKS:
                target = names[(me + (-step if spell in REVERSES else step)) % len(names)]
                score += 30 if held[target] <= 2 else 10 if held[target] <= 4 else -5
            if len(hand) == 2 and spell in NOT_LAST:
                score += 100  # otherwise it would be stuck as our last card
            return score

        return {card: value(card) for card in plays}

    # ------------------------------------------------------------ how to say it

    def form(self, card: str, forms: list[list[str]], hand: list[str], held: dict[str, int] | None = None,
             me: str | None = None) -> str:
        """The action text: the colour we hold most of after this discard; MILWA on the fewest cards."""
        rest = list(hand)
        if card in rest:
            rest.remove(card)
        colour = best_colour(rest)
        if spell_of(card) == MILWA and held is not None:
            target = min((n for n in held if n != me), key=lambda n: held[n])
            wanted = [target, colour]
        else:
            wanted = [colour] if forms and forms[0] else []
        chosen = wanted if wanted in forms else forms[0]
        if [*chosen, KARUKI] in forms:
            chosen = [*chosen, KARUKI]
        return " ".join(["play", card, *chosen])
