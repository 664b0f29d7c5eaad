"""Who may be called what: a name checked and admitted, the resume code a guest takes it back with, the names
held for those who dropped (a seat or a watch kept for them), and the look-alikes a new guest may not take.

Coming back is proven: a registered name by its password (the connection asks), a guest's by the resume code the
lobby gave them at login (``resume_codes``), which belongs to the name while anything holds it.
"""

from __future__ import annotations

import hmac
import itertools
import secrets
from typing import TYPE_CHECKING

from twisted.internet.interfaces import IReactorTime

from mudwiz.accounts import Accounts, counted, login_failures, looks_registered, throttled
from mudwiz.errors import BadCommand
from mudwiz.lobby.directory import Directory
from mudwiz.lobby.keeping import Kept
from mudwiz.lobby.people import People
from mudwiz.lobby.tables import TableList
from mudwiz.ratelimit import FailureLimit
from mudwiz.session import Session
from mudwiz.store import StoreError
from mudwiz.texts import Later, later, pick
from mudwiz.usertext import (
    BOT_NAME_REFUSED,
    BOT_NAME_RULE,
    NAME_CELLS,
    NAME_RULE,
    is_bbs_name,
    is_name,
    name_form,
    skeleton,
)

if TYPE_CHECKING:
    from mudwiz.table import Table

# A guest's resume code: three groups of three from 31 signs no one confuses (no 0/O, 1/I/L), 31**9 ~ 2.6e13 codes,
# guessed at most 5 a minute and then ever more slowly (accounts.FAIL_BURST).
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_GROUPS, CODE_GROUP = 3, 3


def new_resume_code() -> str:
    """A fresh code such as ``7KQ-92M-XW4``, from ``secrets``: nobody can work out the next one."""
    signs = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_GROUPS * CODE_GROUP))
    return "-".join(signs[i:i + CODE_GROUP] for i in range(0, len(signs), CODE_GROUP))


def typed_code(text: str) -> str:
    """A code as typed -> as issued: case, spaces and dashes do not matter (``7kq92m xw4`` is ``7KQ-92M-XW4``)."""
    signs = "".join(c for c in text.upper() if c.isalnum())
    return "-".join(signs[i:i + CODE_GROUP] for i in range(0, len(signs), CODE_GROUP))


