"""A throwaway Redis server for a test session: Debian's ``redis-server`` on a unix socket in a temporary
directory, no persistence, stopped and removed at the end. Where it cannot be started, ``RedisUnavailable`` says
why, and the tests that need it skip with that line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


class RedisUnavailable(Exception):
    """Redis cannot be started here; the message says why."""


@contextmanager
def redis_server(home: Path | None = None) -> Iterator[str]:
    """A running server; yields its URL (``unix:///.../redis.sock``). ``home``: its directory (made if need be,
    and kept), so that a server started again there has the same address, and nothing of the one before."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RedisUnavailable("no redis-server: install Debian's redis-server package (./scripts/test does)")
    keep = home is not None
    home = home or Path(tempfile.mkdtemp(prefix="mudwiz-redis-"))
    home.mkdir(parents=True, exist_ok=True)
    sock = home / "redis.sock"
    process = subprocess.Popen(
        [binary, "--port", "0", "--unixsocket", str(sock), "--unixsocketperm", "700", "--save", "",
         "--appendonly", "no", "--dir", str(home), "--logfile", str(home / "log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 10
        while not sock.exists():
            if process.poll() is not None or time.monotonic() > deadline:
                log = (home / "log").read_text(errors="replace") if (home / "log").exists() else ""
                why = (log.strip().splitlines() or ["it did not start"])[-1]
                raise RedisUnavailable(f"redis-server: {why}")
            time.sleep(0.02)
        yield f"unix://{sock}"
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
        if not keep:
            shutil.rmtree(home, ignore_errors=True)


def redis_cli(url: str, *args: str) -> str:
    """One ``redis-cli`` command against the server at ``url`` (a ``unix://`` socket): its output."""
    done = subprocess.run(["redis-cli", "-s", url.removeprefix("unix://"), *args], capture_output=True, text=True,
                          timeout=10, check=True)
    return done.stdout


def reactor_script(script: str, url: str) -> Any:
    """Run ``script`` (Python that starts its own reactor: it runs once a process) in a subprocess against the Redis
    at ``url`` (its ``sys.argv[1]``), and return what it printed last, as JSON: several processes' parts in one."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", script, url], cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
