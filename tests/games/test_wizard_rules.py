"""Worked examples, one per rule of ``shared/rules/wizard.md``, on exact positions.

Each test builds a game, then overwrites its round state (hands, trump, dealer, leader, bids, phase) so that
the rule under test is the only thing that decides the outcome; the expected winner, legal moves, scores and
messages are written out by hand from the rules page, never computed by the engine's own helpers.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from mudwiz.errors import BadOption, IllegalAction, NotYourTurn
from mudwiz.games.base import Event, Phase, standings
from mudwiz.games.wizard.cards import round_score
from mudwiz.games.wizard.engine import Wizard
from mudwiz.games.wizard.phases import BIDDING

DECK = [f"{s}{r}" for s in "BGRY" for r in range(1, 14)] + ["Z"] * 4 + ["N"] * 4


# ---------------------------------------------------------------- setting up positions


def position(
    hands: Sequence[Sequence[str]],
    *,
    trump: str | None = "R",
    turned: str | None = None,
    leader: int = 0,
    bids: Sequence[int] | None = None,
    options: dict[str, Any] | None = None,
) -> Wizard:
    """A game whose current round deals ``hands`` (``len(hands[0])`` cards each); the dealer sits right of
    ``leader``. With ``bids`` the round is in play, else in bidding. The stock is the rest of the deck, with
    ``turned`` (default: a card of the trump suit) on top, so the 60 cards stay whole."""
    n, size = len(hands), len(hands[0])
    assert all(len(h) == size for h in hands)
    game = Wizard(n, options or {}, seed=0)
    rest = Counter(DECK) - Counter(c for h in hands for c in h)
    assert sum(rest.values()) == 60 - n * size, "a card was dealt twice"
    if turned is None:
        turned = next(c for c in sorted(rest.elements()) if trump and c[0] == trump and c not in ("Z", "N"))
    stock = sorted((rest - Counter([turned])).elements())
    game.round = size
    game.hands = [sorted(h) for h in hands]
    game.stock = [turned, *stock]
    game.turned, game.trump = turned, trump
    game.dealer = (leader - 1) % n
    game.leader = game.first_leader = leader
    game.bids = list(bids) if bids is not None else [None] * n
    game.tricks = [0] * n
    game.trick, game.last_trick = [], []
    game._phase = Phase.PLAYING if bids is not None else BIDDING
    return game


def play(game: Wizard, *cards: str) -> list[Event]:
    """Play ``cards`` in turn order, starting with whoever is on turn; returns every event."""
    events: list[Event] = []
    for card in cards:
        events += game.apply(game.waiting()[0], f"play {card}")
    return events


def legal(game: Wizard, seat: int) -> set[str]:
    return {str(a) for a in game.legal_actions(seat)}


def of_type(events: Sequence[Event], kind: str) -> list[Any]:
    return [e for e in events if e.type == kind]


def find_seed(n: int, options: dict[str, Any], turned: str) -> Wizard:
    """The first seeded game whose first turned card is ``turned`` (a few dozen seeds at most)."""
    for seed in range(1000):
        game = Wizard(n, options, seed)
        if game.turned == turned:
            return game
    raise AssertionError(f"no seed turns {turned}")


def to_bidding(game: Wizard) -> None:
    if game.phase == "trump":
        game.apply(game.dealer, "trump B")


def play_randomly(game: Wizard, rng: random.Random, until: Any = None) -> list[Event]:
    """Random legal moves until the game ends (or ``until(game)`` holds); the table's /ok is ``advance``."""
    events = list(game.start_events)
    while not game.finished and not (until and until(game)):
        if game.phase == "roundend":
            events += game.advance()
        else:
            seat = rng.choice(game.waiting())
            events += game.apply(seat, rng.choice(game.legal_actions(seat)))
    return events


# ---------------------------------------------------------------- tricks


