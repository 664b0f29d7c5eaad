"""How ``hard`` Wizard leads and lets tricks go in its playouts: the fast model chooses what its plain features score
highest, it is used where ``hard`` simulates (and nowhere else), and bench/play_model.py's fit recovers weights from
choices drawn with them."""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path

import pytest

from mudwiz.games.wizard.bots import WizardGood
from mudwiz.games.wizard.cards import DECK
from mudwiz.games.wizard.engine import Wizard
from mudwiz.games.wizard.levels import WizardHard
from mudwiz.games.wizard.play_weights import DUCK_WEIGHTS, LEAD_WEIGHTS
from mudwiz.games.wizard.playouts import (
    DUCK_FEATURES,
    LEAD_FEATURES,
    SUIT,
    PlayModel,
    duck_features,
    lead_features,
    pick,
    playout,
    trick_tables,
)

ROOT = Path(__file__).resolve().parents[2]


def bench_model():
    spec = importlib.util.spec_from_file_location("bench_play_model", ROOT / "bench" / "play_model.py")
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
    model = PlayModel(LEAD_WEIGHTS)
    for hand, now, need, _ in hands(3000, players):
        weights = model.leads[(3 if players == 3 else 4, need > 0)]
        found = lead_features(hand, now, need)
        best = max(hand, key=lambda c: sum(w * f for w, f in zip(weights, found[c], strict=True)))
        assert model.lead(hand, now, need, players) == best, (hand, need)


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


def test_only_hard_plays_by_the_model() -> None:
    """Without a model the rule of thumb leads and takes (``normal`` and ``easy`` are unchanged); ``hard`` hands its
    model to its simulations, whose playouts and reading of the others' cards then lead and let tricks go by it
    with three players (four and more: by the rule of thumb)."""
    model = PlayModel(LEAD_WEIGHTS)
    differ = 0
    for hand, now, need, _ in hands(500, 7):
        thumb, modelled = pick(hand, None, -1, now, need, 0, 4), pick(hand, None, -1, now, need, 0, 4, model)
        if 0 < need < len(hand) and hand[0] == "Z" and hand.count("Z") >= need:  # win with the Wizards only
            assert thumb == modelled == "Z"
            continue
        assert thumb == (hand[0] if need > 0 else hand[-1])
        assert modelled == model.lead(hand, now, need, 4)
        differ += modelled != thumb
    assert differ > 100  # the two are not the same rule
    changed = 0
    rng = random.Random(3)
    worth = trick_tables("B")[1]
    for players in (3, 4):
        for _ in range(50):
            cards = rng.sample(DECK.cards(), 10 * players)
            deal = [sorted(cards[i * 10:(i + 1) * 10], key=worth.__getitem__, reverse=True) for i in range(players)]
            bids = [rng.randint(0, 4) for _ in range(players)]
            plain = playout([h[:] for h in deal], [], 0, "B", bids, [0] * players, None, True)
            played = playout([h[:] for h in deal], [], 0, "B", bids, [0] * players, None, True, WizardHard.MODEL)
            assert sum(plain) == sum(played) == 10
            changed += plain != played
            assert players == 3 or plain == played
    assert changed > 10
    hard = WizardHard("wizard", random.Random(1))
    for players in (3, 4, 5):
        view = Wizard(["a", "b", "c", "d", "e"][:players], {}, 5).view(0)
        assert hard.simulations(view, first_leader=True).model is WizardHard.MODEL
        assert WizardGood("wizard", random.Random(1)).simulations(view, first_leader=True).model is None
    for hand, now, need, _ in hands(200, 8):  # four and more lead and take by the rule of thumb
        assert WizardHard.MODEL.lead(hand, now, need, 4) == (hand[0] if need > 0 else hand[-1])
    ducks = [WizardHard.MODEL.duck(h, legal, c, b, t, need, last, players) for players in (3, 4, 5)
             for _, h, legal, c, b, t, need, last in follows(200, 9)]
    assert any(ducks[:200]) and not any(ducks[200:])


