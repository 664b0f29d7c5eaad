"""The source documents' own worked examples (``shared/seeds``), played through the engines as written there.

The five fire-point examples of seed 004 that ``tests/games/test_witches_rules.py`` already has (fire witch with five
and with nine fire cards, three fire cards with the water and earth witch, the fire witch with two and the
earth witch, pygmy queen with the water and air witch) and its earth=carry example are not repeated here.
"""

from __future__ import annotations

import pytest
from witches_helpers import REDS, in_order, play_out, rig

from mudwiz.errors import IllegalAction
from mudwiz.games.witches.cards import fire_points
from mudwiz.games.witches.engine import RoundEnd, SpellCast, Witches
from mudwiz.games.wizard import Wizard

# ---------------------------------------------------------------- seed 002: Wizard, /option notequal


def test_002_notequal_example_round_5_three_players() -> None:
    """"Round 5 (five cards each), three players: A bids 1 and B bids 2, so C, the last to bid, may not bid 2
    (the bids would add up to 5)." Rounds 1 to 4 are played out first, as a real game reaches round 5."""
    game = Wizard(["P1", "P2", "P3"], {"notequal": True}, seed=5)
    while game.round < 5:
        if game.phase == "roundend":
            game.advance()
            continue
        seat = game.waiting()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    if game.phase == "trump":
        game.apply(game.dealer, "trump R")
    a, b, c = game.bid_order()
    assert game.size == 5 and c == game.dealer
    game.apply(a, "bid 1")
    game.apply(b, "bid 2")
    assert [str(x) for x in game.legal_actions(c)] == ["bid 0", "bid 1", "bid 3", "bid 4", "bid 5"]
    with pytest.raises(IllegalAction, match="notequal: you may not bid 2, the bids would add up to the 5 cards"):
        game.apply(c, "bid 2")
    game.apply(c, "bid 3")
    assert game.phase == "playing"


# ---------------------------------------------------------------- seed 004: Witches


def test_004_uwe_three_fire_cards_score_3() -> None:
    """"Uwe holds three fire cards (not the fire witch): 3 fire points.\""""
    assert fire_points(["R3", "R8", "R13"]) == 3


def test_004_pygmy_spell_example_ignores_the_others_witches() -> None:
    """"Uwe ends the hand with all 14 fire cards and the pygmy queen and casts the pygmy spell: Uwe scores 0 and
    every other player 25. Alexa's air and earth witch and Joe's water witch lose their powers." Uwe leads out
    his reds and top greens; Alexa and Joe take the last three tricks, Alexa with the air and the earth witch,
    Joe with the water witch."""
    names = ["Uwe", "Alexa", "Joe"]
    game = next(g for g in (Witches(names, {}, seed=s) for s in range(100)) if g.leader == 0)
    uwe = [*REDS, "G12", "G13", "G14", "W", "W", "W"]
    alexa_dumps = [*(f"Y{n}" for n in range(2, 11)), "Y12", "Y13", "Y14", "B12", "B13"]
    alexa = [*alexa_dumps, "G2", "G3", "G4", "B11", "Y11", "G1"]
    joe_dumps = ["G8", "G9", "G10", *(f"B{n}" for n in range(2, 11)), "B14", "W"]
    joe = [*joe_dumps, "G5", "G6", "G7", "B1", "Y1", "G11"]
    assert rig(game, [uwe, alexa, joe]) == [0, 1, 2]
    events = play_out(game, {0: in_order([*REDS[::-1], "G14", "G13", "G12", "W", "W", "W"]),
                             1: in_order(alexa), 2: in_order(joe)})
    assert {"B11", "Y11"} <= set(game.won[1]) and "G11" in game.won[2]  # the witches the spell overrides
    assert fire_points(game.won[1]) == 0 and fire_points(game.won[2]) == 5  # what they would score without it
    assert [e for e in events if isinstance(e, SpellCast)] == [SpellCast("Uwe", 25, False)]
    (end,) = [e for e in events if isinstance(e, RoundEnd)]
    assert {r["player"]: (r["points"], r["delta"]) for r in end.results} == {
        "Uwe": (0, 0), "Alexa": (25, 25), "Joe": (25, 25)}
