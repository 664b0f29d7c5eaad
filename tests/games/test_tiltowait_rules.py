"""Worked positions for every rule of ``shared/rules/tiltowait.md``: each spell's effect and "when playable",
stacking, the first discard, draw-one, the reshuffle, karuki, the cards that may not go out, scoring, options
and replay. Positions are set by overwriting the engine's state after construction.

Seats: Ann 0, Bob 1, Cat 2, Dan 3. Play starts counter-clockwise (seat - 1): Ann -> Dan -> Cat -> Bob -> Ann.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

import pytest

from mudwiz.errors import BadOption, IllegalAction, NotYourTurn
from mudwiz.games.base import Event, GameEnd
from mudwiz.games.tiltowait.cards import colour_of, full_deck, hand_score, spell_of
from mudwiz.games.tiltowait.engine import Tiltowait
from mudwiz.games.tiltowait.events import (
    Asleep,
    Cancelled,
    Caught,
    DrawPending,
    Drew,
    HandShown,
    Karuki,
    MilwaReveal,
    Reshuffled,
    Reversed,
    RoundEnd,
)

E = TypeVar("E", bound=Event)
NAMES = ["Ann", "Bob", "Cat", "Dan"]
ANN, BOB, CAT, DAN = range(4)
CCW, CW = -1, 1
AUTO = "auto"


def position(
    ann: Sequence[str],
    top: str,
    *,
    bob: Sequence[str] = ("K4", "K5"),
    cat: Sequence[str] = ("K6", "K7"),
    dan: Sequence[str] = ("K8", "K9"),
    colour: str | None = AUTO,
    turn: int = ANN,
    direction: int = CCW,
    draws: Sequence[str] = (),
    options: dict[str, object] | None = None,
) -> Tiltowait:
    """A four-player hand in mid-play: the given hands and top discard, ``draws`` on top of the stock in the
    order they will be drawn, every other card in the stock (so the 120 cards stay whole)."""
    game = Tiltowait(NAMES, options or {}, seed=1)
    hands = [list(ann), list(bob), list(cat), list(dan)]
    used = Counter(c for h in hands for c in h) + Counter([top]) + Counter(draws)
    deck = Counter(full_deck())
    assert used <= deck, f"more copies than the deck holds: {used - deck}"
    game.hands = hands
    game.discard = [top]
    game.stock = sorted((deck - used).elements()) + list(reversed(draws))
    game.colour = colour_of(top) if colour == AUTO else colour
    game.turn, game.direction = turn, direction
    game.pending, game.attacker, game.drawn = 0, None, None
    game.responders, game.caster, game.milwa_target = [], None, None
    game.asleep, game.exposed, game.called = None, None, set()
    return game


def playable(game: Tiltowait, seat: int) -> set[str]:
    return {a.args[0] for a in game.legal_actions(seat) if a.verb == "play"}


def legal(game: Tiltowait, seat: int) -> list[str]:
    return [str(a) for a in game.legal_actions(seat)]


def refused(game: Tiltowait, seat: int, action: str) -> str:
    """Apply an action that must be refused; returns the message, and checks nothing changed."""
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, action)
    assert snapshot(game) == before
    return str(info.value)


def snapshot(game: Tiltowait) -> tuple[object, ...]:
    return (
        [list(h) for h in game.hands], list(game.stock), list(game.discard), game.colour, game.turn,
        game.direction, game.pending, list(game.responders), game.milwa_target, game.drawn, game.asleep,
        game.exposed, set(game.called), list(game.scores), game.phase, len(game.log), game.rng.getstate(),
    )


def of_type(events: list[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def conserved(game: Tiltowait) -> bool:
    cards = [c for h in game.hands for c in h] + game.stock + game.discard
    return Counter(cards) == Counter(full_deck())


# ---------------------------------------------------------------- the deck and the start


def test_the_deck_has_the_120_cards_of_the_sheet():
    deck = Counter(full_deck())
    assert sum(deck.values()) == 120
    assert deck["R7"] == 2 and deck["K10"] == 2 and deck["B1"] == 2
    assert sum(n for c, n in deck.items() if spell_of(c) is None) == 80
    expected = {"HALITO": 8, "DALTO": 4, "MAHALITO": 4, "MADALTO": 2, "TILTOWAIT": 2, "KATINO": 8, "MILWA": 2,
                "MONTINO": 4, "HAMAN": 6}
    by_spell: Counter[str] = Counter()
    for code, n in deck.items():
        spell = spell_of(code)
        if spell is not None:
            by_spell[spell] += n
    assert by_spell == expected
    assert deck["HALITO-R"] == 2 and deck["DALTO-K"] == 1 and deck["KATINO-B"] == 2


def test_seven_cards_each_one_turned_and_play_goes_counter_clockwise():
    game = Tiltowait(NAMES, {}, seed=3)
    assert [len(h) for h in game.hands] == [7, 7, 7, 7]
    assert len(game.discard) == 1 and len(game.stock) == 120 - 28 - 1
    assert game.direction == CCW and game.view(None)["direction"] == "ccw"
    starter = game.starter
    assert game.start_events[0].to_dict() == {
        "type": "hand_start", "round": 1, "starter": NAMES[starter], "top": game.top, "cards": 7,
    }


def test_the_first_player_is_drawn_at_random_from_the_seed():
    starters = {Tiltowait(NAMES, {}, seed=s).starter for s in range(40)}
    assert starters == {ANN, BOB, CAT, DAN}
    assert Tiltowait(NAMES, {}, seed=11).starter == Tiltowait(NAMES, {}, seed=11).starter


def test_three_players_pass_to_seat_minus_one():
    game = Tiltowait(["Ann", "Bob", "Cat"], {}, seed=1)
    game.hands = [["R1", "R2"], ["R3", "R4"], ["R5", "R6"]]
    game.discard, game.stock = ["R9"], [c for c in full_deck() if c not in ("R1", "R2", "R3", "R4", "R5", "R6")]
    game.colour, game.turn, game.pending, game.responders, game.milwa_target, game.drawn = "R", 0, 0, [], None, None
    game.asleep = None
    game.apply(0, "play R1")
    assert game.waiting() == [2]
    game.apply(2, "play R5")
    assert game.waiting() == [1]


# ---------------------------------------------------------------- colour and number


def test_a_monster_matches_the_colour_in_force_or_the_number():
    game = position(["R3", "G7", "B5", "K1"], "G3")
    assert playable(game, ANN) == {"R3", "G7"}
    message = refused(game, ANN, "play B5")
    assert "gold" in message and "3" in message
    assert "you may" not in message  # the engine says why; the moves are listed where the reply is sent


def test_a_number_matches_only_a_monster_on_top():
    game = position(["R3", "G7"], "HALITO-G")
    assert playable(game, ANN) == {"G7"}


def test_a_colour_naming_spell_sets_the_colour_in_force():
    game = position(["MAHALITO", "R1", "R2"], "R5", cat=["B2", "R3", "HALITO-B", "HALITO-R", "KATINO-B", "G5"])
    game.apply(ANN, "play MAHALITO B")
    game.apply(DAN, "draw")
    assert game.waiting() == [CAT] and game.colour == "B"
    assert playable(game, CAT) == {"B2", "HALITO-B", "KATINO-B"}


def test_playing_a_card_you_do_not_hold_is_refused():
    game = position(["R3"], "R5")
    assert refused(game, ANN, "play R4").startswith("you have no R4")


# ---------------------------------------------------------------- HALITO and DALTO


@pytest.mark.parametrize(
    ("top", "colour", "ok"),
    [
        ("R5", "R", True),  # its colour
        ("G5", "G", False),
        ("HALITO-G", "G", True),  # on a HALITO of any colour
        ("DALTO-R", "R", True),  # on a DALTO of its colour
        ("DALTO-B", "B", False),
        ("MAHALITO", "R", True),  # its colour named
        ("MAHALITO", "G", False),
    ],
)
def test_halito_is_played_on_its_colour_a_halito_or_a_dalto_of_its_colour(top, colour, ok):
    game = position(["HALITO-R", "K1"], top, colour=colour)
    assert ("HALITO-R" in playable(game, ANN)) is ok
    if not ok:
        assert "HALITO goes on its colour" in refused(game, ANN, "play HALITO-R")


@pytest.mark.parametrize(
    ("top", "colour", "ok"),
    [("R5", "R", True), ("G5", "G", False), ("DALTO-G", "G", True), ("HALITO-R", "R", True),
     ("HALITO-G", "G", False)],
)
def test_dalto_is_played_on_its_colour_a_dalto_or_a_halito_of_its_colour(top, colour, ok):
    game = position(["DALTO-R", "K1"], top, colour=colour)
    assert ("DALTO-R" in playable(game, ANN)) is ok


def test_halito_makes_the_next_player_draw_two_and_lose_the_turn():
    game = position(["HALITO-R", "R1", "R2"], "R5", dan=["R9", "G9"], draws=["B1", "B2"])
    events = game.apply(ANN, "play HALITO-R")
    assert of_type(events, DrawPending) == [DrawPending("Dan", 2, "HALITO-R")]
    assert game.waiting() == [DAN] and game.view(DAN)["pending"] == 2
    assert legal(game, DAN) == ["draw"]  # R9 matches red, but a draw is pending
    assert "tells you to draw 2" in refused(game, DAN, "play R9")
    game.apply(DAN, "draw")
    assert sorted(game.hands[DAN]) == ["B1", "B2", "G9", "R9"]
    assert game.waiting() == [CAT] and game.pending == 0 and game.colour == "R"


def test_dalto_reverses_then_the_new_next_player_draws_two():
    game = position(["DALTO-R", "R1"], "R5", draws=["B1", "B2"])
    events = game.apply(ANN, "play DALTO-R")
    assert of_type(events, Reversed) == [Reversed("Ann", "cw")]
    assert game.waiting() == [BOB] and game.pending == 2
    game.apply(BOB, "draw")
    assert game.waiting() == [CAT] and game.direction == CW


# ---------------------------------------------------------------- MAHALITO and MADALTO


def test_mahalito_makes_the_next_draw_four_and_names_the_colour():
    game = position(["MAHALITO", "R1", "K2"], "B5")  # three cards: no form carries a karuki call
    assert [a for a in legal(game, ANN) if "MAHALITO" in a] == [
        "play MAHALITO K", "play MAHALITO R", "play MAHALITO G", "play MAHALITO B"]
    assert "MAHALITO names a colour" in refused(game, ANN, "play MAHALITO")
    game.apply(ANN, "play mahalito gold")
    assert game.colour == "G" and game.pending == 4 and game.waiting() == [DAN]
    game.apply(DAN, "draw")
    assert len(game.hands[DAN]) == 6 and game.waiting() == [CAT]


@pytest.mark.parametrize("spell", ["MAHALITO", "MADALTO"])
@pytest.mark.parametrize(("top", "ok"), [("HALITO-R", False), ("DALTO-R", False), ("KATINO-B", True),
                                         ("R5", True), ("MILWA", True), ("MAHALITO", True)])
def test_mahalito_and_madalto_go_on_anything_but_halito_or_dalto(spell, top, ok):
    game = position([spell, "K1"], top, colour="R")
    assert (spell in playable(game, ANN)) is ok
    if not ok:
        assert f"{spell} cannot go on a {spell_of(top)}" in refused(game, ANN, f"play {spell} G")


def test_madalto_reverses_makes_the_next_draw_four_and_names_the_colour():
    game = position(["MADALTO", "R1"], "R5")
    game.apply(ANN, "play MADALTO K")
    assert game.direction == CW and game.colour == "K" and game.pending == 4 and game.waiting() == [BOB]


# ---------------------------------------------------------------- TILTOWAIT


def test_tiltowait_each_other_player_in_turn_draws_two_then_the_next_plays_the_named_colour():
    game = position(["TILTOWAIT", "R1", "R2"], "R5", bob=["B4"], cat=["R6", "B6"], dan=["G8", "B8"])
    events = game.apply(ANN, "play TILTOWAIT B")
    assert game.colour == "B" and game.waiting() == [DAN]
    assert legal(game, DAN) == ["draw"]  # B8 matches, but the draws come first
    order = []
    for _ in range(3):
        (seat,) = game.waiting()
        order.append(seat)
        events = game.apply(seat, "draw")
        assert of_type(events, Drew)[0].count == 2
    assert order == [DAN, CAT, BOB]
    assert [len(h) for h in game.hands] == [2, 3, 4, 4]
    assert game.waiting() == [DAN] and "B8" in playable(game, DAN) and "G8" not in playable(game, DAN)


@pytest.mark.parametrize(("top", "ok"), [
    ("HALITO-R", False), ("DALTO-R", False), ("MAHALITO", False), ("MADALTO", False), ("KATINO-R", False),
    ("TILTOWAIT", False), ("R5", True), ("MILWA", True), ("MONTINO", True), ("HAMAN", True),
])
def test_tiltowait_goes_on_anything_but_the_attack_spells_katino_and_tiltowait(top, ok):
    game = position(["TILTOWAIT", "K1"], top, colour="R")
    assert ("TILTOWAIT" in playable(game, ANN)) is ok
    if not ok:
        assert "TILTOWAIT cannot go on" in refused(game, ANN, "play TILTOWAIT R")


def test_a_tiltowait_draw_is_cancelled_by_its_own_player_only():
    game = position(["TILTOWAIT", "R1", "R2"], "R5", bob=["K4", "K5"], cat=["HAMAN", "K6"], dan=["MONTINO", "K8"])
    game.apply(ANN, "play TILTOWAIT R")
    assert "play MONTINO" in legal(game, DAN)
    assert legal(game, CAT) == []  # Cat's answer comes after Dan's
    with pytest.raises(NotYourTurn):
        game.apply(CAT, "play HAMAN G")
    events = game.apply(DAN, "play MONTINO")
    assert of_type(events, Cancelled) == [Cancelled("Dan", "MONTINO", "TILTOWAIT")]
    assert game.hands[DAN] == ["K8"] and game.colour == "R"
    game.apply(CAT, "play HAMAN G")
    assert game.hands[CAT] == ["K6"] and game.colour == "G"
    game.apply(BOB, "draw")
    assert len(game.hands[BOB]) == 4
    assert game.waiting() == [DAN]  # the player after the caster continues, in the colour now in force


# ---------------------------------------------------------------- KATINO


def test_katino_puts_the_next_player_to_sleep_and_cannot_be_cancelled():
    game = position(["KATINO-R", "R1", "R2"], "R5", dan=["MONTINO", "HAMAN", "R9"])
    events = game.apply(ANN, "play KATINO-R")
    assert of_type(events, Asleep) == [Asleep("Dan")]
    assert game.waiting() == [CAT]
    assert game.view(CAT)["players"][DAN]["asleep"] is True
    assert legal(game, DAN) == []
    with pytest.raises(NotYourTurn):
        game.apply(DAN, "play MONTINO")
    game.apply(CAT, "draw")
    assert game.view(CAT)["players"][DAN]["asleep"] is False


@pytest.mark.parametrize(("top", "colour", "ok"), [("R5", "R", True), ("KATINO-R", "R", True),
                                                   ("MAHALITO", "R", True), ("KATINO-G", "G", False),
                                                   ("G5", "G", False), ("HALITO-G", "G", False)])
def test_katino_goes_only_on_its_colour(top, colour, ok):
    """The sheet: a KATINO "cannot be discarded unless the colour matches" (seed 003), so unlike HALITO and
    DALTO it has no exception for a KATINO of another colour on top."""
    game = position(["KATINO-R", "K1"], top, colour=colour)
    assert ("KATINO-R" in playable(game, ANN)) is ok
    if not ok:
        assert "KATINO goes only on its colour (gold is in force)" in refused(game, ANN, "play KATINO-R")


# ---------------------------------------------------------------- MILWA


def test_milwa_opens_the_chosen_hand_to_the_whole_table_and_names_the_colour():
    """Seed 003: MILWA has the chosen player's cards "opened" (face up) for 5 seconds: everyone at the table,
    observers too, sees them."""
    game = position(["MILWA", "R1", "R2"], "G5", cat=["B3", "K6", "R9"])
    assert game.options["milwa"] == "table"
    forms = [a for a in legal(game, ANN) if a.startswith("play MILWA")]
    assert len(forms) == 3 * 4 and "play MILWA Cat B" in forms and not any(" Ann " in a for a in forms)
    game.apply(ANN, "play milwa cat b")
    assert game.waiting() == [CAT] and game.colour == "B"
    assert legal(game, CAT) == ["keep"]
    events = game.apply(CAT, "keep")
    assert of_type(events, HandShown) == [HandShown("Cat", "Ann", "table")]
    (reveal,) = of_type(events, MilwaReveal)
    assert reveal == MilwaReveal("Ann", "Cat", ["K6", "R9", "B3"], 5, "table")
    assert all(reveal.visible_to(viewer) is reveal for viewer in [*NAMES, None])
    assert reveal.to_dict()["audience"] == "table"
    assert game.direction == CCW and game.waiting() == [DAN]  # play goes on from the caster


def test_an_observer_reads_the_opened_hand_within_80_columns():
    from mudwiz.games.tiltowait.render import event_lines
    from mudwiz.render.style import Style

    names = ["Longest_name_000", "Longest_name_001", "Longest_name_002"]
    shown = HandShown(names[1], names[0], "table")
    reveal = MilwaReveal(names[0], names[1], ["K6", "R9", "B3", "MAHALITO"], 5, "table")
    lines = [line for e in (shown, reveal) for line in event_lines(e.visible_to(None), Style(False, False))]
    assert lines == [f"{names[1]} lets {names[0]}'s MILWA open their hand to the table.",
                     f"{names[1]}'s hand is open for 5 s:", "   K6  R9  B3  MAHALITO "]
    assert all(len(line) <= 80 for line in lines)
    private = event_lines(MilwaReveal("Ann", "Cat", ["K6"], 5, "caster"), Style(False, False))
    assert private[0] == "MILWA: Cat's hand, for 5 seconds:"


def test_milwa_caster_option_shows_the_hand_to_the_caster_only():
    game = position(["MILWA", "R1", "R2"], "G5", cat=["B3", "K6", "R9"], options={"milwa": "caster"})
    game.apply(ANN, "play MILWA Cat B")
    events = game.apply(CAT, "keep")
    assert of_type(events, HandShown) == [HandShown("Cat", "Ann", "caster")]
    (reveal,) = of_type(events, MilwaReveal)
    assert reveal == MilwaReveal("Ann", "Cat", ["K6", "R9", "B3"], 5, "caster")
    assert reveal.visible_to("Ann") is reveal
    assert reveal.visible_to("Cat") is None and reveal.visible_to("Bob") is None and reveal.visible_to(None) is None
    with pytest.raises(BadOption, match="milwa is one of table, caster"):
        Tiltowait(NAMES, {"milwa": "target"}, seed=1)


def test_milwa_may_not_look_at_your_own_hand():
    game = position(["MILWA", "R1"], "G5")
    assert "another player" in refused(game, ANN, "play MILWA Ann B")
    assert "no player 'Zed'" in refused(game, ANN, "play MILWA Zed B")
    with pytest.raises(IllegalAction, match="a player and a colour"):
        game.apply(ANN, "play MILWA B")


def test_milwa_is_cancelled_by_its_target_out_of_turn():
    game = position(["MILWA", "R1", "R2"], "G5", bob=["MONTINO", "HAMAN", "K4"])
    game.apply(ANN, "play MILWA Bob R")
    assert legal(game, BOB) == ["play HAMAN K", "play HAMAN R", "play HAMAN G", "play HAMAN B", "play MONTINO",
                                "keep"]
    assert legal(game, DAN) == []  # Dan plays next, but only after Bob's answer
    events = game.apply(BOB, "play HAMAN K")
    assert not of_type(events, MilwaReveal) and of_type(events, Cancelled) == [Cancelled("Bob", "HAMAN", "MILWA")]
    assert game.colour == "K" and game.waiting() == [DAN]


# ---------------------------------------------------------------- MONTINO and HAMAN


def test_montino_cancels_a_draw_aimed_at_you_and_keeps_colour_and_direction():
    game = position(["HALITO-R", "R1"], "R5", dan=["MONTINO", "G9", "K8"], cat=["R6", "K6"])
    game.apply(ANN, "play HALITO-R")
    assert "play MONTINO" in legal(game, DAN)
    events = game.apply(DAN, "play MONTINO")
    assert of_type(events, Cancelled) == [Cancelled("Dan", "MONTINO", "HALITO-R")]
    assert game.hands[DAN] == ["G9", "K8"] and game.pending == 0
    assert game.colour == "R" and game.direction == CCW and game.top == "MONTINO"
    assert game.waiting() == [CAT] and playable(game, CAT) == {"R6"}  # MONTINO counts as the current colour


def test_montino_is_played_on_anything_and_names_no_colour():
    game = position(["MONTINO", "R1"], "G5")
    assert "play MONTINO" in legal(game, ANN)
    assert "MONTINO keeps the colour" in refused(game, ANN, "play MONTINO R")
    game.apply(ANN, "play MONTINO")
    assert game.colour == "G"


def test_haman_cancels_and_names_the_colour():
    game = position(["MAHALITO", "R1"], "R5", dan=["HAMAN", "K8"])
    game.apply(ANN, "play MAHALITO G")
    assert "HAMAN names a colour" in refused(game, DAN, "play HAMAN")
    game.apply(DAN, "play HAMAN b")
    assert game.colour == "B" and game.pending == 0 and game.direction == CCW and game.waiting() == [CAT]


def test_a_reversal_stands_when_its_draw_is_cancelled():
    game = position(["DALTO-R", "R1"], "R5", bob=["MONTINO", "K4"])
    game.apply(ANN, "play DALTO-R")
    game.apply(BOB, "play MONTINO")
    assert game.direction == CW and game.waiting() == [CAT]


def test_montino_and_haman_do_not_cancel_out_of_turn_without_a_spell_aimed_at_you():
    game = position(["R1", "R2"], "R5", bob=["MONTINO", "K4"])
    assert legal(game, BOB) == []
    with pytest.raises(NotYourTurn):
        game.apply(BOB, "play MONTINO")
    game.apply(ANN, "play R1")  # Ann is down to one card: Bob may catch her, and nothing else
    assert legal(game, BOB) == ["catch Ann"]
    assert "out of turn only to cancel a spell aimed at you" in refused(game, BOB, "play MONTINO")


# ---------------------------------------------------------------- stacking


def test_halito_and_dalto_stack_and_pass_the_sum():
    game = position(["HALITO-R", "R1"], "R5", dan=["HALITO-G", "DALTO-B", "K8"], cat=["DALTO-G", "K6"],
                    bob=["K4"])
    game.apply(ANN, "play HALITO-R")
    assert playable(game, DAN) == {"HALITO-G"}  # any HALITO; a DALTO only of the HALITO's colour
    assert "stack a HALITO or a DALTO of its colour" in refused(game, DAN, "play DALTO-B")
    game.apply(DAN, "play HALITO-G")
    assert game.pending == 4 and game.waiting() == [CAT]
    game.apply(CAT, "play DALTO-G")  # same colour as the HALITO on top; reverses
    assert game.pending == 6 and game.direction == CW and game.waiting() == [DAN]
    game.apply(DAN, "draw")
    assert len(game.hands[DAN]) == 2 + 6 and game.waiting() == [ANN]


def test_mahalito_and_madalto_stack_and_halito_does_not_stack_on_them():
    game = position(["MAHALITO", "R1"], "R5", dan=["MADALTO", "HALITO-R", "K8"], cat=["MAHALITO", "K6"])
    game.apply(ANN, "play MAHALITO R")
    assert playable(game, DAN) == {"MADALTO"}
    game.apply(DAN, "play MADALTO G")
    assert game.pending == 8 and game.direction == CW and game.waiting() == [ANN] and game.colour == "G"


def test_a_dalto_stacks_on_any_dalto():
    game = position(["DALTO-R", "R1"], "R5", bob=["DALTO-G", "HALITO-B", "K4"])
    game.apply(ANN, "play DALTO-R")
    assert playable(game, BOB) == {"DALTO-G"}


# ---------------------------------------------------------------- the first discard


def dealt(top_spell: str) -> Tiltowait:
    """A real deal whose turned card is ``top_spell`` (a seed is searched for)."""
    for seed in range(5000):
        game = Tiltowait(NAMES, {}, seed=seed)
        if spell_of(game.top) == top_spell:
            return game
    raise AssertionError(f"no seed turns {top_spell}")


@pytest.mark.parametrize("spell", ["HALITO", "DALTO"])
def test_a_turned_halito_or_dalto_makes_the_first_player_draw_two(spell):
    game = dealt(spell)
    first = game.starter
    assert game.waiting() == [first] and game.pending == 2 and game.colour == colour_of(game.top)
    assert game.direction == (CW if spell == "DALTO" else CCW)
    game.apply(first, "draw")
    assert len(game.hands[first]) == 9 and game.waiting() == [(first + game.direction) % 4]


@pytest.mark.parametrize("spell", ["MAHALITO", "MADALTO"])
def test_a_turned_mahalito_leaves_the_colour_to_the_next_player_with_any_card(spell):
    game = dealt(spell)
    first = game.starter
    assert game.pending == 4 and game.colour is None and game.waiting() == [first]
    game.apply(first, "draw")
    (second,) = game.waiting()
    assert second == (first + game.direction) % 4
    view = game.view(second)
    assert view["free"] is True
    assert playable(game, second) == set(game.hands[second])
    card = next(c for c in game.hands[second] if spell_of(c) != "MILWA")
    assert "name it with any card" in refused(game, second, f"play {card}")
    game.apply(second, f"play {card} B")
    assert game.colour == "B"


def give(game: Tiltowait, seat: int, card: str) -> None:
    """Put one ``card`` into ``seat``'s hand, trading that hand's first card to wherever the card was."""
    if card in game.hands[seat]:
        return
    for pile in [game.stock, *(h for i, h in enumerate(game.hands) if i != seat)]:
        if card in pile:
            i = pile.index(card)
            pile[i], game.hands[seat][0] = game.hands[seat][0], card
            return
    raise AssertionError(f"no {card} to give")


def test_a_turned_mahalito_cancelled_with_montino_still_leaves_the_colour_free():
    game = dealt("MAHALITO")
    first = game.starter
    give(game, first, "MONTINO")
    assert conserved(game)
    game.apply(first, "play MONTINO")
    assert game.colour is None and game.view((first + game.direction) % 4)["free"] is True


def test_a_turned_katino_puts_the_first_player_to_sleep():
    game = dealt("KATINO")
    first = game.starter
    assert game.asleep == first and game.waiting() == [(first - 1) % 4] and game.colour == colour_of(game.top)


def test_a_turned_tiltowait_makes_everyone_draw_two_then_the_next_player_names_the_colour():
    """The sheet: a turned spell takes effect on the first player, and when that player cannot name the colour
    "the next player discards any card and names the colour"; after a TILTOWAIT's draws "start from the next
    player". So once all have drawn, the player after the first plays, freely."""
    game = dealt("TILTOWAIT")
    first = game.starter
    second = (first - 1) % 4
    assert game.view(first)["next"] == NAMES[second]
    order = []
    while game.responders:
        (seat,) = game.waiting()
        order.append(seat)
        game.apply(seat, "draw")
    assert order == [(first - i) % 4 for i in range(4)]
    assert all(len(h) == 9 for h in game.hands)
    assert game.waiting() == [second] and game.view(second)["free"] is True
    assert legal(game, first) == []
    card = next(c for c in game.hands[second] if c != "MILWA")
    game.apply(second, f"play {card} G")
    assert game.colour == "G" and game.waiting() == [(second - 1) % 4]


