"""Witches' colours, special cards, spells and passing directions by name, in the reader's language.

The English names are the catalog's msgids (``witches.po``), so a name inside a sentence (``you must follow
{colour}``) is a ``Later`` put into each reader's words; their Japanese is ``rules_ja.NAMES_JA``'s (the seed's
words), which tests/games/test_witches_texts.py holds the catalog to. The typed codes (R12, W) never change.
"""

from __future__ import annotations

from mudwiz.games.witches.texts import N_, _, later
from mudwiz.texts import Later

COLOURS = {"R": N_("red"), "G": N_("green"), "Y": N_("yellow"), "B": N_("blue")}
SPECIALS = {"R11": N_("fire witch"), "G11": N_("water witch"), "Y11": N_("earth witch"), "B11": N_("air witch"),
            "G12": N_("pygmy queen")}
SPELLS = {20: N_("water spell"), 25: N_("pygmy spell"), 30: N_("great fire spell")}
TOWARDS = {"left": N_("to the left"), "right": N_("to the right"), "opposite": N_("across the table")}
DIRECTIONS = {"left": N_("left"), "right": N_("right"), "opposite": N_("opposite")}


def colour_name(code: str) -> Later:
    """A colour (R, G, Y, B) by name, for a sentence every reader words in their own language."""
    return later(COLOURS[code])


def colour_now(code: str) -> str:
    return _(COLOURS[code])


def special_now(code: str) -> str | None:
    """A special card's name in the language spoken now (None: an ordinary card)."""
    name = SPECIALS.get(code)
    return None if name is None else _(name)


def spell_now(points: int) -> str:
    name = SPELLS.get(points)
    return _(name) if name is not None else _("{points}-point spell", points=points)


def towards_now(direction: str) -> str:
    return _(TOWARDS[direction])


def direction_now(direction: str) -> str:
    """A pass's direction (the state's code) as a word; a code not known here as it is."""
    return _(DIRECTIONS[direction]) if direction in DIRECTIONS else direction
