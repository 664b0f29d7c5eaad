"""Witches read in Japanese: the catalog names the cards and colours as the Japanese rules page does, and every
line the renderer draws for a reader of Japanese fits the width it is given, a wide character counted twice.

The games are played through the engine itself with random legal moves (a seed each), and drawn for a seat as the
server draws them, inside ``speaking("ja")``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from wcwidth import wcswidth

from mudwiz.games.base import Phase
from mudwiz.games.witches import client, render
from mudwiz.games.witches.engine import Witches
from mudwiz.games.witches.names import COLOURS, SPECIALS
from mudwiz.games.witches.rules_ja import NAMES_JA
from mudwiz.games.witches.texts import TEXTS, later
from mudwiz.render.style import Style, cell_width, strip_ansi
from mudwiz.texts import speaking


def test_the_catalog_names_colours_and_witches_as_the_japanese_rules_page() -> None:
    for code, english in {**COLOURS, **SPECIALS}.items():
        assert TEXTS.catalog("ja").gettext(english) == NAMES_JA[code], code
    assert later("you must follow {colour} (or play a Wizard)", colour=later(COLOURS["G"])).into("ja") \
        == "マストフォローです：緑のカードを出してください（ウィザードも出せます）"
    assert later("you must follow {colour} (or play a Wizard)", colour=later(COLOURS["G"])) \
        == "you must follow green (or play a Wizard)"


def _drawn(seed: int, width: int, names: list[str]) -> tuple[list[str], list[str]]:
    """The lines of a two-hand game in Japanese: the views (the table for whoever is to move and for an observer,
    the score sheet), drawn ``width`` wide, and the event lines (which the connection wraps to its window)."""
    game = Witches(names, {"hands": 2}, seed=seed)
    rng = random.Random(seed)
    style = Style(width=width)
    lines: list[str] = []
    said: list[str] = []
    with speaking("ja"):
        events = list(game.start_events)
        while True:
            said += [line for e in events for line in render.event_lines(e, style)]
            if game.finished:
                break
            if game.phase == Phase.ROUNDEND:
                lines += render.score_sheet(game.view(0), style)
                events = game.advance()
                continue
            seat = game.waiting()[0]
            view: dict[str, Any] = game.view(seat)
            lines += render.table_view(view, style) + render.table_view(game.view(None), style)
            if game.phase == "passing":
                move = " ".join(["pass", *rng.sample(view["hand"], view["pass"]["count"])])
            else:
                move = str(rng.choice(game.legal_actions(seat)))
            events = game.apply(seat, move)
        lines += render.score_sheet(game.view(0), style)
    return lines, said


@pytest.mark.parametrize(("seed", "width", "names"), [
    (1, 80, ["アリス", "bob", "carol", "dave"]),
    (2, 80, ["山田太郎", "佐藤花子", "鈴木一郎"]),
    (3, 80, ["ann", "ben", "cat", "dan", "eve", "fay"]),
    (4, 56, ["アリス", "bob", "carol", "dave"]),
])
def test_every_line_fits_its_width_in_japanese(seed: int, width: int, names: list[str]) -> None:
    lines, said = _drawn(seed, width, names)
    plain = [strip_ansi(line) for line in lines]
    assert max(wcswidth(line) for line in plain) <= width, max(plain, key=wcswidth)
    events = [strip_ansi(line) for line in said]
    assert max(wcswidth(line) for line in events) <= 80, max(events, key=wcswidth)
    text = "\n".join(plain + events)
    for words in ("ウィッチズ - 第 1/2 ハンド", "ディーラー：", "全員が渡し終えました。", "得点シート", "合計"):
        assert words in text, words


def test_the_client_pane_in_japanese() -> None:
    """The client's table pane: headings in Japanese, each column at least as wide as its heading's cells."""
    state = {"phase": "passing", "limit": 70, "pass": {"to": "bob", "count": 3, "direction": "left"}, "lead": "R",
             "spell": {"player": "ann", "points": 25, "choosing": True}}
    with speaking("ja"):
        cols = client.columns(state)
        segments = [strip_ansi(s) for s in client.info_segments(state)]
    assert [c.title for c in cols] == ["点数", "炎", "トリック", "手札", "パス", "カード"]
    assert all(c.width >= cell_width(c.title) for c in cols)
    assert segments[:3] == ["70 点で終了", "bob へ 3 枚パス (左)", "呪文：ann（25 点）が give/take を選択中"]
    assert segments[3].startswith("フォロー：")
