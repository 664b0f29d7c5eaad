"""Widths are terminal cells, not code points: an East-Asian wide character takes two cells and a combining
mark none, so chat or game text in Japanese (say) is padded, cut and wrapped to exactly the columns it fills.

The screen tests draw the lines on an 80-column pyte terminal, which lays out wide characters as a real
terminal does: a line that is one cell too long spills onto the next row.
"""

from __future__ import annotations

from typing import Any

import pyte
from recorder import Recorder
from wcwidth import wcswidth

from mudwiz.client import panes
from mudwiz.games.tiltowait import render as tiltowait
from mudwiz.games.witches import render as witches
from mudwiz.games.wizard import render as wizard
from mudwiz.render.style import Style, cell_width, pad, strip_ansi, truncate, visible_len, wrap_cards, wrap_words

WIDE = "日本語のチャット"  # 8 characters, 16 cells
ACCENTED = "e\u0301te\u0301"  # "été" with combining acute accents: 5 code points, 3 cells


def screen(lines: list[str], rows: int = 12) -> pyte.Screen:
    """The lines as an 80-column terminal shows them (each followed by CR LF, as the server sends them)."""
    term = pyte.Screen(80, rows)
    pyte.Stream(term).feed("".join(f"{line}\r\n" for line in lines))
    return term


def used_rows(term: pyte.Screen) -> int:
    return sum(1 for row in term.display if row.strip())


def cells(text: str) -> int:
    """The width by wcwidth (what pyte lays out by): an oracle apart from the code under test."""
    return wcswidth(strip_ansi(text))


def test_width_counts_cells() -> None:
    assert visible_len(WIDE) == 16
    assert visible_len(f"\x1b[1m{WIDE}\x1b[0m") == 16
    assert visible_len(ACCENTED) == 3
    assert visible_len("ＡＢＣ") == 6  # fullwidth forms
    assert visible_len("caf\u00e9 \u2500\u2500 plain") == 13  # Latin-1 and box drawing: one cell each
    assert cell_width("hello") == 5


def test_truncate_never_splits_a_wide_character_nor_orphans_a_mark() -> None:
    assert truncate(WIDE, 5) == "日本"
    assert truncate(WIDE, 6) == "日本語"
    assert truncate(ACCENTED, 1) == "e\u0301"
    assert truncate("abcdef", 3) == "abc"
    assert truncate(WIDE, 0) == ""


def test_pad_fills_exactly_to_the_column_on_screen() -> None:
    line = pad(f"\x1b[1m{WIDE}\x1b[0m: こんにちは", 79) + "|"
    term = screen([line])
    assert term.buffer[0][79].data == "|"
    assert used_rows(term) == 1
    assert cells(pad(WIDE, 20)) == 20 and cells(pad(ACCENTED, 20)) == 20


def test_rule_with_a_wide_title_is_exactly_80_cells() -> None:
    for style in (Style(), Style(colour=False)):
        rule = style.rule(f"Table 3: {WIDE}")
        assert cells(rule) == 80
        term = screen([rule])
        assert term.buffer[0][79].data == "\u2500" and used_rows(term) == 1


def test_wrap_cards_fills_rows_without_spilling() -> None:
    pieces = [f" {WIDE[:2]} "] * 30  # 6 cells each: 13 to a line of 80
    lines = wrap_cards(pieces, indent=2)
    assert [cells(line) for line in lines] == [80, 80, 26]
    assert used_rows(screen(lines)) == len(lines)


def sheet_view(names: list[str]) -> dict[str, Any]:
    return {"players": [{"name": n} for n in names], "sheet": [], "winner": None}


def test_score_sheet_columns_line_up_with_wide_names() -> None:
    names = ["山田太郎さんですよ", "佐藤花子さんですよ", "ascii", "鈴木一郎さんですよ"]  # 18 cells: cut to fit
    for module in (wizard, witches, tiltowait):
        head = module.score_sheet(sheet_view(names), Style())[1]
        ascii_head = module.score_sheet(sheet_view(["a", "b", "c", "d"]), Style())[1]
        assert cells(head) == len(ascii_head) <= 80, module.__name__
        term = screen([head])
        assert used_rows(term) == 1
        assert term.buffer[0][ascii_head.index("c")].data == "a"  # the third column starts where it should


