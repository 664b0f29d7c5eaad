"""Tiltowait's cards: the deck of monsters and spells, what each code means, and how a typed card is read."""

from __future__ import annotations

from mudwiz.cards import Deck, rank_of, sort_hand, suit_of
from mudwiz.errors import IllegalAction
from mudwiz.games.tiltowait.rules_ja import NAMES_JA
from mudwiz.games.tiltowait.texts import later
from mudwiz.texts import Later

COLOURS = "KRGB"  # the order the sheet lists them in: black, red, gold, blue
COLOUR_NAMES = {"K": "black", "R": "red", "G": "gold", "B": "blue"}
HAND_SIZE = 7
DEFAULT_HANDS = 5
MILWA_SECONDS = 5
MILWA_AUDIENCES = ("table", "caster")  # option milwa: who sees the opened hand; the sheet's "opened" is the table

HALITO, DALTO, MAHALITO, MADALTO, TILTOWAIT = "HALITO", "DALTO", "MAHALITO", "MADALTO", "TILTOWAIT"
KATINO, MILWA, MONTINO, HAMAN = "KATINO", "MILWA", "MONTINO", "HAMAN"
COLOURED_SPELLS = {HALITO: 2, DALTO: 1, KATINO: 2}  # copies per colour; wire code ``HALITO-R``
PLAIN_SPELLS = {MAHALITO: 4, MADALTO: 2, TILTOWAIT: 2, MILWA: 2, MONTINO: 4, HAMAN: 6}
POINTS = {HALITO: 20, DALTO: 20, MAHALITO: 40, MADALTO: 40, TILTOWAIT: 40, KATINO: 20, MILWA: 40,
          MONTINO: 30, HAMAN: 30}
DRAWS = {HALITO: 2, DALTO: 2, MAHALITO: 4, MADALTO: 4}  # what the next player is told to draw
REVERSES = frozenset({DALTO, MADALTO})
NAMES_COLOUR = frozenset({MAHALITO, MADALTO, TILTOWAIT, MILWA, HAMAN})
CANCELS = frozenset({MONTINO, HAMAN})
NOT_LAST = frozenset({MAHALITO, MADALTO, MILWA, MONTINO, HAMAN})
SMALL_ATTACKS = frozenset({HALITO, DALTO})
BIG_ATTACKS = frozenset({MAHALITO, MADALTO})
NOT_UNDER_TILTOWAIT = frozenset({HALITO, DALTO, MAHALITO, MADALTO, KATINO, TILTOWAIT})
TILTOWAIT_DRAW = 2
KARUKI_PENALTY = 2
KARUKI = "karuki"  # the verb of the call, and the last word of a discard that makes it: ``play R3 karuki``

DECK = Deck(
    suits=COLOURS,
    low=1,
    high=10,
    specials={
        **{f"{spell}-{c}": copies for spell, copies in COLOURED_SPELLS.items() for c in COLOURS},
        **PLAIN_SPELLS,
    },
)


def full_deck() -> list[str]:
    """The 120 cards: ``Deck`` builds each monster once, and Tiltowait has two of each."""
    cards = DECK.cards()
    return cards + [c for c in cards if suit_of(c)]


CODES = sort_hand(set(DECK.cards()), COLOURS)  # the 49 distinct codes in hand order
ORDER = {code: i for i, code in enumerate(CODES)}
# code -> (spell or None, colour or None, number or 0): legal_actions asks these thousands of times a hand
_INFO = {
    code: (None, suit_of(code), rank_of(code)) if suit_of(code) else
    (code.split("-")[0], code.split("-")[1] if "-" in code else None, 0)
    for code in CODES
}


def spell_of(code: str) -> str | None:
    """The spell's name (``HALITO`` for ``HALITO-R``), or None for a monster."""
    return _INFO[code][0]


def colour_of(code: str) -> str | None:
    """A monster's or coloured spell's colour letter; None for the colourless spells."""
    return _INFO[code][1]


def number_of(code: str) -> int:
    """A monster's number; 0 for a spell."""
    return _INFO[code][2]


def points(code: str) -> int:
    """What a card left in hand costs: a monster its number, a spell its points."""
    spell = spell_of(code)
    return number_of(code) if spell is None else POINTS[spell]


def hand_score(cards: list[str]) -> int:
    """Minus the hand's points, doubled once when it holds a TILTOWAIT (two TILTOWAITs still double once)."""
    total = sum(points(c) for c in cards)
    return -total * (2 if TILTOWAIT in cards else 1)


def parse_colour(text: str) -> str:
    """A colour as typed (``r``, ``Red``, ``gold``, or the Japanese sheet's ``金``) to its letter; gold is G here,
    not green."""
    word = text.strip().upper()
    for letter, name in COLOUR_NAMES.items():
        if word in (letter, name.upper(), NAMES_JA[letter]):
            return letter
    raise IllegalAction(later("{text!r} is not a colour: say K (black), R (red), G (gold) or B (blue)", text=text))


def parse_card(text: str) -> str:
    """A card as typed to its wire code, with a hint for a coloured spell named without its colour."""
    word = text.strip().upper()
    if word in COLOURED_SPELLS:
        raise IllegalAction(later("{word} has a colour: say {word}-K, {word}-R, {word}-G or {word}-B", word=word))
    try:
        return DECK.parse(word)
    except IllegalAction:
        raise IllegalAction(later(
            "{text!r} is not a Tiltowait card: monsters are K, R, G or B with 1..10 (R7), spells "
            "HALITO-R, DALTO-R, KATINO-R, MAHALITO, MADALTO, TILTOWAIT, MILWA, MONTINO, HAMAN", text=text
        )) from None


def colour_text(colour: str) -> Later:
    """A colour's name, put into words by each reader (the Japanese catalog says the sheet's: ``NAMES_JA``)."""
    return {"K": later("black"), "R": later("red"), "G": later("gold"), "B": later("blue")}[colour]
