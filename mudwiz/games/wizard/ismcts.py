"""Information-set Monte-Carlo tree search (single observer) for a Wizard card, from the bot's own view only.

Searching each simulated deal on its own credits the bot's later cards with plays it could only find by seeing
every hand (strategy fusion). Here one tree is shared by every deal: a node is a sequence of cards played from
the view's position, whoever played them, so a card of the bot's is valued over all the deals in which it was
playable, never per deal. Each iteration draws a deal of the unseen cards (hand sizes and shown voids respected,
weighed by the bids, as :class:`mudwiz.games.wizard.playouts.Simulations` deals them), walks the tree choosing,
for the player to move, among the cards legal *in that deal* by UCB with availability counts (a card is counted
as tried only in the iterations where its player held it), adds one node, and plays the round out with the fast
playout policy. A node's value is the round score of the player who chose it (each plays for itself).

Bounded by work (the cards its iterations play), not the clock; seeded, so the same view and seed give the same
card.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from mudwiz.games.wizard.cards import JESTER, WIZARD, round_score
from mudwiz.games.wizard.playouts import NO_LEAD, SUIT, Simulations, order, playout, trick_tables

Deal = tuple[list[list[str]], list[int], float]


@dataclass(slots=True)
class Node:
    """A card played from its parent's position: how often it was chosen, available, and its chooser's total."""

    visits: int = 0
    avail: int = 0
    total: float = 0.0
    children: dict[str, Node] = field(default_factory=dict)


def legal_cards(hand: list[str], trick: list[tuple[int, str]]) -> list[str]:
    """The cards of ``hand`` that may be played to ``trick``, each once: the lead suit if held (Wizards and Jesters
    always)."""
    lead = next((NO_LEAD if c == WIZARD else SUIT[c] for _, c in trick if c != JESTER), None)
    if lead is None or lead == NO_LEAD or not any(SUIT[c] == lead for c in hand):
        return list(dict.fromkeys(hand))
    return list(dict.fromkeys(c for c in hand if SUIT[c] == lead or SUIT[c] is None))


class Position:
    """One deal's round in play: every hand (strongest first), the trick so far, its leader and tricks taken."""

    __slots__ = ("hands", "leader", "n", "powers", "trick", "tricks")

    def __init__(self, hands: list[list[str]], trick: list[tuple[int, str]], leader: int, tricks: list[int],
                 trump: str | None) -> None:
        self.hands, self.trick, self.leader, self.tricks = hands, trick, leader, tricks
        self.n = len(hands)
        self.powers = trick_tables(trump)[0]

    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.n

    def over(self) -> bool:
        return not self.trick and not self.hands[self.leader]

    def play(self, card: str) -> None:
        seat = self.to_move()
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < self.n:
            return
        lead = next((NO_LEAD if c == WIZARD else SUIT[c] for _, c in self.trick if c != JESTER), None)
        table = self.powers[lead]
        best, winner = -1, self.leader
        for s, c in self.trick:
            if table[c] > best:
                best, winner = table[c], s
        self.tricks[winner] += 1
        self.leader, self.trick = winner, []


class Search:
    """The tree for one decision; :meth:`run` grows it by ``work`` cards and returns the card to play."""

    C = 0.7  # UCB's exploration, for rewards scaled to about one round score of a bid near the cards dealt
    DEALS = 200  # deals drawn once per decision, each iteration picking one by its weight

    def __init__(self, sims: Simulations, options: list[str], rng: random.Random) -> None:
        self.sims, self.options, self.rng = sims, options, rng
        self.root = Node()
        self.scale = 20.0 + 10.0 * (len(sims.hand) + sum(sims.tricks))  # a round score's order: the cards dealt
        self.iterations = 0
        self.spent = 0  # the cards its iterations played (tree and playouts): its work

    def deals(self, count: int) -> tuple[list[Deal], list[float]]:
        drawn = [self.sims.sample(self.rng) for _ in range(count)]
        running, cumulative = 0.0, []
        for _, _, weight in drawn:
            running += weight
            cumulative.append(running)
        if running <= 0:
            cumulative = [float(i + 1) for i in range(count)]
        return drawn, cumulative

    def run(self, work: int, most: int) -> str:
        """Iterate until ``work`` cards have been played (tree and playouts) or ``most`` iterations; the most
        visited card of the bot's (ties: the better mean)."""
        sims = self.sims
        drawn, cumulative = self.deals(min(self.DEALS, most))
        per = sum(len(h) for h in drawn[0][0])
        while self.spent < work and self.iterations < most:
            hands, bids, _ = self.rng.choices(drawn, cum_weights=cumulative)[0]
            self.iterate(order([h[:] for h in hands], sims.trump), bids)
            self.spent += per
        return max(self.options, key=lambda c: (self.root.children[c].visits, self.mean(self.root.children[c]))
                   if c in self.root.children else (-1, 0.0))

    def means(self) -> dict[str, float]:
        """Each of the bot's options: its mean round score over the iterations that played it."""
        return {c: self.mean(self.root.children[c]) * self.scale if c in self.root.children else 0.0
                for c in self.options}

    @staticmethod
    def mean(node: Node) -> float:
        return node.total / node.visits if node.visits else 0.0

    def iterate(self, hands: list[list[str]], bids: list[int]) -> None:
        sims = self.sims
        position = Position(hands, list(sims.trick), sims.leader, sims.tricks[:], sims.trump)
        node, path = self.root, []
        while not position.over():
            seat = position.to_move()
            legal = self.options if node is self.root else legal_cards(position.hands[seat], position.trick)
            fresh = [c for c in legal if c not in node.children]
            for card in legal:
                if card in node.children:
                    node.children[card].avail += 1
            if fresh:
                card = fresh[self.rng.randrange(len(fresh))]
                child = node.children[card] = Node(avail=1)
                position.play(card)
                path.append((child, seat))
                break
            card = max(legal, key=lambda c: self.ucb(node.children[c]))
            node = node.children[card]
            position.play(card)
            path.append((node, seat))
        won = position.tricks
        if not position.over():
            won = playout(position.hands, position.trick, position.leader, sims.trump, bids, position.tricks, None,
                          True)
        for child, seat in path:
            child.visits += 1
            child.total += round_score(bids[seat], won[seat]) / self.scale
        self.iterations += 1

    def ucb(self, node: Node) -> float:
        return node.total / node.visits + self.C * math.sqrt(math.log(node.avail) / node.visits)
