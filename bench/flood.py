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
PACE = 5  # lines a second at most: a person's


def flooders(port: int, count: int, seconds: float, out: Any) -> None:
    """The flooding connections, in a process of their own: puts their ``Flood``."""
    out.put(flooding.flood(("127.0.0.1", port), count, seconds))


class Bystander:
    """One JSON connection: /who every ``who_every`` seconds and a Wizard game against three bots, every reply timed,
    at most ``PACE`` lines a second (the well-behaved user the limits must never hold up)."""

    def __init__(self, port: int, name: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.sock.sendall(f"/mode json\r\n{name}\r\n".encode())
        self.lock = threading.Lock()
        self.sent: dict[int, tuple[float, str]] = {}
        self.who: list[float] = []
        self.moves: list[float] = []  # a move's round trip to its ok
        self.turns: list[float] = []  # a move's round trip to its ok and the view after it, both come
        self.move_sent: float | None = None  # the move whose view is awaited, when it was sent
        self.move_ok = False  # its ok came
        self.move_viewed = False  # a view (state) came after it: the server sends it before the ok
        self.errors: list[str] = []
        self.told: list[str] = []  # notices of the limits: a well-behaved user is never sent one
        self.legal: list[str] = []
        self.fresh = False
        self.n = 0
        self.lines: list[float] = []  # when each line was sent
        self.closed = False
        threading.Thread(target=self.read_all, daemon=True).start()

    def send(self, cmd: str) -> None:
        with self.lock:
            self.n += 1
            now = time.perf_counter()
            self.sent[self.n] = (now, cmd)
            self.lines.append(now)
            if cmd != "/who":
                self.fresh = False  # (the next view's legal moves are the ones to choose from)
            if not cmd.startswith(SETUP) and cmd != "/who":
                self.move_sent, self.move_ok, self.move_viewed = now, False, False
            self.sock.sendall(json.dumps({"id": self.n, "cmd": cmd}).encode() + b"\r\n")

    def read_all(self) -> None:
        try:
            self.read()
        except Exception as exc:  # (said, or a bystander that stopped reading looks like a server that stopped)
            if not self.closed:  # (its socket closed at its count's end: over)
                self.errors.append(f"reading stopped: {exc!r}")
                print(f"  bystander stopped reading: {exc!r}", flush=True)
        finally:
            self.closed = True

    def read(self) -> None:
        for line in self.sock.makefile("rb"):
            start = line.find(b"{")
            if start < 0:
                continue
            try:
                msg = json.loads(line[start:])
            except ValueError:  # (not a message of the protocol's: counted, never a reason to stop reading)
                self.errors.append(f"not JSON: {line[:80]!r}")
                continue
            kind = msg.get("type")
            now = time.perf_counter()
            with self.lock:
                if kind == "state":
                    self.legal, self.fresh = msg.get("legal") or [], True
                    self.move_viewed = True
                    self.turned(now)
                elif kind in ("ok", "error") and msg.get("id") in self.sent:
                    at, cmd = self.sent.pop(msg["id"])
                    if cmd == "/who":
                        self.who.append(now - at)
                    elif not cmd.startswith(SETUP):  # a game move: the turn's round trip
                        self.moves.append(now - at)
                        self.move_ok = True
                        self.turned(now)
                    if kind == "error":
                        self.errors.append(f"{cmd}: {msg.get('message')}")
                elif kind == "notice" and flooding.WARNING.decode() in str(msg.get("text", "")):
                    self.told.append(str(msg.get("text")))
        self.closed = True

    def turned(self, now: float) -> None:
        """The move awaited is answered once both its ok and the view after it came: its turn's round trip."""
        if self.move_sent is not None and self.move_ok and self.move_viewed:
            self.turns.append(now - self.move_sent)
            self.move_sent = None

    def seat(self) -> None:
        """A table with three bots, its game started: before the flood, as a user already playing."""
        for cmd in ("/new wizard", "/bot add good", "/bot add good", "/bot add good"):
            self.send(cmd)
            time.sleep(0.3)
        deadline = time.perf_counter() + 30
        while "/start" not in self.legal and time.perf_counter() < deadline:
            time.sleep(0.1)
        self.send("/start")

    def room(self, now: float) -> bool:
        """Whether a line may go now: fewer than ``PACE`` in the last second."""
        return sum(1 for t in self.lines[-PACE:] if now - t < 1.0) < PACE

    def play(self, seconds: float, who_every: float) -> None:
        """``seconds`` of /who every ``who_every`` seconds and a move whenever one is ours (a new game when one
        ends), never more than ``PACE`` lines a second."""
        end = time.perf_counter() + seconds
        next_who = time.perf_counter()
        while time.perf_counter() < end and not self.closed:
            now = time.perf_counter()
            if now >= next_who and self.room(now):
                self.send("/who")
                next_who += who_every
            elif self.fresh and self.legal and self.room(now) and now + 0.1 < next_who:
                self.send(random.choice(self.legal))
            time.sleep(0.01)

    def close(self) -> None:
        self.closed = True
        self.sock.close()


def figures(name: str, times: list[float]) -> str:
    if not times:
        return f"{name} none"
    ms = sorted(1000 * t for t in times)
    return (f"{name} p50={statistics.median(ms):5.1f} p99={ms[max(0, math.ceil(0.99 * len(ms)) - 1)]:6.1f} "
            f"max={ms[-1]:6.1f} ms (n={len(ms)})")


def load() -> str:
    return "/".join(f"{n:.1f}" for n in os.getloadavg())


def run(port: int, count: int, seconds: float, who_every: float, series: bool = False) -> str:
    out: Any = multiprocessing.Queue()
    by = Bystander(port, f"quiet{count}")
    by.seat()
    proc = multiprocessing.Process(target=flooders, args=(port, count, seconds + 2.0, out)) if count else None
    before = load()
    if proc is not None:
        proc.start()
        time.sleep(0.5)  # (its connections are made; their logins and first lines are what the bystander meets)
    by.play(seconds, who_every)
    after = load()
    flood = out.get() if proc is not None else flooding.Flood()
    rate = flood.answered / (seconds + 1.5)  # the flood's lines after its logins
    told = sum(1 for n in flood.warned if n)
    if proc is not None:
        proc.join()
    by.close()
    if series:
        print("  /who in order, ms:", " ".join(f"{1000 * t:.0f}" for t in by.who))
        print("  turns in order, ms:", " ".join(f"{1000 * t:.0f}" for t in by.turns))
    refused = f", bystander errors {len(by.errors)}: {by.errors[:3]}" if by.errors else ""
    if by.told:
        refused += f", bystander TOLD {len(by.told)}"
    unanswered = [cmd for _, cmd in by.sent.values()]
    if unanswered:  # still waiting at the end: no figure says how long
        refused += f", bystander unanswered {len(unanswered)} ({unanswered.count('/who')} /who)"
    return (f"flooders {count:3d}: {figures('/who', by.who)}  {figures('turn', by.turns)}  "
            f"flood {rate:6.0f} lines/s answered, {told} told to slow down, {flood.closed} closed; "
            f"load {before} -> {after}{refused}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose server runs")
    parser.add_argument("--flooders", type=int, action="append", help="(repeat; default 0, 60 and 200)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of the bystander's play per count")
    parser.add_argument("--who-every", type=float, default=0.3, help="seconds between the bystander's /who")
    parser.add_argument("--bot-delay", default="0.05", help="the server's MUDWIZ_BOT_DELAY")
    parser.add_argument("--series", action="store_true", help="also print each round trip, in order")
    parser.add_argument("--log", type=Path, help="the server's log goes here (default: nowhere)")
    parser.add_argument("--profile", type=Path, help="run the server under cProfile, its figures to this file")
    args = parser.parse_args(argv)
    port = free_port()
    data = tempfile.TemporaryDirectory(prefix="mudwiz-bench-")
    env = {**os.environ, "MUDWIZ_BOT_DELAY": args.bot_delay, "MUDWIZ_DATA": data.name, "MUDWIZ_GRACE": "0",
           "MUDWIZ_MAX_PER_ADDRESS": "0", "MUDWIZ_MAX_UNNAMED_PER_ADDRESS": "0"}
    log = args.log.open("wb") if args.log else subprocess.DEVNULL
    profile = ["-m", "cProfile", "-o", str(args.profile.resolve())] if args.profile else []
    server = subprocess.Popen([sys.executable, *profile, "-m", "mudwiz.cli", "serve", "--listen",
                               f"tcp:{port}:interface=127.0.0.1"], env=env, cwd=args.root,
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(port)
        print(f"flood: {args.root}, {args.seconds:g} s each, /who every {args.who_every:g} s", flush=True)
        for count in args.flooders or (0, 60, 200):
            print(run(port, count, args.seconds, args.who_every, args.series), flush=True)
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
