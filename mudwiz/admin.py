"""``mudwiz admin``: the sysop role, the bans, a forgotten password and an account deleted, from the command line,
on the data directory's database (or ``MUDWIZ_DATABASE_URL``'s, as the server).

It works while the server runs (SQLite shares the file: the server's lock on the data directory is not taken
here, and a write waits up to the store's busy timeout for the server's), and the server reads roles and bans
when they are used, so a grant or an unban counts at once. Every failure is one line on stderr and status 1.
"""

from __future__ import annotations

import argparse
import getpass
import sys
import time
from collections.abc import Callable

from argon2 import PasswordHasher

from mudwiz.accounts import MIN_PASSWORD, secret
from mudwiz.errors import BadCommand
from mudwiz.store import Store, StoreError, iso_time
from mudwiz.sysops import ROLES, ban_target


class AdminError(Exception):
    """What ``mudwiz admin`` says on stderr, in one line, before exiting with status 1."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    admin = sub.add_parser("admin", help="sysops and bans, on the data directory (the server may be running)")
    admin.add_argument("--data", help="the data directory (default $MUDWIZ_DATA or ./data)")
    verbs = admin.add_subparsers(dest="verb", required=True)
    for verb, what in (("grant", "give a registered name a role"), ("revoke", "take a role from a name")):
        parser = verbs.add_parser(verb, help=what)
        parser.add_argument("name")
        parser.add_argument("role", help=f"one of: {', '.join(ROLES)}")
    password = verbs.add_parser("password", help="set a new password for a registered name (asked twice on a "
                                "terminal, else read as one line from standard input; never printed)")
    password.add_argument("name")
    unregister = verbs.add_parser("unregister", help="delete a registered name's account, with its roles, ratings, "
                                  "plan, notify lists, messages and channels (its game records stay)")
    unregister.add_argument("name")
    verbs.add_parser("list", help="the sysops and the bans in force")
    unban = verbs.add_parser("unban", help="lift the ban of a name or an IP address")
    unban.add_argument("target", help="NAME or ADDRESS")


def run(args: argparse.Namespace) -> int:
    from mudwiz.service import existing_store

    try:
        store = existing_store(args.data)
    except StoreError as exc:
        print(f"mudwiz: cannot open the accounts: {exc}", file=sys.stderr)
        return 1
    try:
        print(VERBS[args.verb](store, args))
    except (AdminError, StoreError) as exc:
        print(f"mudwiz: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()
    return 0


def _role(role: str) -> str:
    if role.lower() not in ROLES:
        raise AdminError(f"there is no role {role!r}; roles: {', '.join(ROLES)}")
    return role.lower()


def grant(store: Store, args: argparse.Namespace) -> str:
    role = _role(args.role)
    account = store.account(args.name)
    if account is None:  # a guest's name could be anyone's tomorrow: a role needs a password behind it
        raise AdminError(f"{args.name} is not a registered name: register it first (/register, logged in as it)")
    store.grant_role(account.name, role)
    return f"{account.name} is a {role} (at once, no need to log in again)"


def revoke(store: Store, args: argparse.Namespace) -> str:
    role = _role(args.role)
    account = store.account(args.name)
    name = account.name if account is not None else args.name  # as registered, as grant says it
    if not store.revoke_role(args.name, role):
        raise AdminError(f"{name} is not a {role}")
    return f"{name} is no longer a {role}"


def new_password(name: str) -> str:
    """The new password: typed twice, unseen, on a terminal; else the first line of standard input (a script)."""
    if sys.stdin.isatty():
        first = getpass.getpass(f"new password for {name}: ")
        if getpass.getpass("again: ") != first:
            raise AdminError("the two passwords differ; nothing changed")
    else:
        first = sys.stdin.readline().rstrip("\r\n")
    if len(secret(first)) < MIN_PASSWORD:
        raise AdminError(f"a password has at least {MIN_PASSWORD} characters; nothing changed")
    return first


def password(store: Store, args: argparse.Namespace) -> str:
    """A forgotten password replaced by a sysop: the account keeps everything else (its records, ratings, roles);
    its owner logs in with the new one from their next login on."""
    account = store.account(args.name)
    if account is None:
        raise AdminError(f"{args.name} is not a registered name")
    store.set_password(account.name, PasswordHasher().hash(secret(new_password(account.name))))
    return f"{account.name} has a new password (from their next login on)"


def unregister(store: Store, args: argparse.Namespace) -> str:
    """An account deleted by a sysop, as ``/unregister`` deletes it (roles too); an owner online at the time plays on
    until they log out, and is a guest from their next login on."""
    name = store.delete_account(args.name)
    if name is None:
        raise AdminError(f"{args.name} is not a registered name")
    return f"{name} is no longer registered (its game records stay); the name is anyone's once its owner logs out"


def listing(store: Store, args: argparse.Namespace) -> str:
    lines = [f"sysops: {', '.join(store.holders('sysop')) or 'none'}"]
    bans = store.bans(time.time())
    lines.append(f"bans: {len(bans) or 'none'}")
    for ban in bans:
        until = "until lifted" if ban.until is None else f"until {iso_time(ban.until)}"
        lines.append(f"  {ban.kind} {ban.target} {until} (by {ban.by}, {iso_time(ban.created)})")
    return "\n".join(lines)


def unban(store: Store, args: argparse.Namespace) -> str:
    try:
        kind, target = ban_target(args.target)
    except BadCommand as exc:
        raise AdminError(str(exc)) from None
    if not store.lift_ban(kind, target):
        raise AdminError(f"{target} is not banned")
    return f"{target} may log in again"


VERBS: dict[str, Callable[[Store, argparse.Namespace], str]] = {
    "grant": grant, "revoke": revoke, "list": listing, "unban": unban, "password": password,
    "unregister": unregister,
}
