"""Line editing for a raw byte stream, sans-I/O: what a terminal's line discipline would have done, done here.

An rlogin client (or a BBS gateway, or the door) sends each key as it is typed and shows nothing itself: the
server echoes (RFC 1282) and edits. ``LineEditor`` takes the decoded keys and says what to echo and which lines
are complete: Enter is CR, LF or CR LF/CR NUL (one line, not two); Backspace (BS or DEL) takes back a
character; Ctrl-U the whole line, Ctrl-W a word; cursor keys and other escape sequences (``ESC [ ... final``,
``ESC O x``) and the other control characters are dropped unshown. A line stops growing at ``limit``
characters (a bell for each key past it). Echo is off while a password is typed.

Named apart from any shared editor (the SSH helper's) on purpose: this one is for the BBS links only.
"""

from __future__ import annotations

from dataclasses import dataclass

BACKSPACE, DELETE, KILL_LINE, KILL_WORD, ESC = "\b", "\x7f", "\x15", "\x17", "\x1b"
RUBOUT = "\b \b"  # back one column, blank it, back again: works on every terminal


@dataclass
class Edited:
    """What input came to, up to the first finished line: text to echo, the line (None: not finished yet) and
    the input after it, to be fed once the line has been acted on (so its output comes before their echo)."""

    echo: str = ""
    line: str | None = None
    rest: str = ""


class LineEditor:
    """The line being typed and the state of a half-read escape sequence or line ending."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.chars: list[str] = []
        self.echo = True
        self.after_cr = False  # the last key was CR: an LF or NUL right after it is the same Enter
        self.escape = ""  # an escape sequence being read: "", ESC, ESC [ (plus parameters) or ESC O

    @property
    def partial(self) -> str:
        """The line typed so far (shown again after output that interrupted it)."""
        return "".join(self.chars)

    def feed(self, text: str) -> Edited:
        out = Edited()
        echo: list[str] = []
        for at, ch in enumerate(text):
            if self.after_cr:
                self.after_cr = False
                if ch in "\n\0":
                    continue
            if self.escape:
                self._escape(ch)
            elif ch in "\r\n":
                self.after_cr = ch == "\r"
                echo.append("\r\n")
                out.line, out.rest = self.partial, text[at + 1:]
                self.chars.clear()
                break
            else:
                echo.append(self._key(ch))
        out.echo = "".join(echo) if self.echo else ""
        return out

    def _key(self, ch: str) -> str:
        """One key that is not Enter and not inside an escape sequence; what to echo for it."""
        if ch in (BACKSPACE, DELETE):
            return RUBOUT if self.chars and self.chars.pop() else ""
        if ch == KILL_LINE:
            return self._rub(len(self.chars))
        if ch == KILL_WORD:
            head, space, _ = self.partial.rstrip(" ").rpartition(" ")
            return self._rub(len(self.chars) - len(head + space))
        if ch == ESC:
            self.escape = ESC
            return ""
        if ch < " " or "\x80" <= ch < "\xa0":
            return ""
        if len(self.chars) >= self.limit:
            return "\a"
        self.chars.append(ch)
        return ch

    def _rub(self, count: int) -> str:
        del self.chars[len(self.chars) - count:]
        return RUBOUT * count

    def _escape(self, ch: str) -> None:
        """Swallow ``ESC [ params final`` (CSI), ``ESC O x`` (SS3) and ``ESC x``: keys, not text."""
        if self.escape == ESC:
            self.escape = ESC + ch if ch in "[O" else ""
        elif self.escape == ESC + "O" or "@" <= ch <= "~" or len(self.escape) > 16:
            self.escape = ""
        else:
            self.escape += ch
