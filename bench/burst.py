"""Does one connection's flood of commands hold everyone else up? A lobby ``/who``'s round trip while it floods.

Starts a real server (``mudwiz serve``, from ``--root``: another checkout, to compare), lets ``examples/bot.py``
play one Tiltowait game (``--hands``) with three random bots so that a long game is recorded, then for each kind
of flood has one JSON connection flood the server while another one sends ``/who`` every 20 ms
(``bench/reactor.py``'s ``ping``) and times each reply. Prints the round trips' p50/p99/max and how many of the
flood's commands were answered a second; figures, never assertions (net/budget.py ``SHARE_LINES``, ``PACE``)::

    python bench/burst.py                      # help: 5,000 /help in one write; replay: /replay of the
                                               # recorded game's last 100 steps, again and again
    python bench/burst.py --root /path/to/other/checkout --seconds 5
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/: its sibling reactor.py
from reactor import free_port, ping, wait_for  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def login(port: int, name: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(f"/mode json\r\n{name}\r\n".encode())
    seen = b""
    while b'"welcome"' not in seen:
        seen += sock.recv(1 << 16)
    return sock


def recorded_steps(port: int) -> int:
    """Wait for game 1's record (the bot's first game ending); its last step."""
    sock = login(port, "looker")
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            sock.sendall(b"/replay 1 0\r\n")
            seen = b""
            while b'"type":"ok"' not in seen and b'"type":"error"' not in seen:
                seen += sock.recv(1 << 20)
            at = seen.find(b'"steps":')
            if at >= 0:
                return int(seen[at + 8:].split(b",")[0])
            time.sleep(0.5)
    finally:
        sock.close()
    raise SystemExit("no game was recorded in 300 s")


def flood(port: int, kind: str, steps: int, seconds: float) -> str:
    """One connection floods (``kind``) while another pings: the figures line."""
    sock = login(port, f"flood_{kind}")
    answered, stop = [0], threading.Event()

    def drain() -> None:
        sock.settimeout(0.5)
        while not stop.is_set():
            try:
                chunk = sock.recv(1 << 16)
            except OSError:
                continue
            if not chunk:
                return
            answered[0] += chunk.count(b'"type":"ok"')

    def send() -> None:
        if kind == "help":
            sock.sendall(b"/help\r\n" * 5000)
            return
        line = f"/replay 1 {max(0, steps - 100)}\r\n".encode()
        while not stop.is_set():
            try:
                sock.sendall(line * 20)
            except OSError:
                return
            time.sleep(0.01)

    threads = [threading.Thread(target=drain, daemon=True), threading.Thread(target=send, daemon=True)]
    for t in threads:
        t.start()
    time.sleep(0.2)
    start, before = time.perf_counter(), answered[0]
    try:
        ms = sorted(1000 * t for t in ping(port, seconds))
        outcome = (f"/who round trip ms: p50={statistics.median(ms):7.1f} p99={ms[int(0.99 * (len(ms) - 1))]:7.1f} "
                   f"max={ms[-1]:7.1f} ({len(ms)} pings)")
    except OSError as exc:  # the pinger's socket timed out: nobody else was answered for 30 s
        outcome = f"/who round trip: no answer ({type(exc).__name__}: {exc})"
    rate = (answered[0] - before) / (time.perf_counter() - start)
    stop.set()
    sock.close()
    return f"burst {kind:<7} {outcome}  flood answered {rate:7.1f}/s"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose server runs")
    parser.add_argument("--seconds", type=float, default=6.0, help="seconds of pings per flood")
    parser.add_argument("--kind", action="append", choices=("help", "replay"), help="(repeat; default both)")
    parser.add_argument("--hands", type=int, default=2, help="hands of the recorded Tiltowait game (its length)")
    args = parser.parse_args(argv)
    port = free_port()
    data = tempfile.TemporaryDirectory(prefix="mudwiz-bench-")
    env = {**os.environ, "MUDWIZ_BOT_DELAY": "0", "MUDWIZ_DATA": data.name}
    server = subprocess.Popen([sys.executable, "-m", "mudwiz.cli", "serve", "--listen",
                               f"tcp:{port}:interface=127.0.0.1"], env=env, cwd=args.root,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    player = None
    try:
        wait_for(port)
        kinds, steps = args.kind or ("help", "replay"), 0
        if "replay" in kinds:
            player = subprocess.Popen([sys.executable, str(ROOT / "examples" / "bot.py"), "--port", str(port),
                                       "--name", "player", "--new", "tiltowait", "--bots", "3", "--level", "random",
                                       "--option", f"hands={args.hands}"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            steps = recorded_steps(port)
            player.kill()
            print(f"burst: {args.root}, a recorded Tiltowait game of {steps} steps", flush=True)
        for kind in kinds:
            print(flood(port, kind, steps, args.seconds), flush=True)
    finally:
        if player is not None:
            player.kill()
        server.kill()
        server.wait()
        data.cleanup()


if __name__ == "__main__":
    main()
