"""Wizard's ``easy`` and ``hard`` levels, both built on ``normal`` (:class:`mudwiz.games.wizard.bots.WizardGood`).

``easy`` plays like a casual person rather than a random one: the same simulations, far fewer of them, and
seeded, human mistakes — it overbids a strong-looking hand, leads its highest card to "get it over with", and
forgets who has shown a void. ``hard`` searches the same simulations as a race (options compared deal by deal,
the clearly worse dropped) over deals weighed by the cards the others have played, in playouts where every player
leads and lets tricks go as ``hard`` itself does (:class:`mudwiz.games.wizard.playouts.PlayModel`), bounded by the
cards its playouts play, and says what it makes of each bid and card (:meth:`WizardHard.judge_bid`,
:meth:`WizardHard.judge_card`); docs/bots.md has what it measures. Neither sees more
than its own view.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from mudwiz.games.wizard.bots import WizardGood
from mudwiz.games.wizard.cards import round_score
from mudwiz.games.wizard.play_weights import DUCK_WEIGHTS, LEAD_WEIGHTS
from mudwiz.games.wizard.playouts import (
    PlayModel,
    RoundMemory,
    Simulations,
    order,
    pick,
    playout,
    quick_estimate,
    strength,
    trick_best,
    trick_lead,
    trick_tables,
)
from mudwiz.games.wizard.racing import paired_spread, weighted_sum


class WizardEasy(WizardGood):
    """``normal`` with 40 deals a decision and three habits of a casual player, each on a seeded coin."""

    OVERBID, LEAD_HIGH, FORGET_VOIDS = 0.35, 0.3, 0.6

    def __init__(self, game: str, rng: random.Random, budget: float | None = None, max_samples: int = 40) -> None:
        super().__init__(game, rng, budget, max_samples)
        self.balance_margin = 0.0  # a casual player bids its own hand, not the table's sum

    def choose_bid(self, view: dict[str, Any]) -> str:
        """Usually ``normal``'s bid; now and then one more (a hand with a Wizard or a high trump feels big)."""
        bid = int(super().choose_bid(view).split()[1])
        if self.rng.random() < self.OVERBID and f"bid {bid + 1}" in view["legal"]:
            bid += 1
        return f"bid {bid}"

    def choose_card(self, view: dict[str, Any]) -> str:
        """Leading, now and then its strongest card (whatever its bid still needs); otherwise ``normal``'s card."""
        if not view["trick"] and self.rng.random() < self.LEAD_HIGH:
            trump = view["trump"]["suit"]
            cards = [a.split()[1] for a in view["legal"]]
            return "play " + max(cards, key=lambda c: strength(c, trump))
        return super().choose_card(view)

    def simulations(self, view: dict[str, Any], first_leader: bool) -> Simulations:
        """Most of the time it does not keep track of who showed a void: the deals ignore them."""
        if self.rng.random() < self.FORGET_VOIDS:
            return Simulations(view, _Forgetful(self.memory), first_leader)
        return super().simulations(view, first_leader)


class _Forgetful(RoundMemory):
    """The round's cards as remembered, but no voids."""

    def __init__(self, memory: RoundMemory) -> None:
        super().__init__()
        self.key, self.tricks = memory.key, memory.tricks

    def voids(self) -> dict[str, set[str]]:
        return {}


class BidJudgement(NamedTuple):
    """What ``hard`` makes of its bid: the tricks it expects (the mean over simulated deals, aiming at what its
    hand looks like), the mean round score of each bid it weighed (aiming at that bid), and the bid it makes."""

    tricks: float
    scores: dict[int, float]
    bid: int


class CardJudgement(NamedTuple):
    """What ``hard`` makes of its legal cards: each card's mean round score over the simulated deals (cards as good
    as each other share a value; a card dropped from the race early keeps the mean of the deals it was played out
    in), and the card it plays."""

    scores: dict[str, float]
    card: str


def fitted(lead_sets: frozenset[int], duck_sets: frozenset[int]) -> tuple[dict[tuple[int, bool], tuple[float, ...]],
                                                                          dict[int, tuple[float, ...]]]:
    """The lead and duck weights (mudwiz/games/wizard/play_weights.py) of the table sizes named (3, 4: four and
    more)."""
    return ({key: w for key, w in LEAD_WEIGHTS.items() if key[0] in lead_sets},
            {key: w for key, w in DUCK_WEIGHTS.items() if key in duck_sets})


