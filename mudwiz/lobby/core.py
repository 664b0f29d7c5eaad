"""The lobby: who is online, the tables, lobby chat and tells, and the grace period of dropped players.

It is the face the commands and connections call, made of small parts that each hold one thing: the names
(names.py: identity, resume codes, held names, look-alikes), the people (people.py: who is online, chat, tells,
/ignore), the tables (tables.py: the list, the numbers) and what is kept for the dropped (keeping.py). What the
rest of the server says (other processes' users and tables, in a cluster) comes through one ``Directory``
(directory.py), ``Local`` until a cluster node puts its own (mudwiz/cluster/directory.py) at startup.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from mudwiz.accounts import Accounts
from mudwiz.games import available
from mudwiz.lobby.adjourning import Adjournments
from mudwiz.lobby.directory import Directory, Local
from mudwiz.lobby.friends import DEFAULT_FRIEND_LIMITS, FriendLimits, Friends
from mudwiz.lobby.keeping import ADJOURN_DAYS, Kept
from mudwiz.lobby.names import Names
from mudwiz.lobby.people import DEFAULT_LIMITS, People, PresenceLimits
from mudwiz.lobby.seeking import DEFAULT_SEEKS, Seeking, SeekSettings
from mudwiz.lobby.tables import TableList
from mudwiz.lobby.talk import DEFAULT_TALK, Talk, TalkLimits
from mudwiz.lobby.tournaments import Tournaments
from mudwiz.session import Session
from mudwiz.slices import Runner, inline
from mudwiz.table import IDLE_CLOSE, Journal, Records, Table, table_of
from mudwiz.thinking import Think, think_inline

if TYPE_CHECKING:
    from mudwiz.sysops import Sysops

log = Logger(namespace="mudwiz.lobby")  # a compiled module has no frame for Logger() to find its name in


@dataclass(frozen=True)
class MeetingSettings:
    """The meeting place's settings, read at start (service.py): talk's limits, the seeks', the friends', and
    how long adjourned games are kept."""

    talk: TalkLimits = DEFAULT_TALK
    seeks: SeekSettings = DEFAULT_SEEKS
    friends: FriendLimits = DEFAULT_FRIEND_LIMITS
    adjourn_days: float = ADJOURN_DAYS  # how long an adjourned game waits for its people (``MUDWIZ_ADJOURN_DAYS``)
    tournaments: str = "sysop"  # who opens tournaments: sysop or registered (``MUDWIZ_TOURNAMENTS``)
    max_tournaments: int = 5  # open or running at once (``MUDWIZ_MAX_TOURNAMENTS``)


class Lobby:
    """The face the commands and connections call: each call is the method of the part that holds what it is
    about (``_face``), but arriving and leaving, which touch every part in turn."""

    def __init__(
        self,
        clock: IReactorTime,
        *,
        grace: float = 120.0,
        bot_delay: float = 1.0,
        seed: int | None = None,
        think: Think = think_inline,
        idle_close: float = IDLE_CLOSE,
        presence: PresenceLimits = DEFAULT_LIMITS,
        records: Records | None = None,
        meeting: MeetingSettings | None = None,
    ) -> None:
        self.clock = clock
        self.sysops: Sysops | None = None  # set by makeService; None: no sysops, no bans (tests)
        # how long work (a replay) is run: at once here; a slice a reactor turn on a server (mudwiz/slices.py)
        self.slices: Runner = inline
        # how the coach's analyses are run (/analyze): at once here; in a thread on a server (slices.InThread)
        self.analyses: Runner = inline
        self._directory: Directory = Local()
        self.people = People(clock, presence, records, self._directory)
        self.table_list = TableList(clock, self._directory, self._table_closed, self.people.lobby_notice,
                                    bot_delay=bot_delay, seed=seed, think=think, idle_close=idle_close, records=records)
        self.kept = Kept(clock, grace, self.table_list.tables, self._release)
        self.names = Names(clock, self.people, self.table_list, self.kept, self._directory)
        meeting = meeting or MeetingSettings()
        self.kept.adjourn_keep = meeting.adjourn_days * 86400.0
        self.talk = Talk(clock, self.people, self._directory, available(), meeting.talk,
                         lambda session: self.sysops is not None and self.sysops.is_sysop(session))
        self.seeking = Seeking(clock, self.people, self.table_list, self.names, meeting.seeks)  # matches, /again
        self.friends = Friends(clock, self.people, meeting.friends)  # notify lists, messages, plans, last seen
        self.friends.away_of = self.talk.away_text  # /finger shows an away text, on any process
        self.adjournments = Adjournments(self.kept)  # /adjourn and /resume agreed at a table
        opens = meeting.tournaments
        self.tournaments = Tournaments(
            clock, self.people, self.table_list, self.names, self.kept,
            store=lambda: self.records.store if self.records is not None else None,
            may_open=lambda s: self.sysops is not None and self.sysops.is_sysop(s) or opens == "registered"
            and s.registered, rating=self.seeking.rating, limit=meeting.max_tournaments)
        self._face()

    def _face(self) -> None:
        """What the parts hold and do, under the names the commands, connections and tests have always used."""
        self.users = self.people.users
        self.ignores = self.people.ignores
        self.tables = self.table_list.tables
        self.seeds = self.table_list.seeds
        self.away = self.kept.away
        self.resume_codes = self.names.resume_codes
        # What the parts do: each is the part's own method.
        self.check_name = self.names.check_name
        self.taken_over_by_proof = self.names.taken_over_by_proof
        self.is_seated_bot = self.table_list.seated_bot
        self.free_bot_name = self.names.free_bot_name
        self.registered = self.names.registered
        self.registered_as = self.names.registered_as
        self.held_spelling = self.names.held_spelling
        self.holds_name = self.names.holds_name
        self.needs_resume_code = self.names.needs_resume_code
        self.resume_code = self.names.resume_code
        self.forget_resume_code = self.names.forget_resume_code
        self.throttled = self.names.throttled
        self.resume_code_matches = self.names.resume_code_matches
        self.drop_from_table = self.kept.drop_from_table
        self.keep_watch = self.kept.keep_watch
        self.watch_again = self.kept.watch_again
        self.hold_seat = self.kept.hold_seat
        self.new_table = self.table_list.new_table
        self.table_summaries = self.table_list.summaries
        self.make_table = self.table_list.make_table
        self.table = self.table_list.table
        self.in_lobby = self.people.in_lobby
        self.may_move = self.people.may_move
        self.chat = self.talk.chat  # the people's, a table's line kept to show who comes in
        self.find_user = self.people.find_user
        self.broadcast = self.people.broadcast
        self.ban_elsewhere = self.people.ban_elsewhere
        self.online = self.people.online
        self.tell = self.people.tell
        self.who = self.people.who
        self.where = self.people.where
        self.shown_rating = self.people.shown_rating

    # ------------------------------------------------------------ settings, set once the lobby is built

    @property
    def directory(self) -> Directory:
        """The rest of the server: ``Local`` (nobody elsewhere), or a cluster node's, set once at startup."""
        return self._directory

    @directory.setter
    def directory(self, directory: Directory) -> None:
        self._directory = self.people.directory = self.table_list.directory = self.names.directory = directory
        self.talk.directory = directory

    @property
    def remote_tables(self) -> Directory:
        """The directory, under the name a connection asks it to ``forward`` a line to another process by."""
        return self._directory

    @property
    def accounts(self) -> Accounts | None:
        """The accounts (set by makeService); None: every name is a guest's."""
        return self.names.accounts

    @accounts.setter
    def accounts(self, accounts: Accounts | None) -> None:
        self.names.accounts = accounts

    @property
    def records(self) -> Records | None:
        """Where games are kept; None: they are not, and /history and /game say so."""
        return self.table_list.records

    @records.setter
    def records(self, records: Records | None) -> None:
        self.table_list.records = self.people.records = records

    @property
    def journal(self) -> Journal | None:
        """The journal of tables (set by makeService); None: tables do not survive a restart."""
        return self.table_list.journal

    @journal.setter
    def journal(self, journal: Journal | None) -> None:
        self.table_list.journal = journal

    @property
    def grace(self) -> float:
        """Seconds a dropped player's seat, or a dropped watcher's place, is kept for them."""
        return self.kept.grace

    @grace.setter
    def grace(self, grace: float) -> None:
        self.kept.grace = grace

    @property
    def stopping(self) -> bool:
        """The server is stopping: a closing connection leaves its table as it is."""
        return self.kept.stopping

    @stopping.setter
    def stopping(self, stopping: bool) -> None:
        if stopping and not self.kept.stopping:  # while the store is still open: it closes as the server stops
            self.friends.all_leaving(list(self.users.values()))
        self.kept.stopping = stopping

    @property
    def idle_close(self) -> float:
        return self.table_list.idle_close

    # ------------------------------------------------------------ arriving and leaving

    def login(
        self, session: Session, name: str, greet: Callable[[], None] | None = None, *, registered: bool = False
    ) -> None:
        """Admit ``session`` as ``name`` (checked already: its password or resume code given where one is due);
        ``greet`` (the welcome) runs before a kept seat is handed back, so a returning player reads the welcome
        first and then their table. A guest keeps the resume code of a name they come back to, else gets one."""
        self.names.admit(session, name, registered)
        self.people.enter(session)
        log.info("login {name}", name=session.name)
        self._directory.user_on(session)  # cluster: the other nodes are told
        self.people.presence_notice(session, "arrived")
        if greet is not None:
            greet()
        self.talk.login(session)
        self.friends.arrived(session)  # after the welcome: their watchers told, their new messages counted
        if not self.kept.reattach(session):
            self._directory.reattach(session)  # cluster: a seat another process keeps for them

    def disconnect(self, session: Session) -> None:
        """The connection is gone: keep a running game's seat for the grace period, else just leave."""
        if not self.people.leave(session):
            return
        self.names.forget_look(session.name)
        self.talk.logout(session)
        log.info("logout {name}", name=session.name)
        records = self.table_list.records
        if records is not None:
            records.board.forget(session.name)
        self._directory.dropped(session)  # cluster: at a table another process hosts, which keeps the seat
        if not self.stopping:  # (as it stops: each one's last seen was kept as it began)
            self.friends.left(session)  # last seen kept, their watchers told
        if self.stopping:  # the tables stay as they are: no grace, no stand-in, no game abandoned on the way down
            self._directory.user_off(session, None)
            session.connected = False
            return
        self.seeking.gone(session)
        table = table_of(session)
        self.kept.drop_from_table(session)
        # cluster: the other nodes are told, the seat kept for them first (the same bus, in order), or their name
        # is free there meanwhile
        self._directory.user_off(session, table if table is not None and self.tables.get(table.id) is table else None)
        self._release(session.name)
        self.people.presence_notice(session, "left")

    def unregistered(self, session: Session) -> str:
        """``session``'s account was deleted (``/unregister``): a guest from now on, with the resume code returned;
        their ratings forgotten here and (cluster) on the other processes, their seat's journal given the code, and
        the other processes told they are a guest (``Session.moved``)."""
        code = self.names.unregistered(session)
        records = self.table_list.records
        if records is not None:
            records.board.dropped(session.name)
        table = table_of(session)
        if table is not None and self.tables.get(table.id) is table:
            table.journal.save()  # the seat is a guest's now: kept with its code across a restart
        session.moved()
        return code

    def _release(self, name: str) -> None:
        self.names.release(name)

    # ------------------------------------------------------------ tables

    def _table_closed(self, table: Table) -> None:
        """``table`` is unlisted: the seats it kept are gone, and the names nothing holds any more with them."""
        self.kept.closed(table)
        self.talk.table_closed(table.id)
        for name in list(self.names.resume_codes):
            self.names.release(name)
