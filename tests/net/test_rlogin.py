"""The rlogin pieces without a socket: the trust list, the handshake, window-size controls in the key stream, and
the ``handle@bbs`` names only a BBS link may give. The line editor for its raw keys is tests/net/test_lineedit.py."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import pytest
from twisted.internet import task
from wire import ROOT

from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.net.rlogin import Handshake, Trust, TrustError, choice, read_handshake, take_windows
from mudwiz.usertext import bbs_name


def test_trust_by_address_network_or_secret() -> None:
    trust = Trust.parse("dove=192.0.2.10,10.1.0.0/16;fsx:s3cret  v6=2001:db8::1 fsx=198.51.100.7")
    assert trust.tag_for("192.0.2.10", "") == "dove"
    assert trust.tag_for("::ffff:192.0.2.10", "") == "dove"  # IPv4 on a dual-stack socket
    assert trust.tag_for("10.1.200.3", "anything") == "dove"
    assert trust.tag_for("2001:db8::1", "") == "v6"
    assert trust.tag_for("203.0.113.5", "s3cret") == "fsx"  # the secret from anywhere
    assert trust.tag_for("198.51.100.7", "") == "fsx"  # and its address too
    assert trust.tag_for("192.0.2.10", "s3cret") == "fsx"  # a secret names its BBS wherever it comes from
    assert trust.tag_for("203.0.113.5", "s3cre") is None
    assert trust.tag_for("203.0.113.5", "") is None
    assert trust.tag_for("", "") is None  # a unix socket
    assert not Trust.parse("  ")


@pytest.mark.parametrize(("text", "error"), [
    ("dove", "'dove' is neither TAG=ADDRESS[,ADDRESS] nor TAG:SECRET"),
    ("dove:", "'dove:' is neither"),
    ("dove=", "'dove=' names no address"),
    ("bad.tag=127.0.0.1", "the tag 'bad.tag' is not 1 to 15"),
    ("dove=bbs.example.org", "'bbs.example.org' is not an IP address or network"),
    ("a_tag_that_is_too_long:x", "is not 1 to 15"),
])
def test_a_trust_list_that_cannot_be_read_says_which_entry(text: str, error: str) -> None:
    with pytest.raises(TrustError, match=error.replace("[", r"\[").replace("]", r"\]")):
        Trust.parse(text)


def test_the_handshake_is_four_strings_and_anything_else_is_refused() -> None:
    assert read_handshake(b"\0joe\0") is None  # not all here yet
    shake, rest = read_handshake(b"\0Joe Smith\0s3cret\0ansi-bbs/38400\0keys") or (None, b"")
    assert shake == Handshake("Joe Smith", "s3cret", "ansi-bbs") and rest == b"keys"
    with pytest.raises(ValueError, match="this is an rlogin port"):
        read_handshake(b"GET / HTTP/1.0\r\n")
    with pytest.raises(ValueError, match="longer than 1024 bytes"):
        read_handshake(b"\0" + b"x" * 2000)


def test_a_handle_in_cp437_or_utf8_is_one_name_by_rlogin_and_by_the_door(tmp_path) -> None:
    """Synchronet sends a handle in CP437 (``J\x94rg``): read as UTF-8 its ö was lost (``Jrg@fsx``), while the door,
    reading its drop file as CP437, made it ``Jorg@...``: one caller, two names (found by a probe)."""
    from mudwiz.door import read_drop_file

    for raw in ("Jörg".encode("cp437"), "Jörg".encode()):
        shake, _ = read_handshake(b"\0" + raw + b"\0s3cret\0ansi-bbs/38400\0") or (None, b"")
        assert shake is not None and bbs_name(shake.client_user, "fsx") == "Jorg@fsx"
        drop = tmp_path / "door32.sys"
        drop.write_bytes(b"\r\n".join([b"2", b"0", b"38400", b"BBS", b"1", b"Real Name", raw, b"100", b"6", b"1",
                                        b"3"]) + b"\r\n")
        assert bbs_name(read_drop_file(drop).handle, "fsx") == "Jorg@fsx"


def test_window_size_controls_are_taken_out_of_the_keys_even_split_across_reads() -> None:
    control = b"\xff\xffss" + bytes([0, 30, 0, 132, 0, 0, 0, 0])  # rows 30, columns 132
    assert take_windows(b"ab" + control + b"cd") == (b"abcd", [(132, 30)], b"")
    keys, sizes, tail = take_windows(b"ab" + control[:5])
    assert (keys, sizes, tail) == (b"ab", [], control[:5])
    assert take_windows(tail + control[5:] + b"x") == (b"x", [(132, 30)], b"")
    assert take_windows(b"\xff\xfe\xffA") == (b"\xff\xfe\xffA", [], b"")  # other 255s are keys (CP437 NBSP)


def test_terminal_types_choose_mode_and_charset_with_cp437_for_a_bbs() -> None:
    assert choice("ansi-bbs") == choice("ANSI") == choice("") == choice("syncterm")
    assert (choice("ansi").mode, choice("ansi").charset) == ("ansi", "cp437")
    assert (choice("dumb").mode, choice("dumb").charset) == ("ascii", "ascii")
    assert choice("xterm-utf-8").charset == "utf-8"
    # the rlogin program in a Unix terminal: its UTF-8 was drawn as CP437, and its typing read as CP437, garbling
    # its chat for everyone (found by a probe)
    unix = [choice(term) for term in ("xterm-256color", "screen", "tmux-256color", "linux", "st-256color", "putty")]
    assert {(c.mode, c.charset) for c in unix} == {("ansi", "utf-8")}


def test_bbs_names_fit_the_rule_and_only_a_bbs_link_may_log_one_in() -> None:
    assert bbs_name("Joe Smith", "dove") == "Joe_Smith@dove"
    assert bbs_name("  Zoë-Ann!! ", "fsx") == "Zoe-Ann@fsx"
    assert bbs_name("A very long handle indeed", "x") == "A_very_long_hand@x"
    assert bbs_name("!", "dove") is None
    lobby = Lobby(task.Clock())
    assert lobby.check_name("Joe_Smith@dove", bbs="dove") == "Joe_Smith@dove"
    with pytest.raises(BadCommand, match="a name is 2 to 16"):
        lobby.check_name("Joe_Smith@dove")  # typed at the prompt
    with pytest.raises(BadCommand, match="HANDLE@fsx"):
        lobby.check_name("Joe_Smith@dove", bbs="fsx")  # one BBS cannot speak for another's callers


def test_an_rlogin_port_with_no_trusted_bbs_does_not_start() -> None:
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "MUDWIZ_RLOGIN": "tcp:0", "MUDWIZ_RLOGIN_BBS": "", "MUDWIZ_DATA": data}
        done = subprocess.run([sys.executable, "-m", "mudwiz.cli", "serve", "--listen", "tcp:0"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=30)
    assert done.returncode == 1
    assert done.stderr == ("mudwiz: MUDWIZ_RLOGIN is set but MUDWIZ_RLOGIN_BBS names no BBS (TAG=ADDRESS or "
                           "TAG:SECRET): every caller would be refused\n")
