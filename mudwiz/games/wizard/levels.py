"""Wizard's ``easy`` and ``hard`` levels, both built on ``normal`` (:class:`mudwiz.games.wizard.bots.WizardGood`).

``easy`` plays like a casual person rather than a random one: the same simulations, far fewer of them, and
seeded, human mistakes — it overbids a strong-looking hand, leads its highest card to "get it over with", and
forgets who has shown a void. ``hard`` simulates more deals and keeps more cards in the race for longer; what it
gains over ``normal`` is measured in docs/bots.md. Neither sees more than its own view.
"""

from __future__ import annotations

import random
from typing import Any

from mudwiz.games.wizard.bots import WizardGood
from mudwiz.games.wizard.playouts import RoundMemory, Simulations, strength


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


class WizardHard(WizardGood):
    """``normal`` with half as many deals again (600) and a card dropped from the search only when far behind."""

    def __init__(self, game: str, rng: random.Random, budget: float | None = None, max_samples: int = 600) -> None:
        super().__init__(game, rng, budget, max_samples)
        self.prune, self.prune_after = 15.0, 48
