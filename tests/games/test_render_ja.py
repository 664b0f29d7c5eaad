"""The core's screens read in Japanese: the generic table view, the final standings, a tournament's standings and
the meeting place's listings come with Japanese headings and words, every row within the width drawn for (a
Japanese character takes two cells), and the figures still under their headings, counted in cells; the games'
shared refusals come in the reader's language and stay English for an English reader."""

from __future__ import annotations

import random

import pytest
from wcwidth import wcswidth

from mudwiz.bots.randombot import RandomBot
from mudwiz.errors import BadOption, IllegalAction
from mudwiz.games import game_class, section_help
from mudwiz.games.legend import help_lines
from mudwiz.render import generic
from mudwiz.render.ansi import Presenter
from mudwiz.render.common import standings
from mudwiz.render.style import Style, fit, strip_ansi
from mudwiz.texts import Later, speaking


def cells(line: str) -> int:
    return wcswidth(strip_ansi(line))


def ends_under(heading: str, word: str, row: str, figure: str) -> bool:
    """Whether ``figure`` in ``row`` ends in the cell where ``word`` ends in ``heading`` (right-aligned columns)."""
    end = cells(heading[:heading.index(word) + len(word)])
    return cells(row[:row.index(figure) + len(figure)]) == end


def token_ends(line: str) -> list[int]:
    """The cell at which each of ``line``'s space-separated words ends."""
    ends, used, inside = [], 0, False
    for ch in line:
        if ch == " " and inside:
            ends.append(used)
        inside = ch != " "
        used += cells(ch)
    return [*ends, used] if inside else ends


def played(game: str, seed: int = 5) -> list[dict]:
    """A few views of a game played by random bots, from seat 0 and an observer, the last one's round over."""
    cls = game_class(game)
    g = cls(["ann", "bob", "cy"], None, seed)
    bot, views = RandomBot(game, random.Random(seed)), []
    while not g.finished and g.phase != "roundend":
        seat = g.waiting()[0]
        views += [g.view(0), g.view(None)]
        g.apply(seat, bot.choose(g.view(seat)))
    return [*views, g.view(0)]


@pytest.mark.parametrize("width", [80, 40])
def test_the_generic_table_view_in_japanese_fits_and_keeps_its_columns(width: int) -> None:
    style = Style.for_mode("ansi", width)
    with speaking("ja"):
        for view in played("witches"):
            lines = generic.table_view(view, style)
            shown = fit(lines, width)
            assert all(cells(line) <= width for line in shown), max(shown, key=cells)
            plain = [strip_ansi(line) for line in lines]
            heading = next(line for line in plain if line.startswith("   名前"))
            assert "得点" in heading and "player" not in heading
            if width == 80:
                assert all(cells(line) <= width for line in lines), max(lines, key=cells)
                for p in view["players"]:
                    row = next(line for line in plain if line[3:].startswith(p["name"] + " "))
                    assert ends_under(heading, "得点", row, f" {p['score']}"), (heading, row)
        assert any(strip_ansi(line).startswith(" 手札:") for line in generic.table_view(view, style))
        assert strip_ansi(generic.prompt_lines(view, style)[0]) == " ラウンド終了: 次のラウンドの準備ができたら /ok。"
    assert strip_ansi(generic.prompt_lines(view, style)[0]).startswith(" Round over: /ok when ready")


def tournament_message() -> dict:
    names = ["ann", "ぼぶ", "シーちゃん", "dee"]
    return {"type": "tournament", "id": 3, "title": "Wizard", "rounds": 3, "size": 4, "status": "running",
            "round": 2, "start_at": 0, "winner": None, "entrants": names,
            "standings": [{"name": n, "points": 6 - i * 1.5, "buchholz": 10 - i, "firsts": 2 - i // 2,
                           "score": 300 - 40 * i} for i, n in enumerate(names)],
            "table_rows": [{"table": 12, "seats": names, "bots": ["dee"], "result": None}]}


@pytest.mark.parametrize("width", [80, 40])
def test_a_tournaments_standings_in_japanese_stand_under_their_headings(width: int) -> None:
    presenter = Presenter(Style.for_mode("ansi", width))
    with speaking("ja"):
        lines = presenter.lines(tournament_message())
        shown = fit(lines, width)
    assert all(cells(line) <= width for line in shown), max(shown, key=cells)
    plain = [strip_ansi(line) for line in lines]
    assert plain[0].startswith("── トーナメント 3: Wizard、スイス式、3 回戦")
    assert plain[1] == "  第 2/3 回戦。参加 4 人"
    heading = next(line for line in plain if line.startswith("  #   名前"))
    for row in plain[3:7]:  # the figures after the name end where their headings end, in cells
        assert token_ends(row)[-4:] == token_ends(heading)[-4:], (heading, row)
    assert plain[-1] == "  卓 12    対戦中   ann, ぼぶ, シーちゃん, dee（ボット）"


