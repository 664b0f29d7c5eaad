"""makeService(): the one place a running server is assembled; ``server.tac`` and ``mudwiz serve`` both call it.

The listening addresses are Twisted endpoint descriptions (``tcp:4000``, ``tcp:4000:interface=127.0.0.1``,
``unix:/tmp/mudwiz.sock``), so where and how to listen is configuration, not code. Each transport is one line in
``makeService``: a call of ``add_listener`` with its factory from ``mudwiz/net/``.
"""

from __future__ import annotations

import fcntl
import os
import re
import socket
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast

from twisted.application import service, strports
from twisted.internet import defer, task
from twisted.internet.error import CannotListenError
from twisted.internet.interfaces import (
    IListeningPort,
    IReactorFromThreads,
    IReactorProcess,
    IReactorSocket,
    IReactorThreads,
    IReactorTime,
)
from twisted.internet.protocol import Factory, ServerFactory
from twisted.logger import Logger

from mudwiz import compiled
from mudwiz.accounts import Accounts
from mudwiz.cluster.bus import redis_url
from mudwiz.cluster.directory import ClusterDirectory
from mudwiz.cluster.handoff import Handoff
from mudwiz.cluster.relays import Relays
from mudwiz.cluster.service import ClusterService, cluster_node_name
from mudwiz.connection import LOGIN_TIMEOUT
from mudwiz.directories import join_cluster
from mudwiz.games import available, game_class
from mudwiz.lobby import ARRIVAL_BURST, ARRIVAL_RATE, PRESENCE_CROWD, Lobby, MeetingSettings, PresenceLimits
from mudwiz.lobby.friends import FriendLimits
from mudwiz.lobby.keeping import ADJOURN_DAYS
from mudwiz.lobby.seeking import SeekSettings
from mudwiz.lobby.talk import TalkLimits
from mudwiz.net.budget import Budget
from mudwiz.net.handed import Hand, Receiving, socket_path
from mudwiz.net.limits import ConnectionCounter, Limits, raise_fd_limit
from mudwiz.net.listener import LineFactory
from mudwiz.net.polling import TURN_SOCKETS, cap_turns, lean_turns
from mudwiz.net.raw import RawFactory
from mudwiz.net.relay import Relay
from mudwiz.net.relayed import RelayPort, relay_address
from mudwiz.net.rlogin import RloginFactory, Trust, TrustError
from mudwiz.net.ssh import SSHFactory
from mudwiz.net.telnet import MudFactory
from mudwiz.net.tls import tls_endpoint
from mudwiz.node import node_name
from mudwiz.outflow import Outflow, install
from mudwiz.ratings import RatingBoard, rate_game
from mudwiz.restore import read_held, restore_tables, resume_code_of
from mudwiz.seasons import season_period
from mudwiz.settings import SettingError, from_environ
from mudwiz.slices import InThread, Sliced, inline
from mudwiz.store import FILENAME, GameRecord, SQLiteStore, Store, StoreError, open_database, open_store
from mudwiz.sysops import Farewell, Sysops
from mudwiz.table import IDLE_CLOSE, Journal, Records
from mudwiz.texts import Later
from mudwiz.thinking import ProcessThinking, Think, ThreadedThinking, think_inline
from mudwiz.workers import WorkerThreads

DEFAULT_LISTEN = "tcp:4000"
DEFAULT_MOTD = "motd.txt"
DEFAULT_DATA = "data"
BOT_PROCESSES = 1  # bots' worker processes: on 2 cores, one for the reactor and one for the bots

log = Logger()


def listen_address(listen: str | None = None) -> str:
    """The endpoint description the server listens on: the argument, else ``MUDWIZ_LISTEN``, else the default."""
    return listen or os.environ.get("MUDWIZ_LISTEN") or DEFAULT_LISTEN


def read_motd(path: str) -> str:
    """The message of the day; a missing file is not fatal, the server greets with a built-in line."""
    candidates = [Path(path)]
    if not Path(path).is_absolute():
        candidates.append(Path(__file__).resolve().parent.parent / path)
    for candidate in candidates:
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8", errors="replace")
    return builtin_motd()


