"""The lobby: who is online, the tables, lobby chat and tells, and the grace period of dropped players.

A dropped player who was seated in a running game keeps the seat for ``grace`` seconds (the table waits for
them); coming back under the same name in that time puts them back in the seat with a fresh view. After it,
a stand-in bot plays the seat so the others can finish, and the player may still take it back.

Coming back is proven: a registered name by its password (the connection asks), a guest's by the resume code the
lobby gave them at login (``resume_codes``), which belongs to the name while anything holds it.
"""

from __future__ import annotations

import bisect
import hmac
import itertools
import random
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from mudwiz.accounts import Accounts, counted, login_failures, looks_registered, throttled
from mudwiz.errors import BadCommand
from mudwiz.numbers import whole_number
from mudwiz.ratelimit import Buckets, FailureLimit
from mudwiz.session import Session
from mudwiz.slices import Runner, inline
from mudwiz.store import StoreError
from mudwiz.sysops import Sysops
from mudwiz.table import IDLE_CLOSE, Journal, Records, Table, TableServices, table_of
from mudwiz.thinking import Think, think_inline
from mudwiz.usertext import BBS_NAME_RULE, NAME_RULE, said, skeleton

if TYPE_CHECKING:
    from mudwiz.cluster.presence import Presence
    from mudwiz.cluster.seats import RemoteTables
    from mudwiz.cluster.service import ClusterService

log = Logger(namespace=__name__)  # a compiled module has no frame for Logger() to find its name in

LOBBY = "lobby"
CHAT_BURST, CHAT_RATE = 10, 1.0  # lines of chat at once, then lines a second: a conversation, not a flood
# Commands that tell other people something (/new, /join, /watch, /bot, /option): moves at once, then a second.
MOVE_BURST, MOVE_RATE = 15, 1.0
# "X has arrived/left" lines one address may cause at once, then a second (MUDWIZ_ARRIVAL_BURST, _RATE);
# past them arrivals and departures are summed up in one line every PRESENCE_SUMMARY seconds.
ARRIVAL_BURST, ARRIVAL_RATE = 10, 0.5
PRESENCE_SUMMARY = 30.0
# Past this many people online, nobody is told of each arrival and departure one by one (MUDWIZ_PRESENCE_CROWD):
# a login would cost a line to every one of them, and all logins together the square of the crowd (issue #18).
# The summary line says how many came and went instead.
PRESENCE_CROWD = 50
WHO_PAGE = 20  # names a /who page lists: a screenful of 24 rows with its head and foot


@dataclass(frozen=True)
class PresenceLimits:
    """When ``X has arrived/left.`` is told one by one: ``burst`` at once then ``rate`` a second per address,
    and never while more than ``crowd`` (0: no such limit) are online."""

    burst: int = ARRIVAL_BURST
    rate: float = ARRIVAL_RATE
    crowd: int = PRESENCE_CROWD


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


