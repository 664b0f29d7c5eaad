"""The generic renderer draws every built-in game (views and events it was not written for) within 80 columns, in
plain ASCII when asked: what a plugin game without a renderer of its own can count on."""

from __future__ import annotations

import random

import pytest

from mudwiz.bots.randombot import RandomBot
from mudwiz.games import available, game_class
from mudwiz.render import generic
from mudwiz.render.ansi import draw, game_renderer
from mudwiz.render.style import Style, visible_len

STYLES = {"ascii": Style.for_mode("ascii"), "ansi": Style()}


@pytest.mark.parametrize("game", available())
def test_any_game_is_drawn_in_80_columns(game: str) -> None:
    cls = game_class(game)
    g = cls(cls.min_players if game != "tiltowait" else 6, None, 5)
    bot, events, views = RandomBot(game, random.Random(game)), list(g.start_events), []
    for _ in range(400):
        if g.finished:
            break
        if g.phase == "roundend":
            events += g.advance()
            continue
        seat = g.waiting()[0]
        views += [g.view(seat), g.view(None)]
        events += g.apply(seat, bot.choose(views[-2]))
    for mode, style in STYLES.items():
        lines = [line for v in views for line in generic.table_view(v, style)]
        lines += [line for v in views[-2:] for line in generic.score_sheet(v, style)]
        lines += [line for e in events for line in generic.event_lines(e, style)]
        assert [line for line in lines if visible_len(line) > 80] == []
        if mode == "ascii":
            assert all(line.isascii() and "\x1b" not in line for line in lines)
    assert any("Your turn: /" in line for v in views for line in generic.table_view(v, STYLES["ascii"]))


def test_a_game_without_a_renderer_or_with_a_part_missing_is_drawn_generically() -> None:
    assert game_renderer("no-such-game") is generic
    assert game_renderer("wizard").__name__ == "mudwiz.games.wizard.render"
    assert draw("wizard", "table_view") is game_renderer("wizard").table_view
    assert draw("wizard", "sentence") is generic.sentence  # a part Wizard's renderer leaves out
    message = {"type": "spell_cast", "table": 1, "game": "nogame", "player": "ann", "power": 3}  # as delivered
    assert generic.event_lines(message, STYLES["ascii"]) == ["ann: spell cast (power 3)."]