def test_a_turned_tiltowait_answered_with_haman_by_the_first_player_names_the_next_players_colour():
    game = dealt("TILTOWAIT")
    first = game.starter
    give(game, first, "HAMAN")
    assert conserved(game)
    game.apply(first, "play HAMAN B")
    while game.responders:
        game.apply(game.waiting()[0], "draw")
    second = (first - 1) % 4
    assert game.colour == "B" and game.waiting() == [second] and game.view(second)["free"] is False


@pytest.mark.parametrize("spell", ["MILWA", "MONTINO", "HAMAN"])
def test_a_turned_milwa_montino_or_haman_lets_the_first_player_name_the_colour(spell):
    game = dealt(spell)
    first = game.starter
    assert game.colour is None and game.pending == 0 and game.waiting() == [first]
    assert all(len(a.args) >= 2 for a in game.legal_actions(first) if a.verb == "play")


# ---------------------------------------------------------------- draw one


def test_a_drawn_playable_card_may_be_played_at_once_or_kept():
    game = position(["R1", "B2"], "R5", draws=["R9"])
    game.apply(ANN, "draw")  # a playable R1 is held: drawing is still allowed
    assert game.view(ANN)["drawn"] == "R9" and legal(game, ANN) == ["play R9", "keep"]
    assert "you drew R9" in refused(game, ANN, "play R1")
    assert game.view(BOB)["drawn"] is None  # nobody else is told which card it is
    game.apply(ANN, "play R9")
    assert game.waiting() == [DAN]


