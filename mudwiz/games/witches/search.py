"""Witches' ``hard`` level: ``normal``'s pass and spell, and each card chosen by simulating the hand's rest.

From its own view only: it remembers the hand's tricks (each view carries the trick in progress and the last
one, and it plays in every trick), so it knows who took which cards, who showed a void (did not follow the
lead colour with a colour card; a Wizard may always be played, so it shows nothing), and which player holds the
cards it passed (until they are played). Each simulation deals the unseen cards to the others (their hand sizes
are public; a void is respected; our passed cards stay where we sent them), plays the hand out with a quick
policy that follows ``normal``'s rules of thumb, and scores the fire points we end the hand with, less a share
of what the others end with (the lowest total wins, so points sent elsewhere are worth something). Every legal
card (equal cards once) is tried over the same deals; the lowest mean wins. A decision is bounded by its
playouts (``max_playouts``), not the clock.
"""

from __future__ import annotations

import random
from typing import Any

from mudwiz.games.base import Phase
from mudwiz.games.witches.bots import RANK, SPECIAL_DANGER, SUIT, WitchesGood, danger
from mudwiz.games.witches.cards import (
    DECK,
    EARTH_WITCH,
    FIRE,
    WIZARD,
    fire_points,
    lead_colour,
    pass_direction,
    pass_offset,
    trick_winner,
)

OTHERS_SHARE = 0.3  # how much a point the others end the hand with is worth to us (we want them to have more)
STATIC_DANGER = {c: danger(c, []) for c in set(DECK.cards())}  # without a hand: no short-colour bonus
SPECIAL = frozenset(SPECIAL_DANGER)  # the witches and the queen: never as good as a plain card beside them


LEAD_KEY = {c: (STATIC_DANGER[c] > 30 or SUIT[c] == FIRE, RANK[c]) for c in STATIC_DANGER}  # lowest leads
SHED_KEY = {c: (STATIC_DANGER[c], RANK[c]) for c in STATIC_DANGER}


def quick(hand: list[str], trick: list[str], colour: str | None, best: int, players: int) -> str:
    """The playout policy, ``normal``'s rules in a few lines: lead low and not red; duck under the winning card
    (``best``, the highest rank of the lead ``colour`` so far); when every card wins, a Wizard, else (last, no
    points in the trick) the most dangerous; void, shed the most dangerous."""
    if colour is None:
        if trick and WIZARD in hand:  # only Wizards so far: a Wizard keeps us out of it
            return WIZARD
        suited = [c for c in hand if c != WIZARD]
        return min(suited, key=LEAD_KEY.__getitem__) if suited else hand[0]
    following = [c for c in hand if SUIT[c] == colour]
    if not following:
        return max(hand, key=STATIC_DANGER.__getitem__)
    under = [c for c in following if RANK[c] < best]
    if under:
        return max(under, key=RANK.__getitem__)
    if len(trick) == players - 1 and EARTH_WITCH not in trick and fire_points(trick) <= 0:
        return max(following, key=SHED_KEY.__getitem__)
    if WIZARD in hand:
        return WIZARD
    return min(following, key=RANK.__getitem__)


def playout(hands: list[list[str]], trick: list[tuple[int, str]], leader: int, won: list[list[str]]) -> list[int]:
    """Play the hand out from a partly played ``trick``; ``hands`` and ``won`` are consumed. Each seat's points."""
    n = len(hands)
    cards: list[str] = []
    colour: str | None = None
    best, winner = -1, leader
    for seat, card in trick:
        cards.append(card)
        colour, best, winner = _played(card, seat, colour, best, winner)
    while True:
        while len(cards) < n:
            seat = (leader + len(cards)) % n
            card = quick(hands[seat], cards, colour, best, n)
            hands[seat].remove(card)
            cards.append(card)
            colour, best, winner = _played(card, seat, colour, best, winner)
        won[winner].extend(cards)
        leader = winner
        if not hands[leader]:
            return [fire_points(w) for w in won]
        cards, colour, best = [], None, -1


def _played(card: str, seat: int, colour: str | None, best: int, winner: int) -> tuple[str | None, int, int]:
    """The trick's lead colour, highest rank in it and its holder after ``card`` (a trick of Wizards alone goes
    to the first of them: ``winner`` starts as the leader)."""
    suit = SUIT[card]
    if suit is None:
        return colour, best, winner
    if colour is None:
        return suit, RANK[card], seat
    if suit == colour and RANK[card] > best:
        return colour, RANK[card], seat
    return colour, best, winner


class HandMemory:
    """This hand's tricks as seen, by how many tricks came before each: (player, card) in play order."""

    def __init__(self) -> None:
        self.key: tuple[Any, ...] | None = None
        self.tricks: dict[int, list[tuple[str, str]]] = {}

    def update(self, view: dict[str, Any]) -> None:
        key = (view["round"], view["dealer"])
        if key != self.key:
            self.key, self.tricks = key, {}
        done = sum(p["tricks"] for p in view["players"])
        if done and view["last_trick"]:
            self.tricks[done - 1] = [(t["player"], t["card"]) for t in view["last_trick"]]
        self.tricks[done] = [(t["player"], t["card"]) for t in view["trick"]]


