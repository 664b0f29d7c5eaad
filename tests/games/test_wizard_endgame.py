"""The exact search of a Wizard round's end (``mudwiz.games.wizard.endgame``) that ``hard`` plays its last cards by."""

from __future__ import annotations

import json
import random

import pytest

from mudwiz.games.wizard.cards import DECK, round_score
from mudwiz.games.wizard.endgame import Endgame, OutOfWork, mean_scores
from mudwiz.games.wizard.engine import Wizard
from mudwiz.games.wizard.playouts import RoundMemory, Simulations, order, playout


def test_the_search_makes_the_bid_the_playout_policy_overshoots() -> None:
    """Red trumps, bid 1 with R12 and R1, leading to R11 (bid 2) and R3: the policy leads R12, which draws both
    other trumps and leaves R1 to take a second trick; the search leads R1 (R11 takes it) and keeps R12 for the
    B5 that seat 1 leads next, making the bid."""
    hands = order([["R12", "R1"], ["R11", "B5"], ["R3", "Y4"]], "R")
    bids = [1, 2, 1]
    assert playout([h[:] for h in hands], [], 0, "R", bids, [0, 0, 0], None, True) == [2, 0, 0]
    ends = Endgame("R", bids, 1_000).solve(hands, [], 0, [0, 0, 0], ["R12", "R1"])
    assert ends == {"R12": (2, 0, 0), "R1": (1, 1, 0)}
    assert playout([h[:] for h in hands], [], 0, "R", bids, [0, 0, 0], "R1", True) == [1, 1, 0]


def test_every_seat_plays_for_its_own_score() -> None:
    """Last to a trick of G10 and G5, bid 0 with G12 and G3: ducking with G3 is what max-n plays for that seat,
    and a trick half played counts (the seat that led G10 takes it)."""
    search = Endgame(None, [1, 0, 0], 1_000)
    ends = search.solve([["B1"], ["Y1"], ["G12", "G3"]], [(0, "G10"), (1, "G5")], 0, [0, 0, 0], ["G12", "G3"])
    assert ends["G3"][2] == 0 and ends["G12"][2] >= 1
    assert round_score(0, ends["G3"][2]) > round_score(0, ends["G12"][2])


def four_cards_each(seed: int) -> tuple[list[list[str]], list[int]]:
    rng = random.Random(seed)
    deck = DECK.cards()
    rng.shuffle(deck)
    return order([deck[i * 4:(i + 1) * 4] for i in range(4)], "B"), [1, 1, 1, 0]


def test_the_search_stops_at_its_bound_of_nodes() -> None:
    """Four hands of four cards take thousands of positions: with a bound of 100 the search gives up after 100,
    and unbounded it goes on past them."""
    hands, bids = four_cards_each(4)
    bounded = Endgame("B", bids, 100)
    with pytest.raises(OutOfWork):
        bounded.solve(hands, [], 0, [0] * 4, hands[0])
    assert bounded.nodes == 101
    free = Endgame("B", bids, 10**9)
    free.solve(hands, [], 0, [0] * 4, hands[0])
    assert free.nodes > 100


def late_view() -> dict[str, object]:
    """Seat 0's view of game 8's third round when three cards are left in each hand, seat 0 to play."""
    game = Wizard(4, {}, 8)
    while not (game.phase == "playing" and game.legal_actions(0) and len(game.hands[0]) == 3 and
               len(game.hands[3]) == 3 and len(game.legal_actions(0)) > 1):
        if game.phase == "roundend":
            game.advance()
            continue
        seat = next(s for s in range(4) if game.legal_actions(s))
        game.apply(seat, sorted(game.legal_actions(seat))[0])
    return json.loads(json.dumps(game.view(0)))


def test_the_mean_over_deals_is_bounded_by_nodes_not_deals() -> None:
    """Over deals of a real view: a bound of 2,000 nodes stops the deals early (fewer solved than asked for, so with
    a floor of 50 solved deals it gives up and the bot races playouts instead); unbounded, all 50 are solved."""
    view = late_view()
    sims = Simulations(view, RoundMemory(), first_leader=False)
    cards = sims.distinct([a.split()[1] for a in view["legal"]])  # type: ignore[union-attr]
    rng = random.Random(2)

    def sample() -> tuple[list[list[str]], list[int], float]:
        hands, bids, weight = sims.sample(rng)
        return order(hands, sims.trump), bids, weight

    assert mean_scores(sims, sample, cards, 2_000, 50, 50) is None
    bounded = mean_scores(sims, sample, cards, 2_000, 50, 1)
    assert bounded is not None and bounded[1] <= 2_001 and set(bounded[0]) == set(cards)
    free = mean_scores(sims, sample, cards, 10**9, 50, 50)
    assert free is not None and free[1] > 2_001
