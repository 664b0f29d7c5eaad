"""``mudwiz door`` as a BBS runs it: on a pseudo-terminal (the caller), with a drop file written here in each
format, against a live server's rlogin port; the BBS time runs on a fast clock (``MUDWIZ_DOOR_MINUTE``).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pyte
import pytest
from wire import ROOT, JsonClient, RestartableServer, Terminal, eventually, free_port, running_server

from mudwiz.door import DoorError, TimeLeft, read_drop_file

SECRET = "d00rkey"
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def door32(handle: str = "Door Lee", minutes: str = "6", emulation: str = "1", node: str = "3") -> str:
    """A DOOR32.SYS as ENiGMA½ and Mystic write it: comm type, handle, baud, BBS, record, real name, alias,
    security, minutes left, emulation, node."""
    return "\r\n".join(["2", "-1", "115200", "Test BBS 1.0", "7", "Lee Real", handle, "30", minutes, emulation,
                        node]) + "\r\n"


def door_sys(alias: str = "Lee2", full_name: str = "Lee Full", seconds: str = "240", graphics: str = "NG",
             rows: str = "25") -> str:
    """A 52-line DOOR.SYS as Synchronet writes it (the lines not read hold the spec's sample values)."""
    lines = ["COM0:", "115200", "8", "2", "115200", "Y", "Y", "Y", "Y", full_name, "Somewhere", "555", "555",
             "", "30", "12", "01/01/26", seconds, str(int(seconds) // 60), graphics, rows, "N", "1,2,3", "1",
             "01/01/99", "7", "Z", "0", "0", "0", "999999", "01/01/00", "C:\\SBBS", "C:\\SBBS", "Sysop", alias,
             "00:00", "Y", "N", "Y", "7", "1", "01/01/26", "00:00", "00:00", "0", "0", "0", "0", "", "0", "0"]
    assert len(lines) == 52
    return "\r\n".join(lines) + "\r\n"


@pytest.fixture(scope="module")
def rlogin_server() -> Iterator[tuple[tuple[str, int], int]]:
    rlogin = free_port()
    trust = f"door:{SECRET} dove=127.0.0.3"  # 127.0.0.1, where the door connects from, is not trusted by address
    with running_server(MUDWIZ_RLOGIN=f"tcp:{rlogin}:interface=127.0.0.1", MUDWIZ_RLOGIN_BBS=trust) as server:
        yield (server[0], server[1]), rlogin


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def door(path: Path, rlogin: int, minute: str, secret: str = SECRET) -> Terminal:
    env = {**os.environ, "MUDWIZ_DOOR_MINUTE": minute}
    return Terminal([sys.executable, "-m", "mudwiz.cli", "door", str(path), "--server", f"127.0.0.1:{rlogin}",
                     "--secret", secret], env=env)


def door32_caller(tmp_path: Path, rlogin: int, handle: str = "Door Lee", minute: str = "60") -> Terminal:
    """The door run for a DOOR32.SYS caller of ``handle`` (written in ``tmp_path``)."""
    drop = tmp_path / "door32.sys"
    drop.write_text(door32(handle=handle), encoding="cp437")
    return door(drop, rlogin, minute=minute)


def screen_of(text: str) -> list[str]:
    screen = pyte.Screen(80, 24)
    pyte.Stream(screen).feed(text)
    return screen.display


def test_a_door32_caller_plays_is_warned_and_leaves_the_table_cleanly_when_time_is_up(rlogin_server, tmp_path) -> None:
    telnet, rlogin = rlogin_server
    drop = tmp_path / "door32.sys"
    drop.write_text(door32(), encoding="cp437")
    ann = JsonClient(telnet, "Ann_door")
    caller = door(drop, rlogin, minute="1.5")  # 6 minutes of 1.5 s: warned at 1.5 s, 7.5 s, 8.75 s, out at 9 s
    try:
        caller.read_until(b"Welcome, Door_Lee@door!")
        caller.type("/new wizard")
        caller.read_until(b" is yours")
        ann.wait_for(lambda m: m["type"] == "notice" and "Door_Lee@door opens table" in m["text"])
        caller.read_until(b"*** 5 minutes of your BBS time left ***")
        caller.read_until(b"*** 1 minute of your BBS time left ***")
        caller.read_until(b"*** 10 seconds of your BBS time left ***")
        up = caller.read_until(b"*** Your BBS time is up: goodbye. ***").index(b"goodbye. ***") + 12
        caller.read_until(b"you leave table 1", since=up)  # the server's answers to the door's /bye
        caller.read_until(b"bye", since=up)
        assert caller.proc.wait(timeout=15) == 0
        ann.wait_for(lambda m: m["type"] == "notice" and m["text"] == "Door_Lee@door has left.")
        ann.request("/tables")
        listed = [m for m in ann.messages[ann.mark:] if m["type"] == "tables"]
        assert listed and "Door_Lee@door" not in str(listed[-1]["tables"])  # they left it: it closed, empty
        text = caller.output.decode("cp437")
        assert "\x1b[" in text and "\u2500" in text  # ANSI and CP437 rules, for an ANSI caller
        screen = screen_of(text)
        assert any("Your BBS time is up" in row for row in screen)
        capture = os.environ.get("MUDWIZ_CAPTURE_DIR")  # docs/bbs.md's screens come from here
        if capture:
            Path(capture, "door-cp437.txt").write_text("\n".join(row.rstrip() for row in screen) + "\n")
        for line in ANSI.sub("", text).replace("\b \b", "").split("\r\n"):
            assert len(line) <= 80, line  # nothing past the width
    finally:
        caller.close()
        ann.close()


def test_time_up_in_the_lobby_is_a_goodbye_with_no_error_line(rlogin_server, tmp_path) -> None:
    """The door typed /leave then /quit: in the lobby the caller's last sight was ``! you are not at a table``."""
    caller = door32_caller(tmp_path, rlogin_server[1], "Idler", minute="0.5")  # 6 minutes of 0.5 s: out at 3 s
    try:
        caller.read_until(b"Welcome, Idler@door!")
        up = caller.read_until(b"*** Your BBS time is up: goodbye. ***").index(b"goodbye. ***") + 12
        caller.read_until(b"bye", since=up)  # the server's answer to the door's /bye
        assert caller.proc.wait(timeout=15) == 0
        text = ANSI.sub("", caller.output.decode("cp437"))
        after = text[text.index("Your BBS time is up"):]
        assert not any(line.startswith("! ") for line in text.split("\r\n")), after  # an error line
        assert "not at a table" not in text, after
        assert "leave" not in after  # nothing said of a table
        assert b"Press any key" not in caller.output
    finally:
        caller.close()


def test_a_door_sys_caller_without_graphics_gets_plain_ascii_and_only_the_warning_still_ahead(
        rlogin_server, tmp_path) -> None:
    _, rlogin = rlogin_server
    drop = tmp_path / "DOOR.SYS"
    drop.write_text(door_sys(seconds="240", graphics="NG"), encoding="cp437")  # 4 minutes: no 5-minute warning
    caller = door(drop, rlogin, minute="1.5")
    try:
        caller.read_until(b"Welcome, Lee2@door!")  # the alias (line 36), not the full name
        caller.type("/who")
        caller.read_until(b"Lee2@door")
        caller.read_until(b"Your BBS time is up")
        assert caller.proc.wait(timeout=15) == 0
        assert b"1 minute of your BBS time left" in caller.output and b"5 minutes" not in caller.output
        assert max(caller.output) < 0x80 and b"\x1b[" not in caller.output  # plain ASCII: no colour, no CP437
        screen = screen_of(caller.output.decode("ascii"))
        assert any("Your BBS time is up" in row for row in screen)
    finally:
        caller.close()


def run_door(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mudwiz.cli", "door", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=30, stdin=subprocess.DEVNULL)


def test_a_wrong_secret_is_refused_in_one_line_and_the_door_exits(rlogin_server, tmp_path) -> None:
    _, rlogin = rlogin_server
    drop = tmp_path / "door32.sys"
    drop.write_text(door32(), encoding="cp437")
    done = run_door(str(drop), "--server", f"127.0.0.1:{rlogin}", "--secret", "guess")
    assert done.returncode == 1
    assert done.stderr == ("mudwiz door: this rlogin port takes callers of the BBSes its sysop trusts only; "
                           "connect by telnet\n")  # the program named once (the refusal's own "mudwiz: " goes)
    assert done.stdout.startswith("mudwiz: this rlogin port")  # the caller is told too


def test_a_banned_handle_is_refused_at_the_handshake_and_the_door_exits_1(tmp_path) -> None:
    """The server let the banned caller's handshake through, then said the ban and closed, and the door took
    that for a caller who was done: exit status 0, and the BBS had no way to tell."""
    import time

    from mudwiz.store import Ban, open_store

    data = tmp_path / "data"
    data.mkdir()
    store = open_store(data)
    store.add_ban(Ban("name", "Door_Lee@door", None, "admin", time.time()))
    store.close()
    rlogin = free_port()
    with running_server(MUDWIZ_DATA=str(data), MUDWIZ_RLOGIN=f"tcp:{rlogin}:interface=127.0.0.1",
                        MUDWIZ_RLOGIN_BBS=f"door:{SECRET}"):
        drop = tmp_path / "door32.sys"
        drop.write_text(door32(), encoding="cp437")
        done = run_door(str(drop), "--server", f"127.0.0.1:{rlogin}", "--secret", SECRET)
        assert done.returncode == 1, done
        assert done.stderr == "mudwiz door: Door_Lee@door is banned from this server until a sysop lifts it\n"
        assert done.stdout.startswith("mudwiz: Door_Lee@door is banned")  # the caller is told too
        drop.write_text(door32(handle="Door Other"), encoding="cp437")
        other = door(drop, rlogin, minute="60")  # another handle of the same BBS comes in
        try:
            other.read_until(b"Welcome, Door_Other@door!")
        finally:
            other.close()


@pytest.mark.parametrize(("name", "content", "error"), [
    ("door32.sys", door32(minutes="lots"), "line 9 (minutes left) of the DOOR32.SYS is 'lots', not a whole number"),
    ("door32.sys", "2\r\n-1\r\n", "is no DOOR32.SYS: 2 lines, not 11 or more"),
    ("door32.sys", door32(handle=""), "line 7 (handle) of the DOOR32.SYS is empty"),
    ("DOOR.SYS", door_sys().replace("\r\nNG\r\n", "\r\n\r\n"), "line 20 (graphics mode) of the DOOR.SYS is empty"),
    ("DOOR.SYS", "COM1:\r\n" * 10, "is no DOOR.SYS: 10 lines, not 21 or more"),
    # found by a probe: these were taken without a word (an emulation 9 drawn as ANSI), or said "1 lines"
    ("door32.sys", door32(emulation="9"), "line 10 (emulation) of the DOOR32.SYS is '9', not 0 to 4"),
    ("DOOR.SYS", door_sys(rows="abc"), "line 21 (screen rows) of the DOOR.SYS is 'abc', not a whole number"),
    ("DOOR.SYS", door_sys(graphics="XX"), "line 20 (graphics mode) of the DOOR.SYS is 'XX', not GR, RIP, NG or 7E"),
    ("door32.sys", "junk", "is no DOOR32.SYS: 1 line, not 11 or more"),
])
def test_a_bad_drop_file_is_one_line_naming_the_line(tmp_path, name, content, error) -> None:
    drop = tmp_path / name
    drop.write_text(content, encoding="cp437")
    done = run_door(str(drop), "--server", "127.0.0.1:1")
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and error in done.stderr, done.stderr


def test_an_unreachable_server_is_one_line(tmp_path) -> None:
    drop = tmp_path / "door32.sys"
    drop.write_text(door32(), encoding="cp437")
    done = run_door(str(drop), "--server", f"127.0.0.1:{free_port()}")
    assert done.returncode == 1
    assert done.stderr.startswith("mudwiz door: cannot reach the mudwiz server at 127.0.0.1:") and \
        done.stderr.count("\n") == 1


def test_a_server_address_that_is_no_rlogin_port_is_one_line_saying_so(rlogin_server, tmp_path) -> None:
    """``--server nonsense`` printed Python's ``invalid literal for int()``; the telnet port (an easy slip) the
    first line of its message of the day, as if it were the refusal (found by a probe)."""
    address, _ = rlogin_server
    drop = tmp_path / "door32.sys"
    drop.write_text(door32(), encoding="cp437")
    for server, error in (("nonsense", "the mudwiz server's address is HOST:PORT (its rlogin port), not 'nonsense'"),
                          (f"[::1]:{free_port()}", "cannot reach the mudwiz server at [::1]:"),  # read as ::1
                          (f"127.0.0.1:{address[1]}", "is no rlogin port (MUDWIZ_RLOGIN): is it the telnet port?")):
        done = run_door(str(drop), "--server", server)
        assert done.returncode == 1 and done.stderr.count("\n") == 1 and error in done.stderr, done.stderr
        assert "not known" not in done.stderr  # [::1] was looked up as a host name (found by a probe)


def test_an_accented_handle_loses_its_accents_not_its_letters(rlogin_server, tmp_path) -> None:
    """The door read the drop file as CP437 and sent the handle so, where the rlogin port reads UTF-8: José
    Müller came in as Jos_Mller (found by a probe). bbs.md: accents are dropped from their letters."""
    caller = door32_caller(tmp_path, rlogin_server[1], "José Müller")
    try:
        caller.read_until(b"Welcome, Jose_Muller@door!")
    finally:
        caller.close()


def test_drop_files_read_as_the_specs_number_their_lines(tmp_path) -> None:
    drop = tmp_path / "door32.sys"
    drop.write_text(door32(handle="Ann B", minutes="10", emulation="0", node="4"), encoding="cp437")
    caller = read_drop_file(drop, minute=60)
    assert (caller.handle, caller.ansi, caller.rows, caller.seconds_left, caller.node) == ("Ann B", False, 24, 600, 4)
    assert caller.terminal == "dumb"
    drop = tmp_path / "DOOR.SYS"
    drop.write_text(door_sys(alias="", full_name="Full Name", seconds="90", graphics="GR", rows="40"))
    caller = read_drop_file(drop, minute=60)
    assert (caller.handle, caller.ansi, caller.rows, caller.seconds_left, caller.node) == ("Full Name", True, 40, 90, 2)
    assert caller.terminal == "ansi-bbs"
    other = tmp_path / "drop.txt"  # another name: told apart by the first line (DOOR.SYS starts with COMn:)
    other.write_text(door_sys(alias="Al"))
    assert read_drop_file(other).handle == "Al"
    with pytest.raises(DoorError, match="cannot read the drop file"):
        read_drop_file(tmp_path / "missing.sys")


def test_odd_drop_file_bytes_are_read_without_a_crash_and_kept_out_of_the_handle(tmp_path) -> None:
    """Found by a probe: CP437's ``²`` (0xFD) passed ``str.isdigit`` and crashed ``int``; a NUL in the alias
    shifted the rlogin handshake's fields; 10**25 minutes overflowed ``select``'s timeout."""
    drop = tmp_path / "DOOR.SYS"
    text = door_sys(alias="Ali\0as\x07", rows="").replace("\r\n240\r\n4\r\n", "\r\n\xfd\r\n4\r\n")
    drop.write_bytes(text.encode("latin-1"))
    caller = read_drop_file(drop, minute=60)
    assert (caller.handle, caller.rows, caller.seconds_left) == ("Alias", 24, 4 * 60)  # line 19's 4 minutes
    drop.write_bytes(door_sys(rows="\xfd").encode("latin-1"))
    with pytest.raises(DoorError, match="line 21 \\(screen rows\\) of the DOOR.SYS is '²', not a whole number"):
        read_drop_file(drop)
    drop32 = tmp_path / "door32.sys"
    drop32.write_text(door32(handle="\0\x1b", minutes="9" * 25), encoding="cp437")
    with pytest.raises(DoorError, match="line 7 \\(handle\\) of the DOOR32.SYS is empty"):
        read_drop_file(drop32)
    drop32.write_text(door32(minutes="9" * 25), encoding="cp437")
    left = TimeLeft(read_drop_file(drop32, minute=60).seconds_left, minute=60, now=0)
    assert 0 < left.next_event(0) <= 7 * 86400  # a week at most: as good as no limit, and select takes it


def test_time_left_warns_once_at_each_mark_still_ahead() -> None:
    left = TimeLeft(seconds=360, minute=60, now=0)  # 6 minutes
    assert left.next_event(0) == 60 and left.due(0) is None
    assert left.due(60) == "*** 5 minutes of your BBS time left ***" and left.due(61) is None
    assert left.next_event(61) == 239
    assert left.due(300) == "*** 1 minute of your BBS time left ***"
    assert left.next_event(300) == 50 and left.due(349) is None
    assert left.due(350) == "*** 10 seconds of your BBS time left ***"
    assert not left.up(359) and left.up(360) and left.next_event(400) == 0
    assert TimeLeft(seconds=120, minute=60, now=0).warnings == [60, 10]  # 2 minutes: no 5-minute warning
    late = TimeLeft(seconds=360, minute=60, now=0)
    assert late.due(355) == "*** 10 seconds of your BBS time left ***" and late.warnings == []  # the nearest, once


def test_the_server_killed_under_a_caller_is_one_line_a_key_and_exit_1(tmp_path) -> None:
    """The door exited 0 and showed the caller nothing: the BBS drew its menu as if they had quit."""
    rlogin = free_port()
    server = RestartableServer(tmp_path / "data", tmp_path / "server.log",
                               MUDWIZ_RLOGIN=f"tcp:{rlogin}:interface=127.0.0.1", MUDWIZ_RLOGIN_BBS=f"door:{SECRET}")
    server.start()
    eventually(lambda: listening(rlogin), what="the rlogin port")
    caller = door32_caller(tmp_path, rlogin)
    try:
        caller.read_until(b"Welcome, Door_Lee@door!")
        caller.type("/new wizard")
        caller.read_until(b" is yours")
        server.kill()
        shown = caller.read_until(b"Press any key to return to the BBS.")
        assert b"*** The mudwiz server closed the connection. ***" in shown
        assert caller.proc.poll() is None  # waiting for the key
        os.write(caller.master, b" ")
        assert caller.proc.wait(timeout=15) == 1
    finally:
        caller.close()


def test_a_callers_own_quit_ends_the_door_with_0_and_no_such_line(rlogin_server, tmp_path) -> None:
    caller = door32_caller(tmp_path, rlogin_server[1], "Quitter")
    try:
        caller.read_until(b"Welcome, Quitter@door!")
        os.write(caller.master, b"/quot\x7f\x7fit\r")  # typed with a slip, rubbed out: /quit
        assert caller.proc.wait(timeout=15) == 0
        assert b"Press any key" not in caller.output
    finally:
        caller.close()


def test_lang_chooses_the_callers_language_and_the_doors_own_lines_follow_it(rlogin_server, tmp_path) -> None:
    """No drop file says a language: ``--lang`` does. Japanese in Shift_JIS bytes for a ``--charset sjis`` caller,
    the door's time warnings and goodbye too; English on the same Japanese BBS when the sysop says ``en``."""
    def run(handle: str, lang: str, minute: str) -> Terminal:
        drop = tmp_path / handle / "door32.sys"
        drop.parent.mkdir()
        drop.write_text(door32(handle=handle, minutes="6"), encoding="cp437")
        return Terminal([sys.executable, "-m", "mudwiz.cli", "door", str(drop), "--server",
                         f"127.0.0.1:{rlogin_server[1]}", "--secret", SECRET, "--charset", "sjis", "--lang", lang],
                        env={**os.environ, "MUDWIZ_DOOR_MINUTE": minute})

    japanese = run("Hana", "ja", "1")  # 6 minutes of 1 s: warned at 1 s, 5 s, 5.83 s; out at 6 s
    english = run("Ann", "en", "60")
    try:
        japanese.read_until("ようこそ、Hana@door さん".encode("cp932"))
        japanese.read_until("*** BBS の残り時間はあと 5 分です ***".encode("cp932"))
        japanese.read_until("*** BBS の残り時間はあと 10 秒です ***".encode("cp932"))
        japanese.read_until("*** BBS の利用時間が終わりました。さようなら。 ***".encode("cp932"))
        assert japanese.proc.wait(timeout=15) == 0
        assert b"of your BBS time left" not in japanese.output
        english.read_until(b"language: en")  # the door's first line, its answer English (the welcome was not)
        assert "ようこそ、Ann@door さん".encode("cp932") in english.output
        os.write(english.master, b"/quit\r")
        assert english.proc.wait(timeout=15) == 0
    finally:
        japanese.close()
        english.close()


def test_a_language_mudwiz_has_not_is_one_line_and_status_1(tmp_path) -> None:
    drop = tmp_path / "door32.sys"
    drop.write_text(door32(), encoding="cp437")
    caller = Terminal([sys.executable, "-m", "mudwiz.cli", "door", str(drop), "--lang", "fr"])
    try:
        shown = caller.read_until(b"Press any key to return to the BBS.")
        assert b"mudwiz: --lang is a language mudwiz has (en, ja), not 'fr'" in shown
        os.write(caller.master, b" ")
        assert caller.proc.wait(timeout=15) == 1
    finally:
        caller.close()
