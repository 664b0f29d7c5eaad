"""Shared fixtures: one live server for the wire tests of a session (each test uses its own names)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
# The helpers the tests share (support/), and every folder's tests by their unique names, as some reuse another
# test module's set-up (``from test_journal import journaled_lobby``).
sys.path[:0] = [str(HERE / "support"), *sorted(str(p) for p in HERE.iterdir() if p.is_dir() and p.name != "support"
                                               and not p.name.startswith((".", "__")))]

from wire import running_server  # noqa: E402


def pytest_report_header() -> str:
    """Whether the suite runs the hot modules compiled (an editable install builds them: setup.py)."""
    from mudwiz import compiled

    return f"mudwiz: {compiled.describe()}"


def pytest_sessionstart(session: pytest.Session) -> None:
    """A compiled module older than its source would be tested instead of the edit: refuse to run."""
    from mudwiz import compiled

    if compiled.stale():
        pytest.exit(f"mudwiz: {compiled.describe()}", returncode=3)


@pytest.fixture(scope="session")
def server() -> Iterator[tuple[str, int]]:
    with running_server() as address:
        yield address


# ---------------------------------------------------------------- the store on both backends

import importlib.util  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from typing import Any  # noqa: E402

from pgserver import Databases, PgUnavailable, postgres_server  # noqa: E402
from redisserver import RedisUnavailable, redis_cli, redis_server  # noqa: E402

from mudwiz.store import FILENAME, SQLiteStore, Store  # noqa: E402
from mudwiz.store.sqlite import MIGRATIONS as SQLITE_MIGRATIONS  # noqa: E402


@pytest.fixture(scope="session")
def postgres() -> Iterator[Databases | str]:
    """One PostgreSQL server for the session (started on first use), or why there is none."""
    if importlib.util.find_spec("psycopg") is None:
        yield "the psycopg client is not installed (pip install -e '.[test]')"
        return
    try:
        with postgres_server() as url:
            yield Databases(url)
    except PgUnavailable as exc:
        yield str(exc)


@pytest.fixture(scope="session")
def redis_session() -> Iterator[str | RedisUnavailable]:
    """One Redis server for the session (started on first use), or why there is none."""
    try:
        with redis_server() as url:
            yield url
    except RedisUnavailable as exc:
        yield exc


@pytest.fixture
def redis_url(redis_session: str | RedisUnavailable) -> str:
    """The session's Redis URL, emptied for this test (FLUSHALL), or skip the test saying why there is none."""
    if isinstance(redis_session, RedisUnavailable):
        pytest.skip(f"Redis cannot be started here: {redis_session}")
    redis_cli(redis_session, "FLUSHALL")
    return redis_session


def postgres_databases(postgres: Databases | str) -> Databases:
    """The session's server, or skip the test saying why there is none."""
    if isinstance(postgres, str):
        pytest.skip(f"PostgreSQL cannot be started here: {postgres}")
    return postgres


@dataclass
class Backend:
    """Where a test's store lives: ``open()`` opens it (again, as a restart does), with the backend's own
    ``migrations`` (or some of them); ``where`` is how its messages name it."""

    name: str
    where: str
    migrations: tuple[Any, ...]
    location: str
    opened: list[Store] = field(default_factory=list)

    def open(self, migrations: tuple[Any, ...] | None = None) -> Any:
        steps = self.migrations if migrations is None else migrations
        store: Store
        if self.name == "sqlite":
            store = SQLiteStore(self.location, migrations=steps)
        else:
            from mudwiz.store.postgres import PostgresStore

            store = PostgresStore(self.location, migrations=steps)
        self.opened.append(store)
        return store

    def query(self, sql: str) -> list[tuple[Any, ...]]:
        """Rows of ``sql`` read (or written, committed) past the store, on a connection of the test's own (what is
        really kept; or a database as an older mudwiz left it)."""
        if self.name == "sqlite":
            import sqlite3

            db = sqlite3.connect(self.location)
            try:
                rows = db.execute(sql).fetchall()
                db.commit()
                return rows
            finally:
                db.close()
        import psycopg

        with psycopg.connect(self.location) as pg:
            cursor = pg.execute(sql)  # type: ignore[arg-type]  # a test's own constant SQL
            return cursor.fetchall() if cursor.description else []


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """A fresh, empty store on SQLite (a file in the test's directory) and on PostgreSQL (a new database on the
    session's server); every store the test opened is closed after it."""
    if request.param == "sqlite":
        path = str(tmp_path / FILENAME)
        chosen = Backend("sqlite", path, SQLITE_MIGRATIONS, path)
        yield chosen
    else:
        from mudwiz.store.postgres import MIGRATIONS, redacted

        with postgres_databases(request.getfixturevalue("postgres")).fresh() as url:
            chosen = Backend("postgres", redacted(url), MIGRATIONS, url)
            try:
                yield chosen
            finally:
                for store in chosen.opened:
                    store.close()
            return
    for store in chosen.opened:
        store.close()


@pytest.fixture
def store(backend: Backend) -> Any:
    """A fresh store on each backend."""
    return backend.open()
