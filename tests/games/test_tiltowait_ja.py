"""Tiltowait in Japanese, off the wire: the catalog's words are the rules page's (``NAMES_JA``), a move's usage stays
as it is typed, and every line the renderer draws for a Japanese reader fits 80 terminal cells all through random
games, while the English reader's lines stay as they were."""

from __future__ import annotations

import random

import pytest
from wcwidth import wcswidth

from mudwiz.games.tiltowait import render
from mudwiz.games.tiltowait.cards import COLOUR_NAMES, colour_text
from mudwiz.games.tiltowait.engine import Tiltowait
from mudwiz.games.tiltowait.rules_ja import NAMES_JA
from mudwiz.games.tiltowait.texts import TEXTS
from mudwiz.render.style import Style, strip_ansi
from mudwiz.texts import speaking


def test_the_colours_and_spells_are_named_as_the_japanese_rules_page_names_them() -> None:
    for letter in COLOUR_NAMES:
        assert colour_text(letter).into("ja") == NAMES_JA[letter]
        assert colour_text(letter).into("en") == COLOUR_NAMES[letter]
    with speaking("ja"):
        assert render.card_name("HALITO-R") == "ハリト(HALITO-R)"
        assert render.card_name("MAHALITO") == "マハリト(MAHALITO)"
        assert render.card_name("R7") == "R7"  # a monster is its code
    assert render.card_name("HALITO-R") == "HALITO-R"  # English names a spell by its code


def test_each_move_s_japanese_help_keeps_its_usage_as_typed() -> None:
    """The core reads a move's usage before the colon (``usage: /play CARD [COLOUR] [karuki]``): a translation
    that changed it would tell a Japanese player to type what no server reads."""
    for usage in Tiltowait.VERBS.values():
        japanese = TEXTS.catalog("ja").gettext(usage)
        assert japanese != usage
        assert japanese.split(":")[0] == usage.split(":")[0]


def lines_of(game: Tiltowait, events: list, style: Style) -> list[str]:
    lines = [line for seat in range(len(game.players)) for line in render.table_view(game.view(seat), style)]
    lines += render.table_view(game.view(None), style) + render.score_sheet(game.view(0), style)
    return lines + [line for event in events for line in render.event_lines(event, style)]


def a_move(game: Tiltowait, seat: int, rng: random.Random) -> str:
    """A random legal move, a discard rather than a draw (as a person plays: the hand ends sooner)."""
    moves = [str(a) for a in game.legal_actions(seat)]
    return rng.choice([m for m in moves if m.startswith("play")] or moves)


@pytest.mark.parametrize("seed", range(4))
def test_every_japanese_line_fits_80_cells_through_a_random_game(seed: int) -> None:
    names = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"][: 3 + seed % 4]
    if seed % 2:  # names of ten characters: the longest lines (a spell by one, aimed at another)
        names = [f"{name:x<10}" for name in names]
    game = Tiltowait(names, {"hands": 2}, seed=seed)
    rng = random.Random(seed)
    events = list(game.start_events)
    seen: set[str] = set()
    for step in range(5000):
        if game.phase == "gameover":
            break
        if game.phase == "roundend":
            events += game.advance()
            continue
        seat = game.waiting()[0]
        events += game.apply(seat, a_move(game, seat, rng))
        with speaking("ja"):
            for style in (Style.for_mode("ansi"), Style.for_mode("ascii"))[: 1 + (step % 10 == 0)]:
                for line in lines_of(game, events[-8:], style):
                    assert wcswidth(strip_ansi(line)) <= 80, line
                    seen.add(strip_ansi(line))
    assert game.phase == "gameover"
    shown = "\n".join(seen)
    assert "第 1 ハンドの結果" in shown and "が上がりました！" in shown and "あなたの番" in shown