def builtin_motd() -> str:
    """The greeting without a motd file, naming the games this server has (``Wizard, Witches and Tiltowait``)."""
    *most, last = [game_class(name).title for name in available()] or ["card games"]
    return f"Welcome to mudwiz: {', '.join(most)}{' and ' if most else ''}{last} at a text table."


def data_directory(data: str | None = None) -> str:
    """Where the server keeps its records: the argument, else ``MUDWIZ_DATA``, else ``./data``."""
    return data or os.environ.get("MUDWIZ_DATA") or DEFAULT_DATA


def notice_to_all(lobby: Lobby) -> Callable[[str | Later], None]:
    """A notice to everyone online here (what the store's outage says to them: mudwiz/table/outage.py)."""
    def tell(text: str | Later) -> None:
        for user in list(lobby.users.values()):
            user.notice(text)
    return tell


class StoreWriter(WorkerThreads):
    """The store's own thread, where games are written with their rating changes (one at a time, in order: one
    thread, so each game is rated on the ratings the one before left), because a write's fsync may take
    milliseconds the reactor must not wait (mudwiz/table/recording.py has the figures). Stopping waits for the
    writes under way, then closes the file."""

    name: str | None = "store"  # type: ignore[assignment]  # IService declares name None until set

    def __init__(self, reactor: IReactorFromThreads, store: Store) -> None:
        super().__init__(reactor, 1, "store")
        self.store = store

    def __call__(self, record: GameRecord) -> defer.Deferred[int]:
        return self.run(self.store.record_game, record, rate_game)

    def stopService(self) -> defer.Deferred[None] | None:
        super().stopService()
        self.store.close()
        return None


CHECKPOINT_EVERY = 30.0  # seconds between the journal's pruning and WAL checkpoints in the store's thread
EXPIRE_EVERY = 300.0  # seconds between looks for adjourned games kept past their time


class TableJournalService(service.Service):
    """The tables' journal through the server's life (``makeService`` restores its tables, mudwiz/restore.py):
    checkpointed now and then in the store's thread (the journal's own commits never fsync, so its WAL would
    only grow), and stopped first when the server stops, so that the connections dropping on the way down
    neither end games nor close tables in the journal: a TERM, like a ``kill -9``, leaves every table to be
    restored."""

    name: str | None = "journal"  # type: ignore[assignment]  # IService declares name None until set

    def __init__(self, lobby: Lobby, journal: Journal, writer: StoreWriter | None, outflow: Outflow) -> None:
        self.lobby = lobby
        self.journal = journal
        self.outflow = outflow
        self.writer = writer
        self._loop: task.LoopingCall | None = None
        self._expiry: task.LoopingCall | None = None
        self._ungate: Callable[[], None] = lambda: None

    def startService(self) -> None:
        super().startService()
        # adjourned games kept past their time are recorded as abandoned: at the start (after the restore), then
        # every few minutes
        self._expiry = task.LoopingCall(self.lobby.kept.expire)
        self._expiry.clock = self.lobby.clock
        self._expiry.start(EXPIRE_EVERY, now=True)
        if self.writer is not None:
            self._loop = task.LoopingCall(self._checkpoint)
            self._loop.clock = self.lobby.clock
            self._loop.start(CHECKPOINT_EVERY, now=False)
            self._group()

    def _group(self) -> None:
        """On a running reactor, a turn's moves are journaled in one commit, made before any output leaves, and
        the output of the turn's lines waits for the turn's end (``Outflow.hold_per_turn``): one commit
        and one write a connection a turn, rather than a commit a move and a write a line."""
        self.journal.grouped = True
        self._ungate = self.outflow.gate(self.journal.commit)
        self.outflow.hold_per_turn(self.lobby.clock.callLater)

    def _checkpoint(self) -> None:
        assert self.writer is not None
        store = self.writer.store

        def tidy() -> None:
            """The rows no table reads any more go first (the moves are append-only: sql.py), then the WAL."""
            store.prune_journal()
            store.checkpoint()

        self.writer.run(tidy).addErrback(
            lambda failure: log.error("journal pruning or checkpoint failed: {why}", why=failure.getErrorMessage()))

    def stopService(self) -> defer.Deferred[None] | None:
        super().stopService()
        for loop in (self._loop, self._expiry):
            if loop is not None and loop.running:
                loop.stop()
        if self.journal.grouped:
            self.outflow.hold_per_turn(None)  # what waits is written now, its moves committed first
            self._ungate()
        self.journal.stop()
        for table in self.lobby.tables.values():
            table.timers.stop_game()
            table.bots.cancel()
        return None


