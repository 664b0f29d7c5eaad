"""The good Wizard bot naming trump blind: under ``clairvoyance`` a player sees every card of round 1
but their own, which shows as ``?``. When a Wizard was turned, ``choose_trump`` looked ``?`` up as a card
(``KeyError: '?'``, about 4 games in 120) and the table covered with a random move.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from mudwiz.games.wizard.bots import WizardGood
from mudwiz.games.wizard.cards import HIDDEN, WIZARD
from mudwiz.games.wizard.engine import Wizard

# Seeds under which the first round's turned card is a Wizard, so the dealer names trump without seeing it.
TURNED_WIZARD = [24, 43, 48, 55, 155]


@pytest.mark.parametrize("seed", TURNED_WIZARD)
def test_the_dealer_names_trump_from_a_hidden_hand(seed: int) -> None:
    """The engine's own view of a real deal: the bot names a legal suit (it used to raise KeyError)."""
    game = Wizard(4, {"rounds": 1, "clairvoyance": True}, seed)
    assert game.turned == WIZARD and game.phase == "trump"
    seat = game.waiting()[0]
    view = game.view(seat)
    assert view["hand"] == [HIDDEN]
    choice = WizardGood("wizard", random.Random(seed)).choose(view)
    assert choice in view["legal"]
    game.apply(seat, choice)
    assert game.phase == "bidding"


def hidden_dealer(others: list[str]) -> dict[str, Any]:
    """Four players, first round under clairvoyance, a Wizard turned: we (p4) deal and name trump; p1 leads,
    and the others hold ``others`` (open to us) while our own card is ``?``."""
    players = [{"name": f"p{i}", "bid": None, "has_bid": False, "tricks": 0, "held": 1, "score": 0}
               for i in range(1, 5)]
    for p, card in zip(players, others, strict=False):
        p["cards"] = [card]
    return {
        "game": "wizard", "phase": "trump", "round": 1, "rounds": 15, "cards": 1, "dealer": "p4", "leader": "p1",
        "first_leader": "p1", "you": "p4", "hand": [HIDDEN], "trick": [], "last_trick": [],
        "trump": {"suit": None, "card": WIZARD}, "players": players,
        "legal": ["trump B", "trump G", "trump R", "trump Y"], "forbidden_bid": None,
        "options": {"clairvoyance": True}, "sheet": [],
    }


@pytest.mark.parametrize("suit", ["B", "G", "R", "Y"])
def test_it_names_the_suit_that_makes_its_unseen_card_surest_to_lose(suit: str) -> None:
    """The others hold the three highest cards of one suit. With that suit trump, only a Wizard (three left of
    56 unseen cards) wins us the trick: bid 0 makes about 18 points. Any other trump lets every card of that
    suit win too (some 16 in 56): the best bid makes about 11. So the bot names the others' suit."""
    view = hidden_dealer([f"{suit}13", f"{suit}12", f"{suit}11"])
    bot = WizardGood("wizard", random.Random(1), budget=30, max_samples=400)  # deterministic: the sample cap
    assert bot.choose(view) == f"trump {suit}"
