"""One user's conversation with the server, sans-I/O: decoded lines in, text out through an ``Outbox``.

Every transport (``mudwiz/net/``) frames bytes into lines and hands them here, so what follows is the same on
all of them: the message of the day and the name prompt, the commands allowed before a name, the JSON request
envelope (``{"id": ..., "cmd": ...}``) and its ok/error replies, the hint after a refused move, and the
renderer of each mode. Nothing here knows sockets, bytes or timers (the framing runs the login timer and calls
``login_expired``), so the whole conversation is tested by feeding lines (tests/test_connection.py).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from twisted.internet import defer
from twisted.logger import Logger
from twisted.python.failure import Failure

from mudwiz.accounts import MIN_PASSWORD, Accounts, looks_registered, secret
from mudwiz.commands import catalogue, dispatch, is_sysop, pre_login
from mudwiz.errors import BadCommand, MudwizError
from mudwiz.games.base import Event, Game
from mudwiz.lobby import Lobby
from mudwiz.login import ASKING, CHECKING, NAME_PROMPT, Asking, Input, Login, Purpose
from mudwiz.render import jsonl
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import NO_BREAK, WIDTH, Style, fit
from mudwiz.session import Session
from mudwiz.store import AccountExists, LooksRegistered
from mudwiz.usertext import clean, erase, one_line, spoken

log = Logger(namespace=__name__)  # a compiled module has no frame for Logger() to find its name in

MAX_ID_NESTING = 32  # levels of arrays and objects a request's id may have: it is encoded again in the reply
MAX_LINE = 4096  # bytes; a longer line is refused whole (the framing measures it), and the connection stays up
LOGIN_TIMEOUT = 300.0  # seconds a connection may take to give its name (MUDWIZ_LOGIN_TIMEOUT; 0: no limit)


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
        if self.ignoring and message.get("type") == "chat" and str(message.get("from", "")).lower() in self.ignoring:
            return  # /ignore: their lobby and table chat and their tells are not shown
        connection = self.connection
        if connection.on_message is not None:  # a side channel (telnet GMCP) carries every message too
            connection.on_message(message)
        if self.mode == "json":
            connection.send_line(jsonl.encode(message))
            return
        style = self.style()
        if self.presenter.style != style:  # the mode, window or charset changed: drawn so from now on
            self.presenter.style = style
        connection.send_lines(fit(self.presenter.lines(message, event), style.width))

    def wants_text(self) -> bool:
        return self.mode == "json" and self.connection.on_message is None

    def deliver_text(self, line: str) -> None:
        if self.connected:
            self.connection.send_line(line)

    def style(self) -> Style:
        style = Style.for_mode(self.mode, self.width)
        return replace(style, unicode=False) if self.charset == "ascii" else style  # CP437 has the rules' lines

    def adopt(self, mode: str | None, charset: str | None) -> None:
        """What the client's terminal says it is (telnet TTYPE/MTTS, CHARSET): taken unless the user chose a
        mode with ``/mode``, which always wins."""
        if mode is not None and not self.mode_chosen:
            self.mode = mode
        if charset is not None:
            self.charset = charset

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
        self.outbox = outbox
        self.motd = motd
        self.login_timeout = login_timeout
        self.session = ConnectionSession(self)
        self.session.address = address
        self.login = Login()
        self.prompt_open = False  # the name prompt ends without a newline; the next output must not join it
        self.line_open = False  # the last character sent was not a newline (a program reading lines would join)
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
            self.prompt()

    def greet(self, name: str | None = None) -> bool:
        """The message of the day, unless the address (or the ``name`` a transport brings) is banned: then one
        line and the end. Whether to go on."""
        if self.refused("address", self.session.address) or name is not None and self.refused("name", name):
            return False
        for line in self.motd.splitlines():
            self.send_lines([clean(line)])
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
                raise BadCommand(f"{account.name} is registered: log in with its password")
            if proof == "guest" and self.lobby.needs_resume_code(name):
                raise BadCommand(f"{name} is held for a guest who dropped: give its resume code as the password")
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
        password, which goes nowhere but to the accounts: it is never dispatched, logged or echoed."""
        state = self.login.state
        if self.gone:  # taken over by another connection, closing: what it still sent is for nobody
            return
        if state in CHECKING:  # a request's reply carries its id, or a program keeping one in flight waits for ever
            self.reply_error(BadCommand("wait for the answer about your password: that line was ignored"),
                             request_id_of(line), moves=False)
            return
        if state in ASKING:
            self.answer(line)
            return
        self.prompt_open = False  # the user pressed Enter: their cursor is on a fresh line
        text = one_line(erase(line)).strip()
        request_id: Any = None
        if text.startswith("{"):
            try:
                request = jsonl.loads(text)
                if not isinstance(request, dict) or not isinstance(request.get("cmd"), str):
                    raise ValueError('a JSON request is {"id": ..., "cmd": "/command ..."}')
                if nesting(request.get("id")) > MAX_ID_NESTING:
                    raise ValueError(f'"id" is nested more than {MAX_ID_NESTING} deep; it is echoed in the reply')
            except ValueError as exc:
                self.reply_error(BadCommand(f"bad JSON request: {exc}"), None)
                return
            except RecursionError:  # json.loads recurses once a level: [[[[... past ~1000 levels
                self.reply_error(BadCommand("bad JSON request: nested too deeply"), None)
                return
            request_id = request.get("id")
            # JSON may spell a line break (\\n) or a bidi override, and a backspace or DEL (\\u007f): read as the
            # same keys in a bare line are, so a password or a chat line is the same either way
            text = one_line(erase(request["cmd"])).strip()
        elif self.session.mode == "json" and text[:1] in JSON_STARTS and parses(text):
            # JSON that is no request (a batch's array, a string, null): a program's mistake, never chat for all
            self.reply_error(BadCommand('bad JSON request: a JSON request is {"id": ..., "cmd": "/command ..."}'),
                             None)
            return
        if self.forwarded(text, request_id):
            return
        named = self.carry_out(text, request_id)
        if self.login.state in ASKING:  # the name of an account, /register or /password: ask for the first one
            self.ask(request_id if named else None)

    def carry_out(self, text: str, request_id: Any) -> bool:
        """Act on a line and answer it; whether it was a name (sent as a request, it is answered with its id:
        a guest's once in, an account's by the password prompt)."""
        try:
            reply = self.handle(text)
        except MudwizError as exc:
            self.reply_error(exc, request_id)
        except Exception:  # a bug must cost one reply, never the connection or the server
            log.failure("command {text!r} from {name} failed", text=text, name=self.session.name)
            self.reply_error(MudwizError("internal error; the command was not carried out"), request_id)
        else:
            self.reply(reply, text, request_id)
            if reply is _NO_REPLY and request_id is not None and self.logged_in and self.asking is None:
                self.reply_ok(None, request_id)  # a guest's name: its reply, after the welcome
            return reply is _NO_REPLY
        return False

    def reply(self, reply: Any, text: str, request_id: Any) -> None:
        """The ``ok`` to a command done (``reply``: its text), or once its work in slices is (a Deferred of it,
        mudwiz/slices.py: the user's next line is read only then)."""
        if isinstance(reply, defer.Deferred):
            reply.addCallbacks(self.reply_ok, self.reply_failed, callbackArgs=(request_id,),
                               errbackArgs=(text, request_id))
            if not reply.called:
                self.outbox.wait(reply)
        elif reply is not _NO_REPLY:
            self.reply_ok(reply, request_id)
            if not self.logged_in and self.asking is None and text.lower().startswith(("/help", "/mode")):
                self.prompt()  # still to be answered: the prompt had scrolled away under the help

    def reply_failed(self, failure: Failure, text: str, request_id: Any) -> None:
        """Work in slices failed: as ``receive`` answers a command that raises."""
        if failure.check(MudwizError):
            self.reply_error(failure.value, request_id)
        else:
            log.failure("command {text!r} from {name} failed", failure, text=text, name=self.session.name)
            self.reply_error(MudwizError("internal error; the command was not carried out"), request_id)

    def reply_ok(self, text: Any, request_id: Any) -> None:
        message: dict[str, Any] = {"type": "ok"}
        if request_id is not None:
            message["id"] = request_id
        if text:
            message["text"] = text
        self.session.deliver(message)

    def line_too_long(self) -> None:
        """The framing refused a line longer than ``MAX_LINE`` bytes: the user is told once, and nothing else."""
        self.reply_error(BadCommand(f"line too long (more than {MAX_LINE} bytes): ignored"), None)

    def login_expired(self) -> None:
        """A connection that never names itself (a port scan, a forgotten window) is not kept open for ever;
        one that has logged in is never timed out for being quiet."""
        if self.logged_in:
            return
        self.session.deliver({"type": "error", "message": f"no name given within {self.login_timeout:g} s: goodbye"})
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
        return remote.forward(self.session, text, lambda reply: self.reply_ok(reply, request_id),
                                     lambda error: self.reply_error(error, request_id))

    def handle(self, text: str) -> str | None | object:
        if self.logged_in:
            return dispatch(self.lobby, self.session, text)
        if not text:
            self.prompt()
            return _NO_REPLY
        if text.startswith("/"):
            if not text.lower().startswith(pre_login()):
                raise BadCommand("first tell me your name")
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
            old.deliver({"type": "error", "message": f"{name} logged in again on another connection "
                                                     f"({self.session.address or 'somewhere'}); this one is closed"})
            self.lobby.disconnect(old)
            if isinstance(old, ConnectionSession):
                old.connection.login.fire(Input.LOSE)  # its lines still on the way are read by nobody, never as a name
            old.close()
        self.enter(name, registered=registered)

    def enter(self, name: str, registered: bool = False) -> None:
        self.lobby.login(self.session, name, greet=self.welcome, registered=registered)
        self.login.fire(Input.ENTER)
        if self.on_login is not None:
            self.on_login()
        if self.session.table is None and self.session.elsewhere is None:  # elsewhere: its process sends the table
            dispatch(self.lobby, self.session, "/look")

    # -- passwords

    def accounts(self) -> Accounts:
        if self.lobby.accounts is None:
            raise BadCommand("this server keeps no accounts")
        return self.lobby.accounts

    def throttle(self, name: str) -> None:
        refused = self.lobby.throttled(name, self.session.address)
        if refused is not None:
            raise BadCommand(refused)

    def ask(self, request_id: Any = None) -> None:
        """Prompt for the dialogue's next password: on a terminal with the echo off, to a JSON client a message
        (with the ``id`` of the request that answered the one before, when it had one)."""
        asking = self.login.asking
        assert asking is not None
        if self.session.mode == "json":
            message = {"type": "password", "name": asking.name, "prompt": asking.prompt[:-2]}
            if request_id is not None:
                message["id"] = request_id
            self.session.deliver(message)
            return
        self.outbox.secret(True)
        self.send(asking.prompt)  # the cursor is at a line's start: after their Enter, or a reply's end
        self.prompt_open = True

    def answer(self, line: str) -> None:
        """A password line: kept for its dialogue, then handed to the accounts in a worker thread. Whatever
        happens it is neither logged nor shown: an error here is logged without it."""
        asking, request_id = self.login.asking, None
        assert asking is not None
        password = erase(line)
        if password.startswith("{"):  # a JSON client's {"id": ..., "cmd": PASSWORD}
            try:
                request = json.loads(password)
                if isinstance(request, dict) and isinstance(request.get("cmd"), str):
                    password = erase(request["cmd"])  # as a bare line's: the same password either way
                    request_id = request.get("id") if nesting(request.get("id")) <= MAX_ID_NESTING else None
            except (ValueError, RecursionError):
                pass  # a password that begins with {
        if self.session.mode != "json":
            self.send("\n")  # their Enter was not echoed either
            self.prompt_open = False
        asking.answers.append(password)
        if not asking.complete:
            self.ask(request_id)
            return
        self.login.answered()
        if self.session.mode != "json":
            self.outbox.secret(False)
        try:
            done = self.check(asking)
        except MudwizError as exc:
            self.login.fire(Input.DONE)
            self.reply_error(exc, request_id, moves=False)
        except Exception:
            self.login.fire(Input.DONE)
            log.failure("{purpose} for {name} failed", purpose=asking.purpose.value, name=asking.name)
            self.reply_error(MudwizError("internal error; nothing was changed"), request_id, moves=False)
        else:
            done.addCallbacks(self.checked, self.check_failed, callbackArgs=(asking, request_id),
                              errbackArgs=(asking, request_id))
        finally:
            asking.answers.clear()  # the worker holds what it needs; nothing here keeps a password

    def check(self, asking: Asking) -> defer.Deferred[Any]:
        address = self.session.address
        if asking.purpose.proof and not asking.purpose.account:  # no hashing: the code is in memory, compared at once
            if asking.purpose is Purpose.RESUME and not self.lobby.needs_resume_code(asking.name):
                return defer.succeed(True)  # freed meanwhile (the table closed): a new guest's
            self.throttle(asking.name)
            return defer.succeed(self.lobby.resume_code_matches(asking.name, asking.answers[0], address))
        accounts = self.accounts()
        if asking.purpose.account:
            self.throttle(asking.name)
            return accounts.login(asking.name, asking.answers[0], address)
        new, again = asking.answers[-2:]
        kept = "nothing was registered" if asking.purpose is Purpose.REGISTER else "the password is unchanged"
        if new != again:
            raise BadCommand(f"the two passwords differ; {kept}")
        if len(secret(new)) < MIN_PASSWORD:  # counted as hashed: ``ä`` typed as a + a combining mark is one
            raise BadCommand(f"a password has at least {MIN_PASSWORD} characters; {kept}")
        if not spoken(new):  # blanks only, by chat's rule of what is blank (the braille blank too)
            raise BadCommand(f"a password of blanks only is too easy to guess; {kept}")
        if asking.purpose is Purpose.REGISTER:
            return accounts.register(asking.name, new, address)
        self.throttle(asking.name)
        return accounts.change(asking.name, asking.answers[0], new, address)

    def checked(self, result: Any, asking: Asking, request_id: Any) -> None:
        """The accounts' answer, on the reactor thread: log in, or say it is registered, changed or refused."""
        if self.gone:
            return
        self.login.fire(Input.DONE)
        try:
            self.conclude(result, asking, request_id)
        except MudwizError as exc:
            self.reply_error(exc, request_id, moves=False)
        except Exception:  # a bug costs this reply, never the connection
            log.failure("{purpose} for {name} failed", purpose=asking.purpose.value, name=asking.name)
            self.reply_error(MudwizError("internal error"), request_id, moves=False)

    def conclude(self, result: Any, asking: Asking, request_id: Any) -> None:
        if asking.purpose.proof:
            password = asking.purpose.account  # the account's (an Account or None), else a guest's code
            if result is None if password else not result:
                raise BadCommand(f"wrong {'password' if password else 'resume code'} for {asking.name}")
            name = result.name if password else asking.name
            # proven, and online meanwhile (two logins with the password at once): taken over, as it would be
            # had this one come second
            takeover = asking.purpose.takeover or self.lobby.taken_over_by_proof(name) is not None
            (self.take_over if takeover else self.enter)(name, registered=password)
            if request_id is not None:  # the proof came as a request: its reply, after the welcome
                self.reply_ok(None, request_id)
        elif asking.purpose is Purpose.REGISTER:
            self.session.registered = True
            self.lobby.forget_resume_code(asking.name)
            self.reply_ok(f"{asking.name} is registered: logging in as {asking.name} now asks for this password",
                          request_id)
            return
        elif not result:
            raise BadCommand("wrong password; the password is unchanged")
        else:
            self.reply_ok("your password is changed", request_id)

    def check_failed(self, failure: Failure, asking: Asking, request_id: Any) -> None:
        if self.gone:
            return
        self.login.fire(Input.DONE)
        if failure.check(AccountExists):
            self.reply_error(BadCommand(f"{asking.name} was registered meanwhile"), request_id, moves=False)
            return
        if failure.check(LooksRegistered):  # the look-alike was registered while the passwords were typed
            alike = looks_registered(asking.name, failure.value.account)
            self.reply_error(BadCommand(f"{alike}; nothing was registered"), request_id, moves=False)
            return
        log.failure("{purpose} for {name} failed", failure, purpose=asking.purpose.value, name=asking.name)
        self.reply_error(MudwizError("internal error; nothing was changed"), request_id, moves=False)

    def welcome(self) -> None:
        """The welcome; a guest's carries their resume code, shown to them alone and never logged."""
        code = self.lobby.resume_code(self.session)
        catalogued = catalogue(is_sysop(self.lobby, self.session))
        self.session.deliver({"type": "welcome", "name": self.session.name, "resume": code, **catalogued})
        if self.session.mode != "json":
            self.session.notice(f"Welcome, {self.session.name}! /help lists the commands; /tables the tables.")
            if code is not None:
                self.session.notice(f"Your resume code is {code}: type it if you are asked for it after a drop.")

    def reply_error(self, exc: MudwizError, request_id: Any, moves: bool = True) -> None:
        """The one-line error; ``moves``: with the moves the player may make when it is their turn (not after a
        password dialogue, whose errors are about the account)."""
        try:
            text = hint(self.session, str(exc)) if moves else str(exc)
        except Exception:  # the hint is a courtesy: a bug in it must not cost the error reply or the connection
            log.failure("hint for {error!r} to {name} failed", error=str(exc), name=self.session.name)
            text = str(exc)
        message: dict[str, Any] = {"type": "error", "message": text}
        if request_id is not None:
            message["id"] = request_id
        self.session.deliver(message)
        if not self.logged_in and self.session.mode != "json":
            self.prompt()

    # -- text out

    def prompt(self) -> None:
        if self.session.mode != "json":
            self.send(NAME_PROMPT)
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


