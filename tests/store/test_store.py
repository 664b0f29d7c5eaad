"""The store on both backends (the ``backend`` fixture, tests/conftest.py: a real SQLite file and a real
PostgreSQL database): migrations from empty up, reopening, names in any case, roles and bans; then what only one
backend has: every SQLite file it must refuse (with its path in the message, the file left byte for byte as it
was), and every PostgreSQL database or server it must refuse (in one line naming it)."""

from __future__ import annotations

import importlib
import itertools
import os
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import Backend, postgres_databases
from pgserver import Databases, PgUnavailable, binary
from test_store_nodes import at_once

from mudwiz.store import FILENAME, AccountExists, Ban, GameRecord, LooksRegistered, Store, StoreError, open_store
from mudwiz.store.accounts_sql import looks
from mudwiz.store.sqlite import APPLICATION_ID, MIGRATIONS
from mudwiz.usertext import skeleton

if TYPE_CHECKING:
    from mudwiz.store.postgres import PostgresStore


def record(*names: str, outcome: str = "finished", ended: float = 1000.0) -> GameRecord:
    return GameRecord(
        game="wizard", options={"rounds": 2, "notequal": False}, table_options={"confirm": 120, "turn": 300,
                                                                                 "botdelay": None},
        seed=2**63 - 1, seats=[{"name": n, "kind": "person" if i == 0 else "bot:good"} for i, n in enumerate(names)],
        actions=[{"seat": 0, "action": "bid 1", "t": 0.5}, {"seat": None, "action": "next", "t": 9.25}],
        standings=None if outcome == "abandoned" else [{"player": n, "score": 10 * i, "place": i + 1}
                                                       for i, n in enumerate(names)],
        outcome=outcome, started=ended - 60, ended=ended,
    )


def test_an_empty_directory_is_made_and_its_file_migrated_from_version_0(tmp_path: Path) -> None:
    data = tmp_path / "a" / "data"
    store = open_store(data)
    assert store.version == len(MIGRATIONS)  # later migrations append theirs: the count is not fixed
    store.close()
    db = sqlite3.connect(data / FILENAME)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "game_seats", "accounts", "roles", "bans", "ratings", "tables", "table_moves"} <= tables


def test_a_new_database_and_its_wal_are_the_servers_users_alone(tmp_path: Path) -> None:
    """It holds the password hashes: it was made 0644, readable by every user of the machine (found by a probe)."""
    store = open_store(tmp_path)
    assert (tmp_path / FILENAME).stat().st_mode & 0o777 == 0o600
    wal = tmp_path / (FILENAME + "-wal")
    assert wal.exists() and wal.stat().st_mode & 0o777 == 0o600
    store.close()


def test_records_survive_reopening_and_names_match_in_any_case(backend: Backend) -> None:
    store = backend.open()
    first = store.record_game(record("Alice", "bot1", "bot2"))
    second = store.record_game(record("bob", "alice", outcome="abandoned", ended=2000.0))
    store.close()
    store = backend.open()
    assert [g.id for g in store.games_of("ALICE")] == [second, first]  # newest first
    assert [g.id for g in store.games_of("alice", limit=1)] == [second]
    assert store.games_of("carol") == []
    again = store.game(first)
    assert again is not None and again == GameRecord(**{**record("Alice", "bot1", "bot2").__dict__, "id": first})
    assert again.log == [(0, "bid 1"), (None, "next")]
    abandoned = store.game(second)
    assert abandoned is not None and abandoned.standings is None and abandoned.outcome == "abandoned"
    assert store.game(999) is None


def test_a_later_migration_is_applied_once_on_top_of_the_records(backend: Backend) -> None:
    store = backend.open()
    kept = store.record_game(record("alice", "bob"))
    store.close()
    later = (*backend.migrations, ("CREATE TABLE later (name_key TEXT PRIMARY KEY)",))
    store = backend.open(later)
    assert store.version == len(later) and store.game(kept) is not None
    store.close()
    store = backend.open(later)  # nothing left to apply: no second CREATE
    assert store.version == len(later)
    store.close()
    with pytest.raises(StoreError, match=rf"{re.escape(backend.where)}: its schema version {len(later)} is newer "
                                         rf".* \({len(backend.migrations)}\)"):
        backend.open()


