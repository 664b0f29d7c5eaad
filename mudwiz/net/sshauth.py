"""Who is who over SSH (ssh.py): the server's host key, and the users' names and passwords checked as the name
prompt checks them, through a cred portal, with a refusal's reason sent as a banner.
"""

from __future__ import annotations

import hmac
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ed25519
from twisted.conch.interfaces import IConchUser
from twisted.conch.ssh import common, keys, userauth
from twisted.cred.checkers import ICredentialsChecker
from twisted.cred.credentials import IUsernamePassword
from twisted.cred.error import UnauthorizedLogin
from twisted.internet import defer
from twisted.logger import Logger
from twisted.python.failure import Failure
from zope.interface import implementer

from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.store import Account, StoreError
from mudwiz.texts import later

log = Logger()

HOST_KEY = "ssh_host_ed25519_key"  # in the data directory; its public half beside it as HOST_KEY + ".pub"


def host_key(directory: str) -> keys.Key:
    """The server's host key, from ``directory``; made there on the first start (ed25519, the private key mode
    0600, never replaced). Clients remember it: a new one makes ``ssh`` warn of an impostor, so it must outlive
    restarts and moves (docs/operations.md: back it up with the database)."""
    path = Path(directory) / HOST_KEY
    if path.exists():
        try:
            key = keys.Key.fromFile(str(path))
        except keys.EncryptedKeyError:
            raise StoreError(f"{path} is protected by a passphrase, which a server cannot type; give it one "
                             "without (ssh-keygen -p -N '' -f FILE), or move it away to make a new one") from None
        except (keys.BadKeyError, ValueError) as exc:
            raise StoreError(f"{path} is not an SSH private key ({exc}); move it away to make a new one") from None
        except OSError as exc:  # a directory in its place, or no right to read it
            raise StoreError(f"cannot read the SSH host key {path}: {exc.strerror or exc}") from None
        if key.isPublic():  # it would start, and every login would fail at signing the key exchange
            raise StoreError(f"{path} holds a public key; the host key is the private one: move it away to make "
                             "a new one") from None
        return key
    key = keys.Key(ed25519.Ed25519PrivateKey.generate())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as private:
            private.write(key.toString("OPENSSH"))
        path.with_name(HOST_KEY + ".pub").write_bytes(key.public().toString("OPENSSH") + b" mudwiz\n")
    except OSError as exc:
        raise StoreError(f"cannot write the SSH host key {path}: {exc.strerror or exc}") from None
    log.info("made a new SSH host key in {path}", path=str(path))
    return key


def fingerprint(key: keys.Key) -> str:
    """The key's fingerprint as ``ssh`` and ``ssh-keygen -l`` show it: ``SHA256:`` and base64 without padding."""
    return "SHA256:" + key.fingerprint(keys.FingerprintFormats.SHA256_BASE64).rstrip("=")


# -- who logs in


@implementer(IUsernamePassword)
@dataclass
class Password:
    """A user name and password as SSH's ``password`` method gives them, with the address they come from (the
    failed-login limit counts per address as well as per name)."""

    username: bytes
    password: bytes
    address: str = ""

    def checkPassword(self, password: bytes) -> bool:
        return hmac.compare_digest(password, self.password)


@dataclass(frozen=True)
class Login:
    """Who a login proved to be: the name, and how (``password``, ``resume`` or ``guest``:
    ``Connection.start_as``)."""

    name: str
    proof: str


