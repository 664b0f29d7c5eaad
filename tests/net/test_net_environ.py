"""Telnet NEW-ENVIRON (RFC 1572) as the server reads it: the locale a client sends, as the language it reads."""

from __future__ import annotations

from mudwiz.net import environ

VAR, VALUE, ESC, USERVAR = b"\x00", b"\x01", b"\x02", b"\x03"


def test_the_request_asks_for_each_locale_variable_both_ways() -> None:
    assert environ.request() == (b"\x01" + VAR + b"LC_ALL" + USERVAR + b"LC_ALL" + VAR + b"LC_MESSAGES" + USERVAR
                                 + b"LC_MESSAGES" + VAR + b"LANG" + USERVAR + b"LANG")


def test_an_answer_is_read_as_variables_a_name_without_a_value_left_out() -> None:
    answer = b"\x00" + USERVAR + b"LANG" + VALUE + b"ja_JP.UTF-8" + VAR + b"LC_ALL" + USERVAR + b"X" + VALUE \
        + b"a" + ESC + b"\x01b"
    assert environ.variables(answer) == {"LANG": "ja_JP.UTF-8", "X": "a\x01b"}
    assert environ.language(answer) == "ja"
    assert environ.variables(b"\x01" + VAR + b"LANG") == {}  # a SEND is no answer


def test_lc_all_overrides_lang_and_a_locale_without_a_catalog_is_none() -> None:
    both = b"\x00" + VAR + b"LANG" + VALUE + b"en_US.UTF-8" + VAR + b"LC_ALL" + VALUE + b"ja_JP.eucJP"
    assert environ.language(both) == "ja"
    assert environ.language(b"\x00" + VAR + b"LANG" + VALUE + b"fr_FR") is None
    assert environ.language(b"\x02" + USERVAR + b"LANG" + VALUE + b"ja") == "ja"  # INFO: it changed
