"""A first check of the Wizard engine: a seeded random game runs to its end with the right round count."""

import random

from mudwiz.games.wizard import Wizard


def test_random_game_reaches_the_end():
    game = Wizard(4, {}, seed=1)
    rng = random.Random(1)
    while not game.finished:
        if game.phase == "roundend":
            game.advance()
            continue
        seat = game.waiting()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert game.round == 15
    assert len(game.sheet) == 15