def test_a_version_1_file_gains_accounts_and_keeps_its_games(backend: Backend) -> None:
    old = backend.open(backend.migrations[:1])  # as the records slice left it
    kept = old.record_game(record("Alice", "bot1"))
    assert old.version == 1
    old.close()
    store = backend.open()
    assert store.version == len(backend.migrations) and store.game(kept) is not None and store.account("alice") is None
    store.create_account("Alice", "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA")
    store.close()
    store = backend.open()
    account = store.account("alice")
    assert account is not None and account.name == "Alice" and account.hash.endswith("$aGFzaA")
    store.close()


def test_accounts_are_one_a_name_in_any_case_and_keep_their_spelling(backend: Backend) -> None:
    store = backend.open()
    store.create_account("MixedCase", "h1")
    with pytest.raises(AccountExists):
        store.create_account("mixedcase", "h2")
    for asked in ("mixedcase", "MIXEDCASE", "MixedCase"):
        account = store.account(asked)
        assert account is not None and (account.name, account.hash) == ("MixedCase", "h1")
    assert store.account("mixedcas") is None
    store.set_password("MIXEDcase", "h3")
    assert store.account("mixedcase").hash == "h3"  # type: ignore[union-attr]
    with pytest.raises(KeyError):
        store.set_password("nobody", "h4")
    created = store.account("mixedcase").created  # type: ignore[union-attr]
    assert abs(created - time.time()) < 60
    store.close()


def test_a_name_that_looks_like_an_accounts_is_found_and_is_not_registered(backend: Backend) -> None:
    """``CaroI`` (a capital i) reads as ``Carol``: with Carol registered, a guest under it posed as her while she was
    away, and it could be registered too. Her own name in any case is no look-alike of hers."""
    store = backend.open()
    store.create_account("Carol", "h1")
    for alike in ("CaroI", "car0l", "Caro1", "CAROL"[:4] + "|"):
        assert store.look_alike(alike) == "Carol"
        with pytest.raises(LooksRegistered) as refused:
            store.create_account(alike, "h2")
        assert (refused.value.name, refused.value.account) == (alike, "Carol")
        assert store.account(alike) is None
    assert store.look_alike("carol") is None and store.look_alike("CAROL") is None and store.look_alike("Carl") is None
    with pytest.raises(AccountExists):  # the name itself is taken, not a look-alike
        store.create_account("cAROL", "h3")
    store.create_account("rnark", "h4")
    assert store.look_alike("mark") == "rnark" and store.look_alike("rnark") is None
    store.close()


def test_a_version_8_database_gains_its_accounts_looks_and_look_alikes_made_before_keep_their_names(
        backend: Backend) -> None:
    """Accounts that already look alike (registered before names were compared by their look) both stay, each
    its own: the look is filled for every row, the oldest is the one a new name is said to look like, and neither
    is the other's look-alike for a new registration of its own name (AccountExists, not a refusal by look)."""
    backend.open(backend.migrations[:8]).close()  # as version 8's code left it, its accounts written as it wrote them
    backend.query("INSERT INTO accounts VALUES ('caroi', 'CaroI', 'h2', 2.0), ('carol', 'Carol', 'h1', 1.0), "
                  "('vvi11_0', 'VVi11_0', 'h3', 3.0)")
    store = backend.open()
    assert store.version == len(backend.migrations) >= 9
    assert backend.query("SELECT name_key, look FROM accounts ORDER BY name_key") == [
        ("caroi", "carol"), ("carol", "carol"), ("vvi11_0", skeleton("VVi11_0"))]
    assert [(a.name, a.hash) for a in map(store.account, ("carol", "CAROI"))] == [("Carol", "h1"), ("CaroI", "h2")]
    assert store.look_alike("car0l") == "Carol"  # the older of the two
    assert store.look_alike("Carol") == "CaroI" and store.look_alike("CaroI") == "Carol"  # each: the other
    assert store.look_alike("caroi") is None  # its name with a small i, as a guest would show it: no l
    assert store.look_alike("wi1l-o") == "VVi11_0"
    with pytest.raises(AccountExists):
        store.create_account("CAROI", "h4")
    index = {"sqlite": "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'accounts'",
             "postgres": "SELECT indexname FROM pg_indexes WHERE tablename = 'accounts'"}[backend.name]
    assert ("accounts_by_look",) in backend.query(index)
    store.close()


