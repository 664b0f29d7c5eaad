"""Registered names: argon2id password hashes in the store, and how many wrong guesses are allowed.

Hashing and verifying cost tens of milliseconds and 64 MiB by design (argon2id is memory-hard, so guessing with
a GPU is dear): they run through ``work``, the server's password threads (service.py), never on the reactor
thread. ``work`` returns a Deferred that the connection waits on without knowing where the work ran; ``inline``
runs it at once, for a fake clock. Looking an account up is one indexed read, done where it is asked, as
``/history`` reads games; so is looking for an account whose name a new one looks like (``look_alike``).
Passwords are never stored, logged or kept beyond the call that hashes them.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime

from mudwiz.errors import BadCommand
from mudwiz.ratelimit import Buckets, FailureLimit
from mudwiz.store import Account, Store
from mudwiz.texts import Later, later, now
from mudwiz.usertext import look_alike_spellings, skeleton

Work = Callable[..., "defer.Deferred[Any]"]  # work(fn, *args): fn(*args) somewhere, its result as a Deferred

MIN_PASSWORD = 8  # characters
# Failed logins per address and per account: 5 within a minute, then a wait of a minute, doubled by each failure
# after it, up to an hour (ratelimit.FailureLimit).
FAIL_BURST, FAIL_WINDOW, FAIL_LONGEST = 5, 60.0, 3600.0
# Passwords hashed or checked for one address (logins, registrations, changes, right or wrong): 20 at once, then
# one every 3 s. Each costs argon2id's 64 MiB and tens of milliseconds of a worker thread that every login shares:
# a few connections changing their password in a loop made everyone's login take seconds.
HASH_BURST, HASH_RATE = 20, 1 / 3


def login_failures(clock: IReactorTime) -> FailureLimit:
    """The limit on failed logins: wrong passwords and wrong resume codes (the lobby's) count in one."""
    return FailureLimit(clock, FAIL_BURST, FAIL_WINDOW, FAIL_LONGEST)


def _keys(name: str, address: str) -> list[str]:
    return [f"account {name.lower()}"] + ([f"address {address}"] if address else [])  # "": a unix socket


def looks_registered(name: str, account: str) -> Later:
    """The start of the one line that refuses ``name`` for looking like ``account`` (as registered): as a guest's
    name, or to register, the caller says which."""
    return later('{name} looks too like {account}, a registered name', name=name, account=account)


def throttled(failures: FailureLimit, name: str, address: str) -> str | None:
    """Why ``name`` may not be tried from ``address`` yet, in one line (None: it may now). The name and the
    address each count their failures, so neither one name from many addresses nor many names from one address
    can be guessed; the line blames the name when it is held back itself, else the address. A name held back does
    not stop an address its owner has logged in from (or registered it from): a guesser cannot lock them out."""
    keys = _keys(name, address)
    waits = [failures.wait(keys[0], address)] + [failures.wait(key) for key in keys[1:]]
    wait = max(waits)
    if wait <= 0:
        return None
    if waits[0] > 0:
        return now("too many failed logins for {name}; try again in {seconds} s", name=name, seconds=math.ceil(wait))
    return now("too many failed logins from {address}; try again in {seconds} s", address=address,
               seconds=math.ceil(wait))


def counted(failures: FailureLimit, right: bool, name: str, address: str, fresh: bool = False) -> bool:
    """Count a wrong answer for ``name`` from ``address``; a right one clears the name's count (unless it is held
    back now), and lets ``address`` past a later hold of the name (``fresh``: a new owner, and only that address).
    Returns ``right``."""
    if right:
        failures.succeeded(_keys(name, "")[0], address, fresh)
    else:
        for key in _keys(name, address):
            failures.failed(key)
    return right


def secret(password: str) -> str:
    """The password as hashed: Unicode's NFC form, so that ``pässwörd`` is one password whether a keyboard sends
    each ``ä`` as one code point (NFC: most) or as ``a`` and a combining diaeresis (NFD: macOS input, some
    terminals), as RFC 8265 (PRECIS) asks of passwords."""
    return unicodedata.normalize("NFC", password)


def inline(fn: Callable[..., Any], *args: Any) -> defer.Deferred[Any]:
    """Work done on the calling thread: for a fake clock (tests), which has no threads."""
    return defer.maybeDeferred(fn, *args)


class Accounts:
    """The accounts in ``store``: finding one, checking and changing its password, registering a name."""

    def __init__(self, store: Store, clock: IReactorTime, work: Work = inline) -> None:
        self.store = store
        self.work = work
        self.hasher = PasswordHasher()  # argon2id, RFC 9106's low-memory parameters: t=3, 64 MiB, 4 lanes
        self.failures = login_failures(clock)
        self.hashing = Buckets(clock, HASH_RATE, HASH_BURST)  # by address: passwords hashed or checked
        self.registering: dict[str, str] = {}  # lower-cased name -> as spelled: accounts being made

    def hashes(self, address: str) -> None:
        """Count a password to hash or check for ``address``; refused in one line past ``HASH_BURST``."""
        if address and not self.hashing.take(address):
            raise BadCommand(later('too many passwords checked from {address}; try again in {ceil} s',
                                   address=address, ceil=math.ceil(self.hashing.wait(address))))

    def find(self, name: str) -> Account | None:
        return self.store.account(name)

    def look_alike(self, name: str) -> str | None:
        """The account (as registered) whose name ``name`` looks too like (``usertext.skeleton``: ``CaroI``,
        ``car0l`` and ``Carol``), other than ``name``'s own in any case; None when none does. A guest may not go by
        such a name, nor register it, or they could pose as its owner while the owner is away. A name being
        registered counts (``find_or_refuse``): its registrant may have dropped while it is being made."""
        found = self.store.look_alike(name)
        if found is None and not name.isascii():  # the stored looks know ASCII look-alikes only: kana by spelling
            found = next((account.name for spelling in look_alike_spellings(name)
                          if (account := self.store.account(spelling)) is not None), None)
        if found is None and self.registering:  # rare, and a handful at most
            key, look = name.lower(), skeleton(name)
            found = next((spelled for made, spelled in self.registering.items()
                          if made != key and skeleton(spelled) == look), None)
        return found

    def throttled(self, name: str, address: str) -> str | None:
        """Why ``name`` may not be tried from ``address`` yet (None: it may now)."""
        return throttled(self.failures, name, address)

    def _counted(self, right: bool, name: str, address: str) -> bool:
        return counted(self.failures, right, name, address)

    def _verify(self, account: Account | None, password: str) -> bool:
        """Whether ``password`` is the account's, in its NFC form; or as typed, for a hash made before passwords
        were normalised (one typed in NFD then is still right in NFD)."""
        if account is None:
            return False
        for form in dict.fromkeys((secret(password), password)):
            try:
                if self.hasher.verify(account.hash, form):
                    return True
            except (VerificationError, InvalidHashError):
                continue
        return False

    def login(self, name: str, password: str, address: str) -> defer.Deferred[Account | None]:
        """The account of ``name`` if ``password`` is its password, else None; a wrong one is counted."""

        def check() -> Account | None:  # in a worker thread
            account = self.store.account(name)
            return account if self._verify(account, password) else None

        self.hashes(address)
        d: defer.Deferred[Account | None] = self.work(check)
        d.addCallback(lambda account: account if self._counted(account is not None, name, address) else None)
        return d

    def register(self, name: str, password: str, address: str = "") -> defer.Deferred[None]:
        """Make ``name`` an account with ``password``; fails with ``AccountExists`` when it is one already,
        ``LooksRegistered`` when it looks like an account's name (registered since ``look_alike`` was asked).
        ``address`` registered it: it has proven the name, as a login would."""
        self.hashes(address)
        self.registering[name.lower()] = name
        d: defer.Deferred[None] = self.work(lambda: self.store.create_account(name, self.hasher.hash(secret(password))))

        def made(result: Any) -> Any:
            self.registering.pop(name.lower(), None)
            return result

        d.addBoth(made)
        d.addCallback(lambda _: counted(self.failures, True, name, address, fresh=True) and None)  # a new owner
        return d

    def find_or_refuse(self, name: str) -> Account | None:
        """``find``, for a name someone gives to log in: one whose account is being made (its registrant may have
        dropped meanwhile) is refused, or a guest came in under it and played on as the new account."""
        account = self.find(name)
        if account is None and name.lower() in self.registering:
            raise BadCommand(later('{name} is being registered; log in with its password in a moment', name=name))
        return account

    def change(self, name: str, old: str, new: str, address: str) -> defer.Deferred[bool]:
        """Set ``new`` as the password of ``name`` if ``old`` is its password now (a wrong one is counted)."""

        def change() -> bool:  # in a worker thread
            if not self._verify(self.store.account(name), old):
                return False
            self.store.set_password(name, self.hasher.hash(secret(new)))
            return True

        self.hashes(address)
        d: defer.Deferred[bool] = self.work(change)
        d.addCallback(self._counted, name, address)
        return d

    def unregister(self, name: str, password: str, address: str) -> defer.Deferred[bool]:
        """Delete the account of ``name`` and what is kept with it (``Store.delete_account``) if ``password`` is its
        password (a wrong one is counted, as at login); whether it was."""

        def unregister() -> bool:  # in a worker thread
            if not self._verify(self.store.account(name), password):
                return False
            return self.store.delete_account(name) is not None

        self.hashes(address)
        d: defer.Deferred[bool] = self.work(unregister)
        d.addCallback(self._counted, name, address)
        return d
