"""Wizard's deck and the sums on it: the cards, who takes a trick, what a bid scores; the tables the hot path reads."""

from __future__ import annotations

from mudwiz.cards import Action, Deck, rank_of, sort_hand, suit_of

DECK = Deck(suits="BGRY", low=1, high=13, specials={"Z": 4, "N": 4})
WIZARD, JESTER, HIDDEN = "Z", "N", "?"
TOURNAMENT = {
    3: (2, 4, 6, 8, 10, 12, 14, 16, 18, 20),
    4: (1, 3, 5, 7, 9, 11, 12, 13, 14, 15),
    5: (2, 4, 5, 6, 7, 8, 9, 10, 11, 12),
}

# Hot-path tables (a random game asks these questions thousands of times): the suit and rank of every code,
# the display order of ``sort_hand``, and one shared immutable Action per possible move.
_CODES = sorted(set(DECK.cards()))
_SUIT: dict[str, str | None] = {c: suit_of(c) for c in _CODES}
_RANK: dict[str, int] = {c: rank_of(c) for c in _CODES}
_ORDER: dict[str, int] = {c: i for i, c in enumerate(sort_hand(_CODES, DECK.suits, JESTER, WIZARD))}
_PLAY: dict[str, Action] = {c: Action("play", (c,)) for c in (*_CODES, HIDDEN)}
_BID: tuple[Action, ...] = tuple(Action("bid", (str(b),)) for b in range(60 // 3 + 1))
_TRUMP: tuple[Action, ...] = tuple(Action("trump", (s,)) for s in DECK.suits)


def round_score(bid: int, tricks: int) -> int:
    """+20 + 10 per trick for an exact bid, else -10 per trick off."""
    return 20 + 10 * bid if bid == tricks else -10 * abs(bid - tricks)


def lead_suit(trick: list[str]) -> str | None:
    """The suit to follow: that of the first suit card, unless a Wizard came before any suit card."""
    for card in trick:
        if card == WIZARD:
            return None
        if card != JESTER:
            return _SUIT[card]
    return None


def trick_winner(trick: list[str], trump: str | None) -> int:
    """Index in ``trick`` of the winning card: first Wizard; highest trump; highest of the lead suit; first Jester."""
    if WIZARD in trick:
        return trick.index(WIZARD)
    for suit in (trump, lead_suit(trick)):
        if suit is not None:
            ranked = [(_RANK[c], i) for i, c in enumerate(trick) if _SUIT[c] == suit]
            if ranked:
                return max(ranked)[1]
    return 0  # every card a Jester: the first one wins
