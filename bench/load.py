"""How much load does mudwiz carry? The project's load benchmark, against the bare Twisted floor.

Each measurement runs against a real ``mudwiz serve`` and, alternately in the same invocation, against
``bench/baseline.py`` (the bare Twisted floor: a line server speaking just enough of the JSON protocol, whose
docstring says exactly what it does), driven by the same load generator: ``--workers`` processes of asyncio
JSON clients on 127.0.0.1 (on uvloop's event loop where it is installed: ``--loop``). The servers run with the
per-address limits lifted (``MUDWIZ_MAX_PER_ADDRESS=0``, ``MUDWIZ_MAX_UNNAMED_PER_ADDRESS=0``,
``MUDWIZ_ARRIVAL_BURST`` large) and ``MUDWIZ_BOT_DELAY=0``; the soft open-file limit is raised to the hard one
here and inherited by the servers. Modes:

- ``idle``: N connections log in (``/mode json``, a name, until ``welcome``; at most ``--in-flight`` logins
  pending per worker) and stay. Wall time to log all in; the server's RSS (``/proc/PID/status`` VmRSS) before
  and after, per connection.
- ``play``: N tables of 4 JSON clients (one ``/new wizard``, three ``/join``); each answers its latest
  ``state`` with a random entry of ``legal`` (the host's ``/start`` included, so games follow games). Over a
  ``--seconds`` window once every table plays: moves/s (answered game moves; ``/ok`` and ``/start`` are
  commands but not moves), the server's CPU (``/proc/PID/stat`` utime+stime) per answered command, move
  latency (a request to its reply) and turn latency (a game move to the next ``state`` at that table offering
  someone a move) p50/p99, the time the server's processes and the generator's were ready to run but waited
  for a core (``core wait %`` and ``gen wait %`` of the window, ``/proc/PID/task/*/schedstat``: on a machine
  whose cores are all taken, a move waits there however quick the code), the machine's steal (the share of its
  CPUs' time its hypervisor gave other guests, ``/proc/stat``: a busy host slows every process, the floor as
  much as mudwiz); and a second line, the
  turns by what answered what (``play>ok``: a round's last card answered by its result), with where the
  slowest 1 % of them fell.
- ``bots``: N tables of one JSON host and 3 ``good`` bots (the floor: 3 bot seats that move at once), while a
  monitor connection sends ``/who`` every 20 ms: its round trip p50/p99.

Prints a line of figures per run and, per size, a ratio line mudwiz/floor of the runs' medians; figures,
never assertions::

    python bench/load.py                                  # every mode at the issue's sizes (long: 10,000 logins)
    python bench/load.py --mode play --tables 200 --repeat 2
    python bench/load.py --mode idle --conns 1000
    python bench/load.py --quick                          # a smoke run of every mode, small sizes
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import gc
import itertools
import json
import multiprocessing
import os
import queue
import random
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/: its sibling reactor.py, when imported too
from reactor import ping  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")
NOT_MOVES = ("/ok", "/start")
# The messages a client acts on. The others (mudwiz's events, notices, chat) are skipped unparsed: the generator
# shares the machine with the server, and parsing what it ignores took CPU from whichever server sends more of it.
READ = frozenset((b"state", b"ok", b"error", b"welcome"))
STATE_BYTES = 1400  # the floor's state line: mudwiz's median Wizard state at a 4-player table in play (state B p50)


# ---------------------------------------------------------------- the servers


def raise_fd_limit() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def cpu_of(pid: int) -> float:
    """A process's CPU seconds so far: utime + stime (fields 14 and 15 of proc(5)'s stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def waited_of(pid: int) -> float:
    """A process's seconds so far runnable but waiting for a core (its threads' ``schedstat`` second field, in ns):
    on a machine whose cores are all taken, a move waits there however quick the server's own code is."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue  # a thread that ended meanwhile, or a kernel without schedstats
    return total / 1e9


def machine_ticks() -> tuple[int, int]:
    """This machine's CPU time so far, all its CPUs (``/proc/stat``'s ``cpu`` line, in ticks): what its hypervisor
    took for other guests (steal), and the whole (user to steal). A virtual machine whose host is busy runs every
    process slower, the floor as much as mudwiz: a run's steal says how much of its figures is that."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return fields[7], sum(fields)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A server process: ``mudwiz serve`` or the floor, on a free loopback port."""

    def __init__(self, kind: str, state_bytes: int, env: dict[str, str] | None = None, work_us: float = 0.0,
                 serve: Sequence[str] = ()) -> None:
        self.kind = kind
        self.port = free_port()
        self.ports = [self.port]  # where clients connect: one port here, one a node for bench/cluster.py
        listen = f"tcp:{self.port}:interface=127.0.0.1:backlog=1024"
        # a data directory of its own, new each run: the table journal would bring back the last run's tables
        self.data = tempfile.TemporaryDirectory(prefix="mudwiz-bench-")
        env = {**os.environ, "MUDWIZ_DATA": self.data.name, "MUDWIZ_MAX_PER_ADDRESS": "0",
               "MUDWIZ_MAX_UNNAMED_PER_ADDRESS": "0",
               "MUDWIZ_ARRIVAL_BURST": "1000000000", "MUDWIZ_BOT_DELAY": "0", "MUDWIZ_GRACE": "0",
               "MUDWIZ_LOGIN_TIMEOUT": "0", **(env or {})}
        if kind == "mudwiz":
            # MUDWIZ_BENCH_PROFILE=FILE: the server runs under cProfile, its stats written to FILE when it stops
            profile = ["-m", "cProfile", "-o", os.environ["MUDWIZ_BENCH_PROFILE"]] \
                if os.environ.get("MUDWIZ_BENCH_PROFILE") else []
            cmd = [sys.executable, *profile, "-m", "mudwiz.cli", "serve", "--listen", listen, *serve]  # --workers N
        else:
            cmd = [sys.executable, str(ROOT / "bench" / "baseline.py"), "--listen", listen,
                   "--state-bytes", str(state_bytes), "--work-us", str(work_us)]
        self.proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.proc.poll() is not None:
                    raise SystemExit(f"the {kind} server exited at start") from None
                time.sleep(0.05)
        else:
            self.stop()
            raise SystemExit(f"the {kind} server did not start")
        time.sleep(0.2)  # the probe connection gone, the server settled

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def cpu_s(self) -> float:
        return cpu_of(self.proc.pid)

    def waited_s(self) -> float:
        return waited_of(self.proc.pid)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.data.cleanup()