def test_witches_waiting_line_falls_back_when_wide_names_overrun() -> None:
    names = ["山田太郎さんです", "佐藤花子さんです", "鈴木一郎さんです", "高橋次郎さんです"]  # 60 code points, 92 cells
    view = {"phase": "playing", "legal": [], "waiting": names}
    line = witches.prompt(view, Style())
    assert cells(line) <= 80
    assert line == " Waiting for 4 players to play (marked >)."


def test_client_cut_and_player_rows_count_cells() -> None:
    cut = panes.cut(f"Wizard - {WIDE}{WIDE}", 20)
    assert cells(cut) == 20 and cut.endswith("~")
    assert cells(panes.cut(f"Wizard -- {WIDE}", 20)) == 20  # a wide character that would straddle the edge
    assert panes.cut("plain ascii text", 10) == "plain asc~"  # ASCII: as before
    player = {"score": 0, "tricks": 0, "bid": None, "has_bid": False, "projected": None, "played": None}
    state = {"game": "wizard", "phase": "playing", "waiting": [],
             "players": [{**player, "name": WIDE}, {**player, "name": "bob"}]}
    for width in (30, 60):
        rows = panes.player_rows(state, width)
        assert cells(rows[1]) == cells(rows[2]) <= width


def test_wrap_words_breaks_between_words_and_keeps_every_word() -> None:
    bold = Style().bold
    text = bold("Round 1 over: ") + "mmmmmm +20=20, 漢字漢字 +30=30, frank +20=20, bot1 -10=-10  (F2: score sheet)"
    for width in (20, 33, 50, 79):
        lines = wrap_words(text, width)
        assert len(lines) > 1
        assert all(visible_len(line) <= width for line in lines), (width, lines)
        assert all(line.startswith("  ") for line in lines[1:])
        assert strip_ansi(" ".join(lines)).split() == strip_ansi(text).split()
    assert wrap_words(text, 200) == [text]
    # too long a word is cut where the rows end, and what follows goes on after its tail (found by a probe: on a
    # row of its own)
    assert wrap_words("   x " + "y" * 30 + " z", 10) == ["   x", "  " + "y" * 8, "  " + "y" * 8, "  " + "y" * 8,
                                                        "  " + "y" * 6 + " z"]


def test_a_narrow_window_gets_compact_columns_that_stay_under_their_heading() -> None:
    """Below 60 columns the window's wrapping squeezed the rows' padding and not the heading's (or the heading's
    and not the rows'), and the figures stood under other columns (found by a probe, at 55 and at 60 with a long
    name). Now the columns narrow and the names are as wide as there is room for; tags that do not fit go under."""
    from twisted.internet.task import Clock

    from mudwiz.commands import dispatch
    from mudwiz.lobby import Lobby
    from mudwiz.render.ansi import Presenter
    from mudwiz.render.style import fit

    for game, figure in (("wizard", "score"), ("witches", "total")):
        lobby = Lobby(Clock(), seed=1)
        host = Recorder()
        lobby.login(host, "Alexandra_Long")
        away = Recorder()  # a long name, away: its tags ("leads, away 2:00") do not fit after its row below 70
        lobby.login(away, "Dropalongname17")
        for command in (f"/new {game}", "/bot add random", "/start"):
            dispatch(lobby, host, command)
            if command.startswith("/new"):
                dispatch(lobby, away, "/join 1")
        lobby.disconnect(away)
        for width in range(40, 81):
            lines = fit(Presenter(Style.for_mode("ascii", width=width)).lines(host.last_state()), width)
            assert all(len(line) <= width for line in lines), (game, width, lines)
            [heading] = [line for line in lines if line.startswith("   player")]
            end = heading.index(figure) + len(figure)  # the figures are right-aligned under it
            table = lines[lines.index(heading) + 1:lines.index(" Your hand:")]
            rows = [line for line in table if line[:3] in (" > ", "   ") and line[3:4].strip()]  # not tags under
            assert len(rows) == 3, (game, width, lines)
            for row in rows:
                assert row[end - 1] == "0" and row[end] == " ", (game, width, heading, row)
            assert any(row[3:].startswith("Alexandra_L") for row in rows), (game, width, rows)
