"""The client's side of the connection: (re)connecting, logging in again after a drop, and what the server
sends, fed to the model. A mixin of ``ClientApp``, apart from its layout and input."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mudwiz.client import panes
from mudwiz.client.events import STYLE
from mudwiz.client.texts import _
from mudwiz.texts import CORE, languages, speaking

if TYPE_CHECKING:
    from prompt_toolkit.application import Application

    from mudwiz.client.connection import Connection
    from mudwiz.client.model import Model


SERVER_PROMPTS = ("What is your name? ", "Resume code:", "Password:")  # i18n: not text (the server's, matched)


def prompts() -> set[str]:
    """The server's prompts before login, in every language it may speak them (it asks the name before the
    client's ``/lang``, in its own): the prompt line is the client's, not the log's."""
    return {CORE.catalog(lang).gettext(text).strip() for text in SERVER_PROMPTS for lang in languages()}


class Link:
    """Connecting, and the connection's callbacks (``on_message``, ``on_text``, ``on_close``)."""

    if TYPE_CHECKING:  # given by ClientApp
        model: Model
        connection: Connection
        app: Application[int]

        def table_lines(self) -> list[str]: ...

        def columns(self) -> int: ...

    # ------------------------------------------------------------ running

    def _start_connecting(self) -> None:
        self.app.create_background_task(self.connect())

    async def run_async(self) -> int:
        with speaking(self.model.lang):  # every pane, line and key of this run in the client's language
            try:
                return await self.app.run_async(pre_run=self._start_connecting)
            finally:
                await self.connection.close()

    async def connect(self) -> None:
        """Connect (or reconnect), switch to JSON and, when the name is known, log in with it again."""
        m = self.model
        m.connection, m.reason, m.logged_in, m.question, m.taken_over = "connecting", "", False, None, False
        self.refresh()
        try:
            await self.connection.open()
        except (OSError, TimeoutError) as exc:
            m.connection, m.reason = "disconnected", str(exc) or type(exc).__name__
            m.note(STYLE.paint(_("! cannot connect to {address}: {reason} (F5 tries again)", address=m.address,
                                  reason=m.reason), "red", "bold"))
            self.refresh()
            return
        m.connection, m.score, m.show_sheet = "connected", None, False
        m.leave_table()
        self.connection.send_line("/mode json")  # i18n: not text (a command to the server)
        self.connection.send_line(f"/lang {m.lang}")  # the server words its texts in the client's language
        if m.name:
            self.connection.send_line(m.name)
        self.refresh()

    def refresh(self) -> None:
        self.app.invalidate()

    # ------------------------------------------------------------ the connection's callbacks

    def on_message(self, message: dict[str, Any]) -> None:
        """One message into the picture. One the client cannot read or draw (a field missing or of the wrong
        kind) is skipped with a line in the log, the picture left as it was: it once stopped the reading for good
        (or every redraw after it), with the status line still saying connected."""
        saved = dict(vars(self.model))
        try:
            if self.answer_resume(message):
                self.refresh()
                return
            self.model.apply(message)
            if message["type"] == "error" and not self.model.logged_in:
                self.model.name = None  # refused: the next line typed is a new try
            self.drawn()
        except Exception as exc:  # the server's mistake (or another server's), never the end of this client
            vars(self.model).update(saved)
            kind = str(message.get("type"))[:20]
            self.model.note(STYLE.paint(_("a {kind} message from the server could not be read; skipped "
                                          "({error}: {detail})", kind=repr(kind), error=type(exc).__name__,
                                          detail=str(exc)[:60]), "grey"))
        self.refresh()

    def drawn(self) -> None:
        """Draw the panes once, so a message that leaves the picture undrawable is refused when it comes."""
        self.table_lines()
        panes.status_line(self.model, self.columns())
        panes.sheet_lines(self.model)

    def answer_resume(self, message: dict[str, Any]) -> bool:
        """The server asks the resume code of the guest name this client had (F5 after a drop): give it, so
        coming back takes one key. True when answered."""
        m = self.model
        if (message["type"] != "password" or message.get("prompt") != "Resume code" or m.logged_in
                or not m.resume or not m.name or str(message.get("name", "")).lower() != m.name.lower()):
            return False
        self.connection.send_line(m.resume)
        m.note(STYLE.paint(_("giving the resume code of {name}", name=message["name"]), "grey"))
        return True

    def on_text(self, text: str) -> None:
        if not self.model.logged_in and text.strip() not in prompts():
            self.model.note(STYLE.paint(STYLE.text(text), "grey"))
            self.refresh()

    def on_close(self, reason: str) -> None:
        """The connection is gone: no question is open any more (the prompt read ``again>`` after a server
        stopped), and F5 is offered, unless the name went to another connection: F5 would take it back."""
        m = self.model
        m.connection, m.reason, m.logged_in, m.question = "disconnected", reason, False, None
        m.pending.clear()
        m.rules_asked = None
        if m.taken_over:
            m.note(STYLE.paint(_("! {reason}: your name is in use on another connection now.", reason=reason),
                               "red", "bold"))
        else:
            m.note(STYLE.paint(_("! {reason}. F5 reconnects (your seat is kept for a while).", reason=reason),
                               "red", "bold"))
        self.refresh()