def test_keeping_the_drawn_card_passes_the_turn():
    game = position(["R1", "B2"], "R5", draws=["R9"])
    game.apply(ANN, "draw")
    game.apply(ANN, "keep")
    assert sorted(game.hands[ANN]) == ["B2", "R1", "R9"] and game.waiting() == [DAN]


def test_a_drawn_card_that_cannot_be_played_ends_the_turn():
    game = position(["R1", "B2"], "R5", draws=["G9"])
    game.apply(ANN, "draw")
    assert game.drawn is None and game.waiting() == [DAN] and "G9" in game.hands[ANN]
    assert "keep is for a card you have just drawn" in refused(game, DAN, "keep")


# ---------------------------------------------------------------- the stock


def test_an_empty_stock_is_refilled_from_the_discards_but_the_top():
    game = position(["R1", "B2"], "R5", bob=["K4", "K5"])
    pile = game.stock[:]
    game.stock = []
    game.discard = [*pile, "R5"]
    events = game.apply(ANN, "draw")
    assert of_type(events, Reshuffled) == [Reshuffled(len(pile))]
    assert game.discard == ["R5"] and len(game.stock) == len(pile) - 1 and conserved(game)


def test_with_stock_and_discards_empty_a_player_draws_what_there_is():
    game = position(["HALITO-R", "R1", "R2"], "R5", dan=["K8"])
    game.hands[BOB] += game.stock[:-1]
    last = game.stock[-1]
    game.stock = [last]
    assert conserved(game)
    game.apply(ANN, "play HALITO-R")  # the discard pile is R5 + HALITO-R: one card to reshuffle
    events = game.apply(DAN, "draw")
    assert of_type(events, Reshuffled) == [Reshuffled(1)]
    assert of_type(events, Drew) == [Drew("Dan", 2, [last, "R5"], "attack")]
    assert game.stock == [] and game.discard == ["HALITO-R"] and game.waiting() == [CAT]
    events = game.apply(CAT, "draw")
    assert events == [Drew("Cat", 0, [], "draw")] and game.waiting() == [BOB] and conserved(game)