def test_wizard_led_no_lead_suit_leader_wins() -> None:
    """P1 leads a Wizard: nothing is to be followed. P2 may play red though holding blue; after P2's blue 9,
    P3 may still play green 7 (it would be a revoke had blue been led); P1 wins against the highest trump
    and a second Wizard."""
    game = position([["Z", "B2"], ["R13", "B9"], ["B3", "G7"], ["Z", "R1"]], trump="R", bids=[1, 1, 0, 0])
    play(game, "Z")
    assert game.view(1)["lead"] is None
    assert legal(game, 1) == {"play R13", "play B9"}
    play(game, "B9")
    assert game.view(2)["lead"] is None
    assert legal(game, 2) == {"play B3", "play G7"}
    events = play(game, "G7", "Z")
    (trick,) = of_type(events, "trick")
    assert trick.winner == "P1"
    assert game.waiting() == [0] and game.tricks == [1, 0, 0, 0]
    game = position([["Z"], ["R13"], ["Z"]], trump="R", bids=[1, 0, 0])
    (trick,) = of_type(play(game, "Z", "R13", "Z"), "trick")
    assert trick.winner == "P1"


def test_jester_led_then_suit_card_sets_the_suit() -> None:
    """P1 leads a Jester: no suit yet. P2's blue 5 makes blue the suit: P3 must follow with blue 3 (not green
    13); P4 has no blue and may play anything. The Jester never wins: blue 5 takes it (no trump played)."""
    game = position([["N", "R2"], ["B5", "G9"], ["B3", "G13"], ["G2", "Y1"]], trump="R", bids=[0, 1, 0, 1])
    play(game, "N")
    assert game.view(1)["lead"] is None and legal(game, 1) == {"play B5", "play G9"}
    play(game, "B5")
    assert game.view(2)["lead"] == "B"
    assert legal(game, 2) == {"play B3"}
    with pytest.raises(IllegalAction, match="must follow blue"):
        game.apply(2, "play G13")
    play(game, "B3")
    assert legal(game, 3) == {"play G2", "play Y1"}
    (trick,) = of_type(play(game, "G2"), "trick")
    assert trick.winner == "P2"


def test_jester_loses_even_to_an_off_suit_low_card() -> None:
    """Jester, then blue 1 (the suit), green 13, green 12: the lowest card of the led suit beats the Jester and
    the higher off-suit cards (trump is yellow, not played)."""
    game = position([["N"], ["B1"], ["G13"], ["G12"]], trump="Y", bids=[0, 0, 0, 0])
    (trick,) = of_type(play(game, "N", "B1", "G13", "G12"), "trick")
    assert trick.winner == "P2"


def test_wizard_after_suit_card_keeps_obligation() -> None:
    """Blue 5 led, then a Wizard: later players must still follow blue (P3 cannot play red 13), and the Wizard
    wins. A Wizard or Jester may be played at any time, even by a player who could follow."""
    game = position([["B5", "G3"], ["Z", "B2"], ["B9", "R13"], ["N", "B1"]], trump="G", bids=[0, 1, 0, 0])
    play(game, "B5")
    assert legal(game, 1) == {"play Z", "play B2"}
    play(game, "Z")
    assert game.view(2)["lead"] == "B"
    assert legal(game, 2) == {"play B9"}
    with pytest.raises(IllegalAction, match="must follow blue"):
        game.apply(2, "play R13")
    play(game, "B9")
    assert legal(game, 3) == {"play N", "play B1"}
    (trick,) = of_type(play(game, "B1"), "trick")
    assert trick.winner == "P2"


def test_trump_beats_lead_suit_and_is_never_compulsory() -> None:
    """Blue led; P2 has no blue and may discard green instead of trumping; P3's lowest trump beats blue 13."""
    game = position([["B13"], ["G4"], ["R1"]], trump="R", bids=[1, 0, 0])
    play(game, "B13")
    assert legal(game, 1) == {"play G4"}
    (trick,) = of_type(play(game, "G4", "R1"), "trick")
    assert trick.winner == "P3"


@pytest.mark.parametrize("n", [3, 4])
def test_all_jesters_first_wins(n: int) -> None:
    """Every card a Jester (only possible with 3 or 4 players): the first one played wins, here P2's lead."""
    game = position([["N"]] * n, trump="Y", leader=1, bids=[0] * n)
    (trick,) = of_type(play(game, *["N"] * n), "trick")
    assert trick.winner == "P2" and [c["player"] for c in trick.cards][0] == "P2"