class WizardHard(WizardGood):
    """``normal``'s simulations, searched as a race: every option (bid or card) is played out over the same deals,
    and an option is dropped as soon as it is behind the leader by more than its paired differences' noise, so the
    deals go to the close calls. A decision is bounded by the cards its playouts play (``work``), not the clock."""

    # A decision stops once its playouts have played this many cards (a p99 of 0.1 to 0.2 s of CPU on this project's
    # busy 2-core machine): the largest decisions (a first card of 15 with ten distinct choices) get a hundred or
    # two deals a card, the small ones up to ``max_samples``. ``normal``, unbounded, spends up to three times as much.
    WORK = 85_000
    Z = 3.0  # an option is dropped once behind by this many standard errors of the paired difference
    # A deal's weight is multiplied by this for each card another player has played this round that the playout
    # policy, holding that player's cards in the deal, would not have played (:meth:`Simulations.explained`).
    MISPLAY = 0.6
    # How every player leads and when it lets a trick go in its playouts and in its reading of the others' cards:
    # learnt from its own play (docs/bots.md, "How `hard` leads and ducks"). The lead weights of three players only:
    # with four, leading by them made no more bids on seeds fixed in advance, at half as much CPU again, so four and
    # more lead by the rule of thumb. The duck weights of three players only, the same way: with four they made no
    # more bids on tuning seeds.
    LEAD_SETS = frozenset({3})
    DUCK_SETS = frozenset({3})
    MODEL = PlayModel(*fitted(LEAD_SETS, DUCK_SETS))

    def __init__(self, game: str, rng: random.Random, budget: float | None = None, max_samples: int = 600) -> None:
        super().__init__(game, rng, budget, max_samples)
        self.work = self.WORK
        self.spent = 0  # the cards the last race's playouts played (its work)

    def choose_bid(self, view: dict[str, Any]) -> str:
        return f"bid {self.judge_bid(view).bid}"

    def simulations(self, view: dict[str, Any], first_leader: bool) -> Simulations:
        return Simulations(view, self.memory, first_leader, self.MISPLAY, self.MODEL)

    def choose_card(self, view: dict[str, Any]) -> str:
        return "play " + self.judge_card(view).card

    # ------------------------------------------------------------ the judgements (also for a coach)

    def judge_bid(self, view: dict[str, Any]) -> BidJudgement:
        """Expected tricks, each nearby bid's mean round score (aiming at it), and the bid to make. Called on its
        own (a coach's question), it also remembers what the view shows, as :meth:`choose` does."""
        self.memory.update(view)
        sims = self.simulations(view, first_leader=True)
        me, n = sims.me, sims.n
        legal = [int(a.split()[1]) for a in view["legal"] if a.startswith("bid ")]
        deadline = time.perf_counter() + self.budget
        per = n * view["cards"]
        deals: list[tuple[list[list[str]], list[int], float]] = []
        total = weights = 0.0
        first, until = max(16, self.max_samples // 4), time.perf_counter() + self.budget / 3
        while len(deals) < first and (len(deals) < 4 or time.perf_counter() < until):
            hands, bids, weight = sims.sample(self.rng)
            deals.append((order(hands, sims.trump), bids, weight))
            total += weight * playout([h[:] for h in hands], [], sims.leader, sims.trump, bids, [0] * n, None, True,
                                      sims.model)[me]
            weights += weight
        mean = total / weights if weights else quick_estimate(sims.hand, sims.trump, n)
        candidates = [b for b in legal if abs(b - mean) < 1.5] or [min(legal, key=lambda b: (abs(b - mean), b))]
        balance = self.balancing_bid(view, sims)
        keep = {balance} if balance in legal else set()
        if balance in legal and balance not in candidates and abs(balance - mean) < 2:
            candidates.append(balance)
        pending = iter(deals)

        def sample() -> tuple[list[list[str]], list[int], float]:
            if (deal := next(pending, None)) is not None:
                return deal
            hands, bids, weight = sims.sample(self.rng)
            return order(hands, sims.trump), bids, weight

        def score(deal: tuple[list[list[str]], list[int], float], bid: int) -> float:
            hands, bids, _ = deal
            aims = bids[:]
            aims[me] = bid
            return round_score(bid, playout([h[:] for h in hands], [], sims.leader, sims.trump, aims, [0] * n, None,
                                            True, sims.model)[me])

        values = self.race(candidates, sample, score, per, deadline, keep, per * len(deals))
        best = max(values, key=lambda b: (values[b], -abs(b - mean)))
        if balance in values and values[balance] >= values[best] - self.balance_margin * self.trust(view):
            best = balance
        return BidJudgement(mean, values, best)

    def judge_card(self, view: dict[str, Any]) -> CardJudgement:
        """Each legal card's mean round score over simulated deals, and the card to play (remembering the view's
        tricks first, as :meth:`choose` does: the views of a round handed in order give the whole memory)."""
        self.memory.update(view)
        sims = self.simulations(view, first_leader=False)
        legal = [a.split()[1] for a in view["legal"]]
        cards = sims.distinct(legal)
        me = sims.me
        bid = sims.bids[me]
        trick = [c for _, c in sims.trick]
        powers, worth = trick_tables(sims.trump)
        default = pick(sorted(sims.hand, key=worth.__getitem__, reverse=True), trick_lead(trick),
                       trick_best(trick, sims.trump), powers[trick_lead(trick)], bid - sims.tricks[me], len(trick),
                       sims.n, sims.model)
        default = next((c for c in cards if sims.same(c, default)), cards[0])
        if len(cards) == 1:
            return CardJudgement(dict.fromkeys(legal, 0.0), cards[0])
        per = sum(p["held"] for p in view["players"])

        def sample() -> tuple[list[list[str]], list[int], float]:
            hands, bids, weight = sims.sample(self.rng)
            return order(hands, sims.trump), bids, weight

        def score(deal: tuple[list[list[str]], list[int], float], card: str) -> float:
            hands, bids, _ = deal
            return round_score(bid, playout([h[:] for h in hands], sims.trick, sims.leader, sims.trump, bids,
                                            sims.tricks[:], card, True, sims.model)[me])

        values = self.race(cards, sample, score, per, time.perf_counter() + self.budget, set(), 0)
        top = max(values.values())
        card = default if values[default] >= top - 1e-9 else max(values, key=values.__getitem__)
        every = {c: values[next(k for k in cards if sims.same(c, k))] for c in legal}
        return CardJudgement(every, card)

    def race(self, options: list[Any], sample: Callable[[], Any], score: Callable[[Any, Any], float],
             per: int, deadline: float, keep: set[Any], work: int) -> dict[Any, float]:
        """Each option's weighted mean round score over the same deals; an option (not in ``keep``) is dropped
        once it trails the leader's by more than ``Z`` standard errors of their paired
        differences, or by ``prune`` points after ``prune_after`` deals. Stops at ``max_samples`` deals,
        ``self.work`` cards played (``work`` already spent), or one option left."""
        alive = list(options)
        rows: dict[Any, list[float]] = {o: [] for o in options}
        weights: list[float] = []
        while len(weights) < self.max_samples and work < self.work and (len(weights) < 4 or (
                len(alive) > 1 and time.perf_counter() < deadline)):
            deal = sample()
            weights.append(deal[2])
            for o in alive:
                rows[o].append(score(deal, o))
            work += per * len(alive)
            if len(weights) >= 32 and len(weights) % 8 == 0 and len(alive) > 1:
                alive = self.survivors(alive, rows, weights, keep)
        self.spent = work

        def mean(row: list[float]) -> float:
            return weighted_sum(weights, row) / (sum(weights[: len(row)]) or 1.0)

        return {o: mean(rows[o]) for o in options}

    def survivors(self, alive: list[Any], rows: dict[Any, list[float]], weights: list[float],
                  keep: set[Any]) -> list[Any]:
        total = sum(weights) or 1.0
        squares = sum(w * w for w in weights) or 1.0
        mean = {o: weighted_sum(weights, rows[o]) / total for o in alive}
        leader = max(alive, key=mean.__getitem__)
        kept = []
        for o in alive:
            gap = mean[leader] - mean[o]
            if o == leader or o in keep or gap <= 0:
                kept.append(o)
                continue
            spread = paired_spread(weights, rows[leader], rows[o], gap)
            error = max(1.0, math.sqrt(spread / total / (total * total / squares)))
            late = len(weights) >= self.prune_after and gap > self.prune
            if gap <= self.Z * error and not late:
                kept.append(o)
        return kept