# ---------------------------------------------------------------- the clients (in the worker processes)


@dataclass
class Table:
    clients: list[Client] = field(default_factory=list)
    id: int | None = None
    joined: int = 0
    ready: bool = False  # everyone seated: the host may /start
    playing: bool = False  # a game move has been answered
    pending: float | None = None  # when the last game move was sent, until someone is offered a move
    pending_verb: str = ""  # that move's command word (``bid``, ``play``)
    start_at: float = 0.0  # the first game's /start not before this (``--stagger``)


@dataclass
class Stats:
    replies: list[tuple[float, float, bool]] = field(default_factory=list)  # (when, latency, a game move)
    turns: list[tuple[float, float, str]] = field(default_factory=list)  # (when, latency, what: ``bid>play``)
    state_bytes: list[int] = field(default_factory=list)  # each state line's size, as sent
    errors: int = 0


def verb(cmd: str) -> str:
    """A command's word without its slash: ``bid`` of ``/bid 2``."""
    return cmd.split(maxsplit=1)[0].lstrip("/")


class Client(asyncio.Protocol):
    """One JSON connection: logs in, then (``play``/``bots``) seats itself and answers its ``state``s."""

    def __init__(self, name: str, stats: Stats, rng: random.Random, table: Table | None = None,
                 role: str = "idle", on_welcome: Callable[[Client], None] | None = None) -> None:
        self.name = name
        self.stats = stats
        self.rng = rng
        self.table = table
        self.role = role  # idle, host, guest, botshost
        self.on_welcome = on_welcome
        self.buf = b""
        self.logged_in = False
        self.discard = False  # idle: once logged in, read and drop everything
        self.transport: asyncio.Transport | None = None
        self.legal: list[str] = []
        self.fresh = False  # a state arrived since our last request
        self.req = 0
        self.outstanding: tuple[int, float, str] | None = None
        self.setup: list[str] = []  # commands to send before playing (the bots host's /bot add)
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.transport.write(b"/mode json\r\n" + self.name.encode() + b"\r\n")  # type: ignore[union-attr]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)

    def data_received(self, data: bytes) -> None:
        if self.discard:
            return
        lines = (self.buf + data).split(b"\n")
        self.buf = lines.pop()
        for raw in lines:
            start = raw.find(b"{")
            if start < 0:
                continue
            if raw.startswith(b'{"type":"', start):  # both servers put the type first: only what we act on is parsed
                kind = raw[start + 9:raw.find(b'"', start + 9)]
                if kind not in READ:
                    continue
                if kind == b"state":
                    self.stats.state_bytes.append(len(raw) + 1)
                    if self.table is not None and self.table.id is not None and self.state_legal(raw, start):
                        continue
            self.message(json.loads(raw[start:]))

    def state_legal(self, raw: bytes, start: int) -> bool:
        """A state's ``legal`` read alone, the only field a seated client uses once its table is known: the floor's
        state is one padding string, mudwiz's the table's whole view, and parsing all of it was most of the
        generator's CPU against mudwiz. False (parse it whole) if no ``"legal":[...]`` is found that reads as JSON."""
        at = raw.find(b'"legal":[', start)
        end = raw.find(b"]", at)
        if at < 0 or end < 0:
            return False
        try:
            legal = json.loads(raw[at + 8:end + 1])
        except ValueError:
            return False
        self.on_state(legal, None)
        return True

    def send(self, cmd: str) -> None:
        self.req += 1
        self.outstanding = (self.req, time.monotonic(), cmd)
        self.fresh = False
        assert self.transport is not None
        self.transport.write(json.dumps({"id": self.req, "cmd": cmd}).encode() + b"\r\n")

    def message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        now = time.monotonic()
        if kind == "welcome" and not self.logged_in:
            self.logged_in = True
            if self.role == "idle":
                self.discard = True
            if self.on_welcome is not None:
                self.on_welcome(self)
        elif kind == "state":
            self.on_state(msg.get("legal") or [], msg.get("table"))
        elif kind in ("ok", "error") and self.outstanding is not None and msg.get("id") == self.outstanding[0]:
            _, sent, cmd = self.outstanding
            self.outstanding = None
            move = not cmd.startswith(NOT_MOVES) and not cmd.startswith(("/new", "/join", "/bot"))
            self.stats.replies.append((now, now - sent, move and kind == "ok"))
            if kind == "error":
                self.stats.errors += 1
                if SHOW_ERRORS:  # MUDWIZ_BENCH_ERRORS=1: each refused command and why, on stderr
                    print(f"error: {cmd}: {msg.get('message')}", file=sys.stderr, flush=True)
            if move and kind == "ok" and self.table is not None:
                self.table.playing = True
            self.replied(cmd, kind == "ok" or self.seated_already(cmd, str(msg.get("message", ""))))
            self.act()

    def on_state(self, legal: list[str], table_id: int | None) -> None:
        self.legal = legal
        self.fresh = True
        table = self.table
        if table is not None:
            if table.id is None:
                table.id = table_id
            if legal and table.pending is not None:
                now = time.monotonic()
                self.stats.turns.append((now, now - table.pending, f"{table.pending_verb}>{verb(legal[0])}"))
                table.pending = None
        self.act()

    def replied(self, cmd: str, ok: bool) -> None:
        table = self.table
        if table is None:
            return
        if cmd.startswith("/join") and not ok:  # on a cluster the table may not have reached this node yet
            asyncio.get_running_loop().call_later(0.2, self.send, cmd)
        elif cmd.startswith("/join") and ok:
            table.joined += 1
            if table.joined == 3:
                table.ready = True
                table.clients[0].act()
        elif cmd.startswith("/new") and ok:
            if self.role == "botshost":
                self.setup = ["/bot add good"] * 3
            for guest in table.clients[1:]:
                guest.join()
        if self.role == "botshost" and not self.setup and cmd.startswith(("/new", "/bot")):
            table.ready = True

    def seated_already(self, cmd: str, message: str) -> bool:
        """A ``/join`` refused because the client sits at that very table: an earlier one went through after all
        (on a cluster, answered "not answering" at the client's node and carried out at the table's a moment
        later). Taken as joined, or it is sent again every 0.2 s for ever."""
        table = self.table
        return cmd.startswith("/join") and table is not None and table.id is not None \
            and re.search(rf"\b(you are at|already seated at) table {table.id}\b", message) is not None

    def join(self) -> None:
        """A guest joins once both it is logged in and its table's id is known."""
        assert self.table is not None
        if self.logged_in and self.table.id is not None and self.req == 0:
            self.send(f"/join {self.table.id}")

    def act(self) -> None:
        if self.outstanding is not None or self.table is None:
            return
        if self.setup:
            self.send(self.setup.pop())
            return
        if not (self.fresh and self.legal and self.table.ready):
            return
        if self.legal == ["/start"] and not self.table.playing and time.monotonic() < self.table.start_at:
            asyncio.get_running_loop().call_at(self.table.start_at, self.act)  # the loop's clock is monotonic
            return
        cmd = self.rng.choice(self.legal)
        if not cmd.startswith(NOT_MOVES):
            self.table.pending = time.monotonic()
            self.table.pending_verb = verb(cmd)
        self.send(cmd)


