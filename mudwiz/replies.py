"""What a connection writes: lines (never glued to a prompt or to text left unended), the name prompt, and the
``ok`` or ``error`` that answers each line or request."""

from __future__ import annotations

from typing import Any, Protocol

from twisted.internet import defer
from twisted.logger import Logger

from mudwiz import __version__
from mudwiz.commands import catalogue, is_sysop
from mudwiz.errors import STORE_AWAY, MudwizError
from mudwiz.hints import hint
from mudwiz.login import NAME_PROMPT, Login
from mudwiz.session import Session
from mudwiz.texts import _, later, speaking

log = Logger(namespace=__name__)  # a compiled module has no frame for Logger() to find its name in


class Outbox(Protocol):
    """What a framing lends its connection: the only way out, so the connection never sees a transport."""

    def send(self, text: str) -> None:
        """Write ``text`` as it is; lines end in ``\\n`` and the framing puts them on the wire as it must."""

    def close(self) -> None:
        """End the connection once what was sent has gone out."""

    def secret(self, on: bool) -> None:
        """What the user types next is a password (``on``), or no longer: telnet turns the client's echo off and
        on again; a framing with no such thing does nothing."""

    def wait(self, done: defer.Deferred[Any]) -> None:
        """Read no more of the user's lines until ``done`` fires (its answer is sent first)."""


class Replies:
    """A connection's way out: what it sends goes through ``outbox``, what it says to ``session``."""

    def __init__(self, outbox: Outbox, session: Session, login: Login) -> None:
        self.outbox = outbox
        self.session = session
        self.login = login
        self.prompt_open = False  # the name prompt ends without a newline; the next output must not join it
        self.line_open = False  # the last character sent was not a newline (a program reading lines would join)

    def reply_ok(self, text: Any, request_id: Any, **fields: Any) -> None:
        """``ok``, with ``text`` if any and the reply's own ``fields`` (``/unregister``'s ``resume``)."""
        message: dict[str, Any] = {"type": "ok"}
        if request_id is not None:
            message["id"] = request_id
        if text:
            message["text"] = text
        message.update(fields)
        self.session.deliver(message)

    def refuse(self, exc: BaseException, text: str, request_id: Any) -> None:
        """A command refused (``MudwizError``), or one the store did not answer (``StoreError``: a PostgreSQL
        restart): one line to the user, and for the store's one to the log, never a traceback."""
        if not isinstance(exc, MudwizError):
            log.error("command {text!r} from {name}: {why}", text=text, name=self.session.name, why=exc)
            exc = MudwizError(STORE_AWAY)
        self.reply_error(exc, request_id)

    def reply_error(self, exc: MudwizError, request_id: Any, moves: bool = True) -> None:
        """The one-line error; ``moves``: with the moves the player may make when it is their turn (not after a
        password dialogue, whose errors are about the account). In the user's language, whatever answers it (a
        reply from another process of the cluster comes back on no line of theirs)."""
        with speaking(self.session.lang):
            try:
                text = hint(self.session, str(exc)) if moves else str(exc)
            except Exception:  # the hint is a courtesy: a bug in it must not cost the error reply or the connection
                log.failure("hint for {error!r} to {name} failed", error=repr(exc.args), name=self.session.name)
                text = str(exc)
        message: dict[str, Any] = {"type": "error", "message": text}
        if exc.code is not None:
            message["code"] = exc.code
        if request_id is not None:
            message["id"] = request_id
        self.session.deliver(message)
        if not self.login.logged_in and self.session.mode != "json":
            self.prompt()

    def welcome(self, lobby: Any) -> None:
        """The welcome; a guest's carries their resume code, shown to them alone and never logged."""
        session = self.session
        code = lobby.resume_code(session)
        session.deliver({"type": "welcome", "name": session.name, "resume": code, "version": __version__,
                         **catalogue(is_sysop(lobby, session))})
        if session.mode != "json":
            session.notice(later("Welcome, {name}! (mudwiz {version}) /help lists the commands; /tables the tables.",
                                  name=session.name, version=__version__))
            if code is not None:
                session.notice(later("Your resume code is {code}: type it if you are asked for it after a drop.",
                                      code=code))

    def prompt(self) -> None:
        if self.session.mode != "json":
            self.send(_(NAME_PROMPT))
            self.prompt_open = True

    def send_lines(self, lines: list[str]) -> None:
        if lines:
            self.send_line("\n".join(lines))

    def send_line(self, line: str) -> None:
        """One line (or lines joined), ended: what ``send_lines`` does, without a list for the one line of a JSON
        message, several of which go out on every move."""
        # A person's Enter moved their cursor past the prompt; a JSON reader's stream has no Enter in it, so its
        # first line must not be glued to "What is your name? ".
        head = "\n" if self.prompt_open or (self.line_open and self.session.mode == "json") else ""
        self.prompt_open = self.line_open = False  # what ``send`` would say of text ending in a line break
        self.outbox.send(head + line + "\n")

    def send(self, text: str) -> None:
        if text:
            self.line_open = not text.endswith("\n")
        self.outbox.send(text)