# ---------------------------------------------------------------- karuki


def test_a_player_caught_without_the_karuki_call_draws_two():
    game = position(["R1", "R2"], "R5")
    game.apply(ANN, "play R1")
    assert "karuki" in legal(game, ANN) and "catch Ann" in legal(game, BOB) and "catch Ann" in legal(game, DAN)
    events = game.apply(BOB, "catch ann")
    assert of_type(events, Caught) == [Caught("Ann", "Bob")]
    assert len(game.hands[ANN]) == 3 and "catch Ann" not in legal(game, CAT)
    assert game.waiting() == [DAN]  # a catch is not a move


def test_a_karuki_call_protects_the_last_card():
    game = position(["R1", "R2"], "R5")
    game.apply(ANN, "play R1")
    game.apply(ANN, "karuki")
    assert game.view(BOB)["players"][ANN]["karuki"] is True
    assert "catch Ann" not in legal(game, BOB)
    assert refused(game, DAN, "catch Ann") == "Ann called karuki"
    with pytest.raises(NotYourTurn):  # Bob has nothing to do at all: the engine never gets to say why
        game.apply(BOB, "catch Ann")


def test_once_the_next_player_acts_the_forgotten_call_goes_unpunished():
    game = position(["R1", "R2"], "R5", dan=["R8", "K8", "K9"])
    game.apply(ANN, "play R1")
    game.apply(DAN, "play R8")
    assert "catch Ann" not in legal(game, BOB) and "catch Ann" not in legal(game, CAT)
    assert "too late" in refused(game, CAT, "catch Ann")
    assert "karuki" in legal(game, ANN)  # a late call still may be made; it changes nothing