_NO_REPLY = object()


def nesting(value: Any) -> int:
    """How deep ``value`` nests arrays and objects (0 for a string or a number), counted without recursion: an id
    nested ~1000 deep parses, but encoding it again for the reply, deeper in the stack, would not."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth + 1)
            if deepest > MAX_ID_NESTING:
                return deepest
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


JSON_STARTS = frozenset('["-0123456789tfn')  # how a JSON value that is no object may begin


def parses(text: str) -> bool:
    """Whether ``text`` is JSON."""
    try:
        jsonl.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def request_id_of(line: str) -> Any:
    """The ``id`` of ``line`` when it is a JSON request whose reply may echo it, else None."""
    if not line.lstrip().startswith("{"):
        return None
    try:
        request = jsonl.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(request, dict) or nesting(request.get("id")) > MAX_ID_NESTING:
        return None
    return request.get("id")


def hint(session: Session, message: str) -> str:
    """Append what the player may do, when it is their turn: ``; you may: /play B3, /play B10`` (engines give the
    reason only, so every refusal ends in this one style). Moves are listed as typed, in the order of the hand;
    on a terminal the words of one move are joined by ``NO_BREAK``, which the line wrapper never breaks at and
    shows as a space, so ``/bid 1`` is never split over two lines (a JSON client gets plain spaces)."""
    table = session.table
    if table is None or table.game is None:
        return message
    seat = table.seat_of(session.name)
    if seat is None or table.seats[seat] is not session:
        return message
    legal = [f"/{spelled(str(a), table.game_class)}" for a in table.game.legal_actions(seat)]
    if not legal:
        return message
    moves = summarize(legal, table.game.view(seat)["hand"])
    glue = " " if session.mode == "json" else NO_BREAK
    shown = ", ".join(m.replace(" ", glue) for m in moves[:12]) + (", ..." if len(moves) > 12 else "")
    return f"{message}; you may: {shown}"


def spelled(move: str, game: type[Game]) -> str:
    """A move as a person types it: a bare verb that stands for a pattern (Witches' ``pass``: any N cards of the
    hand) takes its arguments from the game's usage line, ``pass C1 C2 ...``; a bare ``/pass`` would be refused."""
    usage = game.usage(move)
    return usage if usage.startswith(move + " ") else move


def summarize(legal: list[str], hand: Sequence[str] = ()) -> list[str]:
    """The moves in the order of ``hand`` (a card's moves where the card sits, moves of one verb together; an
    engine may list ``/play B10`` before ``/play B3``), and moves that differ only after their second word, three
    or more of them, as one: ``/play MILWA ...`` stands for the eight ways to aim a MILWA, so the list says what
    kinds of move there are."""
    verbs = {a.split()[0]: i for i, a in reversed(list(enumerate(legal)))}  # each verb's first place
    place = {card: i for i, card in reversed(list(enumerate(hand)))}

    def order(move: str) -> tuple[int, int]:
        words = move.split()
        return verbs[words[0]], place.get(words[1], len(hand)) if len(words) > 1 else len(hand)

    legal = sorted(legal, key=order)
    heads = [" ".join(a.split()[:2]) for a in legal]
    many = Counter(heads)
    shown: dict[str, None] = {}  # in order, each once
    for move, head in zip(legal, heads, strict=True):
        shown[f"{head} ..." if len(move.split()) > 2 and many[head] > 2 else move] = None
    return list(shown)
