"""The password dialogues: a name's proof (an account's password, a held guest name's resume code), and once in,
``/register`` and ``/password``. Each answer is a secret: never dispatched, logged or shown. The last one is
checked (a password hashed in a worker thread), and the answer logs the name in, or says what was changed or
refused; ``/unregister``'s right password deletes the account, and its owner stays on as a guest. The login's state
(mudwiz/login.py) says when a line is an answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import defer
from twisted.logger import Logger
from twisted.python.failure import Failure

from mudwiz.accounts import MIN_PASSWORD, Accounts, looks_registered, secret
from mudwiz.envelope import read_password
from mudwiz.errors import STORE_AWAY, BadCommand, MudwizError
from mudwiz.lobby import Lobby
from mudwiz.login import Asking, Input, Login, Purpose
from mudwiz.replies import Replies
from mudwiz.session import Session
from mudwiz.store import AccountExists, LooksRegistered, StoreError
from mudwiz.texts import Later, _, later
from mudwiz.usertext import spoken

log = Logger(namespace=__name__)

Enter = Callable[[str, bool], None]  # log in as the name: (name, registered)


class Passwords:
    """One connection's password dialogues. A proof accepted comes in by ``enter``, or by ``take_over`` when the
    name is online (the old connection closed)."""

    def __init__(self, lobby: Lobby, session: Session, login: Login, replies: Replies, enter: Enter,
                 take_over: Enter) -> None:
        self.lobby = lobby
        self.session = session
        self.login = login
        self.replies = replies
        self.enter = enter
        self.take_over = take_over

    def accounts(self) -> Accounts:
        if self.lobby.accounts is None:
            raise BadCommand(later('this server keeps no accounts'))
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
        self.replies.outbox.secret(True)
        self.replies.send(_(asking.prompt))  # the cursor is at a line's start: after their Enter, or a reply's end
        self.replies.prompt_open = True

    def answer(self, line: str) -> None:
        """A password line: kept for its dialogue, then handed to the accounts in a worker thread. Whatever
        happens it is neither logged nor shown: an error here is logged without it."""
        asking = self.login.asking
        assert asking is not None
        password, request_id = read_password(line)
        if self.session.mode != "json":
            self.replies.send("\n")  # their Enter was not echoed either
            self.replies.prompt_open = False
        asking.answers.append(password)
        weak = too_weak(asking)
        if not asking.complete and weak is None:
            self.ask(request_id)
            return
        self.login.answered()
        if self.session.mode != "json":
            self.replies.outbox.secret(False)
        try:
            if weak is not None:
                raise weak
            done = self.check(asking)
        except MudwizError as exc:
            self.login.fire(Input.DONE)
            self.replies.reply_error(exc, request_id, moves=False)
        except Exception:
            self.login.fire(Input.DONE)
            log.failure("{purpose} for {name} failed", purpose=asking.purpose.value, name=asking.name)
            self.replies.reply_error(MudwizError(later('internal error; nothing was changed')), request_id, moves=False)
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
        if asking.purpose is Purpose.UNREGISTER:
            self.throttle(asking.name)
            return accounts.unregister(asking.name, asking.answers[0], address)
        new, again = asking.answers[-2:]
        if new != again:
            raise BadCommand(later('the two passwords differ; {kept}', kept=_kept(asking)))
        if asking.purpose is Purpose.REGISTER:
            return accounts.register(asking.name, new, address)
        self.throttle(asking.name)
        return accounts.change(asking.name, asking.answers[0], new, address)

    def checked(self, result: Any, asking: Asking, request_id: Any) -> None:
        """The accounts' answer, on the reactor thread: log in, or say it is registered, changed or refused."""
        if self.login.gone:
            return
        self.login.fire(Input.DONE)
        try:
            self.conclude(result, asking, request_id)
        except MudwizError as exc:
            self.replies.reply_error(exc, request_id, moves=False)
        except Exception:  # a bug costs this reply, never the connection
            log.failure("{purpose} for {name} failed", purpose=asking.purpose.value, name=asking.name)
            self.replies.reply_error(MudwizError(later('internal error')), request_id, moves=False)

    def conclude(self, result: Any, asking: Asking, request_id: Any) -> None:
        if asking.purpose.proof:
            password = asking.purpose.account  # the account's (an Account or None), else a guest's code
            if result is None if password else not result:
                raise BadCommand(later('wrong password for {name}', name=asking.name) if password
                                 else later('wrong resume code for {name}', name=asking.name))
            name = result.name if password else asking.name
            # proven, and online meanwhile (two logins with the password at once): taken over, as it would be
            # had this one come second
            takeover = asking.purpose.takeover or self.lobby.taken_over_by_proof(name) is not None
            (self.take_over if takeover else self.enter)(name, password)
            if request_id is not None:  # the proof came as a request: its reply, after the welcome
                self.replies.reply_ok(None, request_id)
        elif asking.purpose is Purpose.REGISTER:
            self.session.registered = True
            self.lobby.forget_resume_code(asking.name)
            self.replies.reply_ok(later('{name} is registered: logging in as {name} now asks for this password',
                                        name=asking.name), request_id)
            return
        elif not result:
            raise BadCommand(later('wrong password; {kept}', kept=_kept(asking)))
        elif asking.purpose is Purpose.UNREGISTER:
            code = self.lobby.unregistered(self.session)
            self.replies.reply_ok(unregistered_text(asking.name, code), request_id, resume=code)
        else:
            self.replies.reply_ok(later('your password is changed'), request_id)

    def check_failed(self, failure: Failure, asking: Asking, request_id: Any) -> None:
        if self.login.gone:
            return
        self.login.fire(Input.DONE)
        if failure.check(AccountExists):
            self.replies.reply_error(BadCommand(later('{name} was registered meanwhile',
                                                      name=asking.name)), request_id, moves=False)
            return
        if failure.check(LooksRegistered):  # the look-alike was registered while the passwords were typed
            alike = looks_registered(asking.name, failure.value.account)
            self.replies.reply_error(BadCommand(later('{alike}; nothing was registered',
                                                      alike=alike)), request_id, moves=False)
            return
        if failure.check(StoreError):  # the database away (a PostgreSQL restart): one line each, no traceback
            log.error("{purpose} for {name}: {why}", purpose=asking.purpose.value, name=asking.name,
                      why=failure.value)
            self.replies.reply_error(MudwizError(STORE_AWAY), request_id, moves=False)
            return
        log.failure("{purpose} for {name} failed", failure, purpose=asking.purpose.value, name=asking.name)
        self.replies.reply_error(MudwizError(later('internal error; nothing was changed')), request_id, moves=False)