def test_karuki_is_called_with_the_discard_that_leaves_one_card():
    """Seed 003: the player says "karuki" as their hand comes down to its last card. Calling it with the
    discard leaves nobody a moment to catch a call that was made."""
    game = position(["R3", "K9"], "R5", dan=["R8", "K8", "K9"])
    assert legal(game, ANN) == ["play R3", "play R3 karuki", "draw"]
    events = game.apply(ANN, "play r3 KARUKI")
    assert game.log[-1] == (ANN, "play R3 karuki")
    assert [e.type for e in events] == ["card_played", "karuki"] and events[1] == Karuki("Ann")
    assert game.hands[ANN] == ["K9"] and game.view(BOB)["players"][ANN]["karuki"] is True
    assert not any(a.startswith("catch") for s in (BOB, CAT, DAN) for a in legal(game, s))
    assert "karuki" not in legal(game, ANN) and game.waiting() == [DAN]
    game.apply(DAN, "play R8")
    assert game.view(DAN)["players"][ANN]["karuki"] is True


@pytest.mark.parametrize(("hand", "top", "form"), [
    (["MAHALITO", "K1"], "R5", "play MAHALITO G karuki"),  # a colour-naming spell
    (["MILWA", "K1"], "R5", "play MILWA Cat B karuki"),
    (["R3", "K1"], "MONTINO", "play R3 karuki"),
])
def test_every_form_of_the_last_but_one_discard_may_carry_the_call(hand, top, form):
    game = position(hand, top, colour="R")
    assert form in legal(game, ANN)
    events = game.apply(ANN, form)
    assert of_type(events, Karuki) == [Karuki("Ann")] and ANN in game.called and game.exposed is None


