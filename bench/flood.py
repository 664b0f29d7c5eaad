"""Is a quiet user answered promptly however hard others type? A bystander's latency while connections flood.

Starts a real server (``mudwiz serve``, from ``--root``: another checkout, to compare; per-address connection
limits lifted, as a flood from many addresses would have them). For each ``--flooders`` count (0 is the floor) a
JSON bystander first sits down at a Wizard table with three bots and starts the game; then that many plain-text
connections (tests/support/flooding.py, in a process of their own) send lobby chat, unknown commands, junk and
``/who`` as fast as the server takes them, while the bystander sends ``/who`` every second and plays its moves
(at most 2 lines a second) and times each reply. Prints the bystander's /who and move round trips (p50/p99/max),
the lines a second the flood got answered, and how many flooders were told to slow down or closed; figures,
never assertions (net/budget.py, docs/operations.md "Fair shares")::

    nice -n 5 python bench/flood.py                  # 0, 60 and 200 flooders, 10 s each
    nice -n 5 python bench/flood.py --flooders 60 --seconds 6 --root /path/to/other/checkout --series
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/: its sibling reactor.py
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

import flooding  # noqa: E402
from reactor import free_port, wait_for  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SETUP = ("/new", "/bot", "/start", "/ok")  # the bystander's commands that are not game moves


def flooders(port: int, count: int, seconds: float, out: Any) -> None:
    """The flooding connections, in a process of their own: puts their ``Flood``."""
    out.put(flooding.flood(("127.0.0.1", port), count, seconds))


class Bystander:
    """One JSON connection: /who every second, a Wizard game against three bots, every reply timed."""

    def __init__(self, port: int, name: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.sock.sendall(f"/mode json\r\n{name}\r\n".encode())
        self.lock = threading.Lock()
        self.sent: dict[int, tuple[float, str]] = {}
        self.who: list[float] = []
        self.moves: list[float] = []
        self.errors: list[str] = []
        self.legal: list[str] = []
        self.fresh = False
        self.n = 0
        self.closed = False
        threading.Thread(target=self.read, daemon=True).start()

    def send(self, cmd: str) -> None:
        with self.lock:
            self.n += 1
            self.sent[self.n] = (time.perf_counter(), cmd)
            self.fresh = False
            self.sock.sendall(json.dumps({"id": self.n, "cmd": cmd}).encode() + b"\r\n")

    def read(self) -> None:
        for line in self.sock.makefile("rb"):
            start = line.find(b"{")
            if start < 0:
                continue
            msg = json.loads(line[start:])
            kind = msg.get("type")
            if kind == "state":
                self.legal, self.fresh = msg.get("legal") or [], True
            elif kind in ("ok", "error") and msg.get("id") in self.sent:
                at, cmd = self.sent.pop(msg["id"])
                took = time.perf_counter() - at
                if cmd == "/who":
                    self.who.append(took)
                elif not cmd.startswith(SETUP):  # a game move: the turn's round trip
                    self.moves.append(took)
                if kind == "error":
                    self.errors.append(f"{cmd}: {msg.get('message')}")
        self.closed = True

    def seat(self) -> None:
        """A table with three bots, its game started: before the flood, as a user already playing."""
        for cmd in ("/new wizard", "/bot add good", "/bot add good", "/bot add good"):
            self.send(cmd)
            time.sleep(0.3)
        deadline = time.perf_counter() + 30
        while "/start" not in self.legal and time.perf_counter() < deadline:
            time.sleep(0.1)
        self.send("/start")

    def play(self, seconds: float) -> None:
        """``seconds`` of /who once a second and a move whenever one is ours (a new game when one ends)."""
        end = time.perf_counter() + seconds
        next_who = time.perf_counter()
        while time.perf_counter() < end and not self.closed:
            now = time.perf_counter()
            if now >= next_who:
                self.send("/who")
                next_who += 1.0
            elif self.fresh and self.legal:
                self.send(random.choice(self.legal))
            time.sleep(0.5)  # at most 2 lines a second: the well-behaved user

    def close(self) -> None:
        self.sock.close()


def figures(name: str, times: list[float]) -> str:
    if not times:
        return f"{name} none"
    ms = sorted(1000 * t for t in times)
    return (f"{name} p50={statistics.median(ms):6.1f} p99={ms[max(0, math.ceil(0.99 * len(ms)) - 1)]:6.1f} "
            f"max={ms[-1]:6.1f} ms (n={len(ms)})")


def run(port: int, count: int, seconds: float, series: bool = False) -> str:
    out: Any = multiprocessing.Queue()
    by = Bystander(port, f"quiet{count}")
    by.seat()
    proc = multiprocessing.Process(target=flooders, args=(port, count, seconds + 1.5, out)) if count else None
    if proc is not None:
        proc.start()
        time.sleep(1.0)  # connected and flooding
    by.play(seconds)
    flood = out.get() if proc is not None else flooding.Flood()
    rate = flood.answered / (seconds + 1.5)  # the flood lasts that long
    told = sum(1 for n in flood.warned if n)
    if proc is not None:
        proc.join()
    by.close()
    if series:
        print("  /who in order, ms:", " ".join(f"{1000 * t:.0f}" for t in by.who))
        print("  moves in order, ms:", " ".join(f"{1000 * t:.0f}" for t in by.moves))
    refused = f", bystander errors {len(by.errors)}" if by.errors else ""
    unanswered = [cmd for _, cmd in by.sent.values()]
    if unanswered:  # still waiting at the end: no figure says how long
        refused += f", bystander unanswered {len(unanswered)} ({unanswered.count('/who')} /who)"
    return (f"flooders {count:3d}: {figures('/who', by.who)}  {figures('move', by.moves)}  "
            f"flood {rate:7.0f} lines/s, {told} told to slow down, {flood.closed} closed{refused}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose server runs")
    parser.add_argument("--flooders", type=int, action="append", help="(repeat; default 0, 60 and 200)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of the bystander's play per count")
    parser.add_argument("--bot-delay", default="0.2", help="the server's MUDWIZ_BOT_DELAY")
    parser.add_argument("--series", action="store_true", help="also print each round trip, in order")
    parser.add_argument("--log", type=Path, help="the server's log goes here (default: nowhere)")
    args = parser.parse_args(argv)
    port = free_port()
    data = tempfile.TemporaryDirectory(prefix="mudwiz-bench-")
    env = {**os.environ, "MUDWIZ_BOT_DELAY": args.bot_delay, "MUDWIZ_DATA": data.name, "MUDWIZ_GRACE": "0",
           "MUDWIZ_MAX_PER_ADDRESS": "0", "MUDWIZ_MAX_UNNAMED_PER_ADDRESS": "0"}
    log = args.log.open("wb") if args.log else subprocess.DEVNULL
    server = subprocess.Popen([sys.executable, "-m", "mudwiz.cli", "serve", "--listen",
                               f"tcp:{port}:interface=127.0.0.1"], env=env, cwd=args.root,
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(port)
        print(f"flood: {args.root}, {args.seconds:g} s each", flush=True)
        for count in args.flooders or (0, 60, 200):
            print(run(port, count, args.seconds, args.series), flush=True)
    finally:
        server.terminate()  # (a clean stop: its log is all written)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        data.cleanup()


if __name__ == "__main__":
    main()
