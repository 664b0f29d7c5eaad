"""``mudwiz door DROPFILE``: mudwiz as a BBS door, for BBSes that run doors as programs (docs/bbs.md).

The BBS runs the door with the caller on its stdin and stdout and writes a drop file about them: DOOR32.SYS or
DOOR.SYS (``read_drop_file``). The door connects to a mudwiz server's rlogin port (net/rlogin.py) as that
caller, trusted by the door's secret (the server-user field) or by its address, and relays bytes both ways
untouched: the terminal is put in raw mode when stdin is one, and the server echoes and edits the line, so the
door needs no line discipline of its own. The caller's name there is ``handle@tag``, the tag being the one the
server's ``MUDWIZ_RLOGIN_BBS`` gives the secret.

A server that refuses the caller, cannot be reached or goes away mid-session (killed, restarted) is said in one
line, with a key to press to return to the BBS, and the door exits 1; a caller's own ``/quit`` exits 0.

A door must not outlive the caller's time on the BBS: ``TimeLeft`` warns them at 5 minutes, 1 and 10 seconds, and at
zero the door says goodbye (``/bye``: it leaves the table or stops watching, so a bot takes the seat at once
rather than after the grace period, and quits; in the lobby it just quits, with no error), and exits.
``MUDWIZ_DOOR_MINUTE`` (seconds in a minute, 60) exists so tests need not wait.

The caller's language: no drop file names one, so the sysop says it (``--lang``, ``$MUDWIZ_DOOR_LANG``); the door
then chooses it for the caller (``/lang``, their first line) and says its own lines in it. Without one, a Japanese
charset's caller reads Japanese (the server takes the charset as the hint, as for any session) and others the
server's language. The door's own lines are Japanese only where the caller's bytes can carry it (``--charset``).
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import socket
import struct
import sys
import termios
import time
import tty
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NoReturn

from mudwiz.texts import ENGLISH, N_, later_n, pick, speaking
from mudwiz.texts import now as say  # ``now`` is the time here
from mudwiz.usertext import bbs_text

DEFAULT_SERVER = "127.0.0.1:4513"
WARNINGS = (300, 60, 10)  # seconds left (in door seconds: a minute is MUDWIZ_DOOR_MINUTE) at which the caller is told
KEY_WAIT = 60.0  # seconds the door waits for a key before it returns to the BBS anyway, after the server is gone
COLUMNS = 80  # what a door draws for: BBS terminals are 80 columns; DOOR.SYS says only the rows
DEFAULT_ROWS = 24
MAX_DROP_FILE = 64 * 1024  # bytes: a drop file is some 50 short lines
GOODBYE_WAIT = 5.0  # seconds the server has to say goodbye after /bye

# The door's own lines to the caller, said in the door's language (``run``)
TIME_LEFT = N_("*** {left} of your BBS time left ***")
CLOSED = N_("*** The mudwiz server closed the connection. ***")
PRESS_A_KEY = N_("Press any key to return to the BBS.")
TIME_UP = N_("*** Your BBS time is up: goodbye. ***")


class DoorError(Exception):
    """The door cannot run: a bad drop file, an unreachable or refusing server. One line, for the sysop's log
    and the caller's screen."""


@dataclass(frozen=True)
class Caller:
    """What the door needs from a drop file."""

    handle: str
    ansi: bool  # ANSI graphics; else plain ASCII
    rows: int
    seconds_left: float  # in door seconds (see ``MUDWIZ_DOOR_MINUTE``)
    node: int
    charset: str = ""  # ``sjis`` or ``euc-jp`` for a Japanese BBS (``--charset``); "": the drop file's emulation

    @property
    def terminal(self) -> str:
        """The rlogin terminal type: ``ansi-bbs`` is ANSI in CP437 (net/terminal.py), ``dumb`` plain ASCII, and on a
        Japanese BBS ``ansi-sjis`` or ``ansi-eucjp``: ANSI in Shift_JIS or EUC-JP (plain ASCII has no kana)."""
        if self.ansi and self.charset:
            return f"ansi-{self.charset.replace('-', '')}"
        return "ansi-bbs" if self.ansi else "dumb"


