"""Worked cases of the Witches rules page (shared/rules/witches.md), one test per example or rule.

Hands are rigged through the public interface with ``witches_helpers`` (``rig``, ``play_out``, ``spell_hand``).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from witches_helpers import REDS, fill, play_out, prefer, random_hand, rig, spell_hand

from mudwiz.errors import BadOption, IllegalAction, NotYourTurn
from mudwiz.games.base import GameEnd
from mudwiz.games.witches.cards import DECK, earth_leftover, fire_points, lead_colour, spell_of, trick_winner
from mudwiz.games.witches.engine import (
    CardsPassed,
    HandStart,
    PassDone,
    RoundEnd,
    SpellCast,
    SpellChosen,
    Trick,
    Witches,
)


def of_type(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


# ---------------------------------------------------------------- fire points: the page's worked examples


def test_example_three_fire_cards_water_and_earth_witch_score_3() -> None:
    assert fire_points(["R2", "R5", "R9", "G11", "Y11"]) == 3 + 5 - 5


def test_example_fire_witch_with_five_fire_cards_scores_10() -> None:
    assert fire_points(["R11", "R1", "R2", "R3", "R4", "R5"]) == 10


def test_example_fire_witch_with_nine_fire_cards_is_capped_at_15() -> None:
    assert fire_points(["R11", *[f"R{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9)]]) == 15


def test_example_fire_witch_two_fire_cards_and_earth_never_below_zero() -> None:
    assert fire_points(["R11", "R3", "R7", "Y11"]) == 0
    assert earth_leftover(["R11", "R3", "R7", "Y11"]) == 1


def test_example_pygmy_queen_water_and_air_witch_score_0() -> None:
    assert fire_points(["G12", "G11", "B11"]) == 0


def test_single_cards_and_non_scoring_cards() -> None:
    """Each special on its own, so a wrong constant cannot hide behind a combination."""
    assert fire_points(["R11"]) == 0  # the fire witch has no points of its own
    assert fire_points(["R1", "R14"]) == 2
    assert fire_points(["G11"]) == 5
    assert fire_points(["G12"]) == 10
    assert fire_points(["G11", "B11"]) == 0
    assert fire_points(["Y11"]) == 0 and earth_leftover(["Y11"]) == 5
    assert fire_points(["W", "W", "G14", "Y14", "B14", "B1"]) == 0
    assert fire_points(["G12", "Y11", "R1"]) == 6
    assert earth_leftover(["G12", "Y11"]) == 0 and earth_leftover(["R1"]) == 0


def test_spell_needs_every_fire_card_and_water_witch_or_pygmy_queen() -> None:
    assert spell_of([*REDS, "G11"]) == 20
    assert spell_of([*REDS, "G12"]) == 25
    assert spell_of([*REDS, "G11", "G12"]) == 30
    assert spell_of(REDS) is None
    assert spell_of([*REDS[:-1], "G11", "G12"]) is None
    assert spell_of([*REDS, "G12", "B11", "Y11"]) == 25  # Decision: the caster's own air/earth witch do not matter


# ---------------------------------------------------------------- tricks


def test_trick_winner_highest_of_lead_colour_only() -> None:
    assert trick_winner(["G3", "R14", "G9", "G4"]) == 2
    assert trick_winner(["W", "B2", "Y14", "B1"]) == 1
    assert lead_colour(["W", "W", "Y2"]) == "Y" and lead_colour(["W"]) is None


def test_all_wizard_trick_is_won_by_the_first_wizard() -> None:
    game = Witches(4, {}, seed=5)
    seats = rig(game, fill(4, [["W"], ["W"], ["W"], ["W"]]))
    events = []
    for s in seats:
        events += game.apply(s, "play W")
    (trick,) = of_type(events, Trick)
    assert trick.winner == game.players[seats[0]] and seats[0] != 0
    assert game.leader == seats[0] and game.tricks[seats[0]] == 1


def test_wizard_led_trick_takes_its_colour_from_the_first_non_wizard() -> None:
    greens = [f"G{n}" for n in range(1, 14) if n not in (5, 9)]
    game = Witches(4, {}, seed=2)
    seats = rig(game, fill(4, [["W"], ["G5", "W"], ["G9", *greens], ["W", "W", "G14"]]))
    game.apply(seats[0], "play W")
    assert {str(a) for a in game.legal_actions(seats[1])} == {f"play {c}" for c in set(game.hands[seats[1]])}
    game.apply(seats[1], "play G5")
    third = {a.args[0] for a in game.legal_actions(seats[2])}
    assert third == {c for c in game.hands[seats[2]] if c.startswith("G")}, "must follow green"
    with pytest.raises(IllegalAction, match="must follow green"):
        game.apply(seats[2], f"play {next(c for c in game.hands[seats[2]] if not c.startswith('G'))}")
    game.apply(seats[2], "play G9")
    assert {a.args[0] for a in game.legal_actions(seats[3])} == {"W", "G14"}
    events = game.apply(seats[3], "play W")
    assert of_type(events, Trick)[0].winner == game.players[seats[2]], "G9: the highest green"


def test_wizard_may_be_played_while_holding_the_lead_colour() -> None:
    game = Witches(3, {}, seed=4)
    seats = rig(game, fill(3, [["B1"], ["B14", "W"]]))
    game.apply(seats[0], "play B1")
    assert {a.args[0] for a in game.legal_actions(seats[1])} == {c for c in game.hands[seats[1]]
                                                                  if c[0] == "B" or c == "W"}
    game.apply(seats[1], "play W")
    assert game.trick[-1] == (seats[1], "W")


# ---------------------------------------------------------------- passing


EXPECTED_DIRECTIONS = {
    3: ["left", "right", "left", "right"],
    5: ["left", "right", "left", "right"],
    4: ["left", "right", "opposite", "left", "right", "opposite"],
    6: ["left", "right", "opposite", "left", "right", "opposite"],
}
STEP = {"left": 1, "right": -1}


@pytest.mark.parametrize("n, count", [(3, 4), (4, 3), (5, 3), (6, 2)])
def test_pass_count_and_direction_every_hand(n: int, count: int) -> None:
    game = Witches(n, {"hands": len(EXPECTED_DIRECTIONS[n])}, seed=n)
    rng = random.Random(n)
    events = list(game.start_events)
    for hand, direction in enumerate(EXPECTED_DIRECTIONS[n], start=1):
        (start,) = of_type(events, HandStart)
        assert (start.round, start.pass_count, start.direction) == (hand, count, direction)
        to = {s: (s + STEP.get(direction, n // 2)) % n for s in range(n)}
        dealt = [list(h) for h in game.hands]
        events = random_hand(game, rng)
        passes = of_type(events, CardsPassed)
        assert [(p.player, p.to, p.count) for p in passes] == [(game.players[s], game.players[to[s]], count)
                                                                for s in range(n)]
        (done,) = of_type(events, PassDone)
        for s, p in enumerate(passes):
            entry = next(r for r in done.received if r["player"] == game.players[to[s]])
            assert entry["from"] == game.players[s] and Counter(entry["cards"]) == Counter(p.cards)
            assert not Counter(p.cards) - Counter(dealt[s])
        if game.phase == "roundend":
            events = game.advance()
    assert game.finished


def test_received_cards_arrive_only_when_everyone_has_passed() -> None:
    game = Witches(3, {}, seed=8)
    before = [list(h) for h in game.hands]
    game.apply(0, "pass " + " ".join(before[0][:4]))
    game.apply(1, "pass " + " ".join(before[1][:4]))
    assert Counter(game.hands[1]) == Counter(before[1][4:]), "seat 0's cards are still face down"
    assert game.view(1)["received"] is None and game.view(0)["passed"] == game._sorted(before[0][:4])
    with pytest.raises(NotYourTurn, match="you have passed; waiting for P3"):
        game.apply(0, "pass " + " ".join(game.hands[0][:4]))
    events = game.apply(2, "pass " + " ".join(before[2][:4]))
    assert Counter(game.hands[1]) == Counter(before[1][4:] + before[0][:4])
    assert PassDone([r for r in of_type(events, PassDone)[0].received if r["player"] == "P2"]) == \
        of_type(events, PassDone)[0].visible_to("P2")
    assert game.phase == "playing"


def test_pass_refusals_say_why_and_identical_wizards_count_by_copies() -> None:
    game = next(g for g in (Witches(4, {}, seed=s) for s in range(100)) if max(h.count("W") for h in g.hands) == 2)
    seat = next(s for s in range(4) if game.hands[s].count("W") == 2)
    other = [c for c in game.hands[seat] if c != "W"][:1]
    missing = next(c for c in DECK.cards() if c not in game.hands[seat])
    with pytest.raises(IllegalAction, match="pass exactly 3 cards, not 2"):
        game.apply(seat, f"pass W {other[0]}")
    with pytest.raises(IllegalAction, match=f"you have no {missing}"):
        game.apply(seat, f"pass W {other[0]} {missing}")
    with pytest.raises(IllegalAction, match="you have only 2 W, not 3"):
        game.apply(seat, "pass W W W")
    with pytest.raises(IllegalAction, match="now is the time to /pass, not /play"):
        game.apply(seat, f"play {other[0]}")
    with pytest.raises(IllegalAction, match="now is the time to /pass, not /play"):  # the phase before the word
        game.apply(seat, "play zz")
    assert game.log == []
    events = game.apply(seat, f"pass w,w {other[0].lower()}")
    assert events[0].cards == game._sorted(["W", "W", other[0]])


# ---------------------------------------------------------------- spells


@pytest.mark.parametrize("points", [20, 25, 30])
def test_spell_mid_game_gives_the_points_to_every_other_player(points: int) -> None:
    game = Witches(3, {"earth": "carry"}, seed=11)
    seats, events = spell_hand(game, points)
    assert of_type(events, SpellCast) == [SpellCast(game.players[seats[0]], points, False)]
    (end,) = of_type(events, RoundEnd)
    got = {r["player"]: (r["points"], r["delta"], r["score"]) for r in end.results}
    assert got == {game.players[s]: (0, 0, 0) if s == seats[0] else (points, points, points) for s in range(3)}
    assert game.phase == "roundend" and not game.legal_actions(seats[0])


@pytest.mark.parametrize("points", [20, 25, 30])
@pytest.mark.parametrize("choice", ["give", "take"])
def test_spell_on_the_last_hand_lets_the_caster_give_or_take(points: int, choice: str) -> None:
    game = Witches(3, {"hands": 1}, seed=12)
    seats, events = spell_hand(game, points)
    caster = game.players[seats[0]]
    assert of_type(events, SpellCast) == [SpellCast(caster, points, True)]
    assert game.phase == "spell" and game.waiting() == [seats[0]]
    assert game.view(seats[0])["legal"] == ["spell give", "spell take"]
    with pytest.raises(NotYourTurn, match=f"waiting for {caster} to choose"):
        game.apply(seats[1], f"spell {choice}")
    with pytest.raises(IllegalAction, match="say /spell give or /spell take"):
        game.apply(seats[0], "spell keep")
    events = game.apply(seats[0], f"SPELL {choice.upper()}")
    assert events[0] == SpellChosen(caster, choice, points)
    scores = {game.players[s]: game.scores[s] for s in range(3)}
    if choice == "give":
        assert scores == {n: 0 if n == caster else points for n in game.players}
    else:
        assert scores == {n: -points if n == caster else 0 for n in game.players}
    assert game.finished and of_type(events, GameEnd)[0].standings[0] == {"player": caster, "score": scores[caster],
                                                                         "place": 1}
    assert game.sheet[-1]["spell"] == {"player": caster, "points": points, "choice": choice}


def test_spell_choice_when_giving_would_reach_the_limit_and_take_lets_the_game_go_on() -> None:
    game = Witches(3, {"limit": 25}, seed=13)
    seats, events = spell_hand(game, 25)
    assert of_type(events, SpellCast)[0].choosing and game.phase == "spell"
    game.apply(seats[0], "spell take")
    assert game.phase == "roundend", "nobody has reached the limit, so the game goes on"
    assert game.scores[seats[0]] == -25


def test_spell_give_at_the_limit_ends_the_game() -> None:
    game = Witches(3, {"limit": 25}, seed=13)
    seats, _ = spell_hand(game, 25)
    events = game.apply(seats[0], "spell give")
    assert game.finished and of_type(events, GameEnd)[0].standings[0]["player"] == game.players[seats[0]]


def test_no_spell_choice_when_giving_stays_below_the_limit() -> None:
    game = Witches(3, {"limit": 26}, seed=13)
    seats, events = spell_hand(game, 25)
    assert of_type(events, SpellCast) == [SpellCast(game.players[seats[0]], 25, False)]
    assert game.phase == "roundend"


# ---------------------------------------------------------------- earth=carry


def earth_hand(game: Witches, total: int) -> tuple[int, int]:
    """Three players: the leader wins the earth witch and exactly three fire cards, starting from ``total``."""
    runner = [f"Y{n}" for n in range(2, 15)] + ["W", "W", "W", "W", "B1", "B2", "G1"]
    safe = [f"G{n}" for n in (2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 14)] + [f"B{n}" for n in range(3, 15)] + ["Y1"]
    scoring = [f"R{n}" for n in range(4, 15)] + ["G11", "G12"]
    seats = rig(game, [runner, ["R1", "R2", "R3", *safe[:10], *scoring[:7]], [*safe[10:], *scoring[7:]]])
    game.scores[seats[0]] = total  # as if earlier hands had scored this much
    yellows = [f"Y{n}" for n in range(14, 1, -1)]
    play_out(game, {seats[0]: prefer(yellows)}, prefer(["R1", "R2", "R3"], ["G11", "G12", *REDS[3:]]))
    assert Counter(c for c in game.won[seats[0]] if c[0] == "R" or c in ("G11", "G12", "Y11")) == \
        Counter(["R1", "R2", "R3", "Y11"])
    return seats[0], game.scores[seats[0]]


@pytest.mark.parametrize("total, carry, expected", [(10, "carry", 8), (1, "carry", 0), (0, "carry", 0),
                                                    (10, "off", 10)])
def test_earth_witch_unused_reduction_comes_off_the_total_under_carry(total: int, carry: str, expected: int) -> None:
    game = Witches(3, {"earth": carry}, seed=21)
    seat, score = earth_hand(game, total)
    assert score == expected
    assert next(r for r in game.sheet[-1]["results"] if r["player"] == game.players[seat])["points"] == 0


# ---------------------------------------------------------------- options, end, replay


@pytest.mark.parametrize("options, message", [
    ({"limit": "0"}, "limit must be from 1 to 999"),
    ({"hands": "0"}, "hands must be from 1 to 99"),
    ({"hands": "x"}, "hands needs a whole number"),
    ({"earth": "double"}, "earth is one of off, carry"),
    ({"earth": None}, "earth needs a value"),
    ({"trump": "R"}, "Witches has no option 'trump'"),
])
def test_bad_options_are_refused_with_a_reason(options: dict, message: str) -> None:
    with pytest.raises(BadOption, match=message):
        Witches(3, options)


@pytest.mark.parametrize("players", [2, 7])
def test_three_to_six_players(players: int) -> None:
    with pytest.raises(BadOption, match="3 to 6 players"):
        Witches(players)


def test_limit_and_hands_together_end_at_whichever_comes_first() -> None:
    assert Witches.check_options({"limit": "40", "hands": "3"}, 4) == {"limit": 40, "hands": 3, "earth": "off"}
    game = Witches(4, {"limit": "1", "hands": "5"}, seed=1)
    rng = random.Random(1)
    while True:
        random_hand(game, rng)
        if game.finished:
            break
        assert max(game.scores) < 1
        game.advance()
    assert max(game.scores) >= 1 and game.round < 5, "the limit came first"
    game = Witches(4, {"limit": "999", "hands": "2"}, seed=1)
    random_hand(game, rng)
    game.advance()
    random_hand(game, rng)
    assert game.finished and game.round == 2, "the hands came first"


def test_hands_alone_has_no_limit_and_the_default_limit_is_70() -> None:
    hands_only = Witches(4, {"hands": "2"}, seed=1)
    assert hands_only.limit is None and hands_only.view(None)["rounds"] == 2
    assert hands_only.view(None)["limit"] is None
    assert Witches(4).limit == 70 and Witches(4).view(None)["limit"] == 70 and Witches(4).view(None)["rounds"] is None


def test_game_ends_after_the_hand_reaching_the_limit_lowest_total_wins() -> None:
    game = Witches(5, {"limit": 30}, seed=9)
    rng = random.Random(9)
    while True:
        events = random_hand(game, rng)
        if game.phase == "spell":
            events += game.apply(game.waiting()[0], "spell give")
        if game.finished:
            break
        assert max(game.scores) < 30
        game.advance()
    assert max(game.scores) >= 30
    (end,) = of_type(events, GameEnd)
    assert [r["score"] for r in end.standings] == sorted(game.scores)
    assert end.standings[0]["place"] == 1 and game.view(None)["standings"] == end.standings


def test_dealer_is_drawn_then_moves_one_seat_left_each_hand() -> None:
    dealers = {Witches(4, {}, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    game = Witches(4, {"hands": 3}, seed=6)
    rng = random.Random(6)
    first = game.dealer
    for hand in range(3):
        assert game.dealer == (first + hand) % 4 and game.leader == (game.dealer + 1) % 4
        random_hand(game, rng)
        if not game.finished:
            game.advance()


def test_replay_from_the_log_gives_identical_events() -> None:
    options = {"hands": "3", "earth": "carry"}
    game = Witches(["ann", "bob", "cy", "dee", "eve"], options, seed=77)
    rng = random.Random(77)
    events = list(game.start_events)
    while not game.finished:
        events += random_hand(game, rng)
        if game.phase == "roundend":
            events += game.advance()
    again, replayed = Witches.replay(game.players, options, 77, game.log)
    assert replayed == events and again.scores == game.scores and again.sheet == game.sheet


def test_refused_moves_change_nothing_and_say_why() -> None:
    game = Witches(3, {}, seed=30)
    for s in range(3):
        game.apply(s, "pass " + " ".join(game.hands[s][:4]))
    seat = game.waiting()[0]
    other = (seat + 1) % 3
    with pytest.raises(NotYourTurn, match="not your turn"):
        game.apply(other, "play " + game.hands[other][0])
    missing = next(c for c in DECK.cards() if c not in game.hands[seat])
    with pytest.raises(IllegalAction, match=f"you have no {missing}"):
        game.apply(seat, f"play {missing}")
    with pytest.raises(IllegalAction, match="not a Witches move: use /pass, /play, /spell"):
        game.apply(seat, "bid 2")
    with pytest.raises(IllegalAction, match="usage: /play CARD"):
        game.apply(seat, "play")
    assert len(game.log) == 3 and len(game.trick) == 0
