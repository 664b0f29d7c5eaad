"""The full-screen client: a prompt_toolkit ``Application`` around the model, the panes and the connection.

Layout, top to bottom: the table pane (sized to its content, drawn more compactly when it must, never cut) and
the log (the rest) - side by side when the log still gets 60 columns there - then the status line and the input
line; the score sheet and the key help float above.
Everything runs in the one asyncio loop prompt_toolkit runs (see ``connection`` for why no Twisted here).
"""

from __future__ import annotations

import asyncio
from functools import lru_cache

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import ANSI, StyleAndTextTuples, to_formatted_text
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.layout import (
    ConditionalContainer,
    DynamicContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput, ConditionalProcessor, PasswordProcessor
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style as PtStyle
from prompt_toolkit.widgets import Frame

from mudwiz.client import panes
from mudwiz.client.bindings import PAGE as PAGE
from mudwiz.client.bindings import Bindings
from mudwiz.client.completion import CommandCompleter
from mudwiz.client.connection import Connection, parse_address
from mudwiz.client.link import Link
from mudwiz.client.model import Model
from mudwiz.client.texts import _, _n, client_lang
from mudwiz.render.style import Style, visible_len, wrap_words
from mudwiz.texts import N_, speaking

LOG_NARROWEST = 60  # the log sits beside the table only if it gets this many columns; else below it
LOG_ENOUGH = 80  # columns the log can use: what the server words is broken at 80
LOG_FEWEST = 4  # rows the log keeps under the table (more on taller terminals: a sixth of them)
STYLE = Style()
PT_STYLE = PtStyle.from_dict({"status": "reverse", "separator": "fg:ansibrightblack", "frame.border": "ansicyan"})


@lru_cache(maxsize=4096)
def fragments(line: str) -> StyleAndTextTuples:
    """An ANSI line as prompt_toolkit fragments (cached: the log redraws the same lines many times)."""
    return to_formatted_text(ANSI(line))

JSON_ONLY = N_("! the client speaks JSON mode only; use telnet for ansi/ascii")
NOT_CONNECTED = N_("! not connected: F5 reconnects")


class ClientApp(Link, Bindings):
    """One client: a model fed by a connection, shown and steered through a prompt_toolkit Application."""

    def __init__(self, address: str, input: Input | None = None, output: Output | None = None,
                 lang: str | None = None) -> None:
        """``lang``: the language to speak (``--lang``); None, the environment's (``texts.client_lang``)."""
        host, port = parse_address(address)
        self.model = Model(address=f"{host}:{port}", lang=client_lang(lang))
        self.connection = Connection(host, port, self.on_message, self.on_text, self.on_close)
        self.log_offset = 0  # lines scrolled back from the newest
        self.log_mark = 0  # ``model.logged`` when the offset was last brought up to date (``follow_log``)
        self.show_keys = False  # F1's pane: the keys and the game's rules
        self.help_offset = 0  # lines of it scrolled past
        self.buffer = Buffer(
            multiline=False, history=InMemoryHistory(), completer=CommandCompleter(self.model),
            complete_while_typing=False, accept_handler=self.accept,
        )
        self.app: Application[int] = Application(
            layout=self._layout(), key_bindings=self._bindings(), style=PT_STYLE, full_screen=True,
            input=input, output=output, mouse_support=False,
        )

    # ------------------------------------------------------------ input

    def accept(self, buffer: Buffer) -> bool:
        """Enter: a name before login, the selected move on an empty line, else a command or chat."""
        line = buffer.text.strip()
        m = self.model
        if not m.logged_in and m.question is None and line.startswith("/"):
            self.before_name(line)
            return False
        if m.connection == "connecting" and not m.logged_in and line and m.name is None:
            m.name = line  # typed before the connection was up: connect() logs in with it
            return False
        if m.question is not None:
            self.answer_question(buffer)
            return False
        if not self.connection.connected:
            if line:
                m.note(STYLE.paint(_(NOT_CONNECTED), "red"))
            self.refresh()
            return False
        if not m.logged_in:
            if line and m.name is None:
                m.name = line
                self.connection.send_line(line)
            return False
        if not line:
            command = m.enter_command()
            if command is not None:
                self.send(command)
            return False
        if line.split()[0].lower() == "/quit":
            self.app.exit(result=0)
            return False
        if line.split()[0].lower() == "/mode":
            m.note(STYLE.paint(_(JSON_ONLY), "red"))
            return False
        self.send(line)
        return False

    def answer_question(self, buffer: Buffer) -> None:
        """The line answers what the server asked (a password at login, for /register or /password, a resume
        code): sent bare, never kept in the history nor shown, and the mask ends with it. Only before login was it
        so: a /register's password went to the Up-arrow history and the input stayed masked for good."""
        line = buffer.text.strip()
        buffer.reset()  # emptied before prompt_toolkit appends the line to the history
        self.model.question = None
        if self.connection.connected:
            self.connection.send_line(line)
        else:
            self.model.note(STYLE.paint(_(NOT_CONNECTED), "red"))
        self.refresh()

    def before_name(self, command: str) -> None:
        """A command typed where the name is asked: never taken for the name (it was, and every F5 sent it again
        as one). ``/quit`` ends the client, ``/mode`` is refused as after login (the client speaks JSON only),
        anything else goes to the server, which answers ``/help`` before the name and refuses the rest."""
        verb = command.split()[0].lower()
        if verb == "/quit":
            self.app.exit(result=0)
        elif verb == "/mode":
            self.model.note(STYLE.paint(_(JSON_ONLY), "red"))
        elif self.connection.connected:
            self.connection.send_line(command)
        else:
            self.model.note(STYLE.paint(_(NOT_CONNECTED), "red"))
        self.refresh()

    def send(self, command: str) -> None:
        request_id = self.connection.request(command)
        self.model.sent(request_id, command)
        if command.startswith("/"):
            self.model.note(STYLE.paint(f"> {command}", "grey"))
        self.refresh()

    def toggle_help(self) -> None:
        """F1: open or close the keys and, at a table, the game's rules, asked of the server (``/rules GAME``)
        the first time; a server without the command leaves the keys alone in the pane."""
        m = self.model
        self.show_keys, self.help_offset = not self.show_keys, 0
        game = (m.state or {}).get("game")
        if (self.show_keys and game and game not in m.rules and m.rules_asked is None and m.logged_in
                and self.connection.connected):
            m.ask_rules(self.connection.request(f"/rules {game}"), game)

    def help_height(self) -> int:
        """Rows of F1's pane inside its frame: the screen's but the frame, the top line and the bottom two."""
        return max(3, self.size()[1] - 5)

    def help_width(self) -> int:
        return max(20, min(90, self.columns() - 4))

    def help_text(self) -> StyleAndTextTuples:
        lines = panes.help_lines(self.model, self.help_width())
        self.help_offset = max(0, min(self.help_offset, len(lines) - self.help_height()))
        return self._block(lines[self.help_offset:self.help_offset + self.help_height()])

    def scroll(self, step: int) -> None:
        """PageUp/PageDown: F1's pane while it is open, else the log."""
        if self.show_keys:
            self.help_offset = max(0, self.help_offset + step)
        else:
            self.follow_log()
            self.log_offset = max(0, min(self.log_top(), self.log_offset - step))

    def follow_log(self) -> None:
        """Scrolled back, the view stays on the lines it shows while new ones come: the offset grows with them
        (it drifted a line a message)."""
        logged = self.model.logged
        if self.log_offset:
            self.log_offset = min(self.log_offset + logged - self.log_mark, self.log_top())
        self.log_mark = logged

    def log_top(self) -> int:
        """The largest offset: the oldest lines filling the whole log pane (PageUp went on to one line on top of
        blank rows)."""
        rows, width, filled = self.log_rows(), self.wrap_width(), 0
        lines = list(self.model.log)
        for end, line in enumerate(lines, 1):
            filled += len(wrap_words(line, width))
            if filled >= rows:
                return len(lines) - end
        return 0

    def log_rows(self) -> int:
        """The log pane's rows: the screen's but the status and input lines, and stacked, the table and its rule."""
        rows = self.size()[1] - 2
        return max(1, rows if self.beside() else rows - len(self.table_lines()) - 1)

    def wrap_width(self) -> int:
        return max(20, self.log_width())

    def toggle_sheet(self) -> None:
        m = self.model
        m.show_sheet = not m.show_sheet
        if m.show_sheet and m.sheet_message() is None and m.state is not None and self.connection.connected:
            self.send("/score")  # the reply opens it
            m.show_sheet = False

    # ------------------------------------------------------------ layout

    def size(self) -> tuple[int, int]:
        """(columns, rows) of the terminal."""
        app = getattr(self, "app", None)  # the layout is built (and walked) before the Application exists
        if app is None:
            return 80, 24
        size = app.output.get_size()
        return size.columns, size.rows

    def columns(self) -> int:
        return self.size()[0]

    def beside(self) -> bool:
        """The log beside the table only where it still gets LOG_NARROWEST columns; else it goes below."""
        return self.columns() - panes.wanted_width(self.model) - 1 >= LOG_NARROWEST

    def table_width(self) -> int:
        """Beside the log, the table takes what its rows need and the log the rest, up to the LOG_ENOUGH it can
        use (what the server words is broken at 80 columns); stacked, the table takes the terminal's width."""
        cols = self.columns()
        if not self.beside():
            return cols
        return max(panes.wanted_width(self.model), min(84, cols - 1 - LOG_ENOUGH))

    def table_rows(self) -> int:
        """The rows the table pane may use: all but the status and input lines, and stacked, the log's least."""
        rows = self.size()[1] - 2
        return max(1, rows if self.beside() else rows - 1 - max(LOG_FEWEST, rows // 6))

    def table_lines(self) -> list[str]:
        return panes.table_lines(self.model, self.table_width() - 1, self.table_rows())

    def table_text(self) -> StyleAndTextTuples:
        return self._block(self.table_lines())

    def table_dimension(self) -> Dimension:
        """Beside the log the table keeps its width; stacked, it takes the terminal's."""
        return Dimension.exact(self.table_width()) if self.beside() else Dimension()

    def table_height(self) -> Dimension:
        if self.beside():
            return Dimension(min=1)
        return Dimension.exact(len(self.table_lines()))

    def log_width(self) -> int:
        cols = self.columns()
        return cols - self.table_width() - 1 if self.beside() else cols

    def log_text(self) -> StyleAndTextTuples:
        self.follow_log()
        lines = list(self.model.log)
        end = max(0, len(lines) - self.log_offset)
        rows = self.log_rows()
        width = self.wrap_width()
        shown = [part for line in lines[max(0, end - rows):end] for part in wrap_words(line, width)][-rows:]
        if self.log_offset:  # the last row says the view is back in the log, not at its newest line
            shown = [*shown[:rows - 1], self.scrolled_back(width)]
        out = self._block(shown)
        out.append(("[SetCursorPosition]", ""))  # the window scrolls to keep this, the newest line, in view
        return out

    def scrolled_back(self, width: int) -> str:
        newer = self.log_offset
        text = _n(" -- scrolled back: {n} newer line below; PageDown returns --",
                  " -- scrolled back: {n} newer lines below; PageDown returns --", newer)
        short = _(" -- {n} newer below: PageDown --", n=newer)
        return STYLE.paint(text if visible_len(text) <= width else short, "reverse")

    def _layout(self) -> Layout:
        table = Window(FormattedTextControl(self.table_text), height=self.table_height, width=self.table_dimension,
                       wrap_lines=False)
        # A preferred height given, so the layout never measures the log's text to divide the screen.
        log = Window(FormattedTextControl(self.log_text), wrap_lines=True,
                     height=Dimension(min=2, preferred=10, weight=1))
        stacked = HSplit([table, Window(height=1, char="\u2500", style="class:separator"), log])
        wide = VSplit([table, Window(width=1, char="\u2502", style="class:separator"), log])
        status_text = FormattedTextControl(lambda: fragments(panes.status_line(self.model, self.columns())))
        status = Window(status_text, height=1, style="class:status")
        prompt = BeforeInput(self.prompt_text, style="bold")
        hidden = ConditionalProcessor(PasswordProcessor(), Condition(lambda: self.model.question is not None))
        entry = Window(BufferControl(self.buffer, input_processors=[hidden, prompt]), height=1)
        body = HSplit([DynamicContainer(lambda: wide if self.beside() else stacked), status, entry])
        sheet = Frame(Window(FormattedTextControl(lambda: self._block(panes.sheet_lines(self.model)))),
                      title=lambda: _("Score sheet (F2 closes)"))
        keys = Frame(Window(FormattedTextControl(self.help_text), width=lambda: Dimension(max=self.help_width()),
                            height=lambda: Dimension(max=self.help_height())),
                     title=lambda: _("Keys and rules (F1 closes, PageUp/PageDown scroll)"))
        root = FloatContainer(body, floats=[
            Float(ConditionalContainer(sheet, filter=Condition(lambda: self.model.show_sheet)), top=1),
            Float(ConditionalContainer(keys, filter=Condition(lambda: self.show_keys)), top=1),
            Float(CompletionsMenu(max_height=8, scroll_offset=1), xcursor=True, ycursor=True),
        ])
        return Layout(root, focused_element=entry)

    def prompt_text(self) -> str:
        m = self.model
        return f"{m.question.lower()}> " if m.question else "> " if m.logged_in else _("name") + "> "

    @staticmethod
    def _block(lines: list[str]) -> StyleAndTextTuples:
        return [frag for line in lines for frag in [*fragments(line), ("", "\n")]][:-1]


def run_client(address: str, lang: str | None = None) -> int:
    """``mudwiz client [--lang LANG] [HOST[:PORT]]``: run the full-screen client until the user quits."""
    with speaking(client_lang(lang)):
        try:
            client = ClientApp(address, lang=lang)
        except ValueError:
            print(_("mudwiz client: bad address {address}: use HOST[:PORT]", address=repr(address)))
            return 2
        return asyncio.run(client.run_async())