def _kept(asking: Asking) -> Later:
    if asking.purpose is Purpose.UNREGISTER:
        return later('{name} is still registered, nothing changed', name=asking.name)
    return later('nothing was registered') if asking.purpose is Purpose.REGISTER else later('the password is unchanged')


def unregistered_text(name: str, code: str) -> Later:
    """The one line that says what unregistering ``name`` deleted and kept, and the guest's resume code now."""
    return (later('{name} is no longer registered: its password, ratings, plan, notify and ignore lists (yours and '
                  "your name on others'), messages and kept channels are deleted; its finished games stay in the "
                  'records under the name. You stay on as a guest (your resume code is {code}); once you log out the '
                  "name is anyone's", name=name, code=code))


def too_weak(asking: Asking) -> BadCommand | None:
    """Why the new password just typed is refused, or None: asked as soon as it is typed, not after "Again:",
    so nobody types a too-short password twice to be told."""
    new_at = {Purpose.REGISTER: 0, Purpose.PASSWORD: 1}.get(asking.purpose)
    if new_at is None or len(asking.answers) <= new_at:
        return None
    new = asking.answers[new_at]
    if len(secret(new)) < MIN_PASSWORD:  # counted as hashed: ``ä`` typed as a + a combining mark is one
        return BadCommand(later('a password has at least {min_password} characters; {kept}',
                                min_password=MIN_PASSWORD, kept=_kept(asking)))
    if not spoken(new):  # blanks only, by chat's rule of what is blank (the braille blank too)
        return BadCommand(later('a password of blanks only is too easy to guess; {kept}', kept=_kept(asking)))
    return None
