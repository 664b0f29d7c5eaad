"""Wizard read in Japanese: its catalog says the card names rules_ja chose, its refusals come in the reader's
language (and stay English for an English reader), and its screen in Japanese keeps every row within the width it
is drawn for, with the figures under their headings counted in cells (a Japanese character takes two)."""

from __future__ import annotations

import random

import pytest
from wcwidth import wcswidth

from mudwiz.errors import BadOption, IllegalAction
from mudwiz.games.wizard.engine import Wizard
from mudwiz.games.wizard.names import card_name, suit_name
from mudwiz.games.wizard.render import event_lines, score_sheet, table_view
from mudwiz.games.wizard.rules_ja import NAMES_JA
from mudwiz.render.style import Style, fit, strip_ansi
from mudwiz.texts import speaking


def test_the_catalog_names_the_cards_as_the_rules_page_does() -> None:
    with speaking("ja"):
        assert {s: str(suit_name(s)) for s in "BGRY"} == {s: NAMES_JA[s] for s in "BGRY"}
        assert (str(card_name("Z")), str(card_name("N"))) == (NAMES_JA["Z"], NAMES_JA["N"])
    assert str(suit_name("R")) == "red" and card_name("R7") is None


def refusal(game: Wizard, seat: int, move: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        game.apply(seat, move)
    return refused.value


def test_refusals_are_put_into_the_readers_language() -> None:
    games = (Wizard(["ann", "bob", "cy"], {"notequal": True}, seed=s) for s in range(50))
    game = next(g for g in games if g.phase == "bidding")  # no Wizard turned: bids are asked
    seat = game.waiting()[0]
    typed = refusal(game, seat, "bid x")
    with speaking("ja"):
        assert str(typed) == "ビッドはトリック数（整数）です：'x' は使えません"
    assert str(typed) == "a bid is a whole number of tricks, not 'x'"
    high = refusal(game, seat, f"bid {game.size + 1}")
    with speaking("ja"):
        assert str(high) == f"このラウンドのビッドは 0〜{game.size} です（{game.size + 1} はできません）"
    with pytest.raises(BadOption) as both, speaking("ja"):
        Wizard(3, {"hiddentip": True, "secretbid": True})
    with speaking("ja"):
        assert str(both.value).startswith("hiddentip と secretbid はどちらか一方を")


def cells(line: str) -> int:
    return wcswidth(strip_ansi(line))


@pytest.mark.parametrize("width", [80, 59, 40])
def test_the_japanese_screen_fits_its_width_and_keeps_its_columns(width: int) -> None:
    """A whole game seen from seat 0 in Japanese: every line within ``width`` as the connection sends it, and at
    80 columns as drawn; there each score ends where its heading ``得点`` ends."""
    game = Wizard(["ann", "bob", "cy", "dee"], {"rounds": 4}, seed=11)
    style = Style.for_mode("ansi", width)
    rng = random.Random(11)
    checked = 0
    with speaking("ja"):
        events = list(game.start_events)
        while True:
            view = game.view(0)
            lines = table_view(view, style) + score_sheet(view, style)
            lines += [line for e in events for line in event_lines(e, style)]
            if width == 80:  # drawn to fit: the connection's ``fit`` has nothing to do
                assert all(cells(line) <= width for line in lines), max(lines, key=cells)
            shown = fit(lines, width)  # as the connection sends them to a narrower window
            assert all(cells(line) <= width for line in shown), max(shown, key=cells)
            plain = [strip_ansi(line) for line in lines]
            assert any(line.startswith("── ウィザード - 第 ") for line in plain), plain[:3]
            if width == 80:
                heading = next(line for line in plain if line.startswith("   名前"))
                end = cells(heading[:heading.index("得点") + 2])
                for p in view["players"]:
                    row = next(line for line in plain if line[3:].startswith(p["name"] + " "))
                    score = str(p["score"])
                    at = row.index(" " + score, 3 + len(p["name"])) + 1
                    assert cells(row[:at + len(score)]) == end, (heading, row)
                    checked += 1
            if game.finished:
                break
            if game.phase == "roundend":
                events = game.advance()
                continue
            seat = game.waiting()[0]
            events = game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert checked or width != 80