def test_the_stored_look_is_usertext_skeleton_on_every_short_name(backend: Backend) -> None:
    """The look is worked out in SQL (a generated column) and by ``usertext.skeleton`` (names online): a rule
    changed in one and not the other would let look-alikes of accounts through. Every name of up to 3 of the
    letters the rule maps and those around them, and 4 of those making pairs (``rnrn``, ``vvv``)."""
    alphabet = "01iI|5_-rnmvwolsLOV"
    names = ["".join(p) for n in (1, 2, 3) for p in itertools.product(alphabet, repeat=n)]
    names += ["".join(p) for p in itertools.product("rnvw", repeat=4)]
    store = backend.open()
    rows = ", ".join("(?)" for _ in names)
    with store._reading() as db:  # the store's own SQL, on its own connection: the expression as the column has it
        looked = db.execute(store._sql(f"WITH names (n) AS (VALUES {rows}) SELECT n, {looks('n')} FROM names"),
                            names).fetchall()
    assert {name: look for name, look in looked} == {name: skeleton(name) for name in names}
    store.close()


def test_two_processes_registering_look_alikes_at_once_make_one_of_them(backend: Backend) -> None:
    """Two processes on one database (a cluster on PostgreSQL), each checking before it inserts, both found no
    look-alike and both registered: the check and the insert hold off the other's (Dialect.lock)."""
    first, second = backend.open(), backend.open()

    def registering(store: Store, name: str) -> Callable[[], str]:
        def register() -> str:
            try:
                store.create_account(name, "h")
            except LooksRegistered as exc:
                return f"refused for {exc.account}"
            return "registered"
        return register

    for round_ in range(10):
        one, two = f"carol{round_}", f"caroI{round_}"
        results = at_once(registering(first, one), registering(second, two))
        assert sorted(results) == sorted(["registered", f"refused for {one if results[0] == 'registered' else two}"])
        assert [store.look_alike(f"car0l{round_}") for store in (first, second)] == [
            one if results[0] == "registered" else two] * 2


def refused(path: Path, match: str) -> None:
    """Opening the data directory of ``path`` fails naming the file and ``match``, and leaves it untouched."""
    before = path.read_bytes()
    with pytest.raises(StoreError) as caught:
        open_store(path.parent)
    assert str(path) in str(caught.value) and match in str(caught.value), caught.value
    assert "\n" not in str(caught.value)  # one line (quick_check's report ran over two: found by a probe)
    assert path.read_bytes() == before
    assert not path.with_name(path.name + "-wal").exists()


def test_a_file_that_is_no_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / FILENAME
    path.write_bytes(b"my notes, not a database\n" * 200)
    refused(path, "not a database")


def test_another_programs_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / FILENAME
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (id INTEGER)")
    db.commit()
    db.close()
    refused(path, "not a mudwiz database")


