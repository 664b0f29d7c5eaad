"""Replaying a Wizard game from its seed, options and log rebuilds it event for event.

The table keeps only (seed, options, log) to restore or audit a game, so a replay must reproduce every event
and every seat's view exactly, also part-way through a game and with the options that hide information.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from mudwiz.errors import IllegalAction
from mudwiz.games.base import Event
from mudwiz.games.wizard import Wizard

PLAYERS = ["ann", "bob", "cy", "di", "ed"]


def play(game: Wizard, rng: random.Random, steps: int | None = None) -> list[Event]:
    """Random legal moves (any waiting seat under hidden bids), typed sloppily, until the end or ``steps``."""
    events = list(game.start_events)
    while not game.finished and steps != 0:
        if game.phase == "roundend":
            events += game.advance()
        else:
            seat = rng.choice(game.waiting())
            text = str(rng.choice(game.legal_actions(seat)))
            events += game.apply(seat, rng.choice([text, text.lower(), "/" + text.upper()]))
        steps = None if steps is None else steps - 1
    return events


def views(game: Wizard) -> list[dict[str, Any]]:
    return [game.view(seat) for seat in [*range(len(game.players)), None]]


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [
        (PLAYERS[:4], {}, 11),
        (PLAYERS[:3], {"notequal": True, "clairvoyance": True, "rounds": 7}, 12),
        (PLAYERS[:5], {"hiddentip": True, "tournament": True}, 13),
        (PLAYERS[:4], {"secretbid": True, "clairvoyance": True, "tournament": True}, 14),
        (PLAYERS[:5], {"hiddentip": True, "clairvoyance": True}, 15),
        (6, {"secretbid": True, "rounds": 4}, 16),
    ],
)
def test_replay_gives_identical_events_and_views(players: Any, options: dict[str, Any], seed: int) -> None:
    game = Wizard(players, options, seed)
    events = play(game, random.Random(seed))
    assert game.finished and any(seat is None for seat, _ in game.log)  # the /ok steps are logged too
    again, replayed = Wizard.replay(players, options, seed, list(game.log))
    assert [e.to_dict() for e in replayed] == [e.to_dict() for e in events]
    assert views(again) == views(game)
    assert again.log == game.log


@pytest.mark.parametrize("cut", [0, 1, 7, 40, 111])
def test_replay_part_way_matches_the_live_game(cut: int) -> None:
    """A game interrupted at any step (mid-bidding, mid-trick, at a round-end pause) is restored exactly,
    and both copies then go on identically."""
    options = {"hiddentip": True, "rounds": 6}
    game = Wizard(4, options, seed=cut)
    events = play(game, random.Random(cut), steps=cut)
    again, replayed = Wizard.replay(4, options, cut, list(game.log))
    assert [e.to_dict() for e in replayed] == [e.to_dict() for e in events]
    assert views(again) == views(game)
    go_on = [[e.to_dict() for e in play(copy, random.Random(99))] for copy in (game, again)]
    assert go_on[0] == go_on[1]
    assert views(again) == views(game) and again.finished


def test_replay_depends_on_the_seed() -> None:
    """The check above is not vacuous: the same log under another seed does not replay (cards differ)."""
    game = Wizard(4, {}, seed=5)
    play(game, random.Random(5))
    other = Wizard(4, {}, seed=6)
    assert other.hands != Wizard(4, {}, seed=5).hands
    with pytest.raises(IllegalAction):  # a card not held, a bid out of turn...
        Wizard.replay(4, {}, 6, list(game.log))