class Names:
    """The names of the server: who is called what, who holds a name, and how a guest proves it is theirs."""

    def __init__(self, clock: IReactorTime, people: People, tables: TableList, kept: Kept,
                 directory: Directory) -> None:
        self.people = people
        self.tables = tables
        self.kept = kept
        self.directory = directory
        self.accounts: Accounts | None = None  # set by makeService; None: every name is a guest's
        # lower-cased guest name -> its resume code, while the name is held (online, away, or a seat kept for it);
        # in memory only: a journal of tables may save it with the seats it guards.
        self.resume_codes: dict[str, str] = {}
        self.looks: dict[str, str] = {}  # usertext.skeleton of a name online -> that name, lower-cased
        self.aliases: dict[str, str] = {}  # an ASCII alias (``/alias``), lower-cased -> its owner's name, as spelled
        self._failures = login_failures(clock)  # wrong resume codes, when there are no accounts to count them

    # ------------------------------------------------------------ arriving

    def check_name(self, name: str, bbs: str | None = None, registered: bool = False) -> str:
        """``name`` if it may log in now. ``bbs`` is the tag of the trusted BBS link it came by: only then is it
        ``handle@bbs`` (usertext.is_bbs_name), and only with that tag; typed at the prompt, ``@`` is refused."""
        name = name_form(name)  # ``ｶﾅ`` is ``カナ``, ``Ｃａｒｏｌ`` is ``Carol``: one name, however typed
        if bbs is not None:
            if not is_bbs_name(name) or name.rpartition("@")[2] != bbs:
                raise BadCommand(later("a BBS caller's name is HANDLE@{bbs}: 2 to 16 of A-Z a-z 0-9 _ - before the @",
                                       bbs=bbs))
        elif not is_name(name):
            # one row of 80: a kana or kanji counts two of the 16 (``usertext.is_name``)
            raise BadCommand(later("a name is 2 to {cells} of the letters A-Z a-z 0-9 _ -, kana or kanji, no spaces",
                                   cells=NAME_CELLS))
        if name.lower() in self.people.users or self.directory.online(name):
            raise BadCommand(later("{name} is already connected; choose another name", name=name))
        if name.lower() in self.aliases:
            raise BadCommand(later("{name} is {owner}'s alias; choose another name", name=name,
                                   owner=self.aliases[name.lower()]))
        if self.tables.seated_bot(name):
            raise BadCommand(later("{name} is a computer player at a table; choose another name", name=name))
        # an account (``registered``: proven), or a guest's name held for them, so named before the rule keeps it
        if BOT_NAME_RULE.match(name) and not (registered or self.registered(name) or self.needs_resume_code(name)):
            raise BadCommand(later("{why}; choose another name", why=BOT_NAME_REFUSED))
        return name

    def taken_over_by_proof(self, name: str) -> Session | None:
        """The user online here as ``name`` (any case) whose name its proof, a password or a resume code, moves to
        another connection (docs/protocol.md, Taking a connection over); None when nobody is, or when a trusted
        BBS's caller is: only their BBS vouches for them."""
        online = self.people.users.get(name_form(name).lower())
        return online if online is not None and online.bbs is None else None

    def free_bot_name(self, table: Table) -> str:
        """The first ``botN`` that nobody at ``table`` is called and no person holds (online here or elsewhere,
        away, a seat or a watch kept for them: ``holds_name``). Each table counts its own bots from bot1; a person
        never shares a bot's name, as ``check_name`` sees to, so a bot named as someone who is coming back would
        lock them out."""
        taken = {s.name.lower() for s in table.seats} | self.directory.names()
        return next(name for i in itertools.count(1)
                    if (name := f"bot{i}") not in taken and not self.holds_name(name) and not self.registered(name))

    def registered(self, name: str) -> bool:
        """Whether ``name`` is an account's: a bot called so locked its owner out ("a computer player at a table")
        and its games went into the owner's history. An unreadable store says no: the bot is named all the same."""
        return self.registered_as(name) is not None

    def registered_as(self, name: str) -> str | None:
        """The account ``name`` is (any case), spelled as registered; None when there is none, or the store cannot
        be read."""
        if self.accounts is None:
            return None
        try:
            account = self.accounts.find(name)
        except StoreError:
            return None
        return None if account is None else account.name

    def admit(self, session: Session, name: str, registered: bool) -> None:
        """Name ``session`` as ``name`` (checked and spelled as held): a guest keeps the resume code of a name they
        come back to, else gets one; a new guest may not look like someone else."""
        spelled = self.held_spelling(self.check_name(name, session.bbs, registered))
        key = spelled.lower()
        look = skeleton(spelled)
        # a new guest: not an account's owner, not a BBS's caller (their BBS vouches for them), not a guest back to
        # the name held for them, proven by its code (theirs, whatever was registered or came online meanwhile). A
        # code kept for a name nothing holds any more (its stand-in's game over, the table still open) proved
        # nothing: it is not asked for then, and let anyone in as a look-alike of an account registered since.
        guest = not registered and session.bbs is None
        returning = guest and key in self.resume_codes and self.holds_name(key)  # back to the name held for them
        if guest and not returning:
            self.refuse_look_alike(spelled, look)
        session.name = spelled
        session.registered = registered
        if registered:
            self.speak_as_kept(session)
        if not guest:  # a BBS caller comes back through the BBS: no code needed
            self.resume_codes.pop(key, None)
        elif not returning:
            self.resume_codes[key] = new_resume_code()
            # a guesser cannot hold the guest back; the addresses of guests called so before are nobody's now
            counted(self.failures, True, session.name, session.address, fresh=True)
        self.looks[look] = key

    def speak_as_kept(self, session: Session) -> None:
        """An account's owner reads the language they chose with ``/lang`` (kept with the account), from the
        welcome on; a store that cannot be read now costs only that (they read the server's, or their client's)."""
        try:
            account = self.accounts.find(session.name) if self.accounts is not None else None
        except StoreError:
            return
        lang = pick(account.lang) if account is not None else None
        if lang is not None:
            session.lang, session.lang_chosen = lang, True

    def forget_look(self, name: str) -> None:
        """``name`` went offline: a new guest may look like it now, or take its alias."""
        if self.looks.get(look := skeleton(name)) == name.lower():
            del self.looks[look]
        self.forget_alias(name)

    # ------------------------------------------------------------ aliases

    def set_alias(self, session: Session, alias: str) -> Later:
        """``alias`` (ASCII, by the name rule) as another name ``session`` is found by (``/tell``, ``/finger``,
        ``/message`` ...): a registered user's only, whose name others may not be able to type (kana, kanji). Not
        a name anyone goes by or holds, an account's, another's alias, nor like one of them (the look-alike rule).
        Kept while they are online."""
        if not session.registered:
            raise BadCommand(later("an alias is for registered names: /register first"))
        if not NAME_RULE.match(alias) or BOT_NAME_RULE.match(alias):
            raise BadCommand(later("an alias is 2 to 16 of A-Z a-z, digits, _ or -, not bot and digits"))
        key, mine = alias.lower(), session.name.lower()
        owner = self.aliases.get(key)
        if owner is not None and owner.lower() != mine or key != mine and (self.holds_name(key)
                                                                           or self.registered(alias)):
            raise BadCommand(later("{alias} is someone's name or alias already; choose another", alias=alias))
        look = skeleton(alias)
        alike = [a for a, o in self.aliases.items() if skeleton(a) == look and o.lower() != mine]
        online = self.looks.get(look)
        if online is not None and online != mine and online in self.people.users:
            alike.append(self.people.users[online].name)
        account = self.accounts.look_alike(alias) if self.accounts is not None else None
        if account is not None and account.lower() != mine:
            alike.append(account)
        if alike:
            raise BadCommand(later("{alias} looks too like {name}; choose another", alias=alias, name=alike[0]))
        self.forget_alias(session.name)
        self.aliases[key] = session.name
        return later("others may call you {alias}: /tell {alias}, /finger {alias} find you", alias=alias)

    def forget_alias(self, name: str) -> None:
        for alias in [a for a, owner in self.aliases.items() if owner.lower() == name.lower()]:
            del self.aliases[alias]

    def named(self, name: str) -> str:
        """The name ``name`` stands for: an alias's owner, else itself."""
        return self.aliases.get(name.lower(), name) if name.isascii() else name_form(name)

    def refuse_look_alike(self, spelled: str, look: str) -> None:
        """A new guest may not pose as someone: refused when ``spelled`` looks too like (``look``, its
        ``usertext.skeleton``) the name of someone online here (Carol, CaroI) or of an account, whose owner may be
        away (one indexed read of the store, as the account's own name was looked up at the prompt)."""
        key = spelled.lower()
        users = self.people.users
        alike = self.looks.get(look)
        if alike is not None and alike != key and alike in users:
            raise BadCommand(later("{name} looks too like {other}, who is online; choose another name", name=spelled,
                                   other=users[alike].name))
        account = self.accounts.look_alike(spelled) if self.accounts is not None else None
        if account is not None:
            raise BadCommand(later("{looks_registered}; choose another name",
                                   looks_registered=looks_registered(spelled, account)))

    def held_spelling(self, name: str) -> str:
        """``name`` as spelled by the seat (or watch) kept for it, if any: a player back as ``HOSTY`` is ``hosty``
        again, so the host checks, the engine's private events and the score sheet all still know them."""
        here = self.kept.spelling(name, self.tables.tables.values())
        if here is not None:
            return here
        elsewhere = self.directory.held(name)
        return elsewhere.spelling if elsewhere is not None else name

    # ------------------------------------------------------------ holding a name

    def holds_name(self, name: str) -> bool:
        """Whether anyone holds ``name`` (any case): online, away in the grace period, a seat kept for it at some
        table (its holder dropped, or a stand-in bot plays it after the grace period or a ``/leave``), a watch
        kept for a watcher who dropped, or another process's seat kept for it."""
        key = name.lower()
        return (key in self.people.users or key in self.kept.away or self.tables.holding(key)
                or self.kept.watch_held(key) or self.directory.held(key) is not None)

    def needs_resume_code(self, name: str) -> bool:
        """Whether logging in as ``name`` must give its guest's resume code: a guest holds it but is not here."""
        key = name.lower()
        if key in self.people.users:
            return False
        elsewhere = self.directory.held(key)  # a guest's seat another process keeps
        if elsewhere is not None and elsewhere.code_hash is not None:
            return True
        return key in self.resume_codes and self.holds_name(key)

    def resume_code(self, session: Session) -> str | None:
        """The code a guest takes their name back with after a drop; None for a registered name."""
        return None if session.registered else self.resume_codes.get(session.name.lower())

    def forget_resume_code(self, name: str) -> None:
        """The name became an account: from now on its password proves who comes back."""
        self.resume_codes.pop(name.lower(), None)

    def unregistered(self, session: Session) -> str:
        """``session``'s account is gone (``/unregister``): they stay on as a guest, with a new resume code for the
        name while they hold it, trusted from their address alone; once nothing holds it, it is anyone's."""
        session.registered = False
        code = self.resume_codes[session.name.lower()] = new_resume_code()
        counted(self.failures, True, session.name, session.address, fresh=True)
        return code

    @property
    def failures(self) -> FailureLimit:
        """Failed logins: wrong resume codes count with wrong passwords, so neither is the cheaper to guess."""
        return self.accounts.failures if self.accounts is not None else self._failures

    def throttled(self, name: str, address: str) -> str | None:
        """Why a login as ``name`` may not be tried from ``address`` yet, in one line (None: it may now)."""
        return throttled(self.failures, name, address)

    def resume_code_matches(self, name: str, code: str, address: str) -> bool:
        """Whether ``code`` is the resume code of ``name``; a wrong one counts as a failed login."""
        issued = self.resume_codes.get(name.lower(), "")
        right = bool(issued) and hmac.compare_digest(typed_code(code).encode(), issued.encode())
        if not right and self.directory.code_matches(name, typed_code(code)):  # the hash another process has
            right = True  # theirs still: the welcome shows it again, and the seat's process is given it
            self.resume_codes[name.lower()] = typed_code(code)
        return counted(self.failures, right, name, address)

    def release(self, name: str) -> None:
        """Nothing holds ``name`` any more: its code is void, and the next guest called so gets a new one."""
        if not self.holds_name(name):
            self.resume_codes.pop(name.lower(), None)
            ignores = self.people.ignores
            if name.lower() in ignores and not self.registered(name):  # the next guest so called is another
                del ignores[name.lower()]
