"""The client in Japanese: its language from ``--lang`` or the user's locale, its panes, status line, key help and
log in its own catalog's words, aligned though a Japanese character takes two cells, and the server asked to speak
the same language (over a real ``mudwiz serve``)."""

from __future__ import annotations

import unicodedata

import pytest
from prompt_toolkit.utils import get_cwidth
from test_client import WIZARD_PLAYING, Driver, Screen, driven

from mudwiz.client import panes
from mudwiz.client.model import Model
from mudwiz.client.texts import client_lang
from mudwiz.render.style import strip_ansi, visible_len
from mudwiz.texts import speaking


def japanese(text: str) -> bool:
    return any(unicodedata.name(ch, "").startswith(("CJK", "HIRAGANA", "KATAKANA")) for ch in text)


def test_the_language_comes_from_the_option_else_the_locale() -> None:
    assert client_lang(environ={"LANG": "ja_JP.UTF-8"}) == "ja"
    assert client_lang(environ={"LANG": "en_US.UTF-8", "LC_MESSAGES": "ja_JP.eucJP"}) == "ja"
    assert client_lang(environ={"LANG": "ja_JP.UTF-8", "LC_ALL": "C"}) == "en"  # LC_ALL first, as gettext reads
    assert client_lang(environ={"LANG": "C.UTF-8"}) == "en"
    assert client_lang(environ={"LANG": "ko_KR.UTF-8"}) == "en"  # no catalog: English
    assert client_lang(environ={}) == "en"
    assert client_lang("ja", environ={"LANG": "en_US"}) == "ja" and client_lang("en", {"LANG": "ja_JP"}) == "en"


def playing_model() -> Model:
    model = Model(address="x:1", lang="ja")
    with speaking("ja"):
        model.apply({"type": "welcome", "name": "ann"})
        model.apply(WIZARD_PLAYING)
    return model


def test_the_panes_speak_japanese_and_english_still() -> None:
    model = playing_model()
    with speaking("ja"):
        table = "\n".join(strip_ansi(line) for line in panes.table_lines(model, 80))
        status = strip_ansi(panes.status_line(model))
        keys = "\n".join(strip_ansi(line) for line in panes.help_lines(model, 80))
        log = "\n".join(strip_ansi(line) for line in model.log)
    for needle in ("卓 4", "ラウンド 3/5", "3 枚", "ディーラー: bot1", "リード: ann", "プレイヤー", "トリック:",
                   "あなたの手札（5 枚）:", "Enter で送信: /play N", "（離席）"):
        assert needle in table, (needle, table)
    assert "接続中" in status and "あなたの番: カードを出す" in status and "卓 4 wizard 対戦中" in status, status
    assert "出せるカードや可能なビッドを選ぶ" in keys and "入力行が空のときに働きます" in keys, keys
    assert "ようこそ、ann さん" in log, log
    english = "\n".join(strip_ansi(line) for line in panes.table_lines(model, 80))  # no language said: English
    assert "Your hand (5):" in english and "Dealer: bot1" in english and not japanese(english)


@pytest.mark.parametrize("width", [100, 60, 40])
def test_japanese_panes_stay_in_their_columns(width: int) -> None:
    """Two cells a Japanese character: every line fits its pane as the terminal counts cells (prompt_toolkit's
    ``get_cwidth`` agrees with the panes' own measure), and the players' rows keep their columns under the titles."""
    model = playing_model()
    with speaking("ja"):
        lines = panes.table_lines(model, width) + [panes.status_line(model, width)]
        lines += panes.help_lines(model, width) + panes.lobby_lines(Model(lang="ja"), width)
    for line in lines:  # a trailing blank may pass the edge (a card's padding, the game's column): nothing is lost
        plain = strip_ansi(line).rstrip()
        assert get_cwidth(plain) == visible_len(plain) <= width, (width, plain)
    with speaking("ja"):
        rows = [strip_ansi(row) for row in panes.player_rows(WIZARD_PLAYING, width)]
    ends = {get_cwidth(row[:row.index(value) + len(value)]) for row, value in  # where each score ends, in cells
            zip(rows[1:], [" 20", "-10", " 30"], strict=True)}
    title = "得点" if "得点" in rows[0] else "score"  # the game's own pane (games/wizard/client.py) says it in Japanese
    assert len(ends) == 1 and ends == {get_cwidth(rows[0][:rows[0].index(title) + len(title)])}, rows
    assert get_cwidth(rows[0].split("プレイヤー")[0]) == 3  # the title's column is the names'


def test_a_user_with_a_japanese_locale_gets_a_japanese_client_and_server(server: tuple[str, int],
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """LANG=ja_JP.UTF-8, no option: the screen is in Japanese, its panes aligned, and the server was told
    (``/lang ja``): what it words to this user (an error here) comes in Japanese."""
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    screen = Screen(columns=120, rows=30)

    async def script(d: Driver) -> None:
        assert d.model.lang == "ja"
        await d.until(lambda: d.model.connection == "connected", what="the connection")
        await d.type("hanako\r")
        await d.until(lambda: d.model.logged_in, what="welcome")
        await d.type("/lang\r")  # no language: the server says which it speaks to this user now
        await d.until(d.answered, what="/lang")
        reply = d.received[-1]
        assert reply["type"] == "error" and "現在: ja" in reply["message"], reply
        await d.type("/new wizard\r")
        await d.until(lambda: d.model.state is not None and d.answered(), what="the table")
        # the table pane in place of the lobby's (whose list of tables may show another table 開始待ち already)
        await d.until(lambda: not screen.text().startswith("── ロビー") and "開始待ち" in screen.text()
                      and "接続済み" in screen.text(), what="the screen")
        text = screen.text()
        # the welcome in the log (on the screen it may have scrolled up under the lobby's list of tables, as many
        # as the tests before opened on this server)
        assert any("ようこそ、hanako さん" in line for line in d.model.log), list(d.model.log)
        assert "卓 " in text, text
        separators = {x for row in screen.screen.buffer.values() for x, cell in row.items() if cell.data == "\u2502"}
        assert len(separators) == 1, (separators, text)  # the table and log panes' border: one straight column

    with driven(server, screen.output, lang=None) as run:
        run(script)
