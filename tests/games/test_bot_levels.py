"""The levels people choose (``easy``, ``normal``, ``hard``): legal play in every game, ``easy``'s mistakes are
a person's (seeded, not random moves), and ``hard`` decides from its view alone."""

from __future__ import annotations

import copy
import gc
import json
import random
from typing import Any

import pytest
from test_bots import drive, one_card_view

from mudwiz.bots import make_policy
from mudwiz.games import game_class
from mudwiz.games.base import Game
from mudwiz.games.wizard.engine import Wizard
from mudwiz.games.wizard.levels import WizardEasy, WizardHard
from mudwiz.games.wizard.playouts import SUIT, RoundMemory, Simulations, strength


class Heads(random.Random):
    """Every seeded coin comes up: each of ``easy``'s habits happens."""

    def random(self) -> float:
        return 0.0


def fast(level: str, game: str, seed: int) -> Any:
    policy = make_policy(level, game, random.Random(seed))
    if game == "wizard":  # legality does not depend on how long a Wizard bot thinks
        policy.budget, policy.max_samples = 0.002, 6
    return policy


@pytest.mark.parametrize("game", ["wizard", "witches", "tiltowait"])
@pytest.mark.parametrize("level", ["easy", "hard"])
def test_each_level_plays_only_legal_actions(game: str, level: str) -> None:
    options = {"rounds": 4} if game == "wizard" else {"hands": 2}
    for players, seed in [(3, 1), (5, 2)]:
        policies = [fast(level if s % 2 == 0 else "normal", game, s) for s in range(players)]
        assert type(policies[0]).__name__ != "RandomBot"
        assert drive(game_class(game)(players, options, seed), policies) > 0


def test_easy_wizard_overbids_and_leads_its_highest_card() -> None:
    easy = WizardEasy("wizard", Heads(1))
    assert easy.choose(one_card_view("G2")) == "bid 1"  # normal bids 0 on a lone low card
    view = {**one_card_view("G2"), "phase": "playing", "hand": ["G2", "Z", "B5"], "cards": 3,
            "legal": ["play G2", "play Z", "play B5"]}
    for p in view["players"]:
        p.update(held=3, bid=1, has_bid=True)
    assert easy.choose(view) == "play Z"


def test_easy_witches_and_tiltowait_make_a_persons_mistakes() -> None:
    witches = make_policy("easy", "witches", Heads(1))
    hand = ["G12", "R11", "B14", "Y13", "Y2", "B3"]  # pygmy queen and fire witch, two high plain cards
    assert witches.choose_pass(hand, 2) == "pass B14 Y13"  # the high cards, keeping the dangerous witches
    tiltowait = make_policy("easy", "tiltowait", Heads(1))
    view = {"legal": ["karuki"], "you": "p1", "waiting": []}
    assert tiltowait.choose(view) is None  # forgot to call


def reachable(root: object, limit: int = 200_000) -> list[object]:
    """Every object reachable from ``root`` (as the garbage collector sees references)."""
    seen, found, todo = set(), [], [root]
    while todo and len(seen) < limit:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        found.append(obj)
        if not isinstance(obj, type):  # classes lead to their modules and everything else loaded
            todo.extend(gc.get_referents(obj))
    return found


def dealt_otherwise(game: Any, salt: int, stock: bool = False) -> None:
    """Deal the cards of seats 1 to 3 (and the stock, where ``stock`` and none of it is shown, as at Tiltowait) again
    among them, each keeping its size: seat 0 sees the same game."""
    hidden = [c for s in (1, 2, 3) for c in game.hands[s]] + (list(game.stock) if stock else [])
    random.Random(salt).shuffle(hidden)
    for s in (1, 2, 3):
        game.hands[s], hidden = hidden[: len(game.hands[s])], hidden[len(game.hands[s]):]
    if stock:
        game.stock = hidden


