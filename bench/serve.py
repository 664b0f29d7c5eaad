"""How long ``./scripts/serve`` takes from the command to a listening port: on a fresh copy of the checkout (it
installs first) and again on the same copy (it is installed: the start alone). Figures, never assertions.

Each start runs ``./scripts/serve --listen tcp:PORT:interface=127.0.0.1 --data DIR``, times the moment a TCP
connection to PORT is accepted, then stops the server (TERM). ``--root`` is the checkout (default this one); with
``--fresh`` it is first copied (``git archive HEAD``, so what is committed) to a temporary directory with its own
``.venv``, which is how a new user meets it; without, its own ``.venv`` is used as it stands::

    python bench/serve.py --fresh            # a first start (install and build) and two later starts
    python bench/serve.py --starts 5         # five starts on this checkout as installed
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
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
        return int(s.getsockname()[1])


def start(root: Path, data: Path, limit: float) -> float:
    """Seconds from running ``scripts/serve`` to its port accepting a connection."""
    port = free_port()
    began = time.monotonic()
    server = subprocess.Popen([str(root / "scripts" / "serve"), "--listen", f"tcp:{port}:interface=127.0.0.1",
                               "--data", str(data)], cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              start_new_session=True)
    try:
        while time.monotonic() - began < limit:
            if server.poll() is not None:
                raise SystemExit(f"scripts/serve exited {server.returncode}: "
                                 f"{server.stderr.read().decode()[-2000:] if server.stderr else ''}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return time.monotonic() - began
            except OSError:
                time.sleep(0.02)
        raise SystemExit(f"not listening after {limit:.0f} s")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)


def fresh_copy(root: Path, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(root), "archive", "HEAD"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout (default: this one)")
    parser.add_argument("--fresh", action="store_true", help="start from a copy of its HEAD with no .venv")
    parser.add_argument("--starts", type=int, default=3, help="how many starts to time (default 3)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mudwiz-serve-") as tmp:
        root = fresh_copy(args.root, Path(tmp)) if args.fresh else args.root.resolve()
        print(f"scripts/serve in {root}{' (a fresh copy of HEAD)' if args.fresh else ''}, {time.strftime('%F %T')}")
        for n in range(1, args.starts + 1):
            seconds = start(root, Path(tmp) / "data", limit=900.0)
            print(f"start {n}: listening after {seconds:.2f} s", flush=True)
        if args.fresh:
            shutil.rmtree(root / ".venv", ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