class Lobby:
    def __init__(
        self,
        clock: IReactorTime,
        *,
        grace: float = 120.0,
        bot_delay: float = 1.0,
        seed: int | None = None,
        think: Think = think_inline,
        idle_close: float = IDLE_CLOSE,
        presence: PresenceLimits = PresenceLimits(),
        records: Records | None = None,
    ) -> None:
        self.clock = clock
        self.accounts: Accounts | None = None  # set by makeService; None: every name is a guest's
        self.sysops: Sysops | None = None  # set by makeService; None: no sysops, no bans (tests)
        self.stopping = False  # the server is stopping: a closing connection leaves its table as it is
        self.records = records  # None: games are not kept, /history and /game say so
        self.journal: Journal | None = None  # set by makeService; None: tables do not survive a restart
        # how long work (a replay) is run: at once here; a slice a reactor turn on a server (mudwiz/slices.py)
        self.slices: Runner = inline
        self.cluster: ClusterService | None = None  # set by makeService with MUDWIZ_REDIS_URL (mudwiz/cluster/)
        # cluster: the tables other processes host, and the seats they keep (mudwiz/cluster/tables.py); None alone
        self.remote_tables: RemoteTables | None = None
        self.idle_close = idle_close
        self.think = think
        self.grace = grace
        self.bot_delay = bot_delay
        self.seeds = random.Random(seed)
        self.users: dict[str, Session] = {}  # lower-cased name -> session
        self._by_name: list[str] = []  # the keys of ``users`` in order: a /who page costs its length, not a sort
        self.remote: Presence | None = None  # cluster: the users of the other nodes (mudwiz/cluster/presence.py)
        self.tables: dict[int, Table] = {}
        self.away: dict[str, tuple[Table, IDelayedCall]] = {}
        # lower-cased name -> the table they watched and until when: a watcher whose connection dropped (or who
        # watched a table restored after a restart) watches it again on logging in within the grace period
        self.watch_kept: dict[str, tuple[Table, float, str]] = {}  # name -> (table, until, name as spelled)
        # lower-cased guest name -> its resume code, while the name is held (online, away, or a seat kept for it);
        # in memory only: a journal of tables may save it with the seats it guards.
        self.resume_codes: dict[str, str] = {}
        # lower-cased name -> the names they /ignore: kept while the name is held (a registered name's till the
        # server stops), so a reconnect or a restart of the connection does not bring the pest back
        self.ignores: dict[str, set[str]] = {}
        self._looks: dict[str, str] = {}  # usertext.skeleton of a name online -> that name, lower-cased
        self._failures = login_failures(clock)  # wrong resume codes, when there are no accounts to count them
        self.talk = Buckets(clock, CHAT_RATE, CHAT_BURST)  # by lower-cased name: how fast they may chat
        self.moving = Buckets(clock, MOVE_RATE, MOVE_BURST)  # by lower-cased name: table moves others see
        self.presence = Buckets(clock, presence.rate, presence.burst)  # by address: arrival and departure lines
        self.presence_crowd = presence.crowd  # 0: every arrival is told, however many are online
        self._unannounced: Counter[str] = Counter()  # "arrived"/"left" -> how many since the last summary
        self._summary_timer: IDelayedCall | None = None
        self._next_table = 1

    # ------------------------------------------------------------ arriving and leaving

    def check_name(self, name: str, bbs: str | None = None) -> str:
        """``name`` if it may log in now. ``bbs`` is the tag of the trusted BBS link it came by: only then is it
        ``handle@bbs`` (usertext.BBS_NAME_RULE), and only with that tag; typed at the prompt, ``@`` is refused."""
        name = name.strip()
        if bbs is not None:
            if not BBS_NAME_RULE.match(name) or name.rpartition("@")[2] != bbs:
                raise BadCommand(f"a BBS caller's name is HANDLE@{bbs}: 2 to 16 of A-Z a-z 0-9 _ - before the @")
        elif not NAME_RULE.match(name):
            why = "; accented and non-Latin letters cannot be typed on every terminal" if not name.isascii() else ""
            raise BadCommand(f"a name is 2 to 16 of the letters A-Z and a-z, digits, _ or - (no spaces){why}")
        if name.lower() in self.users or (self.remote is not None and self.remote.online(name)):
            raise BadCommand(f"{name} is already connected; choose another name")
        if self.is_seated_bot(name):
            raise BadCommand(f"{name} is a computer player at a table; choose another name")
        return name

    def taken_over_by_proof(self, name: str) -> Session | None:
        """The user online here as ``name`` (any case) whose name its proof, a password or a resume code, moves to
        another connection (docs/protocol.md, Taking a connection over); None when nobody is, or when a trusted
        BBS's caller is: only their BBS vouches for them."""
        online = self.users.get(name.strip().lower())
        return online if online is not None and online.bbs is None else None

    def is_seated_bot(self, name: str) -> bool:
        """Whether a computer player sits anywhere under ``name`` (not a stand-in: that keeps a person's name for
        them). Seats are found by name, so a person must never share one with a bot."""
        return any(t.seats[seat].is_bot and not getattr(t.seats[seat], "stand_in", False)
                   for t in self.tables.values() if (seat := t.seat_of(name)) is not None)

    def free_bot_name(self, table: Table) -> str:
        """The first ``botN`` that nobody at ``table`` is called and no person holds (online, away, a seat or a
        watch kept for them: ``holds_name``). Each table counts its own bots from bot1; a person never shares a
        bot's name, as ``check_name`` sees to, so a bot named as someone who is coming back would lock them out."""
        taken = {s.name.lower() for s in table.seats}
        if self.remote is not None:  # cluster: nor anyone online on another node
            taken |= self.remote.names()
        return next(name for i in itertools.count(1)
                    if (name := f"bot{i}") not in taken and not self.holds_name(name) and not self.registered(name))

    def registered(self, name: str) -> bool:
        """Whether ``name`` is an account's: a bot called so locked its owner out ("a computer player at a table")
        and its games went into the owner's history. An unreadable store says no: the bot is named all the same."""
        if self.accounts is None:
            return False
        try:
            return self.accounts.find(name) is not None
        except StoreError:
            return False

    def login(
        self, session: Session, name: str, greet: Callable[[], None] | None = None, *, registered: bool = False
    ) -> None:
        """Admit ``session`` as ``name`` (checked already: its password or resume code given where one is due);
        ``greet`` (the welcome) runs before a kept seat is handed back, so a returning player reads the welcome
        first and then their table. A guest keeps the resume code of a name they come back to, else gets one."""
        spelled = self.held_spelling(self.check_name(name, session.bbs))
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
        if not guest:  # a BBS caller comes back through the BBS: no code needed
            self.resume_codes.pop(key, None)
        elif not returning:
            self.resume_codes[key] = new_resume_code()
            # a guesser cannot hold the guest back; the addresses of guests called so before are nobody's now
            counted(self.failures, True, session.name, session.address, fresh=True)
        session.connected = True
        session.ignoring = self.ignores.get(key)
        self.users[session.name.lower()] = session
        self._looks[look] = key
        bisect.insort(self._by_name, session.name.lower())
        log.info("login {name}", name=session.name)
        if self.remote is not None:  # cluster: the other nodes are told
            self.remote.user_on(session)
        self.presence_notice(session, "arrived")
        if greet is not None:
            greet()
        back = self.away.pop(session.name.lower(), None)
        if back is not None:
            table, timer = back
            if timer.active():
                timer.cancel()
            table.reattach(session)
            return
        for table in list(self.tables.values()):
            if table.holds_seat_for(session.name):
                table.reattach(session)
                return
        if self.watch_again(session):
            return
        if self.remote_tables is not None:  # cluster: a seat another process keeps for them
            self.remote_tables.reattach(session)

    def refuse_look_alike(self, spelled: str, look: str) -> None:
        """A new guest may not pose as someone: refused when ``spelled`` looks too like (``look``, its
        ``usertext.skeleton``) the name of someone online here (Carol, CaroI) or of an account, whose owner may be
        away (one indexed read of the store, as the account's own name was looked up at the prompt)."""
        key = spelled.lower()
        alike = self._looks.get(look)
        if alike is not None and alike != key and alike in self.users:
            raise BadCommand(f"{spelled} looks too like {self.users[alike].name}, who is online; choose another name")
        account = self.accounts.look_alike(spelled) if self.accounts is not None else None
        if account is not None:
            raise BadCommand(f"{looks_registered(spelled, account)}; choose another name")

    def held_spelling(self, name: str) -> str:
        """``name`` as spelled by the seat (or watch) kept for it, if any: a player back as ``HOSTY`` is ``hosty``
        again, so the host checks, the engine's private events and the score sheet all still know them."""
        back = self.away.get(name.lower())
        for table in [back[0]] if back else self.tables.values():
            held = table.seated(name)
            if held is not None and table.holds_seat_for(name):
                return held.name
        if self._watch_held(name.lower()):
            return self.watch_kept[name.lower()][2]
        remote = self.remote_tables.held(name) if self.remote_tables is not None else None  # cluster
        return remote.spelling if remote is not None else name

    # ------------------------------------------------------------ holding a name

    def holds_name(self, name: str) -> bool:
        """Whether anyone holds ``name`` (any case): online, away in the grace period, a seat kept for it at some
        table (its holder dropped, or a stand-in bot plays it after the grace period or a ``/leave``), or a watch
        kept for a watcher who dropped."""
        key = name.lower()
        return (key in self.users or key in self.away or any(t.holds_seat_for(key) for t in self.tables.values())
                or self._watch_held(key)
                or self.remote_tables is not None and self.remote_tables.held(key) is not None)  # cluster

    def needs_resume_code(self, name: str) -> bool:
        """Whether logging in as ``name`` must give its guest's resume code: a guest holds it but is not here."""
        key = name.lower()
        if self.remote_tables is not None and key not in self.users:  # cluster: a guest's seat another process keeps
            remote = self.remote_tables.held(key)
            if remote is not None and remote.code_hash is not None:
                return True
        return key in self.resume_codes and key not in self.users and self.holds_name(key)

    def resume_code(self, session: Session) -> str | None:
        """The code a guest takes their name back with after a drop; None for a registered name."""
        return None if session.registered else self.resume_codes.get(session.name.lower())

    def forget_resume_code(self, name: str) -> None:
        """The name became an account: from now on its password proves who comes back."""
        self.resume_codes.pop(name.lower(), None)

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
        if not right and self.remote_tables is not None:  # cluster: checked against the hash the directory has
            right = self.remote_tables.code_matches(name, typed_code(code))
            if right:  # theirs still: the welcome shows it again, and the seat's process is given it
                self.resume_codes[name.lower()] = typed_code(code)
        return counted(self.failures, right, name, address)

    def _release(self, name: str) -> None:
        """Nothing holds ``name`` any more: its code is void, and the next guest called so gets a new one."""
        if not self.holds_name(name):
            self.resume_codes.pop(name.lower(), None)
            if name.lower() in self.ignores and not self.registered(name):  # the next guest so called is another
                del self.ignores[name.lower()]

    # ------------------------------------------------------------ dropping

    def disconnect(self, session: Session) -> None:
        """The connection is gone: keep a running game's seat for the grace period, else just leave."""
        if self.users.get(session.name.lower()) is not session:
            return
        del self.users[session.name.lower()]
        if self._looks.get(look := skeleton(session.name)) == session.name.lower():
            del self._looks[look]
        del self._by_name[bisect.bisect_left(self._by_name, session.name.lower())]
        log.info("logout {name}", name=session.name)
        if self.records is not None:
            self.records.board.forget(session.name)
        if session.elsewhere is not None and self.remote_tables is not None:  # cluster: the host process keeps it
            self.remote_tables.dropped(session)
        if self.stopping:  # the tables stay as they are: no grace, no stand-in, no game abandoned on the way down
            if self.remote is not None:
                self.remote.user_off(session)
            session.connected = False
            return
        table = table_of(session)
        self.drop_from_table(session)
        if self.remote is not None:  # cluster: the other nodes are told, the seat kept for them first (the same
            if self.remote_tables is not None and table is not None and self.tables.get(table.id) is table:
                self.remote_tables.publish_table(table)  # bus, in order), or their name is free there meanwhile
            self.remote.user_off(session)
        self._release(session.name)
        self.presence_notice(session, "left")

    def drop_from_table(self, session: Session) -> None:
        """``session``'s connection is gone: a running game keeps its seat for the grace period, else it leaves
        its table (a cluster's visitor too, whose connection was on another process)."""
        table = table_of(session)
        session.connected = False
        if table is not None:
            seated = table.seat_of(session.name) is not None
            if seated and table.in_game and self.grace > 0:
                self.hold_seat(session.name, table)
                table.announce(f"{session.name} has lost the connection; the seat is kept for {self.grace:g} s.")
                table.send_states()
                table.people_changed()
            else:
                if not seated and self.grace > 0 and session in table.observers:
                    self.keep_watch(session.name, table)
                table.leave(session, dropped=True)

    def keep_watch(self, name: str, table: Table) -> None:
        """``name`` watches ``table`` again if they log in within the grace period (``watch_again``). The name is
        held meanwhile (``holds_name``), as a dropped player's is: a guest's comes back with its resume code, so
        nobody else who takes the name is put in their place."""
        now = self.clock.seconds()
        if len(self.watch_kept) >= 256:  # those who never came back: gone once their time is up
            over = [k for k, kept in self.watch_kept.items() if kept[1] < now]
            for key in over:
                self.watch_kept.pop(key)[0].roster.watch_until.pop(key, None)
                self._release(key)
        self.watch_kept[name.lower()] = (table, now + self.grace, name)
        table.roster.watch_until[name.lower()] = (name, now + self.grace)

    def _watch_held(self, key: str) -> bool:
        """Whether a watch kept for ``key`` (lower-cased) still waits for them: in time, its table still open."""
        kept = self.watch_kept.get(key)
        return kept is not None and kept[1] >= self.clock.seconds() and self.tables.get(kept[0].id) is kept[0]

    def watch_again(self, session: Session) -> bool:
        """Back within the grace period: watch the table kept for them (``keep_watch``), if it is still open."""
        kept = self.watch_kept.pop(session.name.lower(), None)
        if kept is None:
            return False
        table, until, _ = kept
        table.roster.watch_until.pop(session.name.lower(), None)
        if session.table is not None:
            return False
        if until < self.clock.seconds() or self.tables.get(table.id) is not table:
            return False
        table.watch(session)
        return True

    def hold_seat(self, name: str, table: Table) -> None:
        """Keep ``name``'s seat at ``table`` for the grace period (a dropped player's, or a restored table's)."""
        timer = self.clock.callLater(self.grace, self._grace_over, name, table)
        self.away[name.lower()] = (table, timer)
        table.away_until[name.lower()] = self.clock.seconds() + self.grace

    def _grace_over(self, name: str, table: Table) -> None:
        if self.stopping:
            return
        self.away.pop(name.lower(), None)
        seat = table.seat_of(name)
        if seat is not None and not table.seats[seat].connected:
            if table.in_game:
                table.replace_with_bot(seat, f"{name} did not come back; a bot plays their seat.")
            else:
                table.leave(table.seats[seat])
        self._release(name)

    # ------------------------------------------------------------ tables

    def new_table(self, session: Session, game: str) -> Table:
        if session.table is not None:
            raise BadCommand(f"you are at table {session.table.id}; /leave it first")
        table = self.make_table(self.new_table_id(), game, session)
        self.lobby_notice(f"{session.name} opens table {table.id} ({table.game_class.title}).", exclude=session)
        return table

    def new_table_id(self) -> int:
        """The number of the next table opened here (a cluster's processes draw theirs from a shared counter)."""
        if self.remote_tables is not None:
            return self.remote_tables.new_table_id()
        return self._next_table

    def table_summaries(self) -> list[dict[str, Any]]:
        """What ``/tables`` lists: this process's tables, and in a cluster the other processes' too, by number."""
        if self.remote_tables is not None:
            return self.remote_tables.summaries()
        return [t.summary() for t in self.tables.values()]

    def make_table(self, table_id: int, game: str, host: Session, journal: bool = True) -> Table:
        """A table of this server's, listed from now on (``journal`` False: not journaled yet, as while the
        restore rebuilds one from the journal)."""
        table = Table(
            table_id, game, host, self.clock, bot_delay=self.bot_delay,
            seed_source=random.Random(self.seeds.randrange(2**63)), on_empty=self._table_closed,
            server=TableServices(self.think, self.records, self.journal if journal else None),
            idle_close=self.idle_close,
        )
        self.tables[table.id] = table
        self._next_table = max(self._next_table, table.id + 1)
        return table

    def table(self, number: str, usage: str = "/join N") -> Table:
        text = number.strip().lstrip("#")
        if not text:
            raise BadCommand(f"usage: {usage}; /tables lists the tables")
        n = whole_number(text)
        if n is None or n not in self.tables:
            raise BadCommand(f"there is no table {number}; /tables lists them")
        return self.tables[n]

    def _table_closed(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        for name, (t, timer) in list(self.away.items()):
            if t is table:
                if timer.active():
                    timer.cancel()
                del self.away[name]
        for name in list(self.resume_codes):  # the seats it kept are gone
            self._release(name)

    # ------------------------------------------------------------ talk

    def in_lobby(self) -> list[Session]:
        """The users of this process at no table, here or (cluster) at another node's."""
        return [s for s in self.users.values() if s.table is None and s.elsewhere is None]

    def lobby_notice(self, text: str, exclude: Session | None = None) -> None:
        """``text`` to everyone in the lobby (cluster: every node's lobby)."""
        for s in self.in_lobby():
            if s is not exclude:
                s.notice(text)
        if self.remote is not None:
            self.remote.notice(text)

    def presence_notice(self, session: Session, verb: str) -> None:
        """``X has arrived/left.`` to the lobby, unless that address has been coming and going faster than a
        room can read, or more than ``presence_crowd`` people are online: then it is only counted, and a summary
        line says how many came and went."""
        crowded = 0 < self.presence_crowd < self.online()
        if not crowded and (not session.address or self.presence.take(session.address)):
            self.lobby_notice(f"{session.name} has {verb}.", exclude=session)
            return
        self._unannounced[verb] += 1
        if self._summary_timer is None:
            self._summary_timer = self.clock.callLater(PRESENCE_SUMMARY, self._presence_summary)

    def _presence_summary(self) -> None:
        self._summary_timer = None
        counts = [f"{n} more {verb}" for verb in ("arrived", "left") if (n := self._unannounced[verb])]
        self._unannounced.clear()
        self.presence.prune()
        if counts:
            self.lobby_notice(f"{' and '.join(counts)} in the last {PRESENCE_SUMMARY:g} s.")

    def may_talk(self, session: Session) -> None:
        """Refuse a line of chat from someone who is talking faster than a room can read."""
        if not self.talk.take(session.name.lower()):
            raise BadCommand(f"you are talking too fast: {CHAT_BURST} lines at once, then one a second")

    def may_move(self, session: Session) -> None:
        """Refuse a table move others are told of (sitting, watching, opening a table, seating a bot, setting an
        option) from someone making them faster than the others can read the notices."""
        if not self.moving.take(session.name.lower()):
            raise BadCommand(f"you are doing that too fast: {MOVE_BURST} at once, then one a second")

    def chat(self, session: Session, text: str) -> None:
        """Say ``text`` to the room ``session`` is in, as one line (``spoken``: here too, so no path that skips
        the network edge can carry a line break, a bidi override or a screenful of blanks to others)."""
        text = said(text)
        self.may_talk(session)
        if session.table is not None:
            session.table.chat(session, text)
            return
        message = {"type": "chat", "from": session.name, "channel": LOBBY, "text": text}
        for s in self.in_lobby():
            s.deliver(message)
        if self.remote is not None:  # cluster: to every node's lobby
            self.remote.chat(message)

    def find_user(self, name: str) -> Session | None:
        """The user called ``name`` (any case) online here or (cluster) on another node: then a stand-in whose
        ``deliver`` and ``close`` reach them there."""
        here = self.users.get(name.lower())
        if here is None and self.remote is not None:
            return self.remote.user(name)
        return here

    def broadcast(self, message: dict[str, Any]) -> None:
        """Cluster: ``message`` to every user of the other nodes too (a sysop's announcement); else nothing."""
        if self.remote is not None:
            self.remote.announce(message)

    def ban_elsewhere(self, address: str, text: str, by: str, until: float | None) -> bool:
        """Cluster: a sysop banned ``address`` here; the other nodes close their connections from it. False when
        there are no other nodes."""
        if self.remote is None:
            return False
        self.remote.ban_address(address, text, by, until)
        return True

    def online(self) -> int:
        """How many are online on the whole server (cluster: on every node)."""
        return len(self.users) + (self.remote.count() if self.remote is not None else 0)

    def tell(self, session: Session, name: str, text: str) -> None:
        target = self.find_user(name)
        if target is None:
            raise BadCommand(f"nobody called {name} is online")
        if target is session:
            raise BadCommand("that is you: /tell NAME TEXT sends TEXT to someone else")
        text = said(text)
        self.may_talk(session)
        message = {"type": "chat", "from": session.name, "channel": "tell", "to": target.name, "text": text}
        target.deliver(message)
        session.deliver(message)

    def who(self, start: str = "", limit: int | None = None) -> list[dict[str, Any]]:
        """Who is online and where, by name: all of them, or the first ``limit`` from ``start`` (a name or the
        start of one, any case) on."""
        first = bisect.bisect_left(self._by_name, start.lower())
        keys = self._by_name[first:] if limit is None else self._by_name[first:first + limit]
        rows = [{"name": s.name, "where": self.where(s), **self.shown_rating(s)} for s in map(self.users.get, keys)
                if s is not None]
        if self.remote is not None:  # cluster: the other nodes' users too, in the same order
            return self.remote.who(rows, start, limit)
        return rows

    def where(self, session: Session) -> str:
        """Where /who says ``session`` is: ``lobby``, ``table 7``, ``table 7 (watching)``."""
        if session.table is not None:
            table_id, seated = session.table.id, session.table.seat_of(session.name) is not None
        elif session.elsewhere is not None:  # cluster: at a table another node hosts
            _, table_id, seated = session.elsewhere
        else:
            return LOBBY
        return f"table {table_id}" + ("" if seated else " (watching)")

    def shown_rating(self, session: Session) -> dict[str, Any]:
        """``rating`` and its ``rating_game`` for ``/who``: in the game of the table they are at if they have one
        there, else their best (both null: no rating), from the ratings in memory."""
        if self.records is None:
            return {"rating": None, "rating_game": None}
        board = self.records.board
        here = board.of(session.name).get(session.table.name) if session.table is not None else None
        shown = here or board.best(session.name)
        return {"rating": None if shown is None else shown.shown, "rating_game": None if shown is None else shown.game}