PASSWORD_THREADS = 2  # argon2id takes 64 MiB and tens of ms a hash: two at once at most, whatever the logins


class PasswordWork(WorkerThreads):
    """Threads of their own for hashing and checking passwords, which the reactor must not wait for; few, so a
    crowd logging in at once costs a queue, not gigabytes."""

    name: str | None = "passwords"  # type: ignore[assignment]  # IService declares name None until set

    def __init__(self, reactor: IReactorFromThreads) -> None:
        super().__init__(reactor, PASSWORD_THREADS, "passwords")

    def __call__(self, fn: Callable[..., Any], *args: Any) -> defer.Deferred[Any]:
        return self.run(fn, *args)


LOCKFILE = "mudwiz.lock"
NODE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")  # it names a lock file: no path, no dot files


def lock_file_name(node: str | None) -> str:
    """``mudwiz.lock`` for a server alone on its data directory (no ``MUDWIZ_NODE``), ``mudwiz-<node>.lock`` for
    one of several worker processes: workers lock each other out only under the same node name. ``StoreError``
    for a node name that could not name a file."""
    if node is None:
        return LOCKFILE
    if not NODE_NAME.fullmatch(node):
        raise StoreError(f"MUDWIZ_NODE={node!r}: a node name is 1 to 64 letters, digits, '.', '_' or '-', "
                         "starting with a letter or digit")
    return f"mudwiz-{node}.lock"


class DataLock(service.Service):
    """One server a data directory: an exclusive ``flock`` on ``mudwiz.lock`` in it, taken before the database
    is opened and held for the server's life (the kernel lets go of it when the process ends, however it ends).
    A second server on the directory is refused (``StoreError``) before it touches anything; ``mudwiz admin``
    and ``mudwiz export`` do not take it, since SQLite lets them share the file with the running server.
    A worker of ``mudwiz serve --workers N`` (``node`` given) locks ``mudwiz-<node>.lock`` instead, and its
    supervisor holds ``mudwiz.lock``: one worker a node name, one server (however many workers) a directory."""

    name: str | None = "datalock"  # type: ignore[assignment]  # IService declares name None until set

    def __init__(self, directory: str, node: str | None = None) -> None:
        path = Path(directory) / lock_file_name(node)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.file = path.open("a+")
        except OSError as exc:
            raise StoreError(f"cannot use the data directory {directory}: {exc.strerror or exc}") from None
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.file.close()
            who = "another mudwiz server is" if node is None else f"another mudwiz process named {node} is"
            raise StoreError(f"{directory}: {who} using this data directory (it holds {path}); "
                             "stop it first, or set MUDWIZ_DATA to another directory") from None
        self.file.truncate(0)
        self.file.write(f"{os.getpid()}\n")  # who holds it, for whoever looks
        self.file.flush()

    def stopService(self) -> None:
        super().stopService()
        self.file.close()  # lets go of the lock


def existing_store(data: str | None) -> Store:
    """The store a server would use, for ``mudwiz admin`` and ``mudwiz export`` beside it: the database of
    ``MUDWIZ_DATABASE_URL``, else the data directory's SQLite file, which must exist (nothing is made here)."""
    url = os.environ.get("MUDWIZ_DATABASE_URL")
    if url:
        return open_database(url)
    return SQLiteStore(Path(data_directory(data)) / FILENAME, create=False)