async def connect(port: int, client: Client) -> None:
    loop = asyncio.get_running_loop()
    for attempt in range(20):
        try:
            await loop.create_connection(lambda: client, "127.0.0.1", port)
            return
        except OSError:
            await asyncio.sleep(0.05 * (attempt + 1))
    raise OSError(f"cannot connect as {client.name}")


async def wait_stop(stop: Any, deadline: float) -> None:
    while not stop.is_set() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


async def idle_worker(wid: int, port: int, n: int, in_flight: int, go: Any, stop: Any, out: Any,
                      timeout: float) -> None:
    stats = Stats()
    rng = random.Random(wid)
    gate = asyncio.Semaphore(in_flight)
    clients: list[Client] = []
    loop = asyncio.get_running_loop()

    async def one(i: int) -> None:
        async with gate:
            done = loop.create_future()

            def welcomed(_c: Client) -> None:
                if not done.done():
                    done.set_result(None)

            c = Client(f"i{wid}x{i}", stats, rng, on_welcome=welcomed)
            clients.append(c)
            await connect(port, c)
            await done

    out.put(("ready", wid, 0.0))
    while not go.is_set():
        await asyncio.sleep(0.01)
    try:
        await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(n))), timeout)
        out.put(("logged_in", wid, time.monotonic()))
    except (TimeoutError, OSError) as exc:
        out.put(("failed", wid, f"{sum(c.logged_in for c in clients)} of {n} logged in ({exc!r})"))
    await wait_stop(stop, time.monotonic() + timeout)
    for c in clients:
        if c.transport is not None:
            c.transport.close()
    out.put(("done", wid, {}))


