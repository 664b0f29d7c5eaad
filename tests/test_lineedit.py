"""The SSH line editor (mudwiz/net/lineedit.py): keystrokes from a raw-mode terminal -> echo and lines."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mudwiz.net.lineedit import RUB_OUT, LineEditor


def typed(*chunks: bytes, secret: bool = False) -> tuple[bytes, list[bytes], LineEditor]:
    editor = LineEditor(limit=16)
    editor.secret = secret
    echo, lines = b"", []
    for chunk in chunks:
        e, done = editor.feed(chunk)
        echo, lines = echo + e, lines + done
    return echo, lines, editor


def test_keys_are_echoed_and_enter_ends_the_line_in_any_of_its_spellings() -> None:
    echo, lines, editor = typed(b"hi\r", b"a\r\n", b"b\r\0", b"c\n", b"d")
    assert lines == [b"hi", b"a", b"b", b"c"]
    assert echo == b"hi\r\na\r\nb\r\nc\r\nd"
    assert editor.shown == b"d"


def test_cr_and_lf_in_separate_reads_are_one_line_end() -> None:
    _, lines, _ = typed(b"x\r", b"\n", b"\ny\r")
    assert lines == [b"x", b"", b"y"]


def test_backspace_and_delete_rub_out_a_whole_utf8_character() -> None:
    echo, lines, _ = typed("añ€".encode(), b"\x7f\x08", b"b\r")
    assert lines == [b"ab"]
    assert echo == "añ€".encode() + RUB_OUT * 2 + b"b\r\n"


def test_backspace_on_an_empty_line_echoes_nothing() -> None:
    echo, lines, _ = typed(b"\x7f\x7f\r")
    assert echo == b"\r\n" and lines == [b""]


def test_ctrl_u_erases_the_line_and_ctrl_w_the_last_word() -> None:
    echo, lines, _ = typed(b"one two  \x17three\r", b"gone\x15kept\r")
    assert lines == [b"one three", b"kept"]
    assert echo.count(RUB_OUT) == 5 + 4


def test_ctrl_c_drops_the_line() -> None:
    echo, lines, _ = typed(b"oops\x03fine\r")
    assert lines == [b"fine"] and b"^C\r\n" in echo


def test_arrow_function_keys_and_paste_marks_are_swallowed() -> None:
    echo, lines, _ = typed(b"a\x1b[A\x1b[1;5C\x1bOPb\x1b[200~c\x1b[201~\x1bx\r")
    assert lines == [b"abc"]
    assert b"\x1b" not in echo and b"[" not in echo


def test_an_escape_sequence_split_across_reads_is_still_swallowed() -> None:
    _, lines, _ = typed(b"a\x1b", b"[", b"1;2", b"Db\r")
    assert lines == [b"ab"]


def test_control_characters_are_ignored_and_a_tab_is_a_space() -> None:
    _, lines, _ = typed(b"a\x01\x02\tb\x07\r")
    assert lines == [b"a b"]


def test_a_password_is_neither_echoed_nor_shown() -> None:
    echo, lines, editor = typed(b"s3cret\x7fT\r", b"half", secret=True)
    assert echo == b"" and lines == [b"s3creT"]
    assert editor.shown == b""


def test_a_line_past_the_limit_is_kept_one_byte_too_long_so_it_is_refused_whole() -> None:
    echo, lines, _ = typed(b"x" * 40 + b"\r")
    assert lines == [b"x" * 17]
    assert echo == b"x" * 17 + b"\r\n"


@given(st.lists(st.binary(max_size=20), max_size=10))
def test_any_bytes_give_lines_without_control_characters_and_never_raise(chunks: list[bytes]) -> None:
    _, lines, editor = typed(*chunks)
    for line in [*lines, editor.shown]:
        assert len(line) <= 17
        assert not any(b < 0x20 or b == 0x7F for b in line)