_OUT = {"codec": "ascii"}  # how the door's own lines are written: ASCII, or the Japanese charset's codec


def _codec() -> str:
    return _OUT["codec"]


def door_lang(name: str | None) -> str:
    """``--lang`` (or ``$MUDWIZ_DOOR_LANG``): a language with a catalog, or "" (none given: the server's choice).
    ``DoorError`` for one without."""
    name = (name if name is not None else os.environ.get("MUDWIZ_DOOR_LANG", "")).strip()
    if not name:
        return ""
    lang = pick(name)
    if lang is None:
        raise DoorError(f"--lang is a language mudwiz has (en, ja), not {name[:20]!r}")
    return lang


DOOR_CHARSETS = {"sjis": "sjis", "shift_jis": "sjis", "cp932": "sjis", "euc-jp": "eucjp", "eucjp": "eucjp"}


def door_charset(name: str | None) -> str:
    """``--charset`` (or ``$MUDWIZ_DOOR_CHARSET``) as the door's terminal type names it: ``sjis``, ``eucjp``, or ""
    (none given: the drop file's emulation decides). ``DoorError`` for a charset the door does not know."""
    name = (name if name is not None else os.environ.get("MUDWIZ_DOOR_CHARSET", "")).strip().lower()
    if name and name not in DOOR_CHARSETS:
        raise DoorError(f"--charset is sjis or euc-jp, not {name!r}")
    return DOOR_CHARSETS.get(name, "")


def read_drop_file(path: Path, minute: float = 60.0, codec: str = "cp437") -> Caller:
    """The caller of a DOOR32.SYS or DOOR.SYS (by the file's name, else by its first line: DOOR.SYS starts
    with ``COMn:``); ``DoorError`` naming the line at fault for a file that is not one."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_DROP_FILE + 1)
    except OSError as exc:
        raise DoorError(f"cannot read the drop file {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_DROP_FILE:
        raise DoorError(f"{path} is no drop file: longer than {MAX_DROP_FILE} bytes")
    # control characters out: a NUL in the handle shifted the rlogin handshake's fields (the terminal type was
    # then typed into the lobby's chat)
    lines = [_CONTROL.sub("", line).strip() for line in bbs_text(data, codec).splitlines()]
    name = path.name.lower()
    if name == "door32.sys" or (name != "door.sys" and not (lines[:1] and lines[0].upper().startswith("COM"))):
        return door32(lines, path, minute)
    return door_sys(lines, path, minute)


def door32(lines: list[str], path: Path, minute: float) -> Caller:
    """DOOR32.SYS (revision 1): 11 lines; 7 the handle, 9 minutes left, 10 emulation (0 ASCII, 1 ANSI,
    2 Avatar, 3 RIP, 4 Max Graphics), 11 the node. It says nothing of the screen's rows."""
    field = Fields(lines, path, "DOOR32.SYS", 11)
    emulation = field.number(10, "emulation")
    if not 0 <= emulation <= 4:
        field.nonsense(10, "emulation", "0 to 4")
    minutes = field.number(9, "minutes left")  # i18n: not text (the sysop's, in the drop file's terms)
    return Caller(field.text(7, "handle"), emulation != 0, DEFAULT_ROWS, minutes * minute, field.number(11, "node"))