def test_the_final_standings_in_japanese() -> None:
    rows = [{"place": 1, "player": "シーちゃん", "score": 120}, {"place": 2, "player": "ann", "score": 80}]
    with speaking("ja"):
        lines = [strip_ansi(line) for line in standings(rows, Style.for_mode("ascii", 40))]
    assert lines[0].startswith("-- 最終順位 --") and cells(lines[0]) == 40
    assert cells(lines[1][:lines[1].index("120") + 3]) == cells(lines[2][:lines[2].index("80") + 2])  # in cells
    with speaking("en"):
        assert strip_ansi(standings(rows, Style())[0]).startswith("── Final standings ──")


@pytest.mark.parametrize("width", [80, 40])
def test_the_meeting_places_listings_in_japanese_fit(width: int) -> None:
    presenter = Presenter(Style.for_mode("ansi", width))
    finger = {"type": "finger", "name": "ann", "registered": True, "online": True, "where": "table 4", "away": "昼食",
              "seen": None, "ratings": [{"game": "wizard", "rating": 1043, "games": 12, "rank": 3}],
              "games": [{"id": 77, "game": "wizard", "date": "2026-12-01T10:00:00Z", "place": 2,
                         "players": ["ann", "bob", "cy"]}], "adjourned": [4, 9], "plan": ["毎晩遊びます"]}
    messages = {"type": "messages", "limit": 50, "messages": [
        {"unread": True, "sent": "2026-12-05T08:09:00Z", "from": "ぼぶ", "text": "明日の夜にまた遊びましょう。" * 3},
        {"unread": False, "sent": "2026-12-04T21:30:00Z", "from": "cy", "text": "gg"}]}
    with speaking("ja"):
        lines = presenter.lines(finger) + presenter.lines(messages)
        lines += presenter.lines({"type": "notify_list", "names": ["ann", "bob"], "online": ["bob"], "limit": 20})
        lines += presenter.lines({"type": "new_messages", "unread": 2, "from": "ぼぶ"})
        lines += presenter.lines({"type": "history", "name": "ann", "games": [
            {"id": 5, "game": "wizard", "date": "2026-12-01T10:00:00Z", "outcome": "finished", "place": 1,
             "players": [{"name": "ann", "score": 120}, {"name": "ぼぶ", "score": 80}]}]})
        lines += help_lines(width)
    if width == 80:  # drawn to fit
        assert all(cells(line) <= width for line in lines), max(lines, key=cells)
    shown = fit(lines, width)  # as the connection sends them to a narrower window
    assert all(cells(line) <= width for line in shown), max(shown, key=cells)
    assert all(line.strip() for line in shown)  # no row left blank by a wrap indented past the window
    plain = [strip_ansi(line) for line in lines]
    assert plain[0].startswith("── ann（登録済み）")
    assert "  #5     wizard     2026-12-01 10:00  1/2 位      ann 120, ぼぶ 80" in plain or width < 80
    assert "  オンライン、卓 4。離席中: 昼食" in plain
    assert "  wizard     レーティング 1043、レーティング対象 12 ゲーム、3 位" in plain
    assert "    #77     wizard     2026-12-01  3 人中 2 位" in plain
    assert any(line.startswith("── メッセージ（2/50）") for line in plain)
    heads = [line for line in plain if line.startswith(("  * 2026", "    2026"))]
    assert [line.index("2026") for line in heads] == [4, 4]
    assert [cells(line[:line.index(name) + len(name)]) for line, name in zip(heads, ["ぼぶ", "cy"], strict=True)] \
        == [29, 27]  # the date, then the name from the same cell
    assert any("bob（オンライン）" in line for line in plain)
    assert any("ジェスター" in line or "カードの文字" in line for line in plain)


def test_the_games_shared_refusals_are_read_in_the_readers_language() -> None:
    wizard = game_class("wizard")
    with pytest.raises(BadOption) as few:
        wizard(2)
    with pytest.raises(BadOption) as unknown:
        wizard.option("colour")
    with pytest.raises(BadOption) as word:
        wizard.check_options({"rounds": "lots"})
    with speaking("ja"):
        assert str(few.value) == "Wizardは 3〜6 人で遊びます（2 人では遊べません）"
        assert str(unknown.value).startswith("Wizardに 'colour' というオプションはありません（オプション: ")
        assert str(word.value) == "rounds は整数です（'lots' は使えません）"
        assert str(wizard.usage_error("bid")) == "使い方: /bid N"
    assert str(few.value) == "Wizard is for 3 to 6 players, not 2"
    game = wizard(["ann", "bob", "cy"], None, 1)
    idle = next(s for s in range(3) if s not in game.waiting())
    with pytest.raises(IllegalAction) as out_of_turn:
        game.apply(idle, "play R3")
    with speaking("ja"):
        assert str(out_of_turn.value).startswith("あなたの番ではありません。")
    assert str(out_of_turn.value).startswith("it is not your turn; waiting for ")
    assert isinstance(section_help("spells"), Later) and section_help("spells") == section_help("spells").english()
