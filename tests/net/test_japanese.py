"""Japanese terminals without I/O: Shift_JIS and EUC-JP named every way a client spells them, text written in
them with a mark as wide as each character they lack, keys split across reads, rub-outs by cell, ambiguous-width
characters measured as the terminal draws them, and the commands that choose (``/charset``, ``/width``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from test_lineedit import typed

from mudwiz.commands import COMMANDS
from mudwiz.door import Caller, DoorError, door_charset, read_drop_file
from mudwiz.errors import BadCommand
from mudwiz.net import terminal
from mudwiz.net.lineedit import RUB_OUT
from mudwiz.net.rlogin import read_handshake
from mudwiz.render.reflow import reflow
from mudwiz.render.style import Style, ambiguous_cells, cell_width, pad, truncate, visible_len, wrap_words
from mudwiz.session import Session, charset_named
from mudwiz.usertext import bbs_name, is_name, name_form, skeleton


@pytest.mark.parametrize(("name", "charset"), [
    ("Shift_JIS", "shift_jis"), ("sjis", "shift_jis"), ("CP932", "shift_jis"), ("Windows-31J", "shift_jis"),
    ("MS_Kanji", "shift_jis"), ("EUC-JP", "euc-jp"), ("eucjp", "euc-jp"), ("UTF-8", "utf-8"), ("IBM437", "cp437"),
    ("Big5", None), ("", None)])
def test_a_charset_is_known_by_each_of_its_names(name: str, charset: str | None) -> None:
    assert charset_named(name) == charset
    assert terminal.accepted_charset(name.encode()) == charset


def test_the_charset_request_offers_japanese_before_cp437() -> None:
    assert terminal.charset_request() == b";UTF-8;Shift_JIS;EUC-JP;CP437"


@pytest.mark.parametrize(("charset", "codec"), [("shift_jis", "cp932"), ("euc-jp", "euc_jp")])
def test_text_is_written_in_the_charset_and_what_it_lacks_as_a_mark_of_its_width(charset: str, codec: str) -> None:
    text = "太郎 ─ ○ × ｶﾅ 한 ♥"
    one = terminal.encode(text, charset, ambiguous=1).decode(codec)
    two = terminal.encode(text, charset, ambiguous=2).decode(codec)
    assert one.startswith("太郎 ─ ○ × ｶﾅ ") and two.startswith("太郎 ─ ○ × ｶﾅ ")
    assert one.endswith("〓 ?") and two.endswith("〓 〓")  # the heart: one cell, or two where ambiguous is two
    assert b"\xff" not in terminal.encode(text, charset)  # never a byte a telnet client takes for IAC
    with ambiguous_cells(2):
        assert cell_width(two) == cell_width(text)  # the marks keep each row as wide as it was drawn
    assert cell_width(one) == cell_width(text)
    assert terminal.decode("太郎".encode(codec), charset) == "太郎"
    assert terminal.decode(b"\x81", charset) == "\ufffd"  # half a character: replaced, never raised


def test_a_japanese_terminal_type_picks_its_charset() -> None:
    for name, charset in (("ansi-sjis", "shift_jis"), ("ANSI-EUCJP", "euc-jp"), ("kterm", "euc-jp")):
        assert terminal.TerminalTypes(names=[name]).choice() == terminal.Choice("ansi", charset)


@pytest.mark.parametrize(("charset", "codec"), [("shift_jis", "cp932"), ("euc-jp", "euc_jp")])
def test_keys_split_mid_character_are_one_character_and_a_rub_out_takes_both_cells(charset: str, codec: str) -> None:
    data = "/say 太郎".encode(codec)
    echo, lines, editor = typed(data[:6], data[6:7], data[7:] + b"\x7f" + b"\r", charset=charset)
    assert lines == ["/say 太"]
    assert echo == "/say 太郎" + RUB_OUT * 2 + "\r\n"  # 郎 is two cells: rubbed out twice


def test_an_ambiguous_character_is_rubbed_out_as_wide_as_the_terminal_draws_it() -> None:
    with ambiguous_cells(2):
        echo, _, _ = typed("○".encode("cp932") + b"\x7f", charset="shift_jis")
    assert echo == "○" + RUB_OUT * 2
    echo, _, _ = typed("○".encode("cp932") + b"\x7f", charset="shift_jis")
    assert echo == "○" + RUB_OUT


def test_measures_count_ambiguous_characters_as_the_terminal_draws_them() -> None:
    assert cell_width("─○×é") == 4
    with ambiguous_cells(2):
        assert cell_width("─○×é") == 8 and cell_width("太郎abc") == 7
        assert pad("○", 4) == "○  " and truncate("○○○", 5) == "○○"
        rule = Style(ambiguous=2).rule("Score", width=40)
        assert visible_len(rule) <= 40 < visible_len(rule) + 3  # half as many bars, each two cells
        assert all(cell_width(line) <= 20 for line in wrap_words("○ " * 30, 20))
    assert cell_width("─○×é") == 4  # back to one cell outside


def test_the_session_hints_japanese_and_ambiguous_defaults_follow_the_charset() -> None:
    session = Session("taro")
    assert session.charset_lang is None and session.ambiguous_width() == 1
    session.charset = "shift_jis"
    assert session.charset_lang == "ja" and session.ambiguous_width() == 2
    session.charset = "euc-jp"
    assert session.charset_lang == "ja"
    session.ambiguous = 1
    assert session.ambiguous_width() == 1


def test_charset_and_width_commands_choose_and_refuse_in_one_line() -> None:
    session = Session("taro")
    charset, width = COMMANDS["charset"].run, COMMANDS["width"].run
    assert charset(None, session, "sjis") == "charset shift_jis" and session.charset == "shift_jis"
    assert charset(None, session, "EUC-JP") == "charset euc-jp" and session.charset == "euc-jp"
    for bad in ("", "big5", "utf-16"):
        with pytest.raises(BadCommand, match=r"^usage: /charset utf-8\|sjis\|euc-jp\|cp437 \(now: euc-jp\)$"):
            charset(None, session, bad)
    assert "ambiguous characters 2 wide" in str(width(None, session, ""))
    assert "ambiguous characters 1 wide" in str(width(None, session, "ambiguous 1")) and session.ambiguous == 1
    for bad in ("ambiguous 3", "ambiguous", "wide 2", "ambiguous two"):
        with pytest.raises(BadCommand, match=r"^usage: /width ambiguous 1\|2 \(now: 1\)$"):
            width(None, session, bad)


@pytest.mark.parametrize(("one", "other"), [
    ("カイ", "力イ"), ("タロー", "夕ロ一"), ("ロロ", "口口"), ("ニエ", "二工"), ("ハナ", "八ナ"), ("トモ", "卜モ"),
    ("ﾀﾛｰ", "タロー"), ("ッキ", "ツキ"), ("へや", "ヘや"), ("Carol", "CaroI")])
def test_kana_and_kanji_that_look_alike_have_one_skeleton(one: str, other: str) -> None:
    assert skeleton(one) == skeleton(other)


def test_names_in_kana_and_kanji_are_measured_in_cells() -> None:
    assert is_name("太郎") and is_name("たろう") and is_name("タロウ2") and is_name("あいうえおかきく")
    assert not is_name("あいうえおかきくけ")  # 18 cells
    assert is_name("太") and not is_name("a")  # one kanji is two cells, the shortest a name may be
    assert not is_name("太 郎") and not is_name("한국") and not is_name("Ωmega") and not is_name("太郎!")
    assert name_form("ｶﾀｶﾅ") == "カタカナ" and name_form("Ｔａｒｏ") == "Taro"
    assert skeleton("タロウ") != skeleton("タロ")


def test_the_door_names_a_japanese_terminal_by_its_charset(monkeypatch: pytest.MonkeyPatch) -> None:
    caller = Caller("taro", True, 24, 600.0, 1)
    assert caller.terminal == "ansi-bbs"
    assert replace(caller, charset=door_charset("sjis")).terminal == "ansi-sjis"
    assert replace(caller, charset=door_charset("EUC-JP")).terminal == "ansi-eucjp"
    assert replace(caller, ansi=False, charset="sjis").terminal == "dumb"  # plain ASCII has no kana
    monkeypatch.setenv("MUDWIZ_DOOR_CHARSET", "cp932")
    assert door_charset(None) == "sjis"
    with pytest.raises(DoorError, match="^--charset is sjis or euc-jp, not 'big5'$"):
        door_charset("big5")
    for term in ("ansi-sjis", "ansi-eucjp"):  # and the server takes those types so
        assert terminal.TerminalTypes(names=[term]).choice().charset in ("shift_jis", "euc-jp")


def test_a_japanese_bbs_callers_handle_keeps_its_kana_and_kanji(tmp_path: Path) -> None:
    assert bbs_name("太郎", "jbbs") == "太郎@jbbs" and bbs_name("ｶﾅ ﾀﾛｳ", "j") == "カナ_タロウ@j"
    assert bbs_name("あいうえおかきくけこ", "j") == "あいうえおかきく@j"  # cut at 16 columns
    assert bbs_name("Jörg", "x") == "Jorg@x" and bbs_name("한국", "x") is None
    handshake = read_handshake(b"\0" + "太郎".encode("cp932") + b"\0secret\0ansi-sjis/38400\0")
    assert handshake is not None and handshake[0].client_user == "太郎"  # the gateway's handle, read in Shift_JIS
    drop = tmp_path / "door32.sys"
    drop.write_bytes("\r\n".join(["2", "0", "38400", "BBS", "1", "太郎 本名", "太郎", "100", "60", "1", "1"])
                     .encode("cp932"))
    assert read_drop_file(drop, 60.0, "cp932").handle == "太郎"


def test_rules_in_japanese_hang_their_text_column_in_cells() -> None:
    rows = reflow(["  切り札   最後に出た色 が 切り札 に なります 次の 手 まで ずっと です", "  x"], 30)
    assert all(cell_width(row) <= 30 for row in rows), rows
    assert rows[1].startswith(" " * 11) and not rows[1].startswith(" " * 12), rows  # under the text, not the name
