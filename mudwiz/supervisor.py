"""``mudwiz serve --workers N``: N server processes on one machine behind the same addresses.

One Python process uses one core. The supervisor (this module, no game in it) opens every listening socket of
the server once (``listener_endpoints``: telnet, and raw, SSH and rlogin when configured), then starts N workers,
``mudwiz serve`` each, handing them those sockets open (``childFDs``); each worker adopts them
(``service.InheritedPort``) and the kernel gives every new connection to one of the processes accepting on them.
Each worker is named ``w1``..``wN`` in ``MUDWIZ_NODE`` (``mudwiz/node.py``) and locks ``mudwiz-<node>.lock``;
the supervisor holds ``mudwiz.lock``. It restarts a worker that dies (``RestartPolicy``), stops them all on TERM
or INT, and a worker whose supervisor is gone stops too (``ParentWatch``: a pipe that reaches end of file), so no
worker is left listening for ever. docs/scaling.md, "Several processes on one machine", has the whole picture.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Mapping
from typing import Any, cast

from twisted.internet import defer, fdesc
from twisted.internet.abstract import FileDescriptor
from twisted.internet.endpoints import serverFromString
from twisted.internet.error import CannotListenError, ConnectionDone, ProcessExitedAlready, ProcessTerminated
from twisted.internet.interfaces import IDelayedCall, IListeningPort, IReactorCore, IReactorProcess, IReactorTime
from twisted.internet.protocol import Factory, ProcessProtocol
from twisted.logger import (
    FileLogObserver,
    ILogObserver,
    Logger,
    formatEventAsClassicLogText,
    textFileLogObserver,
)
from twisted.python.failure import Failure

log = Logger()

WORKERS_NEED = ("MUDWIZ_DATABASE_URL", "MUDWIZ_REDIS_URL")  # the shared store and the bus the workers meet on
SHAREABLE = ("tcp", "tcp6", "unix")  # endpoint kinds whose listening socket is a plain one a worker can adopt
GRACE = 10.0  # seconds a worker has to stop after TERM before it is killed
DEATHS = 5  # a worker that dies this many times ...
WINDOW = 60.0  # ... within this many seconds is not started again
FIRST_BACKOFF = 1.0  # seconds before a restart: doubled for each recent death, so never more than one a second
FIRST_FD = 3  # a worker's inherited sockets are its descriptors 3, 4, ...; the supervisor's pipe comes after


def shared_engines_missing(workers: int, environ: Mapping[str, str]) -> str | None:
    """Why ``workers`` processes cannot start with these environment variables, in one line, or None. Several
    workers on one SQLite file would each restore and journal every table and see none of each other's users:
    they need the shared store (``MUDWIZ_DATABASE_URL``) and bus (``MUDWIZ_REDIS_URL``) of the cluster layer."""
    missing = [name for name in WORKERS_NEED if not environ.get(name)]
    if workers <= 1 or not missing:
        return None
    return (f"--workers {workers} needs a store and a bus the workers share: set {' and '.join(missing)} "
            "(docs/scaling.md), or run one process (--workers 1)")


def unshareable(endpoints: Mapping[str, str]) -> str | None:
    """Why one of the listeners cannot be handed to workers, in one line, or None: only plain stream sockets
    (``tcp``, ``tcp6``, ``unix``) can; an ``ssl`` endpoint's TLS lives in its factory, not in its socket."""
    for name, endpoint in endpoints.items():
        if endpoint.split(":", 1)[0] not in SHAREABLE:
            return (f"--workers cannot share the {name} listener {endpoint}: only {', '.join(SHAREABLE)} "
                    "endpoints can be handed to workers")
    return None


class RestartPolicy:
    """When a dead worker starts again: after ``FIRST_BACKOFF`` seconds, doubled for each death within the last
    ``WINDOW`` seconds (1, 2, 4, 8 s), and never once it has died ``DEATHS`` times within ``WINDOW``: a worker
    that cannot start (a bad setting, a database gone) is not restarted in a tight loop for ever."""

    def __init__(self) -> None:
        self.deaths: list[float] = []

    def died(self, now: float) -> float | None:
        """The delay before the restart for a death at ``now`` (seconds), or None: give up."""
        self.deaths = [t for t in self.deaths if now - t < WINDOW] + [now]
        if len(self.deaths) >= DEATHS:
            return None
        return FIRST_BACKOFF * 2 ** (len(self.deaths) - 1)


