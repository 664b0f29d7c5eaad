"""The meeting place's rows, in SQL both databases run: messages left for registered players, their profiles
(the ``/plan`` text and when they were last seen), notify lists, ignore lists and the channels each has joined.

Kept in the store, not in a process's memory, so that they outlive a restart and read the same from every process
of a cluster (a message left on one process is shown at a login on another). Names are matched as accounts are,
by their lower case (``name_key``), and shown as spelled. Each list has a limit the caller passes (the server's
settings, ``docs/operations.md``), checked in the transaction that adds to it, so two processes adding at once
cannot pass it.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import closing
from typing import Any

from mudwiz.store.base import ListFull, Message, Profile
from mudwiz.store.dialect import SQLHooks

MESSAGE_COLUMNS = "SELECT id, sender, recipient, text, sent, unread FROM messages"


def meeting_place(seq: str) -> tuple[str, ...]:
    """Version 10: the meeting place's tables, ``seq`` being this database's auto-numbered key."""
    return (
        f"""CREATE TABLE messages (
            id {seq},
            recipient_key TEXT NOT NULL,
            recipient TEXT NOT NULL,
            sender TEXT NOT NULL,
            text TEXT NOT NULL,
            sent DOUBLE PRECISION NOT NULL,
            unread BOOLEAN NOT NULL DEFAULT true
        )""",
        "CREATE INDEX messages_by_recipient ON messages (recipient_key, id)",
        """CREATE TABLE profiles (
            name_key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            plan TEXT NOT NULL DEFAULT '',
            seen DOUBLE PRECISION
        )""",
        """CREATE TABLE notify (
            owner_key TEXT NOT NULL,
            target_key TEXT NOT NULL,
            target TEXT NOT NULL,
            PRIMARY KEY (owner_key, target_key)
        )""",
        "CREATE INDEX notify_by_target ON notify (target_key)",
        """CREATE TABLE channel_members (
            name_key TEXT NOT NULL,
            channel TEXT NOT NULL,
            PRIMARY KEY (name_key, channel)
        )""",
    )


# Version 13: whom each registered player ``/ignore``s (lower-case names, as the sessions hold them).
IGNORE_LISTS: tuple[str, ...] = (
    """CREATE TABLE ignores (
        owner_key TEXT NOT NULL,
        target_key TEXT NOT NULL,
        PRIMARY KEY (owner_key, target_key)
    )""",
)


class MeetingSQL(SQLHooks):
    """The ``Store`` methods of the meeting place; ``SQLStore`` (sql.py) gives the connections."""

    def _add_capped(self, table: str, owner_column: str, owner: str, item: tuple[str, str], limit: int,
                    more: dict[str, Any]) -> bool:
        """A row of ``owner``'s list in ``table`` for ``item`` (its column, value) and the columns ``more``; False
        when the list has it already, ``ListFull`` when it holds ``limit`` rows. One transaction that no other
        writer of the table overtakes, so two processes adding at once cannot pass the limit."""
        column, value = item
        with self._transaction() as db:
            self._hold_off(db, table)
            if db.execute(self._sql(f"SELECT 1 FROM {table} WHERE {owner_column} = ? AND {column} = ?"),
                          (owner, value)).fetchone() is not None:
                return False
            (held,) = db.execute(self._sql(f"SELECT count(*) FROM {table} WHERE {owner_column} = ?"),
                                 (owner,)).fetchone()
            if held >= limit:
                raise ListFull(limit)
            columns = ", ".join([owner_column, column, *more])
            marks = ", ".join("?" * (2 + len(more)))
            db.execute(self._sql(f"INSERT INTO {table} ({columns}) VALUES ({marks})"), (owner, value, *more.values()))
        return True

    # ------------------------------------------------------------ messages

    def leave_message(self, sender: str, recipient: str, text: str, sent: float, limit: int) -> Message:
        """A message for the account ``recipient`` (KeyError: no such account); ``ListFull`` when its box already
        holds ``limit`` messages."""
        with self._transaction() as db:
            self._hold_off(db, "messages")
            row = db.execute(self._sql("SELECT name FROM accounts WHERE name_key = ?"),
                             (recipient.lower(),)).fetchone()
            if row is None:
                raise KeyError(recipient)
            (held,) = db.execute(self._sql("SELECT count(*) FROM messages WHERE recipient_key = ?"),
                                 (recipient.lower(),)).fetchone()
            if held >= limit:
                raise ListFull(limit)
            (message_id,) = db.execute(self._sql(
                "INSERT INTO messages (recipient_key, recipient, sender, text, sent) VALUES (?, ?, ?, ?, ?) "
                "RETURNING id"), (recipient.lower(), row[0], sender, text, sent)).fetchone()
        return Message(int(message_id), sender, row[0], text, sent, True)

    def messages(self, name: str) -> list[Message]:
        """``name``'s messages, oldest first."""
        with self._reading() as db:
            rows = db.execute(self._sql(f"{MESSAGE_COLUMNS} WHERE recipient_key = ? ORDER BY id"),
                              (name.lower(),)).fetchall()
        return [Message(int(i), sender, recipient, text, sent, bool(unread))
                for i, sender, recipient, text, sent, unread in rows]

    def unread_messages(self, name: str) -> int:
        with self._reading() as db:
            (count,) = db.execute(self._sql("SELECT count(*) FROM messages WHERE recipient_key = ? AND unread"),
                                  (name.lower(),)).fetchone()
        return int(count)

    def mark_read(self, name: str, ids: Sequence[int]) -> None:
        if ids:
            with self._transaction() as db, closing(db.cursor()) as cursor:
                cursor.executemany(self._sql("UPDATE messages SET unread = false WHERE recipient_key = ? AND id = ?"),
                               [(name.lower(), i) for i in ids])

    def clear_messages(self, name: str) -> int:
        """Delete every message of ``name``'s; how many there were."""
        return self._write(self._sql("DELETE FROM messages WHERE recipient_key = ?"), (name.lower(),))

    # ------------------------------------------------------------ profiles

    def profile(self, name: str) -> Profile | None:
        with self._reading() as db:
            row = db.execute(self._sql("SELECT name, plan, seen FROM profiles WHERE name_key = ?"),
                             (name.lower(),)).fetchone()
        return None if row is None else Profile(row[0], tuple(row[1].splitlines()), row[2])

    def set_plan(self, name: str, lines: Sequence[str]) -> None:
        self._write(self._sql("INSERT INTO profiles (name_key, name, plan) VALUES (?, ?, ?) ON CONFLICT (name_key) "
                              "DO UPDATE SET name = excluded.name, plan = excluded.plan"),
                    (name.lower(), name, "\n".join(lines)))

    def mark_seen(self, name: str, seen: float) -> None:
        """``name`` was online at ``seen`` (seconds since the epoch): written as they log out."""
        self._write(self._sql("INSERT INTO profiles (name_key, name, seen) VALUES (?, ?, ?) ON CONFLICT (name_key) "
                              "DO UPDATE SET name = excluded.name, seen = excluded.seen"),
                    (name.lower(), name, seen))

    # ------------------------------------------------------------ notify lists

    def notify_list(self, owner: str) -> list[str]:
        with self._reading() as db:
            rows = db.execute(self._sql("SELECT target FROM notify WHERE owner_key = ? "
                                        "ORDER BY target_key{text_order}"), (owner.lower(),)).fetchall()
        return [target for (target,) in rows]

    def add_notify(self, owner: str, target: str, limit: int) -> bool:
        """Put ``target`` on ``owner``'s list (False: it was there); ``ListFull`` when the list holds ``limit``."""
        return self._add_capped("notify", "owner_key", owner.lower(), ("target_key", target.lower()), limit,
                                {"target": target})

    def remove_notify(self, owner: str, target: str) -> bool:
        return self._write(self._sql("DELETE FROM notify WHERE owner_key = ? AND target_key = ?"),
                           (owner.lower(), target.lower())) > 0

    def notifying(self, target: str) -> list[str]:
        """The names (lower case) whose notify lists hold ``target``: whom to tell as it logs in or out."""
        with self._reading() as db:
            rows = db.execute(self._sql("SELECT owner_key FROM notify WHERE target_key = ? ORDER BY owner_key"),
                              (target.lower(),)).fetchall()
        return [owner for (owner,) in rows]

    # ------------------------------------------------------------ ignore lists

    def ignore_list(self, owner: str) -> list[str]:
        with self._reading() as db:
            rows = db.execute(self._sql("SELECT target_key FROM ignores WHERE owner_key = ? ORDER BY target_key"),
                              (owner.lower(),)).fetchall()
        return [target for (target,) in rows]

    def add_ignore(self, owner: str, target: str, limit: int) -> bool:
        """Put ``target`` on ``owner``'s ignore list (False: it was there); ``ListFull`` at ``limit`` names."""
        return self._add_capped("ignores", "owner_key", owner.lower(), ("target_key", target.lower()), limit, {})

    def remove_ignore(self, owner: str, target: str) -> bool:
        return self._write(self._sql("DELETE FROM ignores WHERE owner_key = ? AND target_key = ?"),
                           (owner.lower(), target.lower())) > 0

    # ------------------------------------------------------------ channels

    def channels_of(self, name: str) -> list[str]:
        with self._reading() as db:
            rows = db.execute(self._sql("SELECT channel FROM channel_members WHERE name_key = ? "
                                        "ORDER BY channel{text_order}"), (name.lower(),)).fetchall()
        return [channel for (channel,) in rows]

    def join_channel(self, name: str, channel: str, limit: int) -> bool:
        """Keep ``channel`` (lower case) among ``name``'s (False: it was); ``ListFull`` past ``limit`` channels."""
        return self._add_capped("channel_members", "name_key", name.lower(), ("channel", channel), limit, {})

    def leave_channel(self, name: str, channel: str) -> bool:
        return self._write(self._sql("DELETE FROM channel_members WHERE name_key = ? AND channel = ?"),
                           (name.lower(), channel)) > 0
