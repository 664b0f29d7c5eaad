"""Does the server stay responsive while ``good`` bots think? Round-trip times of a lobby command, under load.

Starts a real server (``mudwiz serve``, bots moving without delay), fills ``--tables`` Wizard tables with
``examples/bot.py`` hosts and three ``good`` bots each, and meanwhile sends ``/who`` from one more JSON
connection every 20 ms, timing each reply. Prints percentiles per setting; figures, never assertions::

    python bench/reactor.py          # bots inline, in 1 and 4 threads, in 1 process; 0/1/4 busy tables, 10 s each
    python bench/reactor.py --where threads:1 --where processes:1 --tables 8 --seconds 20

``--where``: ``inline`` (on the reactor thread), ``threads:N`` (N threads of the server's process, with the short
switch interval) or ``processes:N`` (N worker processes, the server's default with N=1).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int) -> None:
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("the server did not start")


def ping(port: int, seconds: float) -> list[float]:
    """Round-trip times (s) of ``/who`` sent every 20 ms for ``seconds``."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(b"/mode json\r\npinger\r\n")
    lines = sock.makefile("rb")
    times: list[float] = []
    end = time.perf_counter() + seconds
    n = 0
    while time.perf_counter() < end:
        n += 1
        sent = time.perf_counter()
        sock.sendall(json.dumps({"id": n, "cmd": "/who"}).encode() + b"\r\n")
        for line in lines:
            start = line.find(b"{")
            if start >= 0 and json.loads(line[start:]).get("id") == n:
                break
        else:
            raise SystemExit("the server closed the pinger's connection")
        times.append(time.perf_counter() - sent)
        time.sleep(max(0.0, 0.02 - (time.perf_counter() - sent)))
    sock.close()
    return times


def run(where: str, tables: int, seconds: float) -> str:
    port = free_port()
    kind, _, count = where.partition(":")
    threads, processes = (count if kind == "threads" else "0"), (count if kind == "processes" else "0")
    env = {**os.environ, "MUDWIZ_BOT_DELAY": "0", "MUDWIZ_BOT_THREADS": threads, "MUDWIZ_BOT_PROCESSES": processes,
           "MUDWIZ_GRACE": "0"}
    listen = f"tcp:{port}:interface=127.0.0.1"
    data = tempfile.TemporaryDirectory(prefix="mudwiz-bench-")  # the games' records, not the checkout's data/
    server = subprocess.Popen([sys.executable, "-m", "mudwiz.cli", "serve", "--listen", listen, "--data", data.name],
                              env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    hosts: list[subprocess.Popen[bytes]] = []
    try:
        wait_for(port)
        for i in range(tables):
            hosts.append(subprocess.Popen(
                [sys.executable, str(ROOT / "examples" / "bot.py"), "--port", str(port), "--name", f"host{i}",
                 "--new", "wizard", "--bots", "3", "--level", "good"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(1.0 if tables else 0.0)  # let the tables start
        times = sorted(ping(port, seconds))
    finally:
        for p in hosts:
            p.kill()
        server.terminate()
        server.wait()
        data.cleanup()
    ms = [1000 * t for t in times]
    q = statistics.quantiles(ms, n=100)
    return (f"bots {where:<11} busy tables={tables:2}  /who round trip ms: median={q[49]:6.1f} "
            f"p90={q[89]:6.1f} p99={q[98]:6.1f} max={max(ms):6.1f}  ({len(ms)} pings)")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--where", action="append", help="where bots think: inline, threads:N or processes:N "
                        "(repeat; default inline, threads:1, threads:4, processes:1)")
    parser.add_argument("--tables", type=int, action="append", help="busy tables (repeat; default 0, 1, 4)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of pings per setting")
    args = parser.parse_args(argv)
    for where in args.where or ("inline", "threads:1", "threads:4", "processes:1"):
        if where != "inline" and not (where.startswith(("threads:", "processes:")) and where.split(":")[1].isdigit()):
            parser.error(f"--where {where!r}: inline, threads:N or processes:N")
        for tables in args.tables or (0, 1, 4):
            print(run(where, tables, args.seconds), flush=True)


if __name__ == "__main__":
    main()
