"""What outlives a run of the server, behind one interface (``Store``); the one place in mudwiz with SQL.

A low layer: it imports nothing of the tables, lobby, commands or connections, which hold a ``Store`` and hand it
plain records.
"""

from mudwiz.store.base import (
    Account,
    AccountExists,
    Ban,
    GameRecord,
    GameSummary,
    JournaledTable,
    RateGame,
    Rating,
    Store,
    StoreError,
    iso_time,
)
from mudwiz.store.sqlite import FILENAME, SQLiteStore, open_store

__all__ = ["FILENAME", "Account", "AccountExists", "Ban", "GameRecord", "GameSummary", "JournaledTable", "RateGame",
           "Rating", "SQLiteStore", "Store", "StoreError", "iso_time", "open_store"]