def test_answers_and_drawn_cards_carry_the_call_too():
    game = position(["HALITO-R", "R1"], "R5", dan=["HAMAN", "K8"])
    game.apply(ANN, "play HALITO-R karuki")
    assert "play HAMAN B karuki" in legal(game, DAN) and "play HAMAN B" in legal(game, DAN)
    game.apply(DAN, "play HAMAN B karuki")
    assert game.called == {ANN, DAN}
    game = position(["R1", "B2"], "G5", draws=["G9"])
    game.apply(ANN, "draw")
    assert legal(game, ANN) == ["play G9", "keep"]  # three cards: the discard would leave two
    game = position(["B2"], "G5", draws=["G9"])
    game.apply(ANN, "draw")
    assert legal(game, ANN) == ["play G9", "play G9 karuki", "keep"]
    game.apply(ANN, "play G9 karuki")
    assert game.hands[ANN] == ["B2"] and ANN in game.called


def test_the_prompt_after_drawing_does_not_take_karuki_for_a_colour():
    from mudwiz.games.tiltowait.render import prompt
    from mudwiz.render.style import Style

    game = position(["B2"], "G5", draws=["G9"])
    game.apply(ANN, "draw")
    assert prompt(game.view(ANN), Style(colour=False)) == " You drew G9: /play G9 or /keep."


def test_karuki_with_a_discard_is_refused_unless_it_leaves_one_card():
    game = position(["R1", "R2", "R3"], "R5")
    assert "play R1 karuki" not in legal(game, ANN)
    assert "leaves you one card" in refused(game, ANN, "play R1 karuki")
    game = position(["R1", "G2"], "R5")
    assert "G2 does not match" in refused(game, ANN, "play G2 karuki")


def test_karuki_with_more_than_one_card_is_refused():
    game = position(["R1", "R2", "R3"], "R5")
    assert "one card left, and you hold 3" in refused(game, ANN, "karuki")


# ---------------------------------------------------------------- going out


@pytest.mark.parametrize("spell", ["MAHALITO", "MADALTO", "MILWA", "MONTINO", "HAMAN"])
def test_these_spells_cannot_be_the_last_card(spell):
    game = position([spell], "R5")
    assert legal(game, ANN) == ["draw", "karuki"]
    extra = {"MILWA": " Bob R", "MONTINO": "", "HAMAN": " R"}.get(spell, " R")
    assert "cannot be your last card" in refused(game, ANN, f"play {spell}{extra}")


@pytest.mark.parametrize("spell", ["MONTINO", "HAMAN"])
def test_montino_and_haman_may_go_out_answering_milwa(spell):
    game = position(["MILWA", "R1"], "G5", bob=[spell])
    game.apply(ANN, "play MILWA Bob R")
    events = game.apply(BOB, f"play {spell}" + (" G" if spell == "HAMAN" else ""))
    (end,) = of_type(events, RoundEnd)
    assert end.winner == "Bob" and game.phase == "roundend"


@pytest.mark.parametrize("spell", ["MONTINO", "HAMAN"])
def test_montino_and_haman_may_go_out_answering_a_tiltowait_draw(spell):
    game = position(["TILTOWAIT", "R1"], "R5", dan=[spell])
    game.apply(ANN, "play TILTOWAIT R")
    events = game.apply(DAN, f"play {spell}" + (" G" if spell == "HAMAN" else ""))
    assert of_type(events, RoundEnd)[0].winner == "Dan"
    assert len(game.hands[CAT]) == 2  # the hand is over: the later TILTOWAIT draws are not made


@pytest.mark.parametrize("spell", ["MONTINO", "HAMAN"])
def test_montino_and_haman_may_not_go_out_answering_a_draw(spell):
    game = position(["HALITO-R", "R1", "R2"], "R5", dan=[spell])
    game.apply(ANN, "play HALITO-R")
    assert legal(game, DAN) == ["draw", "karuki"]
    assert "cannot be your last card" in refused(game, DAN, f"play {spell}" + (" G" if spell == "HAMAN" else ""))