def storage(top: service.MultiService, clock: IReactorTime, data: str | None,
            ) -> tuple[Records, Accounts, StoreWriter | None]:
    """Open the store: the PostgreSQL database of ``MUDWIZ_DATABASE_URL`` when it is set, else the SQLite file in
    the data directory (``StoreError``, naming it and why, if it cannot be used, or if another server holds the
    directory): games written from its own thread and passwords worked on in theirs,
    or both inline on a clock with no threads (a fake one)."""
    # First: stopped last, after the store is closed. Taken with PostgreSQL too, though it protects only the SQLite
    # file: several processes sharing one database will need a lock of their own, not this one.
    DataLock(data_directory(data), node_name() or None).setServiceParent(top)
    url = os.environ.get("MUDWIZ_DATABASE_URL")
    store = open_database(url) if url else open_store(data_directory(data))
    log.info("game records and accounts in {where}", where=store.where)
    if not IReactorFromThreads.providedBy(clock):
        return Records.inline(store), Accounts(store, clock), None
    reactor = cast(IReactorFromThreads, clock)
    writer = StoreWriter(reactor, store)
    writer.setServiceParent(top)
    passwords = PasswordWork(reactor)
    passwords.setServiceParent(top)  # after the writer, so stopped before it closes the file (reverse order)
    records = Records(store, writer, RatingBoard(store, clock.seconds), read=writer.run)
    return records, Accounts(store, clock, passwords), writer


def thinking(top: service.MultiService, clock: IReactorTime) -> Think:
    """Where bots think: ``MUDWIZ_BOT_PROCESSES`` worker processes (default 1), else ``MUDWIZ_BOT_THREADS``
    threads (0 by default), else on the reactor thread (as with a fake clock, which has no threads)."""
    processes = int(os.environ.get("MUDWIZ_BOT_PROCESSES", BOT_PROCESSES))
    threads = int(os.environ.get("MUDWIZ_BOT_THREADS", 0))
    think: ProcessThinking | ThreadedThinking
    if processes > 0 and IReactorProcess.providedBy(clock):
        think = ProcessThinking(cast(IReactorProcess, clock), processes)
    elif threads > 0 and IReactorFromThreads.providedBy(clock):
        think = ThreadedThinking(cast(IReactorFromThreads, clock), threads)
    else:
        return think_inline
    think.setServiceParent(top)
    return think


def tuned_reactor(budget: Budget) -> IReactorTime:
    """The reactor, its turns read as net/polling.py says: at most so many sockets a turn (``MUDWIZ_TURN_SOCKETS``;
    0: all, Twisted's way), each without a log context made for it, the least used first (``budget``'s order)."""
    from twisted.internet import reactor

    turn_sockets = int(os.environ.get("MUDWIZ_TURN_SOCKETS", TURN_SOCKETS))
    if turn_sockets > 0:
        cap_turns(reactor, turn_sockets)
    lean_turns(reactor, budget.crowd)
    return cast(IReactorTime, reactor)