async def play_worker(wid: int, ports: list[int], tables: int, bots: bool, go: Any, stop: Any, out: Any,
                      timeout: float, placement: str = "local", stagger: float = 0.0) -> None:
    """``ports``: the server's, or its nodes' (bench/cluster.py): with ``placement`` ``local`` table ``t`` is opened
    on ``ports[t % n]`` and its other seats join from the same node; ``spread``: each seat from the next node;
    ``random``: each connection (the opener's too) on a node chosen at random, as ``--workers`` (one address, the
    kernel choosing the process) places them. ``stagger``: each table's
    first game starts at a random moment of that many seconds from the start, not all at once."""
    stats = Stats()
    rng = random.Random(wid)
    all_tables: list[Table] = []
    out.put(("ready", wid, 0.0))
    while not go.is_set():
        await asyncio.sleep(0.01)

    def welcomed(c: Client) -> None:
        assert c.table is not None
        if c is c.table.clients[0]:
            c.send("/new wizard")
        else:
            c.join()

    def place(t: int, seat: int) -> int:
        if placement == "random":
            return rng.randrange(len(ports))
        return (t + (seat if placement == "spread" else 0)) % len(ports)

    connects = []
    began = time.monotonic()
    for t in range(tables):
        table = Table(start_at=began + rng.uniform(0, stagger))
        all_tables.append(table)
        for seat in range(1 if bots else 4):
            role = "botshost" if bots else ("host" if seat == 0 else "guest")
            c = Client(f"p{wid}t{t}s{seat}", stats, rng, table, role, welcomed)
            table.clients.append(c)
            connects.append(connect(ports[place(t, seat)], c))
    deadline = time.monotonic() + timeout
    try:
        await asyncio.wait_for(asyncio.gather(*connects), timeout)
        while not all(t.playing for t in all_tables):
            if time.monotonic() > deadline:
                raise TimeoutError
            await asyncio.sleep(0.05)
        out.put(("playing", wid, time.monotonic()))
    except (TimeoutError, OSError) as exc:
        out.put(("failed", wid, f"{sum(t.playing for t in all_tables)} of {tables} tables playing ({exc!r})"))
    await wait_stop(stop, time.monotonic() + timeout)
    for each in all_tables:
        for c in each.clients:
            if c.transport is not None:
                c.transport.close()
    out.put(("done", wid, {"replies": stats.replies, "turns": stats.turns, "errors": stats.errors,
                           "state_bytes": stats.state_bytes[-20000:]}))


def worker(kind: str, loop: str, priority: str, *args: Any, **options: Any) -> None:
    raise_fd_limit()
    # The collector off: a worker's lists of figures only grow, so its full collections came ever further apart
    # and ever longer (80 ms at the end of a run), each delaying every reply the worker was reading then: a
    # latency of the instrument's own that was counted as the server's. What a worker makes has no cycles to find.
    gc.disable()
    if priority == "realtime":  # (``generator_priority`` found it permitted)
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    if loop == "uvloop":
        import uvloop

        uvloop.install()
    asyncio.run(idle_worker(*args) if kind == "idle" else play_worker(*args, **options))