def test_jesters_then_a_wizard() -> None:
    """Two Jesters, then a Wizard: the Wizard (the first one) wins, not the first Jester."""
    game = position([["N"], ["N"], ["Z"], ["Z"]], trump="B", bids=[0, 0, 1, 0])
    (trick,) = of_type(play(game, "N", "N", "Z", "Z"), "trick")
    assert trick.winner == "P3"


# ---------------------------------------------------------------- trump


def test_trump_chosen_by_dealer_after_turned_wizard() -> None:
    """A turned Wizard: bidding waits for the dealer, who sees their hand, then names one of four suits."""
    game = find_seed(4, {}, "Z")
    dealer, first = game.dealer, (game.dealer + 1) % 4
    (turned,) = of_type(game.start_events, "trump_turned")
    assert (turned.card, turned.suit, turned.chooser) == ("Z", None, game.players[dealer])
    assert game.phase == "trump" and game.waiting() == [dealer]
    assert legal(game, dealer) == {"trump B", "trump G", "trump R", "trump Y"}
    assert len(game.view(dealer)["hand"]) == 1
    with pytest.raises(NotYourTurn, match=f"waiting for {game.players[dealer]}"):
        game.apply(first, "bid 0")
    with pytest.raises(NotYourTurn):
        game.apply(first, "trump B")
    with pytest.raises(IllegalAction, match="time to /trump"):
        game.apply(dealer, "bid 0")
    for no_trump in ("trump N", "trump none", "trump Z"):
        with pytest.raises(IllegalAction, match="not a suit"):
            game.apply(dealer, no_trump)
    assert game.phase == "trump" and game.log == []
    events = game.apply(dealer, "trump green")
    assert [e.to_dict() for e in events] == [{"type": "trump_chosen", "player": game.players[dealer], "suit": "G"}]
    assert game.phase == "bidding" and game.waiting() == [first]
    assert game.view(first)["trump"] == {"suit": "G", "card": "Z"}


def test_turned_jester_means_no_trump() -> None:
    """A turned Jester: no trump, bidding starts at once; then the lead suit's highest card wins."""
    game = find_seed(4, {}, "N")
    (turned,) = of_type(game.start_events, "trump_turned")
    assert (turned.card, turned.suit, turned.chooser) == ("N", None, None)
    assert game.phase == "bidding" and game.trump is None
    game = position([["G2"], ["R13"], ["Y13"], ["G3"]], trump=None, turned="N", bids=[0, 0, 0, 1])
    (trick,) = of_type(play(game, "G2", "R13", "Y13", "G3"), "trick")
    assert trick.winner == "P4"