def test_going_out_with_an_attack_applies_it_first():
    game = position(["HALITO-R"], "R5", dan=["K8", "K9"], draws=["B1", "B2"])
    events = game.apply(ANN, "play HALITO-R")
    assert of_type(events, Drew) == [Drew("Dan", 2, ["B1", "B2"], "attack")]
    (end,) = of_type(events, RoundEnd)
    assert {r["player"]: r["delta"] for r in end.results} == {"Ann": 0, "Bob": -9, "Cat": -13, "Dan": -20}


def test_going_out_with_a_stacked_halito_makes_the_next_draw_the_sum():
    game = position(["HALITO-R", "R1"], "R5", dan=["HALITO-G"], cat=["K6"])
    game.apply(ANN, "play HALITO-R")
    events = game.apply(DAN, "play HALITO-G")
    assert of_type(events, Drew)[0].count == 4 and of_type(events, RoundEnd)[0].winner == "Dan"
    assert len(game.hands[CAT]) == 5


def test_going_out_with_tiltowait_makes_every_other_player_draw_two():
    game = position(["TILTOWAIT"], "R5", bob=["MONTINO"])
    events = game.apply(ANN, "play TILTOWAIT R")
    assert [(d.player, d.count) for d in of_type(events, Drew)] == [("Dan", 2), ("Cat", 2), ("Bob", 2)]
    assert of_type(events, RoundEnd)[0].winner == "Ann"


def test_going_out_with_katino_ends_the_hand():
    game = position(["KATINO-R"], "R5")
    events = game.apply(ANN, "play KATINO-R")
    assert not of_type(events, Asleep) and of_type(events, RoundEnd)[0].winner == "Ann"


# ---------------------------------------------------------------- scoring


def test_hand_score_is_minus_the_points_doubled_once_by_tiltowait():
    assert hand_score(["R7", "K10"]) == -17
    assert hand_score(["HALITO-R", "DALTO-K", "KATINO-B"]) == -60
    assert hand_score(["MAHALITO", "MADALTO", "MILWA"]) == -120
    assert hand_score(["MONTINO", "HAMAN"]) == -60
    assert hand_score(["TILTOWAIT", "R3"]) == -86
    assert hand_score(["TILTOWAIT", "TILTOWAIT"]) == -160
    assert hand_score([]) == 0


def test_the_hand_is_scored_and_the_winner_starts_the_next_hand():
    game = position(["R1"], "R5", bob=["TILTOWAIT", "B2"], cat=["MONTINO", "HALITO-K"], dan=["K10", "R10"])
    events = game.apply(ANN, "play R1")
    (end,) = of_type(events, RoundEnd)
    assert [(r["player"], r["delta"], r["doubled"]) for r in end.results] == [
        ("Ann", 0, False), ("Bob", -84, True), ("Cat", -50, False), ("Dan", -20, False)]
    assert game.scores == [0, -84, -50, -20] and game.sheet[-1]["winner"] == "Ann"
    assert game.waiting() == [] and legal(game, BOB) == []
    game.starter = CAT  # this hand's starter; the next hand's is the winner
    events = game.advance()
    assert game.round == 2 and game.starter == ANN and events[0].to_dict()["starter"] == "Ann"
    assert game.direction == (CW if spell_of(game.top) in ("DALTO", "MADALTO") else CCW)


# ---------------------------------------------------------------- options and the match


def play_out(game: Tiltowait, rng: random.Random) -> None:
    """Random legal moves (plays preferred) until the match ends."""
    while not game.finished:
        if game.phase == "roundend":
            game.advance()
            continue
        (seat,) = game.waiting()
        actions = [a for a in game.legal_actions(seat) if a.verb in ("play", "draw", "keep")]
        plays = [a for a in actions if a.verb == "play"]
        game.apply(seat, rng.choice(plays or actions))


def test_the_match_is_five_hands_by_default():
    game = Tiltowait(3, {}, seed=2)
    assert game.options == {"hands": None, "limit": None, "milwa": "table"} and game.view(0)["rounds"] == 5
    play_out(game, random.Random(2))
    assert len(game.sheet) == 5


def test_hands_sets_the_number_of_hands():
    game = Tiltowait(3, {"hands": "2"}, seed=2)
    play_out(game, random.Random(2))
    assert len(game.sheet) == 2 and game.phase == "gameover"


def test_limit_ends_the_match_when_a_total_reaches_the_floor():
    game = Tiltowait(3, {"limit": "-150"}, seed=4)
    assert game.view(0)["rounds"] is None
    play_out(game, random.Random(4))
    totals = [[r["score"] for r in entry["results"]] for entry in game.sheet]
    assert min(totals[-1]) <= -150 and all(min(t) > -150 for t in totals[:-1])


def test_a_total_exactly_at_the_floor_ends_the_match():
    game = position(["R1"], "R5", dan=["K10", "R10"], options={"limit": -20})
    events = game.apply(ANN, "play R1")
    assert game.scores[DAN] == -20 and game.phase == "gameover" and of_type(events, GameEnd)


def test_a_total_above_the_floor_plays_on():
    game = position(["R1"], "R5", dan=["K10", "R9"], options={"limit": -20})
    game.apply(ANN, "play R1")
    assert game.scores[DAN] == -19 and game.phase == "roundend"


def test_the_highest_total_wins_and_ties_share_a_place():
    game = position(["R1"], "R5", bob=["B2"], cat=["G2"], dan=["K8"], options={"hands": 1})
    events = game.apply(ANN, "play R1")
    (end,) = of_type(events, GameEnd)
    assert [(s["player"], s["place"]) for s in end.standings] == [("Ann", 1), ("Bob", 2), ("Cat", 2), ("Dan", 4)]