def makeService(
    listen: str | None = None,
    motd: str | None = None,
    *,
    grace: float | None = None,
    bot_delay: float | None = None,
    clock: IReactorTime | None = None,
    data: str | None = None,
    stop: Callable[[], None] | None = None,
    inherited: Mapping[str, int] | None = None,
) -> service.MultiService:
    """Build the server: settings come from arguments, else ``MUDWIZ_*`` environment variables, else defaults.
    Raises ``StoreError`` when the data directory's database cannot be used: the server does not start.
    ``stop`` is what ``/shutdown`` calls to stop the server: the reactor's ``stop`` unless given. ``inherited``
    maps listeners' names (``telnet``, ``raw``, ``ssh``, ``rlogin``) to listening sockets this process was
    handed open (a worker of ``mudwiz serve --workers N``, mudwiz/supervisor.py): those are adopted, not opened."""
    budget = from_environ(Budget, os.environ)  # one budget: each connection's fair share, however it came in
    if clock is None:
        clock = tuned_reactor(budget)
    listen = listen_address(listen)
    motd_text = read_motd(motd or os.environ.get("MUDWIZ_MOTD") or DEFAULT_MOTD)
    log.info("{how}", how=compiled.describe())
    top = service.MultiService()
    outflow = install(Outflow())  # the one way out of every listener's text (and the bus's, the table's)
    budget.crowd.polled = outflow.turn_read  # a turn's output leaves once its sockets are read
    records, accounts, writer = storage(top, clock, data)
    think = thinking(top, clock)
    lobby = Lobby(
        clock,
        think=think,
        grace=grace if grace is not None else float(os.environ.get("MUDWIZ_GRACE", 120)),
        bot_delay=bot_delay if bot_delay is not None else float(os.environ.get("MUDWIZ_BOT_DELAY", 1.0)),
        idle_close=float(os.environ.get("MUDWIZ_IDLE_TABLE", IDLE_CLOSE)),
        presence=PresenceLimits(
            burst=int(os.environ.get("MUDWIZ_ARRIVAL_BURST", ARRIVAL_BURST)),
            rate=float(os.environ.get("MUDWIZ_ARRIVAL_RATE", ARRIVAL_RATE)),
            crowd=int(os.environ.get("MUDWIZ_PRESENCE_CROWD", PRESENCE_CROWD)),
        ),
        records=records,
        meeting=meeting_settings(),
        seed=int(os.environ["MUDWIZ_SEED"]) if os.environ.get("MUDWIZ_SEED") else None,
    )
    lobby.accounts = accounts
    # long work on the reactor in slices (a replay); the coach's, whose pieces are longer, in a thread
    lobby.slices, lobby.analyses = Sliced(clock), InThread(clock) if IReactorThreads.providedBy(clock) else inline
    lobby.sysops = Sysops(lobby, accounts.store, stop or reactor_stop(clock))
    Farewell(lobby.sysops).setServiceParent(top)  # before the listeners: stopped after they stop accepting
    node = cluster_node_name() if redis_url() else node_name()
    lobby.journal = Journal(records.store, resume_code_of(lobby), node, tell=notice_to_all(lobby))
    if redis_url() is None:  # a cluster's node restores its own tables once it has joined (cluster/tables.py)
        # a named process its own; one process all
        restore_tables(lobby, records.store.open_tables(node or None), read_held(records.store, node or None))
    # after the writer: stopped before it
    TableJournalService(lobby, lobby.journal, writer, outflow).setServiceParent(top)
    top.lobby = lobby  # type: ignore[attr-defined]
    listeners = cluster_node(top, lobby, clock, node, data_directory(data) if inherited is not None else None) or top
    # one counter: the limits span transports
    shared = (lobby, motd_text, float(os.environ.get("MUDWIZ_LOGIN_TIMEOUT", LOGIN_TIMEOUT)), connection_counter())
    endpoints = listener_endpoints(listen)
    tls = tls_endpoint(endpoints["tls"], data_directory(data)) if "tls" in endpoints else None  # its certificate
    # what MSSP tells crawlers: the telnet and TLS ports (the raw port speaks no telnet: a crawler there gets no MSSP)
    telnet = MudFactory(*shared, outflow=outflow, budget=budget, name=os.environ.get("MUDWIZ_NAME") or "mudwiz",
                        ports=[p for p in (endpoint_port(listen),) if p],
                        tls_ports=[p for p in (endpoint_port(tls),) if p])
    add_listener(listeners, "telnet", listen, telnet, inherited)
    add_listener(listeners, "tls", tls, telnet, inherited)  # the same telnet service, over TLS
    add_listener(listeners, "raw", endpoints.get("raw"), RawFactory(*shared, outflow=outflow, budget=budget), inherited)
    if "ssh" in endpoints:  # off unless set: the host key is made (in the data directory) only for a listening server
        add_listener(listeners, "ssh", endpoints["ssh"],
                     SSHFactory(*shared, outflow=outflow, budget=budget, directory=data_directory(data)), inherited)
    if "rlogin" in endpoints:
        add_listener(listeners, "rlogin", endpoints["rlogin"],
                     RloginFactory(*shared, outflow=outflow, budget=budget, trust=rlogin_trust()), inherited)
    top.endpoints = getattr(listeners, "endpoints", {})  # type: ignore[attr-defined]
    return top


def meeting_settings() -> MeetingSettings:
    """The meeting place's settings from the ``MUDWIZ_*`` variables (docs/operations.md); one it cannot run with is
    refused at the start (``MUDWIZ_SEASON`` is read again as each rated game is recorded)."""
    try:
        season_period()
    except ValueError as exc:
        raise SettingError(str(exc)) from None
    opens = os.environ.get("MUDWIZ_TOURNAMENTS", "sysop").strip().lower()
    if opens not in ("sysop", "registered"):
        raise SettingError(f"MUDWIZ_TOURNAMENTS must be sysop or registered, not {opens!r}")
    return MeetingSettings(talk=from_environ(TalkLimits, os.environ), seeks=from_environ(SeekSettings, os.environ),
                           friends=from_environ(FriendLimits, os.environ),
                           adjourn_days=float(os.environ.get("MUDWIZ_ADJOURN_DAYS", ADJOURN_DAYS)),
                           tournaments=opens,
                           max_tournaments=int(os.environ.get("MUDWIZ_MAX_TOURNAMENTS", 5)))


