"""A throwaway PostgreSQL server for a test session: ``initdb`` into a temporary directory, started on a free port
with its socket in that directory, stopped and removed at the end. PostgreSQL refuses to run as root, so as root
it runs as the ``postgres`` user (Debian's package makes it) through ``runuser``. Where it cannot be started
(no binaries, no such user), ``PgUnavailable`` says why, and the PostgreSQL variants of the tests skip with it."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SETTINGS = ("-c", "fsync=off", "-c", "full_page_writes=off", "-c", "listen_addresses=", "-c", "max_connections=200")


class PgUnavailable(Exception):
    """PostgreSQL cannot be started here; the message says why."""


def binary(name: str) -> str:
    """``initdb``/``pg_ctl`` on PATH, else the newest of Debian's /usr/lib/postgresql/*/bin."""
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)),
                                       None)
    if found is None:
        raise PgUnavailable(f"no {name}: install Debian's postgresql package (./scripts/test does)")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """One throwaway server's directory and port, to ``start`` and ``stop`` as a test likes (a PostgreSQL restart
    under a running mudwiz: the same data, socket and port each time)."""

    def __init__(self, home: Path | None = None) -> None:
        self.initdb, self.pg_ctl = binary("initdb"), binary("pg_ctl")
        self.as_user: list[str] = []
        self.home = home if home is not None else Path(tempfile.mkdtemp(prefix="mudwiz-pg-"))
        self.home.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise PgUnavailable("running as root and there is no postgres user to run PostgreSQL as") from None
            os.chown(self.home, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.data, self.port = self.home / "data", free_port()
        self.url = f"postgresql://postgres@/postgres?host={self.home}&port={self.port}"

    def create(self) -> None:
        run([*self.as_user, self.initdb, "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync", "-E",
             "UTF8"])
        self.start()

    def start(self) -> None:
        options = " ".join([*SETTINGS, "-k", str(self.home), "-p", str(self.port)])
        run([*self.as_user, self.pg_ctl, "-D", str(self.data), "-l", str(self.home / "log"), "-w", "-o", options,
             "start"])

    def stop(self, how: str = "fast") -> None:
        """``fast``: the server ends every session and stops cleanly (as a restart by its service does);
        ``immediate``: at once, as in a crash."""
        subprocess.run([*self.as_user, self.pg_ctl, "-D", str(self.data), "-m", how, "-w", "stop"],
                       capture_output=True, timeout=60)


@contextmanager
def postgres_server(home: Path | None = None) -> Iterator[str]:
    """A running server; yields the URL of its ``postgres`` database (trust authentication, unix socket only)."""
    with pg_server(home) as server:
        yield server.url


@contextmanager
def pg_server(home: Path | None = None) -> Iterator[PgServer]:
    """A running server a test may stop and start again (``PgServer``), removed at the end."""
    server = PgServer(home)
    try:
        server.create()
    except PgUnavailable:
        shutil.rmtree(server.home, ignore_errors=True)
        raise
    try:
        yield server
    finally:
        server.stop("immediate")
        shutil.rmtree(server.home, ignore_errors=True)


def run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if done.returncode:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise PgUnavailable(f"{Path(command[-1] if command[-1] != 'start' else command[-4]).name}: {last[0]}")


class Databases:
    """Fresh databases on one server: one a test, so each starts from version 0 and leaves nothing behind."""

    def __init__(self, url: str) -> None:
        self.url = url

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as db:
            db.execute(sql)  # type: ignore[arg-type]

    @contextmanager
    def fresh(self) -> Iterator[str]:
        name = f"t_{uuid.uuid4().hex[:12]}"
        self._admin(f"CREATE DATABASE {name}")
        try:
            yield self.url.replace("@/postgres?", f"@/{name}?")
        finally:
            self._admin(f"DROP DATABASE {name} WITH (FORCE)")
