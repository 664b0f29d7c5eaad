"""The end of a Wizard round solved exactly, deal by deal, for ``hard``'s last cards.

Near the end of a round few cards are left, and the playout policy (:func:`mudwiz.games.wizard.playouts.pick`)
is what limits the race over playouts: it plays every seat's cards by a rule of thumb. Here each sampled deal is
played out by **max-n search** instead: every player, seeing every hand of that deal, plays the card that
maximises its *own* round score, ties going to the card the playout policy would play (so a solved seat plays
like the policy wherever that costs it nothing). The bot's card is the one with the best mean over the deals, as
bridge programs do (perfect-information Monte Carlo). Max-n has no alpha-beta; what keeps it small is a
transposition table (positions reached by different orders of the same cards), equally good cards searched once
(same suit, nothing still in a hand ranking between them, both beating the trick or neither) and the last trick
played without search. The work is bounded by nodes searched, not the clock, so a seed plays the same moves
idle or loaded. Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mudwiz.games.wizard.cards import JESTER, WIZARD, round_score
from mudwiz.games.wizard.playouts import NO_LEAD, SUIT, Simulations, pick, trick_tables

Position = tuple[int, ...]  # the tricks each seat ends the round with


class OutOfWork(Exception):
    """The search reached its bound of nodes before it was done."""


class Endgame:
    """Max-n search of one round's end under one trump and one set of bids (the table is shared by the deals of
    a decision: a key holds every hand, so two deals meeting in one position agree on its value)."""

    def __init__(self, trump: str | None, bids: Sequence[int], limit: int) -> None:
        self.powers, self.worth = trick_tables(trump)
        self.trump = trump
        self.bids = tuple(bids)
        self.n = len(bids)
        self.limit = limit  # nodes this object may search, over every solve
        self.nodes = 0
        self.table: dict[tuple[object, ...], Position] = {}

    def solve(self, hands: Sequence[Sequence[str]], trick: Sequence[tuple[int, str]], leader: int,
              tricks: Sequence[int], cards: Sequence[str]) -> dict[str, Position]:
        """For each of ``cards`` (the next seat's), the tricks every seat ends with when it is played and
        everyone plays on as max-n does. Raises :class:`OutOfWork` past the bound (the table keeps what was
        solved)."""
        worth = self.worth
        ordered = tuple(tuple(sorted(h, key=worth.__getitem__, reverse=True)) for h in hands)
        lead: str | None = None
        best, winner = -1, leader
        for seat, card in trick:
            if lead is None and card != JESTER:
                lead = NO_LEAD if card == WIZARD else SUIT[card]
            p = self.powers[lead][card]
            if p > best:
                best, winner = p, seat
        seat = (leader + len(trick)) % self.n
        out: dict[str, Position] = {}
        for card in cards:
            out[card] = self._play(ordered, seat, card, len(trick), leader, tuple(tricks), lead, best, winner)
        return out

    def _play(self, hands: tuple[tuple[str, ...], ...], seat: int, card: str, played: int, leader: int,
              tricks: Position, lead: str | None, best: int, winner: int) -> Position:
        """``seat`` plays ``card``; the position that follows, solved."""
        hand = list(hands[seat])
        hand.remove(card)
        after = hands[:seat] + (tuple(hand),) + hands[seat + 1:]
        if lead is None and card != JESTER:
            lead = NO_LEAD if card == WIZARD else SUIT[card]
        p = self.powers[lead][card]
        if p > best:
            best, winner = p, seat
        played += 1
        if played < self.n:
            return self._node(after, played, leader, tricks, lead, best, winner)
        won = tricks[:winner] + (tricks[winner] + 1,) + tricks[winner + 1:]
        if not after[winner]:
            return won
        return self._node(after, 0, winner, won, None, -1, winner)

    def _node(self, hands: tuple[tuple[str, ...], ...], played: int, leader: int, tricks: Position,
              lead: str | None, best: int, winner: int) -> Position:
        n = self.n
        if played == 0 and len(hands[leader]) == 1:
            return self._last(hands, leader, tricks)
        key = (hands, leader, tricks, lead, best, winner)
        found = self.table.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfWork
        seat = (leader + played) % n
        hand = hands[seat]
        now = self.powers[lead]
        choices = self._choices(hands, seat, lead, best, now)
        if len(choices) > 1:
            first = pick(list(hand), lead, best, now, self.bids[seat] - tricks[seat], played, n)
            first = next((c for c in choices if self._alike(hands, seat, c, first, best, now)), choices[0])
            choices.remove(first)
            choices.insert(0, first)
        value: Position | None = None
        mark = -1_000_000
        bid = self.bids[seat]
        for card in choices:
            result = self._play(hands, seat, card, played, leader, tricks, lead, best, winner)
            mine = round_score(bid, result[seat])
            if mine > mark:
                value, mark = result, mine
        assert value is not None
        self.table[key] = value
        return value

    def _last(self, hands: tuple[tuple[str, ...], ...], leader: int, tricks: Position) -> Position:
        """The last trick: every card is forced."""
        lead: str | None = None
        best, winner = -1, leader
        for i in range(self.n):
            seat = (leader + i) % self.n
            card = hands[seat][0]
            if lead is None and card != JESTER:
                lead = NO_LEAD if card == WIZARD else SUIT[card]
            p = self.powers[lead][card]
            if p > best:
                best, winner = p, seat
        return tricks[:winner] + (tricks[winner] + 1,) + tricks[winner + 1:]

    def _choices(self, hands: tuple[tuple[str, ...], ...], seat: int, lead: str | None, best: int,
                 now: dict[str, int]) -> list[str]:
        """The legal cards of ``seat``, one of each run of equally good ones (a hand is strongest first)."""
        hand = hands[seat]
        if lead is not None and lead != NO_LEAD and any(SUIT[c] == lead for c in hand):
            legal = [c for c in hand if SUIT[c] in (lead, None)]
        else:
            legal = list(hand)
        kept: list[str] = []
        for card in legal:
            if not kept or not self._alike(hands, seat, kept[-1], card, best, now):
                kept.append(card)
        return kept

    def _alike(self, hands: tuple[tuple[str, ...], ...], seat: int, a: str, b: str, best: int,
               now: dict[str, int]) -> bool:
        """Whether ``a`` and ``b`` (``seat``'s) play the same from here: the same card, or the same suit with no
        card left in another hand ranking between them, and both beating the trick so far or neither."""
        if a == b:
            return True
        suit = SUIT[a]
        if suit is None or suit != SUIT[b] or (now[a] > best) != (now[b] > best):
            return False
        low, high = sorted((self.worth[a], self.worth[b]))
        worth = self.worth
        return not any(SUIT[c] == suit and low < worth[c] < high
                       for other, h in enumerate(hands) if other != seat for c in h)


Deal = tuple[list[list[str]], list[int], float]  # every seat's hand, the bids aimed at, the deal's weight


def mean_scores(sims: Simulations, sample: Callable[[], Deal], cards: Sequence[str], work: int, deals: int,
                least: int) -> tuple[dict[str, float], int] | None:
    """Each of ``cards``' (the bot's, next to play) weighted mean round score over up to ``deals`` deals from
    ``sample``, each solved by max-n, within ``work`` nodes in all; and the nodes searched. None when fewer than
    ``least`` deals were solved within the bound (the caller falls back on playouts)."""
    sums = dict.fromkeys(cards, 0.0)
    weights = 0.0
    solved = spent = 0
    search: Endgame | None = None
    for _ in range(deals):
        hands, bids, weight = sample()
        if search is None or search.bids != tuple(bids):
            spent += search.nodes if search is not None else 0
            search = Endgame(sims.trump, bids, work - spent)
        try:
            ends = search.solve(hands, sims.trick, sims.leader, sims.tricks, cards)
        except OutOfWork:
            break
        for card, end in ends.items():
            sums[card] += weight * round_score(bids[sims.me], end[sims.me])
        weights += weight
        solved += 1
    spent += search.nodes if search is not None else 0
    if solved < least:
        return None
    return {c: s / (weights or 1.0) for c, s in sums.items()}, spent
