"""Accounts, roles and bans, in SQL both databases run: who is registered (and what a name looks like, so that
a look-alike of a registered name is refused), who holds which role, and who is banned until when.
"""

from __future__ import annotations

import time

from mudwiz.store.base import Account, AccountExists, Ban, LooksRegistered
from mudwiz.store.dialect import DB, SQLHooks

# 9: what an account's name looks like, ``look`` (``usertext.skeleton``: ``CaroI`` and ``car0l`` look like
# ``carol``), so that a guest's name and a name being registered are refused for looking like a registered one,
# online or not, by one read of an index rather than a look at every account. A generated column: the database
# works it out for the rows there now (this migration fills it) and for every later one, whoever inserts it (a
# process of the cluster still on version 8's code, a sqlite3 shell), so a look is never missing or stale. Not
# unique: accounts made before this version may already look alike, and each keeps its name and its password.
LOOKALIKES: tuple[tuple[str, str], ...] = (  # letters a screen shows alike, as spelled (a small i is no l)
    ("I", "l"), ("1", "l"), ("|", "l"), ("0", "o"), ("5", "s"), ("_", "-"),
)
LOOKALIKE_PAIRS: tuple[tuple[str, str], ...] = (("rn", "m"), ("vv", "w"))  # read as one letter, in lower case


def looks(text: str) -> str:
    """SQL for what the name ``text`` as spelled (a column, or a ``?`` given the name) looks like: version 9's
    ``usertext.skeleton``, one ``replace`` a step (both databases have it; neither has ``translate`` alike), then
    ``lower`` (names are ASCII), then the pairs. The letters' steps put back no letter a later step replaces, so
    one after another is the same as ``skeleton``'s one ``str.translate`` (tests/test_store.py checks it on every
    short name). Written out here, not read from ``usertext``: the stored looks are version 9's; a new rule is a
    new version that makes the column again."""
    for old, new in LOOKALIKES:
        text = f"replace({text}, '{old}', '{new}')"
    text = f"lower({text})"
    for old, new in LOOKALIKE_PAIRS:
        text = f"replace({text}, '{old}', '{new}')"
    return text


def account_looks(generated: str) -> tuple[str, ...]:
    """Version 9 (above), the column ``generated`` as the database can add one: ``VIRTUAL`` (SQLite's ALTER TABLE
    adds no other kind) or ``STORED`` (PostgreSQL's only kind before 18); the index holds the looks either way."""
    return (
        f"ALTER TABLE accounts ADD COLUMN look TEXT GENERATED ALWAYS AS ({looks('name')}) {generated}",
        "CREATE INDEX accounts_by_look ON accounts (look)",
    )


# 12: the language an account's owner reads (/lang; mudwiz/texts): NULL until they choose one.
ACCOUNT_LANG: tuple[str, ...] = ("ALTER TABLE accounts ADD COLUMN lang TEXT",)

# What unregistering a name deletes, in this order (the account last: roles reference it); a table, the column of
# the lower-cased name. Game records (``games``, ``game_seats``), bans and the messages it left others are kept.
UNREGISTERED: tuple[tuple[str, str], ...] = (
    ("roles", "name_key"), ("ratings", "name_key"), ("profiles", "name_key"), ("notify", "owner_key"),
    ("notify", "target_key"), ("ignores", "owner_key"), ("ignores", "target_key"), ("messages", "recipient_key"),
    ("channel_members", "name_key"), ("accounts", "name_key"),
)
BAN_COLUMNS = 'SELECT kind, target, until, "by", created FROM bans'
# the oldest account other than the name (name_key, the second ?) that looks like it (the first ?, as spelled)
LOOK_ALIKE = (f"SELECT name FROM accounts WHERE look = {looks('?')} AND name_key <> ? "
              "ORDER BY created, name_key{text_order} LIMIT 1")


