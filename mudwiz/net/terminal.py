"""What a telnet client says about its terminal, read without I/O: the decisions telnet.py acts on.

Whether a client on the telnet port speaks telnet at all (``looks_like_telnet``), the window width from NAWS
(RFC 1073), the terminal type cycle of TTYPE (RFC 1091) with MTTS (the third answer, ``MTTS N``: a bit field
of what the client supports, tintin.mudhalla.net/protocols/mtts), the character set agreed by CHARSET
(RFC 2066) and the MSSP table (tintin.mudhalla.net/protocols/mssp) sent to MUD crawlers. Nothing a client
sends can raise here: a payload that makes no sense is ignored.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mudwiz import __version__
from mudwiz.render import jsonl
from mudwiz.render.style import ambiguous_cells, char_width, to_ascii
from mudwiz.session import JAPANESE_CHARSETS, charset_named

DEFAULT_WIDTH = 80  # the design's width, and what a client that sends no window size gets
MIN_WIDTH = 40  # narrower windows are drawn for 40 columns: below that nothing useful fits
MAX_WIDTH = 200  # wider windows are drawn for 200: lines longer than that are no easier to read

MAX_TTYPES = 4  # answers asked for at most: client name, terminal type, MTTS, and one repeat to end the cycle
MAX_NAME = 64  # characters of a terminal type kept

MTTS_ANSI, MTTS_VT100, MTTS_UTF8, MTTS_256, MTTS_TRUECOLOR = 1, 2, 4, 8, 256

# Terminal types that draw ANSI colour (lower-cased prefixes): terminals, and MUD clients naming themselves.
COLOUR_TERMINALS = ("xterm", "ansi", "vt1", "vt2", "linux", "screen", "tmux", "rxvt", "konsole", "gnome",
                    "putty", "alacritty", "kitty", "cygwin", "mudlet", "tintin", "mushclient", "zmud", "cmud",
                    "blowtorch", "mudrammer", "beip", "potato", "kildclient", "atlantis", "syncterm")
PLAIN_TERMINALS = ("dumb", "unknown", "network", "tty33", "glasstty")
# Words in a terminal type that name a Japanese charset (the door's ``ansi-sjis`` and ``ansi-eucjp``, kterm's
# ``kterm-euc``), each to its charset: looked for before CP437's names.
JAPANESE_TERMINALS = ((("sjis", "shift_jis", "shiftjis", "cp932"), "shift_jis"),
                      (("eucjp", "euc-jp", "kterm"), "euc-jp"))
CP437_TERMINALS = ("syncterm", "ansi-bbs", "pcansi", "netrunner", "qodem", "ansi.sys")
# Unix terminal emulators (lower-cased prefixes), run in UTF-8 locales: where a type that names no charset is
# otherwise taken for a BBS's (rlogin), these are UTF-8.
UNIX_TERMINALS = ("xterm", "screen", "tmux", "rxvt", "konsole", "gnome", "alacritty", "kitty", "foot", "wezterm",
                  "linux", "st-", "putty")
# First TTYPE answers (lower-cased prefixes) of terminals, which keep no input line of their own: the server edits
# the line for them (charmode.py). A MUD client names itself first (MUDLET, TINTIN++, MUSHCLIENT) and sends MTTS.
TERMINALS = (*UNIX_TERMINALS, *CP437_TERMINALS, *PLAIN_TERMINALS, "vt", "ansi", "cygwin")


def looks_like_telnet(line_ending: bytes, line: bytes) -> bool:
    """Whether a client that has sent no telnet command yet is a telnet program, by its first line: every
    telnet client (the stock ``telnet`` in its default mode, MUD clients) ends a line in CR LF or CR NUL, the
    network virtual terminal's newline; ``nc`` typed into ends it in LF. A line that switches to JSON mode (or
    is a JSON request) is a program's, whatever its ending: bots stay byte-clean."""
    if line_ending not in (b"\r\n", b"\r\0"):
        return False
    text = line.strip().lower()
    return not (text.startswith(b"{") or text.startswith(b"/mode json"))


def clamp_width(columns: int) -> int:
    """The width to draw for a window ``columns`` wide; 0 (a client that does not know) is the default."""
    if columns <= 0:
        return DEFAULT_WIDTH
    return max(MIN_WIDTH, min(MAX_WIDTH, columns))


def naws_size(payload: bytes) -> tuple[int, int] | None:
    """``(columns, rows)`` from a NAWS subnegotiation's four bytes (after the option byte), or None."""
    if len(payload) != 4:
        return None
    return payload[0] << 8 | payload[1], payload[2] << 8 | payload[3]


@dataclass(frozen=True)
class Choice:
    """What a client's terminal type says: the mode (``ansi``/``ascii``) and charset (``utf-8``, ``ascii``,
    ``cp437``) to use, each None where it says nothing."""

    mode: str | None = None
    charset: str | None = None