def cluster_node(top: service.MultiService, lobby: Lobby, clock: IReactorTime, node: str,
                 handing: str | None = None) -> service.MultiService | None:
    """With ``MUDWIZ_REDIS_URL`` set, this process is one node of a cluster (mudwiz/cluster/): the service that
    joins it, under which the listeners go (they listen once it has joined). None: the process is the server.
    ``handing``: a worker of ``--workers N``'s data directory, where connections are handed over (``hand_over``)."""
    url = redis_url()
    if url is None:
        return None

    def failed(why: str) -> None:
        log.critical("{why}", why=why)
        top.exit_status = 1  # type: ignore[attr-defined]  # what ``mudwiz serve`` exits with
        reactor_stop(clock)()

    cluster = ClusterService(url, node, clock, failed)
    cluster.setServiceParent(top)
    join_cluster(lobby, cluster, clock)  # the lobby's directory: the other nodes' users and tables
    if os.environ.get("MUDWIZ_HANDOFF", "on") != "off":
        hand_over(cluster, lobby, handing, node, clock)
    return cluster


def hand_over(cluster: ClusterService, lobby: Lobby, directory: str | None, node: str, clock: Any) -> None:
    """A user's connection moves to the node hosting the table they join (cluster/handoff.py), rather than
    visiting it: a worker of ``--workers N`` (``directory``: its data directory) hands the socket itself to
    another worker (net/handed.py: on a socket in the data directory, once the node has joined); any node
    relays it to a node it cannot hand it to (net/relay.py; ``MUDWIZ_RELAY=off``: not). The telnet and raw
    listeners' factories are added to the receiving ends by ``add_listener``. ``MUDWIZ_HANDOFF=off``: every
    such join visits instead."""
    cluster_directory = lobby.directory
    if not isinstance(cluster_directory, ClusterDirectory):
        return
    hands: list[Callable[[Any, str, str], bool]] = []
    if directory is not None:
        receiving = Receiving(socket_path(directory, node), {})
        receiving.setName("handoff")
        receiving.setServiceParent(cluster)
        hands.append(Hand(directory, node))
    setting = os.environ.get("MUDWIZ_RELAY", "").strip()
    if setting.lower() != "off":
        try:
            host, port = relay_address(setting)
        except ValueError as exc:
            raise SettingError(str(exc)) from None
        visits = cluster_directory.tables.visits

        def stranded(session: Any, where: tuple[str, int, bool]) -> None:
            """A person taken back from a relay: a visitor of the table they were at, as one whose host is gone."""
            if where[2]:
                visits.reattach(session, where[0], where[1])  # (their seat, if the node is there after all)
            else:
                visits.place(session, where)

        relay_port = RelayPort(clock, host, port)
        relay = Relay(clock, node, relay_port.factories, visits.target, stranded)
        cluster.relay_port = relay_port  # type: ignore[attr-defined]  # for add_listener
        relay_port.setName("relay")
        relay_port.setServiceParent(cluster)  # stopped with the listeners, before the farewell
        cluster.add(Relays(cluster, relay_port, relay.known, relay.gone, relay.farewell))
        hands.append(relay)
    handoff = cluster_directory.handoff = Handoff(
        cluster_directory.tables, lambda session, to, text: any(hand(session, to, text) for hand in hands))
    cluster_directory.tables.visits.moves = handoff.moves  # a /join that waited for word of its table, too