@pytest.mark.parametrize(("options", "message"), [
    ({"hands": 3, "limit": -100}, "choose one"),
    ({"hands": 0}, "from 1 to 100"),
    ({"limit": 100}, "from -100000 to -1"),
    ({"limit": "low"}, "whole number"),
    ({"rounds": 3}, "no option"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(BadOption, match=message):
        Tiltowait(4, options, seed=0)


def test_players_are_three_to_ten():
    Tiltowait(3, {}, seed=0)
    Tiltowait(10, {}, seed=0)
    for n in (2, 11):
        with pytest.raises(BadOption):
            Tiltowait(n, {}, seed=0)


def test_a_replay_from_the_log_gives_the_same_events():
    game = Tiltowait(NAMES, {"hands": 2}, seed=9)
    rng = random.Random(9)
    events: list[Event] = list(game.start_events)
    while not game.finished:
        if game.phase == "roundend":
            events += game.advance()
            continue
        (asked,) = game.waiting()
        plays = [a for a in game.legal_actions(asked) if a.verb == "play"]
        if plays and rng.random() < 0.8:
            seat, action = asked, rng.choice(plays)
        else:  # anything anyone may do: draws, keeps, karuki calls and catches too
            seat, action = rng.choice([(s, a) for s in range(4) for a in game.legal_actions(s)])
        events += game.apply(seat, action)
    again, replayed = Tiltowait.replay(NAMES, {"hands": 2}, 9, game.log)
    assert isinstance(again, Tiltowait)
    assert any(isinstance(e, Caught) for e in events) or any(a.endswith("karuki") for _, a in game.log)
    assert replayed == events and again.scores == game.scores and again.hands == game.hands


# ---------------------------------------------------------------- what is typed, and what is seen


@pytest.mark.parametrize(("typed", "canonical"), [
    ("play r7", "play R7"), ("PLAY k10", "play K10"), ("play halito-r", "play HALITO-R"),
    ("play halito r", "play HALITO-R"), ("play Mahalito red", "play MAHALITO R"), ("play haman Gold", "play HAMAN G"),
    ("play milwa BOB b", "play MILWA Bob B"), ("catch dan", "catch Dan"), ("Draw", "draw"),
])
def test_codes_colours_and_names_are_read_case_insensitively(typed, canonical):
    game = Tiltowait(NAMES, {}, seed=0)
    from mudwiz.cards import Action

    assert str(game.normalize(Action.parse(typed))) == canonical


@pytest.mark.parametrize(("typed", "message"), [
    ("play KATINO", "has a colour"), ("play R11", "not a Tiltowait card"), ("play R7 purple", "not a colour"),
    ("play R7 G B", "usage"), ("draw 2", "usage"), ("bid 3", "not a Tiltowait move"), ("catch", "usage"),
])
def test_malformed_moves_say_how_to_write_them(typed, message):
    game = Tiltowait(NAMES, {}, seed=0)
    with pytest.raises(IllegalAction, match=message):
        game.apply(game.waiting()[0], typed)


def test_an_idle_player_is_told_whose_turn_it_is():
    game = position(["R1", "R2"], "R5")
    with pytest.raises(NotYourTurn, match="waiting for Ann"):
        game.apply(BOB, "draw")


def test_views_show_counts_not_cards_and_observers_see_no_hand():
    game = position(["R1", "R2"], "R5", bob=["B4", "B5", "B6"])
    view = game.view(ANN)
    assert view["hand"] == ["R1", "R2"]
    assert [p["held"] for p in view["players"]] == [2, 3, 2, 2]
    assert set(view["players"][0]) == {"name", "held", "score", "asleep", "karuki"}
    assert view["top"] == "R5" and view["colour"] == "R" and view["direction"] == "ccw" and view["pending"] == 0
    assert view["turn"] == "Ann" and view["waiting"] == ["Ann"] and view["legal"][0] == "play R1"
    observer = game.view(None)
    assert observer["hand"] == [] and observer["legal"] == [] and observer["you"] is None
    assert "B4" not in repr(game.view(ANN)) and "B4" not in repr(observer)


def test_drawn_cards_are_seen_only_by_the_drawer():
    event = Drew("Ann", 2, ["R1", "MILWA"], "attack")
    assert event.visible_to("Ann") is event
    assert event.visible_to("Bob") == Drew("Ann", 2, None, "attack")
    assert event.visible_to(None) == Drew("Ann", 2, None, "attack")


def test_the_answer_prompts_name_only_moves_the_server_takes() -> None:
    """'TILTOWAIT: /draw 2, or cancel: ... /play HAMAN COLOUR' to a player holding no HAMAN: /draw 2 was refused
    (/draw takes no number), and the HAMAN could not be played (found by a probe)."""
    from mudwiz.games.tiltowait.render import prompt
    from mudwiz.render.style import Style

    asked = {"phase": "play", "you": "a", "waiting": ["a"], "answer": {"spell": "TILTOWAIT", "draw": 2}}
    shown = prompt({**asked, "legal": ["draw", "play MONTINO"]}, Style.for_mode("ascii"))
    assert shown == " TILTOWAIT: /draw (2 cards), or cancel: /play MONTINO."
    milwa = {**asked, "answer": {"spell": "MILWA", "draw": 0}, "legal": ["keep"]}
    assert prompt(milwa, Style.for_mode("ascii")) == " MILWA: /keep shows your hand."


def test_the_rows_run_from_the_player_to_play_in_the_direction_play_goes() -> None:
    """In seat order, counter-clockwise play ran from the top row to the bottom one (found by a probe)."""
    from mudwiz.games.tiltowait.render import play_order

    players = [{"name": n} for n in ("a", "b", "c", "d", "e")]
    names = lambda view: [p["name"] for p in play_order(view)]  # noqa: E731
    assert names({"players": players, "next": "c", "direction": "ccw"}) == ["c", "b", "a", "e", "d"]
    assert names({"players": players, "next": "c", "direction": "cw"}) == ["c", "d", "e", "a", "b"]
    assert names({"players": players, "next": None, "direction": "ccw"}) == ["a", "b", "c", "d", "e"]


def test_a_draw_prompt_offers_only_the_answers_this_hand_has() -> None:
    """'stack or cancel: /play CARD (marked)' was said with nothing marked and /draw the only move."""
    from mudwiz.games.tiltowait.render import prompt
    from mudwiz.render.style import Style

    asked = {"phase": "play", "you": "a", "waiting": ["a"], "answer": {"spell": "HALITO", "draw": 2}}
    ascii_ = Style.for_mode("ascii")
    assert prompt({**asked, "legal": ["draw"]}, ascii_) == " Draw 2: /draw (nothing to stack or cancel with)."
    stack = prompt({**asked, "legal": ["draw", "play HALITO-R"]}, ascii_)
    assert stack == " Draw 2: /draw, or stack: /play CARD (marked)."
    assert prompt({**asked, "legal": ["draw", "play MONTINO"]}, ascii_) == " Draw 2: /draw, or cancel: /play MONTINO."
    both = prompt({**asked, "legal": ["draw", "play HALITO-R", "play MONTINO"]}, ascii_)
    assert both == " Draw 2: /draw, or stack or cancel: /play CARD (marked)."