def door_sys(lines: list[str], path: Path, minute: float) -> Caller:
    """DOOR.SYS (31 or 52 lines): 4 the node, 10 the user's full name, 18 seconds left, 19 minutes left,
    20 graphics (``GR`` ANSI, ``NG`` none, ``7E`` 7-bit, ``RIP``), 21 the screen's rows, 36 the alias (52-line
    files; the handle when set, else the full name)."""
    field = Fields(lines, path, "DOOR.SYS", 21)
    alias = lines[35] if len(lines) > 35 else ""
    if _digits(lines[17]):  # the fields' names here are the sysop's, in the drop file's own terms
        seconds = field.number(18, "seconds left")  # i18n: not text (the sysop's)
    else:
        seconds = field.number(19, "minutes left") * 60  # i18n: not text (the sysop's)
    rows = field.number(21, "screen rows") if lines[20] else DEFAULT_ROWS  # i18n: not text
    if not 0 < rows < 256:
        rows = DEFAULT_ROWS
    graphics = field.text(20, "graphics mode").upper()  # i18n: not text (the sysop's)
    if graphics not in ("GR", "RIP", "NG", "7E"):
        field.nonsense(20, "graphics mode", "GR, RIP, NG or 7E")  # i18n: not text (the sysop's)
    return Caller(alias or field.text(10, "user's full name"), graphics in ("GR", "RIP"), rows,  # i18n: not text
                  seconds * minute / 60,
                  field.number(4, "node"))


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _digits(text: str) -> bool:
    """Plain digits: ``str.isdigit`` also takes ``²`` (CP437's 0xFD), which ``int`` refuses."""
    return text.isascii() and text.isdigit()


@dataclass(frozen=True)
class Fields:
    """A drop file's lines, read by number (from 1) with errors that name the line."""

    lines: list[str]
    path: Path
    kind: str
    least: int

    def __post_init__(self) -> None:
        if len(self.lines) < self.least:
            count = f"{len(self.lines)} line{'s' if len(self.lines) != 1 else ''}"
            raise DoorError(f"{self.path} is no {self.kind}: {count}, not {self.least} or more")

    def text(self, number: int, what: str) -> str:
        value = self.lines[number - 1]
        if not value:
            raise DoorError(f"{self.path}: line {number} ({what}) of the {self.kind} is empty")
        return value

    def number(self, number: int, what: str) -> int:
        value = self.text(number, what)
        if not _digits(value.removeprefix("-")):  # ``int`` takes ``²`` and ``1_0`` too
            self.nonsense(number, what, "a whole number")  # i18n: not text (the sysop's)
        return int(value)

    def nonsense(self, number: int, what: str, wanted: str) -> NoReturn:
        raise DoorError(f"{self.path}: line {number} ({what}) of the {self.kind} is {self.lines[number - 1][:20]!r}, "
                        f"not {wanted}")


MAX_TIME_LEFT = 7 * 86400.0  # seconds: a BBS's "time left" past a week is as good as no limit


class TimeLeft:
    """The caller's BBS time: what to tell them when (``due``), and when it is up."""

    def __init__(self, seconds: float, minute: float, now: float) -> None:
        seconds = min(seconds, MAX_TIME_LEFT)  # a drop file's 10**25 minutes overflowed select's timeout
        self.end = now + seconds
        self.scale = minute / 60  # real seconds in a door second
        self.warnings = [w for w in WARNINGS if w * self.scale < seconds]  # those still ahead

    def next_event(self, now: float) -> float:
        """Seconds until the next warning or the end."""
        times = [self.end - w * self.scale for w in self.warnings] + [self.end]
        return max(0.0, min(times) - now)

    def due(self, now: float) -> str | None:
        """The warning due now (and no longer ahead), if any: the nearest to the end, when several are."""
        due = [w for w in self.warnings if now >= self.end - w * self.scale]
        for w in due:
            self.warnings.remove(w)
        return say(TIME_LEFT, left=_left(min(due))) if due else None

    def up(self, now: float) -> bool:
        return now >= self.end