def rlogin_trust() -> Trust:
    """The BBSes the rlogin port takes callers from (``MUDWIZ_RLOGIN_BBS``, net/rlogin.py's ``Trust``);
    ``TrustError`` when it cannot be read or names none, since such a port would refuse every caller."""
    trust = Trust.parse(os.environ.get("MUDWIZ_RLOGIN_BBS", ""))
    if not trust:
        raise TrustError("MUDWIZ_RLOGIN is set but MUDWIZ_RLOGIN_BBS names no BBS (TAG=ADDRESS or TAG:SECRET): "
                         "every caller would be refused")
    return trust


def listener_endpoints(listen: str | None = None) -> dict[str, str]:
    """The endpoint description of each listener that is on, by name: ``telnet`` (``listen_address``) and
    whichever of ``raw``, ``ssh``, ``rlogin`` and ``tls`` their variables set (``MUDWIZ_RAW_LISTEN``,
    ``MUDWIZ_SSH``, ``MUDWIZ_RLOGIN``, ``MUDWIZ_TLS``: net/tls.py reads it). One list for ``makeService`` and for
    the supervisor that opens them for its workers (which refuses a TLS one: its TLS is not in its socket)."""
    named = {"telnet": listen_address(listen), "raw": os.environ.get("MUDWIZ_RAW_LISTEN"),
             "ssh": os.environ.get("MUDWIZ_SSH"), "rlogin": os.environ.get("MUDWIZ_RLOGIN"),
             "tls": os.environ.get("MUDWIZ_TLS")}
    return {name: endpoint for name, endpoint in named.items() if endpoint}


def endpoint_port(endpoint: str | None) -> str | None:
    """The TCP port of an endpoint description (``tcp:4000:interface=...`` is ``4000``), or None."""
    parts = (endpoint or "").split(":")
    if len(parts) > 1 and parts[0] in ("tcp", "tcp6", "ssl") and parts[1].removeprefix("port=").isdigit():
        return parts[1].removeprefix("port=")
    return None


def stop_started(parent: service.MultiService) -> None:
    """Stop the services under ``parent`` that did start, the last first: when a listener fails to start, the
    ones after it never ran, and Twisted's ``stopService`` of a listener that never started raises (a traceback
    after the one line that says which port is taken)."""
    for child in reversed(list(parent)):
        if not child.running:
            continue
        if isinstance(child, service.MultiService):
            stop_started(child)
            service.Service.stopService(child)
        else:
            child.stopService()


HANDED = ("telnet", "raw")  # the listeners whose connections move to another worker (net/handed.py)


def add_listener(top: service.MultiService, name: str, endpoint: str | None, factory: Factory,
                 inherited: Mapping[str, int] | None = None) -> None:
    """Listen on ``endpoint`` (a Twisted endpoint description) with ``factory``, as the service ``name``; a
    transport whose endpoint is not set (None or empty) is off. ``top.endpoints`` keeps the descriptions, so a
    failure to listen can name the one at fault. A socket for ``name`` in ``inherited`` (a descriptor number,
    already listening on ``endpoint``) is adopted instead."""
    if endpoint:
        fd = (inherited or {}).get(name)
        server = strports.service(endpoint, factory) if fd is None else InheritedPort(fd, cast(ServerFactory, factory))
        server.setName(name)
        server.setServiceParent(top)
        handing = getattr(top, "namedServices", {}).get("handoff")
        if fd is not None and isinstance(handing, Receiving) and name in HANDED and isinstance(factory, LineFactory):
            handing.factories[name] = factory  # connections handed over by another worker go on in its framing
        relaying = getattr(top, "relay_port", None)
        if isinstance(relaying, RelayPort) and name in HANDED and isinstance(factory, LineFactory):
            relaying.factories[name] = factory  # and those relayed by another node
        top.endpoints = {**getattr(top, "endpoints", {}), name: endpoint}  # type: ignore[attr-defined]


