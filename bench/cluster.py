"""Several processes as one server: what the cluster costs and what it gains.

Starts a throwaway Redis and PostgreSQL (tests/support/redisserver.py and pgserver.py, as the tests do), then N
``mudwiz serve`` nodes on loopback, each on its own port, sharing them (``MUDWIZ_REDIS_URL``,
``MUDWIZ_DATABASE_URL``, ``MUDWIZ_NODE=n1..nN``); a single process on the same PostgreSQL with no Redis is the
reference. Measures, with bench/load.py's load generator:

- ``chat``: lobby chat latency: one JSON client says a numbered line every 20 ms on node 1; a listener on node 1
  and (with N > 1) one on node 2 note when each line reaches them: p50/p99 of send -> seen, same process against
  across processes (through Redis).
- ``play``: T tables of 4 JSON clients playing flat out, as bench/load.py's play mode: moves/s, CPU µs per
  command (summed over the nodes), turn latency p50/p99; with N = 1, 2, 4 nodes. ``local``: a table's four
  clients all on the node that hosts it (what a balancer with table affinity gives); ``spread``: each seat on a
  different node, so every view crosses the bus; ``random``: each connection on a node chosen at random, as
  ``--workers N`` (one address, the kernel picking the process) spreads them: a table's seats are on its host
  with chance 1/N each. ``--relay on off``: a join of another node's table relays the connection there (on, the
  default) or visits it (off, ``MUDWIZ_RELAY=off``): both measured in one invocation, each after the other.

Figures, never assertions::

    python bench/cluster.py                                   # chat, then play at 200 tables with 1, 2, 4 nodes
    python bench/cluster.py --mode play --nodes 2 --tables 100 --placement spread
    python bench/cluster.py --mode play --nodes 2 --tables 40 --placement local random spread
    python bench/cluster.py --mode play --serve-workers 2 --tables 40 --handoff on off   # one process, then --workers 2
    python bench/cluster.py --mode play --nodes 1 --serve-workers 2 --tables 200 --handoff on
    python bench/cluster.py --mode play --nodes 1 2 --tables 200 --placement local spread random --relay off on
    python bench/cluster.py --mode play --nodes 1 --serve-workers 2 --tables 200 --handoff on --rounds 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "support"))
import load  # noqa: E402
from load import Server, fmt, pct, raise_fd_limit, run_play  # noqa: E402
from pgserver import Databases, postgres_server  # noqa: E402
from redisserver import redis_cli, redis_server  # noqa: E402


class Nodes:
    """N mudwiz nodes on the shared engines (or one plain process when ``redis`` is None)."""

    def __init__(self, n: int, database: str, redis: str | None, relay: str = "on") -> None:
        self.servers: list[Server] = []
        for i in range(n):
            env = {"MUDWIZ_DATABASE_URL": database, "MUDWIZ_NODE": f"n{i + 1}", "MUDWIZ_PRESENCE_CROWD": "0",
                   **({"MUDWIZ_RELAY": "127.0.0.1"} if relay == "on" else {"MUDWIZ_RELAY": "off"})}
            if redis is not None:
                env["MUDWIZ_REDIS_URL"] = redis
            self.servers.append(Server("mudwiz", 0, env))
        self.ports = [s.port for s in self.servers]
        self.port = self.ports[0]
        time.sleep(1.5 if n > 1 else 0)  # the nodes' first beats: each knows the others

    def cpu_s(self) -> float:
        return sum(s.cpu_s() for s in self.servers)

    def waited_s(self) -> float:
        return sum(s.waited_s() for s in self.servers)

    def stop(self) -> None:
        for s in self.servers:
            s.stop()


class Supervised:
    """``mudwiz serve --workers N`` on one address, on the shared engines: the kernel gives each connection to
    whichever worker accepts it first (``random`` placement, for real); ``handoff``: a join of another worker's
    table moves the connection there (net/handed.py), else its user visits it (cluster/visits.py)."""

    def __init__(self, n: int, database: str, redis: str, handoff: bool) -> None:
        env = {"MUDWIZ_DATABASE_URL": database, "MUDWIZ_REDIS_URL": redis, "MUDWIZ_PRESENCE_CROWD": "0",
               "MUDWIZ_HANDOFF": "on" if handoff else "off"}
        self.server = Server("mudwiz", 0, env, serve=["--workers", str(n)])
        self.ports, self.port = self.server.ports, self.server.port
        time.sleep(4.0)  # the workers joined (the socket accepts into its queue at once) and heard each other

    def pids(self) -> list[int]:
        pid = self.server.proc.pid
        return [pid, *(int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split())]

    def cpu_s(self) -> float:
        return sum(load.cpu_of(pid) for pid in self.pids())

    def waited_s(self) -> float:
        return sum(load.waited_of(pid) for pid in self.pids())

    def stop(self) -> None:
        self.server.stop()


def run_supervised(databases: Databases, redis: str, args: argparse.Namespace) -> None:
    """``--serve-workers N``: play under ``mudwiz serve --workers N``, each connection where the kernel puts it, the
    joins handed over (``--handoff on``) or visiting (``off``); with ``--nodes`` naming 1 (as by default), one
    plain process first on the same tables, each ``--workers`` run then also said against it. ``--rounds R``:
    the whole sequence R times over, then each set-up's medians (``Rounds``)."""
    rounds = Rounds("one process")
    for _ in range(args.rounds):
        for tables in args.tables:
            reference = None
            if 1 in args.nodes:
                label = f"play {tables:4} tables one process {'':18}"
                reference = rounds.add(label, run_placement(databases, redis, args, tables, 1, "local", "-",
                                                            label=label))
            for handoff in args.handoff:
                label = f"play {tables:4} tables --workers {args.serve_workers} random handoff {handoff:3}"
                with fresh(databases, redis) as url:
                    server = Supervised(args.serve_workers, url, redis, handoff == "on")
                    kinds: list[str] | None = [] if args.kinds else None
                    try:
                        figures = run_play(server, tables, args, placement="random", kinds=kinds)
                    except RuntimeError as exc:
                        print(f"{label}: failed: {exc}", flush=True)
                        continue
                    finally:
                        server.stop()
                rounds.add(label, figures)
                print(f"{label}  {fmt(figures)}  load {os.getloadavg()[0]:.2f}", flush=True)
                for line in kinds or ():
                    print(f"  {line}", flush=True)
                if reference is not None:
                    print(f"{label}  against one process  {against(figures, reference)}", flush=True)
    rounds.report()


