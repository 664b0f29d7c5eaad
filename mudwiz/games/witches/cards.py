"""Witches' deck and the sums on it: the cards, who takes a trick, the fire points and the spell, where cards pass."""

from __future__ import annotations

from collections.abc import Iterable

from mudwiz.cards import Deck, rank_of, sort_hand, suit_of
from mudwiz.games.base import CardPlayed as CardPlayed  # re-exported: the tests read Witches' events from here
from mudwiz.games.base import Trick as Trick

DECK = Deck(suits="RGYB", low=1, high=14, specials={"W": 4})
WIZARD = "W"
FIRE = "R"
FIRE_WITCH, WATER_WITCH, EARTH_WITCH, AIR_WITCH, PYGMY_QUEEN = "R11", "G11", "Y11", "B11", "G12"
FIRE_CAP, WATER_POINTS, QUEEN_POINTS, EARTH_REDUCTION = 15, 5, 10, 5
ALL_FIRE = frozenset(f"{FIRE}{n}" for n in range(DECK.low, DECK.high + 1))
DEFAULT_LIMIT = 70
PASS_COUNT = {3: 4, 4: 3, 5: 3, 6: 2}
SPELL_CHOICES = ("give", "take")
# suit and display order of every card, looked up once: the property tests play hundreds of thousands of cards
_SUIT = {c: suit_of(c) for c in DECK.cards()}
_ORDER = {c: i for i, c in enumerate(sort_hand(set(DECK.cards()), DECK.suits, low_specials=WIZARD))}


# ---------------------------------------------------------------- scoring (pure)


def _points_before_earth(cards: Iterable[str]) -> int:
    held = list(cards)
    points = sum(1 for c in held if _SUIT[c] == FIRE and c != FIRE_WITCH)
    if FIRE_WITCH in held:
        points = min(2 * points, FIRE_CAP)
    if AIR_WITCH not in held:  # the air witch cancels both the water witch and the pygmy queen
        points += WATER_POINTS * (WATER_WITCH in held) + QUEEN_POINTS * (PYGMY_QUEEN in held)
    return points


def fire_points(cards: Iterable[str]) -> int:
    """A player's fire points for the cards in their won tricks (rules page, steps 1-4), spells aside."""
    held = list(cards)
    points = _points_before_earth(held)
    return max(points - EARTH_REDUCTION, 0) if EARTH_WITCH in held else points


def earth_leftover(cards: Iterable[str]) -> int:
    """The part of the earth witch's 5 that found no points to cancel (what ``earth=carry`` takes off the total)."""
    held = list(cards)
    if EARTH_WITCH not in held:
        return 0
    return max(EARTH_REDUCTION - _points_before_earth(held), 0)


def spell_of(cards: Iterable[str]) -> int | None:
    """The spell these won cards cast (20 water, 25 pygmy, 30 both), or None: needs all 14 fire cards."""
    held = set(cards)
    if not ALL_FIRE <= held:
        return None
    extra = WATER_POINTS * (WATER_WITCH in held) + QUEEN_POINTS * (PYGMY_QUEEN in held)
    return FIRE_CAP + extra if extra else None


def lead_colour(trick: Iterable[str]) -> str | None:
    """The colour to follow: that of the first non-Wizard card (None while only Wizards have been played)."""
    for card in trick:
        if card != WIZARD:
            return _SUIT[card]
    return None


def trick_winner(trick: list[str]) -> int:
    """Index of the winning card: the highest of the lead colour; the first Wizard if every card is one."""
    colour = lead_colour(trick)
    if colour is None:
        return 0
    return max((rank_of(c), i) for i, c in enumerate(trick) if _SUIT[c] == colour)[1]


def pass_direction(nplayers: int, hand: int) -> str:
    """Where hand ``hand`` (from 1) is passed: 3 and 5 players alternate left/right; 4 and 6 add opposite."""
    cycle = ("left", "right") if nplayers % 2 else ("left", "right", "opposite")
    return cycle[(hand - 1) % len(cycle)]


def pass_offset(nplayers: int, direction: str) -> int:
    """Seats from the passer to the receiver ("left" is the next seat, seat + 1)."""
    return {"left": 1, "right": nplayers - 1, "opposite": nplayers // 2}[direction]