# ---------------------------------------------------------------- runs (in the main process)


class Workers:
    def __init__(self, kind: str, shares: list[int], make_args: Callable[[int, int], tuple[Any, ...]],
                 **options: Any) -> None:
        """``options``: ``play_worker``'s keywords (``placement``, ``stagger``)."""
        ctx = multiprocessing.get_context("spawn")
        self.go, self.stop, self.out = ctx.Event(), ctx.Event(), ctx.Queue()
        self.procs = [ctx.Process(target=worker, args=(kind, LOOP, PRIORITY, wid, *make_args(wid, share), self.go,
                                                       self.stop, self.out, TIMEOUT), kwargs=options, daemon=True)
                      for wid, share in enumerate(shares) if share]
        for p in self.procs:
            p.start()
        self.wait("ready")

    def wait(self, what: str) -> list[Any]:
        """Each worker's report ``what``; raises RuntimeError with a worker's failure."""
        got: list[Any] = []
        while len(got) < len(self.procs):
            try:
                tag, _wid, value = self.out.get(timeout=TIMEOUT + 30)
            except queue.Empty:
                raise RuntimeError(f"a worker did not report {what}") from None
            if tag == "failed":
                raise RuntimeError(value)
            if tag == what:
                got.append(value)
        return got

    def cpu_s(self) -> float:
        """The generator's own CPU (its worker processes'): on a machine it shares with the server, what it takes
        is not the server's to use."""
        return sum(cpu_of(p.pid) for p in self.procs if p.pid is not None)

    def waited_s(self) -> float:
        """How long the generator waited for a core: a reply it reads late counts as the server's latency."""
        return sum(waited_of(p.pid) for p in self.procs if p.pid is not None)

    def finish(self) -> list[Any]:
        self.stop.set()
        try:
            return self.wait("done")
        finally:
            for p in self.procs:
                p.join(10)
                if p.is_alive():
                    p.kill()


TIMEOUT = 900.0
SHOW_ERRORS = bool(os.environ.get("MUDWIZ_BENCH_ERRORS"))  # print each refused command (stderr)


