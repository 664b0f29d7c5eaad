"""The store's one SQL layer (mudwiz/store/sql.py): every statement is stated once, in sql.py, and each backend's
``Dialect`` turns it into its own; the backends' modules keep their schema's DDL and their connections but no
statement on the store's tables. (That the translated statements do the same on both databases is the whole store
suite, run on both: tests/store/test_store.py, test_store_nodes.py, test_journal.py, test_ratings.py,
test_sysops.py.)"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from mudwiz.store import sqlite
from mudwiz.store.journal_sql import TABLE_NODES
from mudwiz.store.sql import SQLStore

STORE = Path(sqlite.__file__).parent
TABLES = ("games", "game_seats", "accounts", "roles", "bans", "ratings", "tables", "table_moves", "table_ids")
DML = re.compile(rf"\b(INSERT INTO|UPDATE|DELETE FROM|FROM|JOIN)\s+({'|'.join(TABLES)})\b", re.IGNORECASE)


def strings_outside_migrations(path: Path) -> list[str]:
    """The string constants of a module, but for those of its ``MIGRATIONS`` (the DDL that is the backend's own)."""
    tree = ast.parse(path.read_text())
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(isinstance(t, ast.Name) and t.id == "MIGRATIONS" for t in targets):
                skipped |= {id(n) for n in ast.walk(node)}
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skipped]


@pytest.mark.parametrize("module", ["sqlite.py", "postgres.py"])
def test_a_backend_module_states_no_statement_on_the_stores_tables(module: str) -> None:
    found = [text for text in strings_outside_migrations(STORE / module) if DML.search(text)]
    assert found == []
    assert any(DML.search(text) for text in strings_outside_migrations(STORE / "sql.py"))  # the check can see one


def test_each_backend_is_the_shared_store_with_its_dialect() -> None:
    from mudwiz.store.postgres import DIALECT as PG
    from mudwiz.store.postgres import MIGRATIONS as PG_MIGRATIONS
    from mudwiz.store.postgres import PostgresStore

    assert issubclass(sqlite.SQLiteStore, SQLStore) and issubclass(PostgresStore, SQLStore)
    assert sqlite.MIGRATIONS[5] is PG_MIGRATIONS[5] is TABLE_NODES  # a version both state alike, written once
    assert len(sqlite.MIGRATIONS) == len(PG_MIGRATIONS)
    text = "SELECT x FROM t WHERE a = ? AND b > {greatest}(c, ?) ORDER BY d{text_order}"
    assert sqlite.DIALECT.sql(text) == "SELECT x FROM t WHERE a = ? AND b > max(c, ?) ORDER BY d"
    assert PG.sql(text) == 'SELECT x FROM t WHERE a = %s AND b > greatest(c, %s) ORDER BY d COLLATE "C"'
    assert sqlite.DIALECT.one_of("k", ["a", "b"]) == ("k IN (?,?)", ("a", "b"))
    assert PG.one_of("k", ["a", "b"]) == ("k = ANY(?)", (["a", "b"],))