def how_it_ended(reason: Failure) -> str:
    """``exit status 1`` or ``killed by SIGKILL``, for the log."""
    error = reason.value
    signo = getattr(error, "signal", None)
    if signo is not None:
        try:
            return f"killed by {signal.Signals(signo).name}"
        except ValueError:
            return f"killed by signal {signo}"
    return f"exit status {getattr(error, 'exitCode', None) or 0}"


class Worker(ProcessProtocol):
    """One worker process and what the supervisor knows of it: its node name, pid, restart policy, and the
    write end of the pipe whose end of file tells the worker its supervisor is gone."""

    def __init__(self, supervisor: Supervisor, node: str) -> None:
        self.supervisor = supervisor
        self.node = node
        self.policy = RestartPolicy()
        self.pid: int | None = None
        self.pipe: int | None = None  # the supervisor's end; closed when the process ends
        self.restart: IDelayedCall | None = None
        self.done = False  # stopped cleanly or given up: not started again
        self.gave_up = False

    @property
    def running(self) -> bool:
        return self.pid is not None

    def processEnded(self, reason: Failure) -> None:
        self.supervisor.ended(self, reason)

    def signal(self, name: str) -> None:
        if self.running and self.transport is not None:
            try:
                self.transport.signalProcess(name)
            except (OSError, ProcessExitedAlready):  # ended meanwhile: processEnded is on its way
                pass


