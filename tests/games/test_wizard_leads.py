"""How ``hard`` Wizard leads in its playouts: the fast lead model chooses what its plain features score highest, it
is used where ``hard`` simulates (and nowhere else), and bench/leads.py's fit recovers weights from leads drawn
with them."""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path

import pytest

from mudwiz.games.wizard.bots import WizardGood
from mudwiz.games.wizard.cards import DECK
from mudwiz.games.wizard.engine import Wizard
from mudwiz.games.wizard.leads import LEAD_WEIGHTS
from mudwiz.games.wizard.levels import WizardHard
from mudwiz.games.wizard.playouts import (
    LEAD_FEATURES,
    SUIT,
    LeadModel,
    lead_features,
    pick,
    playout,
    trick_tables,
)

ROOT = Path(__file__).resolve().parents[2]


def bench_leads():
    spec = importlib.util.spec_from_file_location("bench_leads", ROOT / "bench" / "leads.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def hands(count: int, seed: int):
    """Seeded hands of 1 to 15 cards, sorted strongest first as the playouts hold them, with a trump and a need."""
    rng = random.Random(seed)
    for _ in range(count):
        trump = rng.choice([*DECK.suits, None])
        powers, worth = trick_tables(trump)
        hand = sorted(rng.sample(DECK.cards(), rng.randint(1, 15)), key=worth.__getitem__, reverse=True)
        yield hand, powers[None], rng.randint(-2, len(hand)), trump


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_model_leads_the_card_its_features_score_highest(players: int) -> None:
    model = LeadModel(LEAD_WEIGHTS)
    for hand, now, need, _ in hands(3000, players):
        weights = model.weights[(3 if players == 3 else 4, need > 0)]
        found = lead_features(hand, now, need)
        best = max(hand, key=lambda c: sum(w * f for w, f in zip(weights, found[c], strict=True)))
        assert model.choose(hand, now, need, players) == best, (hand, need)


def test_the_features_are_what_their_names_say() -> None:
    now = trick_tables("R")[0][None]
    found = lead_features(["Z", "R13", "G12", "G3", "B5", "N"], now, 3)
    named = {c: {name: x for name, x in zip(LEAD_FEATURES, f, strict=True) if x} for c, f in found.items()}
    assert named["Z"] == {"wizard": 1.0, "wizard_x_wants": 0.5}
    assert named["N"] == {"jester": 1.0, "jester_x_wants": 0.5}
    assert named["R13"] == {"trump": 1.0, "trump_rank": 1.0, "top_of_suit": 1.0,
                            "bottom_of_suit": 1.0, "alone": 1.0,
                            "suit_share": 1 / 6, "rank_x_wants": 0.5, "trump_x_wants": 0.5,
                            "alone_x_rank": 1.0, "rank_with_wizard": 1.0}
    assert named["G3"] == {"side_rank": -4 / 6, "bottom_of_suit": 1.0,
                           "suit_share": 2 / 6, "rank_x_wants": -4 / 12,
                           "rank_with_wizard": -4 / 6}
    assert named["G12"]["top_of_suit"] == 1.0 and "side_13" not in named["G12"]


def test_only_hard_leads_by_the_model() -> None:
    """Without a model the rule of thumb leads (``normal`` and ``easy`` are unchanged); ``hard`` at a table of three
    hands its model to its simulations, whose playouts and reading of the others' cards then lead by it."""
    model = LeadModel(LEAD_WEIGHTS)
    differ = 0
    for hand, now, need, _ in hands(500, 7):
        thumb, modelled = pick(hand, None, -1, now, need, 0, 4), pick(hand, None, -1, now, need, 0, 4, model)
        if 0 < need < len(hand) and hand[0] == "Z" and hand.count("Z") >= need:  # win with the Wizards only
            assert thumb == modelled == "Z"
            continue
        assert thumb == (hand[0] if need > 0 else hand[-1])
        assert modelled == model.choose(hand, now, need, 4)
        differ += modelled != thumb
    assert differ > 100  # the two are not the same rule
    changed = 0
    rng = random.Random(3)
    worth = trick_tables("B")[1]
    for _ in range(50):
        cards = rng.sample(DECK.cards(), 40)
        deal = [sorted(cards[i * 10:(i + 1) * 10], key=worth.__getitem__, reverse=True) for i in range(4)]
        bids = [rng.randint(0, 4) for _ in range(4)]
        plain = playout([h[:] for h in deal], [], 0, "B", bids, [0] * 4, None, True)
        led = playout([h[:] for h in deal], [], 0, "B", bids, [0] * 4, None, True, WizardHard.LEADS)
        assert sum(plain) == sum(led) == 10
        changed += plain != led
    assert changed > 5
    hard = WizardHard("wizard", random.Random(1))
    for players, leads in ((3, WizardHard.LEADS), (4, None), (5, None)):  # four and more: the rule of thumb
        view = Wizard(["a", "b", "c", "d", "e"][:players], {}, 5).view(0)
        assert hard.simulations(view, first_leader=True).leads is leads
        assert WizardGood("wizard", random.Random(1)).simulations(view, first_leader=True).leads is None


def test_a_lead_model_needs_a_weight_per_feature() -> None:
    with pytest.raises(ValueError, match="16 numbers"):
        LeadModel({(4, True): (1.0, 2.0)})


def test_the_fit_recovers_the_weights_it_was_drawn_with() -> None:
    """Leads drawn from a known model (each card with its score's share of chance): the fitted weights put the
    same card first nearly as often as the true ones do, and the bench's agreement counts a suit as its card."""
    bench = bench_leads()
    truth = LEAD_WEIGHTS[(4, True)]
    rng = random.Random(11)
    leads = []
    for hand, now, need, trump in hands(3000, 11):
        if len(set(hand)) < 2:
            continue
        found = lead_features(hand, now, max(need, 1))
        cards = sorted(found)
        scores = [math.exp(sum(w * f for w, f in zip(truth, found[c], strict=True))) for c in cards]
        card = rng.choices(cards, scores)[0]
        leads.append({"players": 4, "trump": trump, "hand": hand, "need": max(need, 1), "card": card})
    fitted = bench.fit(bench.rows(leads))
    same = sum(bench.ranked(lead, fitted) == bench.ranked(lead, truth) for lead in leads)
    assert same / len(leads) > 0.85
    assert bench.agreement(leads, lambda lead: lead["card"]) == 1.0
    assert abs(bench.agreement(leads, lambda lead: bench.ranked(lead, fitted))
               - bench.agreement(leads, lambda lead: bench.ranked(lead, truth))) < 0.05
    assert all(SUIT[lead["card"]] is None or lead["card"] in lead["hand"] for lead in leads)