def default_loop() -> str:
    """uvloop where it is installed (the ``test`` extra has it): the generator's workers then take half the CPU
    they took on asyncio's own loop (60 % of a core against 90-100 % at 200 tables), CPU the server shares on a
    2-core machine. Either way the same clients, the same commands and the same figures are measured."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return "asyncio"
    return "uvloop"


LOOP = default_loop()  # the generator's event loop (``--loop``)
PRIORITY = "normal"  # the generator's scheduling (``--generator-priority``, as ``generator_priority`` allows)


def generator_priority(wanted: str) -> str:
    """``realtime`` if ``wanted`` and this process may schedule so (root, or CAP_SYS_NICE), else ``normal``.

    The generator stands for clients on other machines, but shares the cores with the servers. At normal priority
    it waits for a core whenever two server processes take both (a third of the window), and a reply it reads late
    counts as the server's latency. At real-time priority (``SCHED_FIFO``; it needs about a third of a core and
    sleeps in the poll between replies) it reads each reply when it comes, but preempts a single server process
    now and then (13 % of its window waiting for a core, against none): neither is the clients' own machine, so
    the docs give both (docs/scaling.md)."""
    if wanted != "realtime":
        return "normal"
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    except (OSError, AttributeError):  # not permitted, or no such scheduler here
        return "normal"
    return "realtime"


def add_priority_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--generator-priority", choices=("realtime", "normal"), default="normal",
                        help="the load generator's scheduling: realtime (where permitted) reads each reply when it "
                             "comes, but takes a core from a single server process now and then; normal (the "
                             "default) waits for a core when the servers take both, and reads replies late")


def shares(total: int, workers: int) -> list[int]:
    return [total // workers + (1 if i < total % workers else 0) for i in range(workers)]


def run_idle(server: Server, conns: int, args: argparse.Namespace) -> dict[str, float]:
    before = server.rss_kb()
    w = Workers("idle", shares(conns, args.workers), lambda wid, n: (server.port, n, args.in_flight))
    try:
        start = time.monotonic()
        w.go.set()
        ends = w.wait("logged_in")
        took = max(ends) - start
        time.sleep(1.0)
        after = server.rss_kb()
    finally:
        w.finish()
    return {"login s": took, "RSS MB": after / 1024, "KB/conn": (after - before) / conns}


def pct(xs: list[float], p: int) -> float:
    if not xs:
        return float("nan")
    if len(xs) == 1:
        return xs[0]
    return statistics.quantiles(xs, n=100, method="inclusive")[p - 1]


def run_play(server: Any, tables: int, args: argparse.Namespace, bots: bool = False,
             placement: str = "local", kinds: list[str] | None = None) -> dict[str, float]:
    """``server``: a ``Server``, or anything with its ``ports``, ``port``, ``cpu_s()`` and ``waited_s()``
    (bench/cluster.py's nodes, whose CPU is their sum). ``kinds``, if given, is appended ``turn_kinds``' line for
    the run."""
    w = Workers("play", shares(tables, args.workers), lambda wid, n: (server.ports, n, bots), placement=placement,
                stagger=getattr(args, "stagger", 0.0))
    whos: list[float] = []
    try:
        w.go.set()
        w.wait("playing")
        cpu0, gen0, start, ticks0 = server.cpu_s(), w.cpu_s(), time.monotonic(), machine_ticks()
        waited0, gen_waited0 = server.waited_s(), w.waited_s()
        samples = [(start, cpu0)]  # (when, the server's CPU s): its CPU a command second by second
        if bots:
            whos = monitor(server.port, args.seconds)
        else:
            while (now := time.monotonic()) < start + args.seconds:
                time.sleep(min(1.0, start + args.seconds - now))
                samples.append((time.monotonic(), server.cpu_s()))
        cpu1, gen1, end, ticks1 = server.cpu_s(), w.cpu_s(), time.monotonic(), machine_ticks()
        waited1, gen_waited1 = server.waited_s(), w.waited_s()
    finally:
        reports = w.finish()
    replies = [r for rep in reports for r in rep["replies"] if start <= r[0] < end]
    timed = [(when, 1000 * lat, what) for rep in reports for when, lat, what in rep["turns"] if start <= when < end]
    turns = [lat for _, lat, _ in timed]
    if kinds is not None:
        kinds.append(turn_kinds(timed))
    moves = sum(1 for r in replies if r[2])
    lat = [1000 * r[1] for r in replies]
    figures = {"moves/s": moves / (end - start), "cpu µs/cmd": 1e6 * (cpu1 - cpu0) / max(1, len(replies)),
               "cpu %": 100 * (cpu1 - cpu0) / (end - start), "core wait %": 100 * (waited1 - waited0) / (end - start),
               "gen cpu %": 100 * (gen1 - gen0) / (end - start),
               "gen wait %": 100 * (gen_waited1 - gen_waited0) / (end - start),
               "move p50": pct(lat, 50), "move p99": pct(lat, 99), "turn p50": pct(turns, 50),
               "turn p99": pct(turns, 99), "state B p50": pct([b for rep in reports for b in rep["state_bytes"]], 50),
               "errors": sum(rep["errors"] for rep in reports),
               "steal %": 100 * (ticks1[0] - ticks0[0]) / max(1, ticks1[1] - ticks0[1])}
    if not bots:
        figures["µs/cmd 1 s min"], figures["µs/cmd 1 s max"] = by_second(samples, [r[0] for r in replies])
    else:
        figures = {"/who p50": pct(whos, 50), "/who p99": pct(whos, 99), "/who max": max(whos, default=0.0),
                   "host moves/s": figures["moves/s"], "cpu %": figures["cpu %"], "errors": figures["errors"],
                   "steal %": figures["steal %"]}
    return figures


def turn_kinds(timed: list[tuple[float, float, str]]) -> str:
    """The turns by what move was answered by what offer (``play>play``; ``play>ok``: a round's last card, answered
    by its result; ``bid>bid``), each kind's share, p50 and p99 (ms), its share of the slowest 1 % of all turns,
    and in how many of the window's 100 ms slices those slowest turns came: the slowest turns of a few slices are
    a burst of work that every table met at once (docs/performance.md, "What bounds the turn p99"); and the p99 of each
    second of the window, its median and the dearest (a window that holds every table's game end: the
    same section)."""
    if not timed:
        return "turns by kind: none"
    cut = pct([lat for _, lat, _ in timed], 99)
    slow = [(when, what) for when, lat, what in timed if lat >= cut]
    by: dict[str, list[float]] = {}
    for _, lat, what in timed:
        by.setdefault(what, []).append(lat)
    parts = []
    for what, lats in sorted(by.items(), key=lambda item: -len(item[1])):
        share = 100 * len(lats) / len(timed)
        if share < 0.5:
            continue
        of_slow = 100 * sum(1 for _, w in slow if w == what) / len(slow)
        parts.append(f"{what} {share:.0f}% {pct(lats, 50):.1f}/{pct(lats, 99):.1f} slowest {of_slow:.0f}%")
    first = min(when for when, _, _ in timed)
    slices = {int((when - first) * 10) for when, _ in slow}
    total = int((max(when for when, _, _ in timed) - first) * 10) + 1
    seconds: dict[int, list[float]] = {}
    for when, lat, _ in timed:
        seconds.setdefault(int(when - first), []).append(lat)
    per_second = {at: pct(lats, 99) for at, lats in seconds.items()}
    dearest = max(per_second, key=lambda at: per_second[at])
    median = pct(list(per_second.values()), 50)
    return f"turns by kind (share, p50/p99 ms, share of the slowest 1%): {'; '.join(parts)}; the slowest 1% in " \
           f"{len(slices)} of {total} 100 ms slices; each second's p99: median {median:.1f}, " \
           f"dearest {per_second[dearest]:.1f} (second {dearest}); {turn_slices(timed, first)}"


def turn_slices(timed: list[tuple[float, float, str]], first: float) -> str:
    """Where a p99 comes from, by the window's 100 ms slices: how far turns spread within a slice (the median
    slice's p95 over its p50: the server's order of work, as its turns come), and how far the slices' medians
    spread over the window (the work itself, as it comes and goes): the tenth of the slices in which most
    tables' rounds ended (turns answered by ``/ok``) against the rest (docs/performance.md, "What bounds the
    turn p99")."""
    slices: dict[int, list[float]] = {}
    ends: dict[int, int] = {}
    for when, lat, what in timed:
        at = int((when - first) * 10)
        slices.setdefault(at, []).append(lat)
        ends[at] = ends.get(at, 0) + what.endswith(">ok")
    full = {at: lats for at, lats in slices.items() if len(lats) >= 20}
    if not full:
        return "too few turns a 100 ms slice"
    within = pct([pct(lats, 95) / pct(lats, 50) for lats in full.values()], 50)
    medians = {at: pct(lats, 50) for at, lats in full.items()}
    spread = "/".join(f"{pct(list(medians.values()), p):.1f}" for p in (10, 50, 90))
    line = f"100 ms slices: p95/p50 within one {within:.2f}, their p50s p10/p50/p90 {spread} ms"
    by_ends = sorted(medians, key=lambda at: -ends[at])
    most = by_ends[:max(1, len(by_ends) // 10)]
    rest = by_ends[len(most):]
    if ends[most[-1]] and rest:
        line += f"; the tenth with the most round ends ({ends[most[-1]]}+ a slice): median p50 " \
                f"{pct([medians[at] for at in most], 50):.1f} ms, the rest {pct([medians[at] for at in rest], 50):.1f}"
    return line


def by_second(samples: list[tuple[float, float]], replied: list[float]) -> tuple[float, float]:
    """The server's CPU a command in its cheapest and its dearest second of the window (``samples``: when, CPU s;
    ``replied``: when each reply came). At saturation the turn latency follows the dearest seconds: a run's spread
    says how much of its p99 is the machine's own unsteadiness (bench/steadiness.py measures that alone)."""
    replied = sorted(replied)
    costs = []
    for (t0, c0), (t1, c1) in itertools.pairwise(samples):
        n = bisect.bisect_left(replied, t1) - bisect.bisect_left(replied, t0)
        if n and t1 - t0 > 0.5:
            costs.append(1e6 * (c1 - c0) / n)
    return (min(costs), max(costs)) if costs else (float("nan"), float("nan"))


def monitor(port: int, seconds: float) -> list[float]:
    """Round-trip times (ms) of ``/who`` sent every 20 ms for ``seconds`` from one more JSON connection: the
    pinger of bench/reactor.py, which measured this before."""
    return [1000 * t for t in ping(port, seconds)]


def fmt(figures: dict[str, float]) -> str:
    return "  ".join(f"{k} {v:.0f}" if k == "errors" else f"{k} {v:8.1f}" if abs(v) >= 10 or v != v
                     else f"{k} {v:8.2f}" for k, v in figures.items())


def measure(mode: str, size: int, args: argparse.Namespace) -> None:
    label = {"idle": f"{size} conns", "play": f"{size} tables", "bots": f"{size} tables"}[mode]
    work = {"mudwiz": 0.0, "floor": 0.0, **{f"floor+{us:g}": us for us in args.floor_work or ()}}
    kinds = [k for k in work if not (args.floors_only and k == "mudwiz")]
    runs: dict[str, list[dict[str, float]]] = {s: [] for s in kinds}
    for i in range(args.repeat):
        for kind in kinds:
            server = Server(kind.partition("+")[0], args.state_bytes, work_us=work[kind])
            detail: list[str] = []
            try:
                if mode == "idle":
                    figures = run_idle(server, size, args)
                else:
                    figures = run_play(server, size, args, bots=mode == "bots", kinds=detail)
            except RuntimeError as exc:
                print(f"{mode:4} {label:>12}  {kind:6} #{i + 1}  failed: {exc}", flush=True)
                continue
            finally:
                server.stop()
            runs[kind].append(figures)
            print(f"{mode:4} {label:>12}  {kind:6} #{i + 1}  {fmt(figures)}", flush=True)
            if mode == "play":
                print(f"{mode:4} {label:>12}  {kind:6} #{i + 1}  {detail[0]}", flush=True)
    if runs.get("mudwiz") and runs["floor"]:
        ratio = {}
        # errors: counts, 0 when all is well; steal: the machine's, not the server's
        for key in (k for k in runs["mudwiz"][0] if k not in ("errors", "steal %")):
            m = statistics.median(r[key] for r in runs["mudwiz"])
            f = statistics.median(r[key] for r in runs["floor"])
            ratio[key] = m / f if f else float("nan")
        print(f"{mode:4} {label:>12}  ratio mudwiz/floor (medians)  "
              + "  ".join(f"{k} {v:6.2f}x" for k, v in ratio.items()), flush=True)
        if len(runs["mudwiz"]) > 1 and len(runs["mudwiz"]) == len(runs["floor"]):
            # each run against the floor's run right after it: the machine's speed drifts between runs, and a
            # pair's ratio is what that drift disturbs least
            key = {"idle": "login s", "play": "moves/s", "bots": "/who p99"}[mode]
            pairs = [m[key] / f[key] if f[key] else float("nan")
                     for m, f in zip(runs["mudwiz"], runs["floor"], strict=True)]
            print(f"{mode:4} {label:>12}  ratio mudwiz/floor by pair  {key} "
                  + " ".join(f"{v:.2f}x" for v in pairs), flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    global TIMEOUT, LOOP, PRIORITY
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", action="append", choices=("idle", "play", "bots"), help="repeat; default all")
    parser.add_argument("--conns", type=int, action="append", help="idle: connections (default 1000, 10000)")
    parser.add_argument("--tables", type=int, action="append",
                        help="play: tables of 4 JSON clients (default 50, 200, 500); bots: tables of 3 good bots "
                             "and a JSON host (default 16, 64, 128)")
    parser.add_argument("--seconds", type=float, default=10.0, help="play, bots: the measured window")
    parser.add_argument("--stagger", type=float, default=0.0,
                        help="play: start each table's first game at a random moment of this many seconds (default 0: "
                             "all at once, and as every table then plays at the same pace, their round ends coincide)")
    parser.add_argument("--repeat", type=int, help="runs of each server, alternating (default: idle 1, else 2)")
    parser.add_argument("--workers", type=int, default=2, help="load generator processes")
    parser.add_argument("--in-flight", type=int, default=64, help="idle: logins pending at once per worker")
    parser.add_argument("--state-bytes", type=int, default=STATE_BYTES,
                        help="the floor's state line, bytes (mudwiz's median in play: the play lines' state B p50)")
    parser.add_argument("--floor-work", type=float, action="append",
                        help="play: also a floor that spends this many µs of CPU on each move (bench/baseline.py "
                             "--work-us), standing for a game's own work; repeat to scan what work a move may cost "
                             "before a latency target is missed")
    parser.add_argument("--floors-only", action="store_true", help="run the floors alone, not mudwiz")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds a run's setup may take")
    parser.add_argument("--loop", choices=("asyncio", "uvloop"), default=LOOP,
                        help="the generator's event loop (default: uvloop where installed, else asyncio)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: small sizes, a 1 s window, one run each")
    add_priority_option(parser)
    args = parser.parse_args(argv)
    TIMEOUT, LOOP = args.timeout, args.loop
    PRIORITY = generator_priority(args.generator_priority)
    if args.quick:
        args.seconds = min(args.seconds, 1.0)
    hard = raise_fd_limit()
    print(f"load: {args.workers} worker(s) on {args.loop} at {PRIORITY} priority, open files {hard}, "
          f"{os.cpu_count()} cpu(s); figures, never assertions", flush=True)
    for mode in args.mode or ("idle", "play", "bots"):
        default = {"idle": (1000, 10000), "play": (50, 200, 500), "bots": (16, 64, 128)}[mode]
        quick = {"idle": (50,), "play": (4,), "bots": (2,)}[mode]
        sizes = (args.conns if mode == "idle" else args.tables) or (quick if args.quick else default)
        saved = args.repeat
        if args.repeat is None:
            args.repeat = 1 if mode == "idle" or args.quick else 2
        for size in sizes:
            measure(mode, size, args)
        args.repeat = saved


if __name__ == "__main__":
    main()