class Supervisor:
    """Starts the workers, restarts the ones that die, and stops them all when the reactor shuts down."""

    def __init__(self, reactor: Any, count: int, sockets: Mapping[str, int], argv: Callable[[dict[str, int], int],
                 list[str]]) -> None:
        self.reactor = reactor
        self.sockets = dict(sockets)  # listener name -> the supervisor's descriptor
        self.argv = argv  # (the worker's descriptors by name, its pipe's descriptor) -> the worker's command line
        self.workers = [Worker(self, f"w{i}") for i in range(1, count + 1)]
        self.stopping = False
        self.status = 0
        self._stopped: defer.Deferred[None] | None = None
        self._kill: IDelayedCall | None = None
        self._null = os.open(os.devnull, os.O_RDONLY)

    def start(self) -> None:
        for worker in self.workers:
            self.spawn(worker)

    def spawn(self, worker: Worker) -> None:
        worker.restart = None
        child = {name: FIRST_FD + i for i, name in enumerate(self.sockets)}  # the worker's descriptor a socket
        read, write = os.pipe()
        pipe_fd = FIRST_FD + len(child)
        fds: dict[int, int | str] = {0: self._null, 1: 1, 2: 2, pipe_fd: read}
        fds.update({child[name]: fd for name, fd in self.sockets.items()})
        env = {**os.environ, "MUDWIZ_NODE": worker.node}
        try:
            process = cast(IReactorProcess, self.reactor).spawnProcess(
                worker, sys.executable, self.argv(child, pipe_fd), env=env, childFDs=fds)
        except OSError as exc:  # out of processes or descriptors: as if it had died at once
            os.close(write)
            log.error("worker {node} could not be started: {why}", node=worker.node, why=exc.strerror or exc)
            self._restart_later(worker)
            self._maybe_all_done()
            return
        finally:
            os.close(read)  # the worker's end: the supervisor keeps only the write end
        worker.pid, worker.pipe = process.pid, write
        log.info("worker {node} started (pid {pid})", node=worker.node, pid=worker.pid)

    def ended(self, worker: Worker, reason: Failure) -> None:
        log.info("worker {node} (pid {pid}) ended: {how}", node=worker.node, pid=worker.pid,
                 how=how_it_ended(reason))
        if worker.pipe is not None:
            os.close(worker.pipe)
        worker.pid = worker.pipe = None
        if self.stopping:
            self._maybe_stopped()
            return
        if not isinstance(reason.value, ProcessTerminated):  # status 0: stopped on purpose (TERM, /shutdown)
            log.info("worker {node} stopped cleanly: not restarting it", node=worker.node)
            worker.done = True
        else:
            self._restart_later(worker)
        self._maybe_all_done()

    def _maybe_all_done(self) -> None:
        """Stop the supervisor once no worker is left to run or to start again (status 1 if one was given up)."""
        if all(w.done for w in self.workers) and not self.stopping:
            self.status = 1 if any(w.gave_up for w in self.workers) else 0
            log.info("no worker left: the supervisor stops")
            cast(IReactorCore, self.reactor).stop()

    def _restart_later(self, worker: Worker) -> None:
        delay = worker.policy.died(cast(IReactorTime, self.reactor).seconds())
        if delay is None:
            log.error("worker {node} died {deaths} times in {window:.0f} s: not restarting it", node=worker.node,
                      deaths=DEATHS, window=WINDOW)
            worker.done = worker.gave_up = True
            return
        log.info("restarting worker {node} in {delay:.0f} s", node=worker.node, delay=delay)
        worker.restart = cast(IReactorTime, self.reactor).callLater(delay, self.spawn, worker)

    def stop(self) -> defer.Deferred[None] | None:
        """TERM to every worker, KILL to those still running ``GRACE`` seconds later; fires once all have ended
        (the reactor waits for it: a ``before shutdown`` trigger)."""
        self.stopping = True
        for worker in self.workers:
            if worker.restart is not None and worker.restart.active():
                worker.restart.cancel()
            worker.signal("TERM")
        if not any(w.running for w in self.workers):
            return None
        log.info("stopping the workers (TERM, KILL after {grace:.0f} s)", grace=GRACE)
        self._kill = cast(IReactorTime, self.reactor).callLater(GRACE, self._kill_all)
        self._stopped = defer.Deferred()
        return self._stopped

    def _kill_all(self) -> None:
        for worker in self.workers:
            if worker.running:
                log.warn("worker {node} (pid {pid}) did not stop: killing it", node=worker.node, pid=worker.pid)
                worker.signal("KILL")

    def _maybe_stopped(self) -> None:
        if any(w.running for w in self.workers) or self._stopped is None:
            return
        if self._kill is not None and self._kill.active():
            self._kill.cancel()
        stopped, self._stopped = self._stopped, None
        stopped.callback(None)


def open_listeners(reactor: Any, endpoints: Mapping[str, str]) -> dict[str, IListeningPort]:
    """Each endpoint listening, by name, through Twisted's own endpoint parsing (interfaces, backlogs, unix
    modes as ``mudwiz serve`` reads them), but never read by the supervisor: only its workers accept. Raises
    ``CannotListenError`` for the first that cannot listen (the ones opened before it are closed)."""
    ports: dict[str, IListeningPort] = {}
    for name, endpoint in endpoints.items():
        outcome: list[Any] = []
        serverFromString(reactor, endpoint).listen(Factory()).addBoth(outcome.append)  # fires at once for these
        result = outcome[0]
        if isinstance(result, Failure):
            for port in ports.values():
                port.stopListening()
            result.raiseException()
        result.stopReading()  # the supervisor never accepts: its reactor stops watching the socket
        ports[name] = result
    return ports


def worker_argv(listen: str, motd: str | None, data: str | None) -> Callable[[dict[str, int], int], list[str]]:
    """The worker's command line: ``mudwiz serve`` with the supervisor's own settings, told which of its
    descriptors are the listeners to adopt (``--inherit telnet=3,raw=4``) and which the pipe to watch."""

    def argv(sockets: dict[str, int], pipe_fd: int) -> list[str]:
        inherit = ",".join(f"{name}={fd}" for name, fd in sockets.items())
        return [sys.executable, "-m", "mudwiz.cli", "serve", "--listen", listen, *(["--motd", motd] if motd else []),
                *(["--data", data] if data else []), "--inherit", inherit, "--parent-fd", str(pipe_fd)]

    return argv