def test_hard_wizard_decides_from_its_view_alone() -> None:
    """At each of its decisions, a copy of the game whose other hands are dealt otherwise (the same sizes, so seat 0
    sees the same): ``hard``, in the same state, decides the same in both; and nothing it holds leads to an engine."""
    game = Wizard(4, {}, 21)
    bot = WizardHard("wizard", random.Random(5), max_samples=40)
    decisions = 0
    steps: list[tuple[int, str] | None] = []  # what was done, to play again on a twin (a compiled game has no deepcopy)

    def step(on: Wizard, done: tuple[int, str] | None) -> None:
        if done is None:
            on.advance()
        else:
            on.apply(*done)

    while len(game.sheet) < 4:
        if game.phase == "roundend":
            steps.append(None)
            step(game, None)
            continue
        seat = next(s for s in range(4) if game.legal_actions(s))
        if seat != 0:
            steps.append((seat, sorted(game.legal_actions(seat))[0]))
            step(game, steps[-1])
            continue
        other = Wizard(4, {}, 21)
        for done in steps:
            step(other, done)
        dealt_otherwise(other, decisions)
        view = json.loads(json.dumps(game.view(0)))  # plain data, as the worker process receives it
        assert view == json.loads(json.dumps(other.view(0)))
        twin = copy.deepcopy(bot)
        action = bot.choose(view)
        assert twin.choose(json.loads(json.dumps(other.view(0)))) == action and action in view["legal"]
        steps.append((0, action))
        step(game, steps[-1])
        decisions += 1
    assert decisions > 6
    assert not any(isinstance(obj, Game) for obj in reachable(bot))


def test_the_hard_witches_playouts_give_each_trick_to_whom_the_rules_do() -> None:
    from mudwiz.games.witches.cards import DECK as WITCHES_DECK
    from mudwiz.games.witches.cards import trick_winner
    from mudwiz.games.witches.search import _played

    rng = random.Random(3)
    cards = list(WITCHES_DECK.cards())
    for _ in range(3000):
        trick = rng.sample(cards, rng.randint(1, 6))
        colour, best, winner = None, -1, 0
        for seat, card in enumerate(trick):
            colour, best, winner = _played(card, seat, colour, best, winner)
        assert winner == trick_winner(trick), trick


def test_hard_wizard_judges_its_bids_and_cards() -> None:
    """The judgements behind ``hard``'s moves (a coach reads them): a lone Wizard is worth a bid of 1, expected to
    take its trick; bidding 0 and last to a trick led G10, ducking with G3 scores better than winning with G12;
    every legal card gets a value."""
    bot = WizardHard("wizard", random.Random(3), max_samples=200)
    bid = bot.judge_bid(one_card_view("Z"))
    assert bid.bid == 1 and bid.tricks > 0.95 and bid.scores[1] > bid.scores[0]
    assert bot.choose(one_card_view("Z")) == "bid 1"
    view = {**one_card_view("Z"), "phase": "playing", "hand": ["G12", "G3"], "cards": 2, "leader": "p2",
            "trick": [{"player": "p2", "card": "G10"}, {"player": "p3", "card": "G5"}, {"player": "p4", "card": "R4"}],
            "legal": ["play G12", "play G3"]}
    for p, held in zip(view["players"], (2, 1, 1, 1), strict=True):
        p.update(held=held, bid=0, has_bid=True)
    card = bot.judge_card(view)
    assert card.card == "G3" and set(card.scores) == {"G12", "G3"} and card.scores["G3"] > card.scores["G12"] + 20

def test_hard_wizard_weighs_its_deals_by_the_cards_the_others_played() -> None:
    """A player who bid 0 leads the stronger of two cards of different suits: a deal that leaves it the weaker card
    is one the playout policy (which leads its weakest card) explains worse, so it weighs ``misplay`` times less
    than a deal in which what it led was its weakest; ``normal``'s deals are not weighed so."""
    for seed in range(100):
        game = Wizard(4, {}, seed)
        while game.round < 2 or game.phase == "roundend":
            if game.phase == "roundend":
                game.advance()
                continue
            seat = next(s for s in range(4) if game.legal_actions(s))
            game.apply(seat, sorted(game.legal_actions(seat))[0])
        if game.phase == "trump":
            game.apply(game.dealer, sorted(game.legal_actions(game.dealer))[0])
        for turn in range(4):
            game.apply((game.leader + turn) % 4, "bid 0")
        hand = game.hands[game.leader]
        if SUIT[hand[0]] is None or SUIT[hand[1]] is None or SUIT[hand[0]] == SUIT[hand[1]]:
            continue
        led, kept = sorted(hand, key=lambda c: strength(c, game.trump), reverse=True)
        if strength(led, game.trump) == strength(kept, game.trump):
            continue
        leader = game.leader
        game.apply(leader, f"play {led}")
        view = json.loads(json.dumps(game.view((leader + 1) % 4)))
        memory = RoundMemory()
        memory.update(view)
        sims = Simulations(view, memory, first_leader=False, misplay=0.6)
        assert Simulations(view, memory, first_leader=False).observed == []
        hands = [list(h) for h in game.hands]
        assert hands[leader] == [kept]
        assert sims.explained(hands) == pytest.approx(0.6)
        hands[leader] = [max(sims.pool, key=lambda c: strength(c, game.trump))]
        assert sims.explained(hands) == 1.0
        return
    pytest.fail("no seed dealt a round-two leader two cards of different suits")