class AccountsSQL(SQLHooks):
    """The ``Store`` methods of accounts, roles and bans; ``SQLStore`` (sql.py) gives the connections."""

    def account(self, name: str) -> Account | None:
        with self._reading() as db:
            row = db.execute(self._sql("SELECT name, hash, created, lang FROM accounts WHERE name_key = ?"),
                             (name.lower(),)).fetchone()
        return None if row is None else Account(*row)

    def look_alike(self, name: str) -> str | None:
        with self._reading() as db:
            return self._look_alike(db, name)

    def _look_alike(self, db: DB, name: str) -> str | None:
        row = db.execute(self._sql(LOOK_ALIKE), (name, name.lower())).fetchone()
        return None if row is None else str(row[0])

    def create_account(self, name: str, password_hash: str) -> None:
        """The look-alike check and the insert in one transaction that holds off every other writer of accounts
        (``Dialect.lock``): two processes on one PostgreSQL registering ``Carol`` and ``CaroI`` at once would
        otherwise each find no look-alike and both insert. The insert comes first: a name taken already is refused
        as taken (the primary key's refusal), not as its own look-alike's; a look-alike found after it undoes it."""
        with self._transaction() as db:
            self._hold_off(db, "accounts")
            try:
                db.execute(self._sql("INSERT INTO accounts (name_key, name, hash, created) VALUES (?, ?, ?, ?)"),
                           (name.lower(), name, password_hash, time.time()))
            except self.dialect.duplicate:
                raise AccountExists(name) from None
            alike = self._look_alike(db, name)
            if alike is not None:
                raise LooksRegistered(name, alike)  # (rolled back with the transaction)

    def set_password(self, name: str, password_hash: str) -> None:
        if not self._write(self._sql("UPDATE accounts SET hash = ? WHERE name_key = ?"),
                           (password_hash, name.lower())):
            raise KeyError(name)

    def set_account_lang(self, name: str, lang: str) -> None:
        if not self._write(self._sql("UPDATE accounts SET lang = ? WHERE name_key = ?"), (lang, name.lower())):
            raise KeyError(name)

    def delete_account(self, name: str) -> str | None:
        """Unregister ``name`` (any case), in one transaction: its account and roles, ratings, profile, notify and
        ignore lists and its name on everyone else's, message box and kept channels go; its game records stay, under
        the name, as do bans of the name and the messages it left others. The account's name as registered; None
        (nothing changed) when there is none."""
        key = name.lower()
        with self._transaction() as db:
            self._hold_off(db, "accounts")
            row = db.execute(self._sql("SELECT name FROM accounts WHERE name_key = ?"), (key,)).fetchone()
            if row is None:
                return None
            for table, column in UNREGISTERED:  # roles first: they reference the account
                db.execute(self._sql(f"DELETE FROM {table} WHERE {column} = ?"), (key,))
        return str(row[0])

    # ------------------------------------------------------------ roles and bans

    def grant_role(self, name: str, role: str) -> None:
        if self.account(name) is None:
            raise KeyError(name)
        self._write(self._sql("INSERT INTO roles (name_key, role, granted) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"),
                    (name.lower(), role, time.time()))

    def revoke_role(self, name: str, role: str) -> bool:
        return self._write(self._sql("DELETE FROM roles WHERE name_key = ? AND role = ?"), (name.lower(), role)) > 0

    def roles(self, name: str) -> set[str]:
        with self._reading() as db:
            rows = db.execute(self._sql("SELECT role FROM roles WHERE name_key = ?"), (name.lower(),)).fetchall()
        return {role for (role,) in rows}

    def holders(self, role: str) -> list[str]:
        with self._reading() as db:
            rows = db.execute(self._sql("SELECT a.name FROM roles r JOIN accounts a ON a.name_key = r.name_key "
                                        "WHERE r.role = ? ORDER BY r.name_key{text_order}"), (role,)).fetchall()
        return [name for (name,) in rows]

    def add_ban(self, ban: Ban) -> None:
        self._write(self._sql('INSERT INTO bans (kind, target_key, target, until, "by", created) VALUES (?, ?, ?, ?, '
                              '?, ?) ON CONFLICT (kind, target_key) DO UPDATE SET target = excluded.target, until = '
                              'excluded.until, "by" = excluded."by", created = excluded.created'),
                    (ban.kind, ban.target.lower(), ban.target, ban.until, ban.by, ban.created))

    def lift_ban(self, kind: str, target: str) -> bool:
        return self._write(self._sql("DELETE FROM bans WHERE kind = ? AND target_key = ?"), (kind, target.lower())) > 0

    def bans(self, now: float) -> list[Ban]:
        with self._reading() as db:
            rows = db.execute(self._sql(f"{BAN_COLUMNS} WHERE until IS NULL OR until > ? ORDER BY created"),
                              (now,)).fetchall()
        return [Ban(*row) for row in rows]

    def ban_on(self, kind: str, target: str, now: float) -> Ban | None:
        with self._reading() as db:
            row = db.execute(self._sql(f"{BAN_COLUMNS} WHERE kind = ? AND target_key = ? AND (until IS NULL OR "
                                       "until > ?)"), (kind, target.lower(), now)).fetchone()
        return None if row is None else Ban(*row)
