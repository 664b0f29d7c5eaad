"""One user's conversation with the server, sans-I/O: decoded lines in, text out through an ``Outbox``.

Every transport (``mudwiz/net/``) frames bytes into lines and hands them here, so what follows is the same on
all of them: the motd and the name prompt, the commands allowed before a name, the JSON envelope and its replies,
the hint after a refused move, and each mode's renderer. Nothing here knows sockets, bytes or timers, so the whole
conversation is tested by feeding lines. Its parts: login.py, passwords.py, replies.py, envelope.py, hints.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import defer
from twisted.logger import Logger
from twisted.python.failure import Failure

from mudwiz import envelope
from mudwiz.commands import dispatch, pre_login
from mudwiz.envelope import request_id_of
from mudwiz.errors import BadCommand, MudwizError
from mudwiz.games.base import Event
from mudwiz.hints import hint as hint  # where the cluster and the tests import it from
from mudwiz.hints import summarize as summarize
from mudwiz.lobby import Lobby
from mudwiz.login import ASKING, CHECKING, GONE, Asking, Input, Login, Purpose
from mudwiz.login import NAME_PROMPT as NAME_PROMPT
from mudwiz.meeting.ignoring import unignored
from mudwiz.pager import PagedOutbox
from mudwiz.passwords import Passwords
from mudwiz.render import jsonl, once
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import WIDTH, Style, ambiguous_cells, fit
from mudwiz.replies import Outbox as Outbox
from mudwiz.replies import Replies
from mudwiz.session import Session
from mudwiz.store import StoreError
from mudwiz.texts import later, speaking
from mudwiz.usertext import clean, erase, one_line

log = Logger(namespace=__name__)  # a compiled module has no frame for Logger() to find its name in

MAX_LINE = 4096  # bytes; a longer line is refused whole (the framing measures it), and the connection stays up
LOGIN_TIMEOUT = 300.0  # seconds a connection may take to give its name (MUDWIZ_LOGIN_TIMEOUT; 0: no limit)


class ConnectionSession(Session):
    """The user as the lobby and the tables see them: each message is rendered for the mode they chose."""

    def __init__(self, connection: Connection) -> None:
        super().__init__()
        self.connection = connection
        self.presenter = Presenter(Style())
        self.width = WIDTH  # the client's window width (telnet NAWS), already clamped to what is drawn

    def deliver(self, message: dict[str, Any], event: Event | None = None) -> None:
        if not self.connected:
            return
        if self.ignoring and (shown := unignored(message, self.ignoring)) is not message:
            if shown is None:
                return
            message = shown
        with speaking(self.lang):  # in this user's language, whoever sent it: a ``Later`` text becomes theirs here
            connection = self.connection
            if event is not None or message.get("type") == "state":  # a game view: never behind a pager
                connection.paged.live = True
            if connection.on_message is not None:  # a side channel (telnet GMCP) carries every message too
                connection.on_message(message)
            if self.mode == "json":  # (a chat line to many: encoded once, ``once.drawn``)
                connection.replies.send_line(once.drawn(message, self.lang, lambda: jsonl.encode(message)))
                return
            self.presenter.style = style = self.style()  # the mode, window and charset as they are now
            with ambiguous_cells(style.ambiguous):  # measured as the user's terminal draws (render/style.py)
                connection.replies.send_lines(once.drawn(message, (style, self.lang), lambda: fit(
                    self.presenter.lines(message, event), style.width)))

    def deliver_answer(self, message: dict[str, Any]) -> None:
        self.connection.paged.answer(lambda: self.deliver(message), self.page(), self.mode == "ansi")

    def wants_text(self) -> bool:
        return self.mode == "json" and self.connection.on_message is None

    def deliver_text(self, line: str) -> None:
        self.deliver_drawn(line, False)

    def style(self) -> Style:
        return Style.for_mode(self.mode, self.width, self.ambiguous_width(), self.charset)

    def drawn_as(self) -> dict[str, Any] | None:
        return None if self.connection.on_message else {"mode": self.mode, "width": self.width, "charset": self.charset,
                                                        "ambiguous": self.ambiguous_width(), "lang": self.lang}

    def deliver_drawn(self, text: str, live: bool) -> None:
        if self.connected:  # ``live``: a game view among them, never behind a pager
            self.connection.paged.live = self.connection.paged.live or live
            self.connection.replies.send_line(text)

    def adopt(self, mode: str | None, charset: str | None) -> None:
        """What the client's terminal says it is (telnet TTYPE/MTTS, CHARSET): taken unless the user chose a
        mode with ``/mode``, which always wins."""
        if mode is not None and not self.mode_chosen:
            self.mode = mode
        if charset is not None:
            self.charset = charset
            if not self.lang_chosen and not self.lang_heard and self.charset_lang:  # Shift_JIS: likely Japanese
                self.lang = self.charset_lang

    def close(self) -> None:
        self.connection.outbox.close()

    def ask_password(self, purpose: str) -> None:
        self.connection.login.ask(Asking(Purpose(purpose), self.name))


class Connection:
    """One connection's conversation: the name prompt until a name is accepted, then each line a command or chat;
    where its login stands is ``login``'s (mudwiz/login.py).

    The framing calls ``start`` once connected, ``receive`` for each line, ``line_too_long`` for a line it
    refused, ``login_expired`` when its login timer (``login_timeout`` seconds; 0: none) runs out, and ``lost``
    when the connection is gone; it reads ``logged_in`` to know when to stop that timer and tell the limits.
    """

    def __init__(
        self, lobby: Lobby, outbox: Outbox, motd: str = "", *, login_timeout: float = LOGIN_TIMEOUT, address: str = ""
    ) -> None:
        self.lobby = lobby
        self.paged = PagedOutbox(outbox)  # a long reply a page at a time (mudwiz/pager.py)
        self.outbox: Outbox = self.paged
        self.motd = motd
        self.login_timeout = login_timeout
        self.session = ConnectionSession(self)
        self.session.address = address
        self.login = Login()
        self.replies = Replies(self.paged, self.session, self.login)
        self.passwords = Passwords(lobby, self.session, self.login, self.replies, self.enter, self.take_over)
        self.on_login: Callable[[], None] | None = None  # the framing's: stop the login timer, tell the limits
        self.on_message: Callable[[dict[str, Any]], None] | None = None  # the framing's, for out-of-band data

    @property
    def logged_in(self) -> bool:
        return self.login.logged_in

    @property
    def gone(self) -> bool:
        return self.login.gone

    @property
    def asking(self) -> Asking | None:
        """The password dialogue under way: the next line is its answer."""
        return self.login.asking

    # -- lines in

    def start(self) -> None:
        if self.greet():
            self.replies.prompt()

    def greet(self, name: str | None = None) -> bool:
        """The message of the day, unless the address (or the ``name`` a transport brings) is banned: then one
        line and the end. Whether to go on."""
        if self.refused("address", self.session.address) or name is not None and self.refused("name", name):
            return False
        for line in self.motd.splitlines():
            self.replies.send_lines([clean(line)])
        return True

    def start_as(self, name: str, proof: str) -> None:
        """``start`` for a transport that proved who the user is itself (SSH: its user name and password): the
        message of the day, then straight in as ``name``, no name prompt. ``proof`` says how: ``password`` (the
        account's), ``resume`` (a held guest name's code) or ``guest`` (none: for a name nobody registered or
        holds, looked at again here, since either may have changed since it was proved). A name online here is
        taken over with a proof, as on the other ports. A name refused (not a name, connected already, banned,
        registered or held meanwhile) is one line, and the connection closes."""
        if not self.greet():
            return
        try:
            online = self.lobby.taken_over_by_proof(name) if proof in ("password", "resume") else None
            if online is not None:
                if not self.refused("name", online.name):
                    self.take_over(online.name, registered=proof == "password")
                return
            name = self.lobby.check_name(name)
            account = self.lobby.accounts.find_or_refuse(name) if self.lobby.accounts is not None else None
            if proof == "guest" and account is not None:
                raise BadCommand(later('{name} is registered: log in with its password', name=account.name))
            if proof == "guest" and self.lobby.needs_resume_code(name):
                raise BadCommand(later('{name} is held for a guest who dropped: give its resume code as the password',
                                       name=name))
            if not self.refused("name", name):
                self.enter(name, registered=proof == "password")
        except MudwizError as exc:
            self.turned_away(exc)

    def start_trusted(self, name: str, bbs: str) -> None:
        """A caller a trusted BBS vouches for (net/rlogin.py): the message of the day, then in as ``name``
        (``handle@bbs``) at once, with no name prompt and no password or resume code, the BBS's own login being
        the proof, which also takes the name over from a connection of theirs still online (a call before this
        one that hangs on). A name that cannot log in now (banned) is one line, and the end."""
        self.session.bbs = bbs
        if not self.greet(name):
            return
        online = self.lobby.users.get(name.lower())
        try:
            if online is not None and online.bbs == bbs:  # their last call still hangs on: the BBS vouches again
                self.take_over(online.name, registered=False)
            else:
                self.enter(name)
        except MudwizError as exc:
            self.turned_away(exc)

    def turned_away(self, exc: MudwizError) -> None:
        """A name a transport brought cannot come in: why, in one line, and the end (there is no prompt to
        try another name at)."""
        self.session.deliver({"type": "error", "message": str(exc)})
        self.outbox.close()

    def refused(self, kind: str, target: str) -> bool:
        """A banned address (at connection) or name (when given): one line saying until when, then closed."""
        sysops = self.lobby.sysops
        refusal = sysops.refusal(kind, target) if sysops is not None else None
        if refusal is None:
            return False
        self.session.deliver({"type": "error", "message": refusal})
        self.outbox.close()
        return True

    def receive(self, line: str) -> None:
        """One line as the user sent it, without its line ending: a command, chat, a name, a JSON request, or a
        password, which goes nowhere but to the accounts: it is never dispatched, logged or echoed. Answered in
        the user's language."""
        with speaking(self.session.lang):
            state = self.login.state
            if state in GONE:  # taken over by another connection, closing: what it still sent is for nobody
                return
            if state in CHECKING:  # a request's reply carries its id, or a program keeping one in flight waits for ever
                self.replies.reply_error(BadCommand(later('wait for the answer about your password: that line was '
                                                          'ignored')),
                                         request_id_of(line), moves=False)
                return
            if state in ASKING:
                self.passwords.answer(line)
                return
            self.replies.prompt_open = False  # the user pressed Enter: their cursor is on a fresh line
            if self.paged.paging and self.paged.line(line):  # Enter (the next page) or q at the pager's prompt
                return
            self.paged.gather()
            try:
                self.act(line)
            finally:
                self.paged.release(self.session.page() if self.logged_in else None, self.session.mode == "ansi")

    def act(self, line: str) -> None:
        """A line that is a command, chat, a name or a JSON request: acted on and answered."""
        try:
            text, request_id = envelope.read(one_line(erase(line)).strip(), self.session.mode == "json")
        except BadCommand as exc:
            self.replies.reply_error(exc, None)
            return
        if self.forwarded(text, request_id):
            return
        named = self.carry_out(text, request_id)
        if self.login.state in ASKING:  # the name of an account, /register or /password: ask for the first one
            self.passwords.ask(request_id if named else None)

    def carry_out(self, text: str, request_id: Any) -> bool:
        """Act on a line and answer it; whether it was a name (sent as a request, it is answered with its id:
        a guest's once in, an account's by the password prompt)."""
        try:
            reply = self.handle(text)
        except (MudwizError, StoreError) as exc:  # the store's: away (a PostgreSQL restart), one line too
            self.replies.refuse(exc, text, request_id)
        except Exception:  # a bug must cost one reply, never the connection or the server
            log.failure("command {text!r} from {name} failed", text=text, name=self.session.name)
            self.replies.reply_error(MudwizError(later('internal error; the command was not carried out')), request_id)
        else:
            self.reply(reply, text, request_id)
            if reply is _NO_REPLY and request_id is not None and self.logged_in and self.asking is None:
                self.replies.reply_ok(None, request_id)  # a guest's name: its reply, after the welcome
            return reply is _NO_REPLY
        return False

    def reply(self, reply: Any, text: str, request_id: Any) -> None:
        """The ``ok`` to a command done (``reply``: its text), or once its work in slices is (a Deferred of it,
        mudwiz/slices.py: the user's next line is read only then)."""
        if isinstance(reply, defer.Deferred):
            reply.addCallbacks(self.replies.reply_ok, self.reply_failed, callbackArgs=(request_id,),
                               errbackArgs=(text, request_id))
            if not reply.called:
                self.outbox.wait(reply)
        elif reply is not _NO_REPLY:
            self.replies.reply_ok(reply, request_id)
            if not self.logged_in and self.asking is None and text.lower().startswith(("/help", "/mode", "/charset")):
                self.replies.prompt()  # still to be answered: the prompt had scrolled away under the help

    def reply_failed(self, failure: Failure, text: str, request_id: Any) -> None:
        """Work in slices failed: as ``receive`` answers a command that raises."""
        if failure.check(MudwizError, StoreError):
            self.replies.refuse(failure.value, text, request_id)
        else:
            log.failure("command {text!r} from {name} failed", failure, text=text, name=self.session.name)
            self.replies.reply_error(MudwizError(later('internal error; the command was not carried out')), request_id)

    def line_too_long(self) -> None:
        """The framing refused a line longer than ``MAX_LINE`` bytes: the user is told once, and nothing else."""
        self.replies.reply_error(BadCommand(later('line too long (more than {max_line} bytes): ignored',
                                                  max_line=MAX_LINE)), None)

    def login_expired(self) -> None:
        """A connection that never names itself (a port scan, a forgotten window) is not kept open for ever;
        one that has logged in is never timed out for being quiet."""
        if self.logged_in:
            return
        self.session.deliver({"type": "error", "message": later('no name given within {login_timeout:g} s: goodbye',
                                                                login_timeout=self.login_timeout)})
        self.outbox.close()  # (no name prompt after it: ``reply_error`` would give one)

    def lost(self) -> None:
        """The connection is gone: the lobby decides what becomes of the user (a seat is kept for a while)."""
        self.login.fire(Input.LOSE)  # a password still being checked logs nobody in
        if self.logged_in:
            self.lobby.disconnect(self.session)
        self.session.connected = False

    def forwarded(self, text: str, request_id: Any) -> bool:
        """Cluster: a command for a table another process hosts goes there, and its ok or error comes back to be
        answered here with the request's id (mudwiz/cluster/visits.py). False: it is for this process."""
        remote = self.lobby.remote_tables
        if not self.logged_in or remote is None or self.asking is not None:
            return False
        return remote.forward(self.session, text, lambda reply: self.replies.reply_ok(reply, request_id),
                              lambda error: self.replies.reply_error(error, request_id))

    def handle(self, text: str) -> str | None | object:
        if self.logged_in:
            return dispatch(self.lobby, self.session, text)
        if not text:
            self.replies.prompt()
            return _NO_REPLY
        if text.startswith("/"):
            if not text.lower().startswith(pre_login()):
                raise BadCommand(later('first tell me your name'))
            return dispatch(self.lobby, self.session, text)
        try:
            name = self.lobby.check_name(text)
        except BadCommand:
            online = self.lobby.taken_over_by_proof(text)
            if online is None:
                raise
            self.take_over_asked(online.name)
            return _NO_REPLY
        if self.refused("name", name):
            return _NO_REPLY
        accounts = self.lobby.accounts
        account = accounts.find_or_refuse(name) if accounts is not None else None
        # A name that needs its proof asks for it even while failed logins hold it back (``check`` says so, after
        # the answer): the line after it is the proof, and a password sent with the name was once read as a name
        # of its own, a guest's, logged and shown to the lobby.
        if account is None and self.lobby.needs_resume_code(name):  # a guest's, held while they are away
            self.login.ask(Asking(Purpose.RESUME, self.lobby.held_spelling(name)))
        elif account is None:  # a guest, as before accounts
            self.enter(name)
        else:
            self.login.ask(Asking(Purpose.LOGIN, account.name))
        return _NO_REPLY

    def take_over_asked(self, name: str) -> None:
        """``name`` is online here: its password (a guest's resume code) lets this connection take it over, as a
        person whose old connection hangs half-open, not yet noticed dead, comes back. The line after the name
        is then read as the proof it is, never as a name (a password typed or sent after a refused name was
        once a guest's name, logged and shown to the lobby)."""
        if self.refused("name", name):
            return
        accounts = self.lobby.accounts
        account = accounts.find(name) if accounts is not None else None
        self.login.ask(Asking(Purpose.TAKEOVER_LOGIN if account is not None else Purpose.TAKEOVER_RESUME, name))

    def take_over(self, name: str, registered: bool) -> None:
        """Proven: the old connection is told and closed, its seat kept as for any drop, and this one comes in
        under the name and takes the seat back."""
        old = self.lobby.users.get(name.lower())
        if old is not None:
            where = self.session.address or later("somewhere")
            old.deliver({"type": "error", "message": later("{name} logged in again on another connection ({where}); "
                                                           "this one is closed", name=name, where=where)})
            self.lobby.disconnect(old)
            if isinstance(old, ConnectionSession):
                old.connection.login.fire(Input.LOSE)  # its lines still on the way are read by nobody, never as a name
            old.close()
        self.enter(name, registered=registered)

    def enter(self, name: str, registered: bool = False) -> None:
        self.lobby.login(self.session, name, greet=lambda: self.replies.welcome(self.lobby), registered=registered)
        self.login.fire(Input.ENTER)
        if self.on_login is not None:
            self.on_login()
        if self.session.table is None and self.session.elsewhere is None:  # elsewhere: its process sends the table
            dispatch(self.lobby, self.session, "/look")


_NO_REPLY = object()
