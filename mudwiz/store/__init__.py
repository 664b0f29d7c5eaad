"""What outlives a run of the server, behind one interface (``Store``); the one place in mudwiz with SQL.

A low layer: it imports nothing of the tables, lobby, commands or connections, which hold a ``Store`` and hand it
plain records.
"""

from mudwiz.store.base import (
    Account,
    AccountExists,
    GameRecord,
    GameSummary,
    JournaledTable,
    Store,
    StoreError,
    iso_time,
)
from mudwiz.store.sqlite import FILENAME, SQLiteStore, open_store

__all__ = ["FILENAME", "Account", "AccountExists", "GameRecord",
           "GameSummary", "JournaledTable", "SQLiteStore", "Store", "StoreError", "iso_time", "open_store"]