class Rounds:
    """Each set-up's figures over ``--rounds``: on a shared machine one run's moves/s moves by a quarter from
    run to run (the same server's CPU a command with it), so a set-up compared with one process is compared
    round by round, each round's set-ups one after another, and over the rounds by the medians."""

    def __init__(self, reference: str) -> None:
        self.reference = reference  # the label that names the one-process set-up
        self.runs: dict[str, list[dict[str, float]]] = {}

    def add(self, label: str, figures: dict[str, float] | None) -> dict[str, float] | None:
        if figures is not None:
            self.runs.setdefault(label, []).append(figures)
        return figures

    def report(self) -> None:
        """Per set-up run more than once: the median of each figure, and (beside a one-process set-up) the median
        of its rounds' ratios to that round's one process, with their range."""
        if not any(len(runs) > 1 for runs in self.runs.values()):
            return
        medians = {label: {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                   for label, runs in self.runs.items()}
        references = [(label, runs) for label, runs in self.runs.items() if self.reference in label]
        for label, runs in self.runs.items():
            print(f"{label}  median of {len(runs)}  {fmt(medians[label])}", flush=True)
            ref = next((r for name, r in references if name.split("tables")[0] == label.split("tables")[0]), None)
            if ref is None or self.reference in label or len(ref) != len(runs):
                continue
            for key in ("moves/s", "turn p99"):
                ratios = sorted(r[key] / q[key] for r, q in zip(runs, ref, strict=True) if q[key])
                if ratios:
                    print(f"{label}  {key} against one process, round by round: median "
                          f"{statistics.median(ratios):.2f}x, range {ratios[0]:.2f}-{ratios[-1]:.2f}x "
                          f"({' '.join(f'{x:.2f}' for x in ratios)})", flush=True)


def against(figures: dict[str, float], reference: dict[str, float]) -> str:
    """Each figure as a multiple of the reference's (not the error count, nor the machine's steal)."""
    return "  ".join(f"{k} {v / reference[k] if reference[k] else float('nan'):6.2f}x" for k, v in figures.items()
                     if k not in ("errors", "steal %"))


@contextmanager
def engines() -> Iterator[tuple[Databases, str]]:
    with postgres_server() as pg, redis_server() as redis:
        yield Databases(pg), redis


@contextmanager
def fresh(databases: Databases, redis: str) -> Iterator[str]:
    """A new database, and Redis emptied, for one run: each run is a server started for the first time, not one
    started again after the last run's (whose takeover locks and liveness keys would otherwise still be there)."""
    with databases.fresh() as url:
        redis_cli(redis, "FLUSHALL")
        yield url


class Line(asyncio.Protocol):
    """A JSON client for the chat run: logs in, then notes when each numbered lobby line reaches it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.buf = b""
        self.seen: dict[int, float] = {}
        self.welcome = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.transport.write(b"/mode json\r\n" + self.name.encode() + b"\r\n")  # type: ignore[union-attr]

    def data_received(self, data: bytes) -> None:
        lines = (self.buf + data).split(b"\n")
        self.buf = lines.pop()
        for raw in lines:
            start = raw.find(b"{")
            if start < 0:
                continue
            msg = json.loads(raw[start:])
            if msg.get("type") == "welcome" and not self.welcome.done():
                self.welcome.set_result(None)
            elif msg.get("type") == "chat" and str(msg.get("text", "")).startswith("seq "):
                self.seen.setdefault(int(msg["text"].split()[1]), time.monotonic())

    def say(self, n: int) -> None:
        assert self.transport is not None
        self.transport.write(json.dumps({"cmd": f"/say seq {n}"}).encode() + b"\r\n")


SPEAKERS = 20  # each says at most 10 lines, the chat limit's burst (lobby.CHAT_BURST): none is refused


async def chat_latency(ports: list[int], lines: int) -> dict[str, float]:
    loop = asyncio.get_running_loop()
    speakers = [Line(f"speaker{i}") for i in range(SPEAKERS)]
    near = Line("near")
    far = Line("far") if len(ports) > 1 else None
    for client, port in ((near, ports[0]), (far, ports[-1]), *((s, ports[0]) for s in speakers)):
        if client is not None:
            def made(c: Line = client) -> Line:
                return c

            await loop.create_connection(made, "127.0.0.1", port)
            await client.welcome
    await asyncio.sleep(1.5)  # the far node has heard of everyone
    sent: dict[int, float] = {}
    for n in range(min(lines, 10 * SPEAKERS)):
        sent[n] = time.monotonic()
        speakers[n % SPEAKERS].say(n)
        await asyncio.sleep(0.02)
    await asyncio.sleep(1.0)
    figures: dict[str, float] = {}
    for label, client in (("same", near), ("across", far)):
        if client is None:
            continue
        lat = [1000 * (client.seen[n] - sent[n]) for n in sent if n in client.seen]
        figures |= {f"{label} p50 ms": pct(lat, 50), f"{label} p99 ms": pct(lat, 99),
                    f"{label} lost": float(len(sent) - len(lat))}
    return figures


def run_chat(databases: Databases, redis: str, args: argparse.Namespace) -> None:
    for n in sorted({1, *(k for k in args.nodes if k > 1)})[:2]:
        with fresh(databases, redis) as url:
            nodes = Nodes(n, url, redis if n > 1 else None)
            try:
                figures = asyncio.run(chat_latency(nodes.ports, args.lines))
            finally:
                nodes.stop()
        print(f"chat {n} node(s) {'cluster' if n > 1 else 'single '}  {fmt(figures)}", flush=True)


def run_plays(databases: Databases, redis: str, args: argparse.Namespace) -> None:
    rounds = Rounds(" 1 node(s) local")
    for _ in range(args.rounds):
        for tables in args.tables:
            for n in args.nodes:
                for placement in args.placement:
                    for relay in args.relay if n > 1 and placement != "local" else ["-"]:
                        if n == 1 and placement != "local":
                            continue
                        label = f"play {tables:4} tables {n} node(s) {placement:6} relay {relay:3}"
                        rounds.add(label, run_placement(databases, redis, args, tables, n, placement, relay, label))
    rounds.report()


def run_placement(databases: Databases, redis: str, args: argparse.Namespace, tables: int, n: int, placement: str,
                  relay: str, label: str = "") -> dict[str, float] | None:
    """One set-up's runs (``--repeat``), each line with the load average at its end; their figures (the median
    of several), or None if none finished."""
    label = label or f"play {tables:4} tables {n} node(s) {placement:6} relay {relay:3}"
    runs = []
    for _ in range(args.repeat):
        with fresh(databases, redis) as url:
            nodes = Nodes(n, url, redis if n > 1 or args.single_on_redis else None, relay)
            try:
                kinds: list[str] | None = [] if args.kinds else None
                figures = run_play(nodes, tables, args, placement=placement, kinds=kinds)
            except RuntimeError as exc:
                print(f"{label}: failed: {exc}", flush=True)
                continue
            finally:
                nodes.stop()
        runs.append(figures)
        print(f"{label}  {fmt(figures)}  load {os.getloadavg()[0]:.2f}", flush=True)
        for line in kinds or ():
            print(f"  {line}", flush=True)
    if len(runs) > 1:
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print(f"{label}  median  {fmt(med)}", flush=True)
        return med
    return runs[0] if runs else None


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", action="append", choices=("chat", "play"), help="repeat; default both")
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 2, 4], help="play: node counts")
    parser.add_argument("--tables", type=int, nargs="+", default=[200], help="play: tables of 4 JSON clients")
    parser.add_argument("--placement", nargs="+", choices=("local", "random", "spread"),
                        default=["local", "random", "spread"])
    parser.add_argument("--seconds", type=float, default=10.0, help="play: the measured window")
    parser.add_argument("--repeat", type=int, default=1, help="play: runs of each set-up in a row (their median)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="play: the whole sequence of set-ups this many times over, then each set-up's medians "
                             "and its ratios to one process round by round")
    parser.add_argument("--kinds", action="store_true",
                        help="play: after each line, its turns by kind and where the slowest 1 %% came "
                             "(bench/load.py's turn_kinds)")
    parser.add_argument("--workers", type=int, default=2, help="load generator processes")
    load.add_priority_option(parser)
    parser.add_argument("--lines", type=int, default=200, help="chat: lines said")
    parser.add_argument("--timeout", type=float, default=300.0, help="play: seconds a run's setup may take")
    parser.add_argument("--single-on-redis", action="store_true", help="play: one node joins Redis too")
    parser.add_argument("--serve-workers", type=int, default=0,
                        help="play under `mudwiz serve --workers N` (one address) instead of separate nodes")
    parser.add_argument("--relay", nargs="+", choices=("on", "off"), default=["on"],
                        help="separate nodes: a join of another node's table relays the connection (on) or visits "
                             "it (off)")
    parser.add_argument("--handoff", nargs="+", choices=("on", "off"), default=["on", "off"],
                        help="with --serve-workers: a join of another worker's table moves the connection (on) or "
                             "visits it (off)")
    args = parser.parse_args(argv)
    load.TIMEOUT = args.timeout
    raise_fd_limit()
    load.PRIORITY = load.generator_priority(args.generator_priority)
    print(f"cluster: {os.cpu_count()} cpu(s), load generator {args.workers} process(es) at {load.PRIORITY} priority; "
          "figures, never assertions",
          flush=True)
    with ExitStack() as stack:
        databases, redis = stack.enter_context(engines())
        for mode in args.mode or ("chat", "play"):
            if mode == "play" and args.serve_workers:
                run_supervised(databases, redis, args)
            else:
                (run_chat if mode == "chat" else run_plays)(databases, redis, args)


if __name__ == "__main__":
    main()
