"""The pager (``--More--``), sans-I/O: a command's reply longer than the client's window, a page at a time.

While the connection acts on a user's line it gathers what that line sends (``PagedOutbox.gather``); when the
line is done, text longer than a page (the window's rows less one) from a command whose output holds no game view
(a ``state``, a game event: ``live``) is shown a page at a time: the first page, then ``PROMPT``. Then, where
the server edits the line (``key``: telnet's character mode, SSH with a PTY, rlogin and the door) Space shows the
next page, Enter one more line, ``q`` (or Ctrl-C) stops (``SKIPPED``), and any other key stops and starts the
line typed; in line mode (``line``) an empty line is the next page, ``q`` stops, and any other line stops and is
read as usual. Anything else sent while the prompt waits (a move, chat, a notice) is written at once in the
prompt's place, the prompt drawn again after it: nothing waits behind a pager.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from unicodedata import east_asian_width

from mudwiz.texts import N_, _

PROMPT = N_("--More-- (Space: page, Enter: line, q: stop)")  # shown in the reader's language (``_``)
SKIPPED = N_("(rest skipped)")
DEFAULT_ROWS = 24  # a window whose height nobody said
MIN_ROWS, MAX_ROWS = 5, 500  # what /pager ROWS takes, and the window heights a page is drawn for


def page_size(rows: int) -> int:
    """Lines a page shows in a window ``rows`` high (0: not known): all but the prompt's row."""
    return (max(MIN_ROWS, min(MAX_ROWS, rows)) if rows > 0 else DEFAULT_ROWS) - 1


class Pager:
    """One reply being paged: ``lines`` left to show, a page ``size`` lines long. Each call returns the text to
    write (lines end in ``\\n``, the prompt does not)."""

    def __init__(self, text: str, size: int, ansi: bool) -> None:
        self.lines = text.split("\n")
        if self.lines and self.lines[-1] == "":
            self.lines.pop()
        self.size = size
        columns = sum(2 if east_asian_width(c) in "WF" else 1 for c in _(PROMPT))  # a wide letter takes two
        self.erase = "\r\x1b[K" if ansi else "\r" + " " * columns + "\r"  # the prompt taken off its row
        self.done = False

    def start(self) -> str:
        return self.show(self.size)

    def show(self, count: int) -> str:
        shown, self.lines = self.lines[:count], self.lines[count:]
        text = "".join(line + "\n" for line in shown)
        if not self.lines:
            self.done = True
            return text
        return text + _(PROMPT)

    def stop(self) -> str:
        self.done, self.lines = True, []
        return self.erase + _(SKIPPED) + "\n"

    def key(self, key: str) -> tuple[str, bool]:
        """One key pressed at the prompt -> what to write, and whether the key was the pager's (else it is the
        first of the line the user types, the paging stopped)."""
        if key == " ":
            return self.erase + self.show(self.size), True
        if key in "\r\n":
            return self.erase + self.show(1), True
        if key in ("q", "Q", "\x03"):
            return self.stop(), True
        return self.stop(), False

    def line(self, line: str) -> tuple[str, bool]:
        """A line typed at the prompt (line mode: the user's Enter put the cursor on a fresh row) -> what to
        write, and whether the line was the pager's."""
        word = line.strip().lower()
        if not word:
            return self.show(self.size), True
        self.done, self.lines = True, []
        return ("" if word == "q" else _(SKIPPED) + "\n"), word == "q"

    def around(self, text: str) -> str:
        """Output that comes while the prompt waits: in the prompt's place, the prompt after it."""
        return self.erase + text + ("" if text.endswith("\n") else "\n") + _(PROMPT)


class PagedOutbox:
    """The connection's outbox with the pager in front: what a line sends is gathered (``gather``) and, once the
    line is done (``release``), written whole or paged."""

    def __init__(self, outbox: Any) -> None:
        self.outbox = outbox
        self.gathered: list[str] | None = None  # text of the line being acted on; None: not gathering
        self.live = False  # a game view came among it: written whole
        self.pager: Pager | None = None  # the reply being paged, its prompt on the screen

    @property
    def paging(self) -> bool:
        return self.pager is not None

    def gather(self) -> None:
        self.gathered, self.live = [], False

    def release(self, size: int | None, ansi: bool) -> None:
        """The line is done: its text paged when ``size`` (a page's lines; None: no pager) is shorter than it."""
        gathered, self.gathered = self.gathered, None
        if not gathered:
            return
        text = "".join(gathered)
        if size is None or self.live or text.count("\n") <= size + 1 or not text.endswith("\n"):
            self.outbox.send(text)
            return
        self.pager = Pager(text, size, ansi)
        self.write(self.pager.start())

    def answer(self, send: Callable[[], None], size: int | None, ansi: bool) -> None:
        """What ``send`` writes, a command's answer that comes after its line was done (work in slices): paged as
        the line's own output would have been (``size`` and ``ansi`` as ``release`` takes them)."""
        if self.gathered is not None:  # the line is still being acted on: gathered with the rest of it
            send()
            return
        self.gather()
        try:
            send()
        finally:
            self.release(size, ansi)

    def send(self, text: str) -> None:
        if self.gathered is not None:
            self.gathered.append(text)
        elif self.pager is not None and text:
            self.outbox.send(self.pager.around(text))
        else:
            self.outbox.send(text)

    def write(self, text: str) -> None:
        if self.pager is not None and self.pager.done:
            self.pager = None
        if text:
            self.outbox.send(text)

    def key(self, key: str) -> bool:
        assert self.pager is not None
        text, taken = self.pager.key(key)
        self.write(text)
        return taken

    def line(self, line: str) -> bool:
        assert self.pager is not None
        text, taken = self.pager.line(line)
        self.write(text)
        return taken

    def stop(self) -> None:
        if self.pager is not None:
            self.write(self.pager.stop())

    def flush(self) -> None:
        """What is gathered so far out now, unpaged, before something written beside the text (a close, the
        echo turned off for a password)."""
        if self.gathered:
            self.outbox.send("".join(self.gathered))
            self.gathered.clear()
            self.live = True

    def close(self) -> None:
        self.flush()
        self.outbox.close()

    def secret(self, on: bool) -> None:
        self.flush()
        self.outbox.secret(on)

    def wait(self, done: Any) -> None:
        self.outbox.wait(done)
