"""A first check of the Wizard engine: a seeded random game runs to its end with the right round count."""

import random

from mudwiz.games.wizard.cards import round_score
from mudwiz.games.wizard.engine import Wizard
from mudwiz.games.wizard.render import table_view
from mudwiz.render.style import Style


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


def test_the_now_column_projects_a_round_while_it_is_played_and_never_counts_it_twice():
    """``(now)`` is the score if the round ended as it stands: once it has ended, its result is in the score, and
    the column is blank (it once added the round again: ``30 (60)`` for a bid of 1 made)."""
    game = Wizard(4, {}, seed=3)
    rng = random.Random(3)
    style = Style.for_mode("ascii")
    seen = {"scored": 0, "playing": 0}
    while True:
        view = game.view(0)
        rows = [line for line in table_view(view, style) if any(line[3:].startswith(p) for p in game.players)]
        for p in view["players"]:
            row = next(r for r in rows if r[3:].startswith(p["name"]))
            if game.phase in ("roundend", "gameover"):  # the last round's end is the game's
                assert p["projected"] is None and "(" not in row, row
                seen["scored"] += 1
            elif game.phase == "playing" and p["bid"] is not None:
                assert p["projected"] == p["score"] + round_score(p["bid"], p["tricks"])
                assert f"({p['projected']})" in row, row
                seen["playing"] += 1
        if game.finished:
            break
        if game.phase == "roundend":
            game.advance()
            continue
        seat = game.waiting()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert seen["scored"] == 15 * 4 and seen["playing"] > 0


def test_the_now_column_is_explained_under_the_rows_within_80_columns_in_ascii_too():
    """``(now)`` headed a column nothing explained: a line under the rows says what it is, while it has figures."""
    game = Wizard(4, {}, seed=3)
    rng = random.Random(3)
    explained = "(now): the score if the round ended with the tricks taken so far."
    shown = 0
    while not game.finished and shown < 5:
        view = game.view(0)
        for style in (Style.for_mode("ascii"), Style.for_mode("ansi"), Style.for_mode("ascii", 50)):
            lines = table_view(view, style)
            text = " ".join(" ".join(line.split()) for line in lines)
            projecting = any(p["projected"] is not None for p in view["players"])
            assert (explained in text) == projecting, lines
            assert all(len(line) <= style.width for line in lines if style.width != 80 or not style.colour)
        shown += projecting
        if game.phase == "roundend":
            game.advance()
            continue
        seat = game.waiting()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert shown == 5
