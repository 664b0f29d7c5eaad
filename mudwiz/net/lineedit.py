"""A line editor for a terminal with no line discipline of its own, as a BBS has one: keystrokes in, lines out.

An SSH client with a PTY puts its terminal in raw mode and sends each key as it is pressed: no local echo, no
backspace, no line until the server makes one. So the server does what a tty driver would: it echoes what is
typed (nothing while a password is typed), rubs out the last character on Backspace or Delete (a whole UTF-8
character), the line on Ctrl-U, the last word on Ctrl-W, drops the line on Ctrl-C, and ends a line on CR, LF,
CR LF or CR NUL. Escape sequences (arrow and function keys, a bracketed paste's marks) are swallowed rather
than typed into the line; other control characters are ignored; a tab is a space. Sans-I/O: ``feed`` returns
what to echo and the lines finished, and the framing writes and reads them (net/ssh.py).
"""

from __future__ import annotations

from mudwiz.connection import MAX_LINE

BACKSPACE, DELETE, CTRL_C, CTRL_U, CTRL_W, ESC, TAB = 0x08, 0x7F, 0x03, 0x15, 0x17, 0x1B, 0x09
RUB_OUT = b"\b \b"  # back one column, blank it, back again
NEWLINE = b"\r\n"


class LineEditor:
    """The line being typed. ``secret`` (set by the framing for a password) stops the echo, Enter's included:
    the connection writes the newline after a password itself. A line longer than ``limit`` bytes is kept at
    ``limit + 1``, so the line protocol still sees it is too long and refuses it, at no cost in memory."""

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self.line = bytearray()
        self.secret = False
        self.escape = 0  # 0: none; 1: after ESC; 2: in a CSI sequence (ESC [ ...); 3: after ESC O (SS3)
        self.after_cr = False  # the last byte ended a line with CR: an LF or NUL right after it is that same end

    @property
    def shown(self) -> bytes:
        """What the user has typed and sees echoed on their line, not yet sent (empty while a password is typed)."""
        return b"" if self.secret else bytes(self.line)

    def feed(self, data: bytes) -> tuple[bytes, list[bytes]]:
        """Keystrokes -> (what to echo, the lines they finished, without their ending)."""
        echo = bytearray()
        lines: list[bytes] = []
        for byte in data:
            after_cr, self.after_cr = self.after_cr, False
            if self.escape:
                self._escaping(byte)
            elif byte in (0x0A, 0x00) and after_cr:
                continue
            elif byte in (0x0D, 0x0A):
                self.after_cr = byte == 0x0D
                lines.append(bytes(self.line))
                self.line.clear()
                echo += b"" if self.secret else NEWLINE
            else:
                echo += self._key(byte)
        return bytes(echo), lines

    def _key(self, byte: int) -> bytes:
        """One key that is not a line's end: what it echoes."""
        if byte == ESC:
            self.escape = 1
            return b""
        if byte in (BACKSPACE, DELETE):
            return self._rub_out(1)
        if byte == CTRL_U:
            return self._rub_out(len(self.line))
        if byte == CTRL_W:
            return self._rub_out(self._last_word())
        if byte == CTRL_C:
            self.line.clear()
            return b"" if self.secret else b"^C" + NEWLINE
        if byte == TAB:
            byte = 0x20
        if byte < 0x20 or len(self.line) > self.limit:
            return b""
        self.line.append(byte)
        return b"" if self.secret else bytes((byte,))

    def _escaping(self, byte: int) -> None:
        """Swallow an escape sequence: ESC and one character, ESC O and one, or ESC [ up to its final byte."""
        if self.escape == 1:
            self.escape = 2 if byte == ord("[") else 3 if byte == ord("O") else 0
        elif self.escape == 3 or 0x40 <= byte <= 0x7E:
            self.escape = 0

    def _rub_out(self, characters: int) -> bytes:
        """Remove the last ``characters`` characters (a UTF-8 character's bytes together); echo their rubbing out."""
        removed = 0
        while removed < characters and self.line:
            while len(self.line) > 1 and 0x80 <= self.line[-1] < 0xC0:  # continuation bytes, then the lead byte
                self.line.pop()
            self.line.pop()
            removed += 1
        return b"" if self.secret else RUB_OUT * removed

    def _last_word(self) -> int:
        """Characters from the end back to the start of the last word (the spaces after it included)."""
        text = self.line.decode("utf-8", errors="replace")
        kept = text.rstrip(" ")
        return len(text) - len(kept) + len(kept.rsplit(" ", 1)[-1])
