"""Telnet's character mode (mudwiz/net/charmode.py) fed bytes on a ``StringTransport``: a terminal is offered
``WILL ECHO`` and ``WILL SGA`` once its terminal type is known and its keys are then edited on the server; a MUD
client, a client that refuses, and a password typed meanwhile are handled as line mode always was."""

from __future__ import annotations

import re
from pathlib import Path

from test_net_terminal import IAC_SB, IAC_SE, telnet_protocol
from twisted.internet.testing import StringTransport

from mudwiz.accounts import Accounts
from mudwiz.net.telnet import TERMINAL_WAIT, TelnetLines
from mudwiz.store import open_store

IAC = b"\xff"
WILL, WONT, DO, DONT = b"\xfb", b"\xfc", b"\xfd", b"\xfe"
ECHO, SGA, TTYPE, NAWS = b"\x01", b"\x03", b"\x18", b"\x1f"
WILL_ECHO, WILL_SGA = IAC + WILL + ECHO, IAC + WILL + SGA
COLOUR = re.compile(rb"\x1b\[[0-9;]*m")


def said(transport: StringTransport) -> bytes:
    """What was written, without its colours."""
    return COLOUR.sub(b"", transport.value())


def ttype(*names: bytes) -> bytes:
    return IAC + WILL + TTYPE + b"".join(IAC_SB + TTYPE + b"\x00" + name + IAC_SE for name in names)


def with_accounts(lines: TelnetLines, directory: Path) -> None:
    """Accounts for the server, passwords checked inline (on the lobby's fake clock)."""
    lobby = lines.mud().lobby
    lobby.accounts = Accounts(open_store(directory / "data"), lobby.clock)


def connected(*names: bytes, name: bytes = b"keys_user", accounts: Path | None = None,
              ) -> tuple[TelnetLines, StringTransport]:
    """A telnet client named in the first line, its terminal type answered with ``names``."""
    lines, transport = telnet_protocol()
    if accounts is not None:
        with_accounts(lines, accounts)
    lines.transport.dataReceived(name + b"\r\n" + IAC + WONT + NAWS + ttype(*names))  # type: ignore[union-attr]
    return lines, transport


def test_a_terminal_is_offered_character_mode_and_its_keys_are_edited_here() -> None:
    lines, transport = connected(b"XTERM", b"XTERM")
    assert WILL_ECHO in transport.value() and WILL_SGA in transport.value()
    assert lines.keyboard is None  # not before both are agreed
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(IAC + DO + ECHO + IAC + DO + SGA)
    assert lines.keyboard is not None
    transport.clear()
    feed(b"/sa")
    assert transport.value() == b"/sa"  # each key echoed as it comes
    feed(b"y hi\r\0")
    assert said(transport).endswith(b"y hi\r\n[lobby] keys_user: hi\r\n")
    feed(b"half")
    transport.clear()
    lines.send("news\n")
    assert transport.value() == b"\r\x1b[Knews\r\nhalf"  # output above the half-typed line, drawn again after it
    transport.clear()
    feed(b"\x15\x1b[A")  # Ctrl-U, then Up: the last line back
    assert transport.value().endswith(b"/say hi")
    feed(b"\r")
    assert said(transport).endswith(b"[lobby] keys_user: hi\r\n")


def test_a_mud_client_is_never_offered_echo_or_sga() -> None:
    for names in ((b"MUDLET", b"ANSI-TRUECOLOR", b"MTTS 2349"), (b"TINTIN++", b"xterm", b"MTTS 137"),
                  (b"xterm", b"MTTS 9")):
        lines, transport = connected(*names)
        assert WILL_ECHO not in transport.value() and WILL_SGA not in transport.value(), names
        assert lines.keyboard is None


def test_a_client_that_refuses_either_stays_in_line_mode_and_the_other_is_withdrawn() -> None:
    lines, transport = connected(b"vt100", b"vt100")
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    transport.clear()
    feed(IAC + DO + ECHO + IAC + DONT + SGA)
    assert lines.keyboard is None and transport.value() == IAC + WONT + ECHO
    transport.clear()
    feed(b"/say lines\r\n")
    assert said(transport).endswith(b"[lobby] keys_user: lines\r\n") and IAC not in transport.value()


def test_a_terminal_that_withdraws_echo_goes_back_to_line_mode() -> None:
    lines, transport = connected(b"xterm", b"xterm")
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(IAC + DO + ECHO + IAC + DO + SGA)
    assert lines.keyboard is not None
    transport.clear()
    feed(IAC + DONT + ECHO)
    assert lines.keyboard is None and IAC + WONT + SGA in transport.value()


def test_a_password_asked_while_character_mode_is_offered_is_never_echoed(tmp_path: Path) -> None:
    lines, transport = connected(b"xterm", b"xterm", accounts=tmp_path)
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(b"/register\r\n")
    assert transport.value().endswith(b"Password: ")
    transport.clear()
    feed(IAC + DO + ECHO + IAC + DO + SGA + b"sekrit-pw")
    assert transport.value() == b""  # no echo of a password, and no echo marks: the editor hides it
    feed(b"-1\r")
    assert b"Again: " in transport.value() and b"sekrit" not in transport.value()
    feed(b"sekrit-pw-1\r")
    assert b"sekrit" not in transport.value() and IAC + WONT + ECHO not in transport.value()
    transport.clear()
    feed(b"\x1b[A")  # a password is never in the history
    assert transport.value() == b""


def test_a_password_typed_in_line_mode_delays_the_offer_until_it_is_in(tmp_path: Path) -> None:
    lines, transport = telnet_protocol()
    with_accounts(lines, tmp_path)
    feed = lines.transport.dataReceived  # type: ignore[union-attr]
    feed(b"pw_first\r\n" + IAC + WONT + NAWS)
    lines.mud().lobby.clock.advance(TERMINAL_WAIT)  # type: ignore[attr-defined]  # a task.Clock
    feed(b"/register\r\n")
    assert transport.value().endswith(WILL_ECHO + b"Password: ")  # line mode: echo marks, as ever
    feed(ttype(b"xterm", b"xterm"))
    assert WILL_SGA not in transport.value()  # not while the password is typed
    feed(b"sekrit-pw-2\r\n" + b"sekrit-pw-2\r\n")
    out = transport.value()
    assert b"pw_first is registered" in out and WILL_SGA in out[out.index(b"Again: "):]  # its WILL ECHO kept
    assert out.count(WILL_ECHO) == 1 and IAC + WONT + ECHO not in out
    feed(IAC + DO + SGA)
    assert lines.keyboard is not None