def test_turned_suit_card_is_trump() -> None:
    game = find_seed(3, {}, "Y7")
    assert game.trump == "Y" and game.view(0)["trump"] == {"suit": "Y", "card": "Y7"}


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_last_round_has_no_trump(n: int) -> None:
    """The last round deals all 60 cards: no stock, nothing turned, no trump, no trump choice."""
    game = Wizard(n, {}, seed=n)
    events = play_randomly(game, random.Random(n), until=lambda g: g.round == 60 // n)
    assert game.phase == "bidding" and game.stock == [] and game.trump is None
    assert events[-1].to_dict() == {"type": "trump_turned", "card": None, "suit": None, "chooser": None}
    assert game.view(0)["trump"] == {"suit": None, "card": None}
    assert sorted(c for h in game.hands for c in h) == sorted(DECK)


# ---------------------------------------------------------------- bidding


def test_bids_go_clockwise_from_left_of_dealer_and_range_is_checked() -> None:
    game = position([["B1", "B2"], ["B3", "B4"], ["B5", "B6"], ["B7", "B8"]], leader=2)
    assert game.dealer == 1 and game.waiting() == [2]
    assert legal(game, 2) == {"bid 0", "bid 1", "bid 2"}
    with pytest.raises(IllegalAction, match="bid 0 to 2 this round, not 3"):
        game.apply(2, "bid 3")
    with pytest.raises(NotYourTurn, match="waiting for P3"):
        game.apply(1, "bid 0")
    for seat in (2, 3, 0, 1):
        game.apply(seat, "bid 1")
    assert game.phase == "playing" and game.waiting() == [2]


def test_notequal_forbids_exactly_one_bid_of_the_dealer() -> None:
    """3 cards; P1, P2, P3 bid 1, 0, 1 (sum 2): the dealer P4 may bid 0, 2 or 3 but not 1 (sum 3 = cards)."""
    game = position([["B1", "B2", "B3"], ["B4", "B5", "B6"], ["B7", "B8", "B9"], ["G1", "G2", "G3"]],
                    options={"notequal": True})
    for seat, bid in ((0, 1), (1, 0), (2, 1)):
        assert legal(game, seat) == {"bid 0", "bid 1", "bid 2", "bid 3"}  # only the dealer is restricted
        assert game.view(seat)["forbidden_bid"] is None
        game.apply(seat, f"bid {bid}")
    assert legal(game, 3) == {"bid 0", "bid 2", "bid 3"}
    assert game.view(3)["forbidden_bid"] == 1
    with pytest.raises(IllegalAction, match="notequal: you may not bid 1.*add up to the 3 cards"):
        game.apply(3, "bid 1")
    game.apply(3, "bid 2")
    assert game.phase == "playing"


@pytest.mark.parametrize(("others", "forbidden"), [((3, 2, 0), None), ((1, 1, 1), 0), ((0, 0, 0), 3)])
def test_notequal_at_the_edges(others: tuple[int, int, int], forbidden: int | None) -> None:
    """Bids summing over the cards forbid nothing; a sum of exactly 3 forbids 0; a sum of 0 forbids 3."""
    game = position([["B1", "B2", "B3"], ["B4", "B5", "B6"], ["B7", "B8", "B9"], ["G1", "G2", "G3"]],
                    options={"notequal": True})
    for seat, bid in enumerate(others):
        game.apply(seat, f"bid {bid}")
    assert legal(game, 3) == {f"bid {b}" for b in range(4) if b != forbidden}
    assert game.view(3)["forbidden_bid"] == forbidden


def test_hiddentip_bids_visible_to_maker_until_all_are_in() -> None:
    """Everyone bids at once, in any order (the dealer may go first); each sees only their own bid until the
    last one is in, then all are revealed together; the player left of the dealer still leads."""
    game = position([["B1"], ["B2"], ["B3"], ["B4"]], leader=1, options={"hiddentip": True})
    assert sorted(game.waiting()) == [0, 1, 2, 3]
    order, bids = [0, 3, 2, 1], {0: 1, 3: 0, 2: 1, 1: 0}
    for k, seat in enumerate(order):
        events = game.apply(seat, f"bid {bids[seat]}")
        made = events[0]
        assert made.visible_to(game.players[seat]).bid == bids[seat]
        assert all(made.visible_to(p).bid is None for p in [*game.players, None] if p != game.players[seat])
        if k < 3:
            assert len(events) == 1 and game.phase == "bidding"
            with pytest.raises(NotYourTurn):  # one bid each
                game.apply(seat, "bid 0")
            for viewer in [*range(4), None]:
                players = game.view(viewer)["players"]
                done = order[: k + 1]
                assert [p["bid"] for p in players] == [bids[s] if s == viewer and s in done else None for s in range(4)]
                assert [p["has_bid"] for p in players] == [s in done for s in range(4)]
    assert [e.type for e in events] == ["bid_made", "bids_revealed"]
    assert events[1].to_dict()["bids"] == {"P1": 1, "P2": 0, "P3": 1, "P4": 0}
    assert events[1].visible_to("P1") == events[1]
    view = game.view(2)
    assert [p["bid"] for p in view["players"]] == [1, 0, 1, 0]
    assert game.phase == "playing" and game.waiting() == [1]
    assert view["leader"] == view["first_leader"] == "P2" and view["turn"] == "P2"


def test_secretbid_never_revealed_until_scored() -> None:
    """Secret bids stay hidden through the whole round (no reveal event); the round's result shows them."""
    game = position([["B1"], ["B2"], ["B13"]], options={"secretbid": True})
    events: list[Event] = []
    for seat, bid in ((1, 0), (0, 0), (2, 1)):
        events += game.apply(seat, f"bid {bid}")
    assert game.phase == "playing" and of_type(events, "bids_revealed") == []
    for viewer in [0, 1, 2, None]:
        assert [p["bid"] for p in game.view(viewer)["players"]] == [{0: 0, 1: 0, 2: 1}.get(s) if s == viewer
                                                                    else None for s in range(3)]
        assert all(p["projected"] is None for i, p in enumerate(game.view(viewer)["players"]) if i != viewer)
    events = play(game, "B1", "B2")
    for viewer in [0, 1, None]:
        assert game.view(viewer)["players"][2]["bid"] is None
    events = play(game, "B13")
    (end,) = of_type(events, "round_end")
    assert {r["player"]: r["bid"] for r in end.results} == {"P1": 0, "P2": 0, "P3": 1}
    assert game.phase == "roundend"
    assert [p["bid"] for p in game.view(None)["players"]] == [0, 0, 1]
    game.advance()
    assert [p["bid"] for p in game.view(0)["players"]] == [None, None, None]


# ---------------------------------------------------------------- clairvoyance


def test_clairvoyance_round_one_then_normal() -> None:
    """Round 1: everyone sees the others' cards but not their own (shown as "?", played as "play ?"); the
    card is revealed as it is played. Round 2 is an ordinary round."""
    game = Wizard(4, {"clairvoyance": True}, seed=7)
    to_bidding(game)
    hands = [h[:] for h in game.hands]
    for seat in range(4):
        view = game.view(seat)
        assert view["hand"] == ["?"]
        assert "cards" not in view["players"][seat]
        assert [p.get("cards") for i, p in enumerate(view["players"]) if i != seat] == [
            hands[i] for i in range(4) if i != seat
        ]
    assert all("cards" not in p for p in game.view(None)["players"])
    for seat in game.bid_order():
        game.apply(seat, "bid 0")
    first = game.waiting()[0]
    assert game.view(first)["legal"] == ["play ?"]
    with pytest.raises(IllegalAction, match="clairvoyance.*play \\?"):
        game.apply(first, f"play {hands[first][0]}")
    (played,) = game.apply(first, "play ?")
    assert played.to_dict() == {"type": "card_played", "player": game.players[first], "card": hands[first][0]}
    while game.phase == "playing":
        game.apply(game.waiting()[0], "play ?")
    game.advance()
    to_bidding(game)
    for seat in range(4):
        view = game.view(seat)
        assert sorted(view["hand"]) == sorted(game.hands[seat]) and len(view["hand"]) == 2
        assert all("cards" not in p for p in view["players"])
    for seat in game.bid_order():
        game.apply(seat, "bid 0")
    seat = game.waiting()[0]
    assert "play ?" not in game.view(seat)["legal"]
    with pytest.raises(IllegalAction, match="own cards"):
        game.apply(seat, "play ?")


# ---------------------------------------------------------------- length of the game


@pytest.mark.parametrize(
    ("n", "sizes"),
    [
        (3, [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]),
        (4, [1, 3, 5, 7, 9, 11, 12, 13, 14, 15]),
        (5, [2, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
    ],
)
def test_tournament_hand_sizes(n: int, sizes: list[int]) -> None:
    """Amigo's tournament: ten rounds of the table's fixed hand sizes, every hand dealt that many cards."""
    game = Wizard(n, {"tournament": True}, seed=n)
    assert game.view(0)["rounds"] == 10
    rng = random.Random(n)
    events = list(game.start_events)
    dealt = [[len(h) for h in game.hands]]
    while not game.finished:
        if game.phase == "roundend":
            events += game.advance()
            dealt.append([len(h) for h in game.hands])
        else:
            seat = game.waiting()[0]
            events += game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert [e.cards for e in of_type(events, "round_start")] == sizes
    assert dealt == [[size] * n for size in sizes]
    assert [r["cards"] for r in game.sheet] == sizes


@pytest.mark.parametrize(("n", "rounds"), [(4, 3), (3, 1), (6, 10), (5, 12)])
def test_rounds_option_plays_the_first_n_rounds(n: int, rounds: int) -> None:
    game = Wizard(n, {"rounds": rounds}, seed=1)
    assert game.view(None)["rounds"] == rounds
    events = play_randomly(game, random.Random(1))
    assert [e.cards for e in of_type(events, "round_start")] == list(range(1, rounds + 1))
    assert len(of_type(events, "round_end")) == rounds and len(of_type(events, "game_end")) == 1


def test_full_game_lengths() -> None:
    for n, rounds in ((3, 20), (4, 15), (5, 12), (6, 10)):
        assert Wizard(n, {}, seed=0).view(0)["rounds"] == rounds


# ---------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("n", "options", "message"),
    [
        (4, {"notequal": True, "hiddentip": True}, "notequal needs a last bidder"),
        (4, {"notequal": True, "secretbid": True}, "notequal needs a last bidder"),
        (4, {"hiddentip": True, "secretbid": True}, "choose one of hiddentip and secretbid"),
        (4, {"rounds": 3, "tournament": True}, "rounds and tournament"),
        (6, {"tournament": True}, "tournament is for 3 to 5 players, not 6"),
        (4, {"rounds": 16}, "4 players have only 15 rounds"),
        (6, {"rounds": 11}, "6 players have only 10 rounds"),
        (4, {"rounds": 21}, "from 1 to 20"),
        (4, {"rounds": 0}, "from 1 to 20"),
        (4, {"rounds": "many"}, "whole number"),
        (4, {"rounds": ""}, "whole number"),
        (3, {"clairvoyance": True, "tournament": True}, "one-card first round"),
        (5, {"clairvoyance": True, "tournament": True}, "one-card first round"),
        (4, {"trumpless": True}, "no option 'trumpless'.*notequal, hiddentip"),
        (4, {"notequal": "maybe"}, "on or off"),
        (2, {}, "3 to 6 players, not 2"),
        (7, {}, "3 to 6 players, not 7"),
    ],
)
def test_invalid_options_refused(n: int, options: dict[str, Any], message: str) -> None:
    with pytest.raises(BadOption, match=message):
        Wizard(n, options, seed=0)


def test_option_checks_before_the_player_count_is_known() -> None:
    """While a table fills, combinations are refused at once; checks needing the count wait for the start."""
    with pytest.raises(BadOption, match="rounds and tournament"):
        Wizard.check_options({"rounds": 2, "tournament": True})
    assert Wizard.check_options({"tournament": "on", "clairvoyance": "yes"})["tournament"] is True
    assert Wizard.check_options({"rounds": "off"})["rounds"] is None


@pytest.mark.parametrize(
    "options",
    [{"clairvoyance": True, "tournament": True}, {"hiddentip": True, "clairvoyance": True, "rounds": 15},
     {"secretbid": True, "tournament": True}, {"notequal": True, "clairvoyance": True}],
)
def test_valid_combinations_accepted(options: dict[str, Any]) -> None:
    game = Wizard(4, options, seed=0)
    assert game.view(0)["options"] == options


# ---------------------------------------------------------------- dealer, scoring, standings


def test_dealer_rotates_left_and_first_dealer_comes_from_the_seed() -> None:
    events = play_randomly(Wizard(5, {"rounds": 7}, seed=3), random.Random(3))
    starts = of_type(events, "round_start")
    first = int(starts[0].dealer[1:]) - 1
    assert [s.dealer for s in starts] == [f"P{(first + r) % 5 + 1}" for r in range(7)]
    assert [s.leader for s in starts] == [f"P{(first + r + 1) % 5 + 1}" for r in range(7)]
    assert Wizard(5, {}, seed=3).dealer == first  # the same seed, the same first dealer
    assert {Wizard(4, {}, seed=s).dealer for s in range(40)} == {0, 1, 2, 3}


@pytest.mark.parametrize(
    ("bid", "tricks", "score"),
    [(0, 0, 20), (1, 1, 30), (3, 3, 50), (5, 5, 70), (0, 1, -10), (2, 0, -20), (1, 4, -30), (5, 2, -30)],
)
def test_scoring_formula(bid: int, tricks: int, score: int) -> None:
    """Exact: +20 + 10 per trick bid; otherwise -10 per trick off. Seen as the engine's ``projected`` score."""
    assert round_score(bid, tricks) == score
    hands = [DECK[i * 5 : i * 5 + 5] for i in range(4)]
    game = position(hands, bids=[bid, 0, 0, 0])
    game.tricks = [tricks, 0, 0, 0]
    game.scores = [100, 0, 0, 0]
    assert game.view(None)["players"][0]["projected"] == 100 + score


def test_a_scored_round() -> None:
    """Two tricks: P1 bid 1 and takes the Wizard trick (+30); P2 bid 0, takes blue 13 (-10); P3 bid 0 and
    takes none (+20); P4 bid 2, takes none (-20). ``projected`` tells each player where they stand."""
    game = position([["Z", "B2"], ["R1", "B13"], ["N", "B3"], ["G5", "B1"]], trump="Y", bids=[1, 0, 0, 2])
    play(game, "Z", "R1", "N", "G5")
    assert [p["projected"] for p in game.view(None)["players"]] == [30, 20, 20, -20]
    events = play(game, "B2", "B13", "B3", "B1")
    (end,) = of_type(events, "round_end")
    assert [(r["player"], r["tricks"], r["delta"], r["score"]) for r in end.results] == [
        ("P1", 1, 30, 30), ("P2", 1, -10, -10), ("P3", 0, 20, 20), ("P4", 0, -20, -20)
    ]
    assert game.scores == [30, -10, 20, -20] and game.phase == "roundend"
    assert game.sheet[-1]["results"] == end.results


def test_standings_share_places_on_ties() -> None:
    table = standings(["A", "B", "C", "D"], [30, 50, 30, -10])
    assert [(r["player"], r["place"]) for r in table] == [("B", 1), ("A", 2), ("C", 2), ("D", 4)]


def test_game_end_with_tied_winners() -> None:
    """The last round: P1 wins the trick with a Wizard after bidding 0 (-10); P2 and P3 score +20. From 30, 0
    and 10 that makes 20, 20 and 30: P3 first, P1 and P2 share second place."""
    game = position([["Z"], ["B1"], ["B2"]], bids=[0, 0, 0], options={"rounds": 1})
    game.scores = [30, 0, 10]
    (end,) = of_type(play(game, "Z", "B1", "B2"), "game_end")
    assert [(r["player"], r["score"], r["place"]) for r in end.standings] == [
        ("P3", 30, 1), ("P1", 20, 2), ("P2", 20, 2)
    ]
    assert game.finished and game.view(0)["standings"] == end.standings
    with pytest.raises(NotYourTurn, match="game is over"):
        game.apply(0, "bid 0")


# ---------------------------------------------------------------- refusals explain themselves


def test_refusals_are_helpful_and_change_nothing() -> None:
    game = position([["B5", "G3"], ["B9", "R13"], ["G7", "Y2"], ["N", "Y9"]], trump="R", bids=[1, 1, 0, 0])
    play(game, "B5")
    before = ([game.view(s) for s in [0, 1, 2, 3, None]], list(game.log), [h[:] for h in game.hands])
    cases = [
        (1, "play R13", IllegalAction, "you must follow blue"),
        (1, "play G7", IllegalAction, "you have no G7"),
        (1, "play Q7", IllegalAction, "'Q7' is not a card"),
        (1, "bid 1", IllegalAction, "now is the time to /play, not /bid"),
        (1, "bid lots", IllegalAction, "now is the time to /play, not /bid"),
        (1, "bid", IllegalAction, "now is the time to /play, not /bid"),
        (1, "dance", IllegalAction, "'dance' is not a Wizard move: use /bid, /play, /trump"),
        (1, "play", IllegalAction, "usage: /play CARD"),
        (2, "play G7", NotYourTurn, "it is not your turn; waiting for P2"),
        (9, "play B9", IllegalAction, "there is no seat 9"),
    ]
    for seat, text, error, message in cases:
        with pytest.raises(error) as info:
            game.apply(seat, text)
        assert message in str(info.value)
    assert ([game.view(s) for s in [0, 1, 2, 3, None]], game.log, game.hands) == before


@pytest.mark.parametrize("text", ["bid ²", "bid -1", "bid 1.5", "bid " + "9" * 5000, "bid two"])
def test_odd_bids_are_refused_cleanly(text: str) -> None:
    """Whatever is typed after /bid, the answer is an IllegalAction with a short message, never a crash."""
    game = position([["B1"], ["B2"], ["B3"]])
    with pytest.raises(IllegalAction) as info:
        game.apply(0, text)
    assert "whole number" in str(info.value) and len(str(info.value)) < 80
    assert game.bids == [None, None, None] and game.log == []