def follows(count: int, seed: int):
    """Seeded follows wanting tricks where the cheapest winner could take the trick or a losing card let it go:
    (the lead suit, hand, the cards it may play, the cheapest winner, the power to beat, the power table, need,
    playing last)."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        trump = rng.choice([*DECK.suits, None])
        powers, worth = trick_tables(trump)
        cards = rng.sample(DECK.cards(), 16)
        led = cards[0]
        lead = "-" if led == "Z" else SUIT[led]
        if lead is None:
            continue
        table = powers[lead]
        best = table[led]
        hand = sorted(cards[1:rng.randint(3, 16)], key=worth.__getitem__, reverse=True)
        legal = hand if lead == "-" or not any(SUIT[c] == lead for c in hand) else [
            c for c in hand if SUIT[c] in (lead, None)]
        winners = [c for c in legal if table[c] > best]
        if not winners or table[legal[-1]] > best:
            continue
        found += 1
        yield lead, hand, legal, winners[-1], best, table, rng.randint(1, len(hand)), rng.random() < 0.5


@pytest.mark.parametrize("players", [3, 4])
def test_the_model_ducks_when_its_features_score_below_zero(players: int) -> None:
    model = PlayModel({}, DUCK_WEIGHTS)
    ducked = 0
    for lead, hand, legal, card, best, table, need, last in follows(2000, players):
        f = duck_features(hand, legal, card, best, table, need, last)
        score = sum(w * x for w, x in zip(DUCK_WEIGHTS[players], f, strict=True))
        duck = model.duck(hand, legal, card, best, table, need, last, players)
        assert duck == (score < 0)
        assert not PlayModel({}).duck(hand, legal, card, best, table, need, last, players)
        if not (need < len(hand) and legal[0] == "Z" and hand.count("Z") >= need):  # pick's own: Wizards alone
            chosen = pick(hand, lead, best, table, need, players - 1 if last else 1, players, model)
            assert table[chosen] <= best if duck else chosen == card
        ducked += duck
    assert 200 < ducked < 1800  # neither rule always


def test_the_duck_features_are_what_their_names_say() -> None:
    table = trick_tables("R")[0]["G"]
    f = duck_features(["Z", "R13", "R11", "G12", "G9", "G3", "N"], ["Z", "G12", "G9", "G3", "N"], "G12",
                      table["G10"], table, 2, True)
    named = {name: x for name, x in zip(DUCK_FEATURES, f, strict=True) if x}
    assert named == {"bias": 1.0, "rank": 5 / 6, "wants": 2 / 7, "last": 1.0, "strong_over_need": 1.5,
                     "top_of_suit": 1.0, "winners_share": 2 / 5, "hand_10": 0.7,
                     "rank_x_wants": pytest.approx(5 / 6 * 2 / 7), "last_x_wants": 2 / 7, "jester_at_hand": 1.0}


def test_a_play_model_needs_a_weight_per_feature() -> None:
    with pytest.raises(ValueError, match="16 numbers"):
        PlayModel({(4, True): (1.0, 2.0)})
    with pytest.raises(ValueError, match="duck weights need 16 numbers"):
        PlayModel({}, {3: (1.0,)})


def test_the_fit_recovers_the_weights_it_was_drawn_with() -> None:
    """Leads drawn from a known model (each card with its score's share of chance): the fitted weights put the
    same card first nearly as often as the true ones do, and the bench's agreement counts a suit as its card."""
    bench = bench_model()
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


def test_the_fit_recovers_the_duck_weights_it_was_drawn_with() -> None:
    """Choices drawn from a known model of taking the trick (its logistic chance): the fit calls them as the true
    weights do nearly always."""
    bench = bench_model()
    truth = DUCK_WEIGHTS[3]
    rng = random.Random(12)
    choices = []
    for _, hand, legal, card, best, table, need, last in follows(3000, 12):
        f = duck_features(hand, legal, card, best, table, need, last)
        score = sum(w * x for w, x in zip(truth, f, strict=True))
        choices.append((f, rng.random() < 1 / (1 + math.exp(-score))))
    fitted = bench.fit(bench.duck_rows(choices))
    same = sum((sum(w * x for w, x in zip(fitted, f, strict=True)) >= 0)
               == (sum(w * x for w, x in zip(truth, f, strict=True)) >= 0) for f, _ in choices)
    assert same / len(choices) > 0.9
    assert abs(bench.calls(choices, fitted) - bench.calls(choices, truth)) < 0.03