def parse_inherited(text: str) -> dict[str, int]:
    """``telnet=3,raw=4`` -> ``{"telnet": 3, "raw": 4}`` (``ValueError`` if it is not that)."""
    pairs = [item.split("=", 1) for item in text.split(",") if item]
    if any(len(pair) != 2 for pair in pairs):
        raise ValueError(f"--inherit {text!r}: NAME=FD[,NAME=FD...]")
    return {name: int(fd) for name, fd in pairs}


class ParentWatch(FileDescriptor):
    """The read end of a pipe whose write end only the supervisor holds: it reaches end of file when the
    supervisor ends, however it ends (``kill -9`` too), and then ``gone`` is called (the worker stops)."""

    def __init__(self, reactor: Any, fd: int, gone: Callable[[], None]) -> None:
        super().__init__(reactor)
        self.fd = fd
        self.gone = gone
        fdesc.setNonBlocking(fd)

    def fileno(self) -> int:
        return self.fd

    def doRead(self) -> Any:
        return fdesc.readFromFD(self.fd, lambda data: None)  # nothing is ever written; end of file ends it

    def connectionLost(self, reason: Failure) -> None:
        super().connectionLost(reason)
        os.close(self.fd)
        if reason.check(ConnectionDone):  # not the reactor letting go of everything as it stops
            log.warn("the supervisor is gone: this worker stops")
            self.gone()


def log_observer(tag: str | None) -> ILogObserver:
    """The log on stdout as ``mudwiz serve`` writes it, each line tagged after its time with ``tag`` when given
    (``w1``, ``supervisor``): the workers and their supervisor write to one stdout, and a line must say whose it
    is."""
    if tag is None:
        return textFileLogObserver(sys.stdout)

    def tagged(event: dict[str, Any]) -> str | None:
        text = formatEventAsClassicLogText(event)
        return text.replace(" [", f" {tag} [", 1) if text else text

    return FileLogObserver(sys.stdout, tagged)


def run(workers: int, listen: str | None, motd: str | None, data: str | None) -> int:
    """``mudwiz serve --workers N`` (N > 1): the supervisor until TERM or INT; returns the exit status (0 then;
    1 when it cannot start, or when every worker has given up)."""
    from twisted.internet import reactor
    from twisted.logger import globalLogBeginner

    from mudwiz.net.sshauth import host_key
    from mudwiz.service import DataLock, cannot_listen, data_directory, listener_endpoints
    from mudwiz.store import StoreError

    endpoints = listener_endpoints(listen)
    problem = shared_engines_missing(workers, os.environ) or unshareable(endpoints)
    if problem:
        print(f"mudwiz: {problem}", file=sys.stderr)
        return 1
    try:
        lock = DataLock(data_directory(data))  # one server a data directory, however many workers it has
        if "ssh" in endpoints:
            host_key(data_directory(data))  # made once here, before any worker reads it: never raced
        ports = open_listeners(reactor, endpoints)
    except StoreError as exc:
        print(f"mudwiz: cannot use the data directory: {exc}", file=sys.stderr)
        return 1
    except CannotListenError as exc:
        print(cannot_listen(endpoints, exc), file=sys.stderr)
        return 1
    globalLogBeginner.beginLoggingTo([log_observer("supervisor")])
    sockets = {name: port.fileno() for name, port in ports.items()}  # type: ignore[attr-defined]
    supervisor = Supervisor(reactor, workers, sockets, worker_argv(endpoints["telnet"], motd, data))
    log.info("supervising {count} workers on {where}", count=workers, where=", ".join(endpoints.values()))

    async def shutdown() -> None:
        stopping = supervisor.stop()
        if stopping is not None:
            await stopping
        for port in ports.values():  # after the workers: a unix socket's path is removed
            await defer.maybeDeferred(port.stopListening)

    reactor.callWhenRunning(supervisor.start)
    reactor.addSystemEventTrigger("before", "shutdown", lambda: defer.Deferred.fromCoroutine(shutdown()))
    reactor.run()
    lock.stopService()
    return supervisor.status
