"""What outlives a run of the server, behind one interface (``Store``); the one place in mudwiz with SQL.

A low layer: it imports nothing of the tables, lobby, commands or connections, which hold a ``Store`` and hand it
plain records.
"""

from mudwiz.store.base import (
    Account,
    AccountExists,
    Ban,
    Claim,
    GameRecord,
    GameSummary,
    JournaledTable,
    LooksRegistered,
    RateGame,
    Rating,
    Store,
    StoreError,
    TableMove,
    iso_time,
)
from mudwiz.store.sqlite import FILENAME, SQLiteStore, open_store


def open_database(url: str) -> Store:
    """The store on the PostgreSQL server of ``url`` (``MUDWIZ_DATABASE_URL``); psycopg is an optional extra,
    imported only here, so a server on SQLite does not need it."""
    try:
        from mudwiz.store.postgres import PostgresStore
    except ImportError as exc:
        raise StoreError(f"MUDWIZ_DATABASE_URL is set but the PostgreSQL client cannot be loaded ({exc}); "
                         "install it: pip install 'mudwiz[postgres]'") from None
    return PostgresStore(url)

__all__ = ["FILENAME", "Account", "AccountExists", "Ban", "Claim", "GameRecord", "GameSummary", "JournaledTable",
           "LooksRegistered", "RateGame", "Rating", "SQLiteStore", "Store", "StoreError", "TableMove", "iso_time",
           "open_database", "open_store"]
