"""The line editor for raw-key sessions (mudwiz/net/lineedit.py), shared by SSH with a PTY and rlogin: key bytes in
the caller's charset -> what to echo and the lines they finish; a half-typed line kept below interrupting output."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mudwiz.net.lineedit import CLEAR_LINE, RUB_OUT, Keyboard, LineEditor
from mudwiz.render.style import cell_width


def typed(*chunks: bytes, secret: bool = False, charset: str = "utf-8", limit: int = 16,
          ) -> tuple[str, list[str], LineEditor]:
    """Each chunk as one read of the framing: the echo, the lines finished, and the editor after them."""
    keyboard = Keyboard(limit)
    keyboard.editor.secret = secret
    echo, lines = "", []
    for chunk in chunks:
        for edited in keyboard.feed(chunk, lambda: charset):
            echo += edited.echo
            lines += [] if edited.line is None else [edited.line]
    return echo, lines, keyboard.editor


def test_keys_are_echoed_and_enter_ends_the_line_in_any_of_its_spellings() -> None:
    echo, lines, editor = typed(b"hi\r", b"a\r\n", b"b\r\0", b"c\n", b"d")
    assert lines == ["hi", "a", "b", "c"]
    assert echo == "hi\r\na\r\nb\r\nc\r\nd"
    assert editor.partial == editor.shown == "d"


def test_cr_and_lf_in_separate_reads_are_one_line_end() -> None:
    _, lines, _ = typed(b"x\r", b"\n", b"\ny\r")
    assert lines == ["x", "", "y"]


def test_a_line_comes_out_with_the_keys_after_it_so_its_output_comes_before_their_echo() -> None:
    editor = LineEditor(limit=5)
    first = editor.feed("ab\x08c\x1b[Dd\r\nrest")
    assert (first.echo, first.line, first.rest) == ("ab\b \bcd\r\n", "acd", "\nrest")
    second = editor.feed(first.rest)  # the LF of CR LF: the same Enter, not an empty line
    assert (second.echo, second.line, second.rest, editor.partial) == ("rest", None, "", "rest")


def test_backspace_and_delete_rub_out_a_whole_utf8_character() -> None:
    echo, lines, _ = typed("añ€".encode(), b"\x7f\x08", b"b\r")
    assert lines == ["ab"]
    assert echo == "añ€" + RUB_OUT * 2 + "b\r\n"


def test_a_utf8_character_split_across_reads_is_one_character() -> None:
    euro = "€".encode()
    echo, lines, _ = typed(euro[:1], euro[1:2], euro[2:] + b"\r")
    assert echo == "€\r\n" and lines == ["€"]


def test_cp437_keys_are_read_as_cp437_and_a_rub_out_takes_back_one_of_them() -> None:
    echo, lines, _ = typed(b"caf\x82\x81\x7f\r", b"\xff\xe1\r", charset="cp437")  # é ü, DEL; NBSP ß
    assert lines == ["café", "\xa0ß"]
    assert echo == "café" + "ü" + RUB_OUT + "\r\n\xa0ß\r\n"


def test_the_charset_is_asked_again_for_the_keys_after_each_line_of_one_read() -> None:
    """``/mode cp437`` and the keys after it in one read (a paste): those keys are read as CP437."""
    keyboard, session, lines = Keyboard(), {"charset": "utf-8"}, []
    for edited in keyboard.feed(b"/mode cp437\r\xa4\r", lambda: session["charset"]):
        if edited.line is not None:
            lines.append(edited.line)
            session["charset"] = "cp437"  # as the connection has it after the first line
    assert lines == ["/mode cp437", "ñ"]  # 0xA4 is ñ in CP437 (in UTF-8 it is no character)


def test_backspace_on_an_empty_line_echoes_nothing() -> None:
    echo, lines, _ = typed(b"\x7f\x7f\r")
    assert echo == "\r\n" and lines == [""]


def test_ctrl_u_erases_the_line_and_ctrl_w_the_last_word() -> None:
    echo, lines, _ = typed(b"one two  \x17three\r", b"gone\x15kept\r", b"a b\x17\x17\x17c\r")
    assert lines == ["one three", "kept", "c"]
    assert echo.count(RUB_OUT) == 5 + 4 + 3


def test_ctrl_c_drops_the_line() -> None:
    echo, lines, editor = typed(b"oops\x03fine\r", b"half\x03")
    assert lines == ["fine"] and echo == "oops^C\r\nfine\r\nhalf^C\r\n"
    assert editor.partial == ""


def test_arrow_function_keys_and_paste_marks_are_swallowed() -> None:
    echo, lines, _ = typed(b"a\x1b[A\x1b[1;5C\x1bOPb\x1b[200~c\x1b[201~\x1bx\r")
    assert lines == ["abc"]
    assert "\x1b" not in echo and "[" not in echo


def test_an_escape_sequence_split_across_reads_is_still_swallowed() -> None:
    _, lines, _ = typed(b"a\x1b", b"[", b"1;2", b"Db\r")
    assert lines == ["ab"]


def test_a_runaway_escape_sequence_ends_and_enter_is_never_swallowed() -> None:
    _, lines, _ = typed(b"a\x1b[" + b"1" * 20 + b"b\r", b"c\x1b\r", b"d\x1b[1\re\r")
    assert lines == ["a1111b", "c", "d", "e"]  # a CSI ends after 16 parameter characters; Enter ends any


def test_control_characters_are_ignored_and_a_tab_is_a_space() -> None:
    _, lines, _ = typed(b"a\x01\x02\tb\x07\xc2\x85\r")  # SOH STX TAB b BEL NEL(C1)
    assert lines == ["a b"]


def test_a_password_is_neither_echoed_nor_shown() -> None:
    echo, lines, editor = typed(b"s3cret\x7fT\r", b"x" * 20 + b"\x03half", secret=True)
    assert echo == "" and lines == ["s3creT"]  # no Enter either: the connection writes it; no bell, no ^C
    assert editor.partial == "half" and editor.shown == ""


def test_a_line_stops_at_the_limit_and_each_key_past_it_rings_the_bell() -> None:
    echo, lines, _ = typed(b"x" * 20 + b"\t\r")
    assert lines == ["x" * 16]
    assert echo == "x" * 16 + "\a" * 5 + "\r\n"
    echo, lines, _ = typed("é".encode() * 16 + b"\x7fz\r")  # characters are counted, not their bytes
    assert lines == ["é" * 15 + "z"]


def test_output_is_written_above_a_half_typed_line_which_is_then_shown_again() -> None:
    keyboard = Keyboard()
    assert keyboard.around("news\n", ansi=True) == "news\n"  # nothing typed: nothing to do
    list(keyboard.feed(b"half a li", lambda: "utf-8"))
    assert keyboard.around("news\n", ansi=True) == CLEAR_LINE + "news\nhalf a li"
    assert keyboard.around("news\n", ansi=False) == "\r" + " " * 9 + "\r" + "news\nhalf a li"  # no ANSI: spaces
    assert keyboard.around("Password: ", ansi=True) == CLEAR_LINE + "Password: "  # not a finished line
    assert keyboard.around("", ansi=True) == ""
    keyboard.editor.secret = True
    assert keyboard.around("news\n", ansi=True) == "news\n"  # a password typed is not on the screen


@given(st.lists(st.binary(max_size=20), max_size=10), st.sampled_from(["utf-8", "cp437"]))
def test_any_bytes_give_lines_without_control_characters_and_never_raise(chunks: list[bytes], charset: str) -> None:
    _, lines, editor = typed(*chunks, charset=charset)
    for line in [*lines, editor.partial]:
        assert len(line) <= 16
        assert not any(ch < " " or "\x7f" <= ch < "\xa0" for ch in line)


KEYS = st.one_of(st.binary(max_size=60), st.text(max_size=20).map(str.encode))  # raw bytes, or UTF-8 as typed


@given(KEYS, st.lists(st.integers(0, 60), max_size=6), st.sampled_from(["utf-8", "cp437"]))
def test_how_the_keys_are_split_into_reads_changes_nothing(data: bytes, cuts: list[int], charset: str) -> None:
    at = sorted({0, len(data), *(min(cut, len(data)) for cut in cuts)})
    chunks = [data[start:end] for start, end in zip(at, at[1:], strict=False)]
    whole, split = typed(data, charset=charset), typed(*chunks, charset=charset)
    assert whole[:2] == split[:2] and whole[2].partial == split[2].partial


def test_a_rub_out_takes_back_the_cells_a_character_took_on_the_screen() -> None:
    """A wide character (CJK, fullwidth) takes two cells: Backspace rubs out both. A combining mark goes with the
    character it is on, and takes no cell of its own. Ctrl-U and Ctrl-W count cells alike."""
    echo, lines, _ = typed("日本".encode() + b"\x7f\r")
    assert lines == ["日"] and echo == "日本" + RUB_OUT * 2 + "\r\n"
    echo, lines, _ = typed("ae\u0301".encode() + b"\x08\r")  # a, e with a combining acute: one character shown
    assert lines == ["a"] and echo == "ae\u0301" + RUB_OUT + "\r\n"
    echo, lines, _ = typed("a日\u0301".encode() + b"\x15\r")
    assert lines == [""] and echo.count(RUB_OUT) == 3
    echo, lines, _ = typed("go 全角".encode() + b"\x17\r")
    assert lines == ["go "] and echo.count(RUB_OUT) == 4
    echo, lines, _ = typed("\u0301".encode() + b"\x7f\r")  # a lone combining mark: taken back, no cell to rub
    assert lines == [""] and RUB_OUT not in echo


def test_without_ansi_a_half_typed_wide_line_is_blanked_cell_for_cell() -> None:
    keyboard = Keyboard()
    list(keyboard.feed("日本語".encode(), lambda: "utf-8"))
    assert keyboard.around("news\n", ansi=False) == "\r" + " " * 6 + "\r" + "news\n日本語"


# no Esc (Ctrl-U would only end its sequence), no lone surrogate (no keyboard sends one; UTF-8 cannot)
@given(st.text(st.characters(blacklist_characters="\x1b", blacklist_categories=("Cs",)), max_size=12))
def test_ctrl_u_rubs_out_as_many_cells_as_the_typed_line_took(text: str) -> None:
    _, _, editor = typed(text.encode())
    shown = editor.partial
    assert editor.feed("\x15").echo == RUB_OUT * cell_width(shown)
    assert editor.partial == ""


def test_up_and_down_recall_the_lines_typed_before_and_come_back_to_the_one_being_typed() -> None:
    echo, lines, editor = typed(b"one\r", b"two\r", b"dr", b"\x1b[A", b"\x1b[A\x1bOA", b"\x1b[B")
    assert lines == ["one", "two"]
    assert editor.partial == "two"
    assert echo.endswith("dr" + RUB_OUT * 2 + "two" + RUB_OUT * 3 + "one" + RUB_OUT * 3 + "two")
    keyboard = Keyboard(16)
    for chunk in (b"one\r", b"one\r", b"two\r", b"x\x1b[A\x1b[A\x1b[A\x1b[B\x1b[B"):
        list(keyboard.feed(chunk, lambda: "utf-8"))
    assert keyboard.editor.history == ["one", "two"]  # a line typed again is kept once
    assert keyboard.editor.partial == "x"  # down past the newest: the line that was being typed


def test_a_password_is_never_kept_nor_recalled() -> None:
    keyboard = Keyboard(16)
    list(keyboard.feed(b"said\r", lambda: "utf-8"))
    keyboard.editor.secret = True
    edited = list(keyboard.feed(b"sekrit\r\x1b[A", lambda: "utf-8"))
    assert keyboard.editor.history == ["said"] and keyboard.editor.partial == ""
    assert all(e.echo == "" for e in edited)
