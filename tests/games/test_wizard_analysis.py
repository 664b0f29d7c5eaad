"""The coach after a Wizard game (mudwiz/games/wizard/analysis.py): judged from the seat's own views alone,
repeatable, a round alone as in the whole game, the player's own bids read back, costly cards only where the
bot's card is worth a trick more over the same deals; and its drawing fits 80 columns, in English and Japanese."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from mudwiz.errors import BadCommand
from mudwiz.games.wizard.analysis import COST, Decision, analyse, analyse_views, decisions
from mudwiz.games.wizard.analysis_view import analysis_lines
from mudwiz.games.wizard.bots import WizardGood
from mudwiz.games.wizard.engine import Wizard
from mudwiz.render.style import Style, visible_len
from mudwiz.slices import finish
from mudwiz.texts import speaking

PLAYERS = ["alice", "bob", "cy"]


def played(seed: int, rounds: int = 5) -> Wizard:
    """A game played to its end: alice at random, the others as the ``normal`` bot with few deals (quick)."""
    game = Wizard(PLAYERS, {"rounds": rounds}, seed)
    rng = random.Random(seed)
    bots = [None, WizardGood("wizard", random.Random(1), max_samples=30),
            WizardGood("wizard", random.Random(2), max_samples=30)]
    while not game.finished:
        waiting = game.waiting()
        if not waiting:
            game.advance()
            continue
        seat = waiting[0]
        bot = bots[seat]
        view = game.view(seat)
        game.apply(seat, bot.choose(view) if bot is not None else rng.choice(view["legal"]))
    return game


@pytest.fixture(scope="module")
def game() -> Wizard:
    return played(11)


@pytest.fixture(scope="module")
def whole(game: Wizard) -> dict[str, Any]:
    return finish(analyse(game.players, game.options, game.seed, game.log, 0, samples=40))


def test_the_analysis_is_made_from_the_seats_views_alone(game: Wizard, whole: dict[str, Any]) -> None:
    """Given nothing but what alice saw (her views, copied: no engine, no seed's deal), it reads the same as the
    hook that replays the record; and what it was given holds no card of another player's hand."""
    made, end = decisions(game.players, game.options, game.seed, game.log, 0)
    assert made and all(d.view["you"] == "alice" for d in made)
    for d in made:
        assert set(d.view) >= {"hand", "trick", "legal"} and not any("cards" in p for p in d.view["players"])
        assert "hands" not in d.view  # an observer's revealed view has every hand; a seat's has its own only
    views_only = [Decision(copy.deepcopy(d.view), d.action) for d in made]
    assert finish(analyse_views(views_only, copy.deepcopy(end), seed=game.seed, samples=40)) == whole


def test_it_is_repeatable_and_a_round_alone_reads_as_in_the_whole_game(game: Wizard, whole: dict[str, Any]) -> None:
    assert finish(analyse(game.players, game.options, game.seed, game.log, 0, samples=40)) == whole
    alone = finish(analyse(game.players, game.options, game.seed, game.log, 0, 3, samples=40))
    assert alone["rounds"] == [whole["rounds"][2]]


def test_each_round_has_the_players_bid_the_bots_and_what_it_expected(game: Wizard, whole: dict[str, Any]) -> None:
    assert [r["round"] for r in whole["rounds"]] == [1, 2, 3, 4, 5]
    for row, entry in zip(game.sheet, whole["rounds"], strict=True):
        mine = next(r for r in row["results"] if r["player"] == "alice")
        bid = entry["bid"]
        assert (bid["yours"], entry["taken"], entry["score"]) == (mine["bid"], mine["tricks"], mine["delta"])
        assert 0 <= bid["hard"] <= entry["cards"]
        assert 0 <= bid["expected"]["hard"] <= entry["cards"]
        assert entry["choices"] <= entry["cards"]


def test_a_costly_card_is_one_the_bot_would_not_play_worth_a_trick_more() -> None:
    listed = []
    for seed in range(3):
        game = played(seed, rounds=6)
        result = finish(analyse(game.players, game.options, game.seed, game.log, 0, samples=40))
        listed += [play for r in result["rounds"] for play in r["plays"]]
    assert listed, "a random player's cards never cost a trick in 18 rounds"
    for play in listed:
        assert play["yours"] != play["hard"] and play["cost"] >= COST
        assert play["cost"] == pytest.approx(play["points"]["hard"] - play["points"]["yours"], abs=0.02)


def test_a_round_the_game_did_not_have_is_refused(game: Wizard) -> None:
    with pytest.raises(BadCommand, match="rounds 1 to 5, not 9") as refused:
        finish(analyse(game.players, game.options, game.seed, game.log, 0, 9))
    assert refused.value.code == "no-round"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_drawing_fits_80_columns(whole: dict[str, Any], lang: str) -> None:
    message = {"type": "analysis", "id": 7, "game": "wizard", "date": "2026-12-06T20:00:00Z", "round": None,
               "seats": [{"player": "alice", **whole}]}
    for style in (Style(), Style.for_mode("ascii")):
        with speaking(lang):
            lines = analysis_lines(message, style)
        assert all(visible_len(line) <= 80 for line in lines), lines
        assert "#7" in lines[0] and len([line for line in lines if line.lstrip().startswith(tuple("12345"))]) >= 5