@dataclass
class TerminalTypes:
    """The answers of one TTYPE cycle, in order. ``add`` takes one and says whether to ask for the next: the
    cycle ends when an answer repeats (RFC 1091: the list is exhausted), an ``MTTS`` answer came, or after
    ``MAX_TTYPES`` answers."""

    names: list[str] = field(default_factory=list)
    mtts: int | None = None
    done: bool = False

    def add(self, raw: bytes) -> bool:
        name = raw.decode("ascii", errors="replace").strip()[:MAX_NAME]
        if self.done:
            return False
        repeated = bool(self.names) and name.lower() == self.names[-1].lower()
        if not repeated:
            self.names.append(name)
        words = name.split()
        if len(words) == 2 and words[0].upper() == "MTTS" and words[1].isdigit():
            self.mtts = int(words[1]) & 0xFFFF
        self.done = repeated or self.mtts is not None or len(self.names) >= MAX_TTYPES or not name
        return not self.done

    @property
    def terminal(self) -> bool:
        """A terminal (the stock telnet, PuTTY, SyncTERM) rather than a MUD client with an input line of its own:
        the cycle is over, its first answer names a terminal type, and no MTTS came."""
        return self.done and self.mtts is None and self.client.lower().startswith(TERMINALS)

    @property
    def client(self) -> str:
        """The first answer: a MUD client's name (``MUDLET``), or a plain telnet's terminal type."""
        return self.names[0] if self.names else ""

    def choice(self) -> Choice:
        """MTTS decides when the client sent it; else the names: a known plain terminal is ASCII, a BBS
        terminal ANSI in CP437, a known colour terminal ANSI; anything else says
        nothing (the defaults stay: ANSI colour, UTF-8)."""
        if self.mtts is not None:
            return Choice("ansi" if self.mtts & MTTS_ANSI else "ascii",
                          "utf-8" if self.mtts & MTTS_UTF8 else "ascii")
        lowered = [n.lower() for n in self.names if not n.upper().startswith("MTTS")]
        for names, charset in JAPANESE_TERMINALS:
            if any(word in n for n in lowered for word in names):
                return Choice("ansi", charset)
        if any(n.startswith(CP437_TERMINALS) for n in lowered):
            return Choice("ansi", "cp437")
        if any("utf-8" in n or "utf8" in n for n in lowered):
            return Choice("ansi", "utf-8")
        if any(n.startswith(COLOUR_TERMINALS) for n in lowered):
            return Choice("ansi", None)
        if any(n.startswith(PLAIN_TERMINALS) for n in lowered):
            return Choice("ascii", "ascii")
        return Choice()


# The session's charset names (``Session.charset``) and the codec each is read and written in. Shift_JIS is read
# and written as Windows-31J (cp932): what Japanese terminals (Tera Term, PuTTY-ja, the Windows console) send,
# Shift_JIS with NEC and IBM extensions (circled digits, roman numerals); ASCII terminals type UTF-8 if anything.
CODECS = {"utf-8": "utf-8", "ascii": "utf-8", "cp437": "cp437", "shift_jis": "cp932", "euc-jp": "euc_jp"}
JAPANESE = frozenset(JAPANESE_CHARSETS)  # a charset that says the user reads Japanese (``Session.charset_lang``)
WIDE_MARK = "\u3013"  # GETA MARK, in both Japanese charsets: the mark for a wide character they lack (2 cells)


def _marks(cells: int) -> Callable[[UnicodeError], tuple[str, int]]:
    def mark(error: UnicodeError) -> tuple[str, int]:
        """Each character a Japanese charset lacks as a visible mark as wide as it was measured (``cells``: an
        ambiguous one's width), so a row stays as wide as it was drawn: ``〓`` for a two-cell one, its ASCII
        look-alike (``?`` if none is one cell) for a one-cell one. Never a raw byte, never a character dropped
        unseen."""
        assert isinstance(error, UnicodeEncodeError)
        marks = []
        with ambiguous_cells(cells):
            for ch in error.object[error.start:error.end]:
                width, folded = char_width(ch), to_ascii(ch)
                marks.append(WIDE_MARK if width == 2 else folded if len(folded) == width else "?" * width)
        return "".join(marks), error.end
    return mark


MARKS = {1: "mudwiz-mark", 2: "mudwiz-mark-wide"}  # the codec error handlers, by an ambiguous character's cells
for _cells, _name in MARKS.items():
    codecs.register_error(_name, _marks(_cells))


def encode(text: str, charset: str, ambiguous: int = 1) -> bytes:
    """Text in the client's charset: UTF-8; Shift_JIS or EUC-JP (anything they lack as a mark of its width,
    ``ambiguous`` the cells of an ambiguous-width one: ``_marks``); CP437 (box drawing and accented letters as the
    code page has them, anything else folded to ASCII as the plain mode folds it); or ASCII. Nothing outside the
    charset is sent."""
    if charset == "utf-8":
        return text.encode("utf-8", errors="replace")
    if charset in JAPANESE:
        return text.encode(CODECS[charset], errors=MARKS[2 if ambiguous == 2 else 1])
    if charset == "cp437":
        try:
            return text.encode("cp437")
        except UnicodeEncodeError:
            return b"".join(_cp437(ch) for ch in text)
    return to_ascii(text).encode("ascii", errors="replace")