def test_a_damaged_mudwiz_database_is_refused_untouched(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    for i in range(200):  # enough rows for several pages, so that a page in the middle can be broken
        store.record_game(record(f"p{i}", "bot1"))
    store.close()
    path = tmp_path / FILENAME
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    whole = bytes(data)
    data[3 * page:4 * page] = b"\xff" * page  # page 4: SQLite's report of it runs over two lines
    path.write_bytes(bytes(data))
    refused(path, "damaged")
    data = bytearray(whole)
    data[2 * page:3 * page] = b"\xa5" * page
    path.write_bytes(bytes(data))
    refused(path, "damaged")


def test_a_newer_schema_is_refused_untouched(tmp_path: Path) -> None:
    open_store(tmp_path).close()
    path = tmp_path / FILENAME
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.close()
    refused(path, f"schema version 99 is newer than this mudwiz knows ({len(MIGRATIONS)})")


def test_a_file_locked_by_another_process_is_refused(tmp_path: Path) -> None:
    open_store(tmp_path).close()
    other = sqlite3.connect(tmp_path / FILENAME, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match=rf"{tmp_path / FILENAME}: it is locked by another process"):
            open_store(tmp_path)
    finally:
        other.execute("ROLLBACK")
        other.close()
    open_store(tmp_path).close()  # and once the lock is gone it opens


def test_a_directory_that_cannot_be_made_or_written_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(StoreError, match=rf"cannot create the data directory {blocker / 'data'}"):
        open_store(blocker / "data")
    readonly = tmp_path / "readonly"
    readonly.mkdir()
    readonly.chmod(0o500)
    if os.access(readonly, os.W_OK):  # root writes anywhere: /proc is read-only even for root
        readonly = Path("/proc")
    with pytest.raises(StoreError, match=rf"{readonly / FILENAME}: it cannot be opened or created"):
        open_store(readonly)
    assert not (readonly / FILENAME).exists()


def test_a_version_2_file_gains_roles_and_bans_and_keeps_its_accounts_and_games(backend: Backend) -> None:
    old = backend.open(backend.migrations[:2])  # as the accounts slice left it
    kept = old.record_game(record("Alice", "bot1"))
    assert old.version == 2
    backend.query("INSERT INTO accounts VALUES ('alice', 'Alice', 'h1', 1.0)")  # as its code registered one
    old.close()
    store = backend.open()
    assert store.version == len(backend.migrations) and store.game(kept) is not None
    account = store.account("ALICE")
    assert account is not None and account.hash == "h1" and store.roles("alice") == set()
    store.grant_role("alice", "sysop")
    store.close()
    store = backend.open()
    assert store.roles("Alice") == {"sysop"} and store.holders("sysop") == ["Alice"]
    store.close()


def test_roles_belong_to_accounts_in_any_case(backend: Backend) -> None:
    store = backend.open()
    with pytest.raises(KeyError):
        store.grant_role("guest", "sysop")  # no account: no role
    store.create_account("Bob", "h")
    store.create_account("alice", "h")
    store.grant_role("BOB", "sysop")
    store.grant_role("bob", "sysop")  # twice is once
    store.grant_role("Alice", "sysop")
    assert store.roles("bob") == {"sysop"} and store.holders("sysop") == ["alice", "Bob"]
    assert store.revoke_role("Bob", "sysop") and not store.revoke_role("bob", "sysop")
    assert store.roles("BOB") == set() and store.holders("sysop") == ["alice"]
    store.close()


def test_bans_by_name_and_address_expire_are_replaced_and_lifted(backend: Backend) -> None:
    store = backend.open()
    store.add_ban(Ban("name", "Mallory", 1100.0, "alice", 1000.0))
    store.add_ban(Ban("address", "10.0.0.2", None, "admin", 1001.0))
    assert store.ban_on("name", "MALLORY", 1099.0) == Ban("name", "Mallory", 1100.0, "alice", 1000.0)
    assert store.ban_on("name", "mallory", 1100.0) is None  # expired at its time
    assert store.ban_on("address", "10.0.0.2", 1e12) is not None and store.ban_on("address", "10.0.0.3", 0) is None
    assert store.ban_on("name", "10.0.0.2", 0) is None  # a name ban and an address ban are different things
    assert [b.target for b in store.bans(1050.0)] == ["Mallory", "10.0.0.2"]
    assert [b.target for b in store.bans(2000.0)] == ["10.0.0.2"]
    store.add_ban(Ban("name", "mallory", None, "carol", 1500.0))  # banned again: replaces the first
    assert store.bans(2000.0)[-1] == Ban("name", "mallory", None, "carol", 1500.0)
    store.close()
    store = backend.open()  # bans outlast a restart
    assert len(store.bans(2000.0)) == 2
    assert store.lift_ban("name", "MALLORY") and not store.lift_ban("name", "mallory")
    assert store.lift_ban("address", "10.0.0.2") and store.bans(0) == []
    store.close()


def test_a_new_store_is_migrated_from_version_0_and_marked_as_mudwizs(backend: Backend) -> None:
    store = backend.open()
    assert store.version == len(backend.migrations)
    assert store.where == backend.where and store.open_tables() == [] and store.top("wizard") == []
    store.close()
    again = backend.open()  # a second open finds it ours and at its version: nothing applied twice
    assert again.version == len(backend.migrations)


# ---------------------------------------------------------------- what only PostgreSQL has


def postgres_store(url: str) -> PostgresStore:
    from mudwiz.store.postgres import PostgresStore

    return PostgresStore(url)


def test_postgres_refuses_another_programs_database_untouched(postgres: Databases | str) -> None:
    import psycopg

    with postgres_databases(postgres).fresh() as url:
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("CREATE TABLE photos (id INTEGER)")
        with pytest.raises(StoreError, match=r"it is not a mudwiz database \(another program's tables: photos\)"):
            postgres_store(url)
        with psycopg.connect(url, autocommit=True) as db:
            names = {n for (n,) in db.execute("SELECT table_name FROM information_schema.tables "
                                              "WHERE table_schema = 'public'")}
        assert names == {"photos"}


def test_postgres_refuses_a_newer_schema_untouched(postgres: Databases | str) -> None:
    import psycopg

    with postgres_databases(postgres).fresh() as url:
        postgres_store(url).close()
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("UPDATE mudwiz_schema SET version = 99")
        with pytest.raises(StoreError) as caught:
            postgres_store(url)
        known = len(importlib.import_module("mudwiz.store.postgres").MIGRATIONS)
        assert f"schema version 99 is newer than this mudwiz knows ({known})" in str(caught.value)
        with psycopg.connect(url, autocommit=True) as db:
            assert db.execute("SELECT version FROM mudwiz_schema").fetchone() == (99,)


def test_postgres_that_cannot_be_reached_or_has_no_such_database_is_one_clear_line(
        postgres: Databases | str, tmp_path: Path) -> None:
    databases = postgres_databases(postgres)
    nowhere = f"postgresql://postgres@/postgres?host={tmp_path}&port=1"
    with pytest.raises(StoreError) as caught:
        postgres_store(nowhere)
    message = str(caught.value)
    assert message.startswith(f"{nowhere}: the server cannot be reached") and "\n" not in message, message
    missing = databases.url.replace("@/postgres?", "@/no_such_db?")
    with pytest.raises(StoreError, match=r"no_such_db.*: there is no such database \(create it: createdb\)"):
        postgres_store(missing)


def test_postgres_names_its_database_without_the_password() -> None:
    from mudwiz.store.postgres import redacted

    assert redacted("postgresql://mud:s3cret@db.example:5432/mudwiz") == "postgresql://mud:***@db.example:5432/mudwiz"
    assert redacted("postgresql://mud@/mudwiz?host=/tmp") == "postgresql://mud@/mudwiz?host=/tmp"


def test_the_server_uses_postgres_when_given_a_database_url(postgres: Databases | str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """``MUDWIZ_DATABASE_URL`` selects the store: a game recorded through the service is in the database."""
    from twisted.application.service import MultiService
    from twisted.internet.task import Clock

    from mudwiz.service import storage

    with postgres_databases(postgres).fresh() as url:
        monkeypatch.setenv("MUDWIZ_DATABASE_URL", url)
        records, accounts, writer = storage(MultiService(), Clock(), str(tmp_path))
        assert writer is None and records.store.where == url
        accounts.store.create_account("Alice", "h")
        assert not (tmp_path / FILENAME).exists()
        records.store.close()
        again = postgres_store(url)
        assert again.account("alice") is not None
        again.close()


def test_postgres_connections_dropped_by_the_server_cost_the_statement_under_way_only(
        postgres: Databases | str) -> None:
    """As when PostgreSQL restarts under a running mudwiz: the next use of each connection fails in one line,
    and the one after works on a new connection (records and journal alike)."""
    import psycopg

    with postgres_databases(postgres).fresh() as url:
        store = postgres_store(url)
        store.create_account("Alice", "h")
        store.save_table(1, {"game": "wizard"})
        with psycopg.connect(url, autocommit=True) as admin:
            ended = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = "
                                  "current_database() AND pid <> pg_backend_pid()").fetchone()
        assert ended == (2,)
        with pytest.raises(StoreError, match=r"the server cannot be reached or dropped the connection"):
            store.account("alice")
        with pytest.raises(StoreError) as caught:
            store.add_table_move(1, 0, 0, "bid 1", 0.5)
        assert "\n" not in str(caught.value)
        assert store.account("alice") is not None
        store.add_table_move(1, 0, 0, "bid 1", 0.5)
        assert [t.moves for t in store.open_tables()] == [[{"seat": 0, "action": "bid 1", "t": 0.5}]]
        store.close()


def test_without_the_postgres_client_a_database_url_is_one_clear_line() -> None:
    """``psycopg`` is an optional extra: a server told to use PostgreSQL without it says what to install."""
    script = ("import sys; sys.modules['psycopg'] = None\n"
              "from mudwiz.store import StoreError, open_database\n"
              "try:\n    open_database('postgresql://nobody@/nothing')\n"
              "except StoreError as exc:\n    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30)
    assert done.stdout.startswith("MUDWIZ_DATABASE_URL is set but the PostgreSQL client cannot be loaded"), done
    assert done.stdout.rstrip().endswith("install it: pip install 'mudwiz[postgres]'")


def test_where_postgresql_cannot_be_started_its_tests_skip_saying_why() -> None:
    with pytest.raises(PgUnavailable, match=r"no no-such-initdb: install Debian's postgresql package"):
        binary("no-such-initdb")
    with pytest.raises(pytest.skip.Exception, match="PostgreSQL cannot be started here: no initdb"):
        postgres_databases("no initdb")
