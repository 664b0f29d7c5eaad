"""A user as the lobby and the tables see them: a name, an output mode, and a mailbox.

Tables and the lobby never write bytes; they ``deliver`` protocol messages (the dicts of docs/protocol.md)
to sessions. A telnet connection renders them as ANSI, ASCII or JSON lines; a server-side bot reads them and
answers through the same table calls a person's commands use. That is what keeps bots honest and the
network edge thin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from mypy_extensions import mypyc_attr

from mudwiz import texts
from mudwiz.errors import BadCommand
from mudwiz.pager import page_size
from mudwiz.texts import later

if TYPE_CHECKING:
    from mudwiz.games.base import Event, Game

class Seats(Protocol):
    """Who holds which seat at a table (``mudwiz.table.roster.Roster``), as far as a session's table is asked."""

    def own_seat(self, session: Session) -> int | None: ...


class Place(Protocol):
    """The table a session is at (``mudwiz.table.Table``), as the lobby, the commands and the connection reach it
    through the session. Declared here, not imported: the table layer stands on the session, so the session
    naming the table, even in a type hint, made the two one circle of imports."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def game(self) -> Game | None: ...

    @property
    def game_class(self) -> type[Game]: ...

    @property
    def seats(self) -> list[Session]: ...

    @property
    def roster(self) -> Seats: ...

    def seat_of(self, name: str) -> int | None: ...

    def act(self, session: Session, text: str) -> None: ...

    def chat(self, session: Session, text: str) -> None: ...

    def send_state(self, session: Session, look: bool = False) -> None: ...


MODES = ("ansi", "ascii", "json")
# /mode cp437: the ansi mode in the IBM PC code page, for BBS terminals (SyncTERM, NetRunner) that show no UTF-8
CHARSET_MODES = {"cp437": ("ansi", "cp437"), "utf8": ("ansi", "utf-8")}
# Charsets that say the user reads Japanese (telnet CHARSET, /charset, the door's emulation): a hint for the
# language (``Session.charset_lang``), and ambiguous-width characters two cells wide by default (``ambiguous_width``).
JAPANESE_CHARSETS = ("shift_jis", "euc-jp")
# A charset's names (upper-cased, ``-``, ``_`` and spaces left out) -> the session's charset: the IANA names and
# their aliases, as a telnet client's CHARSET answer or ``/charset`` gives them.
CHARSET_NAMES = {
    "UTF8": "utf-8", "CP437": "cp437", "437": "cp437",
    "SHIFTJIS": "shift_jis", "SJIS": "shift_jis", "CP932": "shift_jis", "WINDOWS31J": "shift_jis",
    "MSKANJI": "shift_jis", "XSJIS": "shift_jis", "MS932": "shift_jis",
    "EUCJP": "euc-jp", "XEUCJP": "euc-jp", "UJIS": "euc-jp", "EUCJIS": "euc-jp",
}


def charset_named(name: str) -> str | None:
    """The session's charset for a charset's name in any of its spellings (``Shift_JIS``, ``sjis``, ``cp932``,
    ``EUC-JP``, ``eucjp``, ``IBM437``), None for one we do not speak."""
    key = name.strip().upper().replace("IBM", "CP").replace("-", "").replace("_", "").replace(" ", "")
    return CHARSET_NAMES.get(key)


@mypyc_attr(allow_interpreted_subclasses=True)
class Session:
    """Base class: subclasses implement ``deliver``. ``connected`` is False while a dropped user is away."""

    is_bot = False
    # Told when the user's place changes (``table`` set, or ``elsewhere``): a cluster's presence tells the other
    # processes where they are now (mudwiz/cluster/). None: nobody listens, as on a single process.
    on_move: Callable[[Session], None] | None = None

    def __init__(self, name: str = "", mode: str = "ansi") -> None:
        self.name = name
        self.mode = mode
        self.mode_chosen = False  # the user typed /mode: what a terminal says about itself no longer changes it
        # the client's charset: "utf-8", "cp437", "ascii", "shift_jis" or "euc-jp" (telnet TTYPE/CHARSET, rlogin, the
        # door, /mode cp437, /charset); a framing encodes output to it and decodes input from it
        self.charset = "utf-8"
        self.lang = texts.default()  # the language this user reads (/lang, an account's, the client's LANG)
        self.lang_chosen = False  # the user typed /lang (or their account keeps one): what a client says is ignored
        self.lang_heard = False  # a client said its locale (telnet NEW-ENVIRON, SSH LANG): a charset does not guess
        self.charset_before: str | None = None  # the charset before /mode cp437 changed it, put back by another /mode
        # /width ambiguous 1|2: the cells an East Asian ambiguous-width character (box drawing, ○, ×) takes in the
        # user's terminal; None: as the charset suggests (``ambiguous_width``)
        self.ambiguous: int | None = None
        self._table: Place | None = None
        # At a table another process of the cluster hosts: (node, table id, seated); that process plays it, and
        # this one forwards the user's table commands there (mudwiz/cluster/). None: at no table elsewhere.
        self.elsewhere: tuple[str, int, bool] | None = None
        self.connected = True
        self.address = ""  # the peer's host as the network edge saw it; "" for bots and tests
        self.registered = False  # logged in with an account's password, or registered it since
        self.bbs: str | None = None  # the tag of the trusted BBS this caller came through (net/rlogin.py), if any
        # the score sheet this user's client has (table id, game number, rounds on it, sent as JSON): a state
        # leaves out a sheet the client already has, and a JSON reader is sent only its new rows (table/fanout.py)
        self.sheet_sent: tuple[int, int, int, bool] | None = None
        self.replaying: tuple[int, int] | None = None  # (game id, step) last shown by /replay, for next and prev
        # lower-cased names whose chat and tells this user is not shown (/ignore); None: nobody's (most users)
        self.ignoring: set[str] | None = None
        # the pager (mudwiz/pager.py): the window's rows (telnet NAWS, the SSH PTY, rlogin; 0: not known, 24), whether
        # the client is a terminal with no scrollback of its own (on by default there), and /pager's choice
        self.rows = 0
        self.terminal = False
        self.pager: bool | None = None  # /pager on or off; None: on for a terminal
        self.pager_rows: int | None = None  # /pager ROWS: pages for a window this high, whatever it says

    @property
    def charset_lang(self) -> str | None:
        """The language the charset suggests: ``ja`` for Shift_JIS or EUC-JP (a Japanese terminal), None for any
        other. A default for the user's language, never a choice they made."""
        return "ja" if self.charset in JAPANESE_CHARSETS else None

    def ambiguous_width(self) -> int:
        """Cells an ambiguous-width character takes on the user's terminal: as ``/width ambiguous`` set it, else 2
        for a Japanese charset (Tera Term, PuTTY-ja, the Windows console in Japanese draw them so), 1 otherwise."""
        if self.ambiguous is not None:
            return self.ambiguous
        return 2 if self.charset in JAPANESE_CHARSETS else 1

    @property
    def table(self) -> Place | None:
        """The table of this process the user is at (seated or watching), None in the lobby."""
        return self._table

    @table.setter
    def table(self, table: Place | None) -> None:
        moved = table is not self._table
        self._table = table
        if moved:
            self.moved()

    def moved(self) -> None:
        """The user's place changed: whoever keeps track of it is told."""
        if self.on_move is not None:
            self.on_move(self)

    def deliver(self, message: dict[str, Any], event: Event | None = None) -> None:
        """Send one protocol message; ``event`` is the engine event it came from, for renderers that want it."""
        raise NotImplementedError

    def page(self) -> int | None:
        """Lines a page of a long reply shows (mudwiz/pager.py); None: no pager (off, or JSON)."""
        on = self.pager if self.pager is not None else self.terminal
        return page_size(self.pager_rows or self.rows) if on and self.mode != "json" else None

    def deliver_answer(self, message: dict[str, Any]) -> None:
        """A command's answer that comes once its work in slices is done (mudwiz/slices.py), after its line was:
        shown as the line's own output would have been, a long one behind the pager (mudwiz/pager.py)."""
        self.deliver(message)

    def wants_text(self) -> bool:
        """Whether this user reads protocol messages as JSON lines and nothing else (no renderer, no side channel
        reading the dicts): then a table may hand ``deliver_text`` a state it encoded itself (table/fanout.py)."""
        return False

    def deliver_text(self, line: str) -> None:
        """One protocol message already encoded as a JSON line (no line break): only to a session that
        ``wants_text``."""
        raise NotImplementedError

    def drawn_as(self) -> dict[str, Any] | None:
        """How this user's messages are drawn (mode, width, charset), for a table another process hosts to send
        them drawn (mudwiz/cluster/visits.py); None: as messages (no renderer here, or a side channel reading
        them)."""
        return None

    def deliver_drawn(self, text: str, live: bool) -> None:
        """Messages another process drew for this user as ``drawn_as`` says (lines joined, no last break);
        ``live``: a game's view among them (never behind a pager)."""
        raise NotImplementedError

    def close(self) -> None:
        """End the connection (``/quit``); sessions without one have nothing to close."""

    def ask_password(self, purpose: str) -> None:
        """Ask for a password in the next lines (``register``, ``password``): only a connection can, since those
        lines must never be read as commands or chat."""
        raise BadCommand(later('passwords are asked for on a connection only'))

    def notice(self, text: str | texts.Later) -> None:
        """One line for this user alone; a ``Later`` text is put into their language as it is drawn."""
        self.deliver({"type": "notice", "text": text})

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