class WitchesHard(WitchesGood):
    """The ``hard`` Witches player: ``max_playouts`` simulated hands a card decision at most."""

    def __init__(self, game: str, rng: random.Random, max_playouts: int = 120) -> None:
        super().__init__(game, rng)
        self.max_playouts = max_playouts
        self.memory = HandMemory()

    def choose(self, view: dict[str, Any]) -> str | None:
        if view["phase"] == Phase.PLAYING:
            self.memory.update(view)
        return super().choose(view)

    def choose_card(self, view: dict[str, Any], plays: list[str]) -> str:
        if len(plays) == 1:
            return plays[0]
        names = [p["name"] for p in view["players"]]
        n, me = len(names), names.index(view["you"])
        done = sum(p["tricks"] for p in view["players"])
        if len(self.memory.tricks) != done + 1 or any(i not in self.memory.tricks for i in range(done)):
            return super().choose_card(view, plays)  # joined mid-hand (a stand-in): the rules of thumb
        won, voids, played = self.seen(view, names, done)
        current = [(names.index(t["player"]), t["card"]) for t in view["trick"]]
        hand: list[str] = view["hand"]
        pinned: dict[int, list[str]] = {}
        if view.get("passed") and view.get("received") is not None:
            gave_to = (me + _offset(view, n)) % n
            pinned[gave_to] = [c for c in view["passed"] if c not in played]
        unseen = list(DECK.cards())
        for c in [*hand, *played, *(c for cs in pinned.values() for c in cs)]:
            unseen.remove(c)
        needs = {s: view["players"][s]["held"] - len(pinned.get(s, [])) for s in range(n) if s != me}
        if any(v < 0 for v in needs.values()) or sum(needs.values()) != len(unseen):
            return super().choose_card(view, plays)  # what we remember does not add up: the rules of thumb
        leader = (me - len(current)) % n
        cards = _distinct(plays, unseen)
        totals = dict.fromkeys(cards, 0.0)
        deals = max(6, self.max_playouts // len(cards))
        for _ in range(deals):
            hands = _deal(unseen, needs, voids, pinned, self.rng)
            hands[me] = list(hand)
            for card in cards:
                trial = [h[:] for h in hands]
                trial[me].remove(card)
                points = playout(trial, [*current, (me, card)], leader, [w[:] for w in won])
                others = (sum(points) - points[me]) / (n - 1)
                totals[card] += points[me] - OTHERS_SHARE * others
        return min(cards, key=lambda c: (totals[c], STATIC_DANGER[c] < 0, -STATIC_DANGER[c]))

    def seen(self, view: dict[str, Any], names: list[str], done: int
             ) -> tuple[list[list[str]], list[set[str]], set[str]]:
        """From the hand's tricks: the cards each seat has taken, the colours each has shown it lacks, every card
        played (the trick in progress too)."""
        n = len(names)
        won: list[list[str]] = [[] for _ in range(n)]
        voids: list[set[str]] = [set() for _ in range(n)]
        played: set[str] = set()
        tricks = [self.memory.tricks[i] for i in range(done)]
        for i, trick in enumerate([*tricks, [(t["player"], t["card"]) for t in view["trick"]]]):
            cards = [c for _, c in trick]
            if i < done:
                won[names.index(trick[trick_winner(cards)][0])].extend(cards)
            for j, (player, card) in enumerate(trick):
                colour = lead_colour(cards[:j])
                if colour is not None and card != WIZARD and SUIT[card] != colour:
                    voids[names.index(player)].add(colour)
            played.update(cards)
        return won, voids, played


def _offset(view: dict[str, Any], n: int) -> int:
    """Seats from us to whom we passed: the pass direction of this hand (3 and 5 players alternate)."""
    return pass_offset(n, pass_direction(n, view["round"]))


def _distinct(plays: list[str], unseen: list[str]) -> list[str]:
    """``plays`` with only one of each run of cards no unseen card ranks between (equally good to play)."""
    kept: list[str] = []
    for card in sorted(set(plays), key=lambda c: (SUIT[c] or "", RANK[c])):
        if kept and card != WIZARD and SUIT[kept[-1]] == SUIT[card] and kept[-1] != WIZARD \
                and card not in SPECIAL and kept[-1] not in SPECIAL \
                and not any(SUIT[u] == SUIT[card] and RANK[kept[-1]] < RANK[u] < RANK[card] for u in unseen):
            continue
        kept.append(card)
    return kept



def _deal(unseen: list[str], needs: dict[int, int], voids: list[set[str]], pinned: dict[int, list[str]],
          rng: random.Random) -> list[list[str]]:
    """The unseen cards shared among the others: each seat's known cards, then, seats with most voids first,
    cards of colours it may hold. (Close to the conditional distribution, and cheap.)"""
    cards = unseen[:]
    rng.shuffle(cards)
    hands: list[list[str]] = [list(pinned.get(s, [])) for s in range(len(voids))]
    for s in sorted(needs, key=lambda s: -len(voids[s])):
        void = voids[s]
        if void:
            mine = [c for c in cards if SUIT[c] not in void][: needs[s]]
            if len(mine) < needs[s]:
                mine = cards[: needs[s]]  # the voids we inferred cannot all hold: deal plainly
            for c in mine:
                cards.remove(c)
            hands[s].extend(mine)
        else:
            hands[s].extend(cards[: needs[s]])
            cards = cards[needs[s]:]
    return hands
