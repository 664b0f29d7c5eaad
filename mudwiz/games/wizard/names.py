"""What Wizard's cards are called in words, as a reader's language says them: the suits and the two special cards
(rules_ja.NAMES_JA gave the Japanese words, which the catalog holds: the same on the rules page and the table).
A card's typed code (``R12``, ``Z``) is never translated; only the names said around it are."""

from __future__ import annotations

from mudwiz.games.wizard.cards import JESTER, WIZARD
from mudwiz.games.wizard.texts import later
from mudwiz.texts import Later


def suit_name(suit: str) -> Later:
    """A suit's colour (``R``: red, 赤), put into words by each reader."""
    names = {"B": later("blue"), "G": later("green"), "R": later("red"), "Y": later("yellow")}
    return names[suit]


def card_name(code: str) -> Later | None:
    """The name of a card that has one (a Wizard, a Jester); None for a suit card, which its code names."""
    if code == WIZARD:
        return later("Wizard")
    if code == JESTER:
        return later("Jester")
    return None
