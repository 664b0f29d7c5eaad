"""The card and action vocabulary shared by every game, command, log line and JSON message.

Cards travel as canonical strings (``R12``, ``Z``, ``HALITO-R``): they are hashable, JSON-ready and exactly
what a player types, so hands are plain lists of codes and identical cards (four Wizards) need no identity.
Actions have one text form (``bid 2``, ``play R12``, ``trump Y``) parsed case-insensitively, so the command
line, bots, logs and replays all speak the same language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from mudwiz.errors import IllegalAction
from mudwiz.texts import later

SUIT_NAMES = {"B": "blue", "G": "green", "R": "red", "Y": "yellow", "K": "black"}


class Action(NamedTuple):
    """One move: a verb and its words, e.g. ``Action("play", ("R12",))``; ``str()`` gives the wire text.

    A named tuple, not a dataclass: a move is parsed, normalised and looked up in the legal ones on every command,
    and a tuple's equality, hashing and construction run in C, where a dataclass's generated methods ran as
    Python."""

    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self[0], *self[1]))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse ``"/Play r12"`` or ``"play R12"``; the verb is lower-cased, arguments are kept as typed."""
        words = text.strip().removeprefix("/").split()
        if not words:
            raise IllegalAction(later('empty action'))
        return cls(words[0].lower(), tuple(words[1:]))


def as_action(action: Action | str) -> Action:
    return action if isinstance(action, Action) else Action.parse(action)


_SUITED = re.compile(r"^([A-Z])([0-9]{1,2})$")  # not \d: "R１２" is no card (mudwiz.numbers)


@dataclass(frozen=True)
class Deck:
    """A deck of suited cards numbered ``low..high`` plus named specials (code -> copies).

    Knows how to build the full deck, parse what a player typed into a canonical code, and split a code
    into suit and rank; games with richer cards (Tiltowait's spells) extend the parsing themselves.
    """

    suits: str
    low: int
    high: int
    specials: Mapping[str, int]

    @cached_property
    def _deck(self) -> tuple[str, ...]:
        deck = [f"{s}{n}" for s in self.suits for n in range(self.low, self.high + 1)]
        for code, copies in self.specials.items():
            deck.extend([code] * copies)
        return tuple(deck)

    @cached_property
    def _codes(self) -> frozenset[str]:
        return frozenset(self._deck)

    def cards(self) -> list[str]:
        """The whole deck, a new list to shuffle (built once: every round of every table deals one)."""
        return list(self._deck)

    def parse(self, text: str) -> str:
        if text in self._codes:  # as a client sends it, what ``legal`` offered: no need to read it
            return text
        code = text.strip().upper()
        if code in self.specials:
            return code
        m = _SUITED.match(code)
        if m and m.group(1) in self.suits and self.low <= int(m.group(2)) <= self.high:
            return f"{m.group(1)}{int(m.group(2))}"
        raise IllegalAction(later('{text!r} is not a card of this game', text=text))

    def parse_suit(self, text: str) -> str:
        s = text.strip().upper()
        for code, name in SUIT_NAMES.items():
            if code in self.suits and s in (code, name.upper()):
                return code
        raise IllegalAction(later('{text!r} is not a suit: say one of {join}', text=text, join=', '.join(self.suits)))


def suit_of(code: str) -> str | None:
    """The suit letter of a suited card code, or None for a special card."""
    m = _SUITED.match(code)
    return m.group(1) if m else None


def rank_of(code: str) -> int:
    m = _SUITED.match(code)
    return int(m.group(2)) if m else 0


def sort_hand(cards: Iterable[str], suit_order: str, low_specials: str = "", high_specials: str = "") -> list[str]:
    """Sort a hand for display: low specials, then suits in ``suit_order`` by rank, then high specials."""

    def key(code: str) -> tuple[int, int, str]:
        s = suit_of(code)
        if s is None:
            if code in high_specials.split():
                return (len(suit_order) + 1, 0, code)
            return (0, 0, code) if code in low_specials.split() else (len(suit_order) + 2, 0, code)
        return (1 + suit_order.index(s), rank_of(code), code)

    return sorted(cards, key=key)


def remove_card(hand: list[str], card: str) -> None:
    """Remove one copy of ``card``; the caller has already checked it is held."""
    hand.remove(card)