def _cp437(ch: str) -> bytes:
    try:
        return ch.encode("cp437")
    except UnicodeEncodeError:
        return to_ascii(ch).encode("ascii", errors="replace")


def codec(charset: str) -> str:
    """The codec a client's typing is read in: its charset's, UTF-8 for an ASCII one."""
    return CODECS.get(charset, "utf-8")


def decode(data: bytes, charset: str) -> str:
    """A line the client typed, in its charset (``codec``), bytes that are no character in it replaced (U+FFFD,
    sent back to a Japanese terminal as ``?``)."""
    return data.decode(codec(charset), errors="replace")


# Offered in this order (RFC 2066 REQUEST): a client takes the first it can. Shift_JIS and EUC-JP before CP437: a
# Japanese terminal (Tera Term) knows CP437 too, a BBS terminal (SyncTERM) neither Japanese one.
CHARSETS = ("UTF-8", "Shift_JIS", "EUC-JP", "CP437")
def charset_request() -> bytes:
    """The payload of ``IAC SB CHARSET REQUEST ;UTF-8;Shift_JIS;EUC-JP;CP437 IAC SE``, after the REQUEST byte."""
    return (";" + ";".join(CHARSETS)).encode("ascii")


def accepted_charset(payload: bytes) -> str | None:
    """The session's charset for a client's ``ACCEPTED name`` (the name without the ACCEPTED byte); None for a
    name we did not offer."""
    return charset_named(payload.decode("ascii", errors="replace"))


MSSP_VAR, MSSP_VAL = b"\x01", b"\x02"


# The MSSP variables that do not change while the server runs (telnet.py adds the others)
MSSP_FIXED: dict[str, str] = {
    "CODEBASE": f"mudwiz {__version__}", "FAMILY": "Custom", "GENRE": "None",
    "GAMEPLAY": "Player versus Player",  # i18n: not text (MSSP's value)
    "GAMESYSTEM": "Custom", "STATUS": "Live", "LANGUAGE": "English", "CRAWL DELAY": "-1", "MINIMUM AGE": "0",
    "ANSI": "1", "UTF-8": "1", "VT100": "0", "XTERM 256 COLORS": "0", "XTERM TRUE COLORS": "0", "MCCP": "1",
    "MSP": "0", "MXP": "0", "PUEBLO": "0", "MSDP": "0", "GMCP": "1", "SSL": "0", "PAY TO PLAY": "0",
    "PAY FOR PERKS": "0", "HIRING BUILDERS": "0", "HIRING CODERS": "0",
}


def mssp_payload(variables: Mapping[str, str | Sequence[str]]) -> bytes:
    """``MSSP_VAR name MSSP_VAL value ...`` for an ``IAC SB MSSP ... IAC SE``: a variable with several values
    (PORT) repeats MSSP_VAL. Bytes that would end or confuse the table (NUL, IAC, VAR, VAL) are left out."""
    out = bytearray()
    for name, value in variables.items():
        values = [value] if isinstance(value, str) else list(value)
        out += MSSP_VAR + _mssp_text(name)
        for v in values:
            out += MSSP_VAL + _mssp_text(v)
    return bytes(out)


def _mssp_text(text: str) -> bytes:
    return bytes(b for b in text.encode("utf-8") if b not in (0, 1, 2, 255))


GMCP_MAX = 2048  # bytes of a client's GMCP message read; a longer one is ignored


def gmcp_package(message: Mapping[str, Any]) -> str:
    """The GMCP package a protocol message goes out as: ``Game.`` and its type in CamelCase (``state`` is
    ``Game.State``, ``game_end`` is ``Game.GameEnd``)."""
    kind = str(message.get("type", "message"))
    return "Game." + "".join(word.capitalize() for word in kind.split("_") if word)


def gmcp_encode(package: str, data: Any) -> bytes:
    """A GMCP payload: ``Package.Name`` and its JSON, UTF-8 (conch doubles any IAC on the way out)."""
    body = jsonl.encode(data) if isinstance(data, dict) else json.dumps(data, ensure_ascii=False)
    return f"{package} {body}".encode()


def gmcp_decode(payload: bytes) -> tuple[str, Any] | None:
    """A client's GMCP message as (package, data); data None when it has none or it is not JSON."""
    if len(payload) > GMCP_MAX:
        return None
    text = payload.decode("utf-8", errors="replace").strip()
    package, _, body = text.partition(" ")
    if not package:
        return None
    try:
        return package, json.loads(body) if body.strip() else None
    except (ValueError, RecursionError):
        return package, None