def _left(seconds: int) -> str:
    if seconds % 60:
        return str(later_n("{n} second", "{n} seconds", seconds))
    return str(later_n("{n} minute", "{n} minutes", seconds // 60))


class Typed:
    """The line the caller is typing, followed from their keys as the server's line editor takes them, so that
    the door knows a ``/quit`` they typed from the server going away of itself (which the caller must be told)."""

    def __init__(self) -> None:
        self.line = ""
        self.quit = False  # the caller has sent /quit
        self._escape = False

    def keys(self, data: bytes) -> None:
        for char in data.decode("latin-1"):
            if self._escape:  # an escape sequence (an arrow key): ESC [ params final, or ESC and one letter
                self._escape = char in "[O" or not char.isalpha() and char != "~"
            elif char == "\x1b":
                self._escape = True
            elif char in "\r\n":
                if self.line.strip().lower().split(" ")[:1] == ["/quit"]:
                    self.quit = True
                self.line = ""
            elif char in "\x7f\b":
                self.line = self.line[:-1]
            elif char in "\x15\x03":  # Ctrl-U, Ctrl-C: the line is gone
                self.line = ""
            elif char >= " ":
                self.line += char


def connect(address: str, caller: Caller, secret: str) -> socket.socket:
    """The rlogin connection as ``caller``: the handshake, the server's ``\\0``, then the window size (80
    columns and the drop file's rows). ``DoorError`` with the server's one-line refusal, if it refuses."""
    host, _, port = address.rpartition(":")
    if host.startswith("[") and host.endswith("]"):  # [::1]:4513, as an IPv6 address is written with a port
        host = host[1:-1]
    if not _digits(port) or not 0 < int(port) < 65536:
        raise DoorError(f"the mudwiz server's address is HOST:PORT (its rlogin port), not {address!r}")
    try:
        sock = socket.create_connection((host or "127.0.0.1", int(port)), timeout=10)
    except OSError as exc:
        why = getattr(exc, "strerror", None) or exc
        raise DoorError(f"cannot reach the mudwiz server at {address}: {why}") from None
    fields = [caller.handle, secret, f"{caller.terminal}/38400"]
    # UTF-8, as the rlogin port reads the handshake (and BSD's rlogin sends it): CP437 made an accented handle's
    # letters undecodable there, and they were lost instead of losing their accents
    sock.sendall(b"\0" + b"".join(f.encode("utf-8") + b"\0" for f in fields))
    answer = sock.recv(1)
    if answer not in (b"\0", b"\x01", b""):  # rlogin answers NUL, or refuses after a byte 1
        sock.close()
        raise DoorError(f"the server at {address} is no rlogin port (MUDWIZ_RLOGIN): is it the telnet port?")
    if answer != b"\0":
        refusal = (answer + sock.recv(512)).lstrip(b"\x01").split(b"\r\n")[0].decode("ascii", errors="replace")
        refusal = refusal.removeprefix("mudwiz: ")  # rlogind's refusals name their program; so does our own line
        sock.close()
        raise DoorError(refusal or f"the server at {address} closed the connection")
    sock.sendall(b"\xff\xffss" + struct.pack("!HHHH", caller.rows, COLUMNS, 0, 0))
    sock.settimeout(None)
    return sock


@contextlib.contextmanager
def raw_terminal(fd: int) -> Iterator[None]:
    """Keys as typed and bytes as sent, while the door runs, when ``fd`` is a terminal (a pipe is already raw)."""
    if not os.isatty(fd):
        yield
        return
    saved = termios.tcgetattr(fd)
    tty.setraw(fd)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSAFLUSH, saved)


def relay(sock: socket.socket, time_left: TimeLeft, stdin: int = 0, stdout: int = 1) -> bool:
    """Bytes both ways until the server or the caller hangs up, or the time is up. False: the server closed the
    connection without the caller asking (killed, restarted, a sysop's kick): the caller has been told so."""
    typed = Typed()
    while True:
        now = time.monotonic()
        warning = time_left.due(now)
        if warning is not None:
            os.write(stdout, f"\r\n{warning}\r\n".encode(_codec(), "replace"))
        if time_left.up(now):
            time_up(sock, stdout)
            return True
        ready, _, _ = select.select([sock.fileno(), stdin], [], [], time_left.next_event(now))
        if sock.fileno() in ready and not pass_on(_received(sock), stdout):
            if typed.quit:
                return True
            gone(stdin, stdout, "\r\n" + say(CLOSED))
            return False
        if stdin in ready:
            keys = os.read(stdin, 4096)
            if not keys:  # the caller hung up
                return True
            typed.keys(keys)
            try:
                sock.sendall(keys)
            except OSError:  # the server went away since the last read; the next read says so
                pass


def _received(sock: socket.socket) -> bytes:
    """What the server sent; nothing once it has closed, reset (a killed server) or not."""
    try:
        return sock.recv(65536)
    except OSError:
        return b""


def gone(stdin: int, stdout: int, why: str) -> None:
    """Tell the caller, in one line, why mudwiz ends here, and wait for a key (a minute at most) so that they can
    read it before the BBS draws its own screen over it."""
    press = say(PRESS_A_KEY)
    os.write(stdout, f"{why}\r\n{press}\r\n".encode(_codec(), "replace"))
    with contextlib.suppress(OSError):
        ready, _, _ = select.select([stdin], [], [], KEY_WAIT)
        if ready:
            os.read(stdin, 4096)


def pass_on(data: bytes, stdout: int) -> bool:
    """The server's bytes to the caller; False once the server has closed."""
    if data:
        os.write(stdout, data)
    return bool(data)


def time_up(sock: socket.socket, stdout: int) -> None:
    """Say ``/bye``: leave the table or stop watching, if at one, and quit (Ctrl-U first: whatever was half typed
    is not sent with it), then show what the server says until it closes, a few seconds at most."""
    goodbye = say(TIME_UP)
    os.write(stdout, f"\r\n{goodbye}\r\n".encode(_codec(), "replace"))
    sock.sendall(b"\x15/bye\r")
    deadline = time.monotonic() + GOODBYE_WAIT
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([sock], [], [], left)
        if ready and not pass_on(_received(sock), stdout):
            return


def door_minute() -> float:
    """Seconds in a minute of BBS time: 60, unless ``MUDWIZ_DOOR_MINUTE`` says otherwise (for tests)."""
    text = os.environ.get("MUDWIZ_DOOR_MINUTE", "60")
    try:
        minute = float(text)
    except ValueError:
        minute = 0
    if not minute > 0:
        raise DoorError(f"MUDWIZ_DOOR_MINUTE is {text[:20]!r}: a number of seconds above 0, or unset for 60")
    return minute


def run(drop_file: str, server: str | None = None, secret: str | None = None, charset: str | None = None,
        lang: str | None = None) -> int:
    """The door, from the command line: 0 when the caller is done, 1 (and one line) when it cannot run."""
    try:
        japanese = door_charset(charset)
        chosen = door_lang(lang)
    except DoorError as exc:
        return _refused(exc)
    # the door's own lines: in the caller's language where their charset carries it, else English (ASCII)
    _OUT["codec"] = {"sjis": "cp932", "eucjp": "euc_jp"}.get(japanese, "ascii")
    with speaking((chosen or "ja") if japanese else ENGLISH):
        return _run(drop_file, server, secret, japanese, chosen)


def _refused(exc: DoorError) -> int:
    print(f"mudwiz door: {exc}", file=sys.stderr)  # i18n: not text (the sysop's log)
    with raw_terminal(0):
        gone(0, 1, f"mudwiz: {exc}")  # the caller is told too
    return 1


def _run(drop_file: str, server: str | None, secret: str | None, japanese: str, chosen: str) -> int:
    address = server or os.environ.get("MUDWIZ_DOOR_SERVER") or DEFAULT_SERVER
    try:
        minute = door_minute()  # a Japanese BBS writes the drop file in its charset too
        codec = {"sjis": "cp932", "eucjp": "euc_jp"}.get(japanese, "cp437")
        caller = replace(read_drop_file(Path(drop_file), minute, codec), charset=japanese)
        if caller.seconds_left <= 0:
            raise DoorError("no BBS time left for mudwiz")
        sock = connect(address, caller, secret if secret is not None else os.environ.get("MUDWIZ_DOOR_SECRET", ""))
    except DoorError as exc:
        return _refused(exc)
    if chosen:  # the sysop's choice for the caller, as their first line (the terminal client's /lang)
        sock.sendall(f"/lang {chosen}\r".encode())
    with sock, raw_terminal(0):
        done = relay(sock, TimeLeft(caller.seconds_left, minute, time.monotonic()))
    if not done:
        print("mudwiz door: the mudwiz server closed the connection", file=sys.stderr)  # i18n: not text (log)
    return 0 if done else 1