class InheritedPort(service.Service):
    """A listening socket this process was handed open by its supervisor (descriptor ``fd``), shared with the
    other workers: the kernel gives each new connection to one of the processes accepting on it. Stopping
    closes only this process's descriptor: not ``stopListening``, which would unlink a unix socket's path
    under the other workers (the supervisor removes it, last). (An adopted port is never ``shutdown()``:
    Twisted knows the socket may be shared.)"""

    def __init__(self, fd: int, factory: ServerFactory, reactor: IReactorSocket | None = None) -> None:
        self.fd = fd
        self.factory = factory
        self.reactor = reactor
        self.port: IListeningPort | None = None

    def startService(self) -> None:
        super().startService()
        if self.reactor is None:
            from twisted.internet import reactor

            self.reactor = cast(IReactorSocket, reactor)
        family = socket.socket(fileno=os.dup(self.fd))  # asks the socket its family; closes only its own copy
        family.close()
        os.set_blocking(self.fd, False)  # shared by every worker: none may block in accept for a connection
        self.port = self.reactor.adoptStreamPort(self.fd, family.family, self.factory)  # adopts a copy
        os.close(self.fd)

    def stopService(self) -> None:
        super().stopService()
        port = self.port
        if port is not None:
            self.port = None
            port.stopReading()  # type: ignore[attr-defined]  # a tcp.Port (a FileDescriptor): no more accepts
            port.socket.close()  # type: ignore[attr-defined]  # this process's copy only: no shutdown, no unlink
            port.factory.doStop()  # type: ignore[attr-defined]


def failed_endpoint(endpoints: dict[str, str], port: object) -> str:
    """Which of the endpoint descriptions a failure to listen on ``port`` is about (a description names its port
    or socket path as one of its fields); the first one if none does."""
    found = [e for e in endpoints.values() if str(port) in e.split(":")]
    return (found or list(endpoints.values()))[0]


def cannot_listen(endpoints: dict[str, str], exc: CannotListenError) -> str:
    """The one line for a listener that cannot listen (a taken port, a bad interface), naming its endpoint."""
    reason = getattr(exc.socketError, "strerror", None) or exc.socketError
    return f"mudwiz: cannot listen on {failed_endpoint(endpoints, exc.port)}: {reason}"


def connection_counter() -> ConnectionCounter:
    """The connection limits (mudwiz/net/limits.py), sized to the open-file limit, raised first as far as allowed."""
    before, soft, hard = raise_fd_limit()
    limits = Limits.from_env(os.environ, soft)
    log.info("open files: soft limit {before}, now {soft}; hard limit {hard}; {limits}",
             before=before, soft=soft, hard=hard, limits=limits.describe())
    return ConnectionCounter(limits)


def reactor_stop(clock: IReactorTime) -> Callable[[], None]:
    """``clock``'s ``stop`` (the reactor's: its shutdown stops the services, ``Farewell`` among them); on a clock
    with none (a fake one), a line in the log."""
    from twisted.internet.error import ReactorNotRunning

    def stop() -> None:
        try:
            clock.stop()  # type: ignore[attr-defined]  # a reactor has it; a fake clock (tests) does not
        except (ReactorNotRunning, AttributeError):
            log.warn("/shutdown: no running reactor to stop")

    return stop


def stop_once(reactor: Any) -> Callable[[], None]:
    """``reactor.stop``, once: a second TERM or Ctrl-C while it shuts down (or the supervisor's pipe ending then)
    is a line in the log, not Twisted's ``ReactorNotRunning`` traceback. ``stop_on_signals`` puts it in place of
    Twisted's own TERM and INT handlers."""
    stopping = False

    def stop() -> None:
        nonlocal stopping
        if stopping:
            log.info("already stopping")  # i18n: not text (the operator's log)
            return
        stopping = True
        reactor.stop()

    return stop


def stop_on_signals(reactor: Any, stop: Callable[[], None]) -> None:
    """Once the reactor runs (its own handlers are installed then): TERM and INT call ``stop`` (``stop_once``)."""
    import signal

    def handler(number: int, frame: object) -> None:
        log.info("Received {name}, shutting down.", name=signal.Signals(number).name)  # i18n: not text (log)
        reactor.callFromThread(stop)

    def install() -> None:
        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, handler)

    reactor.callWhenRunning(install)


def tac_service() -> service.MultiService:
    """``makeService()`` for ``server.tac``: a database or data directory it cannot use is one line on stderr
    and status 1, as with ``mudwiz serve``, not twistd's traceback."""
    try:
        return makeService()
    except StoreError as exc:
        print(f"mudwiz: cannot use the game records: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
    except (TrustError, SettingError) as exc:
        print(f"mudwiz: {exc}", file=sys.stderr)
        raise SystemExit(1) from None