def test_hard_wizard_decisions_are_bounded_by_the_cards_its_playouts_play() -> None:
    """A first card of fifteen: the race stops at ``work`` cards played, far short of ``max_samples`` deals for
    every card, so the largest decisions stay within their time whatever the clock says."""
    game = Wizard(4, {}, 8)
    while game.phase != "playing" or len(game.hands[0]) < 15:
        if game.phase == "roundend":
            game.advance()
            continue
        seat = next(s for s in range(4) if game.legal_actions(s))
        game.apply(seat, sorted(game.legal_actions(seat))[0])
    seat = next(s for s in range(4) if game.legal_actions(s))
    bot = WizardHard("wizard", random.Random(1))
    bot.work = 6_000
    view = json.loads(json.dumps(game.view(seat)))
    assert len(bot.judge_card(view).scores) > 3  # a real choice, so the race runs
    assert 6_000 <= bot.spent <= 6_000 + 60 * 15  # the last deal's playouts may overshoot by one deal's cards
    bot.work = 10**9
    bot.judge_card(view)
    assert bot.spent > 6_000 + 60 * 15  # without the bound it went on



def test_hard_tiltowait_holds_its_big_attacks_and_its_cancels() -> None:
    """Until another player is down to one card, ``hard`` sheds a 1 rather than a MAHALITO or a cancel it keeps for
    an attack; then the MAHALITO comes out at the player next to go out."""
    hard = make_policy("hard", "tiltowait", random.Random(1))
    hand = ["R1", "MAHALITO", "MONTINO", "K5", "G7"]
    legal = ["play R1", *(f"play MAHALITO {c}" for c in "KRGB"), "play MONTINO", "draw"]
    players = [{"name": "p0", "held": 5}, {"name": "p1", "held": 2}, {"name": "p2", "held": 6},
               {"name": "p3", "held": 6}]
    view = {"legal": legal, "you": "p0", "waiting": ["p0"], "hand": hand, "players": players, "direction": "cw",
            "answer": None, "top": "R3", "colour": "R"}
    assert hard.choose(view) == "play R1"
    players[1]["held"] = 1
    assert hard.choose(view).startswith("play MAHALITO ")


@pytest.mark.parametrize("game", ["witches", "tiltowait"])
def test_hard_witches_and_tiltowait_decide_from_their_view_alone(game: str) -> None:
    """As for Wizard: at each of seat 0's decisions, a twin of the game whose other hands (and Tiltowait's stock)
    are dealt otherwise gives seat 0 the same view, and ``hard`` decides the same in both; it holds no engine."""
    options = {"hands": 1}
    game_type = game_class(game)
    played = game_type(4, options, 8)
    policies = [make_policy("hard", game, random.Random(5))] + [
        make_policy("normal", game, random.Random(s)) for s in (1, 2, 3)]
    steps: list[tuple[int, str]] = []
    decisions = 0

    def twin_view() -> dict[str, Any]:
        twin = game_type(4, options, 8)
        for done in steps:
            twin.apply(*done)
        dealt_otherwise(twin, decisions, stock=game == "tiltowait")
        assert [sorted(h) for h in twin.hands[1:]] != [sorted(h) for h in played.hands[1:]]
        return json.loads(json.dumps(twin.view(0)))

    while not played.finished and played.phase != "roundend":
        for seat, policy in enumerate(policies):
            view = json.loads(json.dumps(played.view(seat)))  # plain data, as the worker process receives it
            if not view["legal"]:
                continue
            if seat == 0:
                other = twin_view()
                assert other == view
                copy_of = copy.deepcopy(policy)
                action = policy.choose(view)
                assert copy_of.choose(other) == action
                decisions += action is not None
            else:
                action = policy.choose(view)
            if action is not None:
                steps.append((seat, action))
                played.apply(seat, action)  # the engine refuses an illegal move
                break
        else:
            raise AssertionError("nobody moved")
    assert decisions > 5
    assert not any(isinstance(obj, Game) for obj in reachable(policies[0]))