@implementer(ICredentialsChecker)
class Names:
    """Checks an SSH user name and password as the name prompt would: an account's password (in the password
    threads), a held guest name's resume code, or nothing for any other name (a guest's). Both kinds of secret
    count failures in the lobby's one limit; a name or address over it is refused before anything is checked."""

    credentialInterfaces = (IUsernamePassword,)

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    def requestAvatarId(self, credentials: Any) -> defer.Deferred[Any]:
        return defer.maybeDeferred(self.check, credentials)

    def check(self, credentials: Any) -> Login | defer.Deferred[Login]:
        name = bytes(credentials.username).decode("utf-8", errors="replace")
        password = bytes(credentials.password).decode("utf-8", errors="replace")
        address = str(getattr(credentials, "address", ""))
        lobby, accounts = self.lobby, self.lobby.accounts
        account = accounts.find(name) if accounts is not None else None
        online = self.online_guest(name) if account is None else None
        if account is None and online is None and not lobby.needs_resume_code(name):
            return Login(name, "guest")  # a name nobody registered or holds; an invalid one is refused once in
        held = account.name if account is not None else online or lobby.held_spelling(name)
        refused = lobby.throttled(held, address)
        if refused is not None:
            raise UnauthorizedLogin(refused)
        if accounts is None or account is None:
            if lobby.resume_code_matches(held, password, address):
                return Login(held, "resume")
            raise UnauthorizedLogin(later("wrong resume code for {name} (a guest's name held while they are away)",
                                          name=held))
        try:
            checking = accounts.login(account.name, password, address)
        except BadCommand as exc:  # too many passwords checked from the address
            raise UnauthorizedLogin(str(exc)) from None
        return checking.addCallback(self.proved, account.name)

    def online_guest(self, name: str) -> str | None:
        """The spelling of a guest online under ``name`` here, whose resume code takes the name over, as on the
        other ports (``Lobby.taken_over_by_proof``)."""
        online = self.lobby.taken_over_by_proof(name)
        return online.name if online is not None else None

    def free(self, username: bytes) -> bool:
        """Whether the name is a guest's for the taking (nobody registered it, no guest holds it, here or away)."""
        name = username.decode("utf-8", errors="replace")
        accounts = self.lobby.accounts
        return ((accounts is None or accounts.find(name) is None) and not self.lobby.needs_resume_code(name)
                and self.online_guest(name) is None)

    @staticmethod
    def proved(account: Account | None, name: str) -> Login:
        if account is None:
            raise UnauthorizedLogin(later("wrong password for {name}", name=name))
        return Login(account.name, "password")


class UserAuth(userauth.SSHUserAuthServer):
    """Conch's ``ssh-userauth`` with the peer's address in the credentials, the lobby's clock, a refusal's
    reason sent as a banner (``ssh`` shows it, since SSH's failure message carries none), and the ``none``
    method for a free name: a guest is let in without being asked for a password it does not need. For any
    other name ``none`` fails, uncounted, and ``ssh`` goes on to ask for the password."""

    def serviceStarted(self) -> None:
        ssh: Any = self.transport
        self.clock = ssh.factory.lobby.clock
        super().serviceStarted()

    def tryAuth(self, kind: bytes, user: bytes, data: bytes) -> defer.Deferred[Any]:
        if kind == b"none":
            return self.auth_none(data)
        return super().tryAuth(kind, user, data)

    def auth_none(self, packet: bytes) -> defer.Deferred[Any]:
        ssh: Any = self.transport
        if not ssh.factory.names.free(self.user):
            return defer.fail(UnauthorizedLogin())
        return self.portal.login(Password(self.user, b"", ssh.address), None, IConchUser)

    def auth_password(self, packet: bytes) -> defer.Deferred[Any]:
        password = common.getNS(packet[1:])[0]
        credentials = Password(self.user, password, getattr(self.transport, "address", ""))
        return self.portal.login(credentials, None, IConchUser).addErrback(self._ebPassword)

    def _ebPassword(self, f: Failure) -> defer.Deferred[Any]:
        if f.check(UnauthorizedLogin) and f.getErrorMessage() and self.transport is not None:
            text = f.getErrorMessage().encode("utf-8", errors="replace") + b"\r\n"
            self.transport.sendPacket(userauth.MSG_USERAUTH_BANNER, common.NS(text) + common.NS(b""))
        return super()._ebPassword(f)
