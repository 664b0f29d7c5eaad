"""Line editing for a terminal with no line discipline of its own, sans-I/O: what a tty driver would have done, done
here, once for every framing that gets raw keys.

An SSH client with a PTY (net/ssh.py) and an rlogin client, a BBS gateway or the door (net/rlogin.py) put the
terminal in raw mode and send each key as it is pressed: no local echo, no backspace, no line until the server makes
one. So the server does it, as a BBS does. ``Keyboard`` decodes the keys in the caller's charset (UTF-8, CP437,
Shift_JIS or EUC-JP, so a rub-out takes back one character whatever its bytes) and ``LineEditor`` edits the text: it
echoes what is typed (nothing while a password is typed); Backspace or Delete rubs out a character (with the
combining marks on it, and both cells of a wide one: a rub-out is echoed for each cell the screen shows), Ctrl-U the
line, Ctrl-W the last word; Ctrl-C drops the line (``^C``); Enter is CR, LF, CR LF or CR NUL (one line, not two); Up
and Down recall the lines typed before (``HISTORY`` of them, never a password) and come back to the one being typed;
other escape sequences (arrow and function keys, a bracketed paste's marks: ``ESC [ ... final``, ``ESC O x``, ``ESC
x``) are swallowed, other control characters ignored, a tab is a space; a line stops growing at ``limit``
characters, with a bell for each key past it. A finished line comes back with the input after it, to be fed once the
line has been acted on, so the line's output comes before the echo of what follows. ``Keyboard.around`` keeps a
half-typed line below output that interrupts it.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from mudwiz.connection import MAX_LINE
from mudwiz.net import terminal
from mudwiz.render.style import cell_width, char_width

BACKSPACE, DELETE, CTRL_C, CTRL_U, CTRL_W, ESC, TAB, BELL = "\b", "\x7f", "\x03", "\x15", "\x17", "\x1b", "\t", "\a"
RUB_OUT = "\b \b"  # back one column, blank it, back again: works on every terminal
NEWLINE = "\r\n"
CLEAR_LINE = "\r\x1b[K"  # to the line's start, and blank it (ANSI): where a half-typed line is taken off
LINE_ENDS = re.compile(rb"(?<=[\r\n])")  # splits key bytes after each line end, keeping it
MAX_ESCAPE = 16  # characters of a CSI sequence at most: a stray ESC [ does not swallow what is typed after it
HISTORY = 50  # lines typed that Up recalls, the latest first
UP, DOWN = ("[A", "OA"), ("[B", "OB")  # the arrow keys' sequences after ESC, in normal and application mode


@dataclass
class Edited:
    """What input came to, up to the first finished line: text to echo, the line (None: not finished yet) and
    the input after it, to be fed once the line has been acted on (so its output comes before their echo)."""

    echo: str = ""
    line: str | None = None
    rest: str = ""


class LineEditor:
    """The line being typed and the state of a half-read escape sequence or line ending. ``secret`` (set by the
    framing while a password is typed) stops the echo, Enter's included: the connection writes the newline after
    a password itself."""

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self.chars: list[str] = []
        self.secret = False
        self.after_cr = False  # the last key was CR: an LF or NUL right after it is the same Enter
        self.escape = ""  # an escape sequence being read: "", ESC, ESC [ (plus parameters) or ESC O
        self.history: list[str] = []  # lines typed, the latest last (``HISTORY``)
        self.recalled = 0  # how far back Up has gone: 0 is the line being typed
        self.draft = ""  # the line being typed when Up was first pressed

    @property
    def partial(self) -> str:
        """The line typed so far."""
        return "".join(self.chars)

    @property
    def shown(self) -> str:
        """What the user sees of it on their screen (nothing while a password is typed): what is put back after
        output that interrupted it."""
        return "" if self.secret else self.partial

    def feed(self, text: str) -> Edited:
        """Keys, up to the first line they finish -> what to echo, that line, and the keys after it."""
        out = Edited()
        echo: list[str] = []
        for at, ch in enumerate(text):
            after_cr, self.after_cr = self.after_cr, False
            if after_cr and ch in "\n\0":
                continue
            if ch in "\r\n":  # Enter ends an escape sequence too: a lone Esc key must not eat it
                self.after_cr, self.escape = ch == "\r", ""
                echo.append(NEWLINE)
                out.line, out.rest = self.partial, text[at + 1:]
                self.remember(out.line)
                self.chars.clear()
                break
            echo.append(self._escaping(ch) if self.escape else self._key(ch))
        out.echo = "" if self.secret else "".join(echo)
        return out

    def _key(self, ch: str) -> str:
        """One key that is not Enter and not inside an escape sequence; what to echo for it."""
        if ch in (BACKSPACE, DELETE):
            return self._rub(self._last_character())
        if ch == CTRL_U:
            return self._rub(len(self.chars))
        if ch == CTRL_W:
            head, space, _ = self.partial.rstrip(" ").rpartition(" ")
            return self._rub(len(self.chars) - len(head + space))
        if ch == CTRL_C:
            self.chars.clear()
            return "^C" + NEWLINE
        if ch == ESC:
            self.escape = ESC
            return ""
        if ch == TAB:
            ch = " "
        if ch < " " or "\x80" <= ch < "\xa0":  # C0 and C1 controls: nothing to type
            return ""
        if len(self.chars) >= self.limit:
            return BELL
        self.chars.append(ch)
        return ch

    def _last_character(self) -> int:
        """How many code points the last character on the screen is: itself and the combining marks after it."""
        chars, count = self.chars, 0
        while count < len(chars) and char_width(chars[-1 - count]) == 0:
            count += 1
        return min(count + 1, len(chars))

    def _rub(self, count: int) -> str:
        """Take back the last ``count`` code points (as many as there are); echo their rubbing out, a rub-out for
        each cell they took on the screen (two for a wide character, none for a combining mark)."""
        count = min(count, len(self.chars))
        taken = "".join(self.chars[len(self.chars) - count:])
        del self.chars[len(self.chars) - count:]
        return RUB_OUT * cell_width(taken)

    def _escaping(self, ch: str) -> str:
        """Swallow ``ESC [ params final`` (CSI), ``ESC O x`` (SS3) and ``ESC x``: keys, not text; but Up and Down
        recall a line."""
        if self.escape == ESC:
            self.escape = ESC + ch if ch in "[O" else ""
        elif self.escape == ESC + "O" or "@" <= ch <= "~" or len(self.escape) > MAX_ESCAPE:
            key, self.escape = self.escape[1:] + ch, ""
            if key in UP or key in DOWN:
                return self._recall(1 if key in UP else -1)
        else:
            self.escape += ch
        return ""

    def remember(self, line: str) -> None:
        """A line typed, for Up to recall: not a password, an empty line or the last one again."""
        self.recalled, self.draft = 0, ""
        if self.secret or not line.strip() or self.history[-1:] == [line]:
            return
        self.history.append(line)
        del self.history[:-HISTORY]

    def _recall(self, step: int) -> str:
        """Up (``step`` 1) or Down (-1): the line typed so far replaced by an older or newer one, or by the line
        that was being typed before Up; what to echo for it (the old line rubbed out, the new one)."""
        at = self.recalled + step
        if self.secret or at < 0 or at > len(self.history) or at == self.recalled:
            return ""
        if self.recalled == 0:
            self.draft = self.partial
        self.recalled = at
        line = self.draft if at == 0 else self.history[-at]
        rubbed = self._rub(len(self.chars))
        self.chars = list(line)
        return rubbed + line


class Keyboard:
    """Raw key bytes for a ``LineEditor``: decoded in the caller's charset as it is when each line starts (``/mode
    cp437`` may change it between two lines of one read), a character split across reads kept until its last
    byte comes."""

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.editor = LineEditor(limit)
        self.charset = ""
        self.decoder: codecs.IncrementalDecoder | None = None

    def feed(self, data: bytes, charset: Callable[[], str]) -> Iterator[Edited]:
        """What ``data`` comes to, a line at a time: the caller acts on each finished line before the next is
        read, and ``charset()`` is asked afresh for the keys after it."""
        for keys in LINE_ENDS.split(data):
            text = self.decode(keys, charset())
            while text:
                edited = self.editor.feed(text)
                yield edited
                text = edited.rest

    def decode(self, data: bytes, charset: str) -> str:
        """Key bytes as text in the terminal's charset (``terminal.codec``: a Shift_JIS character's two bytes
        may come in two reads), invalid bytes replaced, as ``terminal.decode`` reads a line."""
        if self.decoder is None or charset != self.charset:
            self.decoder = codecs.getincrementaldecoder(terminal.codec(charset))(errors="replace")
            self.charset = charset
        return self.decoder.decode(data)

    def around(self, text: str, ansi: bool) -> str:
        """Output as it is written while a line is half typed: the typed part taken off the screen (``CR ESC [K``,
        or blanked with spaces without ANSI), the output, and the typed part shown again after it when the output
        ends its line, so what the user types is never broken up by what others say."""
        shown = self.editor.shown
        if not shown or not text:
            return text
        blank = CLEAR_LINE if ansi else "\r" + " " * cell_width(shown) + "\r"
        return blank + text + (shown if text.endswith("\n") else "")
